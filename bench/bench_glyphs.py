"""Glyph benchmark: whole ``pdfinspect`` processes beside MuPDF and poppler in the same run.

    python bench/bench_glyphs.py [--repeat K] [--skip-fonts]

(1) ``glyphs -p 806 --json`` of l3kernel's source3.pdf against ``mutool trace`` of that page
    (target ≤ 8×);
(2) ``fonts`` over the whole of source3.pdf against ``pdftotext`` of the whole document
    (target ≤ 1.5×; one run each, it takes minutes);
(3) ``glyphs -p 1 --json`` of bench/data/glyphs-16k.pdf (about 16,000 glyphs on one page, written
    by bench/make_large.py) against ``mutool trace`` (target ≤ 5×).

Each figure is the best of K runs: wall time and CPU time (user + system of the child, which
a loaded machine disturbs less), and the ratios ours/peer of both. The package is byte-compiled
first, as an installed package is, so that no run pays for compiling the sources.
"""
from __future__ import annotations

import argparse
import compileall
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_core import DEFAULT as SOURCE3  # noqa: E402  (a script beside this one)

ROOT = Path(__file__).resolve().parents[1]
DENSE = ROOT / "bench" / "data" / "glyphs-16k.pdf"
OURS = [sys.executable, "-m", "pdfinspect"]


def run(argv: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one child process (its output discarded)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit(f"failed: {' '.join(argv)}\n{proc.stderr.decode(errors='replace')}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def best(argv: list[str], repeat: int) -> tuple[float, float]:
    runs = [run(argv) for _ in range(repeat)]
    return min(w for w, _ in runs), min(c for _, c in runs)


def compare(label: str, ours: list[str], peer: list[str], target: float, repeat: int) -> None:
    (ow, oc), (pw, pc) = best(ours, repeat), best(peer, repeat)
    verdict = "ok" if oc <= target * pc else f"over the {target}x target"
    print(f"{label}\n    pdfinspect wall {ow:7.2f} s  cpu {oc:7.2f} s\n"
          f"    {Path(peer[0]).name:<10} wall {pw:7.2f} s  cpu {pc:7.2f} s\n"
          f"    ratio      wall {ow / pw:7.1f}x   cpu {oc / max(pc, 1e-3):7.1f}x   ({verdict} on cpu)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--skip-fonts", action="store_true", help="leave out (2), the whole-document run")
    args = ap.parse_args()
    missing = [tool for tool in ("mutool", "pdftotext") if shutil.which(tool) is None]
    if missing:
        sys.exit(f"needs {' and '.join(missing)} (mupdf-tools, poppler-utils)")
    compileall.compile_dir(str(ROOT / "pdfinspect"), quiet=1)
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    if SOURCE3.exists():
        f = str(SOURCE3)
        compare("(1) glyphs -p 806 --json, source3.pdf", [*OURS, "glyphs", f, "-p", "806", "--json"],
                ["mutool", "trace", f, "806"], 8, args.repeat)
        if not args.skip_fonts:
            compare("(2) fonts, all of source3.pdf", [*OURS, "fonts", f], ["pdftotext", f, "/dev/null"], 1.5, 1)
    else:
        print(f"{SOURCE3} not found: apt-get install texlive-latex-base-doc")
    if not DENSE.exists():
        subprocess.run([sys.executable, str(ROOT / "bench" / "make_large.py")], check=True,
                       stdout=subprocess.DEVNULL)
    compare(f"(3) glyphs -p 1 --json, {DENSE.name}", [*OURS, "glyphs", str(DENSE), "-p", "1", "--json"],
            ["mutool", "trace", str(DENSE), "1"], 5, args.repeat)
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
