"""poppler's ``pdftotext`` (``TextOutputDev``), poppler 21.07–22.12.

Source: ``poppler/TextOutputDev.cc`` and ``poppler/GfxFont.cc`` (read in poppler's master of
2026; the constants are 22.12's, and so is the whole-word duplicate rule used here), checked
against ``pdftotext`` 22.12, followed step by step in poppler's own device space (72 dpi,
y down, the page turned by /Rotate):

- ``TextPage::addChar`` builds words in drawing order. A word ends where the next glyph starts
  more than ``minWordBreakSpace`` × size after it or ``minDupBreakOverlap`` × size before it,
  off its baseline by more than ``MAX_BASE_DELTA`` points, at another font size or writing
  mode, or over the previous glyph (``dupMaxPriDelta``/``dupMaxSecDelta``: each duplicate is a
  word of its own); a white-space glyph only ends the word. Each word has one of four rotation
  classes (``TextPage::beginWord``); a glyph drawn backwards is a word of its own. A spacing
  accent over its letter joins it as a combining mark (``TextWord::addCombining``).
- ``TextPage::coalesce`` gathers the words of each rotation class into blocks (pools of
  ``textPoolStep``-point baseline buckets; lines ``maxLineSpacingDelta`` apart that overlap,
  words within ``maxIntraLineDelta`` of a baseline and ``minColSpacing1`` of the block, and up
  to three words ``minColSpacing2`` beside it).
- ``TextBlock::coalesce`` drops a word repeated at the same place (fake bold, shadows), then
  cuts each block into lines: from the left-most word, the next word to the right whose
  baseline is within ``maxIntraLineDelta`` × size and whose gap is under ``maxWordSpacing`` ×
  size, so sub- and superscripts join their line sorted by position.
- ``TextLine::coalesce`` writes a space between two words of a line whose gap is at least
  ``maxCharSpacing`` × size (letter-spaced lines of one-letter words use
  ``maxWideCharSpacingMul`` × the smallest gap, at most ``maxWideCharSpacing`` × size) and
  joins the others.
- ``TextPage::coalesce`` puts the blocks in reading order (``TextBlock::visitDepthFirst``,
  without poppler's table detection), and ``TextPage::dump`` writes the lines of each block; a
  line ending in a hyphen joins the next without it; ``reorderText`` reverses right-to-left
  runs between U+202B and U+202C. The blank line poppler writes after each flow is not written.

The text of a glyph (``GfxFont.cc``): ToUnicode, else the glyph name of the encoding — a simple
TrueType font with no MacRoman, MacExpert or WinAnsi /Encoding takes WinAnsiEncoding's names,
never the program's ``cmap``; a name outside poppler's table gives the code itself; a code with
no Unicode gives nothing (Type0: the code). A Type3 glyph is one character: its procedure never
runs (``TextOutputDev::interpretType3Chars``). Ligatures are expanded (``unicodeNormalizeNFKC``).
Glyphs whose origin lies off the page (the MediaBox) and optional content that is off by default
are dropped; annotations' appearances are read; /ActualText replaces the glyphs.
"""
from __future__ import annotations

import functools
import math
import sys
import unicodedata
from dataclasses import dataclass, field, replace

from ..content.state import multiply
from ..content.textlayout import COMBINING
from ..fonts.agl import glyph_to_unicode
from ..fonts.encodings import base_encoding
from ..fonts.resolve import ACTUAL_TEXT, ENCODING, HEURISTIC_METHODS, NONE, TOUNICODE
from . import base

SOURCE = "poppler/TextOutputDev.cc"
TEXT_POOL_STEP = 4  # textPoolStep (points)
MIN_WORD_BREAK_SPACE = 0.1  # minWordBreakSpace
MIN_DUP_BREAK_OVERLAP = 0.2  # minDupBreakOverlap
MAX_BASE_DELTA = 0.5  # addChar: fabs(base - curWord->base) > 0.5 (points)
MAX_LINE_SPACING_DELTA = 1.5  # maxLineSpacingDelta
MAX_BLOCK_FONT_SIZE_DELTA1 = 0.05  # maxBlockFontSizeDelta1
MAX_BLOCK_FONT_SIZE_DELTA2 = 0.6  # maxBlockFontSizeDelta2
MAX_BLOCK_FONT_SIZE_DELTA3 = 0.2  # maxBlockFontSizeDelta3
MAX_WORD_FONT_SIZE_DELTA = 0.05  # maxWordFontSizeDelta
MAX_INTRA_LINE_DELTA = 0.5  # maxIntraLineDelta
MAX_WORD_SPACING = 1.5  # maxWordSpacing
MIN_COL_SPACING1 = 0.7  # TextOutputDev::minColSpacing1_default
MIN_COL_SPACING2 = 1.0  # minColSpacing2
MIN_CHAR_SPACING = -0.5  # minCharSpacing
MAX_CHAR_SPACING = 0.03  # maxCharSpacing
MAX_WIDE_CHAR_SPACING_MUL = 1.3  # maxWideCharSpacingMul
MAX_WIDE_CHAR_SPACING = 0.4  # maxWideCharSpacing
DUP_MAX_PRI_DELTA = 0.1  # dupMaxPriDelta
DUP_MAX_SEC_DELTA = 0.2  # dupMaxSecDelta
COMB_MAX_MID_DELTA = 0.3  # combMaxMidDelta
COMB_MAX_BASE_DELTA = 0.4  # combMaxBaseDelta
TYPE3_M_WIDTH = 0.6  # TextPage::updateFont: "0.6 is a generic average 'm' width"
TYPE3_GLYPH_WIDTH = 0.5  # TextPage::updateFont: "0.5 is a generic letter width"
ASCENT, DESCENT = 0.95, -0.35  # GfxFont.cc: the ascent and descent of a font that states none
MAX_SORTED_BLOCKS = 400  # blocks put in reading order; more keep the order they were built in (time)
LRE, RLE, PDF = "\u202a", "\u202b", "\u202c"  # reorderText: the embedding marks around reversed runs
# Gfx.cc opBeginMarkedContent / doForm / drawAnnot skip content OptionalContent.cc
# OCGs::optContentIsVisible calls off (groups, /P policies and /VE as the spec has them);
# an /OC property list written inline is "Unexpected MC Type" and stays visible.
OC_SOURCE = "poppler/Gfx.cc opBeginMarkedContent, poppler/OptionalContent.cc optContentIsVisible"


