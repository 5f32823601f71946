"""pdfinspect check: the counterpart of qpdf --check (exit 0 clean, 3 warnings, 1 errors)."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pytest
from textual.widgets import Static

from pdfinspect.core.check import CLEAN, ERRORS, WARNINGS, check
from pdfinspect.core.document import Document

from pdfinspect.tui.app import PdfInspectApp
from pdfinspect.tui.screens.overview import OverviewScreen

from conftest import ROOT, corpus_files, sample, settle
from test_recovery import PAGES, build


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


ENCRYPTED = [p for p in corpus_files() if p.name.startswith("qpdf-") and ("rc4" in p.name or "aes" in p.name)]
# qpdf --show-encryption's words for the permissions of 7.6.4.2 (R 3 and later), and ours
QPDF_PERMISSIONS = {
    "print low resolution": "print", "print high resolution": "print at full quality",
    "modify other": "modify contents", "extract for any purpose": "copy or extract text and graphics",
    "modify annotations": "add or modify annotations, fill form fields",
    "modify forms": "fill in existing form fields", "extract for accessibility": "extract for accessibility",
    "modify document assembly": "assemble (insert, rotate, delete pages, bookmarks, thumbnails)",
}


def _qpdf(*args):
    return subprocess.run(["qpdf", *map(str, args)], capture_output=True, text=True)


@pytest.mark.skipif(shutil.which("qpdf") is None, reason="qpdf absent")
@pytest.mark.parametrize("path", ENCRYPTED, ids=lambda p: p.name)
def test_info_gives_the_encryption_facts_qpdf_shows_without_the_password(path):
    theirs = _qpdf("--show-encryption", path).stdout
    p = subprocess.run([sys.executable, "-m", "pdfinspect", "info", str(path), "--quick"], capture_output=True,
                       text=True, cwd=ROOT)
    revision = re.search(r"^R = (\d+)", theirs, re.M).group(1)
    assert re.search(rf"^Encryption: +/Standard security handler V\d R{revision}, ", p.stdout, re.M)
    assert f"permissions: /P {re.search(r'^P = (-?[0-9]+)', theirs, re.M).group(1)}" in p.stdout
    ours = dict(re.findall(r"permission: (.*): (granted|denied)", p.stdout))
    if int(revision) >= 3:  # R 2 has four bits; qpdf derives the other four from them
        granted = {QPDF_PERMISSIONS[k]: v == "allowed"
                   for k, v in re.findall(r"^(.*): (allowed|not allowed)$", theirs, re.M) if k in QPDF_PERMISSIONS}
        assert {k: v == "granted" for k, v in ours.items()} == granted
    assert p.returncode == (0 if "opened with the user password" in p.stdout else 1)  # locked: facts, then 1
    if p.returncode:  # a wrong password is an error, not damage to the file
        assert re.search(r"^Damage: +1 error$", p.stdout, re.M)


@pytest.mark.skipif(shutil.which("qpdf") is None, reason="qpdf absent")
@pytest.mark.parametrize("path", ENCRYPTED, ids=lambda p: p.name)
def test_check_status_agrees_with_qpdf_check(path):
    password = "opensesame" if "userpw" in path.name else ""
    qpdf_status = {0: CLEAN, 2: ERRORS, 3: WARNINGS}[_qpdf("--check", f"--password={password}", path).returncode]
    assert run(path, "--password", password).returncode == qpdf_status
    if password:  # without it: the structure is checked, the streams cannot be: an error for both
        assert _qpdf("--check", path).returncode == 2 and run(path).returncode == ERRORS


@pytest.mark.parametrize("size, warned", [(5, False), (9, False), (3, True)])
def test_a_trailer_size_below_the_objects_is_a_warning(size, warned):
    report = check(Document(build(PAGES, b"<< /Size %d /Root 1 0 R >>" % size)))
    assert ("trailer-size" in {d.code for d in report.warnings}) is warned
    assert report.status == (WARNINGS if warned else CLEAN)


def test_unreadable_object_and_no_pages_are_errors_or_warnings():
    data = sample("minimal.pdf").read_bytes().replace(b"2 0 obj", b"2 0 xyz")
    seen = []
    report = check(Document(data), progress=lambda done, total: seen.append((done, total)))
    assert report.status == ERRORS and "pages-none" in {d.code for d in report.errors}
    assert "objects-unreadable" in {d.code for d in report.warnings}
    assert seen[-1] == (4, 5)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@pytest.mark.parametrize("name", ["filters.pdf", "damaged-bad-length.pdf", "damaged-loop.pdf"])
async def test_the_overview_shows_what_check_prints(name, size):
    """``x`` on the overview runs the check in a worker; its result reads as the CLI's lines."""
    path = sample(name)
    cli = run(path).stdout.splitlines()[1:]  # after "checking FILE"
    app = PdfInspectApp(Document.open(path), "", None)
    done = []
    async with app.run_test(size=size, message_hook=lambda m: done.append(m)
                            if isinstance(m, OverviewScreen.CheckDone) else None) as pilot:
        await settle(pilot)
        panel = app.screen.query_one("#check", Static)
        assert "press x" in str(panel.render())
        await pilot.press("x")
        await settle(pilot)
        assert len({id(m) for m in done}) == 1  # (the hook sees it on the screen, then the app)
        shown = [" ".join(line.split()) for line in str(panel.render()).splitlines()]
    assert shown[-1] == cli[-1]  # the verdict
    for line in cli[:4]:  # PDF version, Encryption, Pages, Objects
        label, value = line.split(":", 1)
        assert f"{label} {value.strip()}" in shown
    found = [d for d in done[0].report.errors + done[0].report.warnings]
    assert len(found) == len(cli) - 5
    for d in found:  # every finding on a line of its own, naming its code and where it is
        assert any(d.code in line and (d.ref is None or f"object {d.ref[0]} {d.ref[1]}" in line) for line in shown)


async def test_a_check_the_app_cancels_stops_at_its_next_progress_call(monkeypatch):
    """Quitting cancels the check's worker: its next progress call (every 500 objects) ends
    it, with no result posted (q must not wait for a whole-file check)."""
    from textual.worker import get_current_worker

    import pdfinspect.core.check

    calls = []

    def cancelled_midway(doc, progress):
        get_current_worker().cancel()  # what Textual does to the screen's workers on quit
        calls.append("before")
        progress(500, 1000)
        calls.append("after")  # not reached
        return check(doc, progress)

    monkeypatch.setattr(pdfinspect.core.check, "check", cancelled_midway)  # the overview imports it when x runs
    app = PdfInspectApp(Document.open(sample("filters.pdf")), "", None)
    done = []
    async with app.run_test(message_hook=lambda m: done.append(m) if isinstance(m, OverviewScreen.CheckDone)
                            else None) as pilot:
        await settle(pilot)
        await pilot.press("x")
        await settle(pilot)
        assert calls == ["before"] and not done
        assert "checking" in str(app.screen.query_one("#check", Static).render())
