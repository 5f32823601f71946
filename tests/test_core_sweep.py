"""What the corpus sweep (every command over every corpus file) found: each failure as a test
on the file that showed it, skipped when the pdf.js corpus is absent."""
from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import CORPUS, ROOT

PDFJS = CORPUS.parent / "corpus-pdfjs"


def _pdfjs(name: str):
    path = PDFJS / name
    if not path.exists():
        pytest.skip(f"pdf.js corpus file {name} not available")
    return path


def test_a_page_pdfium_cannot_load_is_a_one_line_error_not_a_traceback(tmp_path):
    path = _pdfjs("poppler-937-0-fuzzed.pdf")  # our core finds its page; pdfium cannot load it
    p = subprocess.run([sys.executable, "-m", "pdfinspect", "render", str(path), "-p", "1", "-o",
                        str(tmp_path / "page.png")], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 1 and "Traceback" not in p.stderr
    assert "pdfinspect: error: pdfium cannot load page 1" in p.stderr
    assert not (tmp_path / "page.png").exists()
