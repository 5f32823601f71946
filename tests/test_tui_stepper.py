"""Pilot tests for the content stepper and the glyph inspector, on the κ sample.

Expected values come from pikepdf (the content stream's operators, the font's ToUnicode
object and its bytes) and fontTools' AGL, not from our own output.
"""
from __future__ import annotations

import pikepdf
import pytest
from conftest import sample
from fontTools import agl

from pdfinspect.core.document import Document
from pdfinspect.tui.app import PdfInspectApp
from pdfinspect.tui.screens.glyphs import GlyphScreen
from pdfinspect.tui.screens.help import HelpScreen
from pdfinspect.tui.screens.stepper import StepperScreen

SIZE = (120, 40)
KAPPA = sample("kappa.pdf")


def make_app(view: str | None, page: int = 1) -> PdfInspectApp:
    return PdfInspectApp(Document.open(KAPPA), "", None, (view, page) if view else None)


async def press(pilot, *keys: str) -> None:
    """Press each key and let the workers it starts finish (no keys: wait for the start-up work)."""
    for key in keys or (None,):
        if key is not None:
            await pilot.press(key)
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()


def kappa_facts():
    """(operator names, the TJ's string bytes, ToUnicode objgen, ToUnicode bytes) per pikepdf."""
    with pikepdf.open(KAPPA) as pdf:
        page = pdf.pages[0]
        ops = [(list(operands), str(op)) for operands, op in pikepdf.parse_content_stream(page)]
        tj = next(operands for operands, op in ops if op == "TJ")
        font = page.Resources.Font.F4
        return [op for _, op in ops], bytes(tj[0][0]), font.ToUnicode.objgen, font.ToUnicode.read_bytes()


def texts(view) -> list[str]:
    return [content.plain for content, _, _ in view.items]


@pytest.mark.asyncio
async def test_kappa_demo_step_to_tj_see_kappa_and_follow_the_tounicode_miss():
    ops, code, (num, gen), tounicode = kappa_facts()
    assert f"<{code.hex()}>".encode() not in tounicode.lower()  # the sample's premise: no entry
    app = make_app("stepper")
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot)
        screen = app.screen
        assert isinstance(screen, StepperScreen)
        assert [s.op for s in screen.ops.steps] == ops
        for _ in range(len(ops)):
            if screen.ops.steps[screen.ops.cursor].op == "TJ":
                break
            await press(pilot, "t")
        assert screen.ops.cursor == ops.index("TJ")
        glyph_rows = texts(screen.query_one("#step-glyphs"))
        kappa = agl.toUnicode("kappa")
        assert len(glyph_rows) == 1 and glyph_rows[0].startswith(code.hex())
        assert f"U+{ord(kappa):04X} {kappa}" in glyph_rows[0]
        assert kappa in str(screen.query_one("#step-text").render())
        screen.query_one("#step-glyphs").focus()
        await press(pilot, "enter")
        path = screen.query_one("#step-path")
        assert app.focused is path
        lines = texts(path)
        assert "ToUnicode" in lines[0] and f"{num} {gen} R" in lines[0]
        assert "miss" in lines[1]
        await press(pilot, "enter")
        assert str(app.screen.query_one("#object-header").render()).startswith(f"{num} {gen} obj")


@pytest.mark.asyncio
async def test_step_keys_follow_the_operators_pikepdf_reads():
    ops, *_ = kappa_facts()
    app = make_app("stepper")
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot)
        screen = app.screen
        seen = [screen.ops.steps[screen.ops.cursor].op]
        for _ in ops[1:]:
            await press(pilot, "n")
            seen.append(screen.ops.steps[screen.ops.cursor].op)
        assert seen == ops
        await press(pilot, "N", "N")
        assert screen.ops.cursor == len(ops) - 3
        assert f"step    {len(ops) - 3}  {ops[-3]}" in str(screen.query_one("#step-state").render())
        await press(pilot, "home")
        assert screen.ops.cursor == 0
        await press(pilot, "end")
        assert screen.ops.cursor == len(ops) - 1
        await press(pilot, "T")
        assert screen.ops.cursor == max(i for i, op in enumerate(ops) if op in ("Tj", "TJ", "'", '"'))


@pytest.mark.asyncio
async def test_breakpoint_on_an_operator_name_and_continue():
    ops, *_ = kappa_facts()
    tjs = [i for i, op in enumerate(ops) if op == "Tj"]
    assert len(tjs) >= 2
    app = make_app("stepper")
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot)
        screen = app.screen
        screen.ops.cursor = tjs[0]
        await press(pilot, "b")
        assert screen.ops.breakpoints == {"Tj"}
        assert "●" in screen.ops.build_line(tjs[1]).plain
        await press(pilot, "home", "c")
        assert screen.ops.cursor == tjs[0]
        await press(pilot, "c")
        assert screen.ops.cursor == tjs[1]
        await press(pilot, "b", "home", "c")  # breakpoint off again: c stays put
        assert screen.ops.breakpoints == set() and screen.ops.cursor == 0


@pytest.mark.asyncio
async def test_glyph_inspector_filters_show_the_fallback_row_and_link_to_tounicode():
    ops, code, (num, gen), tounicode = kappa_facts()
    with pikepdf.open(KAPPA) as pdf:  # every code the page shows, one byte each (simple font)
        codes = {bytes(s)[i:i + 1] for operands, op in pikepdf.parse_content_stream(pdf.pages[0])
                 if op in (pikepdf.Operator("Tj"), pikepdf.Operator("TJ"))
                 for s in (operands[0] if op == pikepdf.Operator("TJ") else operands)
                 if isinstance(s, pikepdf.String) for i in range(len(bytes(s)))}
    app = make_app("glyphs")
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot)
        screen = app.screen
        assert isinstance(screen, GlyphScreen)
        assert {r.record.glyph.code for r in screen.rows} == codes
        table = screen.query_one("#glyph-table")
        await press(pilot, "f")
        rows = texts(table)[1:]
        missed = sorted(c.hex() for c in codes if f"<{c.hex()}>".encode() not in tounicode.lower())
        assert code.hex() in missed and [r.split()[0] for r in rows] == missed
        await press(pilot, "f", "u")  # nothing on the page resolves to nothing
        assert texts(table) == []
        await press(pilot, "u", "f", "enter")
        assert app.focused is screen.query_one("#glyph-path")
        await press(pilot, "enter")
        assert str(app.screen.query_one("#object-header").render()).startswith(f"{num} {gen} obj")


@pytest.mark.asyncio
async def test_palette_opens_both_views_and_help_lists_their_keys():
    app = make_app(None)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "ctrl+p", *"step 1")
        await pilot.pause(0.3)
        await press(pilot, "enter")
        assert isinstance(app.screen, StepperScreen) and app.screen.page == 1
        await press(pilot, "ctrl+p", *"glyphs 1")
        await pilot.pause(0.3)
        await press(pilot, "enter")
        assert isinstance(app.screen, GlyphScreen) and app.screen.rows
        await press(pilot, "question_mark")
        assert isinstance(app.screen, HelpScreen)
        table = app.screen.query_one("#help-table").content
        ids = {str(cell) for cell in table.columns[3]._cells}
        assert {b.id for b in StepperScreen.BINDINGS + GlyphScreen.BINDINGS} <= ids
