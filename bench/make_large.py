"""Write the benchmark PDFs into bench/data/ (git-ignored), deterministically.

- large-1000.pdf: 1,000 pages, each with a small content stream, one shared font,
  a classic xref table;
- small-1.pdf: the same generator with one page;
- dense-1.pdf: one page whose content stream holds at least 100,000 operators (for the
  content-stream stepper).

Usage: `python bench/make_large.py [--pages N] [--operators N]`.
"""

from __future__ import annotations

import argparse
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "sample_pdfs"))
from make_samples import HELVETICA, Builder, stream  # noqa: E402  (a script, not a package)

DATA = ROOT / "bench" / "data"
OPERATORS_PER_LABEL = 5  # BT Tf Td Tj ET


def document(contents: list[bytes]) -> bytes:
    """One page per content stream: objects 1 Catalog, 2 Pages, 3 font, then page/content pairs."""
    b = Builder()
    kids = b" ".join(b"%d 0 R" % (4 + 2 * i) for i in range(len(contents)))
    b.obj(1, b"<< /Type /Catalog /Pages 2 0 R >>")
    b.obj(2, b"<< /Type /Pages /Kids [%s] /Count %d /MediaBox [0 0 612 792]"
             b" /Resources << /Font << /F1 3 0 R >> >> >>" % (kids, len(contents)))
    b.obj(3, HELVETICA)
    for i, data in enumerate(contents):
        b.obj(4 + 2 * i, b"<< /Type /Page /Parent 2 0 R /Contents %d 0 R >>" % (5 + 2 * i))
        b.obj(5 + 2 * i, stream(b"/Filter /FlateDecode", zlib.compress(data, 6)))
    b.xref_table(b"/Root 1 0 R")
    return b.getvalue()


def many_pages(count: int) -> bytes:
    """`count` pages, each showing its number and a line of text."""
    return document([
        b"BT /F1 24 Tf 72 720 Td (Page %d of %d) Tj /F1 12 Tf 0 -30 Td"
        b" (The quick brown fox jumps over the lazy dog.) Tj ET" % (n, count)
        for n in range(1, count + 1)
    ])


def dense_page(operators: int) -> bytes:
    """One page of numbered labels on a grid, at least `operators` operators in all."""
    labels = -(-operators // OPERATORS_PER_LABEL)
    content = b"".join(
        b"BT /F1 6 Tf %d %d Td (%d) Tj ET\n" % (20 + (i % 40) * 14, 770 - (i // 40 % 62) * 12, i)
        for i in range(labels)
    )
    return document([content])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=1000, help="pages in the large file")
    parser.add_argument("--operators", type=int, default=100_000, help="operators on the dense page")
    args = parser.parse_args(argv)
    DATA.mkdir(parents=True, exist_ok=True)
    outputs = {
        f"large-{args.pages}.pdf": many_pages(args.pages),
        "small-1.pdf": many_pages(1),
        "dense-1.pdf": dense_page(args.operators),
    }
    for name, data in outputs.items():
        (DATA / name).write_bytes(data)
        print(f"{len(data):>9}  bench/data/{name}")


if __name__ == "__main__":
    main()
