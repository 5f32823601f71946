"""Issue 23, fast at scale: one font cache per document, whole-document text page by page."""
from __future__ import annotations

import io

import pytest

from pdfinspect.content.textlayout import page_glyphs, page_text
from pdfinspect.core.document import Document
from pdfinspect.fonts.font import FontCache
from pdfinspect.fonts.resolve import Resolver

pikepdf = pytest.importorskip("pikepdf")
HELVETICA = dict(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica,
                 Encoding=pikepdf.Name.WinAnsiEncoding)


def _pages(n: int, links: int = 0) -> bytes:
    """``n`` pages showing 'Page k' in one shared font; each page has ``links`` link
    annotations without an appearance stream."""
    pdf = pikepdf.new()
    font = pdf.make_indirect(pikepdf.Dictionary(**HELVETICA))
    for k in range(1, n + 1):
        page = pdf.add_blank_page()
        page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font))
        page.Contents = pdf.make_stream(b"BT /F1 12 Tf 72 700 Td (Page %d) Tj ET" % k)
        if links:
            page.Annots = pdf.make_indirect(pikepdf.Array(
                [pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Link,
                                                      Rect=[0, 0, 10, 10]))
                 for _ in range(links)]))
    buf = io.BytesIO()
    pdf.save(buf)
    return buf.getvalue()


def test_every_page_shares_the_documents_fonts_and_resolver():
    doc = Document(_pages(3))
    fonts = [next(iter(page_glyphs(doc, doc.page_ref(n)))).step.font for n in (1, 2, 3)]
    assert fonts[0] is fonts[1] is fonts[2]  # loaded once, not once a page
    assert FontCache.of(doc) is FontCache.of(doc) and Resolver.of(doc) is Resolver.of(doc)
    assert list(FontCache.of(doc)) == [fonts[0]]
    twin = doc.fork()  # another thread's Document has its own caches
    assert FontCache.of(twin) is not FontCache.of(doc) and FontCache.of(twin).doc is twin
    assert [page_text(twin, twin.page_ref(n)) for n in (1, 2)] == ["Page 1\n", "Page 2\n"]


def _link_page(objstm: bool, old: bytes = b"", new: bytes = b"") -> bytes:
    """A page with three links without an appearance; ``old`` replaced by ``new`` (padded to
    its length, so that the xref stays right) in the first."""
    pdf = pikepdf.new()
    page = pdf.add_blank_page()
    page.Contents = pdf.make_stream(b"q Q")
    annots = [pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Link,
                                                   Rect=[0, 0, 10, 10])) for _ in range(3)]
    page.Annots = pdf.make_indirect(pikepdf.Array(annots))
    buf = io.BytesIO()
    pdf.save(buf, object_stream_mode=pikepdf.ObjectStreamMode.generate if objstm else
             pikepdf.ObjectStreamMode.disable)
    data = buf.getvalue()
    return data.replace(old, new.ljust(len(old)), 1) if old else data


@pytest.mark.parametrize("objstm", [False, True])
def test_links_without_appearance_are_skipped_unparsed(objstm):
    from pdfinspect.content.interpreter import iter_steps

    doc = Document(_link_page(objstm))
    annots = [r.num for r in doc.resolve(doc.resolve(doc.page_ref(1)).get("Annots"))]
    assert [s.op for s in iter_steps(doc, doc.page_ref(1))] == ["q", "Q"]
    assert not any(num == key[0] for num in annots for key in doc._cache)  # never parsed


@pytest.mark.parametrize("old, new, code", [(b"/Rect [ 0 0 10 10 ]", b"/F 2", "annot-hidden"),
                                            (b"/Rect [ 0 0 10 10 ]", b"/AP << >>", None),
                                            (b"/Link", b"/Line", "annot-no-appearance")])
def test_an_annotation_that_may_say_something_is_parsed(old, new, code):
    from pdfinspect.content.interpreter import iter_steps

    doc = Document(_link_page(False, old, new))
    steps = list(iter_steps(doc, doc.page_ref(1)))
    assert [d.code for s in steps for d in s.diagnostics] == ([code] if code else [])


def test_page_texts_yields_each_page_in_order_as_page_text_does():
    from pdfinspect.content.pagetexts import page_texts

    doc = Document(_pages(4))
    texts = page_texts(doc)
    assert next(texts) == (1, "Page 1\n")  # the first page comes before the others are read
    assert list(texts) == [(n, f"Page {n}\n") for n in (2, 3, 4)]
    assert list(page_texts(doc, [3, 9])) == [(3, "Page 3\n"), (9, "")]
    assert [page_text(doc, doc.page_ref(n)) for n in (1, 2)] == ["Page 1\n", "Page 2\n"]


async def test_page_text_search_reads_the_file_once_for_every_query():
    """The app's page-text search reads each page's text, and the operator of each character,
    once: a later query reads the index alone and does not open the file."""
    from conftest import press, sample, settle

    from pdfinspect.tui.app import PdfInspectApp

    app = PdfInspectApp(Document.open(sample("pages.pdf")))
    opened = []
    fork = app.worker_doc
    app.worker_doc = lambda: opened.append(1) or fork()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        before = len(opened)  # the app's own workers fork it too
        await press(pilot, "slash", "ctrl+t", *"page 3", "enter")
        screen = app.screen
        assert [h.page for h in screen.hits] == [3] and len(opened) == before + 1
        pages = len(screen.text_index.pages)
        assert pages == screen.page_total > 3
        await press(pilot, "slash", *["backspace"] * 6, *"page 2", "enter")
        assert [(h.page, h.step) for h in screen.hits] == [(2, 3)]
        assert len(opened) == before + 1 and len(screen.text_index.pages) == pages  # not read again
        assert "page 2  operator 3" in str(screen.query_one("#search-hits").render_line(0).text)


def test_the_state_replace_is_dataclasses_replace():
    import dataclasses

    from pdfinspect.content.state import GraphicsState, TextState, replace

    gs = GraphicsState(line_width=3.0, text=TextState(size=9.0))
    for state, changes in ((gs, {"ctm": (2.0, 0.0, 0.0, 2.0, 1.0, 1.0), "dash": ((1,), 0)}),
                           (gs.text, {"font_name": "F1", "render": 3}), (gs, {})):
        assert replace(state, **changes) == dataclasses.replace(state, **changes)
    with pytest.raises(TypeError):
        replace(gs, no_such_field=1)


async def test_the_overview_computes_the_summary_in_a_worker(monkeypatch):
    """The first screen paints before the summary (which counts every page) is computed."""
    import threading

    from conftest import sample, settle

    from pdfinspect.tui.app import PdfInspectApp
    from pdfinspect.tui.screens import overview

    threads = []
    made = overview.document_summary
    monkeypatch.setattr(overview, "document_summary", lambda *a: threads.append(threading.current_thread()) or made(*a))
    app = PdfInspectApp(Document.open(sample("pages.pdf")))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert "Pages" in str(app.screen.query_one("#summary").render())
    assert threads and threading.main_thread() not in threads
