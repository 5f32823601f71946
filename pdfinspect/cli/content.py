"""CLI commands over page content: ``ops``, ``glyphs``, ``fonts``, ``text``.

``register(subparsers)`` adds them to the main parser; ``pdfinspect.cli`` dispatches to
``cmd_<name>(args, out)``. Every string from the PDF goes through
:mod:`pdfinspect.present.text` before it reaches the terminal.
"""
from __future__ import annotations

import gc
import json
import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING

from .common import (add_common_options, dump_json, open_document, page_number, page_numbers, page_of, page_spec,
                     pages_or_label, progress)
from ..core.diagnostics import PdfError, error
from ..content.order import ORDERS
from ..core.numbers import json_encoder
from ..core.serialize import format_object
from ..present.text import safe, safe_line
from ..spec.extractors import NAMES as EXTRACTOR_NAMES

if TYPE_CHECKING:
    from ..content.textlayout import GlyphRecord
    from ..fonts.resolve import Resolver

# Each command imports what it uses in its body: the parser registers all four, and ``glyphs``
# needs neither the text scanner nor the reading orders nor the font reports (start-up time).

_FLAT = 10 ** 9  # format_object width that keeps every value on one line


def register(subparsers) -> None:
    """Add the ``ops``, ``glyphs``, ``fonts`` and ``text`` subcommands."""
    specs = (("ops", "numbered content operators of a page with the state changes they cause"),
             ("glyphs", "every glyph of a page: code, CID, GID, glyph name, Unicode and how it was found"),
             ("fonts", "fonts used on a page (or every page): encoding, ToUnicode, program, resolution"),
             ("text", "page text, lines found by pen movement (hpdft's heuristic)"))
    for name, helptext in specs:
        s = subparsers.add_parser(name, help=helptext)
        s.add_argument("file")
        if name == "text":
            s.add_argument("-p", "--page", type=pages_or_label, default=None,
                           help="page number or range (3, 3-7, 3-), 1-based, or a page label (default: every "
                                "page, each followed by a form feed as pdftotext does)")
        else:
            s.add_argument("-p", "--page", type=page_spec, default=None if name == "fonts" else 1,
                           help="page number, 1-based, or page label" + (" (default: every page)" if name == "fonts"
                                                                          else " (default 1)"))
        if name in ("ops", "glyphs", "fonts"):
            s.add_argument("--json", action="store_true", help="machine-readable records")
        if name == "text":
            s.add_argument("--order", choices=ORDERS, default="content",
                           help="content: as the content stream draws; structure: the structure tree's "
                                "order (tagged PDF); columns: column-aware, from the page geometry")
        if name == "glyphs":
            s.add_argument("--path", action="store_true", help="show each glyph's resolution path")
        if name == "text":
            s.add_argument("--as", dest="as_extractor", choices=EXTRACTOR_NAMES, metavar="NAME",
                           help="the text extractor NAME would output, emulated from its rules (never "
                                "run): " + ", ".join(EXTRACTOR_NAMES))
        if name in ("glyphs", "text"):
            s.add_argument("--guesses", action="store_true",
                           help="keep the text of heuristic results judged implausible (confidence 'guess'), "
                                "which is otherwise left out")
        if name in ("glyphs", "text", "fonts"):
            s.add_argument("--shapes", metavar="TABLE",
                           help="a shape table learned by 'audit --learn-shapes': glyphs no method resolves are "
                                "read by their outline, and mappings their outline contradicts are flagged "
                                "(default: the document's own shapes)")
        s.add_argument("--no-annots", dest="annots", action="store_false",
                       help="leave out the annotations' appearance streams (drawn after the page "
                            "content, each glyph marked with its annotation)")
        add_common_options(s)


def resolver_for(args, doc) -> Resolver:
    """The resolver the options ask for: guesses kept or not, a learned shape table or none."""
    from ..fonts.resolve import Resolver

    shapes = None
    if getattr(args, "shapes", None):
        from ..fonts.shapevote import ShapeTable

        try:
            shapes = ShapeTable.load(args.shapes)
        except OSError as e:
            raise PdfError(error("shapes-unreadable", f"--shapes {args.shapes}: {e.strerror or e}")) from None
        except ValueError as e:
            raise PdfError(error("shapes-unreadable", str(e))) from None
    return Resolver(doc, guesses=getattr(args, "guesses", False), shapes=shapes)


