"""The app as a user sees it: whole `pdfinspect` processes in a detached tmux session of a
fixed size, timed from the launch until a marker text of the finished screen is on the pane
(`tmux capture-pane -p`, polled every 10 ms, or 1% of the time waited when longer), beside
`mutool draw` of page 1 (and, for the page-text search, a whole `pdftotext` run) in the same run.

    python bench/bench_tmux.py [FILE] [--repeat N] [--page 806] [--searches N] [--query Unicode --query2 deprecated]

FILE defaults to TeX Live's source3.pdf (1,611 pages, 126,639 objects). Reported, medians of
N runs (``--repeat 0``: the search alone):

- the overview: first paint (its entry points listed), then its facts (the page count);
- ``--page P --glyphs``: the glyph inspector's first paint, then its table of codes;
- page-text search (``/``, ``ctrl+t``, the query, Enter): Enter → the first hit listed,
  Enter → ``done`` (every page searched), then a second query over the index built; each key
  is sent when the pane shows the app took the one before (see :func:`search`).

Modules are byte-compiled as installed (``--no-bytecode`` keeps PYTHONDONTWRITEBYTECODE, if
set, as it is). The tmux server is a private one (its own socket), started in the foreground (``tmux -D``)
by this script and stopped at the end: it needs no daemon, so it runs where ``/dev/null``
is not a device.
"""
from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE3 = Path("/usr/share/doc/texlive-doc/latex/l3kernel/source3.pdf")
WIDTH, HEIGHT = 120, 40
POLL = 0.01


