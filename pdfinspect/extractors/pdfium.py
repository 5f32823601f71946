"""pdfium's text page (``FPDFText_GetText``, pypdfium2 ``get_text_range``), chromium/pdfium 2025.

Source: ``core/fpdftext/cpdf_textpage.cpp`` (chromium/pdfium a843234, November 2025; where
pdfium 8149, which pypdfium2 5.15 ships, behaves otherwise the constant says so). pdfium works
on *text objects* (one per Tj, TJ, ' or "). ``ProcessTextObject`` leaves out an object with
no width (blanks at one place; codes that draw nothing) and one repeating one of the 5 before
it (``IsSameAsPreTextObject``), keeps the objects of one line (their starts within twice a
quarter of the wider glyph, vertically) in a buffer sorted by their start x and writes the
line when the next object leaves it. ``FindTextlineFlowOrientation`` decides for the page
whether lines run across (the text objects' boxes cover more than 80 % of the width they
span, or more of it than of the height) or down the page; an object of one glyph takes the
page's direction (``GetTextObjectWritingMode``). Between objects (``ProcessInsertObject``,
measured in the previous object's text space), in a line that runs across, boxes that no
longer overlap vertically, or a start beyond 2× (up) or 3× (down) a quarter of the wider
glyph off the previous baseline end the line (``\\r\\n``); in a line that runs down the page,
an object whose box leaves the line's box sideways ends it (``EndVerticalLine``).
``GenerateSpace`` puts a space where the start is farther from the previous glyph's end than
``NormalizeThreshold(w, 400, 700, 800)`` of the wider glyph. Inside one object only a TJ
number (less the base space Tc gives) of at least half the font's space width adds a space
(when the space glyph is at most a third of an em wide; otherwise a fraction of the glyph's
own width, ``NormalizeThreshold(w, 300, 500, 700)``) — ``ProcessTextObjectItems``. A glyph
with the same code and font within ``DUP_FACTOR`` × size of one of the last 7 is dropped. A
hyphen ending a line before a letter joins the lines (the hyphen becomes U+FFFE). A line with
right-to-left characters is reordered by runs (``CloseTempLine``). A code with no Unicode is
output as the code itself (a Type3 font's /Encoding gives none). /ActualText replaces the
glyphs. Annotations are not read. Our boxes are the loose ones (the font's ascent and
descent, the advance) where pdfium measures each glyph's outline.
"""
from __future__ import annotations

import collections
import math
import unicodedata
from dataclasses import dataclass
from typing import Sequence

from ..content.state import multiply
from ..fonts.resolve import ACTUAL_TEXT, ENCODING, HIT, TOUNICODE
from . import base

SOURCE = "pdfium core/fpdftext/cpdf_textpage.cpp"
SPACE_FRACTION = 0.5  # CalculateSpaceThreshold: threshold /= 2 (of the space width)
MAX_SPACE = 1 / 3  # CalculateSpaceThreshold: a space wider than fontsize_h / 3 is not used
DUP_FACTOR = 0.07  # ProcessTextObjectItems: kTextCharRatioGapDelta
DUP_WINDOW = 7  # ProcessTextObjectItems: the last 7 characters
MIN_LINE_HEIGHT = 4.5  # EndHorizontalLine: boxes this high or lower never end a line
MIN_LINE_WIDTH = 0.1  # EndVerticalLine: boxes this narrow (× font size) never end a line
TOUCH = 0.01  # kSizeEpsilon: our boxes end at the advance, pdfium's at the outline, so boxes that
# meet (within rounding) do not overlap for it
INK_WIDTH = 500  # GetCharWidth: a glyph of no width is measured by its outline, which we do not
# read; half an em stands for it
SAME_LINE = 2.0  # ProcessTextObject: starts within 2 × a quarter of the wider glyph share a line
UP, DOWN = 2.0, 3.0  # ProcessInsertObject: pos.y > threshold × 2 or < threshold × −3 is a new line
SAME_WINDOW = 5  # IsSameAsPreTextObject: the 5 text objects before
SAME_ADVANCE = 0.9  # IsSameTextObject: starts within 0.9 × the last glyph's width are the same place
SLOPE = 0.0872  # GetTextObjectWritingMode: kThreshold (sin 5°) of the first-to-last glyph direction
COVERED = 0.8  # FindTextlineFlowOrientation: lines run across when the boxes cover > 80 % of the width
WEAK = ("AN", "EN", "NSM", "CS", "ES", "ET", "BN")  # CFX_BidiChar::AppendChar: kLeftWeak
MIRROR = dict(zip("()[]{}<>«»", ")(][}{><»«"))  # pdfium::unicode::GetMirrorChar, the brackets
CONTROL = {0x2, 0x3, 0x93, 0x94, 0x96, 0x97, 0x98}  # IsControlChar: not in the page text
ACROSS, DOWNWARD, UNKNOWN = "horizontal", "vertical", "unknown"  # TextOrientation


