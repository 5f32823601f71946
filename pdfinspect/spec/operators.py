"""The content-stream operators of ISO 32000-1 Annex A (Table A.1) as an explicit table.

Each entry gives the operands the operator takes (as *operand kinds*, below), its category
from Table 51 ("Operator categories"), a one-line description in our own words, the clause
that defines it and the table there. Like pdf.js ``EvaluatorPreprocessor.opMap``, the table
is data: :func:`pdfinspect.content.operators.check_operands` reads it and reports mismatches
as messages, never raising. This module imports nothing (the highlighter reads it too).

Operand kinds:

``number``  integer or real; ``integer``  integer only; ``name``; ``string``; ``array``;
``dict``; ``name-or-dict`` (a property list given inline or by resource name);
``number*`` any count of numbers (only as the first kind of a variadic signature);
``name?`` an optional trailing name (the pattern of ``SCN``/``scn``).
"""
from __future__ import annotations

from dataclasses import dataclass

# Categories, in the order of Table 51 (ISO 32000-1 8.2).
GENERAL_GRAPHICS_STATE = "General graphics state"
SPECIAL_GRAPHICS_STATE = "Special graphics state"
PATH_CONSTRUCTION = "Path construction"
PATH_PAINTING = "Path painting"
CLIPPING_PATHS = "Clipping paths"
TEXT_OBJECTS = "Text objects"
TEXT_STATE = "Text state"
TEXT_POSITIONING = "Text positioning"
TEXT_SHOWING = "Text showing"
TYPE3_FONTS = "Type 3 fonts"
COLOR = "Color"
SHADING_PATTERNS = "Shading patterns"
INLINE_IMAGES = "Inline images"
XOBJECTS = "XObjects"
MARKED_CONTENT = "Marked content"
COMPATIBILITY = "Compatibility"

CATEGORIES = (
    GENERAL_GRAPHICS_STATE, SPECIAL_GRAPHICS_STATE, PATH_CONSTRUCTION, PATH_PAINTING,
    CLIPPING_PATHS, TEXT_OBJECTS, TEXT_STATE, TEXT_POSITIONING, TEXT_SHOWING, TYPE3_FONTS,
    COLOR, SHADING_PATTERNS, INLINE_IMAGES, XOBJECTS, MARKED_CONTENT, COMPATIBILITY,
)

# Where each category is defined in ISO 32000-1: (clause, table).
_WHERE = {
    GENERAL_GRAPHICS_STATE: ("8.4.4", 57),
    SPECIAL_GRAPHICS_STATE: ("8.4.4", 57),
    PATH_CONSTRUCTION: ("8.5.2", 59),
    PATH_PAINTING: ("8.5.3", 60),
    CLIPPING_PATHS: ("8.5.4", 61),
    TEXT_OBJECTS: ("9.4.1", 107),
    TEXT_STATE: ("9.3.1", 105),
    TEXT_POSITIONING: ("9.4.2", 108),
    TEXT_SHOWING: ("9.4.3", 109),
    TYPE3_FONTS: ("9.6.5", 113),
    COLOR: ("8.6.8", 74),
    SHADING_PATTERNS: ("8.7.4.2", 77),
    INLINE_IMAGES: ("8.9.7", 92),
    XOBJECTS: ("8.8.1", 87),
    MARKED_CONTENT: ("14.6.1", 320),
    COMPATIBILITY: ("7.8.2", 32),
}


@dataclass(frozen=True, slots=True)
class OperatorInfo:
    """One row of Table A.1. ``max_args`` is ``None`` for variadic operators."""

    name: str
    operands: tuple[str, ...]
    min_args: int
    max_args: int | None
    category: str
    description: str
    clause: str
    table: int

    @property
    def shows_text(self) -> bool:
        """The operator paints glyphs (9.4.3): the interpreter dispatches it to a text-showing handler."""
        return self.category == TEXT_SHOWING


_N = "number"
_N2 = (_N,) * 2
_N4 = (_N,) * 4
_N6 = (_N,) * 6

