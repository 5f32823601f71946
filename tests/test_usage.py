"""The font-usage scan (content/usage.py) against the interpreter: on every page it reads, each
font shows the same codes, in the same first-shown order, under the same resource names; the
shapes it does not read make it give up rather than guess."""
from __future__ import annotations

import pikepdf
import pytest

from conftest import CORPUS, corpus_files
from pdfinspect.content.interpreter import iter_steps, page_content, page_resources
from pdfinspect.content.usage import font_strings
from pdfinspect.core.document import Document
from pdfinspect.core.diagnostics import PdfError
from pdfinspect.fonts.font import FontCache

PDFJS = CORPUS.parent / "corpus-pdfjs"
PDFJS_FILES = sorted(PDFJS.glob("*.pdf")) if PDFJS.is_dir() else []
MAX_PAGES = 20


def by_interpreter(doc, ref, fonts) -> dict:
    """font ref → (codes in first-shown order, names), from the interpreter's steps."""
    out: dict = {}
    for step in iter_steps(doc, ref, fonts, annots=False):
        if step.font is None or not step.glyphs:
            continue
        codes, names = out.setdefault(step.font.ref or id(step.font), ({}, set()))
        codes.update(dict.fromkeys(g.code for g in step.glyphs))
        names.add(step.gstate.text.font_name or "")
    return {k: (list(codes), names) for k, (codes, names) in out.items()}


def by_scan(doc, page, fonts) -> dict | None:
    found = font_strings(doc, page_content(doc, page)[0], page_resources(doc, page), fonts)
    if found is None:
        return None
    shown, names = found
    out = {}
    for font, strings in shown.items():
        codes = dict.fromkeys(piece.code for s in strings for piece in font.split(s))
        out[font.ref or id(font)] = (list(codes), names[font])
    return out


def agree(path, pages: int) -> tuple[int, int]:
    """(pages read by the scan, pages it gave up on); asserts agreement on the first."""
    try:
        doc = Document.open(path, password="opensesame" if "userpw" in path.name else "")
    except PdfError:
        return 0, 0
    fonts = FontCache(doc)
    read = gave_up = 0
    for n in range(1, min(doc.page_count(), pages) + 1):
        ref = doc.page_ref(n)
        page = doc.resolve(ref)
        if ref is None or not hasattr(page, "get"):
            continue
        scanned = by_scan(doc, page, fonts)
        if scanned is None:
            gave_up += 1
            continue
        assert scanned == by_interpreter(doc, ref, fonts), f"{path.name} page {n}"
        read += 1
    return read, gave_up


def test_the_scan_agrees_with_the_interpreter_on_the_corpus():
    files = corpus_files()
    if not files:
        pytest.skip("../shared/corpus not available")
    totals = [agree(path, MAX_PAGES) for path in files]
    # the scan must be the path taken, not a bystander: most pages of the corpus are read by it
    read, gave_up = sum(t[0] for t in totals), sum(t[1] for t in totals)
    assert read > 2 * gave_up, (read, gave_up)


@pytest.mark.parametrize("chunk", range(5))
def test_the_scan_agrees_with_the_interpreter_on_pdfjs_files(chunk):
    files = PDFJS_FILES[chunk::5]
    if not files:
        pytest.skip("../shared/corpus-pdfjs not available")
    for path in files:
        agree(path, 1)


def one_page(tmp_path, content: bytes, gs_font: bool = False) -> tuple[Document, object]:
    """A page showing ``content`` with /F1 Helvetica, /F2 Courier and /GS1, an ExtGState that
    sets /F1 when ``gs_font``, else only a line width."""
    pdf = pikepdf.new()
    font = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                                BaseFont=pikepdf.Name.Helvetica))
    other = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                                 BaseFont=pikepdf.Name.Courier))
    gs = pikepdf.Dictionary(Font=[font, 12]) if gs_font else pikepdf.Dictionary(LW=2)
    res = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font, F2=other), ExtGState=pikepdf.Dictionary(GS1=gs))
    pdf.pages.append(pikepdf.Page(pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=[0, 0, 612, 792],
                                                     Resources=res, Contents=pdf.make_stream(content))))
    pdf.save(tmp_path / "t.pdf")
    doc = Document.open(tmp_path / "t.pdf")
    return doc, doc.resolve(doc.page_ref(1))


