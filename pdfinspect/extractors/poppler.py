"""poppler's ``pdftotext`` (``TextOutputDev``), poppler 21.07–22.12.

Source: ``poppler/TextOutputDev.cc``. ``TextPage::addChar`` ends a word where the next
glyph starts more than ``minWordBreakSpace`` × size after the word, more than
``minDupBreakOverlap`` × size before it, off its baseline by more than ``MAX_BASE_DELTA``
points, at another font size, or over the previous glyph (a duplicate, dropped later when
the text matches: ``dupMaxPriDelta``/``dupMaxSecDelta``); a space glyph only ends the word.
``TextLine::coalesce`` then writes a space between two words of a line whose gap is at least
``maxCharSpacing`` × size (letter-spaced lines of one-letter words use
``maxWideCharSpacingMul`` × the smallest gap, at most ``maxWideCharSpacing`` × size), and
joins the others. A baseline further than ``maxIntraLineDelta`` × size starts a line.
Glyphs whose origin lies off the page are dropped; a code with no Unicode gives nothing;
ligatures are expanded (``UnicodeMap``/``unicodeNormalizeNFKC`` for ligatures).
Annotations' appearances are read; /ActualText replaces the glyphs.
"""
from __future__ import annotations

import unicodedata

from ..content.textlayout import COMBINING
from . import base

SOURCE = "poppler/TextOutputDev.cc"
MIN_WORD_BREAK_SPACE = 0.1  # minWordBreakSpace
MIN_DUP_BREAK_OVERLAP = 0.2  # minDupBreakOverlap
MAX_BASE_DELTA = 0.5  # addChar: fabs(base - curWord->base) > 0.5 (points)
MAX_CHAR_SPACING = 0.03  # maxCharSpacing
MAX_INTRA_LINE_DELTA = 0.5  # maxIntraLineDelta
DUP_MAX_PRI_DELTA = 0.1  # dupMaxPriDelta
DUP_MAX_SEC_DELTA = 0.2  # dupMaxSecDelta
COMB_MAX_MID_DELTA = 0.3  # combMaxMidDelta
# Gfx.cc opBeginMarkedContent / doForm / drawAnnot skip content OptionalContent.cc
# OCGs::optContentIsVisible calls off (groups, /P policies and /VE as the spec has them);
# an /OC property list written inline is "Unexpected MC Type" and stays visible.
OC_SOURCE = "poppler/Gfx.cc opBeginMarkedContent, poppler/OptionalContent.cc optContentIsVisible"


def text(record) -> tuple[str, str]:
    t = base.spec_text(record, "poppler", actual_text=True)
    if t is None:
        font = record.step.font
        if font is not None and font.is_type0:
            return record.resolution.tounicode_only, "code-as-unicode"
        return "", "no-text"
    if any(0xFB00 <= ord(c) <= 0xFB06 for c in t):
        return unicodedata.normalize("NFKC", t), "ligature-expanded"
    return t, ""


def decide(prev: base.Item, cur: base.Item, prev_text: str, t: str) -> tuple[str, str, str]:
    along, across = cur.gap(prev)
    size = prev.size
    if abs(across) > MAX_INTRA_LINE_DELTA * size:
        return base.LINE, "line", f"baseline moved {base.em(across, size)} > maxIntraLineDelta {MAX_INTRA_LINE_DELTA}"
    if along < -MIN_DUP_BREAK_OVERLAP * size and abs(across) > MAX_BASE_DELTA and along > -(prev.width + cur.width):
        return base.NOTHING, "stacked", (f"back {base.em(-along, size)} onto another baseline, over the previous "
                                         "glyph: the words sort together with no gap (TextLine::coalesce)")
    if along < -MIN_DUP_BREAK_OVERLAP * size:
        return base.LINE, "backward", f"moved back {base.em(-along, size)} > minDupBreakOverlap: another word, sorted by x"
    spaced = prev_text.isspace() or t.isspace()
    if along > MIN_WORD_BREAK_SPACE * size or spaced:
        return base.SPACE, "word-break", (f"gap {base.em(along, size)} > minWordBreakSpace {MIN_WORD_BREAK_SPACE} "
                                          f"({SOURCE} TextPage::addChar)" if not spaced else "a space glyph ends the word")
    if abs(across) > MAX_BASE_DELTA or abs(cur.size - prev.size) > 1e-3:
        if along >= MAX_CHAR_SPACING * size:
            return base.SPACE, "word-break", (f"another word (baseline or size changed), gap {base.em(along, size)} "
                                              f"≥ maxCharSpacing {MAX_CHAR_SPACING} ({SOURCE} TextLine::coalesce)")
    return base.NOTHING, "word", f"gap {base.em(along, size)} ≤ minWordBreakSpace {MIN_WORD_BREAK_SPACE}"