def _operand_text(v) -> str:
    """An operand on one line; inline image data only by its size."""
    if isinstance(v, (bytes, bytearray)):
        return f"<{len(v)} bytes>"
    return format_object(v, width=_FLAT)


def _operand_json(v):
    if v is None or isinstance(v, (bool, int, float)):
        return v
    return _operand_text(v)


def _ref(ref) -> str | None:
    return str(ref) if ref is not None else None


STREAM_CHUNK = 256  # records per write: streamed, without a system call per record when unbuffered


def stream_json(records, dumps=None) -> None:
    """A JSON array on stdout written as ``records`` yields them (one record a line, ASCII,
    a few hundred records per write); the array is closed even when the records stop early.
    ``dumps`` encodes a record (default: as JSON)."""
    write, dumps = sys.stdout.write, dumps or json_encoder(ensure_ascii=True)
    chunk, sep = ["["], "\n"
    try:
        for rec in records:
            chunk.append(sep + dumps(rec))
            sep = ",\n"
            if len(chunk) >= STREAM_CHUNK:
                write("".join(chunk))
                chunk = []
    finally:
        chunk.append("\n]\n")
        write("".join(chunk))


# -- ops -----------------------------------------------------------------------------------------
def cmd_ops(args, out) -> int:
    from ..content.interpreter import iter_steps
    from ..fonts.resolve import Resolver
    from ..present.content import changes

    doc = open_document(args)
    steps = iter_steps(doc, page_of(doc, args.page), annots=args.annots)
    text_of = _shown_text(Resolver(doc))
    if args.json:
        def records():
            prev = None
            for s in steps:
                yield {"index": s.index, "op": s.op, "operands": [_operand_json(v) for v in s.operands],
                       "offset": s.span[0], "end": s.span[1], "depth": s.depth, "source": _ref(s.source),
                       "annotation": _ref(s.annotation), "charproc": _ref(s.charproc),
                       "diagnostics": [str(d) for d in s.diagnostics], "text": text_of(s),
                       "changes": changes(prev, s), "state": _state_json(s)}
                prev = s
        stream_json(records())
        return 0
    prev = None
    for s in steps:
        pad = "  " * s.depth
        operands = " ".join(_operand_text(v) for v in s.operands)
        if len(operands) > 120:
            operands = operands[:117] + "…"
        text = f"{pad}{operands} {s.op}".rstrip() if operands else f"{pad}{s.op}"
        shown = text_of(s)
        note = "; ".join(changes(prev, s) + ([f"text {json.dumps(shown, ensure_ascii=False)}"] if shown else []))
        out.line(f"{s.index:>6} @{s.span[0]:<7} " + safe_line(text) + (f"   % {safe_line(note)}" if note else ""))
        for d in s.diagnostics:
            out.line(f"{'':>15}{pad}! {safe_line(str(d))}")
        prev = s
    return 0


def _shown_text(resolver: Resolver):
    """A function giving the text a step shows (its glyphs resolved, /ActualText applied), or None."""
    from ..content.textlayout import step_records

    used: set[int] = set()
    given: list = []  # keeps the ActualText sequences in ``used`` alive (see step_records)

    def text(step) -> str | None:
        if not step.glyphs:
            return None
        records = step_records(step, resolver, used, 0)
        given.append(records[0].actual_text)
        return "".join(r.unicode for r in records)
    return text


def _state_json(s) -> dict:
    gs, ts = s.gstate, s.gstate.text
    return {"ctm": list(gs.ctm), "tm": list(s.tm) if s.tm is not None else None, "font": ts.font_name,
            "font_ref": _ref(ts.font_ref), "size": ts.size, "Tc": ts.char_spacing, "Tw": ts.word_spacing,
            "Tz": ts.scale, "TL": ts.leading, "Ts": ts.rise, "Tr": ts.render,
            "fill": [gs.fill_space, *gs.fill_color], "stroke": [gs.stroke_space, *gs.stroke_color],
            "marked": [{"tag": m.tag, "mcid": m.mcid} for m in s.marked]}


# -- glyphs --------------------------------------------------------------------------------------
def _path_json(r: GlyphRecord) -> list[dict]:
    return [{"method": p.method, "source": _ref(p.source), "source_desc": p.source_desc,
             "looked_up": p.looked_up, "result": p.result, "detail": p.detail, "unicode": p.unicode,
             "confidence": p.confidence, "used_by": list(p.used_by), "code": p.code}
            for p in r.path]


