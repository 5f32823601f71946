"""The space between glyphs: gaps, writing direction and lines (ISO 32000-1 9.4.3, 9.4.4).

For every glyph, :func:`glyph_layouts` measures the displacement of its origin from the
*end of the previous glyph* — the previous origin moved by that glyph's own width
(w0 × Tfs × Th, or its vertical advance in vertical writing), before Tc and Tw — and
splits it along the previous glyph's baseline (``along``: positive forward) and across it
(``across``: positive up). Both are given in points of default user space (the page,
after the CTM) and in em, the previous glyph's font size on the page.

The causes say what made the gap (:data:`CAUSES`): the TJ number before the glyph, the
previous glyph's Tc and Tw, Tz scaling them, a text-positioning operator, a new text
object, a form or annotation boundary, a change of Ts; ``advance`` alone means the pen
only advanced by the glyph width. ``parts`` gives the share of the gap along the baseline
that each of tj_adjust, char_spacing and word_spacing accounts for, in em.

Each glyph's run has a direction (``ltr``, ``rtl`` for right-to-left letters, ``rotated``
with the baseline's angle on the page, ``vertical`` for WMode 1 fonts) and a line id: a
new line starts (hpdft's heuristic, in the glyph's own frame, so rotated and vertical
text stays whole) when the direction changes, the baseline moves across by more than
:data:`LINE_JUMP` em, or the pen moves back by more than :data:`BACKWARDS` em.
"""
from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass
from typing import Iterable

from .state import Matrix, multiply

LINE_JUMP = 0.6  # baseline change, in em, that starts a new line
BACKWARDS = 2.0  # move back along the baseline, in em, that starts a new line
ANGLE_TOLERANCE = 1.0  # degrees: baselines closer than this have the same direction

# Cause id → what it means (the sentence shown to people).
CAUSES = {
    "advance": "the pen advanced by the previous glyph's width only",
    "tj_adjust": "a number in the TJ array moved the pen (9.4.3)",
    "char_spacing": "character spacing Tc after the previous glyph (9.3.2)",
    "word_spacing": "word spacing Tw after the previous glyph, a single-byte code 32 (9.3.3)",
    "horizontal_scaling": "horizontal scaling Tz scaled the spacing (9.3.4)",
    "text_move": "a text-positioning operator (Td, TD, Tm, T*, ' or \") moved the pen (9.4.2)",
    "new_bt": "a new text object (BT) started with a fresh text matrix (9.4.1)",
    "text_rise": "the text rise Ts changed (9.3.7)",
    "form_boundary": "the glyph is in another form XObject or Type3 glyph procedure (8.10)",
    "annotation_boundary": "the glyph is in another annotation's appearance stream (12.5.5)",
}
DIRECTIONS = ("ltr", "rtl", "rotated", "vertical")


@dataclass(frozen=True, slots=True)
class Gap:
    """The displacement of a glyph from the end of the previous one (see the module docstring).

    ``along_pt``/``across_pt`` are points of default user space (the page); ``*_em`` the
    same in em of the previous glyph's size on the page (``em_pt``). ``tj`` is the TJ
    number(s) just before the glyph (thousandths of text space, as written), ``None`` when
    there were none; ``parts`` the share of ``along_em`` of each spacing cause.
    """

    along_pt: float
    across_pt: float
    along_em: float
    across_em: float
    em_pt: float
    causes: tuple[str, ...]
    tj: float | None = None
    parts: tuple[tuple[str, float], ...] = ()

    def part(self, cause: str) -> float:
        """The share of ``along_em`` that ``cause`` accounts for (0 when none)."""
        return next((v for c, v in self.parts if c == cause), 0.0)


@dataclass(frozen=True, slots=True)
class GlyphLayout:
    """Where a glyph stands in the text: its gap before (``None`` for a page's first glyph),
    the direction of its run, the baseline angle on the page (degrees, counter-clockwise),
    the id of its line (0, 1, … in drawing order) and its own em on the page in points."""

    index: int
    gap: Gap | None
    direction: str
    angle: float
    line: int
    starts_line: bool = False  # the glyph starts its line (the page's first glyph does)
    em_pt: float = 1.0


def _frame(record) -> tuple[Matrix, bool]:
    step = record.step
    m = multiply(step.tm, step.gstate.ctm) if step.tm is not None else step.gstate.ctm
    return m, step.font is not None and step.font.vertical


def _unit(x: float, y: float) -> tuple[float, float, float]:
    n = math.hypot(x, y)
    return (x / n, y / n, n) if n else (1.0, 0.0, 0.0)


_RTL = frozenset({"R", "AL"})


def _rtl(text: str) -> bool:
    """Whether ``text`` has a right-to-left letter."""
    return bool(text) and any(unicodedata.bidirectional(ch) in _RTL for ch in text)


