"""PDFBox ``PDFTextStripper`` (what Apache Tika runs), PDFBox 3.0.

Source: ``pdfbox/src/main/java/org/apache/pdfbox/text/PDFTextStripper.java``
(``writePage``): the next word is expected at the end of the last glyph plus
min(``spacingTolerance`` × the space width, ``averageCharTolerance`` × the average glyph
width); a glyph starting beyond that gets a space. A glyph that does not overlap the line's
vertical extent starts a new line. No real counterpart runs here: these rules are read from
the source, not measured.
"""
from __future__ import annotations

from . import base

SOURCE = "PDFBox PDFTextStripper.java"
SPACING_TOLERANCE = 0.5  # PDFTextStripper.spacingTolerance
AVERAGE_CHAR_TOLERANCE = 0.3  # PDFTextStripper.averageCharTolerance
DEFAULT_SPACE = 0.25  # PDFTextStripper: widthOfSpace falls back to a quarter em (TextPosition)


def text(record) -> tuple[str, str]:
    t = base.spec_text(record, "pdfbox", actual_text=False)
    return (t, "") if t is not None else ("", "no-text")


def emulate(records, page: base.Page | None = None, shared: dict | None = None) -> base.Emulation:
    recs = base.source_records(records, annots=False)
    items = base.items(recs, shared)
    spaces = base.space_widths(recs)

    def decide(prev: base.Item, cur: base.Item, prev_text: str, t: str) -> tuple[str, str, str]:
        along, across = cur.gap(prev)
        size = prev.size
        if abs(across) > 0.5 * size or along < -2 * size:
            return base.LINE, "line", f"outside the line's vertical extent ({SOURCE})"
        sw = (spaces.get(cur.record.step.font) or DEFAULT_SPACE) * cur.size
        avg = (prev.width + cur.width) / 2
        need = min(SPACING_TOLERANCE * sw, AVERAGE_CHAR_TOLERANCE * avg)
        if along > need and not prev_text.endswith(" "):
            return base.SPACE, "gap", (f"gap {base.em(along, size)} > min({SPACING_TOLERANCE} × space, "
                                       f"{AVERAGE_CHAR_TOLERANCE} × average width) = {base.em(need, size)} ({SOURCE})")
        return base.NOTHING, "gap", f"gap {base.em(along, size)} ≤ {base.em(need, size)}"

    return base.flow("pdfbox", items, [text(r) for r in recs], decide)
