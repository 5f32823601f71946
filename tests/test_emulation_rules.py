"""Rules of the pypdf and pdfminer.six emulations found by comparing them with the real extractors
(bench/bench_lens.py), each on a small PDF built here; where the real extractor is installed the
test checks that it and the emulation agree on the page."""
from __future__ import annotations

import pytest

from conftest import emulated_text, helvetica_pdf
from pdfinspect.extractors import oracle

pikepdf = pytest.importorskip("pikepdf")
N = pikepdf.Name


def _save(tmp_path, font, content: bytes, name: str) -> str:
    pdf = pikepdf.new()
    page = pdf.add_blank_page(page_size=(612, 792))
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=pdf.make_indirect(font(pdf))))
    page.Contents = pdf.make_stream(content)
    path = tmp_path / name
    pdf.save(path)
    return str(path)


def _agrees_with_real(path: str, name: str, words: list[str]) -> None:
    assert emulated_text(path, name).split() == words
    if not oracle.available(name):
        return
    real = oracle.run(name, path, 1)
    assert real.text is not None, real.error
    assert real.text.split() == words


def _helvetica(first: int, widths: list[int], differences: list | None = None):
    def make(pdf):
        enc = pikepdf.Dictionary(Type=N.Encoding, BaseEncoding=N.WinAnsiEncoding)
        if differences:
            enc.Differences = differences
        return pikepdf.Dictionary(Type=N.Font, Subtype=N.Type1, BaseFont=N("/Helvetica-Oblique"), Encoding=enc,
                                  FirstChar=first, LastChar=first + len(widths) - 1, Widths=widths)
    return make


# TJ −260 is a space for pypdf when it is at least 0.95 × half the space width (thousandths of an em)
TJ_260 = b"BT /F1 10 Tf 72 700 Td [(ab) -260 (cd)] TJ ET"


def test_pypdf_space_width_is_code_32_whatever_it_names(tmp_path):
    # code 32 names /visiblespace (as in T1-encoded TeX fonts) 600 wide: 260 < 0.95 × 300, no space
    font = _helvetica(32, [600] + [500] * 68, [32, N.visiblespace])
    _agrees_with_real(_save(tmp_path, font, TJ_260, "vs.pdf"), "pypdf", ["abcd"])


def test_pypdf_space_code_without_width_gives_200(tmp_path):
    # /Widths starts at 97: the space code has no width and pypdf takes 200 (not half the average
    # 250): −100 ≥ 0.95 × 100 is a space
    font = _helvetica(97, [500] * 4)
    _agrees_with_real(_save(tmp_path, font, b"BT /F1 10 Tf 72 700 Td [(ab) -100 (cd)] TJ ET", "nw.pdf"), "pypdf",
                      ["ab", "cd"])


def test_pypdf_space_code_from_tounicode(tmp_path):
    # the ToUnicode maps code 0xA0 to a space (pdfTeX's builtin ToUnicode does): its width, 900,
    # is the space width, not code 32's 100
    def font(pdf):
        tu = pdf.make_stream(b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /T def\n"
                             b"1 begincodespacerange\n<00> <FF>\nendcodespacerange\n2 beginbfrange\n<61> <64> <0061>\n"
                             b"<A0> <A0> <0020>\nendbfrange\nendcmap CMapName currentdict /CMap defineresource pop end end")
        widths = [100] + [500] * 127 + [900] * 33
        return pikepdf.Dictionary(Type=N.Font, Subtype=N.Type1, BaseFont=N.Helvetica, FirstChar=32,
                                  LastChar=32 + len(widths) - 1, Widths=widths, ToUnicode=tu)
    _agrees_with_real(_save(tmp_path, font, TJ_260, "tu.pdf"), "pypdf", ["abcd"])


