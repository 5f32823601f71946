"""Is the app answering keys while it works? And does ``q`` quit at once?

    python bench/bench_responsive.py [--keys K]

Two loads, each the worst the app meets:

- the content stepper on ``sample_pdfs/damaged-bomb.pdf`` (a form whose Flate content
  inflates to 320 MiB of NUL bytes; the stepper's budget stops it after 4 MiB);
- the object browser on TeX Live's ``source3.pdf`` (126,639 objects; ``apt-get install
  texlive-latex-base-doc``) while the back-reference index is built.

**Keys.** The app runs headless in this process (``App.run_test``, real worker threads
contending for the GIL). Keys are handed to the driver as a terminal would hand them
(``driver.send_message``), alternating ``g`` (the go-to prompt opens) and ``escape`` (it closes), and
each is timed from the key to the first frame painted that shows its effect
(``App.post_display_hook``). The first key goes in as soon as the screen is mounted, while
the worker runs; the figures say how many keys were answered while it was still running.

**Quit.** The app runs as a whole process in an 80x24 pseudo-terminal, as a user starts it;
``q`` is written as soon as the screen shows the work under way, and the time to the
process's exit is measured (its worker threads must stop for the interpreter to exit).

Times are wall-clock; the machine may be loaded by other work, so the median and the
worst are both printed.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import pty
import select
import statistics
import struct
import subprocess
import sys
import termios
import fcntl
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BOMB = ROOT / "sample_pdfs" / "damaged-bomb.pdf"
SOURCE3 = Path("/usr/share/doc/texlive-doc/latex/l3kernel/source3.pdf")
SIZE = (80, 24)


async def key_latencies(app, keys: int, busy) -> tuple[list[float], int]:
    """Alternate ``g``/``escape`` ``keys`` times; (seconds from each key to the frame showing
    its effect, how many keys went in while ``busy()`` was true)."""
    from textual import events

    from pdfinspect.tui.widgets.goto_bar import GotoBar

    def prompt_open() -> bool:
        bars = app.screen.query(GotoBar)
        return bool(bars) and bars.first().display

    times: list[float] = []
    during = 0
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for k in range(keys):
            opening = k % 2 == 0
            answered = asyncio.Event()

            def painted() -> None:
                if prompt_open() == opening:
                    answered.set()

            app.post_display_hook = painted
            during += bool(busy(app))
            key = events.Key("g", "g") if opening else events.Key("escape", "\x1b")
            t0 = time.perf_counter()
            app._driver.send_message(key)
            await asyncio.wait_for(answered.wait(), 30)
            times.append(time.perf_counter() - t0)
        del app.post_display_hook
        app.workers.cancel_all()
    return times, during


def stepper_app():
    from pdfinspect.core.document import Document
    from pdfinspect.tui.app import PdfInspectApp

    return PdfInspectApp(Document.open(BOMB), "", None, ("stepper", 1))


def browser_app():
    from pdfinspect.core.document import Document
    from pdfinspect.tui import start_target
    from pdfinspect.tui.app import PdfInspectApp

    doc = Document.open(SOURCE3)
    return PdfInspectApp(doc, "", start_target(doc, 1, None))


def stepping(app) -> bool:
    return any(w.group == "stepper" and not w.is_finished for w in app.workers)


def indexing(app) -> bool:
    return any(w.group == "backrefs" and not w.is_finished for w in app.workers)


def quit_time(args: list[str], ready: bytes) -> tuple[float, float]:
    """Start ``pdfinspect ARGS`` in an 80x24 pty; once ``ready`` is on screen write ``q``;
    (seconds from launch to ``ready``, seconds from ``q`` to the process's exit)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", SIZE[1], SIZE[0], 0, 0))
    env = dict(os.environ, TERM="xterm-256color", PYTHONPATH=str(ROOT))
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "pdfinspect", *args], stdin=slave, stdout=slave,
                            stderr=slave, env=env, cwd=ROOT, close_fds=True, start_new_session=True)
    os.close(slave)
    seen = b""
    try:
        while ready not in seen:
            r, _, _ = select.select([master], [], [], 60)
            if not r:
                raise TimeoutError(f"{ready!r} never shown")
            seen += os.read(master, 65536)
        started = time.perf_counter() - t0
        t1 = time.perf_counter()
        os.write(master, b"q")
        while proc.poll() is None:
            r, _, _ = select.select([master], [], [], 0.005)
            if r:
                try:
                    os.read(master, 65536)
                except OSError:
                    pass
        return started, time.perf_counter() - t1
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)


def report(name: str, times: list[float], during: int) -> None:
    ms = sorted(t * 1000 for t in times)
    print(f"{name}: {len(ms)} keys ({during} while the worker ran): median {statistics.median(ms):.1f} ms, "
          f"worst {ms[-1]:.1f} ms, over 100 ms: {sum(t > 100 for t in ms)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--keys", type=int, default=40)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))

    times, during = asyncio.run(key_latencies(stepper_app(), args.keys, stepping))
    report("stepper on the Flate bomb", times, during)
    started, quit_s = quit_time([str(BOMB), "--page", "1", "--step"], b"operators")
    print(f"stepper on the Flate bomb: screen up after {started:.2f} s, q to exit {quit_s * 1000:.0f} ms")

    if not SOURCE3.exists():
        print(f"{SOURCE3} not installed (apt-get install texlive-latex-base-doc): browser load skipped")
        return
    times, during = asyncio.run(key_latencies(browser_app(), args.keys, indexing))
    report("browser on source3.pdf, back-reference index building", times, during)
    started, quit_s = quit_time([str(SOURCE3), "--object", "1"], b"indexing")
    print(f"browser on source3.pdf: index under way after {started:.2f} s, q to exit {quit_s * 1000:.0f} ms")


if __name__ == "__main__":
    main()