def text(record) -> tuple[str, str]:
    t = base.spec_text(record, "poppler", actual_text=True)
    if record.resolution.method not in (TOUNICODE, ENCODING, ACTUAL_TEXT) and record.method != ACTUAL_TEXT:
        winansi = _truetype_default(record)
        if winansi is not None:
            return winansi, "truetype-winansi"
    if t is None:
        font = record.step.font
        code = record.glyph.code
        method = record.resolution.method
        if font is not None and not font.is_type0 and len(code) == 1 \
                and (method in HEURISTIC_METHODS or (method == NONE and _names_missing(font))):
            return chr(code[0]), "code-pass-through"
        if font is not None and font.is_type0:
            return record.resolution.tounicode_only, "code-as-unicode"
        return "", "no-text"
    if any(0xFB00 <= ord(c) <= 0xFB06 for c in t):
        return unicodedata.normalize("NFKC", t), "ligature-expanded"
    return t, ""


def _truetype_default(record) -> str | None:
    """A simple TrueType font with no /Encoding naming MacRoman, MacExpert or WinAnsi reads the
    codes /Differences does not name through WinAnsiEncoding's names, never through the
    program's ``cmap`` (``GfxFont.cc`` ``Gfx8BitFont``: "get default base encoding":
    ``winAnsiEncoding`` for ``fontTrueType``); a code WinAnsi leaves unnamed passes through
    when the font has unmapped names. ``None`` for other fonts, and for a name outside the
    glyph list (the code passes through, :func:`text`)."""
    font = record.step.font
    code = record.glyph.code
    # our implicit base for a TrueType font is StandardEncoding (nonsymbolic) or the program's (symbolic);
    # poppler knows no /StandardEncoding name either
    if font is None or font.subtype != "TrueType" or font.encoding_base not in (None, "StandardEncoding") \
            or len(code) != 1:
        return None
    name = _encoding_name(font, code[0])
    if name is None:
        return chr(code[0]) if _names_missing(font) else ""
    return glyph_to_unicode(name).unicode or None


def _encoding_name(font, code: int) -> str | None:
    """The glyph name poppler's ``Gfx8BitFont`` gives ``code``: /Differences, else the base
    encoding — WinAnsiEncoding for a TrueType font that names none, StandardEncoding for a
    Type3 font ("get default base encoding"); ``None`` for a program's built-in encoding."""
    name = font.differences.get(code)
    if name is not None:
        return name
    base_name = font.encoding_base
    if font.subtype == "TrueType" and base_name in (None, "StandardEncoding"):
        base_name = "WinAnsiEncoding"
    elif font.subtype == "Type3" and base_name is None:
        base_name = "StandardEncoding"
    table = base_encoding(base_name) if base_name else None
    return table[code] if table is not None and 0 <= code < 256 else None


@functools.lru_cache(maxsize=64)
def _names_missing(font) -> bool:
    """``GfxFont.cc``'s ``missing``: a name of the font's encoding that is not .notdef maps to
    no Unicode, so every code left without one passes through as itself ("pass 2")."""
    for code in range(256):
        name = _encoding_name(font, code)
        if name and name != ".notdef" and not glyph_to_unicode(name).unicode:
            return True
    return False


@dataclass(eq=False)
class _Char:
    glyph: int  # index of the glyph record
    text: str
    edge: float


@dataclass(eq=False)
class _Word:
    """A ``TextWord``: its rotation class, baseline, font size and box in device space."""

    rot: int
    size: float
    base: float
    font: object
    vertical: bool
    x0: float = 0.0
    y0: float = 0.0
    x1: float = 0.0
    y1: float = 0.0
    chars: list = field(default_factory=list)
    edge_end: float = 0.0
    pos_end: int = 0
    space_after: bool = False
    why: str = ""  # the rule and measure that put a space after it, or joined the next word to it

    def primary_cmp(self, other: "_Word") -> float:  # TextWord::primaryCmp
        return (self.x0 - other.x0, self.y0 - other.y0, other.x1 - self.x1, other.y1 - self.y1)[self.rot]

    def primary_delta(self, other: "_Word") -> float:  # TextWord::primaryDelta
        return (other.x0 - self.x1, other.y0 - self.y1, self.x0 - other.x1, self.y0 - other.y1)[self.rot]

    def grow(self, other: "_Word") -> None:
        self.x0, self.y0 = min(self.x0, other.x0), min(self.y0, other.y0)
        self.x1, self.y1 = max(self.x1, other.x1), max(self.y1, other.y1)


