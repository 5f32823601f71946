"""``structure``: the logical structure tree (ISO 32000-1 14.7) with each element's text."""
from __future__ import annotations

from ..content.structure import all_page_marks, content_diagnostics, element_text
from ..core.structtree import MarkedRef, ObjectRef, StructElement, read_structure
from ..present.text import safe_line
from .common import EXIT_OK, add_common_options, dump_json, open_document, page_number, page_spec


def register(sub) -> None:
    s = sub.add_parser("structure", help="the structure tree of a tagged PDF: elements, their marked content "
                                         "(page, MCID) and its text, problems with the tree")
    s.add_argument("file")
    s.add_argument("-p", "--page", type=page_spec, help="only the elements with content on page N (1-based, or a "
                                                            "page label)")
    s.add_argument("--json", action="store_true", help="the tree as JSON")
    add_common_options(s)


def _item_json(item: MarkedRef | ObjectRef) -> dict:
    if isinstance(item, MarkedRef):
        rec: dict = {"page": item.page, "mcid": item.mcid}
        if item.stream is not None:
            rec["stream"] = str(item.stream)
        return rec
    return {"page": item.page, "obj": str(item.obj) if item.obj else None}


def _on_page(e: StructElement, page: int) -> bool:
    return any(getattr(k, "page", None) == page for k in e.kids if not isinstance(k, StructElement)) \
        or any(_on_page(c, page) for c in e.children)


def cmd_structure(args, out) -> int:
    doc = open_document(args)
    if args.page is not None:
        args.page = page_number(doc, args.page)
    tree = read_structure(doc)
    if tree is None:
        if args.json:
            dump_json({"root": None, "role_map": {}, "elements": [], "diagnostics": []})
        else:
            out.line("no structure tree: the catalog has no /StructTreeRoot (the file is not tagged)")
        return EXIT_OK
    pages = [args.page] if args.page is not None else sorted({i.page for i in tree.marked_refs() if i.page})
    marks = all_page_marks(doc, pages)
    diags = tree.diagnostics + content_diagnostics(tree, marks)

    def keep(e: StructElement) -> bool:
        return args.page is None or _on_page(e, args.page)

    def node(e: StructElement) -> dict:
        return {"type": e.type, "standard_type": e.standard_type, "ref": str(e.ref) if e.ref else None,
                "title": e.title, "lang": e.lang, "alt": e.alt, "actual_text": e.actual_text,
                "expansion": e.expansion, "id": e.id, "attributes": e.attributes, "classes": e.classes,
                "children": [node(c) for c in e.children if keep(c)],
                "mcids": [_item_json(m) for m in e.mcids], "objs": [_item_json(o) for o in e.objs],
                "text": element_text(e, marks)}

    if args.json:
        dump_json({"root": str(tree.root) if tree.root else None, "role_map": tree.role_map,
                   "elements": [node(e) for e in tree.elements if keep(e)],
                   "diagnostics": [{"code": d.code, "message": d.message} for d in diags]})
        return EXIT_OK
    out.line(f"StructTreeRoot {tree.root or '(direct)'}" + (
        "  RoleMap: " + ", ".join(f"/{k} → /{v}" for k, v in tree.role_map.items()) if tree.role_map else ""))
    for e in tree.walk():
        if not keep(e):
            continue
        kind = e.type if e.standard_type in (None, e.type) else f"{e.type} → {e.standard_type}"
        facts = [f"{label} {value!r}" for label, value in (("T", e.title), ("Lang", e.lang), ("Alt", e.alt),
                                                            ("ActualText", e.actual_text), ("E", e.expansion))
                 if value is not None]
        facts += [", ".join(f"{k} {v}" for k, v in a.items()) for a in e.attributes]
        facts += [f"p{m.page or '?'} MCID {m.mcid}" + (f" in {m.stream}" if m.stream else "") for m in e.mcids]
        facts += [f"p{o.page or '?'} OBJR {o.obj}" for o in e.objs]
        pad = "  " * (e.depth + 1)
        out.line(safe_line(f"{pad}{kind}{' (' + str(e.ref) + ')' if e.ref else ''}"
                           + (f"  [{'; '.join(facts)}]" if facts else "")))
        text = element_text(e, marks)
        if text:
            out.line(safe_line(f"{pad}  “{text}”"))
    for d in diags:
        out.line(safe_line(f"! {d.code}: {d.message}"))
    return EXIT_OK
