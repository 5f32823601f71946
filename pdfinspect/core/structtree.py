"""The logical structure tree (ISO 32000-1 14.7): StructTreeRoot, elements, content items.

:func:`read_structure` walks /StructTreeRoot /K depth first, keeping every element's kids
in order: child elements, marked-content references (an integer MCID or an /MCR dictionary,
14.7.4.2) and object references (/OBJR, 14.7.4.3). A content item's page is its own /Pg,
else the nearest element's up the tree that has one (as pdf.js and pdfminer.six read it).
The element's type is mapped through /RoleMap (14.7.3) to a standard type (14.8.4).
Nothing raises: cycles, elements reached twice, kids of the wrong kind and a /ParentTree
(14.7.4.4) that disagrees with /K become diagnostics with codes.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Union

from .diagnostics import Diagnostic, warning
from .numbertree import number_tree
from .objects import Array, Dict, Name, Ref, String, is_integer
from .textstrings import decode_text

if TYPE_CHECKING:
    from .document import Document

MAX_DEPTH = 256  # element nesting followed before a branch is cut
MAX_ELEMENTS = 1_000_000
# Standard structure types (ISO 32000-1 14.8.4 and ISO 32000-2 14.8.4 additions).
STANDARD_TYPES = frozenset("""
Document Part Art Sect Div BlockQuote Caption TOC TOCI Index NonStruct Private
P H H1 H2 H3 H4 H5 H6 L LI Lbl LBody Table TR TH TD THead TBody TFoot
Span Quote Note Reference BibEntry Code Link Annot Ruby RB RT RP Warichu WT WP
Figure Formula Form DocumentFragment Aside Title FENote Sub Em Strong Artifact
""".split())


@dataclass(frozen=True, slots=True)
class MarkedRef:
    """A marked-content sequence of a page (``mcid`` in the page content, or in the stream
    ``stream`` when the MCR names one with /Stm). ``page`` is 1-based (None: no page known)."""

    page: int | None
    page_ref: Ref | None
    mcid: int
    stream: Ref | None = None


@dataclass(frozen=True, slots=True)
class ObjectRef:
    """An object reference (/OBJR): an annotation, an XObject… shown on ``page``."""

    page: int | None
    page_ref: Ref | None
    obj: Ref | None


@dataclass(slots=True)
class StructElement:
    """One structure element (14.7.2) with its kids in order."""

    ref: Ref | None
    type: str
    standard_type: str | None  # /S through /RoleMap; None when no standard type is reached
    title: str | None = None
    lang: str | None = None
    alt: str | None = None
    actual_text: str | None = None
    expansion: str | None = None
    id: str | None = None
    attributes: list[Any] = field(default_factory=list)  # /A entries, JSON-ready
    classes: list[str] = field(default_factory=list)  # /C
    kids: list[Union["StructElement", MarkedRef, ObjectRef]] = field(default_factory=list)
    depth: int = 0

    @property
    def children(self) -> list["StructElement"]:
        return [k for k in self.kids if isinstance(k, StructElement)]

    @property
    def mcids(self) -> list[MarkedRef]:
        return [k for k in self.kids if isinstance(k, MarkedRef)]

    @property
    def objs(self) -> list[ObjectRef]:
        return [k for k in self.kids if isinstance(k, ObjectRef)]

    def walk(self):
        """This element and every element under it, depth first in /K order."""
        yield self
        for child in self.children:
            yield from child.walk()

    def marked_refs(self):
        """Every marked-content reference under this element, in reading order."""
        for kid in self.kids:
            if isinstance(kid, MarkedRef):
                yield kid
            elif isinstance(kid, StructElement):
                yield from kid.marked_refs()


@dataclass(slots=True)
class StructTree:
    """The tree of a document: top-level elements, the role map and what was wrong."""

    root: Ref | None
    elements: list[StructElement]
    role_map: dict[str, str]
    diagnostics: list[Diagnostic]
    parent_tree: dict[int, Any]  # /StructParents key → array of element refs, or an element ref

    def walk(self):
        for e in self.elements:
            yield from e.walk()

    def marked_refs(self):
        for e in self.elements:
            yield from e.marked_refs()


def json_value(doc: Document, value: Any, depth: int = 0) -> Any:
    """A PDF value as JSON: names as ``/Name``, text strings decoded, references ``"N G R"``."""
    if isinstance(value, Ref):
        return str(value)
    if isinstance(value, Name):
        return "/" + value
    if isinstance(value, String):
        return decode_text(value.value)
    if isinstance(value, (bool, int, float)) or value is None:
        return value
    if depth > 8:
        return "…"
    if isinstance(value, Array):
        return [json_value(doc, v, depth + 1) for v in value]
    if isinstance(value, Dict):
        return {str(k): json_value(doc, v, depth + 1) for k, v in value.items()}
    return str(value)


def _text(doc: Document, value: Any) -> str | None:
    value = doc.resolve(value)
    return decode_text(value.value) if isinstance(value, String) else None


def standard_type(type_: str, role_map: dict[str, str]) -> str | None:
    """``type_`` followed through the role map until a standard type (cycle-guarded)."""
    seen = set()
    while type_ not in STANDARD_TYPES:
        if type_ in seen or type_ not in role_map:
            return None
        seen.add(type_)
        type_ = role_map[type_]
    return type_


def read_structure(doc: Document) -> StructTree | None:
    """The document's structure tree, or ``None`` when the catalog has no /StructTreeRoot."""
    root_value = doc.catalog.get("StructTreeRoot")
    if root_value is None:
        return None
    diags: list[Diagnostic] = []
    root = doc.resolve(root_value)
    tree = StructTree(root_value if isinstance(root_value, Ref) else None, [], {}, diags, {})
    if not isinstance(root, Dict):
        diags.append(warning("struct-root-invalid", "/StructTreeRoot is not a dictionary", clause="14.7.2"))
        return tree
    role_map = doc.resolve(root.get("RoleMap"))
    if isinstance(role_map, Dict):
        for k, v in role_map.items():
            v = doc.resolve(v)
            if isinstance(v, Name):
                tree.role_map[str(k)] = str(v)
    pages = {ref.num: n for n, ref in enumerate(doc.page_refs(), 1)}
    walker = _Walker(doc, tree, pages)
    kids = doc.resolve(root.get("K"))
    for kid in kids if isinstance(kids, Array) else [root.get("K")] if root.get("K") is not None else []:
        item = walker.kid(kid, None, 0, frozenset())
        if isinstance(item, StructElement):
            tree.elements.append(item)
        elif item is not None:
            diags.append(warning("struct-kid-invalid", "a content item directly under /StructTreeRoot; "
                                 "ignored", clause="14.7.2"))
    if root.get("ParentTree") is not None:
        tree.parent_tree, more = number_tree(doc, root.get("ParentTree"), "/ParentTree")
        diags.extend(more)
        _check_parent_tree(doc, tree, walker)
    return tree


