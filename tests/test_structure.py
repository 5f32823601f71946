"""The structure tree (``structure``), reading orders (``text --order``), on tagged files built here
and on every tagged file of the shared corpora (checked against a pikepdf walk of the tree)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import CORPUS, ROOT
from pdfinspect.content.order import ordered_text
from pdfinspect.content.structure import all_page_marks, content_diagnostics
from pdfinspect.core.document import Document
from pdfinspect.core.structtree import read_structure

pikepdf = pytest.importorskip("pikepdf")
from pikepdf import Array, Dictionary, Name, Pdf  # noqa: E402

# Right column drawn first: content order differs from the reading order.
TWO_COLUMNS = b"""BT /F1 12 Tf
/H1 <</MCID 0>> BDC 1 0 0 1 72 760 Tm (Title across the page) Tj EMC
/P <</MCID 1>> BDC 1 0 0 1 320 700 Tm (right one) Tj EMC
/P <</MCID 2>> BDC 1 0 0 1 320 680 Tm (right two) Tj EMC
/P <</MCID 3>> BDC 1 0 0 1 72 700 Tm (left one) Tj EMC
/P <</MCID 4>> BDC 1 0 0 1 72 680 Tm (left two) Tj EMC
/Artifact BMC 1 0 0 1 300 40 Tm (7) Tj EMC
ET"""


def _tagged(path: Path, content: bytes, kids_of, parent_tree=None) -> Path:
    """A one-page tagged PDF; ``kids_of(pdf, page, doc_elem)`` returns the /K of the Document
    element; the /ParentTree is built from /K unless ``parent_tree`` gives the array."""
    pdf = Pdf.new()
    font = Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name.Helvetica,
                      Encoding=Name.WinAnsiEncoding)
    pdf.add_blank_page(page_size=(612, 792))
    page = pdf.pages[0]
    page.Resources = Dictionary(Font=Dictionary(F1=font))
    page.Contents = pdf.make_stream(content)
    page.obj.StructParents = 0
    root = pdf.make_indirect(Dictionary(Type=Name.StructTreeRoot))
    doc_elem = pdf.make_indirect(Dictionary(Type=Name.StructElem, S=Name.Document, P=root))
    doc_elem.K = kids_of(pdf, page, doc_elem)
    root.K = doc_elem
    root.RoleMap = Dictionary(Para=Name.P)
    if parent_tree is None:
        parents = {}
        for e in doc_elem.K:
            k = e.K
            for m in (k if isinstance(k, Array) else [k]):
                if isinstance(m, int):
                    parents[int(m)] = e
        parent_tree = Array([parents.get(i) for i in range(max(parents) + 1)])
    root.ParentTree = pdf.make_indirect(Dictionary(Nums=Array([0, parent_tree])))
    pdf.Root.StructTreeRoot = root
    pdf.Root.MarkInfo = Dictionary(Marked=True)
    pdf.save(path)
    return path


def _elem(pdf, page, parent, s, mcid, **extra):
    return pdf.make_indirect(Dictionary(Type=Name.StructElem, S=Name("/" + s), P=parent, Pg=page.obj,
                                        K=mcid, **extra))


@pytest.fixture
def two_columns(tmp_path):
    def kids(pdf, page, doc):
        # reading order: title, left column, right column; the page number is an artifact
        return Array([_elem(pdf, page, doc, "H1", 0), _elem(pdf, page, doc, "Para", 3, Lang=pikepdf.String("en")),
                      _elem(pdf, page, doc, "P", 4), _elem(pdf, page, doc, "P", 1), _elem(pdf, page, doc, "P", 2)])
    return _tagged(tmp_path / "two-columns.pdf", TWO_COLUMNS, kids)


def _cli(*argv) -> subprocess.CompletedProcess:
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-m", "pdfinspect", *map(str, argv)], capture_output=True, text=True,
                          env=env, timeout=300)


def test_structure_json_tree_items_and_text(two_columns):
    r = _cli("structure", two_columns, "--json")
    assert r.returncode == 0, r.stderr
    tree = json.loads(r.stdout)
    (doc,) = tree["elements"]
    assert doc["type"] == "Document" and doc["mcids"] == []
    kids = doc["children"]
    assert [k["type"] for k in kids] == ["H1", "Para", "P", "P", "P"]
    assert kids[1]["standard_type"] == "P" and kids[1]["lang"] == "en"  # through /RoleMap
    assert [k["mcids"] for k in kids] == [[{"page": 1, "mcid": m}] for m in (0, 3, 4, 1, 2)]
    assert [k["text"] for k in kids] == ["Title across the page", "left one", "left two", "right one", "right two"]
    assert tree["diagnostics"] == []
    text = _cli("structure", two_columns).stdout
    assert "Para → P" in text and "“left one”" in text


def test_reading_orders_of_a_two_column_page(two_columns):
    with Document.open(two_columns) as doc:
        ref = doc.page_ref(1)
        content = ordered_text(doc, 1, ref, "content").split("\n")
        structure = ordered_text(doc, 1, ref, "structure").split("\n")
        columns = ordered_text(doc, 1, ref, "columns").split("\n")
    assert content[:5] == ["Title across the page", "right one", "right two", "left one", "left two"]
    assert structure[:6] == ["Title across the page", "left one", "left two", "right one", "right two", "7"]
    assert columns[:6] == ["Title across the page", "left one", "left two", "right one", "right two", "7"]
    r = _cli("text", two_columns, "--order", "structure")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split("\n")[:3] == ["Title across the page", "left one", "left two"]


def test_columns_order_reads_a_full_width_line_between_bands(tmp_path):
    content = b"""BT /F1 12 Tf