def glyph_json(r: GlyphRecord, path: bool = True) -> dict:
    """A glyph's ``glyphs --json`` record; without ``path``, its ``path`` is ``None``."""
    s, g = r.step, r.glyph
    return {"index": r.index, **_step_head(s), "code": g.code.hex(), "cid": g.cid, **_resolution_head(r, path),
            "x": round(g.page_xy[0], 3), "y": round(g.page_xy[1], 3), **_step_tail(s),
            **_resolution_tail(r.resolution), **box_json(r.bbox)}


# glyph_json's keys in parts: of the step (shared by its glyphs), of the resolution (shared by every
# glyph it resolves, unless ActualText replaces the text), of the glyph
def _step_head(s) -> dict:
    return {"op": s.index, "operator": s.op, "depth": s.depth, "font": s.gstate.text.font_name,
            "font_ref": _ref(s.font.ref if s.font else None)}


def _step_tail(s) -> dict:
    return {"annotation": _ref(s.annotation), "charproc": _ref(s.charproc)}


def _resolution_head(r: GlyphRecord, path: bool) -> dict:
    res = r.resolution
    conflicts = [{"method": c.method, "unicode": c.unicode} for c in res.conflicts]
    if r.actual_text is not None and res.unicode != r.unicode:
        conflicts.append({"method": res.method, "unicode": res.unicode})
    return {"gid": res.gid, "glyph_name": res.glyph_name, "unicode": r.unicode, "method": r.method,
            "path": _path_json(r) if path else None, "conflicts": conflicts,
            "flags": [f.code for f in res.flags], "flag_messages": [f.message for f in res.flags]}


def _resolution_tail(res) -> dict:
    return {"confidence": res.confidence, "heuristic": res.heuristic, "used_by": list(res.used_by),
            "spec_unicode": res.spec_unicode, "tounicode_only": res.tounicode_only}


def box_json(box) -> dict:
    """``bbox`` (page, axis-aligned: left bottom right top), ``bbox_user`` and the page ``quad``."""
    if box is None:
        return {"bbox": None, "bbox_user": None, "quad": None}
    return {"bbox": [round(v, 3) for v in box.rect], "bbox_user": [round(v, 3) for v in box.user_rect],
            "quad": [round(v, 3) for v in box.page]}


class _Coordinates(dict):
    """The float key ``v`` as json writes ``round(v, 3)`` (``null`` when not finite), remembered: a
    glyph's box repeats its corners, a line its glyphs' bottom and top and its baseline, a glyph
    its neighbour's edge, a font size its em. A zero is never remembered: 0.0 and -0.0 are one key
    but not one text (and so are 5 and 5.0: the keys are floats only)."""

    def __missing__(self, v: float) -> str:
        text = _number(round(v, 3))
        if v:
            self[v] = text
        return text


def _box_text(box, texts: _Coordinates) -> str:
    """box_json's keys as json writes them (``texts``: the coordinates written so far)."""
    if box is None:
        return '"bbox": null, "bbox_user": null, "quad": null'
    q, u = box.page, box.user
    xs, ys, uxs, uys = q[0::2], q[1::2], u[0::2], u[1::2]  # the rectangles, as geometry.bounds
    return (f'"bbox": [{texts[min(xs)]}, {texts[min(ys)]}, {texts[max(xs)]}, {texts[max(ys)]}], '
            f'"bbox_user": [{texts[min(uxs)]}, {texts[min(uys)]}, {texts[max(uxs)]}, {texts[max(uys)]}], '
            f'"quad": [{texts[q[0]]}, {texts[q[1]]}, {texts[q[2]]}, {texts[q[3]]}, {texts[q[4]]}, {texts[q[5]]}, '
            f'{texts[q[6]]}, {texts[q[7]]}]')


def _number(v: float | None) -> str:
    """A number (an int or a float) or ``None`` as json writes it, ``null`` when not finite."""
    return "null" if v is None or v - v != 0 else repr(v)