class _Walker:
    def __init__(self, doc: Document, tree: StructTree, pages: dict[int, int]):
        self.doc, self.tree, self.pages = doc, tree, pages
        self.seen: set[int] = set()
        self.count = 0
        self.owner: dict[tuple[int, int | None, int], Ref | None] = {}  # (page obj, stream obj, mcid) → element

    def page(self, value: Any) -> tuple[int | None, Ref | None]:
        if not isinstance(value, Ref):
            return None, None
        n = self.pages.get(value.num)
        if n is None:
            self.tree.diagnostics.append(warning("struct-page-unknown", f"/Pg {value} is not a page of the "
                                                 "page tree", ref=(value.num, value.gen), clause="14.7.2"))
        return n, value

    def kid(self, value: Any, pg: Any, depth: int, path: frozenset[int],
            parent: StructElement | None = None) -> StructElement | MarkedRef | ObjectRef | None:
        doc, diags = self.doc, self.tree.diagnostics
        where = (value.num, value.gen) if isinstance(value, Ref) else None
        if is_integer(doc.resolve(value)):
            page, page_ref = self.page(pg)
            if page_ref is None:
                diags.append(warning("struct-mcid-no-page", f"MCID {doc.resolve(value)} of an element with no "
                                     "/Pg up the tree", clause="14.7.4.2"))
            item = MarkedRef(page, page_ref, doc.resolve(value))
            self.claim(item, parent)
            return item
        node = doc.resolve(value)
        if not isinstance(node, Dict):
            diags.append(warning("struct-kid-invalid", f"structure kid {value!r:.40} is neither an element, "
                                 "an MCID, an MCR nor an OBJR; skipped", ref=where, clause="14.7.2"))
            return None
        type_ = node.get("Type")
        own_pg = node.get("Pg") if node.get("Pg") is not None else pg
        if type_ == "MCR" or (node.get("S") is None and node.get("MCID") is not None):
            mcid = doc.resolve(node.get("MCID"))
            if not is_integer(mcid):
                diags.append(warning("struct-mcr-invalid", "an /MCR without an integer /MCID; skipped",
                                     ref=where, clause="14.7.4.2"))
                return None
            page, page_ref = self.page(own_pg)
            stm = node.get("Stm")
            item = MarkedRef(page, page_ref, mcid, stm if isinstance(stm, Ref) else None)
            self.claim(item, parent)
            return item
        if type_ == "OBJR" or (node.get("S") is None and node.get("Obj") is not None):
            page, page_ref = self.page(own_pg)
            obj = node.get("Obj")
            return ObjectRef(page, page_ref, obj if isinstance(obj, Ref) else None)
        return self.element(value, node, own_pg, depth, path)

    def claim(self, item: MarkedRef, parent: StructElement | None) -> None:
        if item.page_ref is None:
            return
        key = (item.page_ref.num, item.stream.num if item.stream else None, item.mcid)
        if key in self.owner:
            self.tree.diagnostics.append(warning(
                "struct-mcid-twice", f"MCID {item.mcid} of page {item.page or item.page_ref} is claimed by "
                "two elements", clause="14.7.4.2"))
            return
        self.owner[key] = parent.ref if parent else None

    def element(self, value: Any, node: Dict, pg: Any, depth: int, path: frozenset[int]) -> StructElement | None:
        doc, diags = self.doc, self.tree.diagnostics
        ref = value if isinstance(value, Ref) else None
        if ref is not None:
            where = (ref.num, ref.gen)
            if ref.num in path:
                diags.append(warning("struct-cycle", f"structure element {ref} is its own ancestor; the loop "
                                     "is cut", ref=where, clause="14.7.2"))
                return None
            if ref.num in self.seen:
                diags.append(warning("struct-element-twice", f"structure element {ref} is a kid of two "
                                     "elements; the second occurrence skipped", ref=where, clause="14.7.2"))
                return None
            self.seen.add(ref.num)
            path = path | {ref.num}
        if depth > MAX_DEPTH or self.count >= MAX_ELEMENTS:
            diags.append(warning("struct-too-deep", f"structure tree deeper than {MAX_DEPTH} levels or "
                                 f"larger than {MAX_ELEMENTS:,} elements; cut", clause="14.7.2"))
            return None
        self.count += 1
        s = doc.resolve(node.get("S"))
        type_ = str(s) if isinstance(s, Name) else "?"
        if not isinstance(s, Name):
            diags.append(warning("struct-type-missing", f"structure element {ref or '(direct)'} has no /S",
                                 ref=(ref.num, ref.gen) if ref else None, clause="14.7.2"))
        e = StructElement(ref, type_, standard_type(type_, self.tree.role_map),
                          _text(doc, node.get("T")), _text(doc, node.get("Lang")), _text(doc, node.get("Alt")),
                          _text(doc, node.get("ActualText")), _text(doc, node.get("E")),
                          _text(doc, node.get("ID")), depth=depth)
        attrs = doc.resolve(node.get("A"))
        for a in attrs if isinstance(attrs, Array) else [attrs] if attrs is not None else []:
            a = doc.resolve(a)
            if isinstance(a, Dict):
                e.attributes.append(json_value(doc, Dict({k: doc.resolve(v) for k, v in a.items()})))
        classes = doc.resolve(node.get("C"))
        for c in classes if isinstance(classes, Array) else [classes]:
            if isinstance(doc.resolve(c), Name):
                e.classes.append(str(doc.resolve(c)))
        kids = doc.resolve(node.get("K"))
        raw_kids = kids if isinstance(kids, Array) else [node.get("K")] if node.get("K") is not None else []
        for kid in raw_kids:
            item = self.kid(kid, pg, depth + 1, path, e)
            if item is not None:
                e.kids.append(item)
        return e


