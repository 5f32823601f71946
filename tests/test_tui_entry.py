"""How the app is entered: no terminal on stdout, usage errors, the password prompt, --log."""
from __future__ import annotations

import subprocess
import sys

import pikepdf
import pytest
from conftest import ROOT, press, sample, settle

from pdfinspect.core.document import Document
from pdfinspect.tui import encryption_facts
from pdfinspect.tui.app import PdfInspectApp
from pdfinspect.tui.password import PasswordApp


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pdfinspect", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=60, stdin=subprocess.DEVNULL)


def test_no_terminal_on_stdout_prints_the_overview_instead_of_starting_the_app():
    path = sample("kappa.pdf")
    with pikepdf.open(path) as pdf:
        pages = len(pdf.pages)
    done = run_cli(str(path))  # stdout is a pipe here, as in pdfinspect FILE > out.txt
    assert done.returncode == 0
    assert f"Pages:       {pages}" in done.stdout
    assert "\x1b" not in done.stdout  # no screen drawn into the file
    assert "not a terminal" in done.stderr


def test_step_or_glyphs_without_page_is_a_usage_error():
    for flag in ("--step", "--glyphs"):
        done = run_cli(str(sample("kappa.pdf")), flag)
        assert done.returncode == 2
        assert f"{flag} needs --page N" in done.stderr


@pytest.mark.parametrize("view", ["stepper", "glyphs"])
async def test_page_n_with_step_or_glyphs_opens_page_n(view):
    """--page 3 --step (run_app's start view ("stepper", 3)) opened page 1: the start view
    was taken for a mode to switch to."""
    path = sample("pages.pdf")
    with pikepdf.open(path) as pdf:
        ops = [str(op) for _, op in pikepdf.parse_content_stream(pdf.pages[2])]
    app = PdfInspectApp(Document.open(path), "", None, (view, 3))
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot)
        assert app.screen.page == 3 and app.content_page == 3
        header = str(app.screen.query_one(f"#{'stepper' if view == 'stepper' else 'glyphs'}-header").render())
        assert header.startswith("page 3")
        if view == "stepper":
            assert [s.op for s in app.screen.ops.steps] == ops


def locked_pdf(tmp_path):
    path = tmp_path / "locked.pdf"
    pdf = pikepdf.new()
    pdf.add_blank_page()
    pdf.docinfo["/Title"] = "behind a password"
    pdf.save(path, encryption=pikepdf.Encryption(user="secret", owner="owner", R=6))
    return path


async def test_an_encrypted_file_asks_for_its_password_after_showing_what_is_known(tmp_path):
    path = locked_pdf(tmp_path)
    facts = encryption_facts(path)  # read before any password: what qpdf --show-encryption says
    shown = subprocess.run(["qpdf", "--show-encryption", "--password=", str(path)], capture_output=True, text=True).stdout
    assert "R = 6" in shown and "R6" in facts[0] and "AESV3 256-bit" in facts[0] and "locked" in facts[0]
    assert any(line.startswith("permission:") for line in facts)
    app = PasswordApp(path, facts, "the password is neither the user nor the owner password")
    async with app.run_test(size=(80, 24)) as pilot:
        text = str(app.query_one("#password-facts").render())
        assert "AESV3 256-bit" in text and "neither the user nor the owner" in text
        for key in "wrong":
            await pilot.press(key)
        await pilot.press("enter")
        await settle(pilot)
        assert "try again" in str(app.query_one("#password-status").render())
        assert app.return_value is None and app.is_running
        for key in "secret":
            await pilot.press(key)
        await pilot.press("enter")
        await settle(pilot)
    doc = app.return_value
    assert isinstance(doc, Document) and app.password == "secret"
    assert doc.security is not None and doc.page_count() == 1


async def test_escape_gives_up_on_the_password(tmp_path):
    app = PasswordApp(locked_pdf(tmp_path), [], "no password")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("escape")
        await settle(pilot)
    assert app.return_value is None


async def test_a_locked_file_opens_read_only_without_its_key(tmp_path):
    """ctrl+o at the password prompt: the app browses what needs no key (the catalog, the page
    tree, /Encrypt), says the file is locked, and an encrypted stream shows its decode error."""
    from pdfinspect.tui.app import PdfInspectApp
    from pdfinspect.tui.screens.browser import BrowserScreen

    path = locked_pdf(tmp_path)
    prompt = PasswordApp(path, encryption_facts(path), "no password")
    async with prompt.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+o")
        await settle(pilot)
    doc = prompt.return_value
    assert isinstance(doc, Document) and doc.locked and prompt.password == ""
    with pikepdf.open(path, password="secret") as pdf:
        contents = pdf.pages[0].Contents.objgen[0]
    app = PdfInspectApp(doc, "")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert "locked" in app.sub_title
        await press(pilot, "g", *str(contents), "enter")
        assert isinstance(app.screen, BrowserScreen)
        assert str(app.screen.query_one("#object-header").render()).startswith(f"{contents} 0 obj")
        await press(pilot, "S", "F", "c")  # the views that need the key say what failed, none crashes
        assert app.is_running
