"""pdfium's text page (``FPDFText_GetText``, pypdfium2 ``get_text_range``), chromium/pdfium 2024.

Source: ``core/fpdftext/cpdf_textpage.cpp``. Inside one text object (one Tj/TJ), a TJ number
(plus Tc) of at least half the font's space width adds a space (when the space glyph is at
most a third of an em wide; otherwise a fraction of the glyph's own width,
``NormalizeThreshold(w, 300, 500, 700)``) — ``ProcessTextObject``. Between text objects
(``ProcessInsertObject``): boxes that no longer overlap vertically, or a baseline move
beyond 2× (up) or 3× (down) a quarter of the wider glyph, end the line (``\\r\\n``); a forward
gap wider than ``NormalizeThreshold(w, 400, 700, 800)`` of the wider glyph is a space. A
glyph with the same code and font within ``DUP_FACTOR`` × size of one of the last 7 is
dropped. A hyphen ending a line before a letter joins the lines (the hyphen becomes
U+FFFE). A code with no Unicode is output as the code itself. /ActualText replaces the
glyphs. Annotations are not read.
"""
from __future__ import annotations

import unicodedata

from . import base

SOURCE = "pdfium core/fpdftext/cpdf_textpage.cpp"
SPACE_FRACTION = 0.5  # ProcessTextObject: threshold /= 2 (of the space width)
MAX_SPACE = 1 / 3  # ProcessTextObject: a space wider than fontsize_h / 3 is not used
DUP_FACTOR = 0.07  # ProcessTextObject: kTextCharRatioGapDelta
DUP_WINDOW = 7  # ProcessTextObject: the last 7 characters
MIN_LINE_HEIGHT = 4.5  # EndHorizontalLine: boxes this high or lower never end a line
CONTROL = {0x2, 0x3, 0x93, 0x94, 0x96, 0x97, 0x98}  # IsControlChar: not in the page text


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
    t = base.spec_text(record, "pdfium", actual_text=True)
    if not t:
        code = base.code_of(record)
        font = record.step.font
        if not 0 < code < 0x110000 or code in CONTROL or (code < 0x20 and not (font and font.is_type0)):
            return "", "no-text"
        return chr(code), "code-as-unicode"
    if any(ord(c) in CONTROL for c in t):  # CPDF_TextPage::Init leaves them out of the text
        return "".join(c for c in t if ord(c) not in CONTROL), "control-dropped"
    if any(0xFB00 <= ord(c) <= 0xFB06 for c in t):  # GetUnicodeNormalization (unicodenormalizationdata.cpp)
        return unicodedata.normalize("NFKC", t), "ligature-expanded"
    return t, ""


def emulate(records, page: base.Page | None = None) -> base.Emulation:
    recs = base.source_records(records, annots=False)
    items = [base.make_item(r) for r in recs]
    spaces = base.space_widths(recs)

    def decide(prev: base.Item, cur: base.Item, prev_text: str, t: str) -> tuple[str, str, str]:
        ps, cs = prev.record.step, cur.record.step
        size = prev.size
        along, across = cur.gap(prev)
        if ps is cs:
            tc = cs.gstate.text.char_spacing * cur.unit
            spacing = along + tc
            sw = spaces.get(cs.font, 0.0)
            if 0 < sw <= MAX_SPACE:
                threshold, how = SPACE_FRACTION * sw * cur.size, f"half the space width {sw:.3f} em"
            else:
                w = normalize(cur.record.glyph.width * 1000, 300, 500, 700) / 1000
                threshold, how = w * cur.size, f"NormalizeThreshold of the glyph width: {w:.3f} em"
            if threshold and spacing >= threshold and not prev_text.endswith(" "):
                return base.SPACE, "tj-number", f"TJ/Tc move {base.em(spacing, size)} ≥ {how} ({SOURCE})"
            return base.NOTHING, "tj-number", f"TJ/Tc move {base.em(spacing, size)} < {how}"
        a, b = prev.rect, cur.rect
        if (a[3] - a[1] > MIN_LINE_HEIGHT and b[3] - b[1] > MIN_LINE_HEIGHT and
                max(a[1], b[1]) >= min(a[3], b[3]) and not cur.vertical):
            return base.LINE, "line", f"boxes do not overlap vertically (EndHorizontalLine, {SOURCE})"
        last_w, this_w = prev.record.glyph.width * 1000, cur.record.glyph.width * 1000
        quarter = max(last_w, this_w) / 4 / 1000 * size
        if (across > 2 * quarter or across < -3 * quarter) and not _same_band(prev, cur):
            return base.LINE, "baseline", (f"baseline moved {base.em(across, size)}, beyond 2× / 3× a quarter "
                                           f"of the wider glyph ({SOURCE} ProcessInsertObject)")
        if t.startswith(" ") or prev_text.endswith(" "):
            return base.NOTHING, "space-drawn", "a space glyph is next to it"
        threshold = normalize(max(last_w, this_w), 400, 700, 800) / 1000 * size
        if along > threshold:
            return base.SPACE, "gap", (f"gap {base.em(along, size)} > NormalizeThreshold of the wider glyph "
                                       f"{base.em(threshold, size)} ({SOURCE} GenerateSpace)")
        return base.NOTHING, "gap", f"gap {base.em(along, size)} ≤ {base.em(threshold, size)}"

    texts = [text(r) for r in recs]
    drops: list[tuple[str, str]] = []
    shown: list[base.Item] = []
    for item in items:
        r = item.record
        near = DUP_FACTOR * item.size
        if any(o.record.glyph.code == r.glyph.code and o.record.step.font is r.step.font and
               abs(o.origin[0] - item.origin[0]) < near and abs(o.origin[1] - item.origin[1]) < near
               for o in shown[-DUP_WINDOW:]):
            drops.append(("duplicate", f"same code and font within {DUP_FACTOR} em of a glyph just shown ({SOURCE})"))
            continue
        drops.append(("", ""))
        shown.append(item)
    emulation = base.flow("pdfium", items, texts, decide, drops)
    return _join_hyphens(emulation)


def _same_band(prev: base.Item, cur: base.Item) -> bool:
    """One origin lies within the other glyph's vertical extent (a superscript, a subscript):
    ``ProcessInsertObject`` keeps them on one line."""
    if len(prev.record.step.glyphs) < 2:  # only after a text object of several glyphs
        return False
    return prev.rect[1] <= cur.origin[1] <= prev.rect[3] or cur.rect[1] <= prev.origin[1] <= cur.rect[3]


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