def _cid_font(vertical: bool, tounicode: bool, ascent: int = 723, descent: int = -241):
    def make(pdf):
        cid = pikepdf.Dictionary(Type=N.Font, Subtype=N.CIDFontType0, BaseFont=N("/Ryumin-Light"),
                                 CIDSystemInfo=pikepdf.Dictionary(Registry="Adobe", Ordering="Japan1", Supplement=6),
                                 FontDescriptor=pdf.make_indirect(pikepdf.Dictionary(
                                     Type=N.FontDescriptor, FontName=N("/Ryumin-Light"), Flags=4,
                                     FontBBox=[-170, descent, 1024, ascent], ItalicAngle=0, Ascent=ascent, Descent=descent,
                                     CapHeight=709, StemV=69)))
        font = pikepdf.Dictionary(Type=N.Font, Subtype=N.Type0, BaseFont=N("/Ryumin-Light"),
                                  Encoding=N("/Identity-V" if vertical else "/Identity-H"),
                                  DescendantFonts=[pdf.make_indirect(cid)])
        if tounicode:
            font.ToUnicode = pdf.make_stream(
                b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /U def "
                b"1 begincodespacerange <0000> <FFFF> endcodespacerange 2 beginbfchar <04cd> <96E8> "
                b"<04ce> <98A8> endbfchar endcmap CMapName currentdict /CMap defineresource pop end end")
        return font
    return make


def test_pypdf_identity_without_tounicode_reads_codes_as_utf16(tmp_path):
    # CID 1229 is 雨 in Adobe-Japan1, but pypdf reads an Identity-H code as UTF-16BE (_cmap.py)
    path = _save(tmp_path, _cid_font(False, False), b"BT /F1 20 Tf 72 700 Td <04cd> Tj ET", "id.pdf")
    assert emulated_text(path, "mupdf").strip() == "\u96e8"
    _agrees_with_real(path, "pypdf", ["\u04cd"])


def test_pdfminer_vertical_glyphs_stack_into_lines(tmp_path):
    # Identity-V, 30 pt: LTChar boxes 30 pt tall one under the other do not overlap: one line each
    # (the glyph boxes, 2.4 em tall from the font's ascent and descent, do)
    path = _save(tmp_path, _cid_font(True, True, 1200, -1200), b"BT /F1 30 Tf 300 700 Td <04cd04ce> Tj ET", "v.pdf")
    _agrees_with_real(path, "pdfminer", ["\u96e8", "\u98a8"])


def test_pdfminer_zapfdingbats_reads_standard_encoding(tmp_path):
    # a non-embedded ZapfDingbats without /Encoding: pdfminer.six takes StandardEncoding, not the
    # built-in encoding (code 0x21 is /exclam, not /a1 ✁)
    def font(pdf):
        return pikepdf.Dictionary(Type=N.Font, Subtype=N.Type1, BaseFont=N.ZapfDingbats)
    path = _save(tmp_path, font, b"BT /F1 12 Tf 72 700 Td (!\") Tj ET", "zd.pdf")
    assert emulated_text(path, "mupdf").split() != ["!\""]
    _agrees_with_real(path, "pdfminer", ["!\""])


@pytest.mark.parametrize("matrix,words", [(b"1 0 0 1", ["ab", "cd"]), (b"0 1 -1 0", ["ab", "cd"]),
                                          (b"0 -1 1 0", ["abcd"]), (b"-1 0 0 -1", ["abcd"])])
def test_pypdf_measures_moves_along_a_page_axis(tmp_path, matrix, words):
    # a Td of 20 units after "ab": a space where the text runs along +x or +y; none top to bottom
    # or right to left, where crlf_space_check's signed move is negative
    font = _helvetica(32, [278] + [500] * 68)
    content = b"BT /F1 10 Tf " + matrix + b" 300 400 Tm (ab) Tj 20 0 Td (cd) Tj ET"
    _agrees_with_real(_save(tmp_path, font, content, "rot.pdf"), "pypdf", words)


def test_mupdf_reads_zapf_dingbats_names_as_numbers(tmp_path):
    # MuPDF 1.21.1 knows no ITC Zapf Dingbats list: /a117 (code 0x29) is U+0075 "u" (decimal after
    # "a"), /a1 (code 0x21, under three characters) U+FFFD
    def font(pdf):
        return pikepdf.Dictionary(Type=N.Font, Subtype=N.Type1, BaseFont=N.ZapfDingbats)
    path = _save(tmp_path, font, b"BT /F1 12 Tf 72 700 Td (\\)!) Tj ET", "zd2.pdf")
    _agrees_with_real(path, "mupdf", ["u\ufffd"])