class _Pool:
    """A ``TextPool``: words in ``textPoolStep``-point buckets of baseline, each bucket kept in
    primary order (``TextPool::addWord`` inserts before the first word not left of it)."""

    def __init__(self) -> None:
        self.buckets: dict[int, list[_Word]] = {}
        self.lo, self.hi = 0, -1  # minBaseIdx, maxBaseIdx: the bucket indices ever used

    def add(self, word: _Word) -> None:
        i = int(word.base / TEXT_POOL_STEP)
        self.lo, self.hi = (i, i) if self.hi < self.lo else (min(self.lo, i), max(self.hi, i))
        bucket = self.buckets.setdefault(i, [])
        i = 0
        while i < len(bucket) and word.primary_cmp(bucket[i]) > 0:
            i += 1
        bucket.insert(i, word)

    def idx(self, value: float) -> int:
        """``TextPool::getBaseIdx``: clamped to the indices in use."""
        if not math.isfinite(value) or value / TEXT_POOL_STEP < self.lo:
            return self.lo
        return min(int(value / TEXT_POOL_STEP), self.hi)

    def span(self, lo: float, hi: float) -> range:
        return range(self.idx(lo), self.idx(hi) + 1)

    def words(self, i: int) -> list[_Word]:
        return self.buckets.get(i, [])

    def remove(self, i: int, word: _Word) -> None:
        self.buckets[i].remove(word)
        if not self.buckets[i]:
            del self.buckets[i]

    def first_index(self) -> int | None:
        return min(self.buckets) if self.buckets else None


def _device(page: base.Page | None):
    """Page space → poppler's device space (``GfxState`` with ``upsideDown``: y down, /Rotate
    applied, the MediaBox's corner at 0, 0), and the page's width and height there."""
    x0, y0, x1, y1 = page.media if page is not None and page.media else (0.0, 0.0, 612.0, 792.0)
    turn = page.rotate if page is not None else 0
    if turn == 90:
        return (lambda x, y: (y - y0, x - x0)), y1 - y0, x1 - x0
    if turn == 180:
        return (lambda x, y: (x1 - x, y - y0)), x1 - x0, y1 - y0
    if turn == 270:
        return (lambda x, y: (y1 - y, x1 - x)), y1 - y0, x1 - x0
    return (lambda x, y: (x - x0, y1 - y)), x1 - x0, y1 - y0


def _rotation(item: base.Item, dev) -> tuple[int, float]:
    """``TextPage::beginWord``'s rotation class from the font matrix on the device, and the
    transformed font size (``GfxState::getTransformedFontSize``)."""
    step = item.record.step
    m = multiply(step.tm, step.gstate.ctm) if step.tm is not None else step.gstate.ctm
    fs = step.gstate.text.size or 0.0
    font = step.font
    size = abs(fs) * math.hypot(m[2], m[3])
    if font is not None and font.subtype == "Type3":
        f = font.font_matrix
        m = multiply((f[0], f[1], f[2], f[3], 0.0, 0.0), m)
        size *= _type3_scale(font)
    ox, oy = dev(0.0, 0.0)
    ax, ay = dev(m[0] * fs, m[1] * fs)
    bx, by = dev(m[2] * fs, m[3] * fs)
    a, b, c, d = ax - ox, ay - oy, bx - ox, by - oy
    if abs(a * d) > abs(b * c):
        rot = 0 if (a > 0 or d < 0) else 2
    else:
        rot = 1 if c > 0 else 3
    if item.vertical:
        rot = (rot + 1) & 3
    return rot, size


@functools.lru_cache(maxsize=64)
def _type3_scale(font) -> float:
    """``TextPage::updateFont``'s guess of a Type3 font's scale: the width of its ``m`` over
    ``TYPE3_M_WIDTH`` (else of a letter, else of any glyph, over ``TYPE3_GLYPH_WIDTH``), times
    |FontMatrix d / a|."""
    m_code = letter = anything = None
    for code in range(256):
        name = _encoding_name(font, code) or ""
        if name == "m":
            m_code = code
        if letter is None and len(name) == 1 and name.isascii() and name.isalpha():
            letter = code
        if anything is None and name and font.glyph_width(bytes([code])) > 0:
            anything = code
    scale = 1.0
    for pick, typical in ((m_code, TYPE3_M_WIDTH), (letter, TYPE3_GLYPH_WIDTH), (anything, TYPE3_GLYPH_WIDTH)):
        if pick is not None and font.glyph_width(bytes([pick])) > 0:
            scale = font.glyph_width(bytes([pick])) / typical
            break
    f = font.font_matrix
    return scale * (abs(f[3] / f[0]) if f[0] else 1.0)


