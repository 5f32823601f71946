"""Write the benchmark PDFs into bench/data/ (git-ignored), deterministically.

- large-1000.pdf: 1,000 pages, each with a small content stream, one shared font,
  a classic xref table;
- small-1.pdf: the same generator with one page;
- dense-1.pdf: one page whose content stream holds at least 100,000 operators (for the
  content-stream stepper);
- glyphs-16k.pdf: one page showing about 16,000 glyphs in four fonts (three standard 14
  fonts and an embedded Type 1 program with a ToUnicode CMap), lines of TJ with kerning:
  the density of pdf.js's bug1978317.pdf, for ``glyphs`` against ``mutool trace``;
- art-430k.pdf: one page of dense vector art with text, about 430,000 operators (paths,
  colours, ``q cm Q``) and 16,000 glyphs, and 10,000 link annotations without an appearance:
  the shape of bug1978317.pdf itself, for the interpreter's speed.

Usage: `python bench/make_large.py [--pages N] [--operators N] [--glyphs N]`.
"""

from __future__ import annotations

import argparse
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "sample_pdfs"))
from make_samples import HELVETICA, Builder, stream, tounicode, type1_font  # noqa: E402  (a script)

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


WORDS = (b"glyph", b"code", b"font", b"encoding", b"Unicode", b"page", b"stream", b"matrix", b"width",
         b"CMap", b"resolution", b"extractor", b"heuristic", b"collection")
GLYPH_FONTS = (b"Helvetica", b"Times-Roman", b"Courier-Bold")


