"""The font model and embedded programs on real producers' fonts, checked against pikepdf
(the dictionaries), fontTools (the programs) and ``mutool trace`` (glyph names and GIDs)."""
from __future__ import annotations

import io
import re
import shutil
import subprocess

import pytest

from conftest import corpus_file, sample
from pdfinspect.content.interpreter import iter_steps
from pdfinspect.content.textlayout import page_glyphs
from pdfinspect.core.document import Document
from pdfinspect.fonts.embedded import load_program
from pdfinspect.fonts.font import FontCache

pikepdf = pytest.importorskip("pikepdf")
needs_mutool = pytest.mark.skipif(shutil.which("mutool") is None, reason="mutool absent")


def _fonts(path):
    doc = Document.open(path)
    fonts = FontCache(doc)
    used = {s.font for s in iter_steps(doc, doc.page_ref(1), fonts) if s.font is not None}
    return doc, used


@needs_mutool
@pytest.mark.parametrize("name, kind", [
    ("pdflatex-cm-builtin-notounicode.pdf", "Type1"),  # built-in encoding names
    ("pdflatex-lm-t1-differences-notounicode.pdf", "Type1"),  # /Differences names
    ("gs-ps2pdf-ascii85-embedded.pdf", "Type1C"),  # CFF charset + encoding
    ("libreoffice-ru-el-ja-tagged-pdfa2b.pdf", "TrueType"),  # (1,0) cmap → GID
    ("platex-dvipdfmx-ja-ipa-cidtype2.pdf", "TrueType"),  # CIDFontType2, CIDToGIDMap /Identity
    ("uplatex-dvipdfmx-ja-noto-tounicode.pdf", "CIDFontType0C"),  # CID-keyed CFF charset
])
def test_glyph_names_and_gids_match_mupdf(name, kind):
    path = corpus_file(name)
    doc = Document.open(path)
    records = list(page_glyphs(doc, doc.page_ref(1)))
    assert any(r.step.font.program_kind == kind for r in records)
    out = subprocess.run(["mutool", "trace", str(path), "1"], capture_output=True, text=True).stdout
    theirs = re.findall(r'<g unicode="[^"]*" glyph="([^"]*)"', out)
    assert len(theirs) == len(records)
    for r, glyph in zip(records, theirs):
        res = r.resolution
        # MuPDF names a glyph, or gives its GID; for CID-keyed CFF, FreeType's index is the CID
        cff_cid = res.glyph_name[3:].lstrip("0") or "0" if res.glyph_name and res.glyph_name.startswith("cid") else None
        assert glyph in (res.glyph_name, str(res.gid), cff_cid), (r.index, glyph, res)


def test_font_dictionaries_read_like_pikepdf():
    path = corpus_file("gs-ps2pdf-base14-czech.pdf")
    doc, used = _fonts(path)
    with pikepdf.open(path) as pdf:
        for font in used:
            d = pdf.get_object(font.ref.num, font.ref.gen)
            assert font.base_font == str(d.BaseFont)[1:]
            assert font.widths == tuple(float(w) for w in d.get("/Widths", []))
            enc = d.get("/Encoding")
            if isinstance(enc, pikepdf.Dictionary) and "/Differences" in enc:
                code, expected = None, {}
                for item in enc.Differences:
                    if isinstance(item, int):
                        code = item
                    else:
                        expected[code] = str(item)[1:]
                        code += 1
                assert font.differences == expected
            desc = d.get("/FontDescriptor")
            if desc is not None:
                assert font.symbolic == bool(int(desc.Flags) & 4)


def test_standard_fonts_take_their_base_encoding_per_9_6_6():
    doc, used = _fonts(corpus_file("gs-ps2pdf-base14-czech.pdf"))
    by_name = {f.base_font: f for f in used}
    # no /Encoding, nonsymbolic, not embedded: StandardEncoding (9.6.6.2)
    assert by_name["Helvetica"].encoding_base == "StandardEncoding"
    # /Encoding with /BaseEncoding: that one, /Differences over it
    assert by_name["Times-Roman"].encoding_base == "WinAnsiEncoding"


