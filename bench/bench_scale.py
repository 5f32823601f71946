"""Issue 23's whole-process benchmarks, each beside its peer in the same run, paired:

    nice python bench/bench_scale.py [--repeat K] [--copies N]

(1) ``pdfinspect text FILE`` (every page, printed page by page) against ``pdftotext FILE -``:
    CPU time, peak RSS, and when the first page reached the pipe. FILE is l3kernel's
    source3.pdf (1,611 pages, Debian's texlive-latex-base-doc) where it is installed, else
    ``../shared/corpus-pdfjs/freeculture.pdf`` (352 pages) repeated ``N`` times with
    ``qpdf --empty --pages`` into bench/data/;
(2) ``glyphs -p 1 --json`` of bench/data/art-430k.pdf (``bench/make_large.py``: dense vector
    art, about 430,000 operators, 16,000 glyphs, 10,000 links) against ``mutool trace``;
(3) page-text search as the app's index does it (``present.search.TextIndex``), one process:
    time to the first page with a hit, the whole document, and a second query over the index,
    beside the ``pdftotext`` time of (1).

Each pair runs K times, ours then the peer's; a ratio is the median of the K paired ratios
(the machine is shared: a pair sees the same load). The package is byte-compiled first.
"""
from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "bench" / "data"
FREECULTURE = ROOT.parent / "shared" / "corpus-pdfjs" / "freeculture.pdf"
ART = DATA / "art-430k.pdf"
SOURCE3 = Path("/usr/share/doc/texlive-doc/latex/l3kernel/source3.pdf")
OURS = [sys.executable, "-m", "pdfinspect"]
TIME = "/usr/bin/time"  # GNU time, for the peak RSS
SEARCH = ("import sys, time, pdfinspect\n"
          "from pdfinspect.present.search import TextIndex, compile_text_query\n"
          "t0 = time.perf_counter(); first = None\n"
          "with pdfinspect.open(sys.argv[1]) as doc:\n"
          "    index, query = TextIndex(), compile_text_query(sys.argv[2], False)\n"
          "    for n in range(1, doc.page_count() + 1):\n"
          "        if index.search(doc, n, query) and first is None:\n"
          "            first = time.perf_counter() - t0\n"
          "    whole = time.perf_counter() - t0\n"
          "    t1 = time.perf_counter()\n"
          "    again = sum(len(index.search(doc, n, compile_text_query(sys.argv[3], False)))\n"
          "                for n in range(1, doc.page_count() + 1))\n"
          "    print(first, whole, time.perf_counter() - t1, again)\n")


def run(argv: list[str], first_marker: bytes | None = None) -> tuple[float, float, int, float | None]:
    """Wall and CPU seconds, peak RSS (KiB, as /usr/bin/time measures it: a forked child's own
    figure starts at its parent's) of one child, and when ``first_marker`` first appeared on
    its output (seconds after the start). The output is read and dropped."""
    with tempfile.NamedTemporaryFile("r") as peak:
        start = time.perf_counter()
        proc = subprocess.Popen([TIME, "-f", "%M", "-o", peak.name, *argv], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, cwd=ROOT)
        first = None
        assert proc.stdout is not None
        while chunk := proc.stdout.read1(1 << 16):
            if first is None and first_marker and first_marker in chunk:
                first = time.perf_counter() - start
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        if status != 0:
            sys.exit(f"failed: {' '.join(map(str, argv))}\n{proc.stderr.read().decode(errors='replace')}")
        return wall, usage.ru_utime + usage.ru_stime, int(peak.read().split()[-1]), first


def paired(label: str, ours: list[str], peer: list[str], repeat: int, marker: bytes | None = None) -> None:
    rows = [(run(ours, marker), run(peer, marker)) for _ in range(repeat)]
    med = statistics.median
    print(f"{label}")
    for who, k in (("pdfinspect", 0), (Path(peer[0]).name, 1)):
        runs = [r[k] for r in rows]
        first = [r[3] for r in runs if r[3] is not None]
        print(f"    {who:<10} wall {med(r[0] for r in runs):7.2f} s  cpu {med(r[1] for r in runs):7.2f} s  "
              f"peak {med(r[2] for r in runs) / 1024:7.1f} MiB" + (f"  first page {med(first):.2f} s" if first else ""))
    print(f"    ratio      cpu {med(o[1] / max(p[1], 1e-3) for o, p in rows):6.2f}x  "
          f"wall {med(o[0] / p[0] for o, p in rows):6.2f}x  peak {med(o[2] / p[2] for o, p in rows):6.2f}x "
          f"(median of {repeat} paired runs)")


def big_document(copies: int) -> Path:
    out = DATA / f"freeculture-x{copies}.pdf"
    if not out.exists():
        DATA.mkdir(parents=True, exist_ok=True)
        subprocess.run(["qpdf", "--empty", "--pages", *[str(FREECULTURE)] * copies, "--", str(out)], check=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--copies", type=int, default=4, help="freeculture.pdf copies in the big document")
    parser.add_argument("--parts", default="123", help="which of (1), (2), (3) to run (default: all)")
    args = parser.parse_args()
    for tool in ("pdftotext", "mutool", "qpdf", TIME):
        if shutil.which(tool) is None:
            sys.exit(f"{tool} is not installed")
    if not FREECULTURE.exists() and ("3" in args.parts or not SOURCE3.exists()):
        sys.exit("needs ../shared/corpus-pdfjs/freeculture.pdf")
    if "2" in args.parts and not ART.exists():
        sys.exit("needs bench/data/art-430k.pdf (python bench/make_large.py)")
    compileall.compile_dir(str(ROOT / "pdfinspect"), quiet=1)
    if "1" in args.parts:
        whole = SOURCE3 if SOURCE3.exists() else big_document(args.copies)
        paired(f"(1) text of every page of {whole.name}", [*OURS, "text", str(whole)],
               ["pdftotext", str(whole), "-"], args.repeat, b"\f")
    if "2" in args.parts:
        paired(f"(2) glyphs -p 1 --json {ART.name} vs mutool trace", [*OURS, "glyphs", str(ART), "-p", "1", "--json"],
               ["mutool", "trace", str(ART), "1"], args.repeat)
    if "3" in args.parts:
        big = big_document(args.copies)
        out = subprocess.run([sys.executable, "-c", SEARCH, str(big), "Lessig", "commons"], capture_output=True,
                             text=True, check=True, cwd=ROOT).stdout.split()
        print(f"(3) page-text search of {big.name}: first hits {float(out[0]):.2f} s, whole document "
              f"{float(out[1]):.2f} s, a second query over the index {float(out[2]):.3f} s ({out[3]} hits)")


if __name__ == "__main__":
    main()
