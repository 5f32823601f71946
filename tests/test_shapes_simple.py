"""The shape vote on simple fonts stripped of every name (fonts/resolve.py's GlyphShape step): codes
reach their glyphs through the program alone — a CFF's own encoding, a symbolic TrueType's (3,0)
cmap, a TrueType without a cmap (glyph id = code) — and the outlines read them. Also the choice among
look-alike letters of three scripts, and a code read as a value that the outlines contradict.
Programs built with fontTools, files with pikepdf."""
from __future__ import annotations

import io

import pytest
from conftest import build_truetype
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.t2CharStringPen import T2CharStringPen
from test_shapes import DRAW
from test_shapevote import document, glyphs, identity_font, program

from pdfinspect.fonts.shapes import program_outlines
from pdfinspect.fonts.shapevote import ShapeTable, letter_key, look_alike_forms

pikepdf = pytest.importorskip("pikepdf")

NAMES = ["zzg", "zzh", "zzj", "zzk", "zzm", "zzn", "zzp", "zzq"]  # names that say nothing (no AGL name, no digits)


def table(**texts: str) -> ShapeTable:
    """A learned table: each design (test_shapes.DRAW) voted for by two fonts of two files."""
    prints = program_outlines(program(list(texts), {d: "x" for d in texts}), "FontFile2")
    out = ShapeTable()
    for design, text in texts.items():
        out.add(prints[design].fingerprint(), text, 2, 2)
    return out


def cff_program(designs: list[str], encoding: dict[int, int]) -> bytes:
    """A bare CFF (/FontFile3 /Type1C) whose glyphs have meaningless names, and whose own encoding
    maps each code to the ``encoding[code]``-th design."""
    fb = FontBuilder(1000, isTTF=False)
    order = [".notdef"] + NAMES[:len(designs)]
    fb.setupGlyphOrder(order)
    strings = {}
    for name in order:
        pen = T2CharStringPen(600, None)
        if name != ".notdef":
            DRAW[designs[order.index(name) - 1]](pen, 1000)
        strings[name] = pen.getCharString()
    fb.setupCFF("Stripped", {}, strings, {})
    top = fb.font["CFF "].cff[0]
    top.Encoding = [".notdef"] * 256
    for code, i in encoding.items():
        top.Encoding[code] = NAMES[i]
    out = io.BytesIO()
    fb.font["CFF "].cff.compile(out, fb.font)
    return out.getvalue()


def truetype_program(designs: list[str], cmap: dict[int, int] | None) -> bytes:
    """A TrueType program without glyph names (post format 3): with ``cmap`` (code → GID) a
    symbolic (3,0) subtable at F000 + code, without it no cmap table at all."""
    order = [".notdef"] + NAMES[:len(designs)]

    def draw(pen, i: int, name: str) -> None:
        if i:
            DRAW[designs[i - 1]](pen, 1000)

    def edit(font) -> None:
        if cmap is None:
            del font["cmap"]
        else:
            sub = font["cmap"].tables[0]
            sub.platformID, sub.platEncID = 3, 0
            font["cmap"].tables = [sub]

    return build_truetype(order, draw, cmap={0xF000 + code: order[gid] for code, gid in (cmap or {}).items()},
                          names=False, family="Stripped", edit=edit)


def simple(pdf, key: str, data: bytes, first: int, count: int):
    """A symbolic simple font over ``data`` (no /Encoding, no ToUnicode): the program's own
    encoding or cmap is all that takes codes to glyphs."""
    stream = pdf.make_stream(data)
    if key == "FontFile3":
        stream.Subtype = pikepdf.Name.Type1C
    desc = pikepdf.Dictionary(Type=pikepdf.Name.FontDescriptor, FontName=pikepdf.Name("/Stripped"), Flags=4,
                              FontBBox=[0, -200, 1000, 800], ItalicAngle=0, Ascent=800, Descent=-200, CapHeight=700,
                              StemV=80, **{key: stream})
    subtype = pikepdf.Name.Type1 if key == "FontFile3" else pikepdf.Name.TrueType
    return pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=subtype, BaseFont=pikepdf.Name("/Stripped"),
                              FirstChar=first, LastChar=first + count - 1, Widths=[600] * count,
                              FontDescriptor=pdf.make_indirect(desc))


def read(data: bytes, shapes: ShapeTable | None, guesses: bool = False) -> list:
    from pdfinspect.fonts.resolve import Resolver

    return glyphs(data, lambda doc: Resolver(doc, guesses=guesses, shapes=shapes))


def test_a_cff_font_without_names_reads_through_its_own_encoding_and_the_vote():
    pdf = pikepdf.new()
    font = simple(pdf, "FontFile3", cff_program(["square", "ring", "wedge"], {0x41: 0, 0x42: 1, 0x43: 2}), 0x41, 3)
    data = document({"F1": font}, b"BT /F1 12 Tf 10 10 Td (CAB) Tj ET", pdf)
    records = read(data, table(square="A", ring="B", wedge="C"))
    assert "".join(r.unicode for r in records) == "CAB"
    assert {r.method for r in records} == {"GlyphShape"}
    assert records[0].resolution.glyph_name == "zzj"  # code → built-in encoding → the glyph voted on
    assert "".join(r.unicode for r in read(data, ShapeTable())) == ""  # the names alone say nothing


