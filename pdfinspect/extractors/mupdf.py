"""MuPDF's structured text (``mutool draw -F txt``), version 1.21.1.

Source: ``source/fitz/stext-device.c`` (``fz_add_stext_char_imp``): distances from the pen
(the end of the previous glyph) along and across the baseline, divided by the size (the text
rendering matrix's expansion). A glyph on the same baseline (under ``BASE_MAX_DIST``) closer
than ``SPACE_DIST`` joins the word; further than ``SPACE_MAX_DIST`` starts a line; between,
forward, a space is added. A glyph drawn again at the same pen end (fake bold) is dropped.
Without ``preserve-ligatures`` the ligatures U+FB00–FB06 are expanded; without
``preserve-whitespace`` white space becomes a space; a code with no Unicode is U+FFFD
(``source/pdf/pdf-font.c``). Annotations' appearances are drawn and read.
"""
from __future__ import annotations

import dataclasses

from ..fonts.agl import glyph_to_unicode
from ..fonts.codes import ENCODING
from . import base

SOURCE = "MuPDF 1.21.1 source/fitz/stext-device.c"
SPACE_DIST = 0.15  # stext-device.c SPACE_DIST
SPACE_MAX_DIST = 0.8  # stext-device.c SPACE_MAX_DIST
BASE_MAX_DIST = 0.8  # stext-device.c: fabsf(base_offset) < size * 0.8f
BARE_CFF = ("CIDFontType0C", "Type1C")  # FontFile3 subtypes: no vmtx for FreeType's vertical layout
# Which optional content MuPDF hides, by the kind of rule (core.optional.KINDS) → its verdict
# from the spec's (pdf-layer.c pdf_is_hidden_ocg, checked with mutool 1.21.1 on a built page
# of every kind): a visibility expression /VE is never evaluated (visible), /P /AllOn
# combines its groups so that it is always visible and /P /AnyOff so that it is always
# hidden; groups, /AnyOn and /AllOff follow the spec.
OC_SOURCE = "MuPDF 1.21.1 source/pdf/pdf-layer.c pdf_is_hidden_ocg"
OC_HIDDEN = {"expression": lambda hidden: False, "policy_all_on": lambda hidden: False,
             "policy_any_off": lambda hidden: True}
LIGATURES = {"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl",
             "\ufb05": "ft", "\ufb06": "st"}  # stext-device.c fz_add_stext_char (not FZ_STEXT_PRESERVE_LIGATURES)


def _number_name(name: str) -> str:
    """``fz_unicode_from_glyph_name`` past its AGL table (``source/fitz/encodings.c``, 1.21.1):
    ``uniXXXX``, ``uXXXX`` (hex), ``aNN…`` (decimal, three characters at least), else the whole
    name as a decimal number; U+FFFD when that gives nothing. No ITC Zapf Dingbats list."""
    base_name = name.split(".", 1)[0].split("_", 1)[0]
    try:
        if base_name.startswith("uni") and len(base_name) == 7:
            code = int(base_name[3:], 16)
        elif base_name.startswith("u"):
            code = int(base_name[1:], 16)
        elif base_name.startswith("a") and len(base_name) >= 3:
            code = int(base_name[1:], 10)
        else:
            code = int(base_name, 10)
    except ValueError:
        code = 0
    return chr(code) if 0 < code <= 0x10FFFF and not 0xD800 <= code < 0xE000 else "\ufffd"


def text(record) -> tuple[str, str]:
    font = record.step.font
    if font is not None and not font.is_type0 and record.method == ENCODING and len(record.glyph.code) == 1:
        name = font.glyph_name(record.glyph.code[0])
        if name and not glyph_to_unicode(name).unicode and glyph_to_unicode(name, zapf_dingbats=True).unicode:
            return "".join(" " if c.isspace() else c for c in _number_name(name)), "glyph-name-number"
    t = base.spec_text(record, "mupdf", actual_text=False)
    if t is None:
        return "\ufffd", "replacement-character"
    out = "".join(LIGATURES.get(c, " " if c.isspace() else c) for c in t)
    return out, ("ligature-expanded" if out != t and not t.isspace() else "")


def decide(prev: base.Item, cur: base.Item, prev_text: str, t: str) -> tuple[str, str, str]:
    if cur.vertical != prev.vertical or cur.direction[0] * prev.direction[0] + cur.direction[1] * prev.direction[1] < 0.999:
        return base.LINE, "direction", "the baseline turned: a new line (" + SOURCE + ")"
    along, across = cur.gap(prev)
    size = cur.size
    if abs(across) >= BASE_MAX_DIST * size:
        return base.LINE, "baseline", f"off the baseline by {base.em(abs(across), size)} ≥ {BASE_MAX_DIST} ({SOURCE})"
    if abs(along) < SPACE_DIST * size:
        return base.NOTHING, "close", f"gap {base.em(along, size)} under SPACE_DIST {SPACE_DIST} ({SOURCE})"
    if abs(along) > SPACE_MAX_DIST * size:
        return base.LINE, "far", f"gap {base.em(along, size)} beyond SPACE_MAX_DIST {SPACE_MAX_DIST} ({SOURCE})"
    if along < 0:
        return base.NOTHING, "backward", f"moved back {base.em(-along, size)}: ignored ({SOURCE})"
    if prev_text.endswith(" ") or cur.vertical:
        return base.NOTHING, "space-drawn", "the previous glyph is a space"
    return base.SPACE, "gap", f"gap {base.em(along, size)} ≥ SPACE_DIST {SPACE_DIST} ({SOURCE})"


def _vertical_advance(item: base.Item) -> base.Item:
    """MuPDF takes a vertical glyph's advance from the font program (``fz_advance_glyph``,
    ``source/fitz/font.c``: FreeType with ``FT_LOAD_VERTICAL_LAYOUT``), not from /W2: a bare CFF
    program (FontFile3 ``CIDFontType0C`` or ``Type1C``) has no vertical metrics and advances 0,
    so the next glyph lies a whole advance past the pen. A substitute (non-embedded) font uses the
    PDF widths."""
    font = item.record.step.font
    if item.vertical and font is not None and font.program_kind in BARE_CFF:
        return dataclasses.replace(item, end=item.origin)
    return item


def emulate(records, page: base.Page | None = None, shared: dict | None = None) -> base.Emulation:
    recs = base.source_records(records, annots=True)
    items = [_vertical_advance(i) for i in base.items(recs, shared)]
    texts = [text(r) for r in recs]
    drops: list[tuple[str, str]] = []
    pen = None
    for item, (t, _) in zip(items, texts):
        if base.off_page(item, page.crop if page else None):
            drops.append(("off_page", "outside the page: not in the structured text (mutool draw)"))
            continue
        if any(OC_HIDDEN.get(kind, lambda h: h)(hidden) for kind, hidden in base.optional_content(item)):
            drops.append(("optional_content_off", f"in optional content MuPDF hides ({OC_SOURCE})"))
            continue
        if pen is not None and abs(item.end[0] - pen[0][0]) < 1e-6 and abs(item.end[1] - pen[0][1]) < 1e-6 and t == pen[1]:
            drops.append(("duplicate", f"drawn again at the same pen position: fake bold ({SOURCE})"))
            continue
        drops.append(("", ""))
        pen = (item.end, t)
    return base.flow("mupdf", items, texts, decide, drops)
