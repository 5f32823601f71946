"""Every corpus file, damaged ones included, through every screen of the app by keyboard.

Nothing a PDF contains may crash the app: an exception inside it fails ``run_test``.
"""
from __future__ import annotations

import pytest
from conftest import corpus_files, settle

from pdfinspect.core.diagnostics import PdfError
from pdfinspect.core.document import Document
from pdfinspect.tui.app import PdfInspectApp

PASSWORDS = {"qpdf-aes-256-userpw.pdf": "opensesame"}


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.name)
async def test_every_screen_opens_on_every_corpus_file(path):
    password = PASSWORDS.get(path.name, "")
    try:
        doc = Document.open(path, password=password)
    except PdfError:
        pytest.skip("unreadable as a whole: the CLI reports it, the app is never opened")
    nums = doc.object_numbers()
    app = PdfInspectApp(doc, password=password)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        last = nums[-1]
        for key in ("g", *str(last), "enter"):
            await pilot.press(key)
        await settle(pilot)
        header = str(app.screen.query_one("#object-header").render())
        assert header.startswith(f"{last} {doc.get(last).gen} obj")
        for key in ("r", "v"):
            await pilot.press(key)
            await settle(pilot)
        if doc.page_count():
            for mode in ("stepper", "glyphs"):
                app.open_content_view(mode, 1)
                await settle(pilot)
                for key in ("end", "t", "enter"):
                    await pilot.press(key)
                    await settle(pilot)
        await pilot.press("q")
