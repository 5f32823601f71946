"""pdfium's text page emulated (pdfinspect.extractors.pdfium) on small built pages, each rule of
``CPDF_TextPage`` that decides the order and the line breaks; where pypdfium2 is importable,
the real pdfium is run on the same page and must agree."""
from __future__ import annotations

import pytest

from conftest import emulated_text, helvetica_pdf
from pdfinspect.content.textlayout import page_glyphs
from pdfinspect.core.document import Document
from pdfinspect.extractors import base, emulate, oracle, page_frame
from pdfinspect.extractors.pdfium import ACROSS, DOWNWARD, _objects, textline_direction

pikepdf = pytest.importorskip("pikepdf")


def _records(path: str):
    doc = Document.open(path)
    ref = doc.page_ref(1)
    return list(page_glyphs(doc, ref)), page_frame(doc, ref)


def _real(path: str) -> str:
    if not oracle.available("pdfium"):
        pytest.skip("pypdfium2 is not installed here")
    run = oracle.run("pdfium", path, 1)
    assert run.text is not None, run.error
    return run.text.replace("\r\n", "\n")


# one line drawn right to left: "world" first, then "hello" before it on the same baseline
BACKWARDS = b"BT /F1 10 Tf 150 700 Td (world) Tj ET BT /F1 10 Tf 72 700 Td (hello) Tj ET"


def test_objects_of_one_line_in_order_of_their_start(tmp_path):
    path = helvetica_pdf(tmp_path, BACKWARDS, "backwards.pdf")
    assert emulated_text(path, "pdfium").split() == ["hello", "world"]


def test_objects_of_one_line_in_order_real(tmp_path):
    path = helvetica_pdf(tmp_path, BACKWARDS, "backwards.pdf")
    assert _real(path).split() == emulated_text(path, "pdfium").split() == ["hello", "world"]


def _table(rows: int = 20, shift: float = 0.0) -> bytes:
    """Rows 13 pt apart of a word at the left and a word far to the right closed by a bracket
    of its own text object, drawn right after it (``shift`` points after): the boxes cover
    little of the width the text spans and much of its height, so pdfium's lines run down
    the page."""
    out = []
    for k in range(rows):
        y = 700 - 13 * k
        out.append(b"BT /F1 10 Tf 72 %d Td (ab) Tj ET BT /F1 10 Tf 400 %d Td (cd) Tj ET "
                   b"BT /F1 10 Tf %.3f %d Td (]) Tj ET" % (y, y, 400 + 10 * (0.556 + 0.5) + shift, y))
    return " ".join(x.decode() for x in out).encode()


def test_page_direction_from_the_boxes(tmp_path):
    records, frame = _records(helvetica_pdf(tmp_path, _table(), "table.pdf"))
    assert textline_direction(_objects(_items(records), frame), frame) == DOWNWARD
    records, frame = _records(helvetica_pdf(tmp_path, _table(1), "row.pdf"))
    assert textline_direction(_objects(_items(records), frame), frame) == ACROSS


def _items(records):
    return [base.make_item(r) for r in records]


@pytest.mark.parametrize("shift", [0.0, -0.004])
def test_one_glyph_object_leaves_a_downward_line(tmp_path, shift):
    # an object of one glyph takes the page's direction; its box leaves the line's box sideways
    # (boxes that meet within rounding do not overlap: pdfium's end at the outline)
    lines = emulated_text(helvetica_pdf(tmp_path, _table(shift=shift), "table.pdf"), "pdfium").splitlines()
    assert lines[:4] == ["ab cd", "]", "ab cd", "]"]
    records, frame = _records(helvetica_pdf(tmp_path, _table(), "table.pdf"))
    bracket = next(d for d in emulate("pdfium", records, frame).decisions if d.text == "]")
    assert (bracket.before, bracket.rule) == ("\n", "line") and "EndVerticalLine" in bracket.detail
    # a single row runs across: the bracket stays on its line
    assert emulated_text(helvetica_pdf(tmp_path, _table(1), "row.pdf"), "pdfium").split("\n")[0] == "ab cd]"


def test_one_glyph_object_real(tmp_path):
    for rows, shift, name in ((20, 0.0, "table.pdf"), (20, -0.004, "shifted.pdf"), (1, 0.0, "row.pdf")):
        path = helvetica_pdf(tmp_path, _table(rows, shift), name)
        assert _real(path).split("\n") == emulated_text(path, "pdfium").rstrip("\n").split("\n")


# Tc: alone it never makes a space (pdfium 8149), even on two glyphs; after a TJ number it
# counts, less the object's base space (CalculateBaseSpace needs three items: with two glyphs
# and a number there is none, so the whole Tc adds to the number)
SPACED = (b"BT /F1 10 Tf 5 Tc 72 700 Td (ab) Tj 0 -20 Td [(a) -50 (b)] TJ 0 -20 Td [(a) -50 (bc)] TJ "
          b"-1 Tc 0 -20 Td [(a) -200 (bcd)] TJ ET")


