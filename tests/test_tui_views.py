"""Pilot tests of the Fonts and Structure screens at 80x24 and 120x40."""
from __future__ import annotations

import pytest
from conftest import corpus_file, press, sample

from pdfinspect.core.document import Document
from pdfinspect.tui.app import PdfInspectApp
from pdfinspect.tui.screens.fonts import FontsScreen
from pdfinspect.tui.screens.glyphs import GlyphScreen

SIZES = [(80, 24), (120, 40)]


def drawn(widget) -> list[str]:
    return [widget.render_line(y).text.rstrip() for y in range(widget.size.height)]


def text_of(widget) -> str:
    return str(widget.render())


@pytest.mark.parametrize("size", SIZES)
async def test_fonts_screen_lists_every_font_and_opens_its_glyphs(size):
    doc = Document.open(sample("cid-identity.pdf"))
    app = PdfInspectApp(doc, "")
    async with app.run_test(size=size) as pilot:
        await press(pilot, "F")
        screen = app.screen
        assert isinstance(screen, FontsScreen)
        assert [r["names"] for r in screen.records] == [["F1"], ["F2"]]
        assert text_of(screen.query_one("#fonts-header")).startswith("2 fonts in 1 pages")
        lines = [line for line in drawn(screen.query_one("#font-list")) if line.strip()]
        assert len(lines) == 2 and "F1" in lines[0] and "Type0" in lines[0]
        report = text_of(screen.query_one("#font-report"))
        assert "encoding:" in report and "CIDFont:" in report and "pages:     1" in report
        await press(pilot, "down")
        assert "F2" in text_of(screen.query_one("#font-report")).splitlines()[0]
        assert "ToUnicode: " in text_of(screen.query_one("#font-report"))
        await press(pilot, "enter")
        assert isinstance(app.screen, GlyphScreen) and app.screen.page == 1
        await press(pilot, "F", "d")
        assert app.current_mode == "browser"