def _new_word(rot: int, size: float, item: base.Item, x: float, y: float) -> _Word:
    """``TextWord::setInitialBounds``."""
    asc, desc = ASCENT * size, DESCENT * size
    w = _Word(rot, size, 0.0, item.record.step.font, item.vertical)
    if item.vertical:
        w.x0, w.y0, w.x1, w.y1, w.base = ((x - size, y - size, x, y, y), (x, y - size, x + size, y, x),
                                          (x, y, x + size, y + size, y), (x - size, x, x, y + size, x))[rot]
        return w
    w.x0, w.y0, w.x1, w.y1, w.base = ((x, y - asc, x, y - desc, y), (x + desc, y, x + asc, y, x),
                                      (x, y + desc, x, y + asc, y), (x - asc, y, x - desc, y, x))[rot]
    return w


def _add_char(w: _Word, glyph: int, t: str, x: float, y: float, dx: float, dy: float) -> None:
    """``TextWord::addChar``: the edge of the glyph and the word's end."""
    w.pos_end = glyph + 1
    if w.vertical:
        edge, end = ((x - w.size, x), (y - w.size, y), (x + w.size, x), (y + w.size, y))[w.rot]
    else:
        edge, end = ((x, x + dx), (y, y + dy), (x, x + dx), (y, y + dy))[w.rot]
    w.chars.append(_Char(glyph, t, edge))
    w.edge_end = end
    if w.rot == 0:
        w.x1 = end
    elif w.rot == 1:
        w.y1 = end
    elif w.rot == 2:
        w.x0 = end
    else:
        w.y0 = end


def _combine(w: _Word, glyph: int, t: str, x: float, y: float, dx: float, dy: float) -> bool:
    """``TextWord::addCombining``: a spacing accent whose middle is within ``combMaxMidDelta``
    of its letter's (and baseline within ``combMaxBaseDelta``) joins the letter as a combining
    mark, after it."""
    if not w.chars or w.vertical or len(t) != 1:
        return False
    last = w.chars[-1]
    mid_edge = (last.edge + w.edge_end) / 2
    mid, at = (x + dx / 2, y) if w.rot in (0, 2) else (y + dy / 2, x)
    if t in COMBINING and last.text[-1:].isalnum():
        if abs(mid - mid_edge) >= abs(w.edge_end - last.edge) * COMB_MAX_MID_DELTA:
            return False
        height = (w.y1 - w.y0) if w.rot in (0, 2) else (w.x1 - w.x0)
        if abs(at - w.base) >= height * COMB_MAX_BASE_DELTA:
            return False
        w.chars.append(_Char(glyph, COMBINING[t], mid_edge))
        w.pos_end = glyph + 1
        return True
    if last.text in COMBINING and t.isalnum() and len(w.chars) >= 1:
        span = dx if w.rot in (0, 2) else dy
        if abs(mid - mid_edge) >= abs(span * COMB_MAX_MID_DELTA):
            return False
        if abs(at - w.base) >= (ASCENT - DESCENT) * w.size * COMB_MAX_BASE_DELTA:
            return False
        accent = w.chars.pop()
        edge = (x, y, x, y)[w.rot]
        w.chars.append(_Char(glyph, t + COMBINING[accent.text], edge))
        w.pos_end = glyph + 1
        w.edge_end = (x + dx, y + dy, x + dx, y + dy)[w.rot]
        if w.rot == 0:
            w.x1 = max(w.x1, w.edge_end)
        elif w.rot == 2:
            w.x0 = min(w.x0, w.edge_end)
        return True
    return False


