"""The resolver: every method and its path, conflicts and flags, the κ case, ActualText,
and overall agreement with MuPDF on the corpus."""
from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import CORPUS, corpus_file, corpus_files, sample
from pdfinspect.content.textlayout import page_glyphs
from pdfinspect.core.document import Document
from pdfinspect.fonts.resolve import HIT, MISS, SKIPPED, Resolver

pikepdf = pytest.importorskip("pikepdf")
AGREE = CORPUS.parent / "tools" / "glyph_agree.py"
DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


def _records(path, page=1):
    doc = Document.open(path)
    return list(page_glyphs(doc, doc.page_ref(page)))


def _steps(record) -> dict:
    return {p.method: p for p in record.path}


def _pdf_with_font(font: dict, shown: bytes, tounicode: bytes | None = None, program: bytes | None = None):
    """A one-page PDF showing ``shown`` with font /F1 built from ``font`` (pikepdf writes it)."""
    pdf = pikepdf.new()
    page = pdf.add_blank_page()
    d = pikepdf.Dictionary(Type=pikepdf.Name.Font, **font)
    if tounicode is not None:
        d.ToUnicode = pdf.make_stream(tounicode)
    if program is not None:
        d.FontDescriptor = pikepdf.Dictionary(Type=pikepdf.Name.FontDescriptor, Flags=4,
                                              FontName=font["BaseFont"], FontFile2=pdf.make_stream(program))
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=pdf.make_indirect(d)))
    page.Contents = pdf.make_stream(b"BT /F1 10 Tf 10 10 Td <" + shown.hex().encode() + b"> Tj ET")
    buf = io.BytesIO()
    pdf.save(buf)
    doc = Document(buf.getvalue())
    return list(page_glyphs(doc, doc.page_ref(1)))


def _tounicode(*pairs: tuple[str, str]) -> bytes:
    lines = "\n".join(f"<{a}> <{b}>" for a, b in pairs)
    return (f"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapType 2 def\n"
            f"1 begincodespacerange <00> <ff> endcodespacerange\n{len(pairs)} beginbfchar\n{lines}\n"
            f"endbfchar endcmap CMapName currentdict /CMap defineresource pop end end").encode()


def test_kappa_tounicode_miss_falls_back_to_the_type1_builtin_encoding():
    records = _records(sample("kappa.pdf"))
    kappa = next(r for r in records if r.glyph.code == b"\x14")
    steps = _steps(kappa)
    assert steps["ToUnicode"].result == MISS and steps["ToUnicode"].source is not None
    assert steps["FontProgram"].result == HIT and "/kappa" in steps["FontProgram"].looked_up
    assert (kappa.unicode, kappa.method, kappa.resolution.glyph_name) == ("\u03ba", "FontProgram", "kappa")
    assert kappa.resolution.has_flag("tounicode_miss")
    assert any("U+0014" in f.message for f in kappa.resolution.flags)
    sharp = next(r for r in records if r.glyph.code == b"\x5d")
    assert (sharp.unicode, sharp.method) == ("\u266f", "ToUnicode")


def test_differences_names_go_through_the_agl():
    path = corpus_file("pdflatex-lm-t1-differences-notounicode.pdf")
    with pikepdf.open(path) as pdf:
        fonts = pdf.pages[0].Resources.Font
        named = {}
        for key, f in fonts.items():
            enc = f.get("/Encoding")
            if isinstance(enc, pikepdf.Dictionary):
                code = None
                for item in enc.Differences:
                    if isinstance(item, int):
                        code = item
                    else:
                        named[(key[1:], code)] = str(item)[1:]
                        code += 1
    records = [r for r in _records(path) if (r.step.gstate.text.font_name, r.glyph.code[0]) in named]
    assert len(records) > 300
    for r in records:
        # TeX names the AGL lacks (rho1, summationdisplay) and the AGL's mu in a TeX font
        # (Greek, not MICRO SIGN) are the TeX glyph list's, a heuristic after the spec's step
        assert r.method == "Encoding" or (r.method == "TeXGlyphList" and r.resolution.confidence == "heuristic")
        assert r.resolution.glyph_name == named[(r.step.gstate.text.font_name, r.glyph.code[0])]
        assert "/Differences" in _steps(r)["Encoding"].source_desc