def shown(doc, page) -> dict | None:
    found = font_strings(doc, page_content(doc, page)[0], page_resources(doc, page), FontCache(doc))
    return None if found is None else {f.base_font: list(s) for f, s in found[0].items()}


def test_the_plain_shapes_are_read(tmp_path):
    content = (b"q 1 0 0 1 5 5 cm BT /F1 12 Tf 72 700 Td (a\\(b\\)c) Tj [(de) -250 <6667>] TJ\n"
               b"q /F2 9.5 Tf (x (nested) y) ' Q (after) Tj ET Q BT [(e)]TJ ET\n"
               b"/Span <</MCID 3>> BDC BT /F2 1 Tf <7a 7>Tj ET EMC")
    doc, page = one_page(tmp_path, content)
    assert shown(doc, page) == {"Helvetica": [b"a(b)c", b"de", b"fg", b"after"],
                                "Courier": [b"x (nested) y", b"zp"]}  # [(e)] TJ: no font after the outer Q
    assert by_scan(doc, page, FontCache(doc)) == by_interpreter(doc, doc.page_ref(1), FontCache(doc))


@pytest.mark.parametrize("content", [
    b"BT /F1 12 Tf 0 0 (a) \" ET",  # " sets spacing from operands the scan does not read
    b"BT /F1 12 Tf (a) (b) Tj ET",  # two strings before Tj: only the interpreter knows which
    b"BT /F1 12 Tf (a) % comment\nTj ET",  # a comment between operand and operator
    b"BI /W 1 /H 1 /BPC 8 /CS /G ID \x00 EI BT /F1 12 Tf (a) Tj ET",  # inline image bytes
    b"BT /F1 12 Tf [(a) [(b)]] TJ ET",  # a nested array
    b"BT /F1 12 Tf (a ((deep)) b) Tj ET",  # parentheses nested twice
    b"BT 12 Tf (a) Tj ET",  # Tf without its name
])
def test_shapes_it_does_not_read_make_it_give_up(tmp_path, content):
    doc, page = one_page(tmp_path, content)
    assert shown(doc, page) is None


def test_an_extgstate_that_sets_a_font_makes_it_give_up(tmp_path):
    doc, page = one_page(tmp_path, b"BT /GS1 gs (a) Tj ET", gs_font=True)
    assert shown(doc, page) is None
    doc, page = one_page(tmp_path, b"BT /F1 1 Tf /GS1 gs (a) Tj ET")
    assert shown(doc, page) == {"Helvetica": [b"a"]}


def test_forms_run_in_place_with_their_resources_and_the_font_in_force(tmp_path):
    pdf = pikepdf.new()
    helv = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                                BaseFont=pikepdf.Name.Helvetica))
    cour = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                                BaseFont=pikepdf.Name.Courier))
    form = pdf.make_stream(b"(inherited) Tj /G1 5 Tf (own) Tj /Fm0 Do",
                           Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form, BBox=[0, 0, 10, 10],
                           Resources=pikepdf.Dictionary(Font=pikepdf.Dictionary(G1=cour)))
    form.Resources.XObject = pikepdf.Dictionary(Fm0=form)  # a cycle: run once
    pdf.pages.append(pikepdf.Page(pikepdf.Dictionary(
        Type=pikepdf.Name.Page, MediaBox=[0, 0, 612, 792],
        Resources=pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=helv), XObject=pikepdf.Dictionary(Fm0=form)),
        Contents=pdf.make_stream(b"BT /F1 1 Tf /Fm0 Do (back) Tj ET"))))
    pdf.save(tmp_path / "f.pdf")
    doc = Document.open(tmp_path / "f.pdf")
    page = doc.resolve(doc.page_ref(1))
    assert shown(doc, page) == {"Helvetica": [b"inherited", b"back"], "Courier": [b"own"]}
    assert by_scan(doc, page, FontCache(doc)) == by_interpreter(doc, doc.page_ref(1), FontCache(doc))