def normalize(width: float, t1: int, t2: int, t3: int) -> float:
    """``NormalizeThreshold``: a fraction of a glyph width (thousandths of an em)."""
    if width < t1:
        return width / 2
    if width < t2:
        return width / 4
    if width < t3:
        return width / 5
    return width / 6


def text(record) -> tuple[str, str]:
    font = record.step.font
    type3 = font is not None and font.subtype == "Type3"
    if type3 and record.method != ACTUAL_TEXT and not (
            record.resolution.path and record.resolution.path[0].method == TOUNICODE
            and record.resolution.path[0].result == HIT):
        t = None  # CPDF_Type3Font::LoadGlyphMap is empty: its /Encoding names give no Unicode
    else:
        t = base.spec_text(record, "pdfium", actual_text=True)
    if t and len(t) > 1 and record.method == ENCODING:
        t = None  # UnicodeFromAdobeName gives one character: a ligature name (f_f_i) gives none
    if not t:
        code = base.code_of(record)
        if not 0 < code < 0x110000 or code in CONTROL:
            return "", "no-text"
        return chr(code), "code-as-unicode"
    if any(ord(c) in CONTROL for c in t):  # CPDF_TextPage::Init leaves them out of the text
        return "".join(c for c in t if ord(c) not in CONTROL), "control-dropped"
    if any(0xFB00 <= ord(c) <= 0xFB06 for c in t):  # GetUnicodeNormalization (unicodenormalizationdata.cpp)
        return unicodedata.normalize("NFKC", t), "ligature-expanded"
    return t, ""


@dataclass(slots=True)
class _Object:
    """One text object (the glyphs of one text-showing operator) as pdfium sees it: ``rect``
    its box on the page, ``pos`` its start in the display's frame (x right, y down: the page
    turned by /Rotate), ``mode`` its writing mode."""

    items: list[base.Item]
    indices: list[int]
    rect: base.Box
    pos: tuple[float, float]
    mode: str = UNKNOWN

    @property
    def first(self) -> base.Item:
        return self.items[0]

    @property
    def last(self) -> base.Item:
        return self.items[-1]


def _objects(items: list[base.Item], page: base.Page | None) -> list[_Object]:
    out: list[_Object] = []
    for i, item in enumerate(items):
        if out and out[-1].last.record.step is item.record.step:
            o = out[-1]
            o.items.append(item)
            o.indices.append(i)
            r = item.rect
            o.rect = (min(o.rect[0], r[0]), min(o.rect[1], r[1]), max(o.rect[2], r[2]), max(o.rect[3], r[3]))
            continue
        x, y = page.upright(*item.origin) if page is not None else item.origin
        out.append(_Object([item], [i], item.rect, (x, -y)))
    return out


def _empty(o: _Object, texts: list[tuple[str, str]]) -> bool:
    """``ProcessTextObject`` leaves out an object less than 0.01 wide (``kSizeEpsilon``):
    pdfium's box spans the glyphs' outlines, so a zero-width accent has one and an object
    of blanks at a single position (one space; a code with no character and no glyph) has
    none."""
    if any(not (texts[i][0].isspace() or _no_outline(item.record)) for item, i in zip(o.items, o.indices)):
        return False
    return math.dist(o.first.origin, o.last.origin) < 0.01


