"""poppler's layout as the emulation follows it (``TextOutputDev.cc``), on small built pages:
words by drawing order (``TextPage::addChar``), lines by position (``TextBlock::coalesce``),
spaces by gap (``TextLine::coalesce``). Where ``pdftotext`` is on the PATH the real one must
write the same words."""
from __future__ import annotations

import pytest

from conftest import build_truetype, emulation, helvetica_pdf
from pdfinspect.content.textlayout import page_glyphs
from pdfinspect.core.document import Document
from pdfinspect.extractors import oracle

pikepdf = pytest.importorskip("pikepdf")

# Helvetica's widths (AFM, thousandths): h 556, e 556, l 222, o 556
PAGES = {
    # a superscript drawn after its line, smaller and raised: it joins the word it touches
    "superscript": (b"BT /F1 10 Tf 72 700 Td (E = mc) Tj ET BT /F1 7 Tf 103.4 704 Td (2) Tj ET", ["E", "=", "mc2"]),
    # a superscript then a subscript at the same place after "mw": sorted by position, both join it
    "sub-and-superscript": (b"BT /F1 10 Tf 72 700 Td (mw) Tj ET BT /F1 7 Tf 87.55 704 Td (2) Tj ET "
                            b"BT /F1 7 Tf 87.55 697 Td (0) Tj ET BT /F1 10 Tf 100 700 Td (x) Tj ET", ["mw20", "x"]),
    # "lo" drawn before "hel", each at its place: one word, read by position
    "out-of-order": (b"BT /F1 10 Tf 85.34 700 Td (lo) Tj ET BT /F1 10 Tf 72 700 Td (hel) Tj ET "
                     b"BT /F1 10 Tf 72 680 Td (next) Tj ET", ["hello", "next"]),
    # the same word drawn twice 0.3 pt apart (fake bold): written once
    "fake-bold": (b"BT /F1 10 Tf 72 700 Td (Bold) Tj ET BT /F1 10 Tf 72.3 700 Td (Bold) Tj ET", ["Bold"]),
    # a line ending in a hyphen joins the next without it
    "hyphen": (b"BT /F1 10 Tf 72 700 Td (infor-) Tj 0 -12 Td (mation is) Tj ET", ["information", "is"]),
    # a word cut by a gap of 0.2 em beside another line's word: two words, whatever the order
    "two-columns": (b"BT /F1 10 Tf 72 700 Td (left) Tj ET BT /F1 10 Tf 300 700 Td (right) Tj ET "
                    b"BT /F1 10 Tf 72 688 Td (more) Tj ET", ["left", "more", "right"]),
    # a word turned 90 degrees, one glyph at a time: one word (rotation class 1 on the device)
    "rotated": (b"BT /F1 10 Tf 0 -1 1 0 300 700 Tm (Turned) Tj ET", ["Turned"]),
}


@pytest.mark.parametrize("name", sorted(PAGES))
def test_poppler_layout(tmp_path, name):
    content, words = PAGES[name]
    assert sorted(emulation(helvetica_pdf(tmp_path, content, f"{name}.pdf"), "poppler").text.split()) == sorted(words)


@pytest.mark.parametrize("name", sorted(PAGES))
def test_poppler_layout_real(tmp_path, name):
    if not oracle.available("poppler"):
        pytest.skip("pdftotext is not on the PATH")
    content, words = PAGES[name]
    real = oracle.run("poppler", helvetica_pdf(tmp_path, content, f"{name}.pdf"), 1)
    assert real.text is not None, real.error
    assert sorted(real.text.split()) == sorted(words)


def test_poppler_decisions_name_their_rule(tmp_path):
    em = emulation(helvetica_pdf(tmp_path, PAGES["superscript"][0], "superscript.pdf"), "poppler")
    two = next(d for d in em.decisions if d.text == "2")
    assert two.before == "" and two.rule == "joined" and "maxCharSpacing 0.03" in two.detail
    em = emulation(helvetica_pdf(tmp_path, PAGES["fake-bold"][0], "fake-bold.pdf"), "poppler")
    assert [d.rule for d in em.decisions if not d.kept] == ["duplicate"] * 4
    em = emulation(helvetica_pdf(tmp_path, PAGES["hyphen"][0], "hyphen.pdf"), "poppler")
    assert next(d for d in em.decisions if d.record.unicode == "-").rule == "hyphenated"


