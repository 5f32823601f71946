"""Page text by the text-only scan (content/textscan.py, laid out by content/textlines.py)
against the full interpreter (textlayout.page_text): the same text byte for byte on every page
the scan reads, and the same operator for each character (as the stepper numbers them); the
shapes it does not read make it give up, and the full interpreter runs."""
from __future__ import annotations

import io
from pathlib import Path

import pikepdf
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import CORPUS, SAMPLES, corpus_files
from pdfinspect.content import textlayout
from pdfinspect.content.pagetexts import page_text, page_texts
from pdfinspect.content.textlines import TextLines, add_records
from pdfinspect.content.textscan import TextScanner
from pdfinspect.core.diagnostics import PdfError
from pdfinspect.core.document import Document

PDFJS = CORPUS.parent / "corpus-pdfjs"


def full_spans(doc, ref) -> tuple[str, list[int]]:
    """The full interpreter's text of the page, and each character's step index (-1: none)."""
    text, owners = textlayout.layout_spans(textlayout.page_glyphs(doc, ref, boxes=False))
    return text, [-1 if o is None else o.step.index for o in owners]


def compare(doc, pages: int | None = None) -> tuple[int, int]:
    """(pages the scan read, pages it gave up on); asserts the same text as the full
    interpreter on each page it read, and the same operator for each of its characters."""
    scanner = TextScanner(doc)
    read = gave_up = 0
    count = doc.page_count()
    for n in range(1, min(count, pages or count) + 1):
        ref = doc.page_ref(n)
        if ref is None:
            continue
        fast = scanner.page_text(ref)
        if fast is None:
            gave_up += 1
            continue
        full = full_spans(doc, ref)
        assert fast == full[0], f"page {n}"
        assert scanner.page_spans(ref) == full, f"page {n}"
        read += 1
    return read, gave_up


def open_or_none(path) -> Document | None:
    try:
        return Document.open(path, password="opensesame" if "userpw" in path.name else "")
    except PdfError:
        return None


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*.pdf")), ids=lambda p: p.name)
def test_the_scan_agrees_with_the_interpreter_on_the_samples(path):
    doc = open_or_none(path)
    if doc is not None:
        compare(doc)


def test_the_scan_reads_plain_pages():
    # the scan must be the path taken, not a bystander
    for name in ("kappa.pdf", "cid-identity.pdf", "pages.pdf"):  # a simple font, a Type0 font, pages
        doc = Document.open(SAMPLES / name)
        assert compare(doc) == (doc.page_count(), 0)


def test_the_layout_of_records_is_the_layout():
    """TextLines fed with the full interpreter's records gives textlayout.layout's text."""
    for path in sorted(SAMPLES.glob("*.pdf")):
        doc = open_or_none(path)
        if doc is None:
            continue
        for n in range(1, min(doc.page_count(), 3) + 1):
            ref = doc.page_ref(n)
            records = list(textlayout.page_glyphs(doc, ref, boxes=False)) if ref is not None else []
            lines = TextLines()
            add_records(lines, records)
            assert lines.text() == textlayout.layout(records), f"{path.name} page {n}"


# -- pages built here -----------------------------------------------------------------------------
FORM = b"BT /F2 8 Tf 5 5 Td (in form) Tj ET"


def page_doc(content: bytes, annots: bool = False) -> Document:
    """One page drawing ``content`` with /F1 Helvetica, /F2 Courier, /GS1 (a line width),
    /GS2 (sets a font), /X1 (a form showing text, scaled) and /P1 (properties with ActualText)."""
    pdf = pikepdf.new()
    helv = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                                BaseFont=pikepdf.Name.Helvetica, Encoding=pikepdf.Name.WinAnsiEncoding))
    cour = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                                BaseFont=pikepdf.Name.Courier))
    fonts = pikepdf.Dictionary(F1=helv, F2=cour)
    form = pdf.make_stream(FORM, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form, BBox=[0, 0, 100, 100],
                           Matrix=[2, 0, 0, 2, 10, 10], Resources=pikepdf.Dictionary(Font=fonts))
    res = pikepdf.Dictionary(Font=fonts, XObject=pikepdf.Dictionary(X1=form),
                             ExtGState=pikepdf.Dictionary(GS1=pikepdf.Dictionary(LW=2),
                                                          GS2=pikepdf.Dictionary(Font=[helv, 20])),
                             Properties=pikepdf.Dictionary(P1=pikepdf.Dictionary(ActualText=pikepdf.String("x"))))
    page = pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=[0, 0, 612, 792], Resources=res,
                              Contents=pdf.make_stream(content))
    if annots:
        ap = pdf.make_stream(b"BT /F1 10 Tf 2 2 Td (note) Tj ET", Type=pikepdf.Name.XObject,
                             Subtype=pikepdf.Name.Form, BBox=[0, 0, 50, 20], Resources=pikepdf.Dictionary(Font=fonts))
        page.Annots = pdf.make_indirect(pikepdf.Array([
            pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Link,
                                                 Rect=[0, 0, 10, 10])),
            pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.FreeText,
                                                 Rect=[300, 300, 350, 320], AP=pikepdf.Dictionary(N=ap)))]))
    pdf.pages.append(pikepdf.Page(page))
    buf = io.BytesIO()
    pdf.save(buf)
    return Document(buf.getvalue())