class _Encoded(dict):
    """A string (or ``None``), or a tuple of strings as a list, as json writes it, remembered (the
    ids of directions, gap causes and hidden reasons, operators, font names and references: a few
    distinct values on a page)."""

    def __init__(self, dumps):
        super().__init__()
        self.dumps = dumps

    def __missing__(self, key) -> str:
        text = self[key] = self.dumps(list(key) if isinstance(key, tuple) else key)
        return text


def _layout_text(lay, reasons: tuple[str, ...], encoded: _Encoded, texts: _Coordinates) -> str:
    """gap_json's keys and ``hidden`` as json writes them (``texts``: the coordinates written so far;
    a gap's points are floats, and its em, a line's, repeat)."""
    gap = lay.gap
    if gap is None:
        text = '"gap": null'
    else:
        text = (f'"gap": {{"along_em": {_number(round(gap.along_em, 4))}, '
                f'"across_em": {_number(round(gap.across_em, 4))}, '
                f'"along_pt": {texts[gap.along_pt]}, "across_pt": {texts[gap.across_pt]}, '
                f'"em_pt": {texts[gap.em_pt]}, "causes": {encoded[gap.causes]}, "tj": {_number(gap.tj)}, "parts": {{')
        if gap.parts:
            text += ", ".join([f"{encoded[c]}: {_number(v)}" for c, v in {c: round(v, 4) for c, v in gap.parts}.items()])
        text += "}}"
    return (f'{text}, "direction": {encoded[lay.direction]}, "angle": {_number(lay.angle)}, '
            f'"line": {lay.line!r}, "starts_line": {"true" if lay.starts_line else "false"}, '
            f'"hidden": {encoded[reasons]}}}')


def _glyph_dumps():
    """Encode a glyph's ``glyphs --json`` line from ``(record, layout, visibility)``: the same text as
    its glyph_json (with the path), gap_json and ``hidden`` in one object. The parts of the step and
    of the resolution (most glyphs share theirs with many others) are encoded once and spliced in,
    with the glyph's own scalars, before the rest of its keys."""
    dumps = json_encoder(ensure_ascii=True)
    encoded = _Encoded(dumps)
    step_parts: list = [None, "", ""]  # the last step, its head and tail encoded
    resolutions: dict[int, tuple[object, str, str]] = {}  # id(resolution) → (resolution, head, tail)
    texts = _Coordinates()

    def part(d: dict) -> str:
        return dumps(d)[1:-1]

    def encode(item) -> str:
        r, lay, vis = item
        s = r.step
        if step_parts[0] is not s:  # _step_head's and _step_tail's keys (ints, strings or null)
            head = (f'"op": {s.index:d}, "operator": {encoded[s.op]}, "depth": {s.depth:d}, '
                    f'"font": {encoded[s.gstate.text.font_name]}, '
                    f'"font_ref": {encoded[_ref(s.font.ref if s.font else None)]}')
            tail = f'"annotation": {encoded[_ref(s.annotation)]}, "charproc": {encoded[_ref(s.charproc)]}'
            step_parts[:] = s, head, tail
        res = r.resolution
        known = resolutions.get(id(res)) if r.actual_text is None else None  # the head is the resolution's own
        if known is None:
            known = (res, part(_resolution_head(r, True)), part(_resolution_tail(res)))
            if r.actual_text is None:
                resolutions[id(res)] = known
        g = r.glyph
        x, y = g.page_xy
        if len(texts) > 1 << 16:
            texts.clear()
        # as json writes them: an int, an ASCII string, a float (null when not finite: x - x is nan)
        return (f'{{"index": {r.index:d}, {step_parts[1]}, "code": "{g.code.hex()}", '
                f'"cid": {"null" if g.cid is None else str(g.cid)}, {known[1]}, '
                f'"x": {texts[x] if type(x) is float else _number(round(x, 3))}, '
                f'"y": {texts[y] if type(y) is float else _number(round(y, 3))}, {step_parts[2]}, {known[2]}, '
                f'{_box_text(r.bbox, texts)}, {_layout_text(lay, vis.reasons, encoded, texts)}')
    return encode


@contextmanager
def _fewer_collections():
    """Collect cyclic garbage less often while a page is read: its steps and records are
    acyclic and live till the end, so each full collection (5 on a page of 430,000 operators,
    a tenth of the run) walks them all and frees nothing. mypy raises the threshold likewise."""
    old = gc.get_threshold()
    gc.set_threshold(max(old[0], 100_000), old[1], old[2])
    try:
        yield
    finally:
        gc.set_threshold(*old)