def test_identity_h_without_tounicode_uses_the_adobe_japan1_collection():
    records = _records(corpus_file("platex-dvipdfmx-ja-ipa-cidtype2.pdf"))
    cjk = [r for r in records if r.step.font.is_type0]
    assert cjk and all(r.method == "CIDCollection" for r in cjk)
    step = _steps(cjk[0])["CIDCollection"]
    assert "Adobe-Japan1-UCS2" in step.detail and f"CID {cjk[0].glyph.cid}" in step.looked_up
    assert _steps(cjk[0])["ToUnicode"].result == SKIPPED


def test_adobe_identity_is_not_a_public_collection():
    records = _records(corpus_file("uplatex-dvipdfmx-ja-noto-tounicode.pdf"))
    cjk = next(r for r in records if r.step.font.is_type0)
    assert cjk.method == "ToUnicode" and _steps(cjk)["CIDCollection"].result == SKIPPED


def test_type1_without_encoding_or_tounicode_reads_the_program():
    records = _records(corpus_file("pdflatex-cm-builtin-notounicode.pdf"))
    assert sum(r.method == "FontProgram" for r in records) > 0.95 * len(records)
    ligature = next(r for r in records if r.resolution.glyph_name == "fi")
    assert ligature.unicode == "\ufb01"


@pytest.mark.skipif(not DEJAVU.exists(), reason="DejaVuSans.ttf absent")
def test_symbolic_truetype_code_to_gid_to_unicode_through_cmap():
    program = DEJAVU.read_bytes()
    records = _pdf_with_font({"Subtype": pikepdf.Name.TrueType, "BaseFont": pikepdf.Name("/DejaVuSans")},
                             b"\x41\xe9", program=program)
    from fontTools.ttLib import TTFont

    tt = TTFont(str(DEJAVU))
    assert tt["cmap"].getcmap(3, 0) is None
    mac = tt["cmap"].getcmap(1, 0).cmap
    for r in records:
        steps = _steps(r)
        assert r.method == "FontProgram" and steps["Encoding"].result == SKIPPED
        # 9.6.6.4: a symbolic font without a (3,0) subtable maps codes through (1,0)
        code = r.glyph.code[0]
        assert r.resolution.gid == tt.getGlyphID(mac[code]) and "(1,0)" in steps["FontProgram"].looked_up
        assert r.unicode == bytes([code]).decode("mac_roman")


def test_standard_14_symbolic_fonts_use_their_builtin_encodings():
    # Annex D.5/D.6: Symbol 0x61 is /alpha, ZapfDingbats 0x21 is /a1 (ITC list: U+2701)
    symbol = _pdf_with_font({"Subtype": pikepdf.Name.Type1, "BaseFont": pikepdf.Name.Symbol}, b"a")
    dingbat = _pdf_with_font({"Subtype": pikepdf.Name.Type1, "BaseFont": pikepdf.Name.ZapfDingbats}, b"!")
    assert (symbol[0].unicode, symbol[0].resolution.glyph_name) == ("\u03b1", "alpha")
    assert (dingbat[0].unicode, dingbat[0].resolution.glyph_name) == ("\u2701", "a1")


