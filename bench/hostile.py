"""Crafted hostile PDFs for the parsing layers, and every CLI command run over them under limits.

Classes (issue 21): numbers with thousands of digits in each place a number is read (an
object, ``/Length``, ``/MediaBox``, the trailer, an xref entry, a content stream, a CMap),
magnitudes that overflow to infinity (a matrix, a font size, a width), long runs of ``<``,
``<<``, ``R``, ``[``, ``(`` in an object and in a content stream, and the encryption cases
(``/V 6`` with ``/CF``, an R6 file whose ``/UE`` is damaged).

Usage: ``python bench/hostile.py [--out bench/data/hostile] [--timeout 60] [--memory-gb 4]
[--only NAME]``. The files are written (not committed) under ``--out``; each command runs in a
child process with ``timeout`` seconds and an address-space limit; the table counts
tracebacks, timeouts and aborts (death by a signal, MemoryError included).
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "data" / "hostile"

HUGE = b"9" * 5000
HUGE_REAL = b"9" * 400 + b".5"  # overflows a float to infinity


def build(objects: dict[int, bytes], trailer: bytes = b"", streams: dict[int, bytes] | None = None,
          xref_body: bytes | None = None) -> bytes:
    """A classic PDF of ``objects`` (num → dictionary or value bytes), ``streams`` giving the
    data of stream objects; the xref table is correct unless ``xref_body`` replaces it."""
    streams = streams or {}
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = {}
    size = max(objects) + 1
    for num in sorted(objects):
        offsets[num] = len(out)
        body = objects[num]
        if num in streams:
            data = streams[num]
            if b"/Length" not in body:
                body = body[:-2] + b" /Length %d>>" % len(data)
            out += b"%d 0 obj\n%s\nstream\n%s\nendstream\nendobj\n" % (num, body, data)
        else:
            out += b"%d 0 obj\n%s\nendobj\n" % (num, body)
    xref = len(out)
    if xref_body is None:
        xref_body = b"0 %d\n0000000000 65535 f \n" % size + b"".join(
            b"%010d 00000 n \n" % offsets[n] if n in offsets else b"0000000000 00000 f \n"
            for n in range(1, size))
    out += b"xref\n" + xref_body
    out += b"trailer\n<</Size %d /Root 1 0 R%s>>\nstartxref\n%d\n%%%%EOF\n" % (size, trailer, xref)
    return bytes(out)


FONT = b"<</Type/Font/Subtype/Type1/BaseFont/Helvetica/FirstChar 32/LastChar 126%s>>"


def page_file(content: bytes, page_extra: bytes = b"", font_extra: bytes = b"",
              extra: dict[int, bytes] | None = None, streams: dict[int, bytes] | None = None,
              trailer: bytes = b"") -> bytes:
    objects = {
        1: b"<</Type/Catalog/Pages 2 0 R>>",
        2: b"<</Type/Pages/Kids[3 0 R]/Count 1>>",
        3: b"<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]/Resources<</Font<</F1 5 0 R>>>>"
           b"/Contents 4 0 R" + page_extra + b">>",
        4: b"<<>>",
        5: FONT % font_extra,
    }
    objects.update(extra or {})
    all_streams = {4: content}
    all_streams.update(streams or {})
    return build(objects, trailer, all_streams)


TEXT = b"BT /F1 12 Tf 72 720 Td (Hello) Tj ET"


def cmap(body: bytes) -> bytes:
    return (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
            b"1 begincodespacerange <00> <FF> endcodespacerange\n" + body
            + b"\nendcmap CMapName currentdict /CMap defineresource pop end end")


def _with_tounicode(body: bytes) -> bytes:
    return page_file(TEXT, font_extra=b"/ToUnicode 6 0 R", extra={6: b"<<>>"}, streams={6: cmap(body)})


def _runs(unit: bytes, n: int = 1 << 20) -> bytes:
    return unit * (n // len(unit))


def cases() -> dict[str, bytes]:
    """Every crafted file, by name."""
    c: dict[str, bytes] = {}
    # -- huge digit strings, in each place a number is read
    c["digits-object"] = page_file(TEXT, extra={6: HUGE})
    c["digits-length"] = page_file(TEXT).replace(b"/Length %d" % len(TEXT), b"/Length " + HUGE)
    c["digits-mediabox"] = page_file(TEXT).replace(b"[0 0 612 792]", b"[0 0 " + HUGE + b" 792]")
    c["digits-trailer"] = page_file(TEXT, trailer=b"/Size " + HUGE)
    c["digits-xref"] = page_file(TEXT).replace(b"xref\n0 6\n", b"xref\n0 " + HUGE + b"\n")
    c["digits-content"] = page_file(b"BT /F1 " + HUGE + b" Tf 72 720 Td (Hello) Tj ET")
    c["digits-content-real"] = page_file(b"BT /F1 12 Tf " + HUGE + b".5 720 Td (Hello) Tj ET")
    c["digits-cmap"] = _with_tounicode(b"1 beginbfchar <" + b"4" * 5000 + b"> <0041> endbfchar\n"
                                       + HUGE + b" beginbfrange <20> <7E> <0020> endbfrange")
    c["digits-widths"] = page_file(TEXT, font_extra=b"/Widths[" + HUGE + b"]")
    # -- magnitudes that become infinity or NaN once multiplied
    c["inf-matrix"] = page_file(HUGE_REAL + b" 0 0 " + HUGE_REAL + b" 0 0 cm " + TEXT)
    big = b"1" + b"0" * 37 + b".0"  # in range; ten of them multiplied are not
    c["inf-matrix-product"] = page_file((big + b" 0 0 " + big + b" 0 0 cm ") * 10 + TEXT)
    c["inf-text-product"] = page_file(b"BT /F1 " + big + b" Tf " + big + b" Tz (Hello) Tj ET",
                                      font_extra=b"/Widths[" + b" ".join([big] * 95) + b"]")
    c["nan-matrix"] = page_file(HUGE_REAL + b" 0 0 1 0 0 cm 0 0 0 0 0 0 cm " + TEXT)
    c["inf-fontsize"] = page_file(b"BT /F1 " + HUGE_REAL + b" Tf 72 720 Td (Hello) Tj ET")
    c["inf-textmatrix"] = page_file(b"BT /F1 12 Tf " + HUGE_REAL + b" 0 0 1 0 0 Tm (Hello) Tj ET")
    c["inf-width"] = page_file(TEXT, font_extra=b"/Widths[" + b" ".join([HUGE_REAL] * 95) + b"]")
    c["inf-mediabox"] = page_file(TEXT).replace(b"[0 0 612 792]", b"[0 0 " + HUGE_REAL + b" 792]")
    # -- long runs of delimiters and keywords, in an object and in a content stream
    for name, unit in (("lt", b"<"), ("dictopen", b"<<"), ("R", b" R"), ("bracket", b"["),
                       ("paren", b"("), ("gt", b">"), ("refs", b"1 0 R "), ("closers", b"]>>)")):
        c[f"run-{name}-object"] = page_file(TEXT, extra={6: _runs(unit)})
        c[f"run-{name}-content"] = page_file(_runs(unit) + b"\n" + TEXT)
    c["run-lt-8MB-content"] = page_file(_runs(b"<", 8 << 20))
    # -- encryption
    c["crypt-v6-cf"] = page_file(TEXT, extra={9: b"<</Filter/Standard/V 6/R 7/Length 256"
                                               b"/CF<</StdCF<</CFM/AESV4/Length 32>>>>/StmF/StdCF/StrF/StdCF"
                                               b"/O<" + b"00" * 48 + b">/U<" + b"00" * 48 + b">/P -4>>"},
                                 trailer=b"/Encrypt 9 0 R/ID[<00112233445566778899aabbccddeeff>"
                                         b"<00112233445566778899aabbccddeeff>]")
    c["crypt-r6-bad-ue"] = _r6_bad_ue()
    return c


def _r6_bad_ue() -> bytes:
    """An AES-256 (R6) file made by pikepdf with an empty user password, its /UE damaged."""
    try:
        import io

        import pikepdf
    except ImportError:
        return b""
    pdf = pikepdf.open(io.BytesIO(page_file(TEXT)))
    buf = io.BytesIO()
    pdf.save(buf, encryption=pikepdf.Encryption(user="", owner="secret", R=6),
             object_stream_mode=pikepdf.ObjectStreamMode.disable)
    data = buf.getvalue()
    i = data.find(b"/UE <")
    if i < 0:
        i = data.find(b"/UE<")
    j = data.index(b"<", i) + 1
    return data[:j] + b"00" * 32 + data[j + 64:]


COMMANDS: list[tuple[str, list[str]]] = [
    ("info", ["info", "{f}"]),
    ("trailer", ["trailer", "{f}"]),
    ("pages", ["pages", "{f}"]),
    ("xref", ["xref", "{f}"]),
    ("show", ["show", "{f}", "3"]),
    ("refs", ["refs", "{f}", "5"]),
    ("objects", ["objects", "{f}"]),
    ("objects-json", ["objects", "{f}", "--json", "--decode"]),
    ("ops", ["ops", "{f}", "-p", "1"]),
    ("ops-json", ["ops", "{f}", "-p", "1", "--json"]),
    ("glyphs-json", ["glyphs", "{f}", "-p", "1", "--json", "--path"]),
    ("fonts", ["fonts", "{f}"]),
    ("text", ["text", "{f}", "-p", "1"]),
    ("render", ["render", "{f}", "-p", "1", "-o", "{tmp}/out.png", "--boxes", "all"]),
    ("extract", ["extract", "{f}", "4", "-o", "{tmp}/out.bin"]),
    ("fix", ["fix", "{f}", "--dry-run"]),
    ("check", ["check", "{f}"]),
    ("audit", ["audit", "{f}", "-o", "{tmp}/audit"]),
]


def _limit(memory: int):
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    return apply


def run(path: Path, argv: list[str], timeout: float, memory: int, tmp: Path) -> str:
    """One command: ``ok``, ``traceback``, ``timeout`` or ``abort``."""
    args = [a.format(f=path, tmp=tmp) for a in argv]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    try:
        p = subprocess.run([sys.executable, "-m", "pdfinspect", *args], capture_output=True, env=env,
                           timeout=timeout, preexec_fn=_limit(memory), cwd=tmp)
    except subprocess.TimeoutExpired:
        return "timeout"
    if b"Traceback (most recent call last)" in p.stderr:
        return "abort" if b"MemoryError" in p.stderr else "traceback"
    if p.returncode < 0:
        return "abort"
    return "ok"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--memory-gb", type=float, default=4)
    ap.add_argument("--only", action="append", help="case name prefix (repeatable)")
    ap.add_argument("--commands", help="comma-separated command ids (default all)")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    tmp = args.out / "tmp"
    tmp.mkdir(exist_ok=True)
    memory = int(args.memory_gb * (1 << 30))
    commands = COMMANDS if not args.commands else [c for c in COMMANDS if c[0] in args.commands.split(",")]
    totals = {"ok": 0, "traceback": 0, "timeout": 0, "abort": 0}
    for name, data in cases().items():
        if args.only and not any(name.startswith(o) for o in args.only):
            continue
        if not data:
            print(f"{name}: skipped (pikepdf absent)")
            continue
        path = args.out / f"{name}.pdf"
        path.write_bytes(data)
        bad = []
        for cid, argv in commands:
            t = time.monotonic()
            result = run(path.resolve(), argv, args.timeout, memory, tmp.resolve())
            totals[result] += 1
            if result != "ok":
                bad.append(f"{cid}:{result}")
            elif time.monotonic() - t > 10:
                bad.append(f"{cid}:slow {time.monotonic() - t:.0f}s")
        print(f"{name:28} {'ok' if not bad else ' '.join(bad)}", flush=True)
    print(" ".join(f"{k} {v}" for k, v in totals.items()))


if __name__ == "__main__":
    main()
