"""Stepper benchmark on the densest page: open → first operators shown, → run complete, and
the time per step (``n``), target under 50 ms a step.

    python bench/bench_stepper.py [--steps K]

Runs the app headless (``App.run_test``) on ``bench/data/dense-1.pdf`` (one page of at
least 100,000 operators, from ``bench/make_large.py``). Times are wall-clock and include
``Document.open``. A step is timed from the ``n`` key event handed to the driver (as a
terminal would) to the end of the first frame painted after the step was shown, turned
into escape codes as a terminal driver would: while the page is still being run in its
worker and after. Also printed: the pilot's round trip (it waits for the app to go idle,
its cost for an unbound key beside it) and the screen's own work per step (``show_step``).
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DENSE = HERE / "data" / "dense-1.pdf"
SIZE = (120, 40)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f} ms"


async def press_timed(pilot, key: str, count: int) -> list[float]:
    """Seconds per press of ``key`` through the pilot (it waits for the process to go idle,
    so this only means something once the page has run)."""
    times = []
    for _ in range(count):
        t0 = time.perf_counter()
        await pilot.press(key)
        await pilot.pause()
        times.append(time.perf_counter() - t0)
    return times


async def steps_drawn(app, screen, count: int, while_running: bool) -> list[float]:
    """Seconds from an ``n`` key event handed to the driver (as a terminal would) to the end
    of the first frame painted after the step was shown. The headless driver skips turning
    a frame into escape codes; that is done here too, so the figure includes it."""
    from textual import events
    from textual._compositor import CompositorUpdate

    painted = asyncio.Event()
    shown = {"index": -1, "target": -2}
    show_step, display = screen.show_step, app._display

    def mark_shown(i: int) -> None:
        show_step(i)
        shown["index"] = i

    def mark_painted(screen_, update) -> None:
        display(screen_, update)
        if isinstance(update, CompositorUpdate):
            update.render_segments(app.console)
        if shown["index"] == shown["target"]:
            painted.set()

    screen.show_step, app._display = mark_shown, mark_painted
    times = []
    try:
        for _ in range(count):
            if while_running and not screen.running:
                break
            shown["target"] = screen.ops.cursor + 1
            painted.clear()
            key = events.Key("n", "n")
            key.set_sender(app)
            t0 = time.perf_counter()
            app._driver.send_message(key)
            await asyncio.wait_for(painted.wait(), 10)
            times.append(time.perf_counter() - t0)
    finally:
        del screen.show_step, app._display
    return times


async def open_stepper(steps: int, keys_while_running: bool):
    """Open the stepper on the dense page; returns the figures of one session."""
    from pdfinspect.core.document import Document
    from pdfinspect.tui.app import PdfInspectApp
    from pdfinspect.tui.screens.stepper import StepperScreen

    shown: list[tuple[float, int]] = []  # (time, operators loaded) when the first step was drawn
    show_step = StepperScreen.show_step

    def timed_show_step(self, i: int) -> None:
        show_step(self, i)
        if not shown:
            shown.append((time.perf_counter(), len(self.ops.steps)))

    StepperScreen.show_step = timed_show_step
    t0 = time.perf_counter()
    app = PdfInspectApp(Document.open(DENSE), "", None, ("stepper", 1))
    figures: dict[str, object] = {}
    async with app.run_test(size=SIZE) as pilot:
        while not shown:
            await pilot.pause(0.001)
        StepperScreen.show_step = show_step
        screen = app.screen
        figures["first"], figures["loaded"] = shown[0][0] - t0, shown[0][1]
        if keys_while_running:
            figures["during"] = await steps_drawn(app, screen, steps, True)
        await app.workers.wait_for_complete()
        figures["done"] = time.perf_counter() - t0
        if keys_while_running:
            await pilot.press("home")
            await pilot.pause()
            figures["after"] = await press_timed(pilot, "n", steps)
            figures["drawn"] = await steps_drawn(app, screen, steps, False)
            figures["idle"] = await press_timed(pilot, "z", steps)
            total = len(screen.ops.steps)
            direct = []
            for i in list(range(total // 2, total // 2 + steps)) + [total - 1]:
                t1 = time.perf_counter()
                screen.show_step(i)
                direct.append(time.perf_counter() - t1)
            figures["direct"] = direct
        figures["size"] = (len(screen.ops.steps), len(screen.records))
    return figures


def report(quiet: dict, busy: dict, steps: int) -> None:
    ops, glyphs = quiet["size"]
    after, idle = statistics.median(busy["after"]), statistics.median(busy["idle"])
    print(f"stepper on {DENSE.name}: {ops:,} operators, {glyphs:,} glyphs")
    print(f"open → first operators shown ({quiet['loaded']:,} loaded):    {ms(quiet['first'])}")
    print(f"open → run complete (no keys pressed):           {ms(quiet['done'])}")
    during = busy["during"]
    print(f"n → step drawn while the page still runs (median of {len(during)}, max "
          f"{ms(max(during)).strip() if during else '-'}): {ms(statistics.median(during)) if during else '(run ended first)'}")
    drawn = busy["drawn"]
    print(f"n → step drawn after the run (median of {len(drawn)}, max {ms(max(drawn)).strip()}): "
          f"{ms(statistics.median(drawn))}")
    print(f"n through the pilot after the run (median of {steps}, max {ms(max(busy['after'])).strip()}): {ms(after)}")
    print(f"  the pilot's own cost for an unbound key (median):      {ms(idle)}")
    print(f"  a step beyond the pilot's cost (median n - median key): {ms(after - idle)}")
    print(f"show_step itself (state, glyphs, path, text, source; median of {steps + 1}): "
          f"{ms(statistics.median(busy['direct']))}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=50, help="n presses timed in each phase")
    args = parser.parse_args()
    if not DENSE.exists():
        subprocess.run([sys.executable, str(HERE / "make_large.py")], check=True)
    quiet = asyncio.run(open_stepper(args.steps, False))
    busy = asyncio.run(open_stepper(args.steps, True))
    report(quiet, busy, args.steps)


if __name__ == "__main__":
    main()
