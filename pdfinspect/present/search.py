"""Search: decoded streams and strings for bytes, or the extracted text of pages.

Both front ends could use these: a query compiles once (:func:`compile_query` for objects,
:func:`compile_text_query` for page text), :func:`search_object` gives the hits of one object
and :func:`search_page_text` those of one page. Page text is what ``pdfinspect text`` prints
(glyphs in drawing order, TJ kerning and gaps turned into spaces by the line heuristic of
:mod:`pdfinspect.content.textlayout`), so a word split by kerning is still found, and each hit
names the operator that shows its first character, as the stepper numbers them. Page text
and query are compared folded (:func:`fold`): compatibility forms decomposed (the ligature
ﬃ is "ffi", a full-width Ａ is "A", é is e and its accent) and variation selectors dropped,
so "office" is found in "oﬃce" and a CJK word followed by a variation selector is found
by the word; hits still point at the glyphs that drew them.
"""
from __future__ import annotations

import re
import unicodedata
from array import array
from dataclasses import dataclass

from ..content.interpreter import Budget
from ..content.textlayout import layout_spans, page_glyphs
from ..content.textscan import TextScanner
from ..core.objects import Array, Dict, Ref, Stream, String
from ..core.textstrings import decode_text
from ..fonts.resolve import Resolver

CONTEXT = 24  # characters (or bytes) shown on each side of a hit


@dataclass(frozen=True, slots=True)
class Hit:
    """A hit in an object: in its stream (``where`` "stream", with the 1-based ``line`` of the
    decoded data) or in a string (``where`` its key path, ``key`` the dictionary key)."""

    ref: Ref
    where: str
    offset: int
    context: str  # text around the hit, decoded as well as we can (not yet made terminal-safe)
    line: int | None = None
    key: str | None = None


@dataclass(frozen=True, slots=True)
class PageHit:
    """A hit in the extracted text of page ``page`` (object ``ref``): ``step`` is the index of
    the operator that shows its first character (as the stepper numbers them), ``offset`` its
    place in the text."""

    page: int
    ref: Ref
    step: int
    offset: int
    context: str


def compile_query(query: str, regex: bool) -> re.Pattern[bytes]:
    """A bytes pattern: a text query matches its Latin-1, UTF-8 and UTF-16BE forms (PDF text
    strings are PDFDocEncoding or UTF-16BE, 7.9.2.2; content bytes depend on the font).
    A regex is compiled over the UTF-8 bytes of ``query``; raises ``re.error``."""
    if regex:
        return re.compile(query.encode("utf-8"), re.IGNORECASE)
    forms = {query.encode("utf-8"), query.encode("utf-16-be")}
    try:
        forms.add(query.encode("latin-1"))
    except UnicodeEncodeError:
        pass
    return re.compile(b"|".join(re.escape(f) for f in sorted(forms)), re.IGNORECASE)


def compile_text_query(query: str, regex: bool) -> re.Pattern[str]:
    """A pattern over folded page text (:func:`fold`), case-insensitive; a plain query is
    folded too. Raises ``re.error``."""
    return re.compile(query if regex else re.escape(fold(query)[0]), re.IGNORECASE)


def _variation_selector(ch: str) -> bool:
    """U+FE00–FE0F and U+E0100–E01EF (Unicode's variation selectors, and the supplement's)."""
    cp = ord(ch)
    return 0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF


_BEYOND_ASCII = re.compile(r"[^\x00-\x7f]")  # the characters folding may change


def fold(text: str) -> tuple[str, list[int]]:
    """``text`` with each character replaced by its compatibility decomposition (NFKD, so
    both sides compare the same whatever their composition) and variation selectors
    dropped; and for each character of the result, the index in ``text`` it came from."""
    out: list[str] = []
    where: list[int] = []
    last = 0
    for m in _BEYOND_ASCII.finditer(text):
        i = m.start()
        out.append(text[last:i])
        where.extend(range(last, i))
        last = i + 1
        ch = m.group()
        if not _variation_selector(ch):
            piece = unicodedata.normalize("NFKD", ch)
            out.append(piece)
            where.extend([i] * len(piece))
    out.append(text[last:])
    where.extend(range(last, len(text)))
    return "".join(out), where


def _strings_in(value, path: str):
    if isinstance(value, String):
        yield path, value.value
    elif isinstance(value, Stream):
        yield from _strings_in(value.dict, path)
    elif isinstance(value, Dict):
        for k, v in value.items():
            yield from _strings_in(v, f"{path}/{k}")
    elif isinstance(value, Array):
        for i, v in enumerate(value):
            yield from _strings_in(v, f"{path}[{i}]")


def _around(data: bytes, m: re.Match) -> str:
    chunk = data[max(0, m.start() - CONTEXT):m.end() + CONTEXT]
    try:
        return chunk.decode("utf-8")
    except UnicodeDecodeError:
        return chunk.decode("latin-1")


def line_at(data: bytes, offset: int) -> int:
    """The 1-based line of ``offset`` as the stream view counts lines (CR, LF and CRLF end one)."""
    head = data[:offset]
    return head.count(b"\n") + head.count(b"\r") - head.count(b"\r\n") + 1