def _repeats(o: _Object, earlier: Sequence[_Object]) -> bool:
    """``IsSameAsPreTextObject``: one of the last ``SAME_WINDOW`` text objects of the same
    content stream shows the same codes (and TJ numbers at the same places) at the same size,
    its box overlapping more than half of this one's, its start within 0.9 of the last
    glyph's width across and an eighth of the box (or size) up or down (``IsSameTextObject``)."""
    codes = [(r.glyph.code, bool(r.glyph.adjust)) for r in (i.record for i in o.items)]
    size = o.first.record.step.gstate.text.size
    for p in reversed(earlier):
        a, b = o.rect, p.rect
        inter = (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))
        iw, ih = inter[2] - inter[0], inter[3] - inter[1]
        if iw <= 0 or ih <= 0 or abs(iw - (b[2] - b[0])) > (b[2] - b[0]) / 2:
            continue
        if p.first.record.step.gstate.text.size != size:
            continue
        if [(r.glyph.code, bool(r.glyph.adjust)) for r in (i.record for i in p.items)] != codes:
            continue
        dx, dy = p.first.origin[0] - o.first.origin[0], p.first.origin[1] - o.first.origin[1]
        if abs(dx) <= SAME_ADVANCE * o.last.width and abs(dy) <= max(ih, iw, o.first.size) / 8:
            return True
    return False


def _no_outline(record) -> bool:
    """A code with no character that draws nothing: no width, or a font not embedded (its
    stand-in finds a glyph by the character's name)."""
    font = record.step.font
    return not record.unicode and font is not None and not font.is_type0 and (
        not record.glyph.width or not font.embedded and font.subtype != "Type3")


def textline_direction(objects: list[_Object], page: base.Page | None) -> str:
    """``FindTextlineFlowOrientation``: do the page's lines run across or down? Over the
    text objects of the page itself (not of forms), the share of the width and of the
    height their boxes cover."""
    box = page.crop if page is not None else None
    if box is None:
        return UNKNOWN
    width, height = int(box[2] - box[0]), int(box[3] - box[1])
    if page is not None and page.rotate in (90, 270):
        width, height = height, width
    if width <= 0 or height <= 0:
        return UNKNOWN
    across: list[tuple[int, int]] = []
    down: list[tuple[int, int]] = []
    start_h, end_h, start_v, end_v = width, 0, height, 0
    line_height = 0.0
    for o in objects:
        if o.first.record.step.depth != 0:
            continue
        left, bottom, right, top = o.rect
        min_h, max_h = int(min(max(left, 0), width)), int(min(max(right, 0), width))
        min_v, max_v = int(min(max(bottom, 0), height)), int(min(max(top, 0), height))
        if min_h >= max_h or min_v >= max_v:
            continue
        across.append((min_h, max_h))
        down.append((min_v, max_v))
        start_h, end_h = min(start_h, min_h), max(end_h, max_h)
        start_v, end_v = min(start_v, min_v), max(end_v, max_v)
        if line_height <= 0:
            line_height = top - bottom
    double = int(2 * line_height)
    if end_v - start_v < double:
        return ACROSS
    if end_h - start_h < double:
        return DOWNWARD
    sum_h = _filled(across, start_h, end_h)
    if sum_h > COVERED:
        return ACROSS
    sum_v = _filled(down, start_v, end_v)
    if sum_h > sum_v:
        return ACROSS
    if sum_h < sum_v:
        return DOWNWARD
    return UNKNOWN


def _filled(mask: list[tuple[int, int]], start: int, end: int) -> float:
    """``MaskPercentFilled``: the share of the points ``start``…``end`` − 1 the spans cover."""
    if start >= end:
        return 0.0
    covered, reach = 0, start
    for lo, hi in sorted(mask):
        lo, hi = max(lo, reach), min(hi, end)
        if hi > lo:
            covered += hi - lo
            reach = hi
    return covered / (end - start)


def _writing_mode(o: _Object, page_dir: str) -> str:
    """``GetTextObjectWritingMode``: from the direction of its first to its last glyph."""
    if len(o.items) <= 1:
        return page_dir
    (x0, y0), (x1, y1) = o.first.origin, o.last.origin
    dx, dy = abs(x1 - x0), abs(y1 - y0)
    if dx <= 0.0001 and dy <= 0.0001:
        return UNKNOWN
    n = math.hypot(dx, dy)
    vx, vy = dx / n, dy / n
    if vy <= SLOPE:
        return page_dir if vx <= SLOPE else ACROSS
    return DOWNWARD if vx <= SLOPE else page_dir