def both(content: bytes, annots: bool = False) -> tuple[str | None, str]:
    """The page's text by the scan (``None``: given up) and by the full interpreter; where the
    scan read it, asserts that it gives each character the interpreter's operator too."""
    doc = page_doc(content, annots)
    ref = doc.page_ref(1)
    scanner = TextScanner(doc)
    fast, full = scanner.page_text(ref), full_spans(doc, ref)
    if fast is not None:
        assert scanner.page_spans(ref) == full
    return fast, full[0]


@pytest.mark.parametrize("content", [
    b"BT /F1 12 Tf 72 700 Td (Hello) Tj [(W) 80 (orld) -300 (again)] TJ 0 -14 Td (next line) Tj ET",
    b"BT /F1 12 Tf 14 TL 72 700 Td (one) ' 2 1 (two) \" T* (three) Tj ET",
    b"q 0 1 -1 0 300 300 cm BT /F2 10 Tf 0 0 Td (rotated) Tj ET Q BT /F1 9 Tf 1 0 0 1 50 50 Tm (plain) Tj ET",
    b"BT /F1 10 Tf 3 Tc 72 700 Td (spaced out) Tj -3 Tc 0 -20 Td (tight) Tj 50 Tz 4 Tw (a b) Tj ET",
    b"BT /F1 10 Tf 72 700 Td (e) Tj -5 0 Td (\\264) Tj ET",  # an accent drawn over its letter
    b"BT /F1 10 Tf -1 -0 0 1 300 700 Tm (mirrored) Tj ET",
    b"BT /F1 10 Tf 72 700 Td (before) Tj ET /X1 Do /X1 Do BT /F1 10 Tf (after) Tj ET",
    b"/GS1 gs BT /F1 10 Tf 72 700 Td (gs) Tj ET /Span <</MCID 0>> BDC BT /F1 10 Tf (mc) Tj ET EMC",
    b"BT /F9 10 Tf 72 700 Td (missing font) Tj ET (outside) Tj",
    b"BT /F1 10 Tf 72 700 Td <48656c6c6f> Tj [<41> -2000 <42>] TJ 2 Ts (up) Tj ET",
    b"/Span <</MCID 0/Lang (en-US)>> BDC /Artifact <</Attached [/Bottom ]/BBox [5 5 232 14 ]/Subtype /Footer>>BDC "
    b"BT /F1 10 Tf 72 700 Td (tagged) Tj ET EMC EMC",
    b"1.00000000000000000 0 0 1.000000000000000000000000001 0 0 cm BT /F1 10 Tf 72 700 Td (long reals) Tj ET",
    b"BT /F1 10 Tf 72 700 Td (before) Tj ET BI /W 2 /H 1 /BPC 8 /CS /G ID (\x00 EI BT /F1 10 Tf (after) Tj ET",
])
def test_plain_shapes_are_read_and_agree(content):
    fast, full = both(content)
    assert fast is not None and fast == full


@pytest.mark.parametrize("content", [
    b"BT /F1 10 Tf 72 700 Td /P1 BDC (x) Tj EMC ET",  # ActualText by name
    b"BT /F1 10 Tf 72 700 Td /Span <</ActualText (y)>> BDC (x) Tj EMC ET",  # ActualText in place
    b"BT /F1 10 Tf 72 700 Td /Span <</ActualT#65xt (y)>> BDC (x) Tj EMC ET",  # a name that may spell it
    b"BT /F1 10 Tf 72 700 Td 123456789012345678 0 Td (x) Tj ET",  # an integer of 18 digits
    b"/GS2 gs BT 72 700 Td (x) Tj ET",  # an ExtGState that sets the font
    b"BT /F1 10 Tf 72 700 Td (x) % a comment\n Tj ET",  # a comment between operand and operator
    b"BT /F1 10 Tf 72 700 Td [(a) [(b)]] TJ ET",  # a nested array
    b"BT /F1 10 Tf 72 700 1 Td (x) Tj ET",  # operands Td does not take
    b"BI /W 1 /H 1 /BPC 8 /CS /G BT /F1 10 Tf (x) Tj ET",  # an inline image without ID
])
def test_other_shapes_give_up_and_the_interpreter_reads_them(content):
    fast, full = both(content)
    assert fast is None
    doc = page_doc(content)
    assert page_text(doc, doc.page_ref(1)) == full


