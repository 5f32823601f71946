"""present.search: hits in decoded streams and strings, and in the extracted text of pages."""
from __future__ import annotations

import unicodedata

from hypothesis import given, settings, strategies as st

from pdfinspect.content.interpreter import iter_steps
from pdfinspect.core.document import Document
from pdfinspect.present.search import compile_query, compile_text_query, line_at, search_object, search_page_text

from conftest import sample


def page_hits(path, query, page=1, regex=False):
    doc = Document.open(path)
    steps = list(iter_steps(doc, doc.page_ref(page)))
    return [(h, steps[h.step]) for h in search_page_text(doc, page, compile_text_query(query, regex))]


def test_page_text_is_searched_through_tj_kerning_and_names_the_operator():
    # content.pdf draws [(W) 120 (A) -250.5 (VE)] TJ: "WA VE" once laid out
    (hit, step), = page_hits(sample("content.pdf"), "wa ve")
    assert step.op == "TJ" and [bytes(x.value) for x in step.operands[0][::2]] == [b"W", b"A", b"VE"]
    assert hit.offset == len("Hello\n") and hit.context.startswith("Hello WA VE apostrophe")
    assert page_hits(sample("content.pdf"), "wave") == []  # the gap of 250 units is a space


def test_page_text_hits_inside_forms_and_across_content_streams():
    (_, step), = page_hits(sample("content.pdf"), "own F2")
    assert step.depth == 1 and step.op == "Tj"  # in form Fm1, numbered in the page's sequence
    (_, step), = page_hits(sample("filters.pdf"), "split across")  # the string spans two streams
    assert step.op == "Tj"


def test_page_text_regex_and_every_hit_on_a_page():
    hits = page_hits(sample("content.pdf"), r"next\s+line", regex=True)
    assert [s.op for _, s in hits] == ["'", '"']
    assert [h.page for h, _ in page_hits(sample("pages.pdf"), "page 2", page=2)] == [2]
    assert search_page_text(Document.open(sample("pages.pdf")), 999, compile_text_query("x", False)) == []


def test_object_search_finds_stream_bytes_at_their_line_and_strings_at_their_key():
    doc = Document.open(sample("filters.pdf"))
    pattern = compile_query("ASCII85Decode", regex=False)
    hits = [h for obj in doc.iter_objects() for h in search_object(doc, obj, pattern, 1 << 20)]
    assert hits and all(h.where == "stream" for h in hits)
    for h in hits:
        data = doc.stream_data(doc.get(h.ref.num)).data
        assert data[h.offset:h.offset + 13] == b"ASCII85Decode"
        assert data.splitlines()[h.line - 1].find(b"ASCII85Decode") >= 0
    doc = Document.open(sample("lexical.pdf"))
    info = doc.resolve(doc.trailer["Info"])
    pattern = compile_query(info["Title"].value[:6].decode("latin-1"), regex=False)
    hits = [h for obj in doc.iter_objects() for h in search_object(doc, obj, pattern, 1 << 20)]
    assert any(h.key == "/Title" and h.where == "/Title" for h in hits)


def test_text_queries_match_utf16_strings_and_lines_count_cr_lf_and_crlf():
    assert compile_query("Ωμ", regex=False).search("x Ωμ".encode("utf-16-be"))
    assert [line_at(b"a\rb\r\nc\nd", i) for i in (0, 2, 5, 7)] == [1, 2, 3, 4]


def test_search_command_uses_the_same_engine():
    import json
    import subprocess
    import sys

    from conftest import ROOT

    def run(*argv):
        return subprocess.run([sys.executable, "-m", "pdfinspect", "search", *map(str, argv)], capture_output=True,
                              text=True, cwd=ROOT)
    f = sample("content.pdf")
    (hit,) = json.loads(run(f, "wa ve", "--json").stdout)
    doc = Document.open(f)
    (expected,) = search_page_text(doc, 1, compile_text_query("wa ve", False))
    assert (hit["page"], hit["op"], hit["offset"]) == (1, expected.step, expected.offset)
    assert run(f, "wa ve").stdout.startswith("page    1  op ")
    hits = json.loads(run(sample("minimal.pdf"), "hello, WORLD", "--objects", "--json").stdout)
    assert [(h["ref"], h["where"], h["line"]) for h in hits] == [("4 0 R", "stream", 1)]
    nothing = run(f, "no such words anywhere")
    assert nothing.returncode == 1 and nothing.stdout == ""
    bad = run(f, "(", "--regex")
    assert bad.returncode == 1 and "bad regular expression" in bad.stderr


def _ligature_page(tmp_path):
    """'oﬃce' (Helvetica's /ffi through /Differences) and 葛 followed by the variation selector
    U+E0100 (a ToUnicode of two code points) on one page."""
    import pikepdf

    pdf = pikepdf.new()
    page = pdf.add_blank_page()
    latin = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica,
                               Encoding=pikepdf.Dictionary(Type=pikepdf.Name.Encoding,
                                                           Differences=pikepdf.Array([1, pikepdf.Name("/ffi")])))
    cmap = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /T def "
            b"1 begincodespacerange <00> <FF> endcodespacerange 2 beginbfchar <01> <845BDB40DD00> "
            b"<02> <5C71> endbfchar endcmap CMapName currentdict /CMap defineresource pop end end")
    cjk = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica,
                             ToUnicode=pdf.make_stream(cmap))
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=latin, F2=cjk))
    page.Contents = pdf.make_stream(b"BT /F1 12 Tf 72 700 Td (the o\\001ce) Tj ET BT /F2 12 Tf 72 600 Td (\\001\\002) Tj ET")
    path = tmp_path / "ligature.pdf"
    pdf.save(path)
    return path


