"""The heuristics after the spec's methods (fonts/heuristics.py): each on hand-built bytes
(pikepdf writes the files, fontTools the font programs) and on real files of pdf.js's
corpus, compared with what MuPDF's ``mutool trace`` outputs for the same glyphs."""
from __future__ import annotations

import io
import re
import shutil
import subprocess

import pytest

from conftest import CORPUS, build_truetype
from pdfinspect.content.textlayout import page_glyphs
from pdfinspect.core.document import Document
from pdfinspect.fonts.heuristics import is_tex_font, judge_numeric_names, legacy_cjk_codec
from pdfinspect.fonts.predefined import cid_to_unicode

pikepdf = pytest.importorskip("pikepdf")
PDFJS = CORPUS.parent / "corpus-pdfjs"
needs_mutool = pytest.mark.skipif(shutil.which("mutool") is None, reason="mutool absent")


def _glyphs(pdf, replace: tuple[bytes, bytes] = (b"", b"")) -> list:
    buf = io.BytesIO()
    pdf.save(buf)
    doc = Document(buf.getvalue().replace(*replace) if replace[0] else buf.getvalue())
    return list(page_glyphs(doc, doc.page_ref(1)))


def _page(font: pikepdf.Dictionary, shown: bytes, pdf=None):
    """A one-page PDF showing ``shown`` (hex) with ``font`` as /F1."""
    pdf = pdf or pikepdf.new()
    page = pdf.add_blank_page()
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=pdf.make_indirect(font)))
    page.Contents = pdf.make_stream(b"BT /F1 10 Tf 10 10 Td <" + shown.hex().encode() + b"> Tj ET")
    return pdf


def _type3(names: list[str]) -> tuple[pikepdf.Pdf, pikepdf.Dictionary]:
    pdf = pikepdf.new()
    procs = pikepdf.Dictionary({f"/{n}": pdf.make_stream(b"0 0 m 1 1 l f") for n in names})
    font = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type3, FontBBox=[0, 0, 1, 1],
                              FontMatrix=[1, 0, 0, 1, 0, 0], CharProcs=procs, FirstChar=0, LastChar=255,
                              Widths=[1] * 256, Resources=pikepdf.Dictionary())
    return pdf, font


def _differences(first: int, names: list[str]) -> pikepdf.Dictionary:
    return pikepdf.Dictionary(Type=pikepdf.Name.Encoding,
                              Differences=[first] + [pikepdf.Name("/" + n) for n in names])


def _steps(record) -> dict:
    return {p.method: p for p in record.path}


# -- numeric glyph names ---------------------------------------------------------------------------

def test_dvips_decimal_a_names_are_codes():
    names = [f"a{c}" for c in range(65, 91)]  # dvips bitmap fonts: /a86 is code 86, "V"
    pdf, font = _type3(names)
    font.Encoding = _differences(65, names)
    records = _glyphs(_page(font, b"HAVEL", pdf))
    assert "".join(r.unicode for r in records) == "HAVEL"
    r = records[0]
    assert (r.method, r.resolution.confidence, r.resolution.spec_unicode) == ("NumericGlyphName", "heuristic", "")
    assert "MuPDF" in r.resolution.used_by
    step = _steps(r)["NumericGlyphName"]
    assert step.confidence == "heuristic" and "decimal" in step.detail and "26 of 26" in step.detail
    # the spec's Encoding step finds no AGL meaning, and stays in the path
    assert _steps(r)["Encoding"].result == "miss" and _steps(r)["Encoding"].confidence == "spec"


def test_hex_judged_per_font_when_a_number_has_hex_letters():
    names = [f"G{c:02X}" for c in range(0x41, 0x5B)]  # pdf.js's Gxx: G4A has a hex letter
    pdf, font = _type3(names)
    font.Encoding = _differences(0x41, names)
    records = _glyphs(_page(font, b"JAZZ", pdf))
    assert "".join(r.unicode for r in records) == "JAZZ"
    assert all("hexadecimal" in _steps(r)["NumericGlyphName"].detail for r in records)


