"""Font reports (fonts/reasons.py): the contract other modules code against, the reasons
read back against the per-glyph resolution paths on every corpus file, and the diagnosis
on the cases that used to be told wrong."""
from __future__ import annotations

import dataclasses
import json
from collections import Counter

import pytest

from conftest import CORPUS, corpus_file, corpus_files, sample
from pdfinspect.content.fontreports import font_reports
from pdfinspect.content.textlayout import page_glyphs
from pdfinspect.core.document import Document
from pdfinspect.fonts.heuristics import CONFIDENCES
from pdfinspect.fonts.font import FontCache
from pdfinspect.fonts.reasons import REASON_DOCS, REASON_IDS, FontReport, Reason
from pdfinspect.fonts.resolve import MISS, Resolver

REQUIRED = ("no_tounicode", "tounicode_incomplete", "tounicode_conflict", "tounicode_degenerate",
            "tounicode_multibyte_on_simple_font", "numeric_glyph_names", "unknown_glyph_names",
            "identity_cid_no_tounicode", "symbolic_truetype_no_mapping", "font_program_unreadable",
            "pua_output", "control_or_fffd_output", "legacy_cjk_bytes_in_simple_font")
PDFJS = CORPUS.parent / "corpus-pdfjs"
# a sample of pdf.js's files: Type3 with unknown names, Identity-H without ToUnicode, an
# unreadable CFF, a private CMap, numeric names, GBK bytes, ZapfDingbats; skipped when absent
PDFJS_SAMPLE = ("issue14999_reduced.pdf", "issue11915.pdf", "bug866395.pdf", "issue4402_reduced.pdf",
                "issue9655_reduced.pdf", "issue20489.pdf", "ZapfDingbats.pdf")


def test_the_contract():
    assert set(REQUIRED) <= set(REASON_IDS) and len(set(REASON_IDS)) == len(REASON_IDS)
    assert all(rid.isidentifier() and rid == rid.lower() and REASON_DOCS[rid] for rid in REASON_IDS)
    assert [f.name for f in dataclasses.fields(Reason)] == ["id", "codes", "detail"]
    names = [f.name for f in dataclasses.fields(FontReport)]
    assert names[:9] == ["ref", "names", "subtype", "base_font", "pages", "methods", "confidence", "reasons",
                         "diagnosis"]


def _independent(doc) -> dict:
    """Per font ref: distinct code → resolution, from page_glyphs directly."""
    resolver, fonts = Resolver(doc), FontCache(doc)
    out: dict = {}
    for n in range(1, doc.page_count() + 1):
        for r in page_glyphs(doc, doc.page_ref(n), resolver, fonts):
            out.setdefault(r.step.font, {}).setdefault(r.glyph.code, r.resolution)
    return out


def _check(path, password=""):
    doc = Document.open(path, password=password)
    if doc.page_count() == 0:
        return 0
    truth = {(f.ref, f.base_font): codes for f, codes in _independent(doc).items()}
    checked = 0
    for rep in font_reports(doc):
        codes = truth.get((rep.ref, rep.base_font), {})
        ids = {r.id: set(r.codes) for r in rep.reasons}
        assert rep.codes == len(codes) and sum(rep.methods.values()) == len(codes)
        assert rep.methods == dict(Counter(r.method for r in codes.values()))
        assert rep.confidence == {c: sum(r.confidence == c for r in codes.values()) for c in CONFIDENCES}
        assert ids.get("implausible_guess", set()) == {c for c, r in codes.items() if r.confidence == "guess"}
        missed = {c for c, r in codes.items() if any(s.method == "ToUnicode" and s.result == MISS for s in r.path)}
        assert ids.get("tounicode_incomplete", set()) == missed, path.name
        assert ids.get("heuristic_only", set()) == {c for c, r in codes.items() if r.confidence == "heuristic"}
        assert ids.get("unresolved", set()) == {c for c, r in codes.items() if r.confidence == "none"}
        assert ids.get("tounicode_conflict", set()) == {c for c, r in codes.items() if r.method == "ToUnicode"
                                                          and r.conflicts}
        assert ids.get("no_tounicode", set()) == ({c for c, r in codes.items() if r.method not in (
            "Encoding", "CIDCollection")} if rep.font.tounicode is None else set())
        assert all(set(r.codes) <= set(codes) for r in rep.reasons)
        if rep.diagnosis:
            assert "misses" not in rep.diagnosis or missed
            assert "cannot be recovered" not in rep.diagnosis or ids.get("unresolved")
        checked += 1
    return checked


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.name)
def test_reasons_agree_with_the_glyph_paths_on_the_corpus(path):
    password = "opensesame" if "userpw" in path.name else ""
    _check(path, password)


@pytest.mark.parametrize("name", PDFJS_SAMPLE)
def test_reasons_agree_with_the_glyph_paths_on_pdfjs_files(name):
    path = PDFJS / name
    if not path.exists():
        pytest.skip(f"{name} not in corpus-pdfjs")
    _check(path)


def test_ligature_conflicts_are_not_counted_as_misses():
    # pdfTeX's ToUnicode covers every code; ligatures (ﬁ vs fi) disagree with the AGL
    reports = font_reports(Document.open(corpus_file("pdflatex-cm-tounicode.pdf")), pages=[1])
    conflicted = [r for r in reports if r.reason("tounicode_conflict")]
    assert conflicted
    for rep in conflicted:
        if rep.reason("tounicode_incomplete") is None:
            assert "misses" not in rep.diagnosis and "cannot be recovered" not in rep.diagnosis


def test_kappa_both_misses_and_the_heuristic_are_told(capsys):
    (rep,) = font_reports(Document.open(sample("kappa.pdf")))
    assert {b"\x14", b"\x5b"} <= set(rep.reason("tounicode_incomplete").codes)
    assert rep.reason("heuristic_only").codes == (b"\x5b",) and "TeXGlyphList" in rep.diagnosis
    assert "cannot be recovered" not in rep.diagnosis
    from pdfinspect.cli import main

    assert main(["fonts", str(sample("kappa.pdf")), "--json"]) == 0
    (font,) = json.loads(capsys.readouterr().out)
    reasons = {r["id"]: r for r in font["reasons"]}
    assert reasons["tounicode_incomplete"]["codes"] == ["14", "20", "5b"]
    assert font["confidence"]["heuristic"] == 1


def test_pages_are_one_based_and_optional():
    doc = Document.open(corpus_file("gs-ps2pdf-base14-czech.pdf"))
    assert doc.page_count() == 2
    everything = font_reports(doc)
    first = font_reports(doc, pages=[1])
    assert {p for r in everything for p in r.pages} == {1, 2}
    assert {p for r in first for p in r.pages} == {1}
    assert sum(r.codes for r in first) < sum(r.codes for r in everything)


def test_a_count_of_one_is_in_the_singular():
    """CMSY8 of issue7014.pdf: one code, whose ToUnicode (⇤) and name (asteriskmath) disagree."""
    path = PDFJS / "issue7014.pdf"
    if not path.exists():
        pytest.skip("issue7014.pdf not in corpus-pdfjs")
    (report,) = [r for r in font_reports(Document.open(path), pages=[1]) if r.base_font.endswith("CMSY8")]
    assert report.reason("tounicode_conflict").detail.endswith("disagree on 1 code")
    assert "1 codes" not in report.diagnosis