def test_a_symbolic_truetype_reads_by_the_vote_not_by_the_code_itself():
    pdf = pikepdf.new()
    # codes 0x21–0x24 draw glyphs 1–4 through (3,0): read as characters they would be !"#$
    font = simple(pdf, "FontFile2", truetype_program(["square", "ring", "wedge", "bar"],
                                                     {0x21: 1, 0x22: 2, 0x23: 3, 0x24: 4}), 0x21, 4)
    data = document({"F1": font}, b"BT /F1 12 Tf 10 10 Td (!\"#$) Tj ET", pdf)
    shapes = table(square="A", ring="B", wedge="C")  # the bar is nowhere
    records = read(data, shapes)
    assert [r.method for r in records[:3]] == ["GlyphShape"] * 3
    assert "".join(r.unicode for r in records) == "ABC"  # no '$': the outlines refute the code as text
    bar = records[3].resolution
    assert bar.confidence == "guess" and any("outlines_disagree" in f.message for f in bar.flags)
    assert [r.unicode for r in read(data, shapes, guesses=True)][3] == "$"  # kept with --guesses


def test_a_symbolic_truetype_whose_codes_are_its_letters_keeps_reading_them():
    pdf = pikepdf.new()
    font = simple(pdf, "FontFile2", truetype_program(["square", "ring", "wedge", "bar"],
                                                     {0x41: 1, 0x42: 2, 0x43: 3, 0x44: 4}), 0x41, 4)
    data = document({"F1": font}, b"BT /F1 12 Tf 10 10 Td (ABCD) Tj ET", pdf)
    records = read(data, table(square="A", ring="B", wedge="C"))
    assert "".join(r.unicode for r in records) == "ABCD"  # the vote agrees; the bar keeps its code's D
    assert records[3].method == "CodeAsUnicode" and records[3].resolution.confidence == "heuristic"


def test_a_truetype_program_without_a_cmap_draws_glyph_id_code():
    pdf = pikepdf.new()
    font = simple(pdf, "FontFile2", truetype_program(["square", "ring", "wedge"], None), 1, 3)
    data = document({"F1": font}, b"BT /F1 12 Tf 10 10 Td <030102> Tj ET", pdf)
    records = read(data, table(square="A", ring="B", wedge="C"))
    assert "".join(r.unicode for r in records) == "CAB"
    assert {r.method for r in records} == {"GlyphShape"}


def test_look_alike_letters_of_three_scripts_are_one_vote():
    shapes = ShapeTable()
    shapes.add("f", "A", 3, 2)
    shapes.add("f", "Α", 1, 1)  # Greek capital alpha: the same outline in most fonts
    shapes.add("f", "А", 1, 1)  # Cyrillic
    vote = shapes.vote("f")
    assert vote.clear and vote.text == "A" and vote.texts == ("A", "Α", "А")
    assert letter_key("ο") == letter_key("о") == letter_key("o") != letter_key("0")
    assert letter_key("ὸ") == letter_key("ò") != letter_key("o")  # the same letter with the same mark
    assert letter_key("ὀ") == "o\u0313" != letter_key("ὸ")  # a mark no Latin letter takes precomposed


def test_a_greek_font_takes_mu_not_the_micro_sign():
    shapes = table(ring="λ", wedge="δ")
    square = program_outlines(program(["square"], {"square": "x"}), "FontFile2")["square"].fingerprint()
    shapes.add(square, "\u00b5", 3, 3)  # MICRO SIGN: μ in NFKC
    shapes.add(square, "\u03bc", 1, 1)
    pdf = pikepdf.new()
    font = identity_font(pdf, program(["square", "ring", "wedge"], None))
    font.DescendantFonts[0].W = [1, [600, 600, 600]]
    data = document({"F2": font}, b"BT /F2 12 Tf 10 10 Td <000100020003> Tj ET", pdf)
    assert shapes.vote(square).text == "\u00b5"
    assert "".join(r.unicode for r in read(data, shapes)) == "\u03bcλδ"


@pytest.mark.parametrize(("others", "expected"), [
    ({"ring": "λ", "wedge": "δ"}, "Αλδ"),  # the font's other letters are Greek
    ({"ring": "b", "wedge": "d"}, "Abd"),  # Latin
    ({"ring": "λ", "wedge": "d"}, "λd"),  # both: the outline cannot tell which A is meant
    ({"ring": "1", "wedge": "2"}, "12"),  # no letters: nor can it
])
def test_look_alike_letters_take_the_script_of_the_fonts_other_letters(others, expected):
    shapes = table(**others)
    square = program_outlines(program(["square"], {"square": "x"}), "FontFile2")["square"].fingerprint()
    shapes.add(square, "A", 3, 3)
    shapes.add(square, "Α", 1, 1)
    pdf = pikepdf.new()
    font = identity_font(pdf, program(["square", "ring", "wedge"], None))
    font.DescendantFonts[0].W = [1, [600, 600, 600]]  # the CIDs the font has (what its letters are judged on)
    data = document({"F2": font}, b"BT /F2 12 Tf 10 10 Td <000100020003> Tj ET", pdf)
    assert "".join(r.unicode for r in read(data, shapes)) == expected