def _words(items, texts, page) -> tuple[list[_Word], dict[int, tuple[str, str]]]:
    """``TextPage::addChar``/``beginWord``/``endWord``: the words in drawing order, and why
    a glyph was left out (glyph index → (rule, detail))."""
    dev, width, height = _device(page)
    words: list[_Word] = []
    drops: dict[int, tuple[str, str]] = {}
    cur: _Word | None = None
    last_overlap = False

    def end() -> None:
        nonlocal cur
        if cur is not None and cur.chars:
            words.append(cur)
        cur = None

    for i, (item, (t, _)) in enumerate(zip(items, texts)):
        x, y = dev(*item.origin)
        ex, ey = dev(item.origin[0] + item.direction[0] * item.width,
                     item.origin[1] + item.direction[1] * item.width)
        if item.vertical:
            ex, ey = dev(*item.end)
        dx, dy = ex - x, ey - y
        if x + dx < 0 or x > width or y + dy < 0 or y > height or not (math.isfinite(x) and math.isfinite(y)):
            drops[i] = ("off_page", f"origin outside the page (TextPage::addChar, {SOURCE})")
            continue
        if any(hidden for kind, hidden in base.optional_content(item) if kind != "inline"):
            drops[i] = ("optional_content_off", f"in optional content the default view turns off: {OC_SOURCE}")
            continue
        if len(t) == 1 and t.isspace():
            drops[i] = ("space-glyph", f"a white-space glyph ends the word (TextPage::addChar, {SOURCE})")
            end()
            continue
        if t == "\0":
            drops[i] = ("no-text", "a null character is ignored (TextPage::addChar)")
            continue
        rot, size = _rotation(item, dev)
        if cur is not None and t and _combine(cur, i, t, x, y, dx, dy):
            continue
        if cur is not None and cur.chars:
            r = cur.rot
            at, sp, delta = ((y, x - cur.x1, x - cur.chars[-1].edge), (x, y - cur.y1, y - cur.chars[-1].edge),
                             (y, cur.x0 - x, cur.chars[-1].edge - x), (x, cur.y0 - y, cur.chars[-1].edge - y))[r]
            overlap = abs(delta) < DUP_MAX_PRI_DELTA * cur.size and abs(at - cur.base) < DUP_MAX_SEC_DELTA * cur.size
            if (overlap or last_overlap or sp < -MIN_DUP_BREAK_OVERLAP * cur.size
                    or sp > MIN_WORD_BREAK_SPACE * cur.size or abs(at - cur.base) > MAX_BASE_DELTA
                    or size != cur.size or item.vertical != cur.vertical):
                end()
            last_overlap = overlap
        else:
            last_overlap = False
        if not t:
            drops[i] = ("no-text", "no text for this glyph")
            continue
        if cur is None:
            cur = _new_word(rot, size, item, x, y)
        if (cur.rot == 0 and dx < 0) or (cur.rot == 1 and dy < 0) or (cur.rot == 2 and dx > 0) or \
                (cur.rot == 3 and dy > 0):
            end()  # drawn backwards: a word of its own, its box turned round
            x, y, dx, dy = x + dx, y + dy, -dx, -dy
            cur = _new_word(rot, size, item, x, y)
        n = len(t)
        for k, c in enumerate(t):
            _add_char(cur, i, c, x + k * dx / n, y + k * dy / n, dx / n, dy / n)
    end()
    return words, drops


def _near(w: _Word, blk: _Word, lo: float, hi: float) -> bool:
    return w.x0 < blk.x1 + hi and w.x1 > blk.x0 - lo if w.rot in (0, 2) else w.y0 < blk.y1 + hi and w.y1 > blk.y0 - lo


def _blocks(pool: _Pool) -> list[list[_Word]]:
    """``TextPage::coalesce``: the words of one rotation class gathered into blocks."""
    blocks: list[list[_Word]] = []
    while True:
        first = pool.first_index()
        if first is None:
            return blocks
        start = first
        for i in range(first + 1, first + 4):  # the left-most word of the first four lines
            if pool.words(i) and pool.words(i)[0].primary_cmp(pool.words(start)[0]) < 0:
                start = i
        w0 = pool.words(start)[0]
        pool.remove(start, w0)
        blk = _Word(w0.rot, w0.size, w0.base, None, w0.vertical, w0.x0, w0.y0, w0.x1, w0.y1)
        members = [w0]
        size = w0.size
        lo = hi = w0.base
        col1, col2 = MIN_COL_SPACING1 * size, MIN_COL_SPACING2 * size
        line_space, intra = MAX_LINE_SPACING_DELTA * size, MAX_INTRA_LINE_DELTA * size
        horizontal = w0.rot in (0, 2)

        def take(i: int, w: _Word) -> None:
            pool.remove(i, w)
            members.append(w)
            blk.grow(w)

        while True:
            found = False
            new_lo = lo
            for i in range(pool.idx(lo), pool.idx(lo - line_space) - 1, -1):  # the line above
                for w in list(pool.words(i)):
                    if lo - line_space <= w.base < lo and _near(w, blk, 0, 0) \
                            and abs(w.size - size) < MAX_BLOCK_FONT_SIZE_DELTA1 * size:
                        take(i, w)
                        found, new_lo = True, w.base
            lo = new_lo
            new_hi = hi
            for i in pool.span(hi, hi + line_space):  # the line below
                for w in list(pool.words(i)):
                    if hi < w.base <= hi + line_space and _near(w, blk, 0, 0) \
                            and abs(w.size - size) < MAX_BLOCK_FONT_SIZE_DELTA1 * size:
                        take(i, w)
                        found, new_hi = True, w.base
            hi = new_hi
            for i in pool.span(lo - intra, hi + intra):  # on the block's lines, overlapping it
                for w in list(pool.words(i)):
                    if lo - intra <= w.base <= hi + intra and _near(w, blk, col1, col1) \
                            and abs(w.size - size) < MAX_BLOCK_FONT_SIZE_DELTA2 * size:
                        take(i, w)
                        found = True
            if found:
                continue
            for side in ("left", "right"):  # up to three words near the block's side
                def beside(w: _Word) -> bool:
                    if not (lo - intra <= w.base <= hi + intra
                            and abs(w.size - size) < MAX_BLOCK_FONT_SIZE_DELTA3 * size):
                        return False
                    if side == "left":
                        return (blk.x0 - col2 < w.x1 <= blk.x0) if horizontal else (blk.y0 - col2 < w.y1 <= blk.y0)
                    return (blk.x1 <= w.x0 < blk.x1 + col2) if horizontal else (blk.y1 <= w.y0 < blk.y1 + col2)
                span = pool.span(lo - intra, hi + intra)
                n = sum(1 for i in span if any(beside(w) for w in pool.words(i)))
                if 0 < n <= 3:
                    for i in span:
                        near = next((w for w in pool.words(i) if beside(w)), None)
                        if near is not None:
                            take(i, near)
                            lo, hi = min(lo, near.base), max(hi, near.base)
                            found = True
            if not found:
                break
        blocks.append(members)