def test_character_spacing_against_the_base_space(tmp_path):
    path = helvetica_pdf(tmp_path, SPACED, "spaced.pdf")
    assert emulated_text(path, "pdfium").split("\n")[:4] == ["ab", "a b", "abc", "abcd"]


def test_character_spacing_real(tmp_path):
    path = helvetica_pdf(tmp_path, SPACED, "spaced.pdf")
    assert _real(path).split("\n") == emulated_text(path, "pdfium").rstrip("\n").split("\n")


def _widths_pdf(tmp_path, content: bytes, name: str) -> str:
    """Helvetica with /Widths 500 for codes 1–127 (code 3 has no glyph name, no Unicode)."""
    return helvetica_pdf(tmp_path, content, name, FirstChar=1, LastChar=127, Widths=[500] * 127)


# a glyph with no text between two others of one TJ: its advance is no TJ number, so no space
UNMAPPED = b"BT /F1 10 Tf 72 700 Td [(ab\\003cd)] TJ ET"


def test_glyph_without_text_makes_no_space(tmp_path):
    path = _widths_pdf(tmp_path, UNMAPPED, "unmapped.pdf")
    assert emulated_text(path, "pdfium").split("\n")[0] == "abcd"


def test_glyph_without_text_real(tmp_path):
    path = _widths_pdf(tmp_path, UNMAPPED, "unmapped.pdf")
    assert _real(path).split() == emulated_text(path, "pdfium").split() == ["abcd"]


def _type3helvetica_pdf(tmp_path, name: str, tounicode: bytes | None = None) -> str:
    """A Type3 font whose /Differences name code 11 /ff and code 66 /A (a box each)."""
    pdf = pikepdf.new()
    proc = pdf.make_stream(b"500 0 0 0 400 600 d1 0 0 400 600 re f")
    font = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type3,
                              FontBBox=[0, 0, 400, 600], FontMatrix=[0.001, 0, 0, 0.001, 0, 0],
                              CharProcs=pikepdf.Dictionary(ff=proc, A=proc),
                              Encoding=pikepdf.Dictionary(Type=pikepdf.Name.Encoding,
                                                          Differences=[11, pikepdf.Name.ff, 66, pikepdf.Name.A]),
                              FirstChar=11, LastChar=66, Widths=[500] * 56)
    if tounicode is not None:
        font.ToUnicode = pdf.make_stream(tounicode)
    page = pdf.add_blank_page(page_size=(612, 792))
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(T3=pdf.make_indirect(font)))
    page.Contents = pdf.make_stream(b"BT /T3 10 Tf 72 700 Td (\\013B) Tj ET")
    path = tmp_path / name
    pdf.save(path)
    return str(path)


TYPE3_TOUNICODE = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /X def "
                   b"1 begincodespacerange <00> <FF> endcodespacerange 1 beginbfchar <0B> <FB00> endbfchar "
                   b"endcmap CMapName currentdict /CMap defineresource pop end end")


def test_type3_encoding_gives_no_unicode(tmp_path):
    # CPDF_Type3Font::LoadGlyphMap is empty: the codes themselves, control code included
    assert emulated_text(_type3helvetica_pdf(tmp_path, "t3.pdf"), "pdfium").split("\n")[0] == "\x0bB"
    # its ToUnicode is read (and the ligature expanded)
    assert emulated_text(_type3helvetica_pdf(tmp_path, "t3u.pdf", TYPE3_TOUNICODE), "pdfium").split("\n")[0] == "ffB"


def test_type3_encoding_real(tmp_path):
    for name, tounicode in (("t3.pdf", None), ("t3u.pdf", TYPE3_TOUNICODE)):
        path = _type3helvetica_pdf(tmp_path, name, tounicode)
        assert _real(path).split("\n") == emulated_text(path, "pdfium").rstrip("\n").split("\n")


# code 16 has no character in WinAnsi: inside an object pdfium writes the code itself; as an
# object of its own, in a font not embedded, it draws nothing, has no box and is left out
CONTROL_CODES = b"BT /F1 10 Tf 72 700 Td (ab\\020cd) Tj 0 -20 Td (ab) Tj (\\020) Tj (cd) Tj ET"


def test_code_without_character(tmp_path):
    path = _widths_pdf(tmp_path, CONTROL_CODES, "codes.pdf")
    assert emulated_text(path, "pdfium").split("\n")[:2] == ["ab\x10cd", "ab cd"]


def test_code_without_character_real(tmp_path):
    path = _widths_pdf(tmp_path, CONTROL_CODES, "codes.pdf")
    assert _real(path).split("\n") == emulated_text(path, "pdfium").rstrip("\n").split("\n")


# the same text object drawn again at the same place (fake bold, a layer repeating the page):
# IsSameAsPreTextObject leaves it out (2 pt off: farther than the glyph check's 0.07 em); drawn
# elsewhere it stays
REPEATED = (b"BT /F1 10 Tf 72 700 Td (hello) Tj ET BT /F1 10 Tf 74 700 Td (hello) Tj ET "
            b"BT /F1 10 Tf 72 670 Td (hello) Tj ET")


