"""A content step as both front ends show it: the state it leaves, and what it changed.

:func:`state_rows` is the stepper's state panel (matrices, text state, pen, colours, marked
content, form depth; ISO 32000 8.4, 9.3, 14.6); :func:`changes` is what ``pdfinspect ops``
prints beside each operator: the state that differs from the step before.
"""
from __future__ import annotations

from ..content.interpreter import Step
from ..content.state import transform
from ..core.serialize import format_matrix, format_rounded as n
from .text import Row, safe_line

DIAGNOSTIC = "diagnostic"  # the role of a row that reports a problem


def _ref(ref) -> str:
    return f"{ref.num} {ref.gen} R" if ref is not None else "(direct)"


def _color(values) -> str:
    return " ".join(n(x) if isinstance(x, float) else str(x) for x in values)


def _marked(m) -> str:
    return (f"/{safe_line(m.tag)}" + (f" MCID {m.mcid}" if m.mcid is not None else "")
            + (f" /ActualText {safe_line(repr(m.actual_text))}" if m.actual_text is not None else ""))


def _origin(step: Step) -> str:
    """Where the step's content comes from when it is not the page's own."""
    if step.charproc is not None and step.source == step.charproc:
        where = f"  in Type3 glyph procedure {step.charproc}"
    else:
        where = f"  in form {step.source}" if step.depth else ""
    return where + (f"  (annotation {step.annotation})" if step.annotation is not None else "")


def state_rows(step: Step, prev: Step | None = None) -> list[Row]:
    """The graphics and text state after ``step``, terminal-safe; with ``prev`` (the step
    before), a ``changed`` row saying what ``step`` changed, as ``pdfinspect ops`` does."""
    gs, ts = step.gstate, step.gstate.text
    rows = [Row("step", f"{step.index}  {safe_line(step.op)}  offset {step.span[0]}" + _origin(step)),
            Row("CTM", format_matrix(gs.ctm)),
            Row("Tm", format_matrix(step.tm)),
            Row("Tlm", format_matrix(step.tlm)),
            Row("font", f"/{safe_line(ts.font_name)} {_ref(ts.font_ref)}" if ts.font_name else "none"),
            Row("size", f"{n(ts.size)}   Tc {n(ts.char_spacing)}  Tw {n(ts.word_spacing)}  "
                     f"Tz {n(ts.scale)}  TL {n(ts.leading)}  Ts {n(ts.rise)}  Tr {ts.render}")]
    if step.tm is not None:  # the pen: the text matrix's origin
        x, y = transform(gs.ctm, step.tm[4], step.tm[5])
        rows.append(Row("pen", f"({n(x)}, {n(y)}) on the page, ({n(step.tm[4])}, {n(step.tm[5])}) in user space"))
    else:
        rows.append(Row("pen", "— (outside BT/ET)"))
    rows.append(Row("fill", f"{safe_line(gs.fill_space)} {_color(gs.fill_color)}"))
    rows.append(Row("stroke", f"{safe_line(gs.stroke_space)} {_color(gs.stroke_color)}  "
                         f"width {n(gs.line_width)}"))
    rows.append(Row("forms", f"depth {step.depth}"))
    if not step.marked:
        rows.append(Row("marked", "none"))
    for k, m in enumerate(step.marked):
        rows.append(Row("marked" if k == 0 else "", "  " * k + _marked(m)))
    if prev is not None:
        rows.append(Row("changed", "; ".join(changes(prev, step)) or "nothing"))
    rows.extend(Row("!", safe_line(str(d)), DIAGNOSTIC) for d in step.diagnostics)
    return rows


def changes(prev: Step | None, step: Step) -> list[str]:
    """What ``step`` changed compared with the step before it, terminal-safe (snapshots
    compare by identity first, so unchanged state costs nothing)."""
    out: list[str] = []
    a = prev.gstate if prev is not None else None
    b = step.gstate
    if a is not b:
        if a is None or a.ctm != b.ctm:
            out.append(f"CTM {format_matrix(b.ctm)}")
        for attr, label in (("fill_color", "fill"), ("stroke_color", "stroke")):
            space = getattr(b, f"{label}_space")
            if a is None or getattr(a, attr) != getattr(b, attr) or getattr(a, f"{label}_space") != space:
                out.append(f"{label} {safe_line(space)} {_color(getattr(b, attr))}")
        for attr in ("line_width", "line_cap", "line_join", "miter_limit", "dash", "rendering_intent",
                     "flatness", "ext_gstate"):
            if a is not None and getattr(a, attr) != getattr(b, attr):
                out.append(f"{attr.replace('_', ' ')} {safe_line(str(getattr(b, attr)))}")
        ta, tb = (a.text if a is not None else None), b.text
        if ta is not tb and ta is not None:
            if (ta.font_name, ta.font_ref, ta.size) != (tb.font_name, tb.font_ref, tb.size):
                out.append(f"font /{safe_line(str(tb.font_name))} {_ref(tb.font_ref)} size {n(tb.size)}")
            for attr, label in (("char_spacing", "Tc"), ("word_spacing", "Tw"), ("scale", "Tz"),
                                ("leading", "TL"), ("rise", "Ts"), ("render", "Tr")):
                if getattr(ta, attr) != getattr(tb, attr):
                    out.append(f"{label} {n(getattr(tb, attr))}")
    if (prev is None or prev.tm != step.tm) and step.tm is not None:
        out.append(f"Tm {format_matrix(step.tm)}")
    if prev is not None and prev.marked != step.marked:
        if len(step.marked) > len(prev.marked):
            out.append(f"marked {_marked(step.marked[-1])} (depth {len(step.marked)})")
        else:
            out.append(f"marked depth {len(step.marked)}")
    if step.glyphs:
        out.append(f"{len(step.glyphs)} glyph{'s' if len(step.glyphs) != 1 else ''}")
    return out


# Breakpoints of the stepper: an operator name ("Tj"), a font resource ("font:F27": any operator
# showing glyphs with /F27) or a glyph code ("code:14": any operator drawing code <14>, hex).
FONT_BREAK, CODE_BREAK = "font:", "code:"


def breaks_at(breakpoints: set[str], step: Step) -> bool:
    """Whether ``step`` stops a run to the next breakpoint."""
    if step.op in breakpoints:
        return True
    if not step.glyphs:
        return False
    font = step.gstate.text.font_name
    return (font is not None and FONT_BREAK + font in breakpoints) or \
        any(CODE_BREAK + g.code.hex() in breakpoints for g in step.glyphs)


def breakpoint_label(key: str) -> str:
    """How a breakpoint is shown: ``Tj``, ``font /F27``, ``code <14>`` (terminal-safe)."""
    if key.startswith(FONT_BREAK):
        return f"font /{safe_line(key[len(FONT_BREAK):])}"
    if key.startswith(CODE_BREAK):
        return f"code <{key[len(CODE_BREAK):]}>"
    return safe_line(key)
