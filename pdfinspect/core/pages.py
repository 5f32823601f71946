"""The page tree (ISO 32000 7.7.3): pages in order, page N by /Count, inherited attributes."""
from __future__ import annotations

from typing import TYPE_CHECKING, Generator, Iterator

from .diagnostics import warning
from .objects import Array, Dict, Ref, is_integer
from .xref import FREE

if TYPE_CHECKING:
    from .document import Document

MAX_DEPTH = 64  # page tree levels followed before a branch is cut


def page_refs(doc: Document) -> list[Ref]:
    """Page objects in order, walking /Pages /Kids (7.7.3.2) with a cycle guard."""
    return list(iter_page_refs(doc))


def iter_page_refs(doc: Document) -> Iterator[Ref]:
    """Page objects in order as the walk of /Pages /Kids (7.7.3.2) finds them, with a cycle
    guard: a caller can start on the first page before the last is found."""
    seen: set[int] = set()
    root = doc.catalog.get("Pages")

    def walk(ref, depth: int, holder: Ref | None = None, index: int = 0) -> Generator[Ref, None, int]:
        """Yield the leaves under ``ref`` (entry ``index`` of ``holder``'s /Kids); return how many."""
        if holder is not None and _direct_leaf(doc, ref):
            ref = _direct(doc, holder, index, ref)
        if not isinstance(ref, Ref):
            doc.note(warning("pages-kid-direct", f"/Kids entry {type(ref).__name__} is not a reference to "
                             "a page or page tree node; skipped", clause="7.7.3.2"))
            return 0
        where = (ref.num, ref.gen)
        if ref.num in seen:
            doc.note(warning("pages-loop", f"page tree node {ref.num} appears twice (a cycle or a page "
                             "listed twice); the second occurrence skipped", ref=where, clause="7.7.3.2",
                             repair="each node and page is counted once"))
            return 0
        if depth > MAX_DEPTH:
            doc.note(warning("pages-too-deep", f"page tree deeper than {MAX_DEPTH} levels at node {ref.num}; "
                             "the rest of this branch skipped", ref=where, clause="7.7.3.2"))
            return 0
        seen.add(ref.num)
        ref, node = _kid(doc, ref)
        where = (ref.num, ref.gen)
        if not isinstance(node, Dict):
            doc.note(warning("pages-kid-missing", f"page tree entry {ref.num} {ref.gen} R is not a dictionary; "
                             "skipped", ref=where, clause="7.7.3.2"))
            return 0
        kids = doc.resolve(node.get("Kids"))
        if node.get("Type") == "Page" or (not isinstance(kids, Array) and node.get("Type") != "Pages"):
            yield ref
            return 1
        leaves = 0
        for i, kid in enumerate(kids if isinstance(kids, Array) else ()):
            leaves += yield from walk(kid, depth + 1, ref, i)
        count = doc.resolve(node.get("Count"))
        if count != leaves:
            said = f"/Count {count:,}" if is_integer(count) else f"/Count {count!r:.30}"
            doc.note(warning("pages-count-wrong", f"page tree node {ref.num} says {said}, but {leaves:,} "
                             f"page(s) are reachable under it", ref=where, clause="7.7.3.2",
                             repair="pages counted by walking /Kids"))
        return leaves

    if root is None:
        doc.note(warning("pages-missing", "the catalog has no /Pages", clause="7.7.2"))
    elif isinstance(root, Dict):
        kids = doc.resolve(root.get("Kids"))
        doc.note(warning("pages-root-direct", "the catalog's /Pages is a direct dictionary, not a reference",
                         clause="7.7.2", repair="its /Kids read, as MuPDF and qpdf read them"))
        catalog = doc.trailer.get("Root")
        for i, kid in enumerate(kids if isinstance(kids, Array) else ()):
            yield from walk(kid, 1, catalog if isinstance(catalog, Ref) else None, i)
    else:
        yield from walk(root, 0)