1 0 0 1 320 700 Tm (b1) Tj 1 0 0 1 72 700 Tm (a1) Tj 1 0 0 1 72 600 Tm (a full width line that spans the gutter here and more) Tj
1 0 0 1 320 500 Tm (d1) Tj 1 0 0 1 72 500 Tm (c1) Tj 1 0 0 1 72 480 Tm (c2) Tj ET"""
    path = _tagged(tmp_path / "bands.pdf", content, lambda pdf, page, doc: Array([]), Array([]))
    with Document.open(path) as doc:
        lines = ordered_text(doc, 1, doc.page_ref(1), "columns").split("\n")
    assert lines[:6] == ["a1", "b1", "a full width line that spans the gutter here and more", "c1", "c2", "d1"]


def test_broken_trees_are_diagnostics(tmp_path):
    content = b"BT /F1 12 Tf /P <</MCID 0>> BDC 72 700 Td (a) Tj EMC /P <</MCID 1>> BDC (b) Tj EMC ET"

    def kids(pdf, page, doc):
        a = _elem(pdf, page, doc, "P", 0)
        b = _elem(pdf, page, doc, "P", 5)  # no content has MCID 5; MCID 1 is unclaimed
        loop = _elem(pdf, page, doc, "Sect", Array([]))
        loop.K = Array([loop, pikepdf.String("junk")])  # its own kid, and a kid of no kind
        return Array([a, b, loop])
    # the ParentTree gives MCID 0 to the Document element, not to the P that /K puts it in
    path = _tagged(tmp_path / "broken.pdf", content, kids, parent_tree=None)
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        root = pdf.Root.StructTreeRoot
        root.ParentTree.Nums[1][0] = root.K
        pdf.save(path)
    with Document.open(path) as doc:
        tree = read_structure(doc)
        codes = {d.code for d in tree.diagnostics + content_diagnostics(tree, all_page_marks(doc, [1]))}
    assert {"struct-cycle", "struct-kid-invalid", "struct-mcid-no-content", "struct-content-unclaimed",
            "struct-parenttree-mismatch"} <= codes
    r = _cli("structure", path, "--json")
    assert r.returncode == 0 and "Traceback" not in r.stderr
    assert {"struct-cycle", "struct-mcid-no-content"} <= {d["code"] for d in json.loads(r.stdout)["diagnostics"]}


def test_untagged_file_says_so(tmp_path):
    pdf = Pdf.new()
    pdf.add_blank_page()
    pdf.save(tmp_path / "plain.pdf")
    r = _cli("structure", tmp_path / "plain.pdf")
    assert r.returncode == 0 and "no structure tree" in r.stdout


# -- agreement with an independent walk ----------------------------------------------------------
def _pikepdf_walk(path: Path) -> list[tuple]:
    """(depth, type, objgen, [(page, mcid)…], [obj…]) per element, walked with pikepdf alone."""
    out: list[tuple] = []
    with pikepdf.open(path) as pdf:
        pages = {p.obj.objgen: n for n, p in enumerate(pdf.pages, 1)}
        root = pdf.Root.get("/StructTreeRoot")
        if root is None:
            return out
        seen = set()

        def elem(node, depth, pg):
            if node.is_indirect:
                if node.objgen in seen:
                    return
                seen.add(node.objgen)
            pg = node.get("/Pg", pg)
            mcids, objs, kids = [], [], []
            k = node.get("/K")
            for kid in (k if isinstance(k, Array) else [] if k is None else [k]):
                if isinstance(kid, int):
                    mcids.append((pages.get(pg.objgen) if pg is not None else None, int(kid)))
                elif isinstance(kid, Dictionary) and ("/S" in kid):
                    kids.append(kid)
                elif isinstance(kid, Dictionary) and (kid.get("/Type") == "/MCR" or "/MCID" in kid):
                    p = kid.get("/Pg", pg)
                    mcids.append((pages.get(p.objgen) if p is not None else None, int(kid.MCID)))
                elif isinstance(kid, Dictionary) and (kid.get("/Type") == "/OBJR" or "/Obj" in kid):
                    objs.append("%d %d R" % kid.Obj.objgen if "/Obj" in kid else None)
            out.append((depth, str(node.get("/S")), "%d %d R" % node.objgen if node.is_indirect else None,
                        mcids, objs))
            for kid in kids:
                elem(kid, depth + 1, pg)

        k = root.get("/K")
        for kid in (k if isinstance(k, Array) else [] if k is None else [k]):
            if isinstance(kid, Dictionary):
                elem(kid, 0, None)
    return out


def _ours(tree: dict) -> list[tuple]:
    out: list[tuple] = []

    def walk(node, depth):
        out.append((depth, "/" + node["type"], node["ref"], [(m["page"], m["mcid"]) for m in node["mcids"]],
                    [o["obj"] for o in node["objs"]]))
        for c in node["children"]:
            walk(c, depth + 1)
    for e in tree["elements"]:
        walk(e, 0)
    return out


def _tagged_corpus_files() -> list[Path]:
    files = []
    for folder in (CORPUS, CORPUS.parent / "corpus-pdfjs"):
        for path in sorted(folder.glob("*.pdf")) if folder.is_dir() else ():
            try:
                with pikepdf.open(path) as pdf:
                    if "/StructTreeRoot" in pdf.Root:
                        files.append(path)
            except Exception:  # pikepdf cannot read it (encrypted, damaged): nothing to compare with
                continue
    return files


def test_structure_json_agrees_with_a_pikepdf_walk_on_the_corpora():
    files = _tagged_corpus_files()
    if not files:
        pytest.skip("no shared corpus with tagged files")
    disagree, checked = [], 0
    for path in files:
        try:
            theirs = _pikepdf_walk(path)
        except Exception:  # pikepdf cannot read it (encrypted, damaged): nothing to compare with
            continue
        r = _cli("structure", path, "--json")
        if r.returncode != 0:
            disagree.append(f"{path.name}: exit {r.returncode} {r.stderr[-200:]}")
            continue
        if _ours(json.loads(r.stdout)) != theirs:
            disagree.append(path.name)
        checked += 1
    assert checked and not disagree, disagree