def test_glyph_indices_are_not_read_as_codes():
    names = ["g123", "g7", "g5167"]  # subsetter GIDs: numbers unrelated to the codes 65–67
    pdf, font = _type3(names)
    font.Encoding = _differences(65, names)
    records = _glyphs(_page(font, b"ABC", pdf))
    step = _steps(records[2])["NumericGlyphName"]
    assert step.result == "miss" and "glyph indices" in step.detail  # not 內 (0x5167 read as hex)
    # what is left is the codes' StandardEncoding letters, as MuPDF and playa output them
    assert [(r.unicode, r.method) for r in records] == [(c, "BaseEncodingFallback") for c in "ABC"]


def test_zapf_dingbats_like_a_names_are_not_codes():
    judged = judge_numeric_names([(0x21, "a1"), (0x22, "a2"), (0x23, "a202"), (0x24, "a3"), (0x25, "a4")])
    assert judged is not None and judged.dingbats
    assert not judge_numeric_names([(86, "a86"), (87, "a87")]).dingbats


def test_lower_case_uni_names():
    pdf = pikepdf.new()
    font = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica,
                              Encoding=_differences(65, ["uni00e9", "u1f600"]))
    a, b = _glyphs(_page(font, b"AB", pdf))
    assert (a.unicode, a.method, b.unicode) == ("\u00e9", "NumericGlyphName", "\U0001f600")


# -- TeX glyph names ---------------------------------------------------------------------------------

def test_tex_names_outside_the_agl_and_cmex_sizes():
    pdf = pikepdf.new()
    font = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name("/CMEX10"),
                              Encoding=_differences(65, ["flat", "summationdisplay", "parenleftBig", "radicalbigg",
                                                         "bracehtipdownleft"]))
    records = _glyphs(_page(font, b"ABCDE", pdf))
    assert [r.unicode for r in records] == ["\u266d", "\u2211", "(", "\u221a", ""]
    assert {r.method for r in records[:4]} == {"TeXGlyphList"}
    # an extension piece has no character, and a TeX font's codes are not StandardEncoding's
    assert records[4].resolution.confidence == "none"


def test_greek_preferred_in_tex_fonts_and_flagged():
    def delta(base_font: str):
        pdf = pikepdf.new()
        font = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name(base_font),
                                  Encoding=_differences(1, ["Delta", "mu"]))
        return _glyphs(_page(font, b"\x01\x02", pdf))

    tex = delta("/ABCDEF+CMR10")
    assert [r.unicode for r in tex] == ["\u0394", "\u03bc"] and tex[0].method == "TeXGlyphList"
    assert tex[0].resolution.has_flag("agl_tex_ambiguity")
    assert [(c.method, c.unicode) for c in tex[0].resolution.conflicts] == [("Encoding", "\u2206")]
    assert tex[0].resolution.spec_unicode == "\u2206"
    other = delta("/Helvetica")
    assert [r.unicode for r in other] == ["\u2206", "\u00b5"] and other[0].method == "Encoding"
    assert is_tex_font("CMMI10") and is_tex_font("LMRoman10-Regular") and not is_tex_font("Helvetica")


# -- encodings when names or programs fail ---------------------------------------------------------------

def test_unknown_differences_name_falls_back_to_the_base_encoding():
    pdf = pikepdf.new()
    enc = _differences(65, ["BT", "Acircumflexsmallx"])
    enc.BaseEncoding = pikepdf.Name.WinAnsiEncoding
    font = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name("/Foo"),
                              Encoding=enc)
    a, b = _glyphs(_page(font, b"AB", pdf))
    assert (a.unicode, b.unicode) == ("A", "B")
    assert a.method == "BaseEncodingFallback" and "WinAnsiEncoding" in _steps(a)["BaseEncodingFallback"].source_desc


def test_unreadable_program_falls_back_to_standard_encoding():
    pdf = pikepdf.new()
    program = pdf.make_stream(b"\x01\x00\x04\x02garbage that is no CFF")
    program.Subtype = pikepdf.Name.Type1C
    desc = pikepdf.Dictionary(Type=pikepdf.Name.FontDescriptor, FontName=pikepdf.Name("/Foo"), Flags=4,
                              FontFile3=program)
    font = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name("/Foo"),
                              FontDescriptor=desc)
    a, quote = _glyphs(_page(font, b"A'", pdf))
    assert (a.unicode, quote.unicode) == ("A", "\u2019")  # StandardEncoding 0x27 is quoteright
    assert a.method == "StandardEncodingFallback" and a.resolution.confidence == "heuristic"
    assert "cannot be read" in _steps(a)["StandardEncodingFallback"].detail


