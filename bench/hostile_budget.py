"""Crafted hostile PDFs for the interpretation budget, the filters, the input checks and the
signature report (issue 21), written into bench/data/hostile/ (git-ignored), and every
command run over them with `timeout 60` and a 4 GB address-space limit.

Classes: form fan-out, Type3 procedure fan-out, an operator Flate bomb, PNG/TIFF predictors
with huge parameters, Paeth rows, a huge eexec part, forty Flate bombs, a ToUnicode bfrange
with a 32,000-character destination, 10^5 distinct pages, a FIFO and a symlink to /dev/zero,
4 GB of trailing zeros (sparse), and a signed file with objects appended after the last xref.

Usage: `python bench/hostile_budget.py [--run] [--only NAME] [--commands info,ops,…]`.
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "data" / "hostile"


def pdf(objects: dict[int, bytes], root: int = 1, extra: bytes = b"") -> bytes:
    """A PDF with the given objects (number → body, streams included) and a classic xref."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = {}
    for num in sorted(objects):
        offsets[num] = len(out)
        out += b"%d 0 obj\n" % num + objects[num] + b"\nendobj\n"
    xref = len(out)
    size = max(objects) + 1
    out += b"xref\n0 %d\n0000000000 65535 f \n" % size
    for num in range(1, size):
        out += b"%010d 00000 n \n" % offsets[num] if num in offsets else b"0000000000 65535 f \n"
    out += b"trailer\n<< /Size %d /Root %d 0 R %s>>\nstartxref\n%d\n%%%%EOF\n" % (size, root, extra, xref)
    return bytes(out)


def stream(data: bytes, d: bytes = b"", flate: bool = False) -> bytes:
    if flate:
        data = zlib.compress(data, 9)
        d += b" /Filter /FlateDecode"
    return b"<< /Length %d %s >>\nstream\n" % (len(data), d) + data + b"\nendstream"


def one_page(content: bytes, resources: bytes = b"<< >>", more: dict[int, bytes] | None = None,
             flate: bool = False) -> bytes:
    objs = {1: b"<< /Type /Catalog /Pages 2 0 R >>",
            2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources %s /Contents 4 0 R >>" % resources,
            4: stream(content, flate=flate)}
    objs.update(more or {})
    return pdf(objs)


FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"


def form_fanout(levels: int = 7, width: int = 10) -> bytes:
    """Form i draws form i+1 ``width`` times: width**levels runs of the last one."""
    more = {}
    for i in range(levels):
        num = 10 + i
        last = i == levels - 1
        body = b"BT /F1 12 Tf 10 10 Td (x) Tj ET" if last else b" ".join([b"/X Do"] * width)
        res = b"<< /Font << /F1 5 0 R >> >>" if last else b"<< /XObject << /X %d 0 R >> >>" % (num + 1)
        more[num] = stream(body, b"/Type /XObject /Subtype /Form /BBox [0 0 200 200] /Resources " + res)
    more[5] = FONT
    return one_page(b"/X Do", b"<< /XObject << /X 10 0 R >> >>", more)


def type3_fanout(levels: int = 6, width: int = 10) -> bytes:
    """Type3 font i's glyph procedure shows ``width`` glyphs of font i+1."""
    more = {}
    for i in range(levels):
        font, proc = 20 + 2 * i, 21 + 2 * i
        last = i == levels - 1
        body = b"0 0 m 1 1 l S" if last else b"BT /T 1 Tf (" + b"a" * width + b") Tj ET"
        more[proc] = stream(b"1000 0 d0 " + body)
        res = b"" if last else b"/Resources << /Font << /T %d 0 R >> >>" % (font + 2)
        more[font] = (b"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0] "
                      b"/CharProcs << /a %d 0 R >> /Encoding << /Differences [97 /a] >> /FirstChar 97 /LastChar 97 "
                      b"/Widths [1000] %s >>" % (proc, res))
    return one_page(b"BT /T 12 Tf (" + b"a" * width + b") Tj ET", b"<< /Font << /T 20 0 R >> >>", more)


