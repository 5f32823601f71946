"""Emulated extractors (pdfinspect.extractors) against what the real ones output on small built
PDFs: a gap of 0.11 em inside a TJ is a space for pdfminer.six and poppler, not for pypdf,
pdfium and MuPDF. Where a real extractor is importable (or on the PATH) the test checks it too."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from conftest import CORPUS, emulated_text, helvetica_pdf
from pdfinspect.content.textlayout import page_glyphs
from pdfinspect.core.document import Document
from pdfinspect.extractors import NAMES, emulate, oracle, page_frame
from pdfinspect.fonts import heuristics

pikepdf = pytest.importorskip("pikepdf")

# TJ −110: a gap of 0.11 em between "ab" and "cd" (Helvetica 10 pt; its space is 0.278 em)
GAP_TEXT = b"BT /F1 10 Tf 72 700 Td [(ab) -110 (cd)] TJ ET"
EXPECTED = {"pdfminer": "ab cd", "poppler": "ab cd", "pypdf": "abcd", "pdfium": "abcd", "mupdf": "abcd",
            "pdfjs": "ab cd", "pdfbox": "abcd"}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_gap_of_011_em(tmp_path, name):
    path = helvetica_pdf(tmp_path, GAP_TEXT)
    assert emulated_text(path, name).split("\n")[0] == EXPECTED[name]


@pytest.mark.parametrize("name", oracle.REAL)
def test_gap_of_011_em_real(tmp_path, name):
    if not oracle.available(name):
        pytest.skip(f"{name} is not installed here")
    path = helvetica_pdf(tmp_path, GAP_TEXT)
    real = oracle.run(name, path, 1)
    assert real.text is not None, real.error
    assert real.text.split() == EXPECTED[name].split()
    assert oracle.agreement(emulated_text(path, name), real.text) == 1.0


def test_each_decision_names_rule_and_constant(tmp_path):
    doc = Document.open(helvetica_pdf(tmp_path, GAP_TEXT))
    records = list(page_glyphs(doc, doc.page_ref(1)))
    c = next(d for d in emulate("pdfminer", records).decisions if d.record.unicode == "c")
    assert (c.before, c.rule) == (" ", "word-margin") and "word_margin 0.1" in c.detail
    c = next(d for d in emulate("mupdf", records).decisions if d.record.unicode == "c")
    assert (c.before, c.rule) == ("", "close") and "SPACE_DIST 0.15" in c.detail


def test_unmapped_code_per_extractor(tmp_path):
    # a Type0 font whose ToUnicode lacks the code: (cid:N), U+FFFD, the code itself
    pdf = pikepdf.new()
    tu = pdf.make_stream(b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /X def "
                         b"1 begincodespacerange <0000> <FFFF> endcodespacerange 1 beginbfchar <0041> <0041> "
                         b"endbfchar endcmap CMapName currentdict /CMap defineresource pop end end")
    cid = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.CIDFontType2,
                             BaseFont=pikepdf.Name.Arial, DW=500,
                             CIDSystemInfo=pikepdf.Dictionary(Registry="Adobe", Ordering="Identity", Supplement=0))
    font = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type0, BaseFont=pikepdf.Name.Arial,
                              Encoding=pikepdf.Name("/Identity-H"), DescendantFonts=[pdf.make_indirect(cid)],
                              ToUnicode=tu)
    page = pdf.add_blank_page()
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=pdf.make_indirect(font)))
    page.Contents = pdf.make_stream(b"BT /F1 10 Tf 72 700 Td <00410042> Tj ET")
    path = tmp_path / "cid.pdf"
    pdf.save(path)
    assert emulated_text(str(path), "pdfminer").strip() == "A(cid:66)"
    assert emulated_text(str(path), "mupdf").strip() == "A\ufffd"
    assert emulated_text(str(path), "pypdf").strip() == "AB"


def test_heuristic_users_come_from_one_table():
    # MuPDF 1.21 writes U+FFFD for Identity CIDs with no ToUnicode: it does not read CIDs as Unicode
    assert "MuPDF" not in heuristics.CID_AS_UNICODE.used_by
    assert "pdfminer.six" not in heuristics.CID_AS_UNICODE.used_by
    assert "MuPDF" in heuristics.LEGACY_CJK_CODEPAGE.used_by


def _cli(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pdfinspect", *args], capture_output=True, text=True, timeout=300)


def test_text_as(tmp_path):
    path = helvetica_pdf(tmp_path, GAP_TEXT)
    assert _cli("text", path, "--as", "pdfminer").stdout.strip() == "ab cd"
    assert _cli("text", path, "--as", "pypdf").stdout.strip() == "abcd"
    assert _cli("text", path, "--as", "nope").returncode == 2


def test_extractors_command(tmp_path):
    if not oracle.available("pypdf"):
        pytest.skip("pypdf is not installed here")
    path = helvetica_pdf(tmp_path, b"BT /F1 10 Tf 72 700 Td [(T) -200 (ower)] TJ ET")
    done = _cli("extractors", path, "--only", "pypdf,pdfminer", "--json")
    result = json.loads(done.stdout)
    pypdf = result["extractors"]["pypdf"]
    assert pypdf["available"] and pypdf["real"].split() == ["T", "ower"] and pypdf["agreement"] == 1.0
    assert pypdf["differences"] == []
    assert "pdfminer/pypdf" in result["pairwise"]


def test_extractors_command_explains_why_they_differ(tmp_path):
    path = helvetica_pdf(tmp_path, GAP_TEXT)
    done = _cli("extractors", path, "--only", "pypdf,pdfminer", "--json")
    [between] = json.loads(done.stdout)["disagreements"]
    assert between["glyph"] == 2 and between["unicode"] == "c"
    assert between["extractors"]["pdfminer"]["before"] == " " and between["extractors"]["pypdf"]["before"] == ""
    assert "0.95" in between["extractors"]["pypdf"]["detail"]


def test_align_explains_a_missing_space(tmp_path):
    path = helvetica_pdf(tmp_path, GAP_TEXT)
    doc = Document.open(path)
    em = emulate("pypdf", list(page_glyphs(doc, doc.page_ref(1))))
    [d] = oracle.align(em, "ab cd")
    assert (d.kind, d.ours, d.theirs, d.rule) == ("joined", "abcd", "ab cd", "tj-number")
    assert d.glyph == 2 and "0.95" in d.detail


SHARED_ITEMS_FILES = ["libreoffice-ru-el-ja-tagged-pdfa2b.pdf", "uplatex-dvipdfmx-ja-noto-tounicode.pdf",
                      "latex-dvips-pk300-type3.pdf"]


@pytest.mark.parametrize("name", SHARED_ITEMS_FILES)
def test_emulations_of_one_page_sharing_their_items_decide_as_each_alone(name):
    # the hidden-text and extractors commands let a page's emulations share what they read of
    # each glyph: each one must still decide exactly as it does alone, whichever ran before it
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"{path} is not here")
    doc = Document.open(path)
    records = list(page_glyphs(doc, doc.page_ref(1)))
    frame = page_frame(doc, doc.page_ref(1))
    shared: dict = {}
    for extractor in [*NAMES, *reversed(NAMES)]:
        together, alone = emulate(extractor, records, frame, shared), emulate(extractor, records, frame)
        assert together == alone, extractor
    assert records and len(shared) == len(records)
