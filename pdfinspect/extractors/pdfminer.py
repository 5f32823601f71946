"""pdfminer.six ``extract_text`` with the default ``LAParams``, version 20260107.

Source: ``pdfminer/layout.py``. Each glyph is an ``LTChar`` whose box is its advance (w0 ×
size × Tz, no Tc/Tw) by the font size, from the descent, made axis-aligned on the page.
Consecutive characters stay on one line when their boxes overlap vertically by more than
``line_overlap`` × the lower height and lie closer than ``char_margin`` × the wider width
(``group_objects``); within a line a space (``LTAnno``) goes where the gap exceeds
``word_margin`` × max(width, height) of the new character (``LTTextLineHorizontal.add``).
Characters inside a form XObject become an ``LTFigure``'s children, which layout analysis
leaves alone: they are written one after another with nothing between them. A code with
no Unicode is written ``(cid:N)`` (``converter.py`` ``handle_undefined_char``).
Annotations are not read.
"""
from __future__ import annotations

import functools
import math

from ..fonts.agl import glyph_to_unicode
from ..fonts.codes import ENCODING
from ..fonts.encodings import BUILTIN_FONT_ENCODINGS, base_encoding
from ..fonts.predefined import predefined_cmap
from . import base

SOURCE = "pdfminer.six 20260107 pdfminer/layout.py"
LINE_OVERLAP = 0.5  # LAParams.line_overlap
CHAR_MARGIN = 2.0  # LAParams.char_margin
WORD_MARGIN = 0.1  # LAParams.word_margin
IDENTITY_CMAPS = ("Identity-H", "Identity-V", "OneByteIdentityH", "OneByteIdentityV")  # cmapdb.py CMapDB.get_cmap
CMAP_ALIASES = {"DLIdent-H": "Identity-H", "DLIdent-V": "Identity-V"}  # pdffont.py IDENTITY_ENCODER
VERTICAL_VX = 0.5  # layout.py LTChar: vx = fontsize * 0.5 when the font gives none (pdffont.py default_disp)
VERTICAL_VY = 0.88  # pdffont.py PDFCIDFont: DW2 default (880, -1000): vy = (1000 - 880) × size / 1000


def _standard_base(record) -> str | None:
    """The text of a non-embedded Symbol or ZapfDingbats glyph whose font names no base encoding:
    ``pdffont.py`` ``PDFSimpleFont`` takes StandardEncoding for any Type1 font without
    /BaseEncoding (only an embedded FontFile's encoding replaces it), never a standard font's
    built-in encoding; ``None`` when the rule does not apply."""
    font = record.step.font
    if font is None or font.is_type0 or record.method != ENCODING \
            or font.encoding_base != BUILTIN_FONT_ENCODINGS.get(font.standard_name or ""):
        return None
    if len(record.glyph.code) != 1:
        return None
    code = record.glyph.code[0]
    name = font.differences.get(code) or base_encoding("StandardEncoding")[code]
    return glyph_to_unicode(name).unicode if name else ""


@functools.lru_cache(maxsize=256)
def _known_cmap(name: str) -> bool:
    """``pdffont.py`` ``PDFCIDFont.get_cmap_from_spec`` and ``cmapdb.py`` ``CMapDB.get_cmap``:
    pdfminer.six never parses an embedded CMap; it looks the /CMapName up among the identity
    names and its packaged predefined CMaps. Any other name gives an empty ``CMap()``, which
    decodes the shown strings to no character codes at all: the font's text is not output."""
    name = CMAP_ALIASES.get(name, name)
    return name in IDENTITY_CMAPS or predefined_cmap(name) is not None


def text(record) -> tuple[str, str]:
    font = record.step.font
    if font is not None and font.is_type0 and font.cmap is not None and not _known_cmap(font.cmap.name or ""):
        return "", "cmap-unknown"
    standard = _standard_base(record)
    if standard is not None:
        return (standard, "standard-encoding") if standard else (f"(cid:{base.code_of(record)})", "cid-placeholder")
    t = base.spec_text(record, "pdfminer", actual_text=False)
    if t is None:
        return f"(cid:{base.code_of(record)})", "cid-placeholder"
    return t, ""


def _box(item: base.Item, page: base.Page) -> tuple[float, float, float, float]:
    """LTChar's box: advance w0 by the font size, from the descent; axis-aligned in the page
    turned by /Rotate."""
    left, bottom, right, top = item.rect
    ux, uy = item.direction
    ox, oy = item.origin
    if item.vertical:  # layout.py LTChar: (-vx, vy + adv) to (-vx + size, vy), adv the (negative) w1y
        adv = math.hypot(item.end[0] - ox, item.end[1] - oy)
        vx, vy = VERTICAL_VX * item.size, (1 - VERTICAL_VY) * item.size
        corners = [page.upright(ox - a * uy - b * ux, oy + a * ux - b * uy)
                   for a in (-vx, -vx + item.size) for b in (vy - adv, vy)]
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        return min(xs), min(ys), max(xs), max(ys)
    descent = min(0.0, (bottom - oy) if abs(uy) < 1e-6 else 0.0)
    corners = []
    for a in (0.0, item.width):
        for b in (descent, descent + item.size):
            corners.append(page.upright(ox + a * ux - b * uy, oy + a * uy + b * ux))
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    return min(xs), min(ys), max(xs), max(ys)


def emulate(records, page: base.Page | None = None, shared: dict | None = None) -> base.Emulation:
    recs = base.source_records(records, annots=False)
    items = base.items(recs, shared)
    boxes = {id(i): _box(i, page or base.Page()) for i in items}

    def decide(prev: base.Item, cur: base.Item, prev_text: str, t: str) -> tuple[str, str, str]:
        if cur.record.step.depth > 0 or prev.record.step.depth > 0:
            if cur.record.step.source == prev.record.step.source and cur.record.step.depth > 0:
                return base.NOTHING, "figure", "inside a form XObject (LTFigure): characters written as they come"
            return base.LINE, "figure", "a form XObject (LTFigure) starts or ends"
        a, b = boxes[id(prev)], boxes[id(cur)]
        h0, h1 = a[3] - a[1], b[3] - b[1]
        w0, w1 = a[2] - a[0], b[2] - b[0]
        voverlap = min(a[3], b[3]) - max(a[1], b[1])
        hdistance = max(0.0, max(a[0], b[0]) - min(a[2], b[2]))
        if not (voverlap > 0 and voverlap > LINE_OVERLAP * min(h0, h1) and hdistance < CHAR_MARGIN * max(w0, w1)):
            return base.LINE, "line", (f"boxes overlap vertically {voverlap:.2f} pt (needs > line_overlap "
                                       f"{LINE_OVERLAP} × {min(h0, h1):.2f}) and lie {hdistance:.2f} pt apart "
                                       f"(needs < char_margin {CHAR_MARGIN} × {max(w0, w1):.2f}) ({SOURCE})")
        margin = WORD_MARGIN * max(w1, h1)
        gap = b[0] - a[2]
        if gap > margin:
            return base.SPACE, "word-margin", (f"gap {gap:.2f} pt > word_margin {WORD_MARGIN} × max(width, height) "
                                              f"{max(w1, h1):.2f} pt ({SOURCE})")
        return base.NOTHING, "word-margin", (f"gap {gap:.2f} pt ≤ word_margin {WORD_MARGIN} × "
                                            f"{max(w1, h1):.2f} pt ({SOURCE})")

    return base.flow("pdfminer", items, [text(r) for r in recs], decide)