def test_repeated_object_left_out(tmp_path):
    path = helvetica_pdf(tmp_path, REPEATED, "repeated.pdf")
    assert emulated_text(path, "pdfium").split() == ["hello", "hello"]
    records, frame = _records(path)
    rules = {d.rule for d in emulate("pdfium", records, frame).decisions if not d.kept}
    assert rules == {"same-object"}


def test_repeated_object_real(tmp_path):
    path = helvetica_pdf(tmp_path, REPEATED, "repeated.pdf")
    assert _real(path).split("\n") == emulated_text(path, "pdfium").rstrip("\n").split("\n")


# Helvetica whose ToUnicode reads a, b, c as alef, bet, gimel
HEBREW_TOUNICODE = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /X def "
                    b"1 begincodespacerange <00> <FF> endcodespacerange 3 beginbfchar <61> <05D0> <62> <05D1> "
                    b"<63> <05D2> endbfchar endcmap CMapName currentdict /CMap defineresource pop end end")


# glyphs drawn in visual order: a right-to-left run is written backwards; with more
# right-to-left runs than left-to-right ones the runs go in reverse order (CloseTempLine)
RIGHT_TO_LEFT = (b"BT /F1 10 Tf 72 700 Td (abc) Tj 0 -20 Td (xy abc) Tj 0 -20 Td (xy abc xy) Tj "
                 b"0 -20 Td (abc abc xy) Tj ET")


def test_right_to_left_runs(tmp_path):
    path = helvetica_pdf(tmp_path, RIGHT_TO_LEFT, "rtl.pdf", ToUnicode=HEBREW_TOUNICODE)
    gimel_bet_alef = "\u05d2\u05d1\u05d0"
    assert emulated_text(path, "pdfium").split("\n")[:4] == [gimel_bet_alef, f"xy {gimel_bet_alef}", f"xy {gimel_bet_alef} xy",
                                               f"xy {gimel_bet_alef} {gimel_bet_alef}"]


def test_right_to_left_runs_real(tmp_path):
    path = helvetica_pdf(tmp_path, RIGHT_TO_LEFT, "rtl.pdf", ToUnicode=HEBREW_TOUNICODE)
    assert _real(path).split("\n") == emulated_text(path, "pdfium").rstrip("\n").split("\n")


# a skewed text matrix and a font size that doubles between two objects: the gap is measured
# in the previous object's text space (its matrix inverted), where it is below the threshold
SKEWED = (b"16 0 0 16 0 0 cm BT /F1 1 Tf 1.4 -0.7 0.7 0.7 10 40 Tm (Lorem ip) Tj /F1 2 Tf (sum dolor) Tj ET")


def test_gap_in_the_previous_text_space(tmp_path):
    path = helvetica_pdf(tmp_path, SKEWED, "skewed.pdf")
    assert emulated_text(path, "pdfium").split() == ["Lorem", "ipsum", "dolor"]


def test_gap_in_the_previous_text_space_real(tmp_path):
    path = helvetica_pdf(tmp_path, SKEWED, "skewed.pdf")
    assert _real(path).split() == emulated_text(path, "pdfium").split()


def test_ligature_name_gives_no_character(tmp_path):
    # /Differences names code 5 f_f_i: a glyph name gives pdfium one character or none
    encoding = pikepdf.Dictionary(Type=pikepdf.Name.Encoding, BaseEncoding=pikepdf.Name.WinAnsiEncoding,
                                  Differences=[5, pikepdf.Name("/f_f_i")])
    path = helvetica_pdf(tmp_path, b"BT /F1 10 Tf 72 700 Td (a\\005b) Tj ET", "ligature.pdf",
                         Encoding=encoding, FirstChar=1, LastChar=127, Widths=[500] * 127)
    assert emulated_text(path, "pdfium").split("\n")[0] == "a\x05b"
    if oracle.available("pdfium"):
        assert _real(path).split("\n") == emulated_text(path, "pdfium").rstrip("\n").split("\n")


def test_glyph_of_no_width_measured_by_its_outline(tmp_path):
    # the space is 0.5 em wide (more than a third): the threshold is a fraction of the glyph's
    # width, and "b" has none in /Widths: pdfium measures its outline (INK_WIDTH stands for it)
    widths = [500] * 127
    widths[ord("b") - 1] = 0
    path = helvetica_pdf(tmp_path, b"BT /F1 10 Tf 72 700 Td [(a) -300 (b)] TJ ET", "nowidth.pdf",
                         FirstChar=1, LastChar=127, Widths=widths)
    assert emulated_text(path, "pdfium").split("\n")[0] == "a b"
    if oracle.available("pdfium"):
        assert _real(path).split("\n") == emulated_text(path, "pdfium").rstrip("\n").split("\n")