def test_page_text_search_folds_ligatures_and_variation_selectors(tmp_path):
    path = _ligature_page(tmp_path)
    (hit, step), = page_hits(path, "office")
    assert step.op == "Tj" and hit.offset == len("the ") and "o\ufb03ce" in hit.context
    (hit, step), = page_hits(path, "OFFICE")
    (hit, step), = page_hits(path, "\u845b\u5c71")  # the selector between the two is no obstacle
    assert step.op == "Tj" and "\U000e0100" in hit.context
    assert page_hits(path, "ofice") == []


def test_fold_keeps_the_way_back_to_the_text():
    from pdfinspect.present.search import fold

    folded, where = fold("o\ufb03ce \u845b\U000e0100!")
    assert folded == "office \u845b!"
    assert [where[i] for i in range(len(folded))] == [0, 1, 1, 1, 2, 3, 4, 5, 7]


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.text(alphabet=st.sampled_from("ab \n\u00e9\ufb03\uff21\u845b\ufe0f\U000e0100e\u0301\u00a8")))
def test_fold_is_each_character_folded_alone(text):
    """fold reads ASCII in runs: the same as folding each character on its own."""
    from pdfinspect.present.search import _variation_selector, fold

    pieces = [(i, "" if _variation_selector(c) else unicodedata.normalize("NFKD", c)) for i, c in enumerate(text)]
    assert fold(text) == ("".join(p for _, p in pieces), [i for i, p in pieces for _ in p])


def _index_against_the_full_path(doc) -> int:
    """Asserts, on every page of ``doc``, that the index's text (read by the text scan) is the
    full interpreter's, and that each hit of each word of it names the operator the index named
    when it laid every page out with the full interpreter; the number of pages the scan read."""
    from pdfinspect.content.textlayout import page_text
    from pdfinspect.present.search import TextIndex

    fast, full, scanned = TextIndex(), TextIndex(), 0
    for n in range(1, doc.page_count() + 1):
        ref = doc.page_ref(n)
        if ref is None:
            continue
        got = fast.page(doc, n)
        scanned += fast.scanner is not None and fast.scanner.page_spans(ref) is not None
        laid_out = full.lay_out(doc, n, ref)
        assert got[1] == laid_out[1] == page_text(doc, ref), f"page {n}"
        assert got[2] == laid_out[2], f"page {n}"  # each character's operator
        text = got[1]
        for word in sorted(set(text.split()))[:40]:
            query = compile_text_query(word, False)
            assert fast.search(doc, n, query) == full.search(doc, n, query), f"page {n}: {word!r}"
    return scanned


def test_the_index_reads_text_and_operators_by_the_scan_and_a_later_query_reads_no_file():
    """The index's page text is the full path's on every sample page and on a built page (kerning,
    a form, an annotation's appearance), and hits name the same operators as the full path's,
    read by the scan with the text: a later query reads the index alone."""
    from conftest import SAMPLES
    from test_textscan import open_or_none, page_doc

    from pdfinspect.present.search import TextIndex

    for path in sorted(SAMPLES.glob("*.pdf")):
        doc = open_or_none(path)
        if doc is not None:
            _index_against_the_full_path(doc)
    built = page_doc(b"BT /F1 12 Tf 72 700 Td (Hello) Tj [(W) 80 (orld) -300 (again)] TJ ET /X1 Do", annots=True)
    assert _index_against_the_full_path(built) == 1  # the scan read it
    assert _index_against_the_full_path(Document.open(sample("pages.pdf"))) > 3
    index = TextIndex()
    doc = Document.open(sample("pages.pdf"))
    assert index.needs_doc(2)
    assert index.search(doc, 2, compile_text_query("nowhere", False)) == [] and not index.needs_doc(2)
    assert index.needs_doc(3)
    (hit,) = index.search(None, 2, compile_text_query("page 2", False))  # no file read
    assert list(iter_steps(doc, doc.page_ref(2)))[hit.step].op in ("Tj", "TJ", "'", '"')
    assert [h.step for h in index.search(None, 2, compile_text_query("page", False))] == [hit.step]


def test_the_index_reads_a_page_within_the_budget_it_is_given(monkeypatch):
    """The app's page budget bounds the scan as it bounds the interpreter: a page past half of it
    is left to the interpreter, which stops where the budget says (the text it read, no more)."""
    from test_textscan import page_doc

    from pdfinspect.content.interpreter import Budget
    from pdfinspect.content.textlayout import layout_spans, page_glyphs
    from pdfinspect.present.search import TextIndex

    doc = page_doc(b"BT /F1 12 Tf 72 700 Td (one) Tj 0 -14 Td (two) Tj 0 -14 Td (three) Tj ET")
    cut = layout_spans(page_glyphs(doc, doc.page_ref(1), budget=Budget(6), boxes=False))[0]
    assert cut and "three" not in cut
    index = TextIndex()
    got = index.page(doc, 1, budget=Budget(6))
    assert got is not None and got[1] == cut and index.scanner.page_spans(doc.page_ref(1), budget=Budget(6)) is None
    monkeypatch.setattr(TextIndex, "lay_out", None)  # within half of it: the scan reads it, not the interpreter
    assert TextIndex().page(doc, 1, budget=Budget(100))[1] == layout_spans(page_glyphs(doc, doc.page_ref(1)))[0]