def test_annotation_appearances_are_laid_out_after_the_content():
    fast, full = both(b"BT /F1 10 Tf 72 700 Td (content) Tj ET", annots=True)
    assert fast is not None and fast == full and "note" in fast


def test_page_texts_streams_every_page():
    doc = Document.open(SAMPLES / "pages.pdf")
    texts = list(page_texts(doc))
    assert [n for n, _ in texts] == list(range(1, doc.page_count() + 1))
    assert [t for _, t in texts] == [textlayout.page_text(doc, doc.page_ref(n)) for n, _ in texts]


# -- generated content ---------------------------------------------------------------------------
_num = st.sampled_from([b"0", b"-0", b"-0.0", b"1", b"-1", b"0.5", b"-.24", b"2", b"12", b"-250", b"700", b"4."])
_str = st.sampled_from([b"(a)", b"(b c)", b"( )", b"(fi)", b"(\\351t\\351)", b"<4142>", b"()", b"(x\\(y\\))"])
_op = st.one_of(
    st.tuples(st.sampled_from([b"Tc", b"Tw", b"Tz", b"TL", b"Ts"]), _num).map(lambda t: t[1] + b" " + t[0]),
    st.tuples(_num, _num, st.sampled_from([b"Td", b"TD"])).map(lambda t: b" ".join(t)),
    st.tuples(st.sampled_from([b"/F1", b"/F2", b"/F9"]), st.sampled_from([b"10", b"-8", b"0", b"12.5"])).map(
        lambda t: t[0] + b" " + t[1] + b" Tf"),
    st.lists(_num, min_size=6, max_size=6).map(lambda ns: b" ".join(ns) + b" Tm"),
    st.sampled_from([b"1 0 0 1 0 0", b"0 1 -1 0 300 100", b"2 0 0 2 -50 -50", b"-1 0 -0 1 600 0",
                     b"1 0 0 -1 0 792"]).map(lambda m: m + b" cm"),
    st.sampled_from([b"q", b"Q", b"BT", b"ET", b"T*", b"/X1 Do", b"/GS1 gs", b"10 10 m 20 20 l S",
                     b"0 0 1 rg", b"/Span <</MCID 1>> BDC", b"EMC", b"0 Tr",
                     b"BI /W 2 /H 1 /BPC 8 /CS /G ID )( EI"]),
    _str.map(lambda s: s + b" Tj"),
    _str.map(lambda s: s + b" '"),
    st.tuples(_num, _num, _str).map(lambda t: b" ".join(t) + b' "'),
    st.lists(st.one_of(_str, _num), max_size=6).map(lambda items: b"[" + b" ".join(items) + b"] TJ"),
)


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(_op, min_size=1, max_size=40))
def test_generated_content_agrees(ops):
    content = b"BT /F1 10 Tf 72 700 Td " + b"\n".join(ops)
    fast, full = both(content)
    assert fast is not None  # every shape generated here is one the scan reads
    assert fast == full


# -- the corpora --------------------------------------------------------------------------------
def test_the_scan_agrees_with_the_interpreter_on_the_corpus():
    files = corpus_files()
    if not files:
        pytest.skip("../shared/corpus not available")
    read = gave_up = 0
    for path in files:
        doc = open_or_none(path)
        if doc is not None:
            r, g = compare(doc, 1)
            read, gave_up = read + r, gave_up + g
    assert read > 2 * gave_up, (read, gave_up)


@pytest.mark.parametrize("chunk", range(5))
def test_the_scan_agrees_with_the_interpreter_on_pdfjs_files(chunk):
    files = sorted(PDFJS.glob("*.pdf"))[chunk::5] if PDFJS.is_dir() else []
    if not files:
        pytest.skip("../shared/corpus-pdfjs not available")
    for path in files:
        doc = open_or_none(path)
        if doc is not None:
            compare(doc, 1)


SOURCE3 = Path("/usr/share/doc/texlive-doc/latex/l3kernel/source3.pdf")  # Debian texlive-latex-base-doc


@pytest.mark.skipif(not SOURCE3.exists(), reason="source3.pdf (texlive-latex-base-doc) not installed")
def test_the_scan_agrees_with_the_interpreter_on_source3_pages():
    """The book the app's search is measured on: a roman-numbered page, a page of text, the
    glyph inspector's page and the last; text and each character's operator."""
    doc = Document.open(SOURCE3)
    scanner = TextScanner(doc)
    for n in (1, 8, 806, 1611):
        ref = doc.page_ref(n)
        assert scanner.page_spans(ref) == full_spans(doc, ref), f"page {n}"