def _check_parent_tree(doc: Document, tree: StructTree, walker: _Walker) -> None:
    """Compare the /ParentTree (MCID → element, per page /StructParents) with the owners /K gave."""
    diags = tree.diagnostics
    listed: set[tuple[int, int]] = set()
    checked: set[int] = set()  # pages whose /StructParents the /ParentTree lists
    for page_num, ref in enumerate(doc.page_refs(), 1):
        page = doc.resolve(ref)
        key = doc.resolve(page.get("StructParents")) if isinstance(page, Dict) else None
        if not is_integer(key):
            continue
        if key not in tree.parent_tree:
            diags.append(warning("struct-parenttree-missing", f"page {page_num} has /StructParents {key}, "
                                 "which the /ParentTree does not list", ref=(ref.num, ref.gen), clause="14.7.4.4"))
            continue
        checked.add(ref.num)
        parents = doc.resolve(tree.parent_tree[key])
        for mcid, parent in enumerate(parents if isinstance(parents, Array) else ()):
            if parent is None or not isinstance(parent, Ref):
                continue
            listed.add((ref.num, mcid))
            k = (ref.num, None, mcid)
            if k not in walker.owner:
                diags.append(warning("struct-parenttree-extra", f"the /ParentTree gives page {page_num} MCID {mcid} "
                                     f"to element {parent}, but no element's /K claims it", clause="14.7.4.4"))
            elif walker.owner[k] is not None and walker.owner[k] != parent:
                diags.append(warning("struct-parenttree-mismatch", f"page {page_num} MCID {mcid}: the /ParentTree "
                                     f"names element {parent}, /K puts it in element {walker.owner[k]}",
                                     clause="14.7.4.4"))
    for (page_obj, stream, mcid), _ in walker.owner.items():
        if stream is None and page_obj in checked and (page_obj, mcid) not in listed:
            n = walker.pages.get(page_obj)
            diags.append(warning("struct-parenttree-unlisted", f"page {n or page_obj} MCID {mcid} is claimed by /K "
                                 "but missing from the /ParentTree", clause="14.7.4.4"))


def mcid_parents(doc: Document, page_ref: Ref) -> dict[int, tuple[Ref, str]]:
    """MCID → (structure element, its /S) for the page content of ``page_ref``, read from the
    /ParentTree entry its /StructParents names (14.7.4.4); empty for an untagged page."""
    page = doc.resolve(page_ref)
    root = doc.resolve(doc.catalog.get("StructTreeRoot"))
    key = doc.resolve(page.get("StructParents")) if isinstance(page, Dict) else None
    if not isinstance(root, Dict) or not isinstance(key, int) or root.get("ParentTree") is None:
        return {}
    entries, _ = number_tree(doc, root.get("ParentTree"), "/ParentTree")
    parents = doc.resolve(entries.get(key))
    out: dict[int, tuple[Ref, str]] = {}
    for mcid, parent in enumerate(parents if isinstance(parents, Array) else ()):
        element = doc.resolve(parent)
        if isinstance(parent, Ref) and isinstance(element, Dict):
            s = doc.resolve(element.get("S"))
            out[mcid] = (parent, str(s) if isinstance(s, Name) else "?")
    return out