def _truetype(cmap: dict[int, str], post_names: bool) -> bytes:
    def edit(font) -> None:
        if not post_names:  # only a (3,0) symbol cmap, codes at U+F0xx
            font["cmap"].tables = [t for t in font["cmap"].tables if t.platformID == 3]
            font["cmap"].tables[0].platEncID = 0

    return build_truetype([".notdef", *sorted(set(cmap.values()))], _triangle, cmap=cmap, names=post_names,
                          metrics=(500, 0), family="Sym", edit=edit)


def _triangle(pen, i: int, name: str) -> None:
    pen.moveTo((0, 0)), pen.lineTo((0, 500)), pen.lineTo((500, 0)), pen.closePath()


def test_symbolic_truetype_code_as_unicode():
    pdf = pikepdf.new()
    program = _truetype({0xF041: "glyph1", 0xF042: "glyph2"}, post_names=False)
    desc = pikepdf.Dictionary(Type=pikepdf.Name.FontDescriptor, FontName=pikepdf.Name("/Sym"), Flags=4,
                              FontFile2=pdf.make_stream(program))
    font = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.TrueType, BaseFont=pikepdf.Name("/Sym"),
                              FontDescriptor=desc, FirstChar=65, LastChar=66, Widths=[500, 500])
    a, b = _glyphs(_page(font, b"AB", pdf))
    assert (a.unicode, b.unicode) == ("A", "B")
    assert a.method == "CodeAsUnicode" and a.resolution.gid == 1
    assert _steps(a)["FontProgram"].result == "miss" or _steps(a)["FontProgram"].unicode is None


def _type0(pdf, program: bytes | None = None) -> pikepdf.Dictionary:
    cid = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.CIDFontType2, BaseFont=pikepdf.Name("/X"),
                             CIDSystemInfo=pikepdf.Dictionary(Registry=pikepdf.String("Adobe"),
                                                              Ordering=pikepdf.String("Identity"), Supplement=0),
                             CIDToGIDMap=pikepdf.Name.Identity, DW=1000)
    if program is not None:
        cid.FontDescriptor = pikepdf.Dictionary(Type=pikepdf.Name.FontDescriptor, FontName=pikepdf.Name("/X"),
                                                Flags=4, FontFile2=pdf.make_stream(program))
    return pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type0, BaseFont=pikepdf.Name("/X"),
                              Encoding=pikepdf.Name("/Identity-H"), DescendantFonts=[pdf.make_indirect(cid)])


def test_identity_cids_as_unicode_without_tounicode():
    pdf = pikepdf.new()
    records = _glyphs(_page(_type0(pdf), "Hé語".encode("utf-16-be"), pdf))
    assert "".join(r.unicode for r in records) == "Hé語"
    assert {r.method for r in records} == {"CIDAsUnicode"}
    assert records[0].resolution.tounicode_only == "H" and records[0].resolution.spec_unicode == ""


def test_identity_cids_prefer_the_program_cmap_through_cidtogidmap():
    pdf = pikepdf.new()
    program = _truetype({0x3042: "a-hira", 0x41: "A"}, post_names=True)  # GID 1 = A, GID 2 = あ
    records = _glyphs(_page(_type0(pdf, program), b"\x00\x01\x00\x02", pdf))
    assert [(r.unicode, r.method) for r in records] == [("A", "FontProgram"), ("\u3042", "FontProgram")]
    assert all(r.resolution.confidence == "spec" for r in records)


# -- CJK -----------------------------------------------------------------------------------------------

def test_newer_cid_data_covers_japan1_7_and_adobe_kr():
    japan1 = cid_to_unicode("Adobe", "Japan1")
    assert japan1(15117) is not None and japan1(20000) == "\u9a41" and japan1(23057) is not None
    assert cid_to_unicode("Adobe", "KR")(1000) is not None


def test_cjk_family_names_pick_a_codepage():
    assert legacy_cjk_codec("SimSun") == "gbk" and legacy_cjk_codec("ABCDEF+MingLiU,Bold") == "big5"
    assert legacy_cjk_codec("黑体".encode("gbk").decode("latin-1")) == "gbk"  # /#BA#DA#CC#E5
    assert legacy_cjk_codec("MS-Mincho") == "cp932" and legacy_cjk_codec("Helvetica") is None