def test_mupdf_vertical_substitute_font_advances_by_the_pdf_widths(tmp_path):
    # a non-embedded vertical font: MuPDF advances by the PDF's widths, the glyphs make one line
    path = _save(tmp_path, _cid_font(True, True), b"BT /F1 30 Tf 300 700 Td <04cd04ce> Tj ET", "v2.pdf")
    _agrees_with_real(path, "mupdf", ["\u96e8\u98a8"])


def test_mupdf_vertical_bare_cff_advances_zero():
    # an embedded bare CFF (FontFile3 /CIDFontType0C) has no vertical metrics: MuPDF advances 0
    # and puts each glyph of a vertical run on a line of its own
    from pathlib import Path
    path = Path(__file__).resolve().parents[2] / "shared" / "corpus-pdfjs" / "issue6387.pdf"
    if not path.exists():
        pytest.skip("../shared/corpus-pdfjs is not here")
    lines = emulated_text(str(path), "mupdf").split("\n")
    assert lines[:3] == ["\u3042", "\u306e", "\u30a4"]
    if oracle.available("mupdf"):
        assert oracle.run("mupdf", str(path), 1).text.split()[:3] == lines[:3]


def test_pypdf_breaks_lines_across_the_page_axis_in_vertical_text(tmp_path):
    # Identity-V, a Td of one em down between two Tj: pypdf compares text positions along page y
    # whatever the writing mode, so the second glyph starts a line (found on the held-out set)
    content = b"BT /F1 30 Tf 300 700 Td <04cd> Tj 0 -30 Td <04ce> Tj ET"
    path = _save(tmp_path, _cid_font(True, True), content, "v3.pdf")
    _agrees_with_real(path, "pypdf", ["\u96e8", "\u98a8"])


def test_pdfminer_leaves_out_text_of_an_embedded_cmap_it_does_not_know(tmp_path):
    # an embedded CMap stream named /Custom-H: pdfminer.six looks the name up among its
    # predefined CMaps instead of parsing the stream, finds none, and decodes the codes to
    # nothing (MuPDF reads the stream)
    def font(pdf):
        cid = pikepdf.Dictionary(Type=N.Font, Subtype=N.CIDFontType2, BaseFont=N.Arial, DW=500,
                                 CIDSystemInfo=pikepdf.Dictionary(Registry="Adobe", Ordering="Identity", Supplement=0))
        tu = pdf.make_stream(b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /U def\n"
                             b"1 begincodespacerange\n<00> <ff>\nendcodespacerange\n1 beginbfrange\n"
                             b"<41> <42> <0041>\nendbfrange\nendcmap end end")
        enc = pdf.make_stream(b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Custom-H def\n"
                              b"1 begincodespacerange\n<00> <ff>\nendcodespacerange\n1 begincidrange\n<00> <ff> 0\n"
                              b"endcidrange\nendcmap CMapName currentdict /CMap defineresource pop end end",
                              Type=N.CMap, CMapName=N("/Custom-H"),
                              CIDSystemInfo=pikepdf.Dictionary(Registry="Adobe", Ordering="Identity", Supplement=0))
        return pikepdf.Dictionary(Type=N.Font, Subtype=N.Type0, BaseFont=N.Arial, Encoding=enc,
                                  DescendantFonts=[pdf.make_indirect(cid)], ToUnicode=tu)
    path = _save(tmp_path, font, b"BT /F1 12 Tf 72 700 Td (AB) Tj ET", "cm.pdf")
    assert emulated_text(path, "mupdf").split() == ["AB"]
    _agrees_with_real(path, "pdfminer", [])


def test_pypdf_writes_replacement_characters_for_a_font_that_is_not_a_dictionary(tmp_path):
    # /F1 is a number, not a font dictionary: pypdf's Tf falls back to its unknown font, whose
    # encoding gives "�" for every byte
    pdf = pikepdf.new()
    page = pdf.add_blank_page(page_size=(612, 792))
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=5))
    page.Contents = pdf.make_stream(b"BT /F1 12 Tf 72 700 Td (AB) Tj ET")
    path = tmp_path / "nd.pdf"
    pdf.save(path)
    _agrees_with_real(str(path), "pypdf", ["\ufffd\ufffd"])
