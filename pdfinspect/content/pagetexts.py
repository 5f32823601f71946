"""The text of a whole document, page by page (what ``pdfinspect text`` prints for each page).

:func:`page_texts` yields one page's text at a time, so a caller can print it before the next
page is read, and memory does not grow with the page count: only the document's font cache and
resolver (:meth:`FontCache.of`, :meth:`Resolver.of`) and its parsed objects last from page to
page, so each font is loaded and each glyph code resolved once per document. Each page is read
by the text-only scan of :mod:`.textscan`, or by the full interpreter where that scan gives up;
both give the same text.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..core.objects import Ref
from ..fonts.resolve import Resolver
from . import textlayout
from .textscan import TextScanner


def page_text(doc, page_ref: Ref, resolver: Resolver | None = None, annots: bool = True,
              scanner: TextScanner | None = None) -> str:
    """The text of the page ``page_ref`` as :func:`.textlayout.page_text` lays it out, read by
    ``scanner`` (one per document and resolver, kept from page to page) where it can."""
    resolver = resolver or Resolver.of(doc)
    if scanner is None or scanner.resolver is not resolver:
        scanner = TextScanner(doc, resolver)
    text = scanner.page_text(page_ref, annots)
    return text if text is not None else textlayout.page_text(doc, page_ref, resolver, annots)


def page_texts(doc, pages: Iterable[int] | None = None, *, annots: bool = True,
               resolver: Resolver | None = None) -> Iterator[tuple[int, str]]:
    """``(page number, text)`` for each of ``pages`` (1-based; ``None``: every page) in order,
    annotation appearances included unless ``annots`` is false. A number with no page gives
    an empty text."""
    resolver = resolver or Resolver.of(doc)
    scanner = TextScanner(doc, resolver)
    for n in range(1, doc.page_count() + 1) if pages is None else pages:
        ref = doc.page_ref(n)
        yield n, page_text(doc, ref, resolver, annots, scanner) if ref is not None else ""