def glyph_layouts(records: Iterable) -> list[GlyphLayout]:
    """The :class:`GlyphLayout` of each glyph record (:class:`~.textlayout.GlyphRecord`), in order."""
    out: list[GlyphLayout] = []
    prev = None  # (record, end x, end y, unit along, em_pt, direction, angle, spacing frame)
    line = -1
    step = None
    rtl: dict[str, bool] = {}  # a glyph's text → whether it has right-to-left letters
    frame: tuple[float, float, bool] | None = None
    for r in records:
        if r.step is not step:  # the frame, baseline, em and text axis of a step are its glyphs'
            step = r.step
            m, vertical = _frame(r)
            ts = step.gstate.text
            if vertical:  # along is down the text space y axis
                ux, uy, _ = _unit(-m[2], -m[3])
            else:
                ux, uy, _ = _unit(m[0], m[1])
            angle = round(math.degrees(math.atan2(uy, ux)) + (90.0 if vertical else 0.0), 1)
            angle = 0.0 if angle == -0.0 else angle
            em = abs(ts.size) * math.hypot(m[2], m[3]) if not vertical else abs(ts.size) * math.hypot(m[0], m[1])
            em = em or 1.0
            fixed = "vertical" if vertical else "rotated" if abs(angle) > ANGLE_TOLERANCE else None
            th = ts.scale / 100.0
            axis = None  # the text axis, when a glyph's end is wanted
            frame = None  # the step's spacing frame, when a gap after one of its glyphs is wanted
        g = r.glyph
        if fixed is not None:
            direction = fixed
        else:
            text = r.unicode
            has = rtl.get(text)
            if has is None:
                has = rtl[text] = _rtl(text)
            direction = "rtl" if has else "ltr"
        gap = None
        new_line = True
        if prev is not None:
            pr, ex, ey, (pux, puy), pem, pdir, pangle, pframe = prev
            dx, dy = g.page_xy[0] - ex, g.page_xy[1] - ey
            along, across = dx * pux + dy * puy, -dx * puy + dy * pux
            if pframe is None:
                pframe = _spacing_frame(pr.step, pem)
                if pr.step is step:
                    frame = pframe
            causes, parts, tj = _causes(pr, r, pframe)
            if not causes:
                causes = ("advance",) if abs(along) < 1e-6 * pem and abs(across) < 1e-6 * pem else ("text_move",)
            gap = Gap(along, across, along / pem, across / pem, pem, causes, tj, parts)
            same_way = (pdir == direction or {pdir, direction} <= {"ltr", "rtl"}) and abs(pangle - angle) <= ANGLE_TOLERANCE
            new_line = (not same_way or abs(across) > LINE_JUMP * max(pem, em)
                        or along < -BACKWARDS * max(pem, em))
        if new_line:
            line += 1
        out.append(GlyphLayout(r.index, gap, direction, angle, line, new_line, em))
        # the end of this glyph: its origin moved by its own width (no Tc, Tw)
        spacing = ts.char_spacing + (ts.word_spacing if g.code == b" " else 0.0)
        if axis is None:
            axis = _ty(step) if vertical else _tx(step)
        if vertical:  # text space y
            width = g.advance - spacing
        else:  # text space x
            width = g.advance - spacing * th
        ex, ey = g.page_xy[0] + width * axis[0], g.page_xy[1] + width * axis[1]
        prev = (r, ex, ey, (ux, uy), em, direction, angle, frame)
    return out


def _tx(step) -> tuple[float, float]:
    """Text space's x axis (one unit) on the page."""
    tm = step.tm
    ctm = step.gstate.ctm
    return (tm[0] * ctm[0] + tm[1] * ctm[2], tm[0] * ctm[1] + tm[1] * ctm[3])


def _ty(step) -> tuple[float, float]:
    """Text space's y axis (one unit) on the page."""
    tm = step.tm
    ctm = step.gstate.ctm
    return (tm[2] * ctm[0] + tm[3] * ctm[2], tm[2] * ctm[1] + tm[3] * ctm[3])


def _spacing_frame(step, em: float) -> tuple[float, float, bool]:
    """(Tz as a factor, text space x unit in em, vertical) of the spacing after a glyph of ``step``
    (``em``: its em on the page); in vertical writing, Tz does not apply and the unit is y's."""
    th = step.gstate.text.scale / 100.0
    scale = math.hypot(*_tx(step)) / em if step.tm is not None else 0.0  # text space x unit in em
    vertical = step.font is not None and step.font.vertical
    if vertical:
        th, scale = 1.0, math.hypot(*_ty(step)) / em
    return th, scale, vertical


def _causes(prev, cur, frame: tuple[float, float, bool]
            ) -> tuple[tuple[str, ...], tuple[tuple[str, float], ...], float | None]:
    """(causes, parts, TJ number) of the gap between the records ``prev`` and ``cur`` (``frame``:
    :func:`_spacing_frame` of ``prev``'s step)."""
    ps, cs = prev.step, cur.step
    if ps is not cs:
        causes: list[str] = []
        if ps.annotation != cs.annotation:
            return ("annotation_boundary",), (), None
        if ps.source != cs.source:
            causes.append("form_boundary")
        if ps.text_object != cs.text_object:
            return tuple(causes + ["new_bt"]), (), None
        if ps.tlm != cs.tlm or cs.op in ("'", '"'):
            return tuple(causes + ["text_move"]), (), None
        if causes:
            return tuple(causes), (), None
    parts: list[tuple[str, float]] = []
    pts = ps.gstate.text
    th, scale, vertical = frame
    if pts.char_spacing:
        parts.append(("char_spacing", pts.char_spacing * th * scale * (-1.0 if vertical else 1.0)))
    if pts.word_spacing and prev.glyph.code == b" ":
        parts.append(("word_spacing", pts.word_spacing * th * scale * (-1.0 if vertical else 1.0)))
    tj = cur.glyph.adjust or None
    if tj is not None:
        cts = cs.gstate.text
        parts.append(("tj_adjust", -tj / 1000.0 * cts.size * (1.0 if vertical else cts.scale / 100.0) * scale
                      * (-1.0 if vertical else 1.0)))
    if not parts:  # the pen only advanced (or Ts changed)
        return ("text_rise",) if pts.rise != cs.gstate.text.rise else (), (), tj
    causes = [c for c, _ in parts]
    if th != 1.0:
        causes.append("horizontal_scaling")
    if pts.rise != cs.gstate.text.rise:
        causes.append("text_rise")
    return tuple(causes), tuple([(c, round(v, 6)) for c, v in parts]), tj