def _reading_order(objects: list[_Object]) -> list[_Object]:
    """``ProcessTextObject``: objects whose starts lie within twice a quarter of the wider
    glyph (vertically, on the display) of the last one buffered join the buffer, in order of
    their start x; another object writes the buffer out."""
    out: list[_Object] = []
    line: list[_Object] = []
    for o in objects:
        if not line:
            line.append(o)
            continue
        prev = line[-1]
        threshold = max(prev.last.width, o.first.width) / 4
        if abs(o.pos[1] - prev.pos[1]) > SAME_LINE * threshold:
            out += line
            line = [o]
            continue
        at = next((i for i in range(len(line), 0, -1) if o.pos[0] >= line[i - 1].pos[0]), 0)
        line.insert(at, o)
    return out + line


def emulate(records, page: base.Page | None = None, shared: dict | None = None) -> base.Emulation:
    recs = base.source_records(records, annots=False)
    items = base.items(recs, shared)
    spaces = base.space_widths(recs)
    texts = [text(r) for r in recs]
    objects: list[_Object] = []
    out: list[base.Decision] = []
    recent: dict[object, collections.deque[_Object]] = {}  # content stream → its last SAME_WINDOW text objects
    for o in _objects(items, page):
        earlier = recent.setdefault(o.first.record.step.source, collections.deque(maxlen=SAME_WINDOW))
        repeats = _repeats(o, earlier)
        earlier.append(o)
        if _empty(o, texts):
            rule, detail = "empty-object", f"a text object of blanks has no width (ProcessTextObject, {SOURCE})"
        elif repeats:
            rule, detail = "same-object", ("the same codes at the same place as one of the 5 text objects "
                                           f"before it (IsSameAsPreTextObject, {SOURCE})")
        else:
            objects.append(o)
            continue
        out.extend(base.Decision(item.record, "", False, base.NOTHING, rule, detail, texts[i][1])
                   for item, i in zip(o.items, o.indices))
    page_dir = textline_direction(objects, page)
    for o in objects:
        o.mode = _writing_mode(o, page_dir)

    def inside(o: _Object, n: int, prev_text: str) -> tuple[str, str, str]:
        """ProcessTextObjectItems: the TJ number before glyph ``n`` of ``o``, less the object's
        base space (Tc), against CalculateSpaceThreshold; the glyphs' positions play no part."""
        cur = o.items[n]
        size_h = abs(cur.record.step.gstate.text.size) * cur.unit  # GetFontSizeH
        if not cur.record.glyph.adjust:  # pdfium 8149 (pypdfium2 5.15): Tc alone never makes a space
            return base.NOTHING, "tj-number", "no TJ number before the glyph"
        kern = -cur.record.glyph.adjust * size_h / 1000 if not prev_text.endswith(" ") else 0.0
        spacing = kern - _base_space(o, size_h)
        sw = spaces.get(cur.record.step.font, 0.0)
        if 0 < sw <= MAX_SPACE:
            threshold, how = SPACE_FRACTION * sw * size_h, f"half the space width {sw:.3f} em"
        else:
            w = normalize(cur.record.glyph.width * 1000 or INK_WIDTH, 300, 500, 700) / 1000
            threshold, how = w * size_h, f"NormalizeThreshold of the glyph width: {w:.3f} em"
        if threshold and spacing >= threshold:
            return base.SPACE, "tj-number", f"TJ/Tc move {base.em(spacing, size_h)} ≥ {how} ({SOURCE})"
        return base.NOTHING, "tj-number", f"TJ/Tc move {base.em(spacing, size_h)} < {how}"

    shown: list[base.Item] = []
    prev_obj: _Object | None = None
    line_rect: base.Box | None = None
    prev_item: base.Item | None = None
    prev_text = ""
    for o in _reading_order(objects):
        pending = (base.NOTHING, "first", "")
        if prev_obj is not None:
            pending = _insert(prev_obj, o, line_rect, texts)
            line_rect = o.rect if pending[0] == base.LINE else _union(line_rect, o.rect)
        else:
            line_rect = o.rect
        prev_obj = o
        for n, (item, i) in enumerate(zip(o.items, o.indices)):
            r = item.record
            t, text_rule = texts[i]
            near = DUP_FACTOR * item.size
            if t and any(s.record.glyph.code == r.glyph.code and s.record.step.font is r.step.font and
                         abs(s.origin[0] - item.origin[0]) < near and abs(s.origin[1] - item.origin[1]) < near
                         for s in shown[-DUP_WINDOW:]):
                out.append(base.Decision(r, "", False, base.NOTHING, "duplicate",
                                         f"same code and font within {DUP_FACTOR} em of a glyph just shown ({SOURCE})",
                                         text_rule))
                continue
            if not t:
                out.append(base.Decision(r, "", False, base.NOTHING, "no-text", "no text for this glyph", text_rule))
                continue
            shown.append(item)
            if n and prev_item is not None and prev_item.record.step is r.step and pending[1] == "first":
                sep, rule, detail = inside(o, n, prev_text)
            else:
                sep, rule, detail = pending if prev_item is not None else (base.NOTHING, "first", "")
                if sep == base.SPACE and (t.startswith(" ") or prev_text.endswith(" ")):
                    sep, rule, detail = base.NOTHING, "space-drawn", "a space glyph is next to it (CloseTempLine)"
            pending = (base.NOTHING, "first", "")
            out.append(base.Decision(r, t, True, sep, rule, detail, text_rule))
            prev_item, prev_text = item, t
    return _bidi(_join_hyphens(base.Emulation("pdfium", tuple(out))))