def test_gbk_bytes_in_a_simple_font_named_songti():
    pdf = pikepdf.new()
    font = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.TrueType,
                              BaseFont=pikepdf.Name("/Songti"),
                              Encoding=pikepdf.Name.WinAnsiEncoding, FirstChar=32, LastChar=255, Widths=[500] * 224)
    # /#CB#CE#CC#E5 is 宋体 in GBK, as S22PDF writes it (pikepdf would escape the #)
    records = _glyphs(_page(font, "北斗星 A1".encode("gbk"), pdf), (b"/Songti", b"/#CB#CE#CC#E5"))
    assert "".join(r.unicode for r in records) == "北斗星 A1"
    first = records[0]
    assert (first.glyph.code, first.method) == ("北".encode("gbk"), "LegacyCJKCodepage")
    assert first.resolution.confidence == "heuristic" and first.resolution.tounicode_only == "\ub1b1"
    assert _steps(first)["Encoding"].result == "skipped" and records[-1].method == "Encoding"
    assert records[1].glyph.page_xy[0] > records[0].glyph.page_xy[0]  # two bytes' advance each


# -- real files ----------------------------------------------------------------------------------------

def _pdfjs(name: str):
    path = PDFJS / name
    if not path.exists():
        pytest.skip(f"{name} not in corpus-pdfjs")
    return path


def _mupdf_text(path) -> str:
    trace = subprocess.run(["mutool", "trace", str(path), "1"], capture_output=True, timeout=60).stdout.decode()
    chars = re.findall(r'<g unicode="([^"]*)"', trace)
    import html

    return "".join("".join(html.unescape(c) for c in chars).split()).replace("\ufffd", "")


def _ours(path) -> tuple[str, list]:
    doc = Document.open(path)
    records = list(page_glyphs(doc, doc.page_ref(1)))
    return "".join("".join(r.unicode for r in records).split()), records


# (file, heuristic): page 1 of each reads nothing by the spec alone; the heuristic recovers
# what MuPDF outputs. Files from pdf.js's regression suite (corpus-pdfjs).
REAL = [
    ("issue14999_reduced.pdf", "BaseEncodingFallback"),  # Type3, /Differences names like /BT /D5
    ("Type3WordSpacing.pdf", "TeXGlyphList"),
    ("issue11915.pdf", "CIDAsUnicode"),  # Identity-H, Unicode values as CIDs
    ("bug1650302_reduced.pdf", "CIDAsUnicode"),
    ("bug864847.pdf", "StandardEncodingFallback"),
    ("issue4402_reduced.pdf", "CodeAsUnicode"),  # Type0, private CMap, no ToUnicode
    ("issue9655_reduced.pdf", "NumericGlyphName"),
    ("issue20489.pdf", "LegacyCJKCodepage"),  # 宋体 as /#CB#CE#CC#E5, GBK bytes
    ("issue5954.pdf", "MissingFontSubstitute"),  # Tf /F1 with no /Font resources at all
]


@pytest.mark.parametrize("name, method", REAL)
def test_heuristics_on_real_files(name, method):
    path = _pdfjs(name)
    text, records = _ours(path)
    found = [r for r in records if r.method == method]
    assert found and all(r.resolution.confidence == "heuristic" and r.resolution.spec_unicode == ""
                         for r in found)
    assert all(method in str(r.path[-1]) and "heuristic" in str(r.path[-1]) for r in found)
    if shutil.which("mutool") is None or method == "LegacyCJKCodepage":  # MuPDF prints Latin-1 there
        return
    ours = "".join("".join(r.unicode for r in found).split())
    mupdf = _mupdf_text(path)
    assert ours and (ours in mupdf or all(ch in mupdf for ch in ours))


