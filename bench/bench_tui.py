"""TUI benchmark: launch → overview drawn, 1-page vs 1,000-page file; time to show an object
after ``g N`` (the 1,000-page file and, if installed, TeX Live's 126,639-object source3.pdf);
the object list at 100,000 objects.

    python bench/bench_tui.py [--repeat K]

Runs the app headless (``App.run_test``) in this process; times are wall-clock medians and
include ``Document.open``. Python and Textual import time is reported apart (it is the
same for every file).

``g N`` is timed two ways. With the pilot (``pilot.press`` then polling): this includes the
pilot's own cost per key (it waits for the app to go idle after each key, 40 ms or more),
measured by pressing as many unbound keys and printed beside it. And from the Enter key
event handed to the driver to the first frame painted whose header reads ``N G obj``
(``App.post_display_hook``), with the longest stall of the event loop meanwhile (a 2 ms
ticker): that is what a person at the terminal waits. The first ``g N`` after launch also
builds the browser while the app's workers run, and is printed apart. The 1,000-page file comes from ``bench/make_large.py``; the
100,000-object file is written with pikepdf into a temporary directory.
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
SIZE = (120, 40)
SOURCE3 = Path("/usr/share/doc/texlive-doc/latex/l3kernel/source3.pdf")


def ensure_data() -> tuple[Path, Path]:
    small, large = DATA / "small-1.pdf", DATA / "large-1000.pdf"
    if not (small.exists() and large.exists()):
        subprocess.run([sys.executable, str(HERE / "make_large.py")], check=True)
    return small, large


def many_objects(path: Path, count: int) -> Path:
    """``count`` small objects, reachable through arrays of 100 (no huge single object)."""
    import pikepdf

    pdf = pikepdf.new()
    pdf.add_blank_page()
    groups = pikepdf.Array()
    for start in range(0, count, 100):
        group = pikepdf.Array([pdf.make_indirect(pikepdf.Dictionary(N=i))
                               for i in range(start, min(start + 100, count))])
        groups.append(pdf.make_indirect(group))
    pdf.Root.Many = pdf.make_indirect(groups)
    pdf.save(path)
    return path


class StallWatch:
    """The longest gap between the ticks of a 2 ms ticker on the event loop (``longest``,
    seconds) while the ``async with`` body runs: the longest time no key could be handled."""

    async def __aenter__(self) -> "StallWatch":
        self.longest, self._last = 0.0, time.perf_counter()
        self._task = asyncio.create_task(self._tick())
        await asyncio.sleep(0)
        return self

    async def __aexit__(self, *exc) -> None:
        self._task.cancel()

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(0.002)
            now = time.perf_counter()
            self.longest, self._last = max(self.longest, now - self._last), now


async def launch(path: Path) -> float:
    from pdfinspect.core.document import Document
    from pdfinspect.tui.app import PdfInspectApp

    t0 = time.perf_counter()
    app = PdfInspectApp(Document.open(path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        elapsed = time.perf_counter() - t0
    return elapsed


async def launch_counted(path: Path) -> tuple[float, float, float]:
    """(launch → first frame painted, → a frame with the overview's object count, the
    longest event-loop stall meanwhile): the app lists the object numbers in a worker."""
    from pdfinspect.core.document import Document
    from pdfinspect.tui.app import PdfInspectApp

    t0 = time.perf_counter()
    frames: list[tuple[float, bool]] = []  # (time, count shown)

    def painted() -> None:
        summary = app.screen.query("#summary")
        counted = bool(summary) and "in use" in str(summary.first().render())
        frames.append((time.perf_counter() - t0, counted))

    async with StallWatch() as stalls:
        app = PdfInspectApp(Document.open(path))
        app.post_display_hook = painted
        async with app.run_test(size=SIZE) as pilot:
            while not any(counted for _, counted in frames):
                await pilot.pause(0.01)
    return frames[0][0], next(t for t, counted in frames if counted), stalls.longest


async def header_after(pilot, keys: list[str], expected: str) -> float:
    app = pilot.app
    t0 = time.perf_counter()
    for key in keys:
        await pilot.press(key)
    while True:
        await pilot.pause()
        screen = app.screen
        header = screen.query("#object-header")
        if header and str(header.first().render()).startswith(expected):
            return time.perf_counter() - t0


async def goto(path: Path, num: int) -> tuple[float, float, float]:
    """(first ``g N``, which also builds the browser screen; a second ``g N``; the same key
    presses on an unbound key, i.e. what the headless pilot itself costs)."""
    from pdfinspect.core.document import Document
    from pdfinspect.tui.app import PdfInspectApp

    app = PdfInspectApp(Document.open(path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        first = await header_after(pilot, ["g", *str(num), "enter"], f"{num} 0 obj")
        second = await header_after(pilot, ["g", *str(num - 2), "enter"], f"{num - 2} 0 obj")
        await app.workers.wait_for_complete()
        t0 = time.perf_counter()
        for _ in range(len(str(num - 2)) + 2):
            await pilot.press("z")
        await pilot.pause()
        idle = time.perf_counter() - t0
    return first, second, idle


async def object_list(path: Path) -> tuple[float, float, int]:
    """(time to open the list pane, time to jump to its last row and draw it, rows)."""
    from pdfinspect.core.document import Document
    from pdfinspect.tui.app import PdfInspectApp
    from pdfinspect.tui.widgets.object_list import ObjectList

    app = PdfInspectApp(Document.open(path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        t0 = time.perf_counter()
        await pilot.press("b", "l")
        await pilot.pause()
        opened = time.perf_counter() - t0
        listing = app.screen.query_one(ObjectList)
        t0 = time.perf_counter()
        await pilot.press("end")
        await pilot.pause()
        jumped = time.perf_counter() - t0
        rows = listing.line_count
        await app.workers.wait_for_complete()
    return opened, jumped, rows


async def enter_to_shown(pilot, num: int) -> tuple[float, float]:
    """Type ``g N`` with the pilot, then (time from Enter to the frame showing ``N G obj``,
    the longest event-loop stall meanwhile)."""
    from textual import events

    app = pilot.app
    await pilot.press("g", *str(num))
    await pilot.pause()
    shown = asyncio.Event()

    def painted() -> None:
        header = app.screen.query("#object-header")
        if header and str(header.first().render()).startswith(f"{num} "):
            shown.set()

    app.post_display_hook = painted
    async with StallWatch() as stalls:
        key = events.Key("enter", "\r")
        key.set_sender(app)
        t0 = time.perf_counter()
        app._driver.send_message(key)
        await asyncio.wait_for(shown.wait(), 10)
        elapsed = time.perf_counter() - t0
    del app.post_display_hook
    await app.workers.wait_for_complete()
    await pilot.pause()
    return elapsed, stalls.longest


async def frames(path: Path, nums: list[int]) -> list[tuple[float, float]]:
    """``enter_to_shown`` for each of ``nums`` in turn from the overview, half a second after
    launch: the first builds the browser while the app's workers (object numbers, then the
    back-reference index it starts) run; the others come once they are done."""
    from pdfinspect.core.document import Document
    from pdfinspect.tui.app import PdfInspectApp

    app = PdfInspectApp(Document.open(path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.5)
        return [await enter_to_shown(pilot, num) for num in nums]


def median(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:7.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    t0 = time.perf_counter()
    import pdfinspect.tui.app  # noqa: F401  (import cost, measured once)
    print(f"import pdfinspect.tui.app (textual, rich, core): {(time.perf_counter() - t0) * 1000:.0f} ms")
    small, large = ensure_data()
    asyncio.run(launch(small))  # warm caches (CSS parse, lexers)
    small_t = [asyncio.run(launch(small)) for _ in range(args.repeat)]
    large_t = [asyncio.run(launch(large)) for _ in range(args.repeat)]
    print(f"launch → overview drawn, {small.name}: {median(small_t)}")
    print(f"launch → overview drawn, {large.name}: {median(large_t)}  "
          f"(ratio {statistics.median(large_t) / statistics.median(small_t):.2f})")
    if SOURCE3.exists():
        counted = [asyncio.run(launch_counted(SOURCE3)) for _ in range(args.repeat)]
        print(f"launch → first frame, {SOURCE3.name}: {median([c[0] for c in counted])}, "
              f"→ overview with its object count {median([c[1] for c in counted])}, "
              f"longest loop stall meanwhile {max(c[2] for c in counted) * 1000:.1f} ms")
    runs = [asyncio.run(goto(large, 1001)) for _ in range(args.repeat)]
    print(f"g 1001 on {large.name}, first (builds the browser): {median([r[0] for r in runs])}")
    print(f"g 999 on {large.name}, browser already up:          {median([r[1] for r in runs])}")
    print(f"  (the pilot's own cost for as many unbound keys:     {median([r[2] for r in runs])})")
    for path, nums in ((large, [1001, 999, 997, 500, 3, 998]),  # source3: 126,639 objects, most in object streams
                       (SOURCE3, [126637, 116652, 126636, 3736, 50000, 100000, 126638])):
        if not path.exists():
            continue
        shown = asyncio.run(frames(path, nums))
        print(f"Enter → object painted, {path.name}, first g {nums[0]} (builds the browser): "
              f"{shown[0][0] * 1000:.1f} ms, longest loop stall {shown[0][1] * 1000:.1f} ms")
        print(f"Enter → object painted, {path.name} (g {', '.join(map(str, nums[1:]))}): "
              f"median {median([s[0] for s in shown[1:]])}, worst {max(s[0] for s in shown[1:]) * 1000:.1f} ms; "
              f"longest loop stall {max(s[1] for s in shown[1:]) * 1000:.1f} ms")
    with tempfile.TemporaryDirectory() as tmp:
        many = many_objects(Path(tmp) / "many.pdf", 100_000)
        opened, jumped, rows = asyncio.run(object_list(many))
        print(f"object list, {rows:,} objects: open pane {opened * 1000:.1f} ms, "
              f"end → last row drawn {jumped * 1000:.1f} ms")


if __name__ == "__main__":
    main()