def _base_space(o: _Object, size_h: float) -> float:
    """``CalculateBaseSpace`` + ``CalculateBaseSpaceAdjustment``: with a character spacing
    Tc, the smallest TJ move (Tc included) of the object, less Tc — what every glyph's
    spacing is measured from."""
    tc = o.first.record.step.gstate.text.char_spacing
    spacing = tc * o.first.unit  # matrix.TransformDistance(char_space)
    kerns = [g.glyph.adjust for g in (i.record for i in o.items) if g.glyph.adjust]
    n_items = len(o.items) + len(kerns)
    calc = 0.0
    if tc != 0 and n_items >= 3:
        calc = min([spacing] + [-size_h * k / 1000 + spacing for k in kerns])
        if calc < 0 or (n_items == 3 and kerns):
            calc = 0.0
    if tc > 0.001:
        return calc - spacing
    if tc < -0.001:
        return calc + abs(spacing)
    return calc


def _union(a: base.Box | None, b: base.Box) -> base.Box:
    if a is None:
        return b
    return min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])


def _insert(prev: _Object, cur: _Object, line_rect: base.Box | None,
            texts: list[tuple[str, str]]) -> tuple[str, str, str]:
    """``ProcessInsertObject``: what comes between two text objects."""
    mode = cur.mode if cur.mode != UNKNOWN else prev.mode
    a, b = prev.rect, cur.rect
    if mode == ACROSS:
        if (a[3] - a[1] > MIN_LINE_HEIGHT and b[3] - b[1] > MIN_LINE_HEIGHT and
                max(a[1], b[1]) >= min(a[3], b[3])):
            return base.LINE, "line", f"boxes do not overlap vertically (EndHorizontalLine, {SOURCE})"
    elif mode == DOWNWARD and line_rect is not None:
        if (b[2] - b[0] > MIN_LINE_WIDTH * cur.first.size and a[2] - a[0] > MIN_LINE_WIDTH * prev.last.size and
                min(b[2], line_rect[2]) <= max(b[0], line_rect[0]) + TOUCH):
            return base.LINE, "line", ("the page's lines run down it and this box leaves the line's "
                                       f"(EndVerticalLine, FindTextlineFlowOrientation, {SOURCE})")
    last, this = prev.last, cur.first
    fs_last = abs(last.record.step.gstate.text.size) or 1.0
    fs_this = abs(this.record.step.gstate.text.size) or 1.0
    m_last, m_this = _matrix(last), _matrix(this)
    back = _inverse(m_last)  # prev_reverse: the page into the previous object's text space
    last_w, this_w = last.record.glyph.width * 1000, this.record.glyph.width * 1000
    last_width, this_width = last_w * fs_last / 1000, this_w * fs_this / 1000
    threshold = max(last_width, this_width) / 4
    if last_width < this_width:
        threshold = _distance(back, threshold)
    dx, dy = this.origin[0] - last.origin[0], this.origin[1] - last.origin[1]
    pos_x, pos_y = back[0] * dx + back[2] * dy, back[1] * dx + back[3] * dy
    if mode == ACROSS:
        newline = ((pos_y > UP * threshold or pos_y < -DOWN * threshold) and
                   (abs(pos_y) >= 1 or abs(pos_y) > abs(pos_x)))
        if newline and len(prev.items) > 1 and last.origin[0] > prev.first.origin[0] and \
                m_last[1] < 0.1 and m_last[2] < 0.1:
            # the exception for a sub- or superscript: one start within the other's band
            if a[1] <= this.origin[1] <= a[3] and 0 <= this.origin[0] <= 1000 or \
                    b[1] <= prev.first.origin[1] <= b[3] and 0 <= prev.first.origin[0] <= 1000:
                newline = False
        if newline:
            return base.LINE, "baseline", (f"baseline moved {pos_y / fs_last:.3f} em, beyond 2× / 3× "
                                           f"a quarter of the wider glyph ({SOURCE} ProcessInsertObject)")
    t_cur = texts[cur.indices[0]][0]
    t_prev = texts[prev.indices[-1]][0]
    if t_cur.startswith(" ") or t_prev.endswith(" "):
        return base.NOTHING, "space-drawn", "a space glyph is next to it"
    threshold2 = normalize(max(last_w, this_w), 400, 700, 800)
    if last_w >= this_w:
        threshold2 *= fs_last
    else:
        threshold2 = _distance(back, _distance(m_this, threshold2 * fs_this))
    threshold2 /= 1000
    if 1.4879 < threshold2 < 1.4881 or 1.38999 < threshold2 < 1.39001:  # GenerateSpace's two widened values
        threshold2 *= 1.5
    space = _generate_space(pos_x, this_width, last_width, threshold2)
    how = f"{(pos_x - last_width) / fs_last:.3f} em after the previous glyph"
    if space:
        return base.SPACE, "gap", (f"gap {how} > NormalizeThreshold of the wider glyph "
                                   f"{threshold2 / fs_last:.3f} em ({SOURCE} GenerateSpace)")
    return base.NOTHING, "gap", f"gap {how} ≤ {threshold2 / fs_last:.3f} em"