def test_a_tounicode_entry_that_is_a_control_character_is_degenerate_and_the_fix_replaces_it():
    """ToUnicode maps <63> to U+000D; the Type3 glyph's name /CR means nothing: extractors
    output U+000D, the heuristics say the glyph reads "c", the report calls the entry
    degenerate and the fix plan replaces it."""
    from pdfinspect.content.fontreports import font_reports
    from pdfinspect.fonts.fix import REPLACE, plan_font

    pdf, font = _type3(["CR", "CS"])
    font.Encoding = _differences(0x63, ["CR", "CS"])
    font.ToUnicode = pdf.make_stream(b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
                                     b"1 begincodespacerange <00> <ff> endcodespacerange\n"
                                     b"1 beginbfchar <63> <000D> endbfchar\nendcmap end end\n")
    buf = io.BytesIO()
    _page(font, b"cd", pdf).save(buf)
    doc = Document(buf.getvalue())
    c, d = list(page_glyphs(doc, doc.page_ref(1)))
    assert (c.unicode, c.method, d.unicode) == ("\r", "ToUnicode", "d")  # what extractors output
    fallback = _steps(c)["BaseEncodingFallback"]
    assert fallback.result == "hit" and fallback.unicode == "c"  # what the glyph reads instead
    report, = font_reports(doc)
    degenerate = {r.id: r for r in report.reasons}["tounicode_degenerate"]
    assert degenerate.codes == (b"c",)
    fix = plan_font(report.font, report.names, report.resolutions)
    assert not fix.skipped and "tounicode_degenerate" in fix.reasons
    assert [(c.code, c.action, c.after) for c in fix.codes if c.code == b"c"] == [(b"c", REPLACE, "c")]


def test_a_font_missing_from_the_resources_gets_a_stand_in_and_says_so(tmp_path):
    from pdfinspect.content.fontreports import font_reports

    pdf = _page(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Courier),
                b"")
    pdf.pages[0].Contents = pdf.make_stream(b"BT /F8 9 Tf /F1 10 Tf 10 10 Td (ok) Tj /F9 20 Tf (Gone \222) Tj ET")
    pdf.save(tmp_path / "missing.pdf")
    doc = Document.open(tmp_path / "missing.pdf")
    records = list(page_glyphs(doc, doc.page_ref(1)))
    stand_in = [r for r in records if r.step.font.substitute_for == "F9"]
    assert "".join(r.unicode for r in stand_in) == "Gone \u2019"  # WinAnsiEncoding's 0x92
    assert all(r.method == "MissingFontSubstitute" and r.resolution.confidence == "heuristic"
               and r.resolution.spec_unicode == "" for r in stand_in)
    assert all(r.step.font.substitute_for is None and r.method == "Encoding" for r in records[:2])
    # the pen moves by Times-Roman's widths, as MuPDF draws the text
    if shutil.which("mutool"):
        trace = subprocess.run(["mutool", "trace", str(tmp_path / "missing.pdf"), "1"], capture_output=True,
                               text=True).stdout
        advances = [float(a) for a in re.findall(r'<g [^>]*adv="([^"]+)"', trace)][2:6]
        assert advances == pytest.approx([r.glyph.width for r in stand_in][:4], abs=1e-3)
    reports = {r.names: r for r in font_reports(doc)}
    missing = reports[("F9",)]
    assert missing.reason("font_missing").codes == tuple(sorted({r.glyph.code for r in stand_in}))
    assert missing.diagnosis.startswith("/F9 is not in the /Font resources")
    assert reports[("F1",)].reason("font_missing") is None
    assert len(reports) == 2  # /F8's stand-in shows nothing: not reported


def test_dingbats_names_read_through_the_zapf_list_whatever_the_base_font():
    # a1…a206 in /Differences of a font that is not called ZapfDingbats (a subset, a clone)
    pdf, _ = _type3(["x"])
    names = ["a1", "a2", "a10", "a12", "a120"]
    font = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name("/ABCDEF+Pi"),
                              Encoding=_differences(0x21, names))
    records = _glyphs(_page(font, bytes(range(0x21, 0x26)), pdf))
    assert "".join(r.unicode for r in records) == "\u2701\u2702\u2721\u261e\u2460"  # ✁✂✡☞①, the ITC list (fontTools)
    assert all("ITC Zapf Dingbats list" in r.path[1].detail for r in records)
    plain = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name("/ABCDEF+Pi"),
                               Encoding=_differences(0x21, ["A", "B"]))
    assert "".join(r.unicode for r in _glyphs(_page(plain, b"!\"", pikepdf.new()))) == "AB"
