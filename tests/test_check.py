"""pdfinspect check: the counterpart of qpdf --check (exit 0 clean, 3 warnings, 1 errors)."""
from __future__ import annotations

import subprocess
import sys

from pdfinspect.core.check import CLEAN, ERRORS, WARNINGS, check
from pdfinspect.core.document import Document

from conftest import ROOT, sample


def run(*args):
    return subprocess.run([sys.executable, "-m", "pdfinspect", "check", *map(str, args)], capture_output=True,
                          text=True, encoding="utf-8", errors="replace", cwd=ROOT)


def test_sound_file_is_clean():
    report = check(Document.open(sample("filters.pdf")))
    assert report.status == CLEAN and report.streams == 7 and report.pages == 1
    p = run(sample("filters.pdf"))
    assert p.returncode == 0 and "no syntax or stream encoding errors found" in p.stdout


def test_wrong_lengths_and_page_cycles_are_warnings():
    report = check(Document.open(sample("damaged-bad-length.pdf")))
    assert report.status == WARNINGS
    assert [d.code for d in report.warnings] == ["stream-length-wrong", "stream-length-wrong"]
    p = run(sample("damaged-loop.pdf"))
    assert p.returncode == 3 and "page tree node 2 appears twice" in p.stdout


def test_a_stream_that_does_not_decode_is_reported():
    doc = Document.open(sample("damaged-bomb.pdf"), decode_limit=1 << 20)
    report = check(doc)
    assert report.streams_failed == 1 and "stream-decode" in {d.code for d in report.warnings}


def test_wrong_password_is_an_error_but_the_structure_is_checked():
    p = run(sample("encrypted-rc4.pdf"), "--password", "nope")
    assert p.returncode == 1 and "RC4 128-bit; locked" in p.stdout and "Pages:       1" in p.stdout


def test_unreadable_object_and_no_pages_are_errors_or_warnings():
    data = sample("minimal.pdf").read_bytes().replace(b"2 0 obj", b"2 0 xyz")
    seen = []
    report = check(Document(data), progress=lambda done, total: seen.append((done, total)))
    assert report.status == ERRORS and "pages-none" in {d.code for d in report.errors}
    assert "objects-unreadable" in {d.code for d in report.warnings}
    assert seen[-1] == (4, 5)
