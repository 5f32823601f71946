"""A glyph's outline as text: what the code draws, beside what its mapping says it is.

The outline (:mod:`pdfinspect.fonts.shapes`) is filled on a grid of 2 × 4 dots per cell and
written with Unicode braille patterns (U+2800–U+28FF), which every terminal font the app runs on
has; a cell's dots are the pattern's bits.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..fonts.shapes import Outline, raster
from ..fonts.shapevote import GlyphShapes

# dot (column, row) → bit of the braille pattern (the Unicode braille numbering)
_BITS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))


def braille(grid: list[list[bool]]) -> list[str]:
    """Rows of braille characters for a grid of dots (2 columns and 4 rows a character)."""
    height, width = len(grid), len(grid[0]) if grid else 0
    rows = []
    for top in range(0, height, 4):
        line = []
        for left in range(0, width, 2):
            bits = 0
            for dy in range(4):
                for dx in range(2):
                    y, x = top + dy, left + dx
                    if y < height and x < width and grid[y][x]:
                        bits |= _BITS[dy][dx]
            line.append(chr(0x2800 + bits))
        rows.append("".join(line))
    return rows


@dataclass(frozen=True, slots=True)
class GlyphPicture:
    """The outline drawn in ``rows`` of braille, with its fingerprint; ``why`` says why there is
    none (no embedded program, an unreadable one, a glyph that draws nothing)."""

    rows: tuple[str, ...]
    fingerprint: str | None
    why: str = ""


def glyph_picture(shapes: GlyphShapes, record, columns: int = 12, lines: int = 6) -> GlyphPicture:
    """The outline of a glyph record's glyph in ``columns`` × ``lines`` cells."""
    font, res = record.step.font, record.resolution
    if font is None:
        return GlyphPicture((), None, "no font")
    if font.subtype == "Type3":
        fp = shapes.fingerprint(font, res.gid, res.glyph_name, res.code)
        return GlyphPicture((), fp, "a Type3 glyph procedure (drawn by its operators; see the stepper)")
    if font.program_ref is None:
        return GlyphPicture((), None, "no font program is embedded: the outline is not in the file")
    outline: Outline | None = shapes.outline(font, res.gid, res.glyph_name)
    if outline is None:
        return GlyphPicture((), None, "the embedded program has no readable outline for this glyph")
    if outline.empty:
        return GlyphPicture((), None, "the glyph draws nothing (a space)")
    return GlyphPicture(tuple(braille(raster(outline, columns * 2, lines * 4))), outline.fingerprint())