def _mac_truetype() -> bytes:
    """A TrueType program whose only ``cmap`` is (1,0) Macintosh: 0x41 A, 0xD5 quoteright."""
    def triangle(pen, i: int, name: str) -> None:
        pen.moveTo((0, 0)), pen.lineTo((0, 500)), pen.lineTo((500, 0)), pen.closePath()

    def edit(font) -> None:
        mac = font["cmap"].tables[0]
        mac.platformID, mac.platEncID, mac.language = 1, 0, 0
        mac.cmap = {0x41: "A", 0xD5: "quoteright"}
        font["cmap"].tables = [mac]

    return build_truetype([".notdef", "A", "quoteright"], triangle, cmap={0x41: "A", 0x2019: "quoteright"},
                          metrics=(500, 0), family="Mac", edit=edit)


def test_truetype_without_encoding_reads_winansi(tmp_path):
    # GfxFont.cc: a TrueType font with no /Encoding takes WinAnsiEncoding's names, not the
    # program's cmap: code 0xD5 is "Otilde" for poppler where the (1,0) cmap says quoteright
    pdf = pikepdf.new()
    desc = pikepdf.Dictionary(Type=pikepdf.Name.FontDescriptor, FontName=pikepdf.Name("/Mac"), Flags=32,
                              FontFile2=pdf.make_stream(_mac_truetype()))
    font = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.TrueType, BaseFont=pikepdf.Name("/Mac"),
                              FontDescriptor=desc, FirstChar=65, LastChar=213, Widths=[500] * 149)
    page = pdf.add_blank_page(page_size=(612, 792))
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=pdf.make_indirect(font)))
    page.Contents = pdf.make_stream(b"BT /F1 10 Tf 72 700 Td (A\\325A) Tj ET")
    path = str(tmp_path / "mac.pdf")
    pdf.save(path)
    doc = Document.open(path)
    assert [r.unicode for r in page_glyphs(doc, doc.page_ref(1))] == ["A", "\u2019", "A"]  # ours: the program
    em = emulation(path, "poppler")
    assert em.text.split() == ["A\u00d5A"]
    assert next(d for d in em.decisions if d.text == "\u00d5").text_rule == "truetype-winansi"
    if oracle.available("poppler"):
        assert oracle.run("poppler", path, 1).text.split() == ["A\u00d5A"]


def _page_with(tmp_path, name: str, font: dict, content: bytes, pdf=None) -> str:
    pdf = pdf or pikepdf.new()
    page = pdf.add_blank_page(page_size=(612, 792))
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=pdf.make_indirect(pikepdf.Dictionary(**font))))
    page.Contents = pdf.make_stream(content)
    path = str(tmp_path / f"{name}.pdf")
    pdf.save(path)
    return path


def test_name_outside_the_glyph_list_passes_the_code_through(tmp_path):
    # GfxFont.cc pass 2: a glyph name poppler cannot map (TeX's summationdisplay) gives the code
    # itself, where the TeX glyph list gives ∑; once a name is unmapped, so does every code
    # left without text (B, named .notdef)
    font = dict(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name("/CMEX10"),
                FirstChar=65, LastChar=88, Widths=[500] * 24,
                Encoding=pikepdf.Dictionary(Differences=[66, pikepdf.Name("/.notdef"), 88,
                                                         pikepdf.Name("/summationdisplay")]))
    path = _page_with(tmp_path, "cmex", font, b"BT /F1 10 Tf 72 700 Td (AXB) Tj ET")
    doc = Document.open(path)
    assert [r.unicode for r in page_glyphs(doc, doc.page_ref(1))] == ["A", "\u2211", ""]
    em = emulation(path, "poppler")
    assert em.text.split() == ["AXB"]
    assert {d.text_rule for d in em.decisions if d.text in "XB"} == {"code-pass-through"}
    if oracle.available("poppler"):
        assert oracle.run("poppler", path, 1).text.split() == ["AXB"]


