"""Throughput of `pdfinspect audit`, whole processes: files/s with 1 and 2 workers, the
per-file overhead of the Dask engine, peak memory per worker; then the robustness run over
the mutated corpus (every input recorded exactly once after an interrupted run is resumed).

    python bench/bench_audit.py [--corpus DIR] [--files N] [--pages first|all] [--mutated DIR]

The corpus defaults to ../shared/corpus-pdfjs (its first N files, symlinked into a temporary
directory), the mutated corpus to bench/data/mutated (`python bench/make_mutated.py`).
Dask overhead per file = ((dask N files − dask 1 file) − (local N − local 1)) / (N − 1): the
cluster's start-up cancels out. The machine's load average is printed beside the figures.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus-pdfjs"
MUTATED = ROOT / "bench" / "data" / "mutated"
ENV = dict(os.environ, PYTHONPATH=str(ROOT))


def audit(inputs, out: Path, *extra: str) -> float:
    """Seconds for one whole `pdfinspect audit` process."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pdfinspect", "audit", *map(str, inputs), "-o", str(out), *extra],
                   env=ENV, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def records(out: Path, kind: str = "files") -> list[dict]:
    return [json.loads(line) for shard in sorted(out.glob(f"{kind}-*.jsonl")) for line in shard.open()]


def sample(corpus: Path, n: int, tmp: Path) -> Path:
    d = tmp / f"sample-{n}"
    d.mkdir()
    for f in sorted(corpus.glob("*.pdf"))[:n]:
        (d / f.name).symlink_to(f)
    return d


def throughput(corpus: Path, n: int, pages: str, tmp: Path) -> None:
    many, one = sample(corpus, n, tmp), sample(corpus, 1, tmp)
    times = {}
    for engine in ("local", "dask"):
        for workers in (1, 2):
            if engine == "dask" and workers == 1:
                continue
            for label, inputs in (("1", one), ("N", many)):
                out = tmp / f"{engine}-{workers}-{label}"
                times[engine, workers, label] = audit([inputs], out, "--workers", str(workers), "--pages", pages,
                                                      "--engine", engine)
                if label == "N":
                    rss = [r["max_rss_mb"] for r in records(out) if r["max_rss_mb"]]
                    failed = sum(r["status"] != "ok" for r in records(out))
                    print(f"{engine:5} {workers} worker(s): {n} files in {times[engine, workers, label]:6.1f} s = "
                          f"{n / times[engine, workers, label]:5.1f} files/s (1 file: {times[engine, workers, '1']:.1f} s); "
                          f"{failed} failed; peak RSS per worker {max(rss):.0f} MB (median file {sorted(rss)[len(rss) // 2]:.0f})")
    local = times["local", 2, "N"] - times["local", 2, "1"]
    dask = times["dask", 2, "N"] - times["dask", 2, "1"]
    print(f"speed-up 2 workers / 1 worker: {times['local', 1, 'N'] / times['local', 2, 'N']:.2f}×")
    print(f"dask start-up (1 file, dask − local): {times['dask', 2, '1'] - times['local', 2, '1']:.1f} s; "
          f"per-file overhead: {1000 * (dask - local) / (n - 1):.0f} ms "
          f"({dask / local:.2f}× the local engine's time per file)")


def robustness(mutated: Path, tmp: Path) -> None:
    inputs = sorted(str(p.absolute()) for p in mutated.glob("*.pdf"))
    out = tmp / "mutated"
    cmd = [sys.executable, "-m", "pdfinspect", "audit", str(mutated), "-o", str(out), "--workers", "2",
           "--shard-size", "100", "--timeout", "20", "--memory", "1024"]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, env=ENV, stdout=subprocess.DEVNULL)
    while proc.poll() is None and len(list(out.glob("files-*.jsonl"))) < 3:
        time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    code = proc.wait()
    first = len(records(out))
    left = list(out.glob(".*.tmp"))
    subprocess.run(cmd + ["--resume"], env=ENV, check=True, stdout=subprocess.DEVNULL)
    elapsed = time.perf_counter() - start
    recs = records(out)
    paths = Counter(r["path"] for r in recs)
    print(f"mutated corpus: {len(inputs)} files; interrupted (exit {code}) with {first} recorded, "
          f"{len(left)} temporary files left; resumed: {len(recs)} records in {elapsed:.0f} s")
    print(f"  every input recorded once: {sorted(paths) == inputs and max(paths.values()) == 1}")
    print(f"  status: {dict(Counter(r['error_class'] or 'ok' for r in recs).most_common())}")
    worst = max(recs, key=lambda r: r["max_rss_mb"] or 0)
    print(f"  peak RSS per worker: {worst['max_rss_mb']:.0f} MB; slowest file {max(r['elapsed'] or 0 for r in recs):.1f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--files", type=int, default=120)
    ap.add_argument("--pages", default="first")
    ap.add_argument("--mutated", type=Path, default=MUTATED)
    args = ap.parse_args()
    print(f"load average at start: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores "
          "(the machine is shared: figures are only comparable within one run)")
    with tempfile.TemporaryDirectory() as tmp:
        if args.corpus.is_dir():
            throughput(args.corpus, args.files, args.pages, Path(tmp))
        else:
            print(f"{args.corpus} absent: throughput skipped")
        if args.mutated.is_dir():
            robustness(args.mutated, Path(tmp))
        else:
            print(f"{args.mutated} absent (python bench/make_mutated.py): robustness run skipped")


if __name__ == "__main__":
    main()