def dense_glyphs(glyphs: int) -> bytes:
    """One page of small text lines, the font changing every line, about ``glyphs`` glyphs."""
    lines, count, n = [], 0, 0
    while count < glyphs:
        font = n % (len(GLYPH_FONTS) + 1)
        y = 780 - (n % 190) * 4
        if font == len(GLYPH_FONTS):  # the embedded font draws codes 20 (kappa) and 93 (sharp)
            text = b"\\024\\135 " * 26
            shown = 78
            lines.append(b"BT /F%d 3.5 Tf %d %d Td [(%s)] TJ ET" % (font, 10 + n // 190 * 3, y, text))
        else:
            words = [WORDS[(n * 7 + i) % len(WORDS)] for i in range(12)]
            parts = b" ".join(b"(%s ) -%d" % (w, 20 + i) for i, w in enumerate(words))
            shown = sum(len(w) + 1 for w in words)
            lines.append(b"BT /F%d 3.5 Tf %d %d Td [%s] TJ ET" % (font, 10 + n // 190 * 3, y, parts))
        count += shown
        n += 1
    b = Builder()
    fonts = b" ".join(b"/F%d %d 0 R" % (i, 5 + i) for i in range(len(GLYPH_FONTS) + 1))
    b.obj(1, b"<< /Type /Catalog /Pages 2 0 R >>")
    b.obj(2, b"<< /Type /Pages /Kids [3 0 R] /Count 1 /MediaBox [0 0 612 792] >>")
    b.obj(3, b"<< /Type /Page /Parent 2 0 R /Contents 4 0 R /Resources << /Font << %s >> >> >>" % fonts)
    b.obj(4, stream(b"/Filter /FlateDecode", zlib.compress(b"\n".join(lines), 6)))
    for i, name in enumerate(GLYPH_FONTS):
        b.obj(5 + i, b"<< /Type /Font /Subtype /Type1 /BaseFont /%s /Encoding /WinAnsiEncoding >>" % name)
    k = 5 + len(GLYPH_FONTS)
    widths = b" ".join(b"%d" % {20: 600, 32: 250, 93: 600}.get(c, 0) for c in range(20, 94))
    b.obj(k, b"<< /Type /Font /Subtype /Type1 /BaseFont /PDFInspectKappa /FirstChar 20 /LastChar 93"
             b" /Widths [%s] /FontDescriptor %d 0 R /ToUnicode %d 0 R >>" % (widths, k + 1, k + 2))
    b.obj(k + 1, b"<< /Type /FontDescriptor /FontName /PDFInspectKappa /Flags 4 /FontBBox [0 0 600 700]"
                 b" /ItalicAngle 0 /Ascent 700 /Descent 0 /CapHeight 700 /StemV 80 /FontFile %d 0 R >>" % (k + 3))
    b.obj(k + 2, stream(b"", tounicode(b"<00> <FF>", b"1 beginbfchar\n<5D> <266F>\nendbfchar\n")))
    data, n1, n2, n3 = type1_font()
    b.obj(k + 3, stream(b"/Length1 %d /Length2 %d /Length3 %d" % (n1, n2, n3), data))
    b.xref_table(b"/Root 1 0 R")
    return b.getvalue()


def vector_art(operators: int, links: int = 10_000) -> bytes:
    """One page of small filled and stroked shapes, each in its own ``q cm Q``, with a line of
    kerned text after every 24 shapes, about ``operators`` operators; ``links`` link
    annotations without an appearance stream."""
    parts, count, n = [], 0, 0
    while count < operators:
        x, y = 10 + n % 59 * 10, 10 + n // 59 % 77 * 10
        parts.append(b"q 1 0 0 1 %d %d cm %.3f %.3f %.3f rg 0.%d w 0 0 m 4.5 0 l 6 1.5 6 3 4.5 6 c 0 6 l h f"
                     b" 0 0 1 RG 1 1 m 5 5 l 1 5 l S [1 2] 0 d 1 J 2 2 4 4 re B* Q"
                     % (x, y, n % 7 / 7, n % 11 / 11, n % 13 / 13, n % 9 + 1))
        count += 20  # q cm rg w m l c l h f RG m l l S d J re B* Q
        if n % 24 == 23:
            words = [WORDS[(n * 5 + i) % len(WORDS)] for i in range(2)]
            parts.append(b"BT /F1 3 Tf %d %d Td [(%s ) -40 (%s)] TJ ET" % (x, y, words[0], words[1]))
            count += 5
        n += 1
    b = Builder()
    first_link = 6
    annots = b" ".join(b"%d 0 R" % (first_link + i) for i in range(links))
    b.obj(1, b"<< /Type /Catalog /Pages 2 0 R >>")
    b.obj(2, b"<< /Type /Pages /Kids [3 0 R] /Count 1 /MediaBox [0 0 612 792] >>")
    b.obj(3, b"<< /Type /Page /Parent 2 0 R /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >>"
             b" /Annots [%s] >>" % annots)
    b.obj(4, stream(b"/Filter /FlateDecode", zlib.compress(b"\n".join(parts), 6)))
    b.obj(5, HELVETICA)
    for i in range(links):
        x, y = i % 60 * 10, i // 60 % 79 * 10
        b.obj(first_link + i, b"<< /Type /Annot /Subtype /Link /Rect [%d %d %d %d] /Border [0 0 0]"
                              b" /A << /S /URI /URI (https://example.org/%d) >> >>" % (x, y, x + 8, y + 8, i))
    b.xref_table(b"/Root 1 0 R")
    return b.getvalue()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=1000, help="pages in the large file")
    parser.add_argument("--operators", type=int, default=100_000, help="operators on the dense page")
    parser.add_argument("--glyphs", type=int, default=16_000, help="glyphs on the dense text page")
    parser.add_argument("--art", type=int, default=430_000, help="operators on the vector-art page")
    args = parser.parse_args(argv)
    DATA.mkdir(parents=True, exist_ok=True)
    outputs = {
        f"large-{args.pages}.pdf": many_pages(args.pages),
        "small-1.pdf": many_pages(1),
        "dense-1.pdf": dense_page(args.operators),
        "glyphs-16k.pdf": dense_glyphs(args.glyphs),
        "art-430k.pdf": vector_art(args.art),
    }
    for name, data in outputs.items():
        (DATA / name).write_bytes(data)
        print(f"{len(data):>9}  bench/data/{name}")


if __name__ == "__main__":
    main()