def test_type1_builtin_encoding_matches_fonttools_t1lib():
    from fontTools.t1Lib import T1Font

    path = corpus_file("pdflatex-cm-builtin-notounicode.pdf")
    doc, used = _fonts(path)
    font = next(f for f in used if f.base_font.endswith("CMMI10"))
    prog = load_program(doc, font)
    data = doc.stream_data(doc.get(font.program_ref.num)).data
    t1 = T1Font.__new__(T1Font)
    t1.data, t1.encoding = data, "ascii"
    enc = t1["Encoding"]
    assert prog.builtin_encoding == {i: n for i, n in enumerate(enc) if n != ".notdef"}
    assert set(prog.glyph_names) == set(t1["CharStrings"].keys())


def test_truetype_program_cmaps_match_fonttools():
    from fontTools.ttLib import TTFont

    path = corpus_file("libreoffice-ru-el-ja-tagged-pdfa2b.pdf")
    doc, used = _fonts(path)
    font = next(f for f in used if f.program_kind == "TrueType")
    prog = load_program(doc, font)
    tt = TTFont(io.BytesIO(doc.stream_data(doc.get(font.program_ref.num)).data))
    order = tt.getGlyphOrder()
    for sub in tt["cmap"].tables:
        assert prog.cmaps[(sub.platformID, sub.platEncID)] == {c: order.index(g) for c, g in sub.cmap.items()}


def test_type3_charprocs_are_listed_not_run():
    path = corpus_file("latex-dvips-pk300-type3.pdf")
    doc = Document.open(path)
    steps = list(iter_steps(doc, doc.page_ref(1)))
    glyphs = [g for s in steps for g in s.glyphs]
    with pikepdf.open(path) as pdf:
        procs = {v.objgen for f in pdf.pages[0].Resources.Font.values() for v in f.CharProcs.values()}
    assert glyphs and all((g.charproc.num, g.charproc.gen) in procs for g in glyphs)
    assert {s.source for s in steps} == {doc.page_ref(1)}  # nothing ran inside a CharProc


def test_cid_widths_from_w_and_dw():
    path = sample("cid-identity.pdf")
    doc, used = _fonts(path)
    font = next(f for f in used if f.cid_font is not None and f.cid_font.widths)
    with pikepdf.open(path) as pdf:
        cd = pdf.get_object(font.ref.num, font.ref.gen).DescendantFonts[0]
        w, dw = list(cd.W), float(cd.get("/DW", 1000))
    expected: dict[int, float] = {}
    i = 0
    while i < len(w):
        if isinstance(w[i + 1], pikepdf.Array):
            expected.update({int(w[i]) + k: float(x) for k, x in enumerate(w[i + 1])})
            i += 2
        else:
            expected.update({c: float(w[i + 2]) for c in range(int(w[i]), int(w[i + 1]) + 1)})
            i += 3
    for cid in range(0, max(expected) + 3):
        assert font.glyph_width(b"", cid) * 1000 == pytest.approx(expected.get(cid, dw))


def test_zapf_dingbats_without_widths_advances_by_its_standard_metrics(tmp_path):
    # pdfminer.six keys this font's metrics by the number in the glyph name (a1 → '\x01'):
    # looked up by character, every dingbat advanced by 0 and the space by a32's 790
    import pikepdf
    from pdfminer.fontmetrics import FONT_METRICS

    pdf = pikepdf.new()
    font = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                                BaseFont=pikepdf.Name.ZapfDingbats))
    shown = bytes(range(0x20, 0x7f))
    pdf.pages.append(pikepdf.Page(pikepdf.Dictionary(
        Type=pikepdf.Name.Page, MediaBox=[0, 0, 600, 100], Resources=pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font)),
        Contents=pdf.make_stream(b"BT /F1 1 Tf (" + shown.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")
                                 + b") Tj ET"))))
    pdf.save(tmp_path / "zd.pdf")
    doc = Document.open(tmp_path / "zd.pdf")
    glyphs = [g for s in iter_steps(doc, doc.page_ref(1)) for g in s.glyphs]
    table = FONT_METRICS["ZapfDingbats"][1]
    font = FontCache(doc).get(doc.resolve(doc.resolve(doc.page_ref(1)).get("Resources")).get("Font").get("F1"))
    for g in glyphs:
        name = font.glyph_name(g.code[0])
        expected = 278 if name == "space" else table[chr(int(name[1:]))]
        assert g.width == pytest.approx(expected / 1000), name
    if shutil.which("mutool"):
        trace = subprocess.run(["mutool", "trace", str(tmp_path / "zd.pdf"), "1"], capture_output=True, text=True).stdout
        advances = [float(a) for a in re.findall(r'<g [^>]*adv="([^"]+)"', trace)]
        assert advances == pytest.approx([g.width for g in glyphs], abs=1e-3)