class Tmux:
    """A private tmux server: ``start`` a session running a command, ``wait`` for text on its pane."""

    def __init__(self, tmp: Path, bytecode: bool = True) -> None:
        # as installed: modules byte-compiled once (into a cache of this run's own), not compiled
        # from source at every start as where PYTHONDONTWRITEBYTECODE is set
        self.env = {"PYTHONPATH": str(ROOT), "TERM": "xterm-256color", "COLORTERM": "truecolor",
                    **({"PYTHONDONTWRITEBYTECODE": "", "PYTHONPYCACHEPREFIX": str(tmp / "pycache")} if bytecode else {})}
        self.socket = f"pdfinspect-bench-{os.getpid()}"
        conf = tmp / "tmux.conf"
        conf.write_text("set -g status off\nset -g escape-time 0\n")
        self.server = subprocess.Popen(["tmux", "-L", self.socket, "-f", str(conf), "-D"],
                                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        path = Path(os.environ.get("TMUX_TMPDIR") or "/tmp") / f"tmux-{os.getuid()}" / self.socket
        deadline = time.monotonic() + 10
        while not path.is_socket():
            if time.monotonic() > deadline or self.server.poll() is not None:
                raise RuntimeError("the tmux server did not start")
            time.sleep(0.05)

    def tmux(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=check)

    def start(self, cmd: list[str]) -> float:
        """Start ``cmd`` in a new session ``bench``; the time just before."""
        env = shlex.join(f"{k}={v}" for k, v in self.env.items())
        t0 = time.perf_counter()
        self.tmux("new-session", "-d", "-s", "bench", "-x", str(WIDTH), "-y", str(HEIGHT), f"env {env} {shlex.join(cmd)}")
        return t0

    def pane(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "bench", check=False).stdout

    def wait(self, found, timeout: float = 600) -> tuple[float, str]:
        """Poll the pane until ``found(text)`` is true: (the time then, the pane). The polls
        are every 10 ms, or 1% of the time waited so far when that is longer: each poll is a
        ``tmux`` process, which 100 times a second would take CPU from the app on a small machine."""
        start = time.perf_counter()
        deadline = start + timeout
        while True:
            text = self.pane()
            now = time.perf_counter()
            if found(text):
                return now, text
            if now > deadline:
                raise TimeoutError(f"no marker after {timeout} s; the pane:\n{text}")
            time.sleep(max(POLL, (now - start) / 100))

    def keys(self, *keys: str, literal: bool = False) -> float:
        t0 = time.perf_counter()
        self.tmux("send-keys", "-t", "bench", *(["-l"] if literal else []), *keys)
        return t0

    def cpu(self) -> float:
        """CPU seconds (user + system) spent so far by the process in the pane (the app)."""
        pid = self.tmux("display-message", "-p", "-t", "bench", "#{pane_pid}").stdout.strip()
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        self.tmux("kill-session", "-t", "bench", check=False)

    def close(self) -> None:
        self.tmux("kill-server", check=False)
        try:
            self.server.wait(5)
        except subprocess.TimeoutExpired:
            self.server.kill()


def app(path: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "pdfinspect", str(path), *extra]


def has(*texts: str):
    return lambda pane: all(t in pane for t in texts)


def overview(tm: Tmux, path: Path) -> tuple[float, float]:
    """(launch → first paint, launch → the facts shown)."""
    t0 = tm.start(app(path))
    painted, _ = tm.wait(has("Entry points", "Catalog /Root"))
    facts, _ = tm.wait(lambda pane: re.search(r"^ Pages +\d", pane, re.M) is not None)
    tm.stop()
    return painted - t0, facts - t0


def glyphs(tm: Tmux, path: Path, page: int) -> tuple[float, float]:
    """(launch → the inspector painted, launch → its table of codes)."""
    t0 = tm.start(app(path, "--page", str(page), "--glyphs"))
    painted, _ = tm.wait(has(f"page {page}", "Unicode"))
    table, _ = tm.wait(lambda pane: re.search(rf"page {page}\b.* distinct codes in", pane) is not None)
    tm.stop()
    return painted - t0, table - t0


STATUS = re.compile(r"(searching|done): (\d+) hits")
PLACEHOLDER = "text to find"  # the search screen's empty input
HIT = re.compile(r"^ *page \d+ +operator \d+ .*$", re.M)


def first_hit(pane: str) -> str:
    """The first page-text hit listed (lower case), or ""."""
    m = HIT.search(pane)
    return m.group(0).lower() if m else ""


def footer(pane: str) -> str:
    """The pane's last non-empty line: the footer, whose bindings say which widget has the focus."""
    return next((line for line in reversed(pane.splitlines()) if line.strip()), "")


def query_line(pane: str) -> str:
    """The search screen's input line (the text between its borders; "" when empty, where the
    placeholder shows), or ""."""
    m = re.search(r"^ *▊ +(.*?) *▎$", pane, re.M)
    return m.group(1) if m and m.group(1) != PLACEHOLDER else ""


def search(tm: Tmux, path: Path, first: str, second: str) -> tuple[float, float, int, float, int, float]:
    """Page-text search: (Enter → first hit listed, Enter → done, hits, second query Enter → done,
    hits, the app's CPU seconds from the first Enter to done).

    Each key goes in only when the screen shows that the app has taken the one before: the
    query field has the focus (the footer lists the input's bindings: ``f1 Help``, not the hit
    list's ``Follow``), the query is in the field. Keys sent earlier go to the widget that had
    the focus (Textual moves the focus after the key that asked for it is handled)."""
    tm.start(app(path))
    tm.wait(has("Entry points", "Catalog /Root"))
    tm.keys("/")
    tm.wait(has("Search decoded streams"))
    tm.keys("C-t")
    tm.wait(lambda pane: "Search the text of every page" in pane and "f1 Help" in footer(pane))
    tm.keys(first, literal=True)
    tm.wait(lambda pane: query_line(pane) == first)
    cpu = tm.cpu()
    t0 = tm.keys("Enter")
    hit, _ = tm.wait(lambda pane: first_hit(pane) != "")
    done, pane = tm.wait(lambda pane: "done: " in pane and "Follow" in footer(pane))
    cpu = tm.cpu() - cpu
    hits = int(STATUS.search(pane).group(2))
    tm.keys("/")
    tm.wait(lambda pane: "f1 Help" in footer(pane))
    tm.keys("C-u")
    tm.wait(lambda pane: query_line(pane) == "")
    tm.keys(second, literal=True)
    tm.wait(lambda pane: query_line(pane) == second)
    t1 = tm.keys("Enter")
    again, pane = tm.wait(lambda pane: re.search(r"done: \d+ hits in (\d+) of \1 pages", pane) is not None
                          and second.lower() in first_hit(pane))
    hits2 = int(STATUS.search(pane).group(2))
    tm.stop()
    return hit - t0, done - t0, hits, again - t1, hits2, cpu


def process(cmd: list[str]) -> float:
    return process_cpu(cmd)[0]


def process_cpu(cmd: list[str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one run of ``cmd``."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    if status != 0:
        sys.exit(f"failed: {shlex.join(cmd)}")
    return time.perf_counter() - t0, usage.ru_utime + usage.ru_stime


def ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:6.0f} ms"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", type=Path, default=SOURCE3)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--page", type=int, default=806)
    ap.add_argument("--query", default="Unicode")
    ap.add_argument("--query2", default="deprecated")
    ap.add_argument("--searches", type=int, default=1, help="page-text search runs (each reads every page; 0: none)")
    ap.add_argument("--no-bytecode", action="store_true",
                    help="keep the environment's PYTHONDONTWRITEBYTECODE (modules compiled at every start)")
    args = ap.parse_args()
    for tool in ("tmux", "mutool", "pdftotext"):
        if shutil.which(tool) is None:
            sys.exit(f"{tool} is not installed")
    if not args.file.exists():
        sys.exit(f"{args.file} is absent")
    print(f"{args.file.name}, {WIDTH}x{HEIGHT} pane, medians of {args.repeat}; load average at start: "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp:
        tm = Tmux(Path(tmp), bytecode=not args.no_bytecode)
        try:
            peer = [process(["mutool", "draw", "-o", f"{tmp}/p1.png", str(args.file), "1"])]
            glyphs(tm, args.file, args.page)  # warm-up: the byte-code cache, the file in the page cache
            over: list[tuple[float, float]] = []
            glyph: list[tuple[float, float]] = []
            for _ in range(args.repeat):  # interleaved: the load of the shared machine drifts
                peer.append(process(["mutool", "draw", "-o", f"{tmp}/p1.png", str(args.file), "1"]))
                over.append(overview(tm, args.file))
                glyph.append(glyphs(tm, args.file, args.page))
            peer = peer[1:] or peer
            mu = statistics.median(peer)
            print(f"mutool draw of page 1 (whole process):       {ms(peer)}")
            for label, runs in (("overview", over), (f"glyph inspector, page {args.page}", glyph)):
                if not runs:
                    continue
                first, full = [r[0] for r in runs], [r[1] for r in runs]
                print(f"{label:34} first paint {ms(first)} ({statistics.median(first) / mu:5.1f}x), "
                      f"finished {ms(full)} ({statistics.median(full) / mu:5.1f}x)")
            if args.searches <= 0:
                return
            text, runs = [], []
            for _ in range(args.searches):
                text.append(process_cpu(["pdftotext", str(args.file), f"{tmp}/out.txt"]))
                runs.append(search(tm, args.file, args.query, args.query2))
            whole, whole_cpu = statistics.median(t[0] for t in text), statistics.median(t[1] for t in text)
            every, every_cpu = statistics.median(r[1] for r in runs), statistics.median(r[5] for r in runs)
            print(f"pdftotext of the whole document:             {ms([t[0] for t in text])} (CPU {whole_cpu:.2f} s)")
            print(f"page-text search {args.query!r} ({runs[0][2]} hits): first hit {ms([r[0] for r in runs])}, "
                  f"every page {ms([r[1] for r in runs])} ({every / whole:.2f}x pdftotext; the app's CPU "
                  f"{every_cpu:.2f} s, {every_cpu / whole_cpu:.2f}x); second query {args.query2!r} ({runs[0][4]} hits) "
                  f"{ms([r[3] for r in runs])}")
        finally:
            tm.stop()
            tm.close()


if __name__ == "__main__":
    main()
