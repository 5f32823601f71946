"""Shared fixtures: sample files built by sample_pdfs/make_samples.py, and the shared corpus."""
from __future__ import annotations

import inspect
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_pdfs"
CORPUS = ROOT.parent / "shared" / "corpus"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the tests that drive the Textual app (``pilot``): the async tests (every one runs the
    app with ``run_test``) and the SVG snapshots. ``pytest -m "not pilot"`` is the fast tier."""
    for item in items:
        fixtures = getattr(item, "fixturenames", ())
        if inspect.iscoroutinefunction(getattr(item, "function", None)) or "snap_compare" in fixtures:
            item.add_marker(pytest.mark.pilot)


def corpus_files() -> list[Path]:
    return sorted(CORPUS.glob("*.pdf")) if CORPUS.is_dir() else []


def corpus_file(name: str) -> Path:
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"corpus file {name} not available")
    return path


def sample(name: str) -> Path:
    path = SAMPLES / name
    if not path.exists():
        pytest.skip(f"sample {name} not generated")
    return path


async def settle(pilot) -> None:
    """Let the app handle what is pending and wait for its workers and for the messages they
    posted (a worker may start another). Never waits for time: a test must not depend on load."""
    app = pilot.app
    while True:
        await pilot.pause()
        await pilot._wait_for_screen()  # every widget of the screen has handled its queued messages
        busy = [w for w in app.workers if not w.is_finished]
        if not busy:
            return
        await app.workers.wait_for_complete(busy)


async def press(pilot, *keys: str) -> None:
    """Press each key as a user would, once the app is idle: the work already started (a
    screen's start-up worker, the previous key's) finishes before the next key, and the last
    key's work before this returns. No keys: just wait for the start-up work."""
    await settle(pilot)
    for key in keys:
        await pilot.press(key)
        await settle(pilot)


async def run_command(pilot, text: str) -> None:
    """Type ``text`` into the command palette and run the first command it offers (the
    palette gathers commands in a worker: settle waits for it)."""
    await pilot.press("ctrl+p", *text)
    await settle(pilot)
    await pilot.press("enter")
    await settle(pilot)


def helvetica_pdf(tmp_path: Path, content: bytes, name: str = "page.pdf", **entries) -> str:
    """The path of a one-page PDF written at ``tmp_path / name`` that draws ``content`` with
    Helvetica (WinAnsiEncoding, not embedded) as ``/F1``; ``entries`` add to or replace the
    font dictionary's (``Widths=…``, ``Encoding=…``; bytes become a stream: ``ToUnicode=b"…"``)."""
    pikepdf = pytest.importorskip("pikepdf")
    pdf = pikepdf.new()
    font = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                              BaseFont=pikepdf.Name.Helvetica, Encoding=pikepdf.Name.WinAnsiEncoding)
    for key, value in entries.items():
        font[f"/{key}"] = pdf.make_stream(value) if isinstance(value, bytes) else value  # bytes: a stream (ToUnicode)
    page = pdf.add_blank_page(page_size=(612, 792))
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=pdf.make_indirect(font)))
    page.Contents = pdf.make_stream(content)
    path = tmp_path / name
    pdf.save(path)
    return str(path)


def emulation(path: str, name: str):
    """Extractor ``name``'s emulated output (an ``Emulation``) for page 1 of ``path``."""
    from pdfinspect.content.textlayout import page_glyphs
    from pdfinspect.core.document import Document
    from pdfinspect.extractors import emulate, page_frame

    doc = Document.open(path)
    ref = doc.page_ref(1)
    return emulate(name, list(page_glyphs(doc, ref)), page_frame(doc, ref))


def emulated_text(path: str, name: str) -> str:
    """Extractor ``name``'s emulated text of page 1 of ``path``."""
    text: str = emulation(path, name).text
    return text


def build_truetype(order: list[str], draw=None, *, cmap: dict[int, str] | None = None, names: bool = True,
                     metrics: tuple[int, int] = (600, 100), family: str = "Test", upem: int = 1000,
                     vertical: tuple[int, int] = (800, -200), edit=None) -> bytes:
    """A TrueType program (fontTools) of the glyph order ``order``: each glyph drawn by
    ``draw(pen, index, name)`` (nothing drawn without it), ``cmap`` (code point → glyph name) as
    its Unicode cmap, glyph names in its 'post' table unless ``names`` is false (format 3), every
    glyph ``metrics`` (advance, left side bearing), ``vertical`` its ascent and descent; ``edit``
    may change the font (a cmap subtable's platform) before it is written."""
    import io

    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    fb = FontBuilder(upem, isTTF=True)
    fb.setupGlyphOrder(order)
    fb.setupCharacterMap(cmap or {})
    glyphs = {}
    for i, name in enumerate(order):
        pen = TTGlyphPen(dict.fromkeys(order))  # the names a composite's parts may take
        if draw is not None:
            draw(pen, i, name)
        glyphs[name] = pen.glyph()
    fb.setupGlyf(glyphs)
    fb.setupHorizontalMetrics({n: metrics for n in order})
    fb.setupHorizontalHeader(ascent=vertical[0], descent=vertical[1])
    fb.setupOS2()
    fb.setupPost()
    if not names:
        fb.font["post"].formatType = 3.0
    fb.setupNameTable({"familyName": family, "styleName": "Regular"})
    if edit is not None:
        edit(fb.font)
    out = io.BytesIO()
    fb.save(out)
    return out.getvalue()
