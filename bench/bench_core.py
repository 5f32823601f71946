"""Core benchmark: whole processes on the same large file, next to pypdf and pdfminer.six.

    python bench/bench_core.py [FILE] [--object N] [--repeat K]

(a) open + show one object, (b) full scan: parse every object and decode every stream,
(c) ``objects --json --decode`` beside ``qpdf --json=2 --decode-level=generalized``: wall
time, time to the first byte, peak RSS, (d) heap kept by ``get()`` of every stream object
(tracemalloc), against the bytes of those streams.
FILE defaults to l3kernel's source3.pdf (Debian package texlive-latex-base-doc). Peak
memory is the child's maximum resident set size. Prints times and the ratios to the peers.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

DEFAULT = Path("/usr/share/doc/texlive-doc/latex/l3kernel/source3.pdf")
SMALL = Path(__file__).resolve().parent / "data" / "small-1.pdf"

OURS_SHOW = "import sys; from pdfinspect.cli import main; sys.exit(main(['show', sys.argv[1], sys.argv[2]]))"
OURS_SCAN = """
import sys
from pdfinspect.core.document import Document
from pdfinspect.core.objects import Stream
doc = Document.open(sys.argv[1])
n = 0
for obj in doc.iter_objects(cache=False):
    n += 1
    if isinstance(obj.value, Stream):
        doc.stream_data(obj)
print(n)
"""
PYPDF_SHOW = "import sys, pypdf; r = pypdf.PdfReader(sys.argv[1]); print(r.get_object(int(sys.argv[2])))"
PYPDF_SCAN = """
import sys, pypdf
r = pypdf.PdfReader(sys.argv[1])
n = 0
for num in range(1, int(r.trailer['/Size'])):
    try:
        o = r.get_object(num)
    except Exception:
        continue
    if o is None:
        continue
    n += 1
    if isinstance(o, pypdf.generic.StreamObject):
        try:
            o.get_data()
        except Exception:
            pass
print(n)
"""
MINER_SHOW = """
import sys
from pdfminer.pdfparser import PDFParser
from pdfminer.pdfdocument import PDFDocument
with open(sys.argv[1], 'rb') as f:
    print(PDFDocument(PDFParser(f)).getobj(int(sys.argv[2])))
"""
MINER_SCAN = """
import sys
from pdfminer.pdfparser import PDFParser
from pdfminer.pdfdocument import PDFDocument
from pdfminer.pdftypes import PDFStream
with open(sys.argv[1], 'rb') as f:
    doc = PDFDocument(PDFParser(f))
    n = 0
    for xref in doc.xrefs:
        for num in xref.get_objids():
            try:
                o = doc.getobj(num)
            except Exception:
                continue
            n += 1
            if isinstance(o, PDFStream):
                try:
                    o.get_data()
                except Exception:
                    pass
print(n)
"""


def timed(code: str, *args: str) -> tuple[float, float]:
    """Wall time and peak RSS (MB) of one child process."""
    start = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    subprocess.run([sys.executable, "-c", code, *args], check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return wall, max(peak, before) / 1024


OURS_HEAP = """
import sys, tracemalloc
from pdfinspect.core.document import Document
doc = Document.open(sys.argv[1])
streams = [obj.num for obj in doc.iter_objects(cache=False) if obj.is_stream]
tracemalloc.start()
before = tracemalloc.get_traced_memory()[0]
size = sum(doc.get(num).value.raw_length for num in streams)
print(tracemalloc.get_traced_memory()[0] - before, size)
"""


def first_byte(argv: list[str]) -> tuple[float, float, float]:
    """Time to the first byte on stdout, wall time and peak RSS (MB) of one child process."""
    start = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    p.stdout.read(1)
    first = time.perf_counter() - start
    while p.stdout.read(1 << 20):
        pass
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    return first, time.perf_counter() - start, usage.ru_maxrss / 1024


def bench_json(path: str) -> None:
    ours = [sys.executable, "-m", "pdfinspect", "objects", path, "--json", "--decode"]
    qpdf = ["qpdf", "--json=2", "--json-key=qpdf", "--decode-level=generalized", "--json-stream-data=inline", path]
    f1, w1, m1 = first_byte(ours)
    print(f"(c) objects --json --decode: pdfinspect {w1:.2f} s, first byte {f1:.2f} s, peak RSS {m1:.0f} MB")
    if shutil.which("qpdf"):
        f2, w2, m2 = first_byte(qpdf)
        print(f"    qpdf --json=2           {w2:.2f} s, first byte {f2:.2f} s, peak RSS {m2:.0f} MB;"
              f"  ratio ours/qpdf: time {w1 / w2:.2f}, RSS {m1 / m2:.2f}")


def bench_heap(path: str) -> None:
    out = subprocess.run([sys.executable, "-c", OURS_HEAP, path], check=True, capture_output=True, text=True)
    heap, size = map(int, out.stdout.split())
    print(f"(d) get() of every stream object keeps {heap / 1e6:.1f} MB of heap for {size / 1e6:.1f} MB "
          f"of stream data (ratio {heap / max(size, 1):.2f}: stream bytes stay in the file's map)")


def best(code: str, *args: str, repeat: int) -> float:
    return min(timed(code, *args)[0] for _ in range(repeat))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", default=str(DEFAULT))
    ap.add_argument("--object", default="61618", help="object to show in (a)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--skip-peers", action="store_true", help="time pdfinspect only")
    args = ap.parse_args()
    if not os.path.exists(args.file):
        print(f"{args.file} not found: apt-get install texlive-latex-base-doc", file=sys.stderr)
        return 1
    print(f"file: {args.file} ({os.path.getsize(args.file) / 1e6:.1f} MB)")
    ours_a = best(OURS_SHOW, args.file, args.object, repeat=args.repeat)
    print(f"(a) open + show object {args.object}: pdfinspect {ours_a:.3f} s")
    if SMALL.exists():
        small_a = best(OURS_SHOW, str(SMALL), "1", repeat=args.repeat)
        print(f"    same on a 1-page file: {small_a:.3f} s (ratio {ours_a / small_a:.2f}x)")
    wall, peak = timed(OURS_SCAN, args.file)
    print(f"(b) full scan: pdfinspect {wall:.2f} s, peak RSS {peak:.0f} MB")
    bench_json(args.file)
    bench_heap(args.file)
    if args.skip_peers:
        return 0
    for name, module, show, scan in (("pdfminer.six", "pdfminer", MINER_SHOW, MINER_SCAN),
                                     ("pypdf", "pypdf", PYPDF_SHOW, PYPDF_SCAN)):
        if importlib.util.find_spec(module) is None:
            print(f"    {name:<12} not installed: left out (pip install {name})")
            continue
        a = best(show, args.file, args.object, repeat=args.repeat)
        b = timed(scan, args.file)[0]
        print(f"    {name:<12} (a) {a:.3f} s  ratio ours/theirs {ours_a / a:.2f}   "
              f"(b) {b:.2f} s  ratio ours/theirs {wall / b:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
