"""Which glyphs a reader cannot see, and why (ISO 32000-1 8.5.4, 9.3.6, 11.6.4.4, 14.11.2).

:func:`page_visibility` gives every glyph of a page a :class:`Visibility`: a tuple of
reason ids (:data:`REASONS`), empty when a reader sees the glyph. Extractors output most
hidden text all the same: this is what tells a user (or a RAG pipeline) which text was
never on the screen.

How each reason is decided, from the interpreter's state and the glyph's box
(:mod:`.geometry`; "the centre" is the box's):

- ``invisible_mode``: text render mode (Tr) 3 or 7, neither fill nor stroke.
- ``clipped``: the centre is outside the clip in force — the bounds of the W/W* paths and
  form /BBoxes intersected so far (exact for axis-aligned rectangles, a box around any
  other path, so a glyph inside a curved clip's box is not reported).
- ``off_page``: the centre is outside the CropBox (within the MediaBox, 14.11.2).
- ``transparent``: the alpha of the paint it uses is 0 (ExtGState /ca, or /CA for stroke-only modes).
- ``tiny``: the box and the font size are both under :data:`TINY_PT` points high on the
  page (a font whose metrics give a flat box is no reason).
- ``same_color_as_background``: its colour (in RGB, tolerance :data:`COLOR_TOLERANCE`)
  equals the background: the colour of what was painted last under its centre when that is
  an opaque rectangle fill, else the white page when nothing was; under anything else (an
  image, a shading, a curved or translucent fill) the background is unknown, and so it is
  when a transparency group composited with a blend mode, alpha or soft mask is painted
  over the glyph later (:attr:`~.interpreter.Painted.composited`: not modelled). Only Device Gray/RGB/CMYK colours are compared: a Separation
  tint or an ICC colour is not guessed at, and an image under the glyph is no known colour.
- ``covered``: an opaque rectangle fill or an opaque image painted later covers its whole box
  (only rectangles known exactly: ``re`` under an axis-aligned CTM, images likewise).
- ``duplicate``: a glyph of the same code and font, visible, was drawn within
  :data:`DUPLICATE_EM` em of it before (fake bold, shadows).
- ``optional_content_off``: it is drawn inside optional content that the document's
  default configuration turns off (``/OC`` marked content, or a form or annotation with
  ``/OC``: :mod:`..core.optional`); paints in such content neither cover nor colour the
  background of other glyphs.
- ``draws_nothing``: its glyph in the embedded program has no outline (a space's, or one a
  subsetter emptied: :attr:`~..fonts.embedded.FontProgram.blank`) while its text is not white
  space: ``#`` mapped to a space glyph, letters on glyphs a subset left empty.
"""
from __future__ import annotations

import bisect
import math
import unicodedata
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from ..core.objects import Dict, Ref
from ..fonts.font import FontCache
from ..fonts.resolve import Resolver
from .interpreter import Budget, Painted, Rect, Step
from .state import GraphicsState, multiply
from .geometry import union
from .textlayout import SPACE_GAP, GlyphRecord, page_steps

TINY_PT = 1.0  # rendered height below which a glyph is too small to read
DUPLICATE_EM = 0.1  # distance between origins, in em, of a duplicate
COLOR_TOLERANCE = 0.01  # per RGB component, 0–1
EDGE = 0.5  # points a covering rectangle may fall short of the glyph's box

# Reason id → the sentence shown to people.
REASONS = {
    "invisible_mode": "text render mode 3 or 7: neither filled nor stroked (9.3.6)",
    "clipped": "outside the clipping path in force (W/W* or a form's /BBox, 8.5.4)",
    "off_page": "outside the page's CropBox (14.11.2)",
    "transparent": "painted with alpha 0 (ExtGState /ca or /CA, 11.6.4.4)",
    "tiny": f"rendered less than {TINY_PT:g} pt high",
    "same_color_as_background": "painted in the colour of the background under it",
    "covered": "an opaque fill or image painted later covers it",
    "duplicate": f"the same code of the same font was drawn within {DUPLICATE_EM:g} em before (fake bold, shadow)",
    "optional_content_off": "in optional content (a layer) that the default view turns off (8.11)",
    "draws_nothing": "its glyph in the embedded font program has no outline, and its text is not white space",
}
WHITE = (1.0, 1.0, 1.0)
DEVICE_SPACES = frozenset({"DeviceGray", "DeviceRGB", "DeviceCMYK", "G", "RGB", "CMYK"})
_FILLS = frozenset({0, 2, 4, 6})  # render modes that fill the glyph
_STROKES = frozenset({1, 5})  # that only stroke it