def cmd_glyphs(args, out) -> int:
    from ..fonts.resolve import format_unicode
    from ..present.glyphs import GlyphRow, gap_text, page_glyph_facts, visibility_text

    doc = open_document(args)
    with _fewer_collections():
        facts = page_glyph_facts(doc, page_of(doc, args.page), resolver_for(args, doc), annots=args.annots)
    records = facts.records
    if args.json:
        with _fewer_collections():
            stream_json(zip(records, facts.layouts, facts.visibility), _glyph_dumps())
        return 0
    out.line(f"{'#':>5} {'op':>5} {'font':<8} {'code':<6} {'CID':>6} {'GID':>6} {'glyph':<14} "
             f"{'Unicode':<18} method")
    for r, lay, vis in zip(records, facts.layouts, facts.visibility):
        res, row = r.resolution, GlyphRow.of(r)
        origin = "".join(f"  [{what} {ref}]" for what, ref in (("annotation", r.step.annotation),
                                                               ("Type3 procedure", r.step.charproc)) if ref)
        out.line(f"{r.index:>5} {r.step.index:>5} {safe_line(r.step.gstate.text.font_name or '?'):<8} "
                 f"{row.code:<6} {row.cid:>6} {row.gid:>6} {row.name:<14} {row.unicode:<18} {row.method}"
                 f"{'  !' if row.flagged else ''}{'  hidden' if vis.reasons else ''}{origin}")
        if args.path:
            out.line(f"{'':>12}{gap_text(lay)}")
            if vis.reasons:
                out.line(f"{'':>12}{visibility_text(vis)}")
            for p in r.path:
                out.line(f"{'':>12}{safe_line(str(p))}")
            for c in res.conflicts:
                out.line(f"{'':>12}conflict: {c.method} gives {safe_line(format_unicode(c.unicode))}")
            for f in res.flags:
                out.line(f"{'':>12}flag: {safe_line(f.message)} [{f.code}]")
    return 0


# -- fonts ---------------------------------------------------------------------------------------
def cmd_fonts(args, out) -> int:
    from ..content.fontreports import font_facts, font_reports
    from ..present.fontreport import report_lines, report_record, report_title

    doc = open_document(args)
    pages = [page_number(doc, args.page)] if args.page else None
    resolver = resolver_for(args, doc)
    with progress("reading pages") as tick:  # the reports sum up every page: they come at the end
        reports = font_reports(doc, pages, resolver, annots=args.annots, progress=tick)
    facts = [font_facts(rep, resolver) for rep in reports]
    if args.json:
        dump_json([report_record(f) for f in facts])
        return 0
    for f in facts:
        out.line(report_title(f))
        for line in report_lines(f):
            out.line(line)
    return 0


# -- text ----------------------------------------------------------------------------------------
def cmd_text(args, out) -> int:
    """One page (``-p N``): its text. Several (a range, or every page without ``-p``): each
    page's text followed by a form feed, written page by page, as pdftotext does."""
    from ..content.order import ordered_text
    from ..content.pagetexts import page_text
    from ..content.textlayout import page_glyphs
    from ..content.textscan import TextScanner

    doc = open_document(args)
    annots = getattr(args, "annots", True)
    resolver = resolver_for(args, doc)
    pages = args.page
    if isinstance(pages, str):  # a page label: that page alone
        n = page_number(doc, pages)
        pages = (n, n)
    order = getattr(args, "order", "content")
    scanner = TextScanner(doc, resolver)

    def one(n: int, ref) -> str:
        if getattr(args, "as_extractor", None):
            from ..extractors import emulate, page_frame

            return emulate(args.as_extractor, list(page_glyphs(doc, ref, resolver)), page_frame(doc, ref)).text
        if order != "content":  # the page content alone, reordered (content/order.py)
            return ordered_text(doc, n, ref, order, resolver)
        return page_text(doc, ref, resolver, annots, scanner)

    if pages is not None and pages[0] == pages[1]:
        out.line(safe(one(pages[0], page_of(doc, pages[0]))).rstrip("\n"))
        return 0
    for n, ref in page_numbers(doc, pages):
        sys.stdout.write(safe(one(n, ref)) + "\f")
        sys.stdout.flush()
    return 0
