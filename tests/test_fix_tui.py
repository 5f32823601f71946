"""'Write a fixed copy…' from the glyph inspector, by keyboard, at 80×24 and 120×40: the plan
shows before saving, the copy is written beside the input, and the app reopens on the copy's
revisions screen where the new revision is listed."""
from __future__ import annotations

import shutil

import pytest
from conftest import press, sample
from textual.widgets import Input, OptionList

from pdfinspect.core.document import Document
from pdfinspect.tui.app import PdfInspectApp
from pdfinspect.tui.messages import OpenRevisions
from pdfinspect.tui.screens.fix import FixScreen
from pdfinspect.tui.screens.glyphs import GlyphScreen
from pdfinspect.tui.screens.revisions import RevisionsScreen


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_write_fixed_copy_then_see_its_revision(size, tmp_path):
    src = tmp_path / "kappa.pdf"
    shutil.copy(sample("kappa.pdf"), src)
    original = src.read_bytes()
    app = PdfInspectApp(Document.open(src), "", None, ("glyphs", 1))
    async with app.run_test(size=size) as pilot:
        await press(pilot)
        assert isinstance(app.screen, GlyphScreen)
        await press(pilot, "w")
        screen = app.screen
        assert isinstance(screen, FixScreen)
        plan = str(screen.query_one("#fix-plan-text").render())
        assert "5 0 R" in plan and "<14> added" in plan and "U+03BA" in plan
        field = screen.query_one("#fix-output", Input)
        assert field.value == str(tmp_path / "kappa-fixed.pdf")
        field.value = str(tmp_path / "no" / "out.pdf")  # the same policy as `pdfinspect fix`
        await press(pilot, "ctrl+s")
        assert "does not exist" in str(screen.query_one("#fix-status").render()) and app.screen is screen
        field.value = str(src)  # the input itself is refused
        await press(pilot, "ctrl+s")
        assert "input is never written" in str(screen.query_one("#fix-status").render())
        await press(pilot, "ctrl+u", *str(tmp_path / "out.pdf"))  # the path is typed: the field has the keys
        assert field.value == str(tmp_path / "out.pdf")
        await press(pilot, "ctrl+s")
    assert app.return_value == OpenRevisions(str(tmp_path / "out.pdf"))
    assert src.read_bytes() == original and not (tmp_path / "no").exists()
    data = (tmp_path / "out.pdf").read_bytes()
    assert data.startswith(original)

    fixed = PdfInspectApp(Document.open(tmp_path / "out.pdf"), "", None, ("revisions", 0))
    async with fixed.run_test(size=size) as pilot:
        await press(pilot)
        assert isinstance(fixed.screen, RevisionsScreen)
        revisions = fixed.screen.query_one("#revision-list", OptionList)
        assert revisions.option_count == 2 and revisions.highlighted == 1


@pytest.mark.asyncio
async def test_escape_writes_nothing(tmp_path):
    src = tmp_path / "kappa.pdf"
    shutil.copy(sample("kappa.pdf"), src)
    app = PdfInspectApp(Document.open(src), "", None, ("glyphs", 1))
    async with app.run_test(size=(120, 40)) as pilot:
        await press(pilot, "w")
        assert isinstance(app.screen, FixScreen)
        await press(pilot, "escape")
        assert isinstance(app.screen, GlyphScreen)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kappa.pdf"]