def test_agl_rules_meaningless_names_and_flags():
    enc = pikepdf.Dictionary(Type=pikepdf.Name.Encoding, BaseEncoding=pikepdf.Name.WinAnsiEncoding,
                             Differences=[65, pikepdf.Name("/g123"), pikepdf.Name("/uni0394"),
                                          pikepdf.Name("/f_f_i"), pikepdf.Name("/a.sc")])
    records = _pdf_with_font({"Subtype": pikepdf.Name.Type1, "BaseFont": pikepdf.Name.Helvetica,
                              "Encoding": enc}, b"ABCDE",
                             tounicode=_tounicode(("45", "E000"), ("44", "FFFD")))
    a, b, c, d, e = records
    # /g123 means nothing to the spec; the base encoding's letter is a heuristic (pdfminer.six, MuPDF)
    assert a.resolution.spec_unicode == "" and a.resolution.has_flag("meaningless_glyph_name")
    assert (a.unicode, a.method, a.resolution.confidence) == ("A", "BaseEncodingFallback", "heuristic")
    assert (b.unicode, c.unicode) == ("\u0394", "ffi")
    assert d.method == "ToUnicode" and d.resolution.has_flag("replacement_character")
    assert e.unicode == "\ue000" and e.resolution.has_flag("private_use")
    # ToUnicode wins; what the encoding says (a.sc → "a", WinAnsi /E) are conflicts
    assert [(x.method, x.unicode) for x in d.resolution.conflicts] == [("Encoding", "a")]
    assert [(x.method, x.unicode) for x in e.resolution.conflicts] == [("Encoding", "E")]


def test_each_code_of_a_font_is_resolved_once():
    doc = Document.open(corpus_file("pdflatex-cm-tounicode.pdf"))
    resolver = Resolver(doc)
    records = list(page_glyphs(doc, doc.page_ref(1), resolver))
    same = [r for r in records if r.glyph.code == records[1].glyph.code and r.step.font is records[1].step.font]
    assert len(same) > 1 and all(r.resolution is same[0].resolution for r in same)


def test_actual_text_replaces_the_glyphs_it_covers():
    path = sample("content.pdf")
    with pikepdf.open(path) as pdf:
        props = next(i.operands[1] for i in pikepdf.parse_content_stream(pdf.pages[0])
                     if str(i.operator) == "BDC" and isinstance(i.operands[1], pikepdf.Dictionary))
    covered = [r for r in _records(path) if r.actual_text is not None]
    assert "".join(r.unicode for r in covered) == str(props.ActualText)
    assert {r.method for r in covered} == {"ActualText"} and covered[1].unicode == ""
    assert covered[0].path[-1].method == "ActualText"


def test_every_actual_text_sequence_gives_its_text_when_records_are_streamed():
    # Consumed one by one (as the text and fonts commands do), earlier steps are freed; a
    # later sequence must not be taken for one whose text was already given.
    pdf = pikepdf.new()
    page = pdf.add_blank_page()
    font = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                                BaseFont=pikepdf.Name.Helvetica))
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font))
    page.Contents = pdf.make_stream(b"BT /F1 12 Tf 72 700 Td " + b" ".join(
        b"/Span <</ActualText (w%d)>> BDC (a) Tj EMC" % i for i in range(50)) + b" ET")
    buf = io.BytesIO()
    pdf.save(buf)
    doc = Document(buf.getvalue())
    assert [r.unicode for r in page_glyphs(doc, doc.page_ref(1))] == [f"w{i}" for i in range(50)]


@pytest.mark.skipif(shutil.which("mutool") is None or not AGREE.exists(), reason="mutool or tool absent")
def test_glyph_unicode_agrees_with_mupdf_on_the_corpus(tmp_path):
    from pdfinspect.cli.content import glyph_json

    matched = total = 0
    for path in corpus_files():
        password = "opensesame" if "userpw" in path.name else ""
        try:
            doc = Document.open(path, password=password)
            recs = [glyph_json(r) for r in page_glyphs(doc, doc.page_ref(1))] if doc.page_ref(1) else []
        except Exception:  # unreadable damaged files count as zero matches
            recs = []
        ours, trace = tmp_path / "ours.json", tmp_path / "trace.txt"
        ours.write_text(json.dumps(recs))
        trace.write_bytes(subprocess.run(["mutool", "trace", "-p", password, str(path), "1"],
                                         capture_output=True).stdout)
        out = subprocess.run([sys.executable, str(AGREE), str(ours), str(trace)],
                             capture_output=True, text=True).stdout.split()
        matched, total = matched + int(out[1]), total + int(out[3])
    assert total > 5000 and matched / total >= 0.99
