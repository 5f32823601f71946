"""Glyph benchmark: the whole ``pdfinspect glyphs`` process for one page in the middle of a
1,000-page file (target: under 1 s).

    python bench/bench_glyphs.py [FILE] [--page N] [--repeat K]

FILE defaults to bench/data/large-1000.pdf (written by bench/make_large.py); the page
defaults to the middle one. Prints the best and median wall time of K runs and the
number of glyph records, with and without --json.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

DEFAULT = Path(__file__).resolve().parent / "data" / "large-1000.pdf"
TARGET = 1.0


def _time(argv: list[str], repeat: int) -> tuple[list[float], str]:
    times, out = [], ""
    for _ in range(repeat):
        start = time.perf_counter()
        proc = subprocess.run(argv, capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        if proc.returncode != 0:
            sys.exit(f"failed: {' '.join(argv)}\n{proc.stderr}")
        out = proc.stdout
    return times, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", default=str(DEFAULT))
    ap.add_argument("--page", type=int)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    if not Path(args.file).exists():
        sys.exit(f"{args.file} missing: run python bench/make_large.py first")
    from pdfinspect.core.document import Document

    page = args.page or Document.open(args.file).page_count() // 2
    for extra in ([], ["--json"]):
        argv = [sys.executable, "-m", "pdfinspect", "glyphs", args.file, "-p", str(page), *extra]
        times, out = _time(argv, args.repeat)
        glyphs = len(json.loads(out)) if extra else max(len(out.splitlines()) - 1, 0)
        best, median = min(times), statistics.median(times)
        verdict = "ok" if median < TARGET else f"SLOWER than {TARGET} s"
        print(f"glyphs -p {page} {' '.join(extra):<7} {glyphs:>6} glyphs  best {best:.3f} s  "
              f"median {median:.3f} s  ({verdict})")


if __name__ == "__main__":
    main()