@dataclass(frozen=True, slots=True)
class Visibility:
    """Why glyph ``index`` cannot be seen: reason ids of :data:`REASONS`, empty when it can."""

    index: int
    reasons: tuple[str, ...] = ()

    @property
    def visible(self) -> bool:
        return not self.reasons


def page_visibility(doc, page_ref: Ref, resolver: Resolver | None = None, fonts: FontCache | None = None,
                    budget: Budget | None = None, *, annots: bool = True
                    ) -> tuple[list[GlyphRecord], list[Visibility]]:
    """The page's glyph records (as :func:`~.textlayout.page_glyphs`) and their visibility."""
    paints: list[Any] = []  # the interpreter's PaintRecords, filled as the steps come
    resolver = resolver or Resolver.of(doc)
    return visibility(page_steps(doc, page_ref, resolver, fonts, budget, annots=annots, paints=paints),
                      page_box(doc, page_ref), paints, blank_glyphs(resolver))


def page_box(doc, page_ref: Ref) -> Rect | None:
    """The page's CropBox within its MediaBox (both inherited, 7.7.3.3), or ``None``."""
    page = doc.resolve(page_ref)
    if not isinstance(page, Dict):
        return None
    media = _box(doc, doc.inherited(page, "MediaBox"))
    crop = _box(doc, doc.inherited(page, "CropBox"))
    if media is None:
        return crop
    if crop is None:
        return media
    box = (max(media[0], crop[0]), max(media[1], crop[1]), min(media[2], crop[2]), min(media[3], crop[3]))
    return box if box[2] > box[0] and box[3] > box[1] else media


def _box(doc, value) -> Rect | None:
    arr = doc.resolve(value)
    try:
        nums = [float(doc.resolve(x)) for x in arr] if arr is not None else []
    except (TypeError, ValueError):
        return None
    if len(nums) != 4:
        return None
    return min(nums[0], nums[2]), min(nums[1], nums[3]), max(nums[0], nums[2]), max(nums[1], nums[3])


def visibility(steps: Iterable[tuple[Step, list[GlyphRecord]]], crop: Rect | None = None,
               recorded: list | None = None, blank: Callable[[GlyphRecord], bool] | None = None
               ) -> tuple[list[GlyphRecord], list[Visibility]]:
    """Records and visibility from :func:`~.textlayout.page_steps`' pairs; ``crop`` is the page box;
    ``recorded`` the list of :class:`~.interpreter.PaintRecord` given to ``page_steps`` as ``paints``
    (the paints not yielded as steps: read, and emptied, as each step comes); ``blank`` tells a
    glyph that draws nothing (:func:`blank_glyphs`)."""
    records: list[GlyphRecord] = []
    reasons: list[list[str]] = []
    # every paint (painted, its colour when known exactly: an opaque Device-colour rectangle)
    paints: list[tuple[Painted, tuple[float, float, float] | None]] = []
    order: list[int] = []  # per record: how many paints came before it
    colors: dict[tuple, tuple[float, float, float] | None] = {}  # (space, values) → RGB

    def add(p: Painted, space: str, values: tuple, marked: tuple) -> None:
        if marked and any(m.oc_hidden for m in marked):
            return
        rgb = None
        if p.kind == "fill" and p.exact and p.opaque:
            key = (space, values)
            rgb = colors[key] if key in colors else colors.setdefault(key, _device_rgb(space, values))
        paints.append((p, rgb))

    for step, recs in steps:
        if recorded:
            for pr in recorded:
                add(pr.painted, pr.fill_space, pr.fill_color, pr.marked)
            recorded.clear()
        if step.painted is not None:
            add(step.painted, step.gstate.fill_space, step.gstate.fill_color, step.marked)
        for r in recs:
            records.append(r)
            order.append(len(paints))
            reasons.append(_own_reasons(r, crop))
    for pr in recorded or ():  # drawn after the last step
        add(pr.painted, pr.fill_space, pr.fill_color, pr.marked)
    _background_and_cover(records, reasons, order, paints, crop)
    _duplicates(records, reasons)
    if blank is not None:
        for r, why in zip(records, reasons):
            if blank(r):
                why.append("draws_nothing")
    return records, [Visibility(r.index, tuple(why)) for r, why in zip(records, reasons)]


