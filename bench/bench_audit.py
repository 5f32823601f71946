"""Throughput of `pdfinspect audit`, whole processes: files/s with 1 and 2 workers, the
per-file overhead of the Dask engine, peak memory per worker; then the robustness run over
the mutated corpus (every input recorded exactly once after an interrupted run is resumed).

    python bench/bench_audit.py [--corpus DIR] [--files N] [--pages first|all] [--repeat R] [--mutated DIR]
    python bench/bench_audit.py --per-core [--corpus DIR] [--files N]

``--per-core``: pages per core-second (CPU of the whole process tree) of `audit --pages all`
with the local pool and with Dask (2 workers each, also with `--page-records`), beside a
`pdftotext` loop over the same files, and the ratio of each to the loop.

The corpus defaults to ../shared/corpus-pdfjs (its first N files, symlinked into a temporary
directory), the mutated corpus to bench/data/mutated (`python bench/make_mutated.py`).
Dask overhead per file = ((dask N files − dask 1 file) − (local N − local 1)) / (N − 1): the
cluster's start-up cancels out. The machine's load average is printed beside the figures.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import statistics
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


def throughput(corpus: Path, n: int, pages: str, repeat: int, tmp: Path) -> None:
    """Each configuration ``repeat`` times, interleaved (the load drifts), medians quoted."""
    inputs = {"1": sample(corpus, 1, tmp), "N": sample(corpus, n, tmp)}
    configs = [("local", 1), ("local", 2), ("dask", 2)]
    times: dict[tuple, list[float]] = {}
    rss: dict[tuple, list[float]] = {}
    for rep in range(repeat):
        for engine, workers in configs:
            for label, src in inputs.items():
                out = tmp / f"{engine}-{workers}-{label}-{rep}"
                key = (engine, workers, label)
                times.setdefault(key, []).append(audit([src], out, "--workers", str(workers), "--pages", pages,
                                                       "--engine", engine))
                if label == "N":
                    rss.setdefault(key, []).extend(r["max_rss_mb"] for r in records(out) if r["max_rss_mb"])
    t = {k: statistics.median(v) for k, v in times.items()}
    for engine, workers in configs:
        key = (engine, workers, "N")
        print(f"{engine:5} {workers} worker(s): {n} files in {t[key]:5.1f} s = {n / t[key]:4.1f} files/s "
              f"(runs: {', '.join(f'{x:.1f}' for x in times[key])} s; 1 file: {t[engine, workers, '1']:.1f} s); "
              f"peak RSS per worker {max(rss[key]):.0f} MB")
    local = t["local", 2, "N"] - t["local", 2, "1"]
    dask = t["dask", 2, "N"] - t["dask", 2, "1"]
    print(f"2 workers / 1 worker: {t['local', 1, 'N'] / t['local', 2, 'N']:.2f}× the throughput")
    print(f"dask start-up (1 file, dask − local): {t['dask', 2, '1'] - t['local', 2, '1']:.1f} s; "
          f"per-file overhead: {1000 * (dask - local) / (n - 1):.0f} ms "
          f"({dask / local:.2f}× the local engine's time per file)")


def cpu_of(cmds: list[list[str]]) -> float:
    """CPU seconds (user + system) of the commands run one after the other, with every process
    they start: the audit's workers come from a fork server (not children it waits for), so the
    process tree is sampled with psutil every 0.1 s, each process's last figure kept."""
    import psutil

    total = 0.0
    for cmd in cmds:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        proc = psutil.Popen(cmd, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        seen: dict[int, float] = {}
        while proc.poll() is None:
            for p in [proc, *proc.children(recursive=True)]:
                try:
                    t = p.cpu_times()
                    seen[p.pid] = t.user + t.system
                except psutil.Error:
                    pass
            time.sleep(0.1)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        # what the command reaped (exact for a short pdftotext) or what was sampled (the audit tree)
        waited = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        total += max(waited, sum(seen.values()))
    return total


def per_core(corpus: Path, n: int, tmp: Path) -> None:
    """Pages per core-second: the audit's engines beside a pdftotext loop over the same files."""
    src = sample(corpus, n, tmp)
    files = sorted(src.glob("*.pdf"))
    loop = cpu_of([["pdftotext", str(f), "-"] for f in files])
    runs = {}
    for label, extra in (("local", ["--engine", "local"]), ("dask", ["--engine", "dask"]),
                         ("local --page-records", ["--engine", "local", "--page-records"])):
        out = tmp / f"per-core-{label.replace(' ', '')}"
        cpu = cpu_of([[sys.executable, "-m", "pdfinspect", "audit", str(src), "-o", str(out), "--workers", "2",
                       "--pages", "all", *extra]])
        runs[label] = (cpu, sum(r["pages_audited"] or 0 for r in records(out)))
    pages = runs["local"][1]
    print(f"{len(files)} files, {pages} pages audited; pdftotext loop: {loop:.1f} core-s = {pages / loop:.0f} pages "
          "per core-second")
    for label, (cpu, audited) in runs.items():
        print(f"  audit {label:22}: {cpu:6.1f} core-s = {audited / cpu:6.0f} pages per core-second, "
              f"{(audited / cpu) / (pages / loop):.2f}x the pdftotext loop")


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
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--mutated", type=Path, default=MUTATED)
    ap.add_argument("--per-core", action="store_true", help="pages per core-second beside a pdftotext loop")
    args = ap.parse_args()
    print(f"load average at start: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores "
          "(the machine is shared: figures are only comparable within one run)")
    with tempfile.TemporaryDirectory() as tmp:
        if args.per_core:
            per_core(args.corpus, args.files, Path(tmp))
            return
        if args.corpus.is_dir():
            throughput(args.corpus, args.files, args.pages, args.repeat, Path(tmp))
        else:
            print(f"{args.corpus} absent: throughput skipped")
        if args.mutated.is_dir():
            robustness(args.mutated, Path(tmp))
        else:
            print(f"{args.mutated} absent (python bench/make_mutated.py): robustness run skipped")


if __name__ == "__main__":
    main()
