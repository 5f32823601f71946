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
