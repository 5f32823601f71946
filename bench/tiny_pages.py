"""Tiny one-page PDFs in many broken shapes: our page count beside MuPDF's and qpdf's.

    python bench/tiny_pages.py [--keep DIR]

Issue 21's "187-byte file with one page that MuPDF and qpdf find, 0 pages" was never
reproduced; this hunts the class differentially. Each shape (:data:`SHAPES`) is one small
edit of a minimal file (catalog, page tree, page; 150–250 bytes), written with and without
an xref table. Every file is counted by ``Document.page_count()``, ``mutool pages`` and
``qpdf --show-npages``; a file both peers give a page and we give none is printed as a
defect. Nothing is written unless ``--keep DIR``.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pdfinspect.core.diagnostics import PdfError  # noqa: E402
from pdfinspect.core.document import Document  # noqa: E402

CATALOG = b"<</Type/Catalog/Pages 2 0 R>>"
PAGES = b"<</Type/Pages/Kids[3 0 R]/Count 1>>"
PAGE = b"<</Type/Page/Parent 2 0 R/MediaBox[0 0 3 3]>>"


def assemble(objects: list[tuple[bytes, bytes]], xref: bool = True, trailer: bytes | None = b"<</Size 4/Root 1 0 R>>",
             header: bytes = b"%PDF-1.4\n", eol: bytes = b"\n", startxref: int | None = None,
             obj_kw: bytes = b" obj", endobj: bytes = b"endobj") -> bytes:
    """A file of ``objects`` (header, body) with an xref table (offsets right) unless not ``xref``."""
    out = bytearray(header)
    offsets = []
    for head, body in objects:
        offsets.append((head, len(out)))
        out += head + obj_kw + eol + body + eol + endobj + eol
    if xref:
        at = len(out)
        nums = {int(h.split()[0]): off for h, off in offsets}
        size = max(nums) + 1 if nums else 1
        out += b"xref" + eol + b"0 %d" % size + eol
        for n in range(size):
            out += (b"%010d %05d n" % (nums[n], 0) if n in nums else b"0000000000 65535 f") + b" " + eol[-1:]
        if trailer is not None:
            out += b"trailer" + eol + trailer + eol
        out += b"startxref" + eol + str(at if startxref is None else startxref).encode() + eol + b"%%EOF" + eol
    elif trailer is not None:
        out += b"trailer" + eol + trailer + eol + b"%%EOF" + eol
    return bytes(out)


def std(catalog=CATALOG, pages=PAGES, page=PAGE) -> list[tuple[bytes, bytes]]:
    return [(b"1 0", catalog), (b"2 0", pages), (b"3 0", page)]


SHAPES: dict[str, Callable[[bool], bytes]] = {
    "sound": lambda x: assemble(std(), x),
    "no-trailer": lambda x: assemble(std(), x, trailer=None),
    "trailer-without-root": lambda x: assemble(std(), x, trailer=b"<</Size 4>>"),
    "root-wrong-object": lambda x: assemble(std(), x, trailer=b"<</Size 4/Root 3 0 R>>"),
    "root-missing-object": lambda x: assemble(std(), x, trailer=b"<</Size 4/Root 9 0 R>>"),
    "root-to-pages": lambda x: assemble(std(), x, trailer=b"<</Size 4/Root 2 0 R>>"),
    "catalog-no-type": lambda x: assemble(std(catalog=b"<</Pages 2 0 R>>"), x),
    "catalog-wrong-type": lambda x: assemble(std(catalog=b"<</Type/Pages/Pages 2 0 R>>"), x),
    "pages-no-type": lambda x: assemble(std(pages=b"<</Kids[3 0 R]/Count 1>>"), x),
    "pages-no-count": lambda x: assemble(std(pages=b"<</Type/Pages/Kids[3 0 R]>>"), x),
    "pages-count-0": lambda x: assemble(std(pages=b"<</Type/Pages/Kids[3 0 R]/Count 0>>"), x),
    "pages-no-kids": lambda x: assemble(std(pages=b"<</Type/Pages/Count 1>>"), x),
    "pages-kids-not-array": lambda x: assemble(std(pages=b"<</Type/Pages/Kids 3 0 R/Count 1>>"), x),
    "pages-kids-direct-page": lambda x: assemble(
        [(b"1 0", CATALOG), (b"2 0", b"<</Type/Pages/Kids[<</Type/Page/MediaBox[0 0 3 3]>>]/Count 1>>")], x),
    "pages-is-page": lambda x: assemble(
        [(b"1 0", b"<</Type/Catalog/Pages 3 0 R>>"), (b"3 0", b"<</Type/Page/MediaBox[0 0 3 3]>>")], x),
    "pages-direct-in-catalog": lambda x: assemble(
        [(b"1 0", b"<</Type/Catalog/Pages<</Type/Pages/Kids[3 0 R]/Count 1>>>>"), (b"3 0", PAGE)], x),
    "page-no-type": lambda x: assemble(std(page=b"<</Parent 2 0 R/MediaBox[0 0 3 3]>>"), x),
    "page-wrong-type": lambda x: assemble(std(page=b"<</Type/Pages/Parent 2 0 R/MediaBox[0 0 3 3]>>"), x),
    "page-no-parent": lambda x: assemble(std(page=b"<</Type/Page/MediaBox[0 0 3 3]>>"), x),
    "page-no-mediabox": lambda x: assemble(std(page=b"<</Type/Page/Parent 2 0 R>>"), x),
    "kid-missing": lambda x: assemble(std(pages=b"<</Type/Pages/Kids[4 0 R 3 0 R]/Count 1>>"), x),
    "kid-gen-wrong": lambda x: assemble(std(pages=b"<</Type/Pages/Kids[3 1 R]/Count 1>>"), x),
    "obj-keyword-missing": lambda x: assemble(std(), x, obj_kw=b""),
    "obj-no-space": lambda x: assemble(std(), x, obj_kw=b"obj"),
    "obj-tabs": lambda x: assemble([(h.replace(b" ", b"\t"), b) for h, b in std()], x, obj_kw=b"\tobj"),
    "obj-newlines": lambda x: assemble([(h.replace(b" ", b"\n"), b) for h, b in std()], x, obj_kw=b"\nobj"),
    "endobj-missing": lambda x: assemble(std(), x, endobj=b""),
    "cr-only": lambda x: assemble(std(), x, eol=b"\r"),
    "crlf": lambda x: assemble(std(), x, eol=b"\r\n"),
    "header-after-garbage": lambda x: assemble(std(), x, header=b"garbage garbage\n%PDF-1.4\n"),
    "no-header": lambda x: assemble(std(), x, header=b""),
    "objects-numbered-from-0": lambda x: assemble(
        [(b"0 0", b"<</Type/Catalog/Pages 1 0 R>>"), (b"1 0", b"<</Type/Pages/Kids[2 0 R]/Count 1>>"),
         (b"2 0", b"<</Type/Page/Parent 1 0 R/MediaBox[0 0 3 3]>>")], x, trailer=b"<</Size 3/Root 0 0 R>>"),
    "generations-nonzero": lambda x: assemble(
        [(b"1 2", b"<</Type/Catalog/Pages 2 3 R>>"), (b"2 3", b"<</Type/Pages/Kids[3 4 R]/Count 1>>"),
         (b"3 4", b"<</Type/Page/Parent 2 3 R/MediaBox[0 0 3 3]>>")], x, trailer=b"<</Size 4/Root 1 2 R>>"),
    "generations-refs-zero": lambda x: assemble(
        [(b"1 2", CATALOG), (b"2 3", PAGES), (b"3 4", PAGE)], x),
    "duplicate-catalog-number": lambda x: assemble(std() + [(b"1 0", b"<</Type/Font>>")], x),
    "duplicate-page-number-later-broken": lambda x: assemble(std() + [(b"3 0", b"<<")], x),
    "startxref-nowhere": lambda x: assemble(std(), True, startxref=9999),
    "startxref-zero": lambda x: assemble(std(), True, startxref=0),
    "eof-missing": lambda x: assemble(std(), x)[:-6],
    "truncated-in-trailer": lambda x: assemble(std(), x)[:-40],
    "two-catalogs-first-bad": lambda x: assemble(
        [(b"4 0", b"<</Type/Catalog/Pages 5 0 R>>")] + std(), x, trailer=b"<</Size 6/Root 4 0 R>>"),
    "names-with-hash": lambda x: assemble(std(catalog=b"<</Type/Cat#61log/Pages 2 0 R>>",
                                              pages=b"<</Type/P#61ges/Kids[3 0 R]/Count 1>>"), x),
    "page-in-objstm-like-garbage": lambda x: assemble(std(page=b"<</Type/Page/Parent 2 0 R/MediaBox[0 0 3 3]"), x),
    "dict-unclosed-catalog": lambda x: assemble(std(catalog=b"<</Type/Catalog/Pages 2 0 R"), x),
    "pages-unclosed": lambda x: assemble(std(pages=b"<</Type/Pages/Kids[3 0 R/Count 1>>"), x),
    "comment-in-header": lambda x: assemble([(b"1 0 %c\n", CATALOG)] + std()[1:], x),
    "no-space-before-R": lambda x: assemble(std(pages=b"<</Type/Pages/Kids[3 0R]/Count 1>>"), x),
    "spaces-in-keyword-gap": lambda x: assemble(std(), x, obj_kw=b"   obj   "),
    "nul-separators": lambda x: assemble(std(), x, obj_kw=b"\x00obj"),
    "form-feed": lambda x: assemble(std(), x, eol=b"\x0c"),
    "lowercase-type": lambda x: assemble(std(catalog=b"<</Type/catalog/Pages 2 0 R>>",
                                             pages=b"<</Type/pages/Kids[3 0 R]/Count 1>>",
                                             page=b"<</Type/page/Parent 2 0 R>>"), x),
}


def peers(path: str) -> tuple[int | None, int | None]:
    """MuPDF's and qpdf's page counts (``None``: it failed)."""
    try:
        out = subprocess.run(["mutool", "pages", path], capture_output=True, timeout=30).stdout
        # a page MuPDF lists but cannot read ("Failed to gather information") is only /Count speaking
        mu: int | None = len(re.findall(rb"<page ", out)) - len(re.findall(rb"Failed to gather", out))
    except (OSError, subprocess.TimeoutExpired):
        mu = None
    try:
        run = subprocess.run(["qpdf", "--show-npages", path], capture_output=True, timeout=30)
        q: int | None = int(run.stdout.split()[0]) if run.stdout.strip() else None
    except (OSError, subprocess.TimeoutExpired, ValueError):
        q = None
    return mu, q


def ours(data: bytes) -> int | str:
    try:
        return Document(data).page_count()
    except PdfError as e:
        return e.diagnostic.code


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--keep", help="write the files into this folder")
    args = ap.parse_args()
    defects = 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.keep or tmp)
        folder.mkdir(exist_ok=True)
        print(f"{'shape':42} {'bytes':>5} {'ours':>6} {'mupdf':>5} {'qpdf':>5}")
        for name, make in SHAPES.items():
            for xref in (True, False):
                data = make(xref)
                label = name + ("" if xref else " (no xref)")
                path = folder / (label.replace(" ", "_").replace("(", "").replace(")", "") + ".pdf")
                path.write_bytes(data)
                mu, q = peers(str(path))
                we = ours(data)
                bad = bool(mu) and bool(q) and not (isinstance(we, int) and we > 0)
                defects += bad
                print(f"{label:42} {len(data):5} {we!s:>6} {mu!s:>5} {q!s:>5}{'  DEFECT' if bad else ''}")
    print(f"{defects} defect(s): both peers find a page, we find none")
    return 1 if defects else 0


if __name__ == "__main__":
    sys.exit(main())