def blank_glyphs(resolver: Resolver) -> Callable[[GlyphRecord], bool]:
    """Whether a glyph record's glyph has no outline in its font's embedded program while its own
    text (the mapping's, not an /ActualText) is not white space, control or format characters."""
    known: dict[tuple[object, int | None, str | None], bool] = {}

    def blank(r: GlyphRecord) -> bool:
        font, res = r.step.font, r.resolution
        if font is None or not font.embedded or font.subtype == "Type3":
            return False
        key = (font, res.gid, res.glyph_name)
        if key not in known:
            prog = resolver.program(font)
            gid = res.gid if res.gid is not None or prog is None else prog.gid_of_name(res.glyph_name or "")
            known[key] = prog is not None and gid in prog.blank
        return known[key] and any(unicodedata.category(c)[0] not in "ZC" for c in res.unicode)

    return blank


def _center(r: GlyphRecord) -> tuple[float, float]:
    return r.bbox.center if r.bbox is not None else r.glyph.page_xy


def _inside(x: float, y: float, rect: Rect) -> bool:
    return rect[0] <= x <= rect[2] and rect[1] <= y <= rect[3]


def _overlaps(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _oc_hidden(step: Step) -> bool:
    return any(m.oc_hidden for m in step.marked)


def _own_reasons(r: GlyphRecord, crop: Rect | None) -> list[str]:
    gs = r.step.gstate
    mode = gs.text.render
    out = []
    if mode in (3, 7):
        out.append("invisible_mode")
    if _oc_hidden(r.step):
        out.append("optional_content_off")
    x, y = _center(r)
    if gs.clip is not None and not _inside(x, y, gs.clip):
        out.append("clipped")
    if crop is not None and not _inside(x, y, crop):
        out.append("off_page")
    if (mode in _FILLS and gs.fill_alpha <= 0.0) or (mode in _STROKES and gs.stroke_alpha <= 0.0):
        out.append("transparent")
    if _height(r) < TINY_PT:
        out.append("tiny")
    return out


def _height(r: GlyphRecord) -> float:
    """The larger of the glyph box's height on the page (across its baseline) and the font size there."""
    step = r.step
    m = multiply(step.tm, step.gstate.ctm) if step.tm is not None else step.gstate.ctm
    size = abs(step.gstate.text.size) * math.hypot(m[2], m[3])
    if step.font is not None and step.font.subtype == "Type3":  # its em is the font matrix's
        fm = step.font.font_matrix
        size *= 1000 * math.hypot(fm[2], fm[3])
    if r.bbox is None:
        return size
    q = r.bbox.page
    return max(size, math.hypot(q[6] - q[0], q[7] - q[1]))


def _rgb(gs: GraphicsState, fill: bool) -> tuple[float, float, float] | None:
    """The fill (or stroke) colour as RGB 0–1, for Device Gray/RGB/CMYK-like colours."""
    return _device_rgb(gs.fill_space, gs.fill_color) if fill else _device_rgb(gs.stroke_space, gs.stroke_color)


def _device_rgb(space: str, values: tuple) -> tuple[float, float, float] | None:
    """The colour ``values`` of ``space`` as RGB 0–1, for Device Gray/RGB/CMYK-like spaces."""
    if space not in DEVICE_SPACES:
        return None
    if not values or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return None
    v = [min(max(float(x), 0.0), 1.0) for x in values]
    if len(v) == 1:
        return (v[0], v[0], v[0])
    if len(v) == 3:
        return (v[0], v[1], v[2])
    if len(v) == 4:
        k = 1.0 - v[3]
        return ((1.0 - v[0]) * k, (1.0 - v[1]) * k, (1.0 - v[2]) * k)
    return None


def _same(a, b) -> bool:
    return all(abs(x - y) <= COLOR_TOLERANCE for x, y in zip(a, b))


class _PaintIndex:
    """The paints of a page by the :data:`CELL` pt grid cells their rectangles overlap (each
    cell's list in painting order). The grid spans ``area`` (the page box); points beyond it
    fall in its border cells. A glyph's ``covered`` and composited tests look at the paints
    of the cell of its centre (:meth:`at`)."""

    def __init__(self, paints: list[tuple[Painted, tuple[float, float, float] | None]], area: Rect,
                 size: float = 64.0, keep=None):
        self.area, self.size = area, size
        self.cells: dict[tuple[int, int], list[int]] = {}
        for n, (p, _) in enumerate(paints):
            if keep is None or keep(p):
                (cx0, cy0), (cx1, cy1) = self.cell(p.rect[0], p.rect[1]), self.cell(p.rect[2], p.rect[3])
                for cx in range(cx0, cx1 + 1):
                    for cy in range(cy0, cy1 + 1):
                        self.cells.setdefault((cx, cy), []).append(n)

    def cell(self, x: float, y: float) -> tuple[int, int]:
        a, size = self.area, self.size
        return int((min(max(x, a[0]), a[2]) - a[0]) // size), int((min(max(y, a[1]), a[3]) - a[1]) // size)

    def at(self, x: float, y: float) -> list[int]:
        """The paints (indexes, in order) whose rectangle may hold the point."""
        return self.cells.get(self.cell(x, y), [])


class _Levels:
    """The same paints on grids of :data:`FINE` pt, 4× as large, 16×…: each paint on the finest
    grid whose cells are as large as it is (so it lies in at most 2 × 2 of them). A point's cell
    on each grid holds every paint whose rectangle holds the point, and little else."""

    def __init__(self, paints: list[tuple[Painted, tuple[float, float, float] | None]], area: Rect):
        self.area = area
        ax0, ay0, ax1, ay1 = area
        fine: dict[tuple[int, int], list[int]] = {}
        self.grids: dict[float, dict[tuple[int, int], list[int]]] = {FINE: fine}
        extent = max(ax1 - ax0, ay1 - ay0)
        for n, (p, _) in enumerate(paints):
            x0, y0, x1, y1 = p.rect
            if x1 - x0 <= FINE and y1 - y0 <= FINE and ax0 <= x0 and x1 <= ax1 and ay0 <= y0 and y1 <= ay1:
                size, cells = FINE, fine  # most paints: small, on the page
            else:
                x0, y0 = min(max(x0, ax0), ax1), min(max(y0, ay0), ay1)
                x1, y1 = min(max(x1, ax0), ax1), min(max(y1, ay0), ay1)
                size = FINE
                while size < max(x1 - x0, y1 - y0) and size < extent:
                    size *= 4
                cells = self.grids.setdefault(size, {})
            cx0, cx1 = int((x0 - ax0) // size), int((x1 - ax0) // size)
            cy0, cy1 = int((y0 - ay0) // size), int((y1 - ay0) // size)
            if cx0 == cx1 and cy0 == cy1:
                cells.setdefault((cx0, cy0), []).append(n)
                continue
            for cx in range(cx0, cx1 + 1):
                for cy in range(cy0, cy1 + 1):
                    cells.setdefault((cx, cy), []).append(n)

    def near(self, x0: float, y0: float, x1: float, y1: float) -> list[list[int]]:
        """The cells' lists (each in painting order) of the paints that may meet the rectangle
        x0 y0 x1 y1 (a point when ``x0 == x1`` and ``y0 == y1``)."""
        a = self.area
        x0, x1 = min(max(x0, a[0]), a[2]) - a[0], min(max(x1, a[0]), a[2]) - a[0]
        y0, y1 = min(max(y0, a[1]), a[3]) - a[1], min(max(y1, a[1]), a[3]) - a[1]
        out = []
        for size, cells in self.grids.items():
            for cx in range(int(x0 // size), int(x1 // size) + 1):
                for cy in range(int(y0 // size), int(y1 // size) + 1):
                    here = cells.get((cx, cy))
                    if here:
                        out.append(here)
        return out


CELL = 64.0  # points: the paint index's grid
_NO_COVER: Rect = (math.inf, math.inf, -math.inf, -math.inf)  # covers nothing
FINE = 8.0  # points: the finest grid of the levels
REACH = 5_000.0  # points each way of the origin the grid spans when the page box is unknown


def _background_and_cover(records, reasons, order, paints, crop: Rect | None) -> None:
    """``same_color_as_background`` and ``covered`` for each record not hidden already."""
    if not records:
        return
    area = crop or (-REACH, -REACH, REACH, REACH)
    grid = _PaintIndex([], area)  # the cells candidates for ``covered`` must overlap
    levels = _Levels(paints, area)
    composited = _PaintIndex(paints, area, keep=lambda p: p.composited)
    covers = [p.rect if p.exact and p.opaque else _NO_COVER for p, _ in paints]  # what may cover a glyph
    step, color = None, None
    for r, why, before in zip(records, reasons, order):
        if why:
            continue
        if r.step is not step:  # a step's glyphs share its colour
            step = r.step
            color = _rgb(step.gstate, fill=step.gstate.text.render not in _STROKES)
        x, y = _center(r)
        background: tuple[float, float, float] | None = None
        if color is not None:
            background = WHITE
            last = -1  # the last paint before the glyph under its centre
            for here in levels.near(x, y, x, y):
                for k in range(bisect.bisect_left(here, before) - 1, -1, -1):
                    i = here[k]
                    if i <= last:
                        break
                    if _inside(x, y, paints[i][0].rect):
                        last = i
                        break
            if last >= 0:
                background = paints[last][1]  # None: a colour not known (image, shading, curve…)
        box = r.bbox.rect if r.bbox is not None else (x, y, x, y)
        if background is not None and _same(color, background) and not any(
                paints[i][0].composited and _overlaps(paints[i][0].rect, box)
                for i in _after(composited.at(x, y), before)):
            why.append("same_color_as_background")
        if _covered(covers, levels, grid, box, x, y, before):
            why.append("covered")


def _after(here: list[int], before: int) -> list[int]:
    return here[bisect.bisect_left(here, before):]


def _covered(covers: list[Rect], levels: _Levels, grid: _PaintIndex, box: Rect, x: float, y: float,
             before: int) -> bool:
    """Whether an exact, opaque paint after the glyph (``covers``: each paint's rectangle when it is
    one, else :data:`_NO_COVER`) covers its ``box`` (within :data:`EDGE`) and overlaps the grid cell
    of its centre ``x y``: such a paint comes within EDGE of the centre."""
    left, bottom, right, top = box[0] + EDGE, box[1] + EDGE, box[2] - EDGE, box[3] - EDGE
    for here in levels.near(x - EDGE, y - EDGE, x + EDGE, y + EDGE):
        for k in range(bisect.bisect_left(here, before), len(here)):
            rect = covers[here[k]]
            if rect[0] <= left and rect[1] <= bottom and rect[2] >= right and rect[3] >= top:
                cx, cy = grid.cell(x, y)
                (x0, y0), (x1, y1) = grid.cell(rect[0], rect[1]), grid.cell(rect[2], rect[3])
                if x0 <= cx <= x1 and y0 <= cy <= y1:
                    return True
    return False


def _duplicates(records, reasons) -> None:
    """``duplicate`` for a glyph drawn over a visible one of the same code and font."""
    # (font, code) → cell row → cell column → the origins drawn there; a cell is DUPLICATE_EM em
    # of the glyph that was drawn (or looked for) there
    seen: dict[tuple, dict[int, dict[int, list[tuple[float, float]]]]] = {}
    step, cell = None, 1.0
    for r, why in zip(records, reasons):
        if why or not r.unicode.strip():
            continue
        if r.step is not step:  # a step's glyphs share its em
            step = r.step
            m = multiply(step.tm, step.gstate.ctm) if step.tm is not None else step.gstate.ctm
            cell = DUPLICATE_EM * (abs(step.gstate.text.size) * math.hypot(m[2], m[3]) or 1.0)
        x, y = r.glyph.page_xy
        cx, cy = int(x // cell), int(y // cell)
        rows = seen.setdefault((id(step.font), r.glyph.code), {})
        if any(math.hypot(px - x, py - y) <= cell for dy in (-1, 0, 1) if (row := rows.get(cy + dy))
               for dx in (-1, 0, 1) for px, py in row.get(cx + dx, ())):
            why.append("duplicate")
        else:
            rows.setdefault(cy, {}).setdefault(cx, []).append((x, y))


@dataclass(frozen=True, slots=True)
class HiddenRun:
    """Consecutive hidden glyphs of one line with the same reasons: their text (a space where
    the gap before a glyph is wider than :data:`~.textlayout.SPACE_GAP` em), reasons, page
    box (left, bottom, right, top) and the indexes of the first and last glyph."""

    text: str
    reasons: tuple[str, ...]
    bbox: Rect | None
    first: int
    last: int


def hidden_runs(records: list[GlyphRecord], layouts: list, visibility: list[Visibility]) -> list[HiddenRun]:
    """The runs of hidden text of a page (records, their :class:`~.gaps.GlyphLayout` and visibility)."""
    runs: list[HiddenRun] = []
    run: list[tuple[GlyphRecord, Any]] = []
    reasons: tuple[str, ...] = ()
    for r, lay, vis in zip(records, layouts, visibility):
        if run and (vis.reasons != reasons or lay.starts_line):
            runs.append(_run(run, reasons))
            run = []
        if vis.reasons:
            reasons = vis.reasons
            run.append((r, lay))
    if run:
        runs.append(_run(run, reasons))
    return runs


def _run(run: list[tuple[GlyphRecord, Any]], reasons: tuple[str, ...]) -> HiddenRun:
    text = ""
    for k, (r, lay) in enumerate(run):
        if k and lay.gap is not None and lay.gap.along_em > SPACE_GAP and not text.endswith(" "):
            text += " "
        text += r.unicode
    return HiddenRun(text, reasons, union(r.bbox.rect for r, _ in run if r.bbox is not None),
                     run[0][0].index, run[-1][0].index)
