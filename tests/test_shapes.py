"""Glyph shapes: outlines read from real program bytes (TrueType and CFF built with fontTools, the
κ sample's Type 1), fingerprints that survive scaling, subsetting and renumbering, and the fill
the glyph inspector draws."""
from __future__ import annotations

import io

import pytest
from conftest import build_truetype, sample
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.t2CharStringPen import T2CharStringPen
from fontTools.ttLib import TTFont

import pdfinspect
from pdfinspect.fonts.shapes import ShapeError, glyph_order, program_outlines, raster, type3_fingerprint


def _square(pen, upem: int, hole: bool = False) -> None:
    u = upem / 1000
    pen.moveTo((100 * u, 0))
    pen.lineTo((600 * u, 0))
    pen.lineTo((600 * u, 700 * u))
    pen.lineTo((100 * u, 700 * u))
    pen.closePath()
    if hole:
        pen.moveTo((200 * u, 100 * u))
        pen.lineTo((200 * u, 600 * u))
        pen.lineTo((500 * u, 600 * u))
        pen.lineTo((500 * u, 100 * u))
        pen.closePath()


def _curve(pen, upem: int) -> None:
    u = upem / 1000
    pen.moveTo((100 * u, 0))
    pen.qCurveTo((350 * u, 700 * u), (600 * u, 0))
    pen.closePath()


def _bar(pen, upem: int) -> None:
    u = upem / 1000
    pen.moveTo((100 * u, 300 * u))
    pen.lineTo((500 * u, 300 * u))
    pen.lineTo((500 * u, 380 * u))
    pen.lineTo((100 * u, 380 * u))
    pen.closePath()


def _wedge(pen, upem: int) -> None:
    u = upem / 1000
    pen.moveTo((100 * u, 0))
    pen.lineTo((600 * u, 0))
    pen.lineTo((100 * u, 700 * u))
    pen.closePath()


def _square_nudged(pen, upem: int) -> None:
    """The square of another version of the typeface: its right side 6 units further out."""
    u = upem / 1000
    pen.moveTo((100 * u, 0))
    pen.lineTo((606 * u, 0))
    pen.lineTo((606 * u, 700 * u))
    pen.lineTo((100 * u, 700 * u))
    pen.closePath()


