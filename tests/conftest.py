"""Shared fixtures: sample files built by sample_pdfs/make_samples.py, and the shared corpus."""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_pdfs"
CORPUS = ROOT.parent / "shared" / "corpus"


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
    """Let the app handle what is pending and wait for its workers (a worker may start another)."""
    await pilot.pause()
    while any(not worker.is_finished for worker in pilot.app.workers):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
