"""Where each glyph sits: its box in user space and on the page (ISO 32000-1 9.2.4, 9.4.4, 9.7.4.3).

A glyph's box is the rectangle of its advance width by the font's vertical extent, in
glyph space, carried to text space by the font matrix (``/FontMatrix`` for Type3, 1/1000
otherwise), then by the text rendering matrix ``Trm = [Tfs×Th 0 0 Tfs 0 Trise] × Tm`` to
user space and by the CTM to the page. The box is the *loose* one: the same height for
every glyph of a font, as pdfium's ``FPDFText_GetLooseCharBox`` and pdf.js's text layer
draw it, not the outline's ink.

The vertical extent comes, in this order, from the descriptor's ``/Ascent`` and
``/Descent`` (9.8.1), its ``/FontBBox``, the standard 14 font's AFM metrics, or a default
of 0.8 em above and 0.2 em below the baseline; ``FontMetrics.source`` says which. Type3
fonts use their ``/FontBBox`` in glyph space. In vertical writing (``WMode 1``) the pen is
the glyph's vertical origin: the box is placed by the position vector ``v`` of ``/W2``
(default ``w0/2``, ``DW2[0]``) and spans the vertical advance.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import cast

from ..core.objects import Array, Dict, is_integer, is_number
from ..fonts.font import Font
from .interpreter import Glyph, Step
from .state import Matrix

DEFAULT_ASCENT, DEFAULT_DESCENT = 800.0, -200.0  # glyph units of a 1000-unit em
MIN_EXTENT = 100.0  # /Ascent − /Descent below this (a tenth of an em) is a unit mistake, not a font
Quad = tuple[float, float, float, float, float, float, float, float]  # 4 corners: x0 y0 x1 y1 …


@dataclass(frozen=True, slots=True)
class FontMetrics:
    """A font's vertical extent in glyph space, and where it was read."""

    ascent: float
    descent: float
    source: str
    font_matrix: Matrix = (0.001, 0.0, 0.0, 0.001, 0.0, 0.0)
    default_v: float = 880.0  # vertical writing: DW2[0], v1y of every CID without /W2 entry
    positions: dict | None = None  # vertical writing: CID → (v1x, v1y) from /W2
    per_glyph: bool = False  # Type3 without a /FontBBox: each glyph's d1 box gives its extent


@dataclass(frozen=True, slots=True)
class GlyphBox:
    """A glyph's box: ``user`` is its four corners in user space, in the glyph's own frame
    bottom-left (the descent below the origin), bottom-right, top-right, top-left; ``ctm``
    the matrix that carries them to the page."""

    user: Quad
    ctm: Matrix
    _page: Quad | None = field(default=None, init=False, compare=False, repr=False)  # page, once computed

    @property
    def page(self) -> Quad:
        if self._page is not None:
            return self._page
        a, b, c, d, e, f = self.ctm
        u = self.user
        out: list[float] = []
        for i in (0, 2, 4, 6):
            x, y = u[i], u[i + 1]
            out += (a * x + c * y + e, b * x + d * y + f)
        page = cast(Quad, tuple(out))  # four corners
        object.__setattr__(self, "_page", page)
        return page

    @property
    def rect(self) -> tuple[float, float, float, float]:
        """The page box, axis-aligned: (left, bottom, right, top) in default user space."""
        return bounds(self.page)

    @property
    def user_rect(self) -> tuple[float, float, float, float]:
        return bounds(self.user)

    @property
    def center(self) -> tuple[float, float]:
        p = self.page
        return (p[0] + p[4]) / 2, (p[1] + p[5]) / 2


def bounds(q: Quad) -> tuple[float, float, float, float]:
    xs, ys = q[0::2], q[1::2]
    return min(xs), min(ys), max(xs), max(ys)


def union(rects) -> tuple[float, float, float, float] | None:
    """The rectangle around ``rects`` (left, bottom, right, top), or ``None`` for none."""
    rects = list(rects)
    if not rects:
        return None
    return (min(r[0] for r in rects), min(r[1] for r in rects),
            max(r[2] for r in rects), max(r[3] for r in rects))