def search_object(doc, obj, pattern: re.Pattern[bytes], limit: int) -> list[Hit]:
    """Hits of ``pattern`` in the strings of ``obj`` and in its stream decoded (its first ``limit`` bytes)."""
    hits = []
    for path, data in _strings_in(obj.value, ""):
        for m in pattern.finditer(data):
            key = "/" + path.rsplit("/", 1)[-1].split("[")[0] if "/" in path else None
            hits.append(Hit(obj.ref, path or "string", m.start(), decode_text(data)[:120], None, key))
    if isinstance(obj.value, Stream):
        data = doc.stream_data(obj, limit=min(doc.decode_limit, limit)).data
        for m in pattern.finditer(data):
            hits.append(Hit(obj.ref, "stream", m.start(), _around(data, m), line_at(data, m.start())))
    return hits


class TextIndex:
    """The laid-out text of a document's pages, each page read once and kept for every later
    query (the app's page-text search builds one per document): a page's ``(ref, text, steps,
    folded, where)``, ``steps`` giving for each character of ``text`` the index of the operator
    that drew it (-1 for an inferred space or a line end), ``folded`` and ``where`` the text as
    :func:`fold` gives it (``where`` is ``None`` when folding changed nothing). Pages are added
    as they are first searched.

    A page's text and steps are read by the text-only scan of
    :mod:`pdfinspect.content.textscan` (the same text and operators as the full interpreter's,
    within the same budget); a page the scan gives up on is laid out by the full interpreter.
    A query over every page costs the scan once; every later query reads only the index."""

    def __init__(self) -> None:
        self.pages: dict[int, tuple[Ref, str, array, str, array | None]] = {}
        self.scanner: TextScanner | None = None  # for the document last read (fonts' tables kept)

    def page(self, doc, n: int, resolver: Resolver | None = None, budget: Budget | None = None,
             ref: Ref | None = None) -> tuple[Ref, str, array, str, array | None] | None:
        """Page ``n`` (1-based; its object ``ref`` when known) from the index, its text read
        (within ``budget``) on first use."""
        got = self.pages.get(n)
        if got is None:
            ref = ref or doc.page_ref(n)
            if ref is None:
                return None
            resolver = resolver or Resolver.of(doc)
            scanner = self.scanner
            if scanner is None or scanner.doc is not doc or scanner.resolver is not resolver:
                scanner = self.scanner = TextScanner(doc, resolver)
            spent = None if budget is None else Budget(budget.operators, budget.content_bytes,
                                                       budget.invocations, budget.glyphs)
            spans = scanner.page_spans(ref, budget=spent)
            if spans is None:
                return self.lay_out(doc, n, ref, resolver, budget)
            got = self._keep(n, ref, *spans)
        return got

    def lay_out(self, doc, n: int, ref: Ref, resolver: Resolver | None = None,
                budget: Budget | None = None) -> tuple[Ref, str, array, str, array | None]:
        """Page ``n`` (object ``ref``) laid out by the full interpreter (within ``budget``) into the index."""
        text, owners = layout_spans(page_glyphs(doc, ref, resolver, budget=budget, boxes=False))
        return self._keep(n, ref, text, [-1 if o is None else o.step.index for o in owners])

    def _keep(self, n: int, ref: Ref, text: str, steps: list[int]) -> tuple[Ref, str, array, str, array | None]:
        folded, where = fold(text)
        same = folded == text  # then the text itself is kept, once
        got = self.pages[n] = (ref, text, array("i", steps), text if same else folded, None if same else array("i", where))
        return got

    def needs_doc(self, n: int) -> bool:
        """Whether :meth:`search` of page ``n`` reads the file: the page is not in the index yet."""
        return n not in self.pages

    def search(self, doc, n: int, pattern: re.Pattern[str], resolver: Resolver | None = None,
               budget: Budget | None = None, ref: Ref | None = None) -> list[PageHit]:
        """Hits of ``pattern`` in the text of page ``n`` (object ``ref``, when known); ``doc``
        may be ``None`` where :meth:`needs_doc` is false."""
        got = self.page(doc, n, resolver, budget, ref)
        if got is None:
            return []
        ref, text, steps, folded, where = got
        hits: list[PageHit] = []
        for m in pattern.finditer(folded):
            if m.start() == m.end():
                continue
            # in ``text``
            start, end = (where[m.start()], where[m.end() - 1] + 1) if where is not None else m.span()
            # the operator of the first character drawn by a glyph (an inferred space has none)
            step = next((steps[i] for i in range(start, end) if steps[i] >= 0), None)
            if step is None:
                continue
            context = text[max(0, start - CONTEXT):end + CONTEXT].replace("\n", " ")
            hits.append(PageHit(n, ref, step, start, context))
        return hits


def search_page_text(doc, page: int, pattern: re.Pattern[str], resolver: Resolver | None = None,
                     budget: Budget | None = None) -> list[PageHit]:
    """Hits of ``pattern`` in the text of page ``page`` (1-based), laid out as ``pdfinspect text`` does."""
    return TextIndex().search(doc, page, pattern, resolver, budget)
