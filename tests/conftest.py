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