def operator_bomb(mb: int = 400) -> bytes:
    return one_page(b"0 0 m 1 1 l " * (mb * 1024 * 1024 // 12), flate=True)


def predictor(kind: bytes, mb: int = 64, params: bytes = b"") -> bytes:
    """An image-less stream whose predictor parameters are huge or slow."""
    data = zlib.compress(b"\x04" + b"\x01" * (mb * 1024 * 1024), 9) if kind == b"paeth" else \
        zlib.compress(b"\0" * (mb * 1024 * 1024), 9)
    body = b"<< /Length %d /Filter /FlateDecode /DecodeParms << %s >> >>\nstream\n" % (len(data), params) \
        + data + b"\nendstream"
    return one_page(b"", more={6: body})


def eexec(mb: int = 48) -> bytes:
    program = b"%!PS-AdobeFont-1.0: X\n/FontName /X def\n/Encoding StandardEncoding def\ncurrentfile eexec\n" \
        + os.urandom(mb * 1024 * 1024)
    font = (b"<< /Type /Font /Subtype /Type1 /BaseFont /X /FirstChar 97 /LastChar 97 /Widths [500] "
            b"/FontDescriptor 7 0 R >>")
    desc = b"<< /Type /FontDescriptor /FontName /X /Flags 32 /FontFile 8 0 R >>"
    ff = stream(program, b"/Length1 80 /Length2 %d /Length3 0" % (mb * 1024 * 1024), flate=True)
    return one_page(b"BT /F1 12 Tf (a) Tj ET", b"<< /Font << /F1 5 0 R >> >>", {5: font, 7: desc, 8: ff})


def flate_bombs(count: int = 40, mb: int = 256) -> bytes:
    bomb = zlib.compress(b"\0" * (mb * 1024 * 1024), 9)
    more = {10 + i: b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(bomb) + bomb + b"\nendstream"
            for i in range(count)}
    return one_page(b"", more=more)


def bfrange_long(chars: int = 32000) -> bytes:
    dest = b"0041" * chars
    cmap = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap 1 begincodespacerange <00> <FF> "
            b"endcodespacerange 1 beginbfrange <00> <FF> <" + dest + b"> endbfrange endcmap "
            b"CMapName currentdict /CMap defineresource pop end end")
    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>"
    return one_page(b"BT /F1 12 Tf (" + bytes(range(32, 127)) * 20 + b") Tj ET",
                    b"<< /Font << /F1 5 0 R >> >>", {5: font, 6: stream(cmap)})


def many_pages(count: int = 100_000) -> bytes:
    objs = {1: b"<< /Type /Catalog /Pages 2 0 R >>", 3: FONT}
    kids = []
    for i in range(count):
        page, content = 10 + 2 * i, 11 + 2 * i
        kids.append(b"%d 0 R" % page)
        objs[page] = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources << /Font << /F1 3 0 R >> >> " \
                     b"/Contents %d 0 R >>" % content
        objs[content] = stream(b"BT /F1 12 Tf (page %d) Tj ET" % i)
    objs[2] = b"<< /Type /Pages /Kids [" + b" ".join(kids) + b"] /Count %d >>" % count
    return pdf(objs)


CLASSES = {
    "form-fanout": form_fanout,
    "type3-fanout": type3_fanout,
    "operator-bomb": operator_bomb,
    "png-huge-columns": lambda: predictor(b"", 64, b"/Predictor 12 /Columns 100000000 /Colors 4"),
    "png-huge-colors": lambda: predictor(b"", 64, b"/Predictor 12 /Colors 100000000 /BitsPerComponent 16"),
    "tiff-bits": lambda: predictor(b"", 16, b"/Predictor 2 /Columns 200000000 /BitsPerComponent 1"),
    "tiff-colors": lambda: predictor(b"", 64, b"/Predictor 2 /Colors 60000000"),
    "paeth": lambda: predictor(b"paeth", 128, b"/Predictor 15 /Columns %d" % (128 * 1024 * 1024)),
    "eexec": eexec,
    "flate-bombs": flate_bombs,
    "bfrange-long": bfrange_long,
    "pages-100k": many_pages,
}
SPECIAL = ("fifo", "dev-zero-link", "trailing-zeros-4g")
COMMANDS = ("info", "info --quick", "check", "objects --decode", "ops", "glyphs", "fonts", "text",
            "render -o /dev/null", "fix --dry-run", "audit")


def build(only: str | None) -> list[Path]:
    OUT.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, make in CLASSES.items():
        if only and name != only:
            continue
        path = OUT / f"{name}.pdf"
        if not path.exists():
            path.write_bytes(make())
        paths.append(path)
    for name in SPECIAL:
        if only and name != only:
            continue
        path = OUT / f"{name}.pdf"
        if not path.exists() and not path.is_symlink():
            if name == "fifo":
                os.mkfifo(path)
            elif name == "dev-zero-link":
                path.symlink_to("/dev/zero")
            else:
                path.write_bytes(one_page(b"BT (x) Tj ET"))
                with open(path, "r+b") as f:
                    f.truncate(4 * 1024 ** 3)  # sparse: 4 GB of zeros after %%EOF
        paths.append(path)
    return paths


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (4 * 1024 ** 3, 4 * 1024 ** 3))


def run(paths: list[Path], commands: list[str]) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    print("| file | " + " | ".join(commands) + " |")
    print("|---" * (len(commands) + 1) + "|")
    for path in paths:
        cells = []
        for command in commands:
            words = command.split()
            target = str(path.parent / "audit-one") if words[0] == "audit" else str(path)
            if words[0] == "audit":
                folder = Path(target)
                folder.mkdir(exist_ok=True)
                link = folder / path.name
                if not link.is_symlink():
                    link.symlink_to(path)
                words += ["--out", str(path.parent / f"{path.stem}.audit")]
            argv = [sys.executable, "-m", "pdfinspect", words[0], target, *words[1:]]
            t = time.monotonic()
            try:
                p = subprocess.run(argv, env=env, capture_output=True, timeout=60, preexec_fn=_limit)
                took = time.monotonic() - t
                tb = b"Traceback" in p.stderr
                verdict = "TRACEBACK" if tb else "abort" if p.returncode < 0 else f"rc {p.returncode}"
            except subprocess.TimeoutExpired:
                took, verdict = 60.0, "TIMEOUT"
            cells.append(f"{verdict} {took:.1f}s")
            if words[0] == "audit":
                (Path(target) / path.name).unlink()
        print(f"| {path.stem} | " + " | ".join(cells) + " |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--run", action="store_true", help="run the commands over the files and print the table")
    ap.add_argument("--only", help="one class")
    ap.add_argument("--commands", help="comma-separated commands (default: all)")
    args = ap.parse_args()
    paths = build(args.only)
    if args.run:
        run(paths, args.commands.split(",") if args.commands else list(COMMANDS))


if __name__ == "__main__":
    main()