def _same(a: _Word, b: _Word) -> bool:
    """The duplicate test of ``TextBlock::coalesce`` (poppler 22.12): the same text with its box
    within ``dupMaxPriDelta`` along and ``dupMaxSecDelta`` across the baseline."""
    if len(a.chars) != len(b.chars) or any(p.text != q.text for p, q in zip(a.chars, b.chars)):
        return False
    pri, sec = DUP_MAX_PRI_DELTA * a.size, DUP_MAX_SEC_DELTA * a.size
    if a.rot in (0, 2):
        return abs(a.x0 - b.x0) < pri and abs(a.x1 - b.x1) < pri and abs(a.y0 - b.y0) < sec and abs(a.y1 - b.y1) < sec
    return abs(a.y0 - b.y0) < pri and abs(a.y1 - b.y1) < pri and abs(a.x0 - b.x0) < sec and abs(a.x1 - b.x1) < sec


def _lines(words: list[_Word], dropped: list[_Word]) -> list[list[_Word]]:
    """``TextBlock::coalesce``: duplicates left out (into ``dropped``), then the block's lines,
    each from its left-most word rightwards, in the block's line order."""
    pool = _Pool()
    for w in words:
        pool.add(w)
    for i in sorted(pool.buckets):
        k = 0
        while k < len(pool.words(i)):
            w0 = pool.words(i)[k]
            for j in pool.span(w0.base, w0.base + DUP_MAX_SEC_DELTA * w0.size):
                bucket = pool.buckets.get(j)
                if not bucket:
                    continue
                after = k + 1 if j == i else 0  # the words after w0 in its own bucket, all in the next ones
                gone = [w1 for w1 in bucket[after:] if _same(w0, w1)]
                if gone:
                    dropped.extend(gone)
                    bucket[after:] = [w1 for w1 in bucket[after:] if w1 not in gone]
            k += 1
    pool.buckets = {i: b for i, b in pool.buckets.items() if b}
    lines: list[list[_Word]] = []
    while True:
        first = pool.first_index()
        if first is None:
            break
        start = first
        for i in range(first + 1, first + 4):
            if pool.words(i) and pool.words(i)[0].primary_cmp(pool.words(start)[0]) < 0:
                start = i
        last = pool.words(start)[0]
        pool.remove(start, last)
        line = [last]
        size = last.size
        lo, hi = last.base - MAX_INTRA_LINE_DELTA * size, last.base + MAX_INTRA_LINE_DELTA * size
        while True:
            best: tuple[int, _Word] | None = None
            overlap = False
            for i in pool.span(lo, hi):
                for w in pool.words(i):
                    if lo <= w.base <= hi:
                        delta = last.primary_delta(w)
                        if delta < MIN_CHAR_SPACING * size:
                            overlap = True
                        elif delta < MAX_WORD_SPACING * size and (best is None or w.primary_cmp(best[1]) < 0):
                            best = (i, w)
                        break
                if overlap:
                    break
            if overlap or best is None:
                break
            pool.remove(*best)
            line.append(best[1])
            last = best[1]
        lines.append(line)
    sign = 1 if line[0].rot in (0, 3) else -1
    return sorted(lines, key=lambda ln: (sign * ln[0].base, min(w.primary_cmp(ln[0]) for w in ln)))


def _coalesce_line(line: list[_Word]) -> list[_Word]:
    """``TextLine::coalesce``: a space after a word whose gap to the next is at least the
    line's threshold; closer words of one font, drawn one after the other, are merged."""
    if len(line) < 2:
        return line
    size = line[0].size
    min_space = 0.0
    if len(line[0].chars) == 1 and len(line[1].chars) == 1:
        min_space = line[0].primary_delta(line[1])
        for w0, w1 in zip(line[1:], line[2:]):
            if min_space <= 0:
                break
            if len(w1.chars) > 1:
                min_space = 0.0
            min_space = min(min_space, w0.primary_delta(w1))
    if min_space <= 0:
        space = MAX_CHAR_SPACING * size
        rule = f"maxCharSpacing {MAX_CHAR_SPACING}"
    else:
        space = min(MAX_WIDE_CHAR_SPACING_MUL * min_space, MAX_WIDE_CHAR_SPACING * size)
        rule = f"letter-spaced line: maxWideCharSpacingMul {MAX_WIDE_CHAR_SPACING_MUL} × the smallest gap"
    out = [line[0]]
    for w1 in line[1:]:
        w0 = out[-1]
        delta = w0.primary_delta(w1)
        if delta >= space:
            w0.space_after = True
            w0.why = (f"gap {base.em(delta, size)} > minWordBreakSpace {MIN_WORD_BREAK_SPACE} ({SOURCE} "
                      f"TextPage::addChar), ≥ {rule} (TextLine::coalesce)" if delta > MIN_WORD_BREAK_SPACE * size
                      else f"gap {base.em(delta, size)} ≥ {rule} ({SOURCE} TextLine::coalesce)")
            out.append(w1)
        elif w0.font is w1.font and abs(w0.size - w1.size) < MAX_WORD_FONT_SIZE_DELTA * size \
                and w1.chars[0].glyph == w0.pos_end:
            w0.chars.extend(w1.chars)
            w0.grow(w1)
            w0.edge_end, w0.pos_end = w1.edge_end, w1.pos_end
        else:
            w0.why = f"gap {base.em(delta, size)} < {rule}: joined ({SOURCE} TextLine::coalesce)"
            out.append(w1)
    return out