class Geometry:
    """Glyph boxes for the steps of one document; font metrics are read once per font."""

    def __init__(self, doc):
        self.doc = doc
        self._metrics: dict[Font, FontMetrics] = {}
        self._d1: dict = {}  # Type3 CharProc reference → its d1 vertical extent

    def metrics(self, font: Font) -> FontMetrics:
        m = self._metrics.get(font)
        if m is None:
            m = self._metrics[font] = font_metrics(self.doc, font)
        return m

    def boxes(self, step: Step) -> list[GlyphBox | None]:
        """The box of each glyph ``step`` draws, in order; ``None`` for a glyph whose box is not
        finite (matrices or sizes so large that their product overflows)."""
        if not step.glyphs or step.font is None or step.tm is None:
            return []
        m = self.metrics(step.font)
        extents = {g.charproc: self.d1(g.charproc) for g in step.glyphs} if m.per_glyph else None
        return glyph_boxes(step, m, extents)

    def d1(self, charproc) -> tuple[float, float] | None:
        """(lly, ury) of a Type3 glyph from its ``d1`` operator (9.6.5), or ``None``."""
        if charproc is None:
            return None
        if charproc not in self._d1:
            self._d1[charproc] = _d1_extent(self.doc, charproc)
        return self._d1[charproc]


def glyph_boxes(step: Step, m: FontMetrics, extents: dict | None = None) -> list[GlyphBox | None]:
    ts = step.gstate.text
    size, th = ts.size, ts.scale / 100.0
    assert step.tm is not None and step.font is not None  # glyphs are shown in a text object, with a font
    ta, tb, tc, td = step.tm[:4]  # showing only translates Tm: its linear part is the step's
    fa, fb, fc, fd, fe, ff = m.font_matrix
    # glyph space → user space, less the origin: font matrix, then [Tfs×Th 0 0 Tfs], then Tm
    sa, sb, sc, sd = fa * size * th, fb * size, fc * size * th, fd * size
    la, lb, lc, ld = sa * ta + sb * tc, sa * tb + sb * td, sc * ta + sd * tc, sc * tb + sd * td
    le, lf = fe * size * th * ta + ff * size * tc, fe * size * th * tb + ff * size * td
    vertical = step.font.vertical
    out: list[GlyphBox | None] = []
    if not math.isfinite(sum((la, lb, lc, ld, le, lf) + step.gstate.ctm)):
        return [None] * len(step.glyphs)
    for g in step.glyphs:
        width = g.width / fa if fa else 0.0  # back to glyph units (w0 is after the font matrix)
        if vertical:
            vx, vy = _position(m, g, width)
            x0, x1, y0, y1 = -vx, width - vx, m.descent - vy, m.ascent - vy
        else:
            x0, x1, y0, y1 = 0.0, width, m.descent, m.ascent
            own = extents.get(g.charproc) if extents else None
            if own is not None:
                y0, y1 = own
        ox, oy = g.user_xy[0] + le, g.user_xy[1] + lf
        quad = (la * x0 + lc * y0 + ox, lb * x0 + ld * y0 + oy,
                la * x1 + lc * y0 + ox, lb * x1 + ld * y0 + oy,
                la * x1 + lc * y1 + ox, lb * x1 + ld * y1 + oy,
                la * x0 + lc * y1 + ox, lb * x0 + ld * y1 + oy)
        out.append(GlyphBox(quad, step.gstate.ctm) if math.isfinite(sum(quad)) else None)
    return out


def _position(m: FontMetrics, g: Glyph, width: float) -> tuple[float, float]:
    """The position vector v (glyph units) from the horizontal to the vertical origin (9.7.4.3)."""
    if m.positions and g.cid in m.positions:
        return m.positions[g.cid]
    return width / 2, m.default_v


