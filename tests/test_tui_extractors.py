"""Pilot tests for the Extractors screen: real outputs side by side, differences listed,
``enter`` opening the glyph in the glyph inspector. The real extractors are replaced by a
fixed output ("ab cd") so the differences are known: pdfminer.six and poppler put a space
at a 0.11 em gap (their emulation agrees), pypdf, pdfium and MuPDF do not."""
from __future__ import annotations

import pikepdf
import pytest
from conftest import press, run_command

from pdfinspect.core.document import Document
from pdfinspect.extractors import oracle
from pdfinspect.tui.app import PdfInspectApp
from pdfinspect.tui.screens import extractors as screen_module
from pdfinspect.tui.screens.extractors import ExtractorsScreen
from pdfinspect.tui.screens.glyphs import CodeRow, GlyphScreen


def _gap_pdf(tmp_path) -> str:
    pdf = pikepdf.new()
    font = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                              BaseFont=pikepdf.Name.Helvetica, Encoding=pikepdf.Name.WinAnsiEncoding)
    page = pdf.add_blank_page(page_size=(612, 792))
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=pdf.make_indirect(font)))
    page.Contents = pdf.make_stream(b"BT /F1 10 Tf 72 700 Td [(ab) -110 (cd)] TJ ET")
    path = tmp_path / "gap.pdf"
    pdf.save(path)
    return str(path)


@pytest.fixture
def fake_real(monkeypatch):
    monkeypatch.setattr(screen_module.oracle, "run", lambda name, path, page, timeout=60.0: oracle.Run(name, "ab cd\n"))


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_differences_listed_and_enter_opens_the_glyph(tmp_path, fake_real, size):
    app = PdfInspectApp(Document.open(_gap_pdf(tmp_path)), "", None, ("glyphs", 1))
    async with app.run_test(size=size) as pilot:
        await press(pilot, "E")
        screen = app.screen
        assert isinstance(screen, ExtractorsScreen)
        listing = screen.query_one("#extractors-differences")
        lines = [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]
        assert [line.split()[0] for line in lines] == ["pypdf", "pdfium", "mupdf"]
        assert all("joined" in line and "abcd" in line for line in lines)
        assert "tj-number" in lines[0] and "0.95" in lines[0]
        header = str(screen.query_one("#extractors-header").render())
        assert "pdfminer 1.000" in header and "poppler 1.000" in header
        await press(pilot, "enter")
        glyphs = app.screen
        assert isinstance(glyphs, GlyphScreen)
        row = glyphs.shown[glyphs.query_one("#glyph-table").cursor]
        assert isinstance(row, CodeRow) and row.record.glyph.code == b"c"


@pytest.mark.asyncio
async def test_palette_opens_the_extractors_screen(tmp_path, fake_real):
    app = PdfInspectApp(Document.open(_gap_pdf(tmp_path)), "", None, None)
    async with app.run_test(size=(80, 24)) as pilot:
        await run_command(pilot, "Extractors of page")
        await press(pilot)
        assert isinstance(app.screen, ExtractorsScreen)
        await press(pilot, "escape")
        assert not isinstance(app.screen, ExtractorsScreen)