def test_type3_font_size_from_its_letter_width(tmp_path):
    # TextPage::updateFont: a Type3 font's size is scaled by its letter's width over 0.5 (here
    # 1.0 / 0.5 = 2): a gap of 0.15 em at 10 pt is under 0.1 × 20 pt, no word break
    pdf = pikepdf.new()
    procs = pikepdf.Dictionary(a=pdf.make_stream(b"1000 0 0 0 1000 1000 d1 0 0 1000 1000 re f"),
                               b=pdf.make_stream(b"1000 0 0 0 1000 1000 d1 0 0 500 500 re f"))
    font = dict(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type3, FontBBox=[0, 0, 1000, 1000],
                FontMatrix=[0.001, 0, 0, 0.001, 0, 0], CharProcs=procs, FirstChar=97, LastChar=98,
                Widths=[1000, 1000], Encoding=pikepdf.Dictionary(Differences=[97, pikepdf.Name.a, pikepdf.Name.b]),
                Resources=pikepdf.Dictionary())
    path = _page_with(tmp_path, "type3", font, b"BT /F1 10 Tf 72 700 Td [(ab) -150 (ab)] TJ ET", pdf)
    assert emulation(path, "poppler").text.split() == ["abab"]
    if oracle.available("poppler"):
        assert oracle.run("poppler", path, 1).text.split() == ["abab"]


def _type0_page(tmp_path, name: str, pairs: dict[int, str], content: bytes) -> str:
    pdf = pikepdf.new()
    bf = b" ".join(b"<%04X> <%s>" % (code, text.encode("utf-16-be").hex().encode()) for code, text in pairs.items())
    tu = pdf.make_stream(b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /X def "
                         b"1 begincodespacerange <0000> <FFFF> endcodespacerange %d beginbfchar %s endbfchar "
                         b"endcmap CMapName currentdict /CMap defineresource pop end end" % (len(pairs), bf))
    cid = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.CIDFontType2, BaseFont=pikepdf.Name.Arial,
                             DW=1000, CIDSystemInfo=pikepdf.Dictionary(Registry="Adobe", Ordering="Identity",
                                                                       Supplement=0))
    font = dict(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type0, BaseFont=pikepdf.Name.Arial,
                Encoding=pikepdf.Name("/Identity-H"), DescendantFonts=[pdf.make_indirect(cid)], ToUnicode=tu)
    return _page_with(tmp_path, name, font, content, pdf)


def test_right_to_left_run_reversed_between_embedding_marks(tmp_path):
    # reorderText: on a mostly left-to-right page, a Hebrew run drawn in visual order is written
    # reversed (logical order) between U+202B and U+202C
    path = _type0_page(tmp_path, "hebrew", {0x41: "A", 0x42: "B", 0x43: "C", 0x44: "D", 1: "\u05d0", 2: "\u05d1",
                                            3: "\u05d2"},
                       b"BT /F1 10 Tf 72 700 Td <0041004200430044> Tj 60 0 Td <000300020001> Tj ET")
    words = ["ABCD", "\u202b\u05d0\u05d1\u05d2\u202c"]
    assert emulation(path, "poppler").text.split() == words
    if oracle.available("poppler"):
        assert oracle.run("poppler", path, 1).text.split() == words


