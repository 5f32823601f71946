"""Preview benchmark: the stepper's page preview on source3.pdf's densest page, and the box
agreement with pdfium over whole corpora.

    python bench/bench_preview.py [FILE] [--page N] [--steps K]
    python bench/bench_preview.py --agree DIR [DIR …]

(a) ``i`` → preview drawn: from the key event handed to the driver (as a terminal would) to
the end of the first frame painted with the picture, target under 0.5 s; (b) ``t`` (next
text-showing operator, so the boxes move every time) without the preview, then with it open,
whole page and zoomed (``Z``), target under 100 ms a step. FILE defaults to TeX Live's source3.pdf (Debian
package texlive-latex-base-doc); the densest page is the one with the most Tj and TJ.
The peer, in the same run: ``mutool draw`` rendering that page at the preview's size as a
whole process (it includes MuPDF's start-up; ours is inside a running app).

``--agree`` compares every glyph box of page 1 of each file with pdfium's loose character
box (``render.crosscheck``) and prints the share whose centres lie within 1 pt, per file
where they differ and in total.
"""
from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SOURCE3 = Path("/usr/share/doc/texlive-doc/latex/l3kernel/source3.pdf")
SIZE = (120, 40)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.1f} ms"


def densest_page(path: Path) -> int:
    """The page (1-based) whose content shows the most text: the most Tj and TJ operators."""
    from pdfinspect.content.interpreter import page_content
    from pdfinspect.core.document import Document

    doc = Document.open(path)
    counts = []
    for n, ref in enumerate(doc.page_refs(), 1):
        data = page_content(doc, doc.resolve(ref))[0]
        counts.append((data.count(b"Tj") + data.count(b"TJ"), n))
    return max(counts)[1]


async def key_to_preview(app, pane, key: str, expect_change: bool) -> float:
    """Seconds from ``key`` handed to the driver to the first frame painted after the pane
    showed the picture for the request the key made (or after the step, if none changed)."""
    from textual import events
    from textual._compositor import CompositorUpdate

    painted = asyncio.Event()
    state = {"generation": pane._generation, "ready": False}
    shown, display = pane._shown, app._display

    def mark_shown(generation, *picture):
        shown(generation, *picture)
        if generation == pane._generation and generation != state["generation"]:
            state["ready"] = True

    def mark_painted(screen, update):
        display(screen, update)
        if isinstance(update, CompositorUpdate):
            update.render_segments(app.console)
        if state["ready"] or (not expect_change and pane._generation == state["generation"]):
            painted.set()

    pane._shown, app._display = mark_shown, mark_painted
    try:
        event = events.Key(key, key if len(key) == 1 else None)
        event.set_sender(app)
        t0 = time.perf_counter()
        app._driver.send_message(event)
        await asyncio.wait_for(painted.wait(), 30)
        return time.perf_counter() - t0
    finally:
        del pane._shown, app._display


async def session(path: Path, page: int, steps: int) -> dict:
    from pdfinspect.core.document import Document
    from pdfinspect.tui.app import PdfInspectApp
    from pdfinspect.tui.widgets.preview import PagePreview

    app = PdfInspectApp(Document.open(path), "", None, ("stepper", page))
    out: dict = {}
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        while not screen.ops.steps:
            await pilot.pause(0.01)
        await app.workers.wait_for_complete()  # the whole page run: stepping is timed after
        pane = screen.query_one("#preview", PagePreview)
        out["plain"] = [await key_to_preview(app, pane, "t", False) for _ in range(steps)]
        out["open"] = await key_to_preview(app, pane, "i", True)
        out["picture"] = (pane.content_region.width, pane.content_region.height * 2)
        out["steps"] = [await key_to_preview(app, pane, "t", True) for _ in range(steps)]
        await pilot.press("Z")
        await app.workers.wait_for_complete()
        await pilot.pause()
        out["zoomed"] = [await key_to_preview(app, pane, "t", True) for _ in range(steps)]
        out["operators"], out["glyphs"] = len(screen.ops.steps), len(screen.records)
    return out


def mutool_draw(path: Path, page: int, pixels: tuple[int, int], repeat: int = 3) -> float | None:
    if shutil.which("mutool") is None:
        return None
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(repeat):
            t0 = time.perf_counter()
            subprocess.run(["mutool", "draw", "-q", "-o", f"{tmp}/p.png", "-w", str(pixels[0]), "-h",
                            str(pixels[1]), str(path), str(page)], check=True, capture_output=True)
            times.append(time.perf_counter() - t0)
    return statistics.median(times)


def agree(folders: list[str]) -> None:
    from pdfinspect.content.textlayout import page_glyphs
    from pdfinspect.core.document import Document
    from pdfinspect.render.crosscheck import compare, open_pdfium

    total = within = files = 0
    for folder in folders:
        for path in sorted(Path(folder).glob("*.pdf")):
            try:
                doc = Document.open(path)
                c = compare(page_glyphs(doc, doc.page_ref(1)), open_pdfium(str(path))[0])
            except Exception as e:  # a file one of the two cannot open: listed, not counted
                print(f"  {path.name}: skipped ({type(e).__name__}: {str(e)[:60]})")
                continue
            if not c.pairs:
                continue
            files += 1
            ok = c.within(1.0)
            total, within = total + len(c.pairs), within + ok
            if ok < len(c.pairs):
                worst = max(c.pairs, key=lambda p: p.distance)
                print(f"  {path.name}: {ok}/{len(c.pairs)} within 1 pt (ours {c.ours}, pdfium {c.theirs}); "
                      f"worst {worst.char!r} {worst.distance:.1f} pt")
    print(f"agreement: {within}/{total} glyph centres within 1 pt = {within / max(total, 1):.2%} "
          f"over {files} files with text in both")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file", nargs="?", type=Path, default=SOURCE3)
    ap.add_argument("--page", type=int, help="page to step (default: the densest)")
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--agree", nargs="+", metavar="DIR", help="compare boxes with pdfium over DIRs instead")
    args = ap.parse_args()
    if args.agree:
        agree(args.agree)
        return
    if not args.file.exists():
        sys.exit(f"{args.file} not found (apt-get install texlive-latex-base-doc, or give a FILE)")
    page = args.page or densest_page(args.file)
    r = asyncio.run(session(args.file, page, args.steps))
    print(f"{args.file.name} page {page}: {r['operators']} operators, {r['glyphs']} glyphs; "
          f"preview picture {r['picture'][0]}×{r['picture'][1]} pixels")
    print(f"  i → preview drawn          {ms(r['open'])}   (target < 500 ms)")
    for label, times in (("t without the preview", r["plain"]), ("t with the preview, page", r["steps"]),
                         ("t with the preview, zoomed", r["zoomed"])):
        print(f"  {label:<26} median {ms(statistics.median(times))}  max {ms(max(times))}   (target < 100 ms)")
    peer = mutool_draw(args.file, page, r["picture"])
    if peer is not None:
        print(f"  peer: mutool draw of the page at that size, whole process {ms(peer)}; "
              f"i → preview / mutool = {r['open'] / peer:.2f}")


if __name__ == "__main__":
    main()