def _composite(pen, upem: int) -> None:
    """The square with the bar above it, both as components (an accented letter's build)."""
    pen.addComponent("square", (1, 0, 0, 1, 0, 0))
    pen.addComponent("bar", (1, 0, 0, 1, 0, 400 * upem // 1000))


DRAW = {"square": lambda p, upem: _square(p, upem), "ring": lambda p, upem: _square(p, upem, hole=True),
        "arch": _curve, "bar": _bar, "wedge": _wedge, "square2": _square_nudged, "composite": _composite}


def truetype(order: list[str], upem: int = 1000) -> bytes:
    """A TrueType program with the named designs in ``order`` (GIDs follow the order)."""
    def draw(pen, i: int, name: str) -> None:
        if i:
            DRAW[name](pen, upem)

    return build_truetype([".notdef", *order], draw, metrics=(upem // 2, 0), family="ShapeTest", upem=upem,
                          vertical=(upem, 0))


def cff(order: list[str]) -> bytes:
    """A bare CFF program (what /FontFile3 /Type1C holds) with the named designs."""
    fb = FontBuilder(1000, isTTF=False)
    glyph_order = [".notdef"] + order
    fb.setupGlyphOrder(glyph_order)
    strings = {}
    for name in glyph_order:
        pen = T2CharStringPen(500, None)
        if name != ".notdef":
            DRAW[name](pen, 1000)
        strings[name] = pen.getCharString()
    fb.setupCFF("ShapeTest", {}, strings, {})
    out = io.BytesIO()
    fb.font["CFF "].cff.compile(out, fb.font)
    return out.getvalue()


def test_truetype_outlines_are_read_by_name_and_gid():
    data = truetype(["square", "ring"])
    outlines = program_outlines(data, "FontFile2")
    assert glyph_order(data, "FontFile2") == (".notdef", "square", "ring")
    assert outlines["square"].bounds() == (100, 0, 600, 700)
    assert len(outlines["ring"].contours) == 2
    assert outlines[".notdef"].fingerprint() is None  # draws nothing


def test_a_composite_glyph_is_drawn_from_its_parts():
    outlines = program_outlines(truetype(["square", "bar", "composite"], upem=2048), "FontFile2")
    composite = outlines["composite"]
    assert len(composite.contours) == 2
    assert composite.bounds() == pytest.approx((100, 0, 600, 780), abs=1)
    assert composite.fingerprint() not in (None, outlines["square"].fingerprint())


def test_a_fingerprint_survives_scaling_subsetting_and_renumbering():
    whole = program_outlines(truetype(["square", "ring", "arch"], upem=1000), "FontFile2")
    subset = program_outlines(truetype(["arch", "ring"], upem=2048), "FontFile2")  # other GIDs, other em
    assert subset["ring"].fingerprint() == whole["ring"].fingerprint()
    assert subset["arch"].fingerprint() == whole["arch"].fingerprint()
    prints = {whole[n].fingerprint() for n in ("square", "ring", "arch")}
    assert len(prints) == 3  # three designs, three fingerprints


def test_cff_and_truetype_programs_of_one_straight_design_agree():
    tt = program_outlines(truetype(["square", "ring"]), "FontFile2")
    cf = program_outlines(cff(["square", "ring"]), "FontFile3", "Type1C")
    assert cf["square"].fingerprint() == tt["square"].fingerprint()
    assert cf["ring"].fingerprint() == tt["ring"].fingerprint()


def test_contour_direction_and_start_do_not_matter():
    from pdfinspect.fonts.shapes import Outline

    ccw = Outline((((0, 0), (500, 0), (500, 700), (0, 700)),))
    cw_from_top = Outline((((500, 700), (500, 0), (0, 0), (0, 700)),))
    assert ccw.fingerprint() == cw_from_top.fingerprint()


def test_type1_outlines_of_the_kappa_sample():
    with pdfinspect.open(sample("kappa.pdf")) as doc:
        data = doc.stream_data(doc.get(8).value).data
    outlines = program_outlines(data, "FontFile")
    assert {"kappa", "space", "flat"} <= set(outlines)
    assert outlines["space"].fingerprint() is None
    assert outlines["kappa"].fingerprint() is not None
    assert outlines["kappa"].fingerprint() != outlines["flat"].fingerprint()


def test_a_type1_program_fonttools_cannot_interpret_is_read_all_the_same():
    """A Latin-1 byte in the clear text (a copyright sign in /Notice, as real programs have) stops
    fontTools' PostScript interpreter; the charstrings are read without one."""
    from fontTools.t1Lib import T1Font

    with pdfinspect.open(sample("kappa.pdf")) as doc:
        data = doc.stream_data(doc.get(8).value).data
    latin1 = data.replace(b"/FamilyName (PDFInspect)", b"/FamilyName (PDFInspect \xa9)")
    assert latin1 != data
    font = T1Font.__new__(T1Font)
    font.data, font.encoding = latin1, "ascii"
    with pytest.raises(UnicodeDecodeError):
        font.parse()
    outlines, clean = program_outlines(latin1, "FontFile"), program_outlines(data, "FontFile")
    assert outlines["kappa"].fingerprint() == clean["kappa"].fingerprint() is not None


def without_charset(data: bytes) -> bytes:
    """A bare CFF whose top DICT names no charset (its default, ISOAdobe, offset 0): the charset
    operator (15) is made UniqueID (13), its operand kept, so no offset moves."""
    count, off_size = int.from_bytes(data[data[2]:data[2] + 2], "big"), data[data[2] + 2]  # Name INDEX
    names_end = data[2] + 3 + (count + 1) * off_size - 1 + int.from_bytes(
        data[data[2] + 3 + count * off_size:data[2] + 3 + (count + 1) * off_size], "big")
    off_size = data[names_end + 2]  # the Top DICT INDEX, one DICT
    start = names_end + 3 + 2 * off_size - 1 + int.from_bytes(data[names_end + 3:names_end + 3 + off_size], "big")
    end = names_end + 3 + 2 * off_size - 1 + int.from_bytes(data[names_end + 3 + off_size:names_end + 3 + 2 * off_size], "big")
    i = start
    while i < end:
        b = data[i]
        if b == 15:
            return data[:i] + b"\x0d" + data[i + 1:]
        if b == 30:  # a real: nibbles up to the one 0xf ends it with
            i += 1
            while data[i] >> 4 != 0xF and data[i] & 0xF != 0xF:
                i += 1
        i += 2 if b == 12 or 247 <= b <= 254 else 3 if b == 28 else 5 if b == 29 else 1
    raise AssertionError("no charset operator")


def test_a_cff_without_a_charset_has_the_isoadobe_one():
    """The top DICT's charset defaults to ISOAdobe (CFF spec, table 10); fontTools leaves it unset
    and refused the program."""
    from fontTools.cffLib import CFFFontSet

    data = without_charset(cff(["square"]))
    font = CFFFontSet()
    font.decompile(io.BytesIO(data), None)
    with pytest.raises(AttributeError):
        font[font.fontNames[0]].charset
    outlines = program_outlines(data, "FontFile3")
    assert glyph_order(data, "FontFile3")[:2] == (".notdef", "space")
    assert outlines["space"].bounds() == (100, 0, 600, 700)  # the ISOAdobe name of the second glyph


def test_an_unreadable_program_is_a_shape_error():
    with pytest.raises(ShapeError):
        program_outlines(b"\x00\x01\x00\x00" + b"\xff" * 40, "FontFile2")


def test_raster_fills_inside_and_leaves_the_hole():
    ring = program_outlines(truetype(["ring"]), "FontFile2")["ring"]
    grid = raster(ring, 10, 14)
    middle = grid[7]
    assert middle[1] and middle[8]  # the walls
    assert not middle[4] and not middle[5]  # the hole
    square = raster(program_outlines(truetype(["square"]), "FontFile2")["square"], 10, 14)
    assert all(square[7][1:9])


def test_type3_procedures_fingerprint_by_path_and_mask_not_by_scale():
    small = b"500 0 0 0 500 700 d1 100 0 m 600 0 l 600 700 l h f"
    large = b"1000 0 0 0 1000 1400 d1 200 0 m 1200 0 l 1200 1400 l h f"
    other = b"500 0 0 0 500 700 d1 100 0 m 600 700 l 100 700 l h f"
    assert type3_fingerprint(small) == type3_fingerprint(large)
    assert type3_fingerprint(small) != type3_fingerprint(other)
    mask = b"0 0 0 0 8 8 d1 8 0 0 8 0 0 cm BI /IM true /W 8 /H 8 ID \x18\x3c\x7e\xff\xff\x7e\x3c\x18 EI"
    other_mask = mask.replace(b"\x18\x3c", b"\x3c\x18")
    assert type3_fingerprint(mask) is not None
    assert type3_fingerprint(mask) != type3_fingerprint(other_mask)
    assert type3_fingerprint(b"500 0 d0") is None  # draws nothing


@pytest.mark.parametrize("upem, fd_matrix", [(2048, 1 / 2048), (1000, 1)], ids=["reitam", "pdftron"])
def test_a_cid_keyed_cff_is_scaled_by_its_font_dicts_matrix(upem, fd_matrix):
    # 2048 units per em, the FontMatrix in the Font DICT and none in the top DICT (Reitam's, in
    # text_clip_cff_cid.pdf); 1000 units, the identity in the Font DICT under the top DICT's 0.001
    # (PDFTron's, in issue16500.pdf): the square is where the 1000-unit design draws it
    from fontTools.cffLib import FDArrayIndex, FDSelect, FontDict

    fb = FontBuilder(upem, isTTF=False)
    fb.setupGlyphOrder([".notdef", "square"])
    strings = {}
    for name in (".notdef", "square"):
        pen = T2CharStringPen(upem // 2, None)
        if name != ".notdef":
            _square(pen, upem)
        strings[name] = pen.getCharString()
    fb.setupCFF("ShapeTest", {}, strings, {})
    font_set = fb.font["CFF "].cff
    top = font_set[font_set.fontNames[0]]
    top.ROS = ("Adobe", "Identity", 0)
    fd = FontDict()
    fd.Private, fd.FontMatrix = top.Private, [fd_matrix, 0, 0, fd_matrix, 0, 0]
    top.FDArray = FDArrayIndex()
    top.FDArray.append(fd)
    top.FDSelect = FDSelect()
    top.FDSelect.format, top.FDSelect.gidArray = 3, [0, 0]
    top.CIDCount = 2
    names = [".notdef", "cid00001"]
    top.CharStrings.charStrings = {new: top.CharStrings.charStrings[old] for new, old in zip(names, (".notdef", "square"))}
    top.charset = names
    del top.Private
    top.FontMatrix = [0.001, 0, 0, 0.001, 0, 0]

    class _Font:
        recalcBBoxes = False

    out = io.BytesIO()
    font_set.compile(out, _Font())
    outlines = program_outlines(out.getvalue(), "FontFile3")
    assert outlines["cid00001"].bounds() == pytest.approx((100, 0, 600, 700), abs=1)
    assert outlines["cid00001"].fingerprint() == program_outlines(cff(["square"]), "FontFile3")["square"].fingerprint()


@pytest.mark.parametrize("build,key", [(truetype, "FontFile2"), (cff, "FontFile3")])
def test_a_glyph_is_drawn_when_first_asked_for_and_only_then(monkeypatch, build, key):
    # a CJK program holds tens of thousands of glyphs and a page shows a few: drawing all of
    # them made `fonts --shapes` of a four-glyph page take 13 s
    from pdfinspect.fonts import shapes

    drawn: list[int] = []
    draw = shapes._draw
    monkeypatch.setattr(shapes, "_draw", lambda glyph, *rest: drawn.append(1) or draw(glyph, *rest))
    outlines = program_outlines(build(["square", "ring", "arch", "bar", "wedge"]), key)
    assert drawn == []
    assert len(outlines["ring"].contours) == 2 and outlines["ring"] is outlines["ring"]
    assert len(drawn) == 1
    assert "nothing" not in outlines and outlines.get("nothing") is None
    assert list(outlines) == [".notdef", "square", "ring", "arch", "bar", "wedge"] and len(drawn) == 6


def test_a_glyph_that_cannot_be_drawn_is_absent_and_the_others_are_read(monkeypatch):
    from pdfinspect.fonts import shapes

    draw = shapes._draw

    def broken_arch(glyph, glyphset, *rest):
        if glyph is glyphset["arch"]:
            raise ValueError("a damaged charstring")
        return draw(glyph, glyphset, *rest)

    monkeypatch.setattr(shapes, "_draw", broken_arch)
    outlines = program_outlines(cff(["square", "arch", "bar"]), "FontFile3")
    assert "arch" not in outlines and list(outlines) == [".notdef", "square", "bar"]
    with pytest.raises(KeyError):
        outlines["arch"]


def _directory(data: bytes) -> dict[bytes, tuple[int, int, int]]:
    """The table directory: tag → (offset of its record, offset of the table, length)."""
    import struct

    out = {}
    for i in range(struct.unpack(">H", data[4:6])[0]):
        tag, _, start, length = struct.unpack(">4sIII", data[12 + 16 * i:28 + 16 * i])
        out[tag] = (12 + 16 * i, start, length)
    return out


def test_a_head_table_longer_than_its_54_bytes_is_read_as_pdfjs_reads_it():
    """fontTools asserts that a longer head ends in two zero bytes, and refuses the font's outlines."""
    data = truetype(["square"])
    record, start, length = _directory(data)[b"head"]
    assert length == 54 and data[start + 56:start + 58] != b"\0\0"  # hhea follows the padding
    long_head = data[:record + 12] + (58).to_bytes(4, "big") + data[record + 16:]
    with pytest.raises(AssertionError):
        TTFont(io.BytesIO(long_head))["head"]
    assert program_outlines(long_head, "FontFile2")["square"].bounds() == (100, 0, 600, 700)


def test_a_post_table_of_an_unknown_format_still_gives_the_outlines_by_glyph_id():
    data = truetype(["square", "ring"])
    _, start, _ = _directory(data)[b"post"]
    unknown = data[:start] + (0x03000000).to_bytes(4, "big") + data[start + 4:]  # format 768.0
    outlines = program_outlines(unknown, "FontFile2")
    assert glyph_order(unknown, "FontFile2") == (".notdef", "glyph00001", "glyph00002")
    assert outlines["glyph00001"].bounds() == (100, 0, 600, 700) and len(outlines["glyph00002"].contours) == 2


def set_loca(data: bytes, index: int, offset: int) -> bytes:
    """The program with its ``loca`` entry ``index`` (-1: the last, the end of the last glyph) set
    to ``offset``: a glyph may then run past the ``glyf`` table, or be marked missing by a 0."""
    long = TTFont(io.BytesIO(data))["head"].indexToLocFormat
    _, start, length = _directory(data)[b"loca"]
    size = 4 if long else 2
    at = start + (index % (length // size)) * size
    return data[:at] + (offset if long else offset // 2).to_bytes(size, "big") + data[at + size:]


def test_a_last_glyph_padded_past_the_glyf_table_is_read_as_pdfjs_reads_it():
    """Aspose pads each glyph to four bytes but not the table's length, so loca's last offset lies up
    to three bytes past glyf's end: fontTools refuses the table, pdf.js reads the glyph to the end."""
    data = truetype(["square", "ring"])
    tt = TTFont(io.BytesIO(data))
    size, end = len(tt.reader["glyf"]), int(tt["loca"].locations[-1])
    assert end == size and size % 4  # the table's length is not a multiple of four
    padded = set_loca(data, -1, (size + 3) & ~3)
    outlines = program_outlines(padded, "FontFile2")
    assert len(outlines["ring"].contours) == 2 and outlines["square"].bounds() == (100, 0, 600, 700)
    assert outlines["ring"].fingerprint() == program_outlines(data, "FontFile2")["ring"].fingerprint()


def test_a_glyph_far_past_the_glyf_table_is_left_empty_and_the_others_are_read():
    data = set_loca(truetype(["square", "ring"]), -1, 400)
    outlines = program_outlines(data, "FontFile2")
    assert outlines["square"].bounds() == (100, 0, 600, 700)
    assert outlines["ring"].fingerprint() is None  # left empty, as pdf.js leaves it


def test_a_loca_offset_of_0_marks_a_missing_glyph_as_pdfjs_reads_it():
    """Subsetters that keep glyph ids write 0 for the glyphs left out; the glyph after one starts
    where the glyph before it ended (read from 0, it would draw the first glyph's outline)."""
    def draw(pen, i: int, name: str) -> None:
        if name in DRAW:  # .notdef and space draw nothing: no data
            DRAW[name](pen, 1000)

    data = build_truetype([".notdef", "square", "space", "bar"], draw)
    locations = [int(x) for x in TTFont(io.BytesIO(data))["loca"].locations]
    assert locations[2] == locations[3] > 0
    outlines = program_outlines(set_loca(data, 3, 0), "FontFile2")
    assert outlines["square"].bounds() == (100, 0, 600, 700)
    assert outlines["space"].fingerprint() is None
    assert outlines["bar"].bounds() == (100, 300, 500, 380)