def test_type3_procedure_text_is_not_read(tmp_path):
    # TextOutputDev::interpretType3Chars is false: the Type3 glyph "a" is the character, the
    # text its procedure draws in another font ("Z") is never seen
    pdf = pikepdf.new()
    helv = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                                BaseFont=pikepdf.Name.Helvetica))
    procs = pikepdf.Dictionary(a=pdf.make_stream(b"1000 0 d0 BT /H 1000 Tf 0 0 Td (Z) Tj ET"))
    font = dict(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type3, FontBBox=[0, 0, 1000, 1000],
                FontMatrix=[0.001, 0, 0, 0.001, 0, 0], CharProcs=procs, FirstChar=97, LastChar=97, Widths=[1000],
                Encoding=pikepdf.Dictionary(Differences=[97, pikepdf.Name.a]),
                Resources=pikepdf.Dictionary(Font=pikepdf.Dictionary(H=helv)))
    path = _page_with(tmp_path, "type3text", font, b"BT /F1 10 Tf 72 700 Td (aa) Tj ET", pdf)
    doc = Document.open(path)
    assert "Z" in "".join(r.unicode for r in page_glyphs(doc, doc.page_ref(1)))
    assert emulation(path, "poppler").text.split() == ["aa"]
    if oracle.available("poppler"):
        assert oracle.run("poppler", path, 1).text.split() == ["aa"]


def test_optional_content_off_is_not_read(tmp_path):
    # Gfx.cc: content in an optional content group the default configuration turns off
    # (/OCProperties /D /OFF) is not drawn, so pdftotext never sees it: marked content /OC and
    # a form XObject with /OC alike (core.optional)
    pdf = pikepdf.new()
    off = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.OCG, Name=pikepdf.String("Off")))
    on = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.OCG, Name=pikepdf.String("On")))
    pdf.Root.OCProperties = pikepdf.Dictionary(OCGs=[off, on], D=pikepdf.Dictionary(OFF=[off]))
    font = dict(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica)
    path = _page_with(tmp_path, "oc", font, b"/OC /Hid BDC BT /F1 10 Tf 72 700 Td (secret) Tj ET EMC "
                      b"/OC /Vis BDC BT /F1 10 Tf 72 680 Td (shown) Tj ET EMC /Fm Do", pdf)
    with pikepdf.open(path, allow_overwriting_input=True) as p:
        res = p.pages[0].Resources
        res.Properties = pikepdf.Dictionary(Hid=p.Root.OCProperties.OCGs[0], Vis=p.Root.OCProperties.OCGs[1])
        fm = p.make_stream(b"BT /F1 10 Tf 72 650 Td (formtext) Tj ET", Type=pikepdf.Name.XObject,
                           Subtype=pikepdf.Name.Form, BBox=[0, 0, 612, 792], OC=p.Root.OCProperties.OCGs[0],
                           Resources=pikepdf.Dictionary(Font=res.Font))
        res.XObject = pikepdf.Dictionary(Fm=fm)
        p.save(path)
    doc = Document.open(path)
    ref = doc.page_ref(1)
    assert {r.unicode for r in page_glyphs(doc, ref)} >= set("secretformtext")
    em = emulation(path, "poppler")
    assert em.text.split() == ["shown"]
    assert {d.rule for d in em.decisions if not d.kept} == {"optional_content_off"}
    if oracle.available("poppler"):
        assert oracle.run("poppler", path, 1).text.split() == ["shown"]


def test_blocks_in_reading_order(tmp_path):
    # TextBlock::visitDepthFirst: the right column starts higher (its block is gathered first)
    # but lies beside the left one, so the left one is read first (rule 2); the heading above
    # both comes before either (rule 1)
    content = (b"BT /F1 10 Tf 300 730 Td (right one) Tj 0 -12 Td (right two) Tj 0 -12 Td (right three) Tj "
               b"0 -12 Td (right four) Tj ET BT /F1 10 Tf 72 712 Td (left one) Tj 0 -12 Td (left two) Tj ET "
               b"BT /F1 14 Tf 72 760 Td (Heading) Tj ET")
    path = helvetica_pdf(tmp_path, content, "columns.pdf")
    words = "Heading left one left two right one right two right three right four".split()
    assert emulation(path, "poppler").text.split() == words
    if oracle.available("poppler"):
        assert oracle.run("poppler", path, 1).text.split() == words