def declared_count(doc: Document) -> int | None:
    """The page tree root's /Count (what the file says, before any walk), when usable."""
    root = doc.resolve(doc.catalog.get("Pages"))
    return _count(doc, root)

def page_ref(doc: Document, n: int) -> Ref | None:
    """Page ``n`` (1-based), descending by /Count so only one branch is parsed."""
    node_ref = doc.catalog.get("Pages")
    remaining = n - 1
    seen: set[int] = set()
    while isinstance(node_ref, Ref) and node_ref.num not in seen:
        seen.add(node_ref.num)
        node = doc.resolve(node_ref)
        if not isinstance(node, Dict):
            break
        kids = doc.resolve(node.get("Kids"))
        if node.get("Type") == "Page" or not isinstance(kids, Array):
            return node_ref if remaining == 0 else None
        for i, kid in enumerate(kids):
            if _direct_leaf(doc, kid):
                kid = _direct(doc, node_ref, i, kid)
            kid, kd = _kid(doc, kid) if isinstance(kid, Ref) else (kid, doc.resolve(kid))
            if not isinstance(kd, Dict):
                continue
            is_leaf = kd.get("Type") == "Page" or not isinstance(doc.resolve(kd.get("Kids")), Array)
            size = 1 if is_leaf else _count(doc, kd)
            if size is None:  # no usable /Count: fall back to the full walk
                refs = page_refs(doc)
                return refs[n - 1] if 0 < n <= len(refs) else None
            if remaining < size:
                node_ref = kid
                break
            remaining -= size
        else:
            return None
    return None

def _direct_leaf(doc: Document, kid) -> bool:
    """Whether a /Kids entry is a page dictionary written directly (not a reference)."""
    return isinstance(kid, Dict) and (kid.get("Type") == "Page" or (
        kid.get("Type") != "Pages" and not isinstance(doc.resolve(kid.get("Kids")), Array)))


def _direct(doc: Document, holder: Ref, index: int, page: Dict) -> Ref:
    """The reference :meth:`Document.direct_page` gives a page written directly in /Kids, said once."""
    ref = doc.direct_page(holder, index, page)
    doc.note(warning("pages-kid-direct-page", f"/Kids entry {index} of object {holder.num} is a page dictionary "
                     f"written directly, not a reference; listed as object {ref.num}, a number no object has",
                     ref=(holder.num, holder.gen), clause="7.7.3.2",
                     repair="the page is read, as MuPDF reads it and qpdf makes it an indirect object"))
    return ref


def _kid(doc: Document, ref: Ref) -> tuple[Ref, object]:
    """The page tree entry ``ref`` names, and the reference to use for it: one whose
    generation no object has, while the xref lists object ``ref.num`` at another, means
    that object (MuPDF ignores generations here, and qpdf finds the page too)."""
    node = doc.resolve(ref)
    if node is None:
        entry = doc.xref().get(ref.num)
        if entry is not None and entry.kind != FREE and entry.gen != ref.gen:
            other = Ref(ref.num, entry.gen)
            found = doc.resolve(other)
            if isinstance(found, Dict):
                doc.note(warning("pages-kid-generation", f"page tree entry {ref.num} {ref.gen} R: object "
                                 f"{ref.num} is at generation {entry.gen}; that object is used",
                                 ref=(ref.num, ref.gen), clause="7.3.10",
                                 repair="generation ignored in the page tree, as MuPDF does"))
                return other, found
    return ref, node


def _count(doc: Document, node) -> int | None:
    """A node's /Count when usable: a non-negative integer (7.7.3.2, Table 29)."""
    count = doc.resolve(node.get("Count")) if isinstance(node, Dict) else None
    return count if is_integer(count) and count >= 0 else None


def inherited(doc: Document, page: Dict, key: str):
    """A page attribute, looked up through /Parent (7.7.3.4)."""
    node = page
    for _ in range(MAX_DEPTH):
        if key in node:
            return node[key]
        parent = doc.resolve(node.get("Parent"))
        if not isinstance(parent, Dict):
            return None
        node = parent
    return None