def _reading_order(blocks: list, primary_lr: bool) -> list:
    """``TextPage::coalesce``'s reading order: a topological sort of the blocks (T. M. Breuel's
    rules, ``TextBlock::visitDepthFirst``): a block goes after every block that overlaps it
    across the primary direction and lies above it (rule 1), and after every block wholly before
    it along the lines (rule 2) unless a third block lies below the first and above the second
    by rule 1. Each block's box is first widened along the lines towards its neighbours below
    (``ExMin``/``ExMax``). Poppler's table detection is not followed; past ``MAX_SORTED_BLOCKS``
    blocks the order they were built in is kept."""
    if len(blocks) < 2 or len(blocks) > MAX_SORTED_BLOCKS:
        return blocks
    counts = [0, 0, 0, 0]
    for box, lines in blocks:
        counts[box.rot] += sum(len(w.chars) for line in lines for w in line)
    primary = max(range(4), key=lambda r: (counts[r], -r))
    boxes = [box for box, _ in blocks]
    ext = [[b.x0, b.y0, b.x1, b.y1] for b in boxes]
    for i, b1 in enumerate(boxes):  # widen along x up to the nearest neighbours on the block's lines
        lo, hi = sys.float_info.min, sys.float_info.max
        for b2 in boxes:
            if b2 is not b1 and b1.y0 <= b2.y1 and b1.y1 >= b2.y0:
                if b1.x1 < b2.x0 < hi:
                    hi = b2.x0
                if lo < b2.x1 < b1.x0:
                    lo = b2.x1
        for b2 in boxes:
            if b2 is not b1 and b2.y0 >= b1.y1:
                if ext[i][2] < b2.x1 <= hi:
                    ext[i][2] = b2.x1
                if lo <= b2.x0 < ext[i][0]:
                    ext[i][0] = b2.x0

    def rule1(a: int, b: int) -> bool:  # TextBlock::isBeforeByRule1: a is before b
        ea, eb = ext[a], ext[b]
        k = 0 if primary in (0, 2) else 1
        overlap = ea[k] <= eb[k] <= ea[k + 2] or eb[k] <= ea[k] <= eb[k + 2]
        return overlap and (ea[1] < eb[1], ea[2] > eb[2], ea[3] > eb[3], ea[0] < eb[0])[primary]

    def rule2(a: int, b: int) -> bool:  # TextBlock::isBeforeByRule2
        ea, eb = ext[a], ext[b]
        rot = boxes[a].rot if primary_lr else (boxes[a].rot + 2) % 4
        return (ea[2] - eb[0], ea[1] - eb[3], eb[2] - ea[0], eb[1] - ea[3])[rot] <= 0

    def before(a: int, b: int) -> bool:
        if rule1(a, b):
            return True
        return rule2(a, b) and not any(c not in (a, b) and rule1(b, c) and rule1(c, a) for c in range(len(boxes)))

    visited = [False] * len(blocks)
    order: list[int] = []
    for start in range(len(blocks)):
        if visited[start]:
            continue
        visited[start] = True
        stack = [(start, 0)]
        while stack:
            b1, nxt = stack[-1]
            for b2 in range(nxt, len(blocks)):
                if not visited[b2] and before(b2, b1):
                    stack[-1] = (b1, b2 + 1)
                    visited[b2] = True
                    stack.append((b2, 0))
                    break
            else:
                stack.pop()
                order.append(b1)
    return [blocks[i] for i in order]


def _bidi_type(t: str) -> str:
    """``UnicodeTypeTable.cc``'s class of a character: ``L`` (left to right), ``R`` (right to
    left), ``#`` (digits and the signs around numbers: ``+ - . , / : # $ %``) or ``" "``
    (neutral), here from Unicode's bidirectional classes."""
    kind = unicodedata.bidirectional(t[0]) if t else ""
    return "R" if kind in ("R", "AL") else "L" if kind == "L" else "#" if kind in ("EN", "AN", "ES", "ET", "CS") else " "


_BIDI_COUNT = {"L": 1, "R": -1}