def emulate(records, page: base.Page | None = None) -> base.Emulation:
    recs = base.source_records(records, annots=True)
    items = [base.make_item(r) for r in recs]
    texts = [text(r) for r in recs]
    drops: list[tuple[str, str]] = []
    prev = None
    for item, (t, _) in zip(items, texts):
        if base.off_page(item, page.media if page else None):  # pdftotext.cc: useMediaBox, no crop
            drops.append(("off_page", f"origin outside the page (TextPage::addChar, {SOURCE})"))
            continue
        if any(hidden for kind, hidden in base.optional_content(item) if kind != "inline"):
            drops.append(("optional_content_off", f"in optional content the default view turns off: {OC_SOURCE}"))
            continue
        if prev is not None and t == prev[1] and not t.isspace():
            along, across = item.gap(prev[0])
            adv = prev[0].end[0] - prev[0].origin[0], prev[0].end[1] - prev[0].origin[1]
            dx, dy = item.origin[0] - prev[0].origin[0], item.origin[1] - prev[0].origin[1]
            if abs(dx) < DUP_MAX_PRI_DELTA * item.size and abs(dy) < DUP_MAX_SEC_DELTA * item.size and adv != (0, 0):
                drops.append(("duplicate", f"drawn over the same glyph: dupMaxPriDelta {DUP_MAX_PRI_DELTA} ({SOURCE})"))
                continue
        drops.append(("", ""))
        prev = (item, t)
    emulation = base.flow("poppler", items, texts, decide, drops)
    return _dehyphenate(_combine(emulation, {id(i.record): i for i in items}))


def _combine(emulation: base.Emulation, items: dict) -> base.Emulation:
    """A spacing accent over a letter becomes the letter and its combining mark
    (``TextWord::addCombining``): centres within ``COMB_MAX_MID_DELTA`` of the letter's width."""
    out = list(emulation.decisions)
    kept = [i for i, d in enumerate(out) if d.kept]
    for a, b in zip(kept, kept[1:]):
        p, c = out[a], out[b]
        if not (p.kept and c.kept):
            continue
        ip, ic = items[id(p.record)], items[id(c.record)]
        if c.text in COMBINING and p.text[-1:].isalnum():
            letter, accent = ip, ic
        elif p.text in COMBINING and c.text[:1].isalnum() and len(c.text) == 1:
            letter, accent = ic, ip
        else:
            continue
        mid = lambda i: ((i.origin[0] + i.end[0]) / 2, (i.origin[1] + i.end[1]) / 2)  # noqa: E731
        (lx, ly), (ax, ay) = mid(letter), mid(accent)
        ux, uy = letter.direction
        if abs((ax - lx) * ux + (ay - ly) * uy) >= COMB_MAX_MID_DELTA * max(letter.width, 1e-6):
            continue
        note = f"accent over its letter: combined (TextWord::addCombining, combMaxMidDelta {COMB_MAX_MID_DELTA})"
        if accent is ic:
            out[b] = base.Decision(c.record, COMBINING[c.text], True, base.NOTHING, "combined", note, "combining")
        else:
            out[a] = base.Decision(p.record, "", False, base.NOTHING, "combined", note, p.text_rule)
            out[b] = base.Decision(c.record, c.text + COMBINING[p.text], True, p.before, "combined", note, "combining")
    return base.Emulation(emulation.name, tuple(out))


def _dehyphenate(emulation: base.Emulation) -> base.Emulation:
    """A line ending with a hyphen joins the next line without it (``TextPage::dump``:
    ``line->hyphenated``)."""
    out = list(emulation.decisions)
    last = None
    for i, d in enumerate(out):
        if not d.kept:
            continue
        if last is not None and d.before == base.LINE and out[last].text.endswith("-") and len(out[last].text) == 1:
            p = out[last]
            out[last] = base.Decision(p.record, "", False, p.before, "hyphenated",
                                      "a hyphen ending the line is left out (TextPage::dump)", p.text_rule)
            out[i] = base.Decision(d.record, d.text, True, base.NOTHING, "hyphenated",
                                   "the line after a hyphen joins it (TextPage::dump)", d.text_rule)
        last = i
    return base.Emulation(emulation.name, tuple(out))
