"""Throughput of `pdfinspect audit`, whole processes: files/s with 1 and 2 workers, the
per-file overhead of the Dask engine, peak memory per worker; then the robustness run over
the mutated corpus (every input recorded exactly once after an interrupted run is resumed).

    python bench/bench_audit.py [--corpus DIR] [--files N] [--pages first|all] [--repeat R] [--mutated DIR]
    python bench/bench_audit.py --per-core [--corpus DIR] [--files N]

``--per-core``: pages per core-second (CPU of the whole process tree) of `audit --pages all
--page-records` over every file of the corpus (or its first N) with the local pool (2 workers)
and with Dask (a `dask scheduler` and two `dask worker` processes started by this script, the
audit connecting with `--scheduler`), beside a `pdftotext` loop over the same files, and the
ratio of each to the loop. Run it under `nice -n 10` on a shared machine.

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
from contextlib import contextmanager
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


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def dask_cluster(workers: int = 2):
    """``dask scheduler`` and ``workers`` single-threaded ``dask worker`` processes on loopback,
    as a cluster is run (the audit only connects to it): (address, [their psutil processes]).
    Each is a session of its own, killed at the end with everything it started."""
    import distributed
    import psutil

    env = dict(ENV, DASK_DISTRIBUTED__WORKER__DAEMON="False")  # workers start the audit's children

    def start(*args: str) -> psutil.Popen:
        return psutil.Popen(["dask", *args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)

    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    procs = [start("scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard")]
    try:
        procs += [start("worker", address, "--nthreads", "1", "--nworkers", "1", "--host", "127.0.0.1",
                        "--no-dashboard", "--death-timeout", "120") for _ in range(workers)]
        with distributed.Client(address, timeout="120s") as client:
            client.wait_for_workers(workers, timeout=120)
        yield address, procs
    finally:
        for proc in reversed(procs):
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(30)


def tree_cpu(procs) -> float:
    """CPU seconds of long-running processes and everything under them so far: each live
    process's own time plus what its reaped children took."""
    import psutil

    total = 0.0
    for root in procs:
        try:
            tree = [root, *root.children(recursive=True)]
        except psutil.Error:
            continue
        for p in tree:
            try:
                t = p.cpu_times()
                total += t.user + t.system + t.children_user + t.children_system
            except psutil.Error:
                pass
    return total


def audit_cmd(src: Path, out: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "pdfinspect", "audit", str(src), "-o", str(out), "--pages", "all", *extra]


def per_core(corpus: Path, n: int, tmp: Path, timeout: float) -> None:
    """Pages per core-second, every page of every file with page records: the local pool and a
    Dask cluster (a scheduler and two workers started here; their CPU counted while the audit
    runs, not their start-up) beside a pdftotext loop over the same files."""
    src = sample(corpus, n, tmp)
    files = sorted(src.glob("*.pdf"))
    limits = ["--timeout", str(timeout), "--page-records"]
    loop = cpu_of([["pdftotext", str(f), "-"] for f in files])
    runs = {}
    out = tmp / "per-core-local"
    runs["local pool, 2 workers"] = (cpu_of([audit_cmd(src, out, "--workers", "2", *limits)]), out)
    with dask_cluster(2) as (address, procs):
        before = tree_cpu(procs)
        out = tmp / "per-core-dask"
        client = cpu_of([audit_cmd(src, out, "--engine", "dask", "--scheduler", address, *limits)])
        runs["dask, 2 workers"] = (client + tree_cpu(procs) - before, out)
    local = records(runs["local pool, 2 workers"][1])
    pages = sum(r["pages_audited"] or 0 for r in local)
    failed = Counter(r["error_class"] for r in local if r["status"] == "failed")
    print(f"{len(files)} files, {pages} pages audited with page records ({sum(failed.values())} files failed: "
          f"{', '.join(f'{k} {v}' for k, v in failed.most_common()) or 'none'}); "
          f"pdftotext loop: {loop:.1f} core-s = {pages / loop:.0f} pages per core-second")
    for label, (cpu, out) in runs.items():
        audited = sum(r["pages_audited"] or 0 for r in records(out))
        print(f"  audit, {label:22}: {cpu:6.1f} core-s = {audited / cpu:6.1f} pages per core-second, "
              f"{(audited / cpu) / (pages / loop):.2f}x the pdftotext loop ({audited} pages, "
              f"{len(records(out, 'pages'))} page records)")
    print("\nwhat the local audit found (audit --summary): the share of files and of distinct font programs per reason")
    subprocess.run([sys.executable, "-m", "pdfinspect", "audit", "--summary", str(runs["local pool, 2 workers"][1]),
                    "--top", "20"], env=ENV, check=False)


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
    ap.add_argument("--files", type=int, default=None, help="the first N files (default: 120; all with --per-core)")
    ap.add_argument("--pages", default="first")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--mutated", type=Path, default=MUTATED)
    ap.add_argument("--per-core", action="store_true", help="pages per core-second beside a pdftotext loop")
    ap.add_argument("--timeout", type=float, default=300, help="--timeout of the audits of --per-core (seconds a file)")
    args = ap.parse_args()
    print(f"load average at start: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores "
          "(the machine is shared: figures are only comparable within one run)")
    with tempfile.TemporaryDirectory() as tmp:
        if args.per_core:
            per_core(args.corpus, args.files or 10**9, Path(tmp), args.timeout)
            return
        if args.corpus.is_dir():
            throughput(args.corpus, args.files or 120, args.pages, args.repeat, Path(tmp))
        else:
            print(f"{args.corpus} absent: throughput skipped")
        if args.mutated.is_dir():
            robustness(args.mutated, Path(tmp))
        else:
            print(f"{args.mutated} absent (python bench/make_mutated.py): robustness run skipped")


if __name__ == "__main__":
    main()