def _matrix(item: base.Item) -> tuple[float, float, float, float]:
    """pdfium's text matrix of a glyph's object, linear part: [Tz 0 0 1] × Tm × CTM (no size)."""
    step = item.record.step
    m = multiply(step.tm, step.gstate.ctm) if step.tm is not None else step.gstate.ctm
    th = step.gstate.text.scale / 100.0
    return m[0] * th, m[1] * th, m[2], m[3]


def _inverse(m: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    det = m[0] * m[3] - m[1] * m[2]
    if not det:
        return 1.0, 0.0, 0.0, 1.0
    return m[3] / det, -m[1] / det, -m[2] / det, m[0] / det


def _distance(m: tuple[float, float, float, float], d: float) -> float:
    """``CFX_Matrix::TransformDistance``: ``d`` times the mean of the matrix's two units."""
    return d * (math.hypot(m[0], m[1]) + math.hypot(m[2], m[3])) / 2


def _generate_space(pos_x: float, this_width: float, last_width: float, threshold: float) -> bool:
    """``GenerateSpace`` with the previous glyph's origin at 0 (its text space)."""
    if abs(last_width - pos_x) <= threshold:
        return False
    threshold_pos = threshold + last_width
    if abs(pos_x) > threshold_pos:
        return True
    return pos_x > this_width + last_width


def _direction(t: str) -> str:
    """``CFX_BidiChar::AppendChar``: the direction class of a character (fx_bidi.cpp)."""
    cls = unicodedata.bidirectional(t[:1]) if t else ""
    if cls == "L":
        return "left"
    if cls in WEAK:
        return "weak"
    if cls in ("R", "AL"):
        return "right"
    return "neutral"


def _bidi(emulation: base.Emulation) -> base.Emulation:
    """``CloseTempLine``: a line with right-to-left characters is cut into runs of one
    direction (``CFX_BidiString``); when right-to-left runs outnumber left-to-right ones
    the runs go in reverse order; a right-to-left run (or a neutral one
    after it) is written backwards, its characters mirrored and their compatibility forms
    decomposed (``AddCharInfoByRLDirection``, ``GetUnicodeNormalization``)."""
    decisions = emulation.decisions
    kept = [i for i, d in enumerate(decisions) if d.kept]
    if not any(_direction(decisions[i].text) == "right" for i in kept):
        return emulation
    out = list(decisions)
    lines: list[list[int]] = []
    for i in kept:
        if not lines or decisions[i].before == base.LINE:
            lines.append([])
        lines[-1].append(i)
    order: list[int] = []
    for line in lines:
        order += _bidi_line(line, out)
    return base.Emulation(emulation.name, tuple(out[i] for i in order) +
                          tuple(d for d in out if not d.kept))


def _bidi_line(line: list[int], out: list[base.Decision]) -> list[int]:
    """The line's decisions (indices into ``out``, rewritten in place) in pdfium's order."""
    units: list[tuple[str, int]] = []  # (text, decision index): a generated space is its own unit
    for i in line:
        if out[i].before == base.SPACE:
            units.append((" ", -1))
        units.append((out[i].text, i))
    if not any(_direction(t) == "right" for t, _ in units):
        return line
    segments: list[tuple[str, list[tuple[str, int]]]] = []  # (direction, units)
    for u in units:
        direction = _direction(u[0])
        if not segments or segments[-1][0] != direction:
            segments.append((direction, []))
        segments[-1][1].append(u)
    rtl = sum(1 for direction, _ in segments if direction == "right")
    ltr = sum(1 for direction, _ in segments if direction == "left")
    current = "left"
    if rtl > ltr:  # fx_bidi.cpp reads nR2L >= nL2R; pdfium 8149 (pypdfium2 5.15) keeps a tie left to right
        segments.reverse()
        current = "right"
    placed: list[tuple[str, int]] = []
    for direction, us in segments:
        if direction == "right" or direction == "neutral" and current == "right":
            current = "right"
            placed += [(unicodedata.normalize("NFKC", "".join(MIRROR.get(c, c) for c in t)), i)
                       for t, i in reversed(us)]
        else:
            if direction != "weak":
                current = "left"
            placed += us
    first = out[line[0]].before == base.LINE
    order: list[int] = []
    space = False
    for t, i in placed:
        if i < 0:
            space = True
            continue
        old = out[i]
        before = base.LINE if first and not order else (base.SPACE if space and order else base.NOTHING)
        same = before == old.before
        out[i] = base.Decision(old.record, t, True, before, old.rule if same else "bidi",
                               old.detail if same else f"right-to-left run reordered (CloseTempLine, {SOURCE})",
                               old.text_rule)
        order.append(i)
        space = False
    return order


def _join_hyphens(emulation: base.Emulation) -> base.Emulation:
    """A hyphen that ends a line after a letter, before a letter or digit: the lines join and
    the hyphen becomes U+FFFE (``ProcessInsertObject`` kHyphen, ``IsHyphen``)."""
    out = list(emulation.decisions)
    last = None  # index of the last kept decision
    for i, d in enumerate(out):
        if not d.kept:
            continue
        if (last is not None and d.before == base.LINE and d.text[:1].isalnum()):
            p = out[last]
            body = p.text.rstrip(" ")
            if body[-1:] in ("-", "\u00ad") and (body[-2:-1].isalpha() or len(body) == 1 and _letter_before(out, last)):
                out[last] = base.Decision(p.record, body[:-1] + "\ufffe", True, p.before, p.rule, p.detail, "hyphen")
                out[i] = base.Decision(d.record, d.text, True, base.NOTHING, "hyphen",
                                       f"a hyphen ends the line: the lines join ({SOURCE} IsHyphen)", d.text_rule)
        last = i
    return base.Emulation(emulation.name, tuple(out))


def _letter_before(decisions, index: int) -> bool:
    """The glyph before the hyphen at ``index`` is a letter, with nothing between."""
    if decisions[index].before != base.NOTHING:
        return False
    for d in reversed(decisions[:index]):
        if d.kept:
            return d.text[-1:].isalpha()
    return False