# -- reading the metrics ------------------------------------------------------------------------
def font_metrics(doc, font: Font) -> FontMetrics:
    """The vertical extent of ``font`` (see the module docstring for the order)."""
    fdict = _dict(doc, font.ref)
    fm = font.font_matrix
    if font.subtype == "Type3":
        box = _rect(doc, fdict.get("FontBBox"))
        if box is not None and box[3] != box[1]:
            return FontMetrics(box[3], box[1], "Type3 /FontBBox", fm)
        scale = abs(fm[3]) * 1000 or 1.0  # the default em, in this font's glyph units
        return FontMetrics(DEFAULT_ASCENT / scale, DEFAULT_DESCENT / scale,
                           "each glyph's d1 box (Type3 /FontBBox empty), else a default", fm, per_glyph=True)
    desc = _dict(doc, font.descriptor_ref)
    if not desc and font.descriptor_ref is None:  # a direct descriptor
        holder = fdict
        if font.is_type0:
            kids = doc.resolve(fdict.get("DescendantFonts"))
            holder = _dict(doc, kids[0]) if isinstance(kids, Array) and kids else Dict()
        desc = _dict(doc, holder.get("FontDescriptor"))
    vertical = _vertical(doc, font) if font.vertical else {}
    box = _rect(doc, desc.get("FontBBox"))
    box = box if box is not None and box[3] > box[1] else None
    ascent, descent = _number(doc, desc.get("Ascent")), _number(doc, desc.get("Descent"))
    if ascent is not None and descent is not None and ascent - descent >= MIN_EXTENT:
        source = "/FontDescriptor /Ascent /Descent"
        if descent > 0:  # a positive /Descent is a sign error (pdfium and pdf.js negate it)
            descent, source = -descent, source + " (positive /Descent negated)"
        if box is not None and (box[3] < ascent or box[1] > descent):
            ascent, descent = min(ascent, box[3]), max(descent, box[1])
            source += ", within /FontBBox"
        return FontMetrics(ascent, descent, source, fm, **vertical)
    if box is not None:
        return FontMetrics(box[3], box[1], "/FontDescriptor /FontBBox" + (
            " (/Ascent /Descent unusable)" if ascent is not None or descent is not None else ""), fm, **vertical)
    std = font.standard_name
    if std is not None:
        from ..fonts.pdfminerdata import module

        afm = module("fontmetrics").FONT_METRICS[std][0]
        bbox = cast("tuple[float, float, float, float]", afm["FontBBox"])
        return FontMetrics(bbox[3], bbox[1], f"{std} AFM /FontBBox", fm, **vertical)
    return FontMetrics(DEFAULT_ASCENT, DEFAULT_DESCENT, "default (no usable font metrics)", fm, **vertical)


def _d1_extent(doc, ref) -> tuple[float, float] | None:
    """The vertical extent ``d1`` declares in a CharProc (its first operator), if usable."""
    from .tokenizer import iter_operations

    obj = doc.get(ref.num, ref.gen)
    if obj is None or not hasattr(obj.value, "raw"):
        return None
    for op in iter_operations(doc.stream_data(obj, limit=1 << 20).data):
        if op.op != b"d1" or len(op.operands) != 6:
            return None
        nums = [float(x) for x in op.operands if is_number(x) and not isinstance(x, bool)]
        return (min(nums[3], nums[5]), max(nums[3], nums[5])) if len(nums) == 6 and nums[5] != nums[3] else None
    return None


def _vertical(doc, font: Font) -> dict:
    """``default_v`` and ``positions`` of a vertical CIDFont from /DW2 and /W2."""
    cid = _dict(doc, font.cid_font.ref if font.cid_font else None)
    if not cid:
        kids = doc.resolve(_dict(doc, font.ref).get("DescendantFonts"))
        cid = _dict(doc, kids[0]) if isinstance(kids, Array) and kids else Dict()
    dw2 = doc.resolve(cid.get("DW2"))
    default_v = 880.0
    if isinstance(dw2, Array) and len(dw2) == 2 and is_number(doc.resolve(dw2[0])):
        default_v = float(doc.resolve(dw2[0]))
    positions: dict[int, tuple[float, float]] = {}
    items = doc.resolve(cid.get("W2"))
    items = [doc.resolve(x) for x in items] if isinstance(items, Array) else []
    i = 0
    while i + 1 < len(items):
        first, nxt = items[i], items[i + 1]
        if is_integer(first) and isinstance(nxt, Array):
            vals = [_number(doc, x) or 0.0 for x in nxt]
            for k in range(len(vals) // 3):
                positions[first + k] = (vals[3 * k + 1], vals[3 * k + 2])
            i += 2
        elif is_integer(first) and is_integer(nxt) and i + 4 < len(items):
            v = (_number(doc, items[i + 3]) or 0.0, _number(doc, items[i + 4]) or 0.0)
            for c in range(first, min(nxt, first + 65535) + 1):
                positions[c] = v
            i += 5
        else:
            break
    return {"default_v": default_v, "positions": positions or None}


def _dict(doc, value) -> Dict:
    d = doc.resolve(value) if value is not None else None
    return d if isinstance(d, Dict) else Dict()


def _number(doc, value) -> float | None:
    v = doc.resolve(value)
    return float(v) if is_number(v) and not isinstance(v, bool) else None


def _rect(doc, value) -> tuple[float, float, float, float] | None:
    arr = doc.resolve(value)
    if not isinstance(arr, Array) or len(arr) != 4:
        return None
    x0, y0, x1, y1 = (_number(doc, x) for x in arr)
    if x0 is None or y0 is None or x1 is None or y1 is None:
        return None
    return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)
