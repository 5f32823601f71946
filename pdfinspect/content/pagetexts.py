"""The text of a whole document, page by page (what ``pdfinspect text`` prints for each page).

:func:`page_texts` yields one page's text at a time, so a caller can print it before the next
page is read, and memory does not grow with the page count: only the document's font cache and
resolver (:meth:`FontCache.of`, :meth:`Resolver.of`) and its parsed objects last from page to
page, so each font is loaded and each glyph code resolved once per document.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..fonts.resolve import Resolver
from .textlayout import page_text


def page_texts(doc, pages: Iterable[int] | None = None, *, annots: bool = True) -> Iterator[tuple[int, str]]:
    """``(page number, text)`` for each of ``pages`` (1-based; ``None``: every page) in order,
    annotation appearances included unless ``annots`` is false. A number with no page gives
    an empty text."""
    resolver = Resolver.of(doc)
    for n in range(1, doc.page_count() + 1) if pages is None else pages:
        ref = doc.page_ref(n)
        yield n, page_text(doc, ref, resolver, annots) if ref is not None else ""