@pytest.mark.parametrize(("others", "votes", "expected"), [
    # a DejaVu Sans subset of a Russian text also showing Latin letters: its е and р draw as Latin
    # e and p do, so the outline cannot tell which of the two is meant
    ({"ring": "b", "arch": "d", "bar": "f", "wedge": "д"}, {"A": 3, "А": 1}, "bdfд"),
    ({"ring": "b", "arch": "d", "bar": "f", "wedge": "д"}, {"A": 3}, "bdfд"),  # known as Latin A alone
    # a Cyrillic font whose A only Latin fonts drew in the learned table: the Cyrillic А
    ({"ring": "д", "arch": "ж", "bar": "л", "wedge": "б"}, {"A": 3}, "Аджлб"),
    ({"ring": "b", "arch": "d", "bar": "f", "wedge": "q"}, {"A": 3, "Α": 1}, "Abdfq"),  # Latin alone
    # a Russian and Greek text whose Cyrillic letters no other file drew: its е is Latin or Cyrillic
    ({"ring": "λ", "arch": "δ", "bar": "1", "wedge": "2"}, {"e": 3}, "λδ12"),
    ({"ring": "λ", "arch": "δ", "bar": "1", "wedge": "2"}, {"A": 3}, "Αλδ12"),  # Greek has an A too
    ({"ring": "1", "arch": "2", "bar": "3", "wedge": "4"}, {"A": 3}, "A1234"),  # no letters: the vote's
])
def test_look_alike_letters_take_the_one_script_of_the_fonts_letters(others, votes, expected):
    shapes = table(**others)
    square = program_outlines(program(["square"], {"square": "x"}), "FontFile2")["square"].fingerprint()
    for text, fonts in votes.items():
        shapes.add(square, text, fonts, fonts)
    pdf = pikepdf.new()
    font = identity_font(pdf, program(["square", "ring", "arch", "bar", "wedge"], None))
    font.DescendantFonts[0].W = [1, [600, 600, 600, 600, 600]]
    data = document({"F2": font}, b"BT /F2 12 Tf 10 10 Td <00010002000300040005> Tj ET", pdf)
    assert "".join(r.unicode for r in read(data, shapes)) == expected


def test_look_alike_forms_keep_the_marks():
    assert look_alike_forms("e") == ("е",)
    assert set(look_alike_forms("ò")) == {"ὸ"}  # Cyrillic о takes no precomposed grave
    assert look_alike_forms("b") == ()


def test_a_space_voted_with_a_no_break_space_stays_a_space_in_a_latin_font():
    from pdfinspect.fonts.shapevote import EMPTY

    shapes = table(square="A", ring="B")
    shapes.add(EMPTY, " ", 5, 5)
    shapes.add(EMPTY, "\xa0", 1, 1)  # the same text in NFKC: one vote, and no letter of any script
    pdf = pikepdf.new()
    font = identity_font(pdf, program(["square", "space", "ring"], None))  # gid 2 draws nothing
    font.DescendantFonts[0].W = [1, [600, 250, 600]]
    data = document({"F2": font}, b"BT /F2 12 Tf 10 10 Td <000100020003> Tj ET", pdf)
    assert "".join(r.unicode for r in read(data, shapes)) == "A B"


@pytest.mark.parametrize(("codes", "widths", "expected"), [
    (b"!\"#$%&'", [900, 800, 300, 250, 200, 220, 950], ""),  # Helvetica's widths backwards: not those characters
    (b"AFIMW", [667, 611, 278, 833, 944], "AFIMW"),  # Helvetica's own widths: the codes are the letters
])
def test_a_symbolic_truetype_code_read_as_text_needs_widths_that_fit(codes, widths, expected):
    designs = ["square", "ring", "wedge", "bar", "arch", "square2", "square"][:len(codes)]
    pdf = pikepdf.new()
    font = simple(pdf, "FontFile2", truetype_program(designs, {c: i + 1 for i, c in enumerate(codes)}), codes[0],
                  codes[-1] - codes[0] + 1)
    font.Widths = [widths[codes.index(c)] if c in codes else 0 for c in range(codes[0], codes[-1] + 1)]
    data = document({"F1": font}, b"BT /F1 12 Tf 10 10 Td <" + codes.hex().encode() + b"> Tj ET", pdf)
    records = read(data, None)
    assert "".join(r.unicode for r in records) == expected
    if not expected:
        assert all(r.resolution.confidence == "guess" and "no_evidence" in r.path[-1].detail for r in records)