# (operator, operands, min, max, category, description). min/max default to len(operands).
_ROWS: tuple[tuple, ...] = (
    # General graphics state
    ("w", (_N,), GENERAL_GRAPHICS_STATE, "set the stroke width"),
    ("J", ("integer",), GENERAL_GRAPHICS_STATE, "set how open stroke ends are capped"),
    ("j", ("integer",), GENERAL_GRAPHICS_STATE, "set how stroke corners are joined"),
    ("M", (_N,), GENERAL_GRAPHICS_STATE, "set the limit beyond which mitred joins are bevelled"),
    ("d", ("array", _N), GENERAL_GRAPHICS_STATE, "set the dash lengths and the starting phase"),
    ("ri", ("name",), GENERAL_GRAPHICS_STATE, "choose the colour rendering intent"),
    ("i", (_N,), GENERAL_GRAPHICS_STATE, "set the curve flattening tolerance"),
    ("gs", ("name",), GENERAL_GRAPHICS_STATE, "apply a named ExtGState resource"),
    # Special graphics state
    ("q", (), SPECIAL_GRAPHICS_STATE, "push a copy of the graphics state"),
    ("Q", (), SPECIAL_GRAPHICS_STATE, "pop the graphics state saved by the matching q"),
    ("cm", _N6, SPECIAL_GRAPHICS_STATE, "multiply the CTM by a 3x3 matrix given as a b c d e f"),
    # Path construction
    ("m", _N2, PATH_CONSTRUCTION, "start a new subpath at x y"),
    ("l", _N2, PATH_CONSTRUCTION, "add a straight segment to x y"),
    ("c", _N6, PATH_CONSTRUCTION, "add a cubic Bezier segment with two explicit control points"),
    ("v", _N4, PATH_CONSTRUCTION, "add a Bezier segment whose first control point is the current point"),
    ("y", _N4, PATH_CONSTRUCTION, "add a Bezier segment whose second control point is its end"),
    ("h", (), PATH_CONSTRUCTION, "close the subpath back to its start"),
    ("re", _N4, PATH_CONSTRUCTION, "add a rectangle x y width height as a closed subpath"),
    # Path painting
    ("S", (), PATH_PAINTING, "stroke the path"),
    ("s", (), PATH_PAINTING, "close, then stroke the path"),
    ("f", (), PATH_PAINTING, "fill the path, nonzero winding"),
    ("F", (), PATH_PAINTING, "fill the path, nonzero winding (obsolete spelling of f)"),
    ("f*", (), PATH_PAINTING, "fill the path, even-odd"),
    ("B", (), PATH_PAINTING, "fill (nonzero winding) then stroke"),
    ("B*", (), PATH_PAINTING, "fill (even-odd) then stroke"),
    ("b", (), PATH_PAINTING, "close, fill (nonzero winding) and stroke"),
    ("b*", (), PATH_PAINTING, "close, fill (even-odd) and stroke"),
    ("n", (), PATH_PAINTING, "discard the path without painting (ends a clip)"),
    # Clipping paths
    ("W", (), CLIPPING_PATHS, "intersect the clip with the path, nonzero winding"),
    ("W*", (), CLIPPING_PATHS, "intersect the clip with the path, even-odd"),
    # Text objects
    ("BT", (), TEXT_OBJECTS, "open a text object; text and line matrices become identity"),
    ("ET", (), TEXT_OBJECTS, "close the text object"),
    # Text state
    ("Tc", (_N,), TEXT_STATE, "set extra space after every glyph"),
    ("Tw", (_N,), TEXT_STATE, "set extra space after each single-byte code 32"),
    ("Tz", (_N,), TEXT_STATE, "set horizontal scaling, in percent"),
    ("TL", (_N,), TEXT_STATE, "set the line spacing used by T*, ' and \""),
    ("Tf", ("name", _N), TEXT_STATE, "choose a font resource and its size"),
    ("Tr", ("integer",), TEXT_STATE, "choose fill, stroke, clip or invisible text rendering"),
    ("Ts", (_N,), TEXT_STATE, "set the baseline shift (rise)"),
    # Text positioning
    ("Td", _N2, TEXT_POSITIONING, "move to the next line, offset tx ty from the current line start"),
    ("TD", _N2, TEXT_POSITIONING, "like Td, and set the leading to -ty"),
    ("Tm", _N6, TEXT_POSITIONING, "replace the text and line matrices"),
    ("T*", (), TEXT_POSITIONING, "move to the next line using the leading"),
    # Text showing
    ("Tj", ("string",), TEXT_SHOWING, "paint the glyphs of one string"),
    ("TJ", ("array",), TEXT_SHOWING, "paint strings, with numbers adjusting the pen between them"),
    ("'", ("string",), TEXT_SHOWING, "go to the next line, then paint a string"),
    ('"', (_N, _N, "string"), TEXT_SHOWING, "set word and character spacing, next line, paint a string"),
    # Type 3 fonts
    ("d0", _N2, TYPE3_FONTS, "declare a Type 3 glyph's advance; the glyph may use colour"),
    ("d1", _N6, TYPE3_FONTS, "declare a Type 3 glyph's advance and box; the glyph is a pure shape"),
    # Color
    ("CS", ("name",), COLOR, "choose the colour space for stroking"),
    ("cs", ("name",), COLOR, "choose the colour space for filling"),
    ("SC", ("number*",), COLOR, "set the stroke colour components (up to four)", 1, 4),
    ("SCN", ("number*", "name?"), COLOR, "set the stroke colour; a pattern name may follow the components", 1, None),
    ("sc", ("number*",), COLOR, "set the fill colour components (up to four)", 1, 4),
    ("scn", ("number*", "name?"), COLOR, "set the fill colour; a pattern name may follow the components", 1, None),
    ("G", (_N,), COLOR, "use DeviceGray for stroking, with this level"),
    ("g", (_N,), COLOR, "use DeviceGray for filling, with this level"),
    ("RG", (_N,) * 3, COLOR, "use DeviceRGB for stroking, with these r g b"),
    ("rg", (_N,) * 3, COLOR, "use DeviceRGB for filling, with these r g b"),
    ("K", _N4, COLOR, "use DeviceCMYK for stroking, with these c m y k"),
    ("k", _N4, COLOR, "use DeviceCMYK for filling, with these c m y k"),
    # Shading patterns
    ("sh", ("name",), SHADING_PATTERNS, "paint a named shading over the current clip"),
    # Inline images
    ("BI", (), INLINE_IMAGES, "start an inline image's parameter dictionary"),
    ("ID", (), INLINE_IMAGES, "end the inline parameters; the image bytes follow"),
    ("EI", (), INLINE_IMAGES, "end the inline image"),
    # XObjects
    ("Do", ("name",), XOBJECTS, "draw a named image or form XObject"),
    # Marked content
    ("MP", ("name",), MARKED_CONTENT, "mark a single point with a tag"),
    ("DP", ("name", "name-or-dict"), MARKED_CONTENT, "mark a point with a tag and a property list"),
    ("BMC", ("name",), MARKED_CONTENT, "open a tagged marked-content sequence"),
    ("BDC", ("name", "name-or-dict"), MARKED_CONTENT,
     "open a tagged sequence with a property list (e.g. /MCID, /ActualText)"),
    ("EMC", (), MARKED_CONTENT, "close the innermost marked-content sequence"),
    # Compatibility
    ("BX", (), COMPATIBILITY, "open a section where unknown operators are ignored"),
    ("EX", (), COMPATIBILITY, "close the compatibility section"),
)


def _build() -> dict[bytes, OperatorInfo]:
    table = {}
    for row in _ROWS:
        name, operands, category, description = row[:4]
        lo, hi = row[4:] if len(row) > 4 else (len(operands), len(operands))
        clause, tab = _WHERE[category]
        table[name.encode("latin-1")] = OperatorInfo(
            name, operands, lo, hi, category, description, clause, tab)
    return table


OPERATORS: dict[bytes, OperatorInfo] = _build()

TEXT_SHOWING_OPERATORS = frozenset(k for k, v in OPERATORS.items() if v.shows_text)


def is_text_showing(op: bytes) -> bool:
    """True for ``Tj``, ``TJ``, ``'`` and ``"`` (9.4.3)."""
    return op in TEXT_SHOWING_OPERATORS