def _reorder(line: list[base.Decision], primary_lr: bool) -> list[base.Decision]:
    """``reorderText``: a line is written left to right as it lies on the page, each run of
    right-to-left text reversed between U+202B and U+202C (a page of mostly right-to-left
    text: the whole line reversed, inside U+202B … U+202C, left-to-right runs between U+202A
    and U+202C)."""
    if not line or (primary_lr and not any(_bidi_type(d.text) == "R" for d in line)):
        return line
    units: list[tuple[str, base.Decision | None]] = []
    for i, d in enumerate(line):
        if i and d.before:
            units.append((d.before, None))
        units.append((d.text, d))
    kinds = [_bidi_type(t) if d is not None else " " for t, d in units]
    order: list[tuple[str, base.Decision | None]] = []
    if primary_lr:
        i = 0
        while i < len(units):
            j = i
            while j < len(units) and kinds[j] != "R":
                j += 1
            order += units[i:j]
            i = j
            while j < len(units) and kinds[j] not in ("L", "#"):
                j += 1
            if j > i:
                order += [(RLE, None), *units[i:j][::-1], (PDF, None)]
                i = j
    else:
        order.append((RLE, None))
        i = len(units) - 1
        while i >= 0:
            j = i
            while j >= 0 and kinds[j] not in ("L", "#"):
                j -= 1
            order += units[j + 1:i + 1][::-1]
            i = j
            while j >= 0 and kinds[j] != "R":
                j -= 1
            if j < i:
                order += [(LRE, None), *units[j + 1:i + 1], (PDF, None)]
                i = j
        order.append((PDF, None))
    out: list[base.Decision] = []
    pending = ""
    for t, unit in order:
        if unit is None:
            pending += t
            continue
        if not out:
            unit = replace(unit, before=line[0].before, rule=line[0].rule, detail=line[0].detail,
                           text=pending + unit.text)
        elif pending in (base.NOTHING, base.SPACE):
            unit = replace(unit, before=pending)
        else:
            unit = replace(unit, before=base.NOTHING, text=pending + unit.text)
        out.append(unit)
        pending = ""
    if pending:
        out[-1] = replace(out[-1], text=out[-1].text + pending)
    return out


def emulate(records, page: base.Page | None = None, shared: dict | None = None) -> base.Emulation:
    # TextOutputDev::interpretType3Chars is false: a Type3 glyph is one character, its procedure never runs
    recs = [r for r in base.source_records(records, annots=True, type3_text=False) if r.step.charproc is None]
    items = base.items(recs, shared)
    texts = [text(r) for r in recs]
    words, drops = _words(items, texts, page)
    pools = [_Pool() for _ in range(4)]
    for w in words:
        pools[w.rot].add(w)
    dropped: list[_Word] = []
    blocks = []
    for rot in range(4):
        for members in _blocks(pools[rot]):
            box = _Word(rot, 0.0, 0.0, None, False, min(w.x0 for w in members), min(w.y0 for w in members),
                        max(w.x1 for w in members), max(w.y1 for w in members))
            blocks.append((box, [_coalesce_line(line) for line in _lines(members, dropped)]))
    primary_lr = sum(_BIDI_COUNT.get(_bidi_type(c.text), 0) for _, blk in blocks for line in blk for w in line
                     for c in w.chars) >= 0
    lines = [line for _, blk in _reading_order(blocks, primary_lr) for line in blk]
    for w in dropped:
        for c in w.chars:
            drops.setdefault(c.glyph, ("duplicate", f"a word drawn again over itself: dupMaxPriDelta "
                                                    f"{DUP_MAX_PRI_DELTA}, dupMaxSecDelta {DUP_MAX_SEC_DELTA} "
                                                    f"({SOURCE} TextBlock::coalesce)"))
    out: list[base.Decision] = []
    placed: set[int] = set()
    before, rule, detail = base.NOTHING, "first", ""
    for n, line in enumerate(lines):
        last_char = line[-1].chars[-1].text if line[-1].chars else ""
        hyphenated = last_char == "-" and n + 1 < len(lines)
        line_out: list[base.Decision] = []
        for k, w in enumerate(line):
            glyph_chars: dict[int, str] = {}
            for c in w.chars:
                glyph_chars[c.glyph] = glyph_chars.get(c.glyph, "") + c.text
            glyphs = list(glyph_chars.items())
            if hyphenated and k == len(line) - 1 and glyphs and glyphs[-1][1] == "-":
                g, _ = glyphs.pop()
                out.append(base.Decision(recs[g], "", False,
                                         base.NOTHING, "hyphenated", "a hyphen ending the line is left out "
                                         "(TextPage::dump)", texts[g][1]))
                placed.add(g)
            for g, t in glyphs:
                if g in placed:
                    continue
                placed.add(g)
                line_out.append(base.Decision(recs[g], t, True, before, rule, detail, texts[g][1]))
                before, rule, detail = base.NOTHING, "word", "in the same word (TextPage::addChar)"
            if w.space_after:
                before, rule, detail = base.SPACE, "word-break", w.why
            elif k + 1 < len(line):
                before, rule, detail = base.NOTHING, "joined", w.why
        out.extend(_reorder(line_out, primary_lr))
        if hyphenated:
            before, rule, detail = base.NOTHING, "hyphenated", "the line after a hyphen joins it (TextPage::dump)"
        else:
            before, rule, detail = base.LINE, "line", f"another line of the block ({SOURCE} TextBlock::coalesce)"
    for g, r in enumerate(recs):
        if g not in placed:
            why = drops.get(g, ("no-text", "no text for this glyph"))
            out.append(base.Decision(r, "", False, base.NOTHING, why[0], why[1], texts[g][1]))
    return base.Emulation("poppler", tuple(out))
