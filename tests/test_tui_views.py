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
        assert [r.names for r in screen.records] == [("F1",), ("F2",)]
        assert text_of(screen.query_one("#fonts-header")).startswith("2 fonts on 1 page;")
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


@pytest.mark.parametrize("size", SIZES)
async def test_structure_screen_walks_the_tree_and_opens_glyphs(size):
    from pdfinspect.tui.screens.structure import StructureScreen

    doc = Document.open(corpus_file("libreoffice-ru-el-ja-tagged-pdfa2b.pdf"))
    app = PdfInspectApp(doc, "")
    async with app.run_test(size=size) as pilot:
        await press(pilot, "S")
        screen = app.screen
        assert isinstance(screen, StructureScreen)
        assert text_of(screen.query_one("#structure-header")).startswith("StructTreeRoot 63 0 R: 23 elements, 0 problem")
        tree = [line.strip() for line in drawn(screen.query_one("#structure-tree")) if line.strip()]
        assert tree[0].startswith("Document") and tree[1].startswith("H1") and tree[2].startswith("Standard → P")
        await press(pilot, "down")
        facts = text_of(screen.query_one("#structure-element"))
        assert "marked content: p1 MCID 0" in facts and "text: “Зимний вечер”" in facts
        glyphs = [line for line in drawn(screen.query_one("#structure-glyphs")) if line.strip()]
        assert len(glyphs) >= len("Зимний вечер") - 1 and "U+0417" in glyphs[0]
        await press(pilot, "enter")
        assert isinstance(app.screen, GlyphScreen) and app.screen.page == 1
        await press(pilot, "S", "d")
        assert app.current_mode == "browser"


@pytest.mark.parametrize("size", SIZES)
async def test_enter_on_an_element_boxes_its_glyphs_in_the_glyph_inspector_preview(size):
    from pdfinspect.content.structure import mcid_key
    from pdfinspect.tui.widgets.preview import OPERATOR

    doc = Document.open(corpus_file("libreoffice-ru-el-ja-tagged-pdfa2b.pdf"))
    app = PdfInspectApp(doc, "")
    async with app.run_test(size=size) as pilot:
        await press(pilot, "S", "down")
        element = app.screen.current()
        await press(pilot, "enter")
        screen = app.screen
        assert isinstance(screen, GlyphScreen) and screen.page == 1
        label, glyphs = screen.element
        assert label == f"/H1 {element.ref}" and len(glyphs) == len("Зимний вечер")
        assert {mcid_key(r.step) for r in glyphs} == {(None, 0)}
        assert f"structure element /H1 {element.ref}: {len(glyphs)} glyphs boxed" in text_of(
            screen.query_one("#glyphs-header"))
        _, layers, focus = screen.preview_request()
        assert dict(layers)[OPERATOR] == [r.bbox.page for r in glyphs] and focus is not None


async def test_structure_screen_on_an_untagged_file():
    from pdfinspect.tui.screens.structure import StructureScreen

    app = PdfInspectApp(Document.open(sample("minimal.pdf")), "")
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "S", "enter")
        assert isinstance(app.screen, StructureScreen)
        assert "not tagged" in text_of(app.screen.query_one("#structure-header"))


async def test_the_stepper_names_the_structure_element_of_the_marked_content():
    """From a glyph to the element that owns it: the stepper's state panel reads the page's
    /ParentTree entry for the operator's MCID."""
    from pdfinspect.core.structtree import read_structure
    from pdfinspect.tui.screens.stepper import StepperScreen

    path = corpus_file("libreoffice-ru-el-ja-tagged-pdfa2b.pdf")
    doc = Document.open(path)
    owner = {m.mcid: e for e in read_structure(doc).walk() for m in e.mcids}
    app = PdfInspectApp(doc, "", None, ("stepper", 1))
    async with app.run_test(size=(120, 40)) as pilot:
        await press(pilot, "t")
        screen = app.screen
        assert isinstance(screen, StepperScreen)
        step = screen.ops.steps[screen.ops.cursor]
        mcid = next(m.mcid for m in reversed(step.marked) if m.mcid is not None)
        element = owner[mcid]
        state = text_of(screen.query_one("#step-state"))
        assert f"element /{element.type} {element.ref} owns MCID {mcid}" in state


@pytest.mark.parametrize("size", SIZES)
async def test_the_glyph_inspector_names_the_element_owning_the_glyph_and_opens_it(size):
    """From a glyph to its element: the path panel reads the page's /ParentTree for the glyph's MCID."""
    from pdfinspect.content.structure import mcid_key
    from pdfinspect.core.structtree import read_structure

    doc = Document.open(corpus_file("libreoffice-ru-el-ja-tagged-pdfa2b.pdf"))
    owner = {m.mcid: e for e in read_structure(doc).walk() for m in e.mcids if m.page == 1}
    app = PdfInspectApp(doc, "", None, ("glyphs", 1))
    async with app.run_test(size=size) as pilot:
        await press(pilot)
        screen = app.screen
        assert isinstance(screen, GlyphScreen)
        _, mcid = mcid_key(screen.current.record.step)
        element = owner[mcid]
        await press(pilot, "enter")
        path = screen.query_one("#glyph-path")
        lines = [content.plain for content, _, _ in path.items]
        at = next(i for i, line in enumerate(lines) if line.startswith("structure element:"))
        assert f"structure element: /{element.type} {element.ref} owns MCID {mcid}" in " ".join(line.strip() for line in lines[at:at + 2])  # (wrapped)
        path.cursor = at
        await press(pilot, "enter")
        assert app.current_mode == "browser"
        assert str(app.screen.query_one("#object-header").render()).startswith(f"{element.ref.num} {element.ref.gen} obj")


async def test_go_to_an_offset_shows_the_bytes_and_opens_their_object():
    from pdfinspect.tui.screens.browser import BrowserScreen
    from pdfinspect.tui.screens.bytes import BytesScreen

    path = sample("minimal.pdf")
    at = path.read_bytes().index(b"5 0 obj") + 2
    app = PdfInspectApp(Document.open(path), "")
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "g", *f"@{at:#x}", "enter")
        screen = app.screen
        assert isinstance(screen, BytesScreen)
        assert text_of(screen.query_one("#bytes-title")) == f"offset {at} ({at:#x}): 2 bytes into object 5 (enter opens it)"
        assert text_of(screen.query_one("#bytes-dump")).startswith(f"{at:08x}  30 20 6f 62 6a")
        await press(pilot, "enter")
        assert isinstance(app.screen, BrowserScreen)
        assert str(app.screen.query_one("#object-header").render()).startswith("5 0 obj")


@pytest.mark.parametrize("size", SIZES)
async def test_enter_on_a_diagnostic_with_an_offset_shows_the_bytes_there(size):
    from pdfinspect.tui.screens.bytes import BytesScreen

    doc = Document.open(sample("damaged-bad-offsets.pdf"))
    app = PdfInspectApp(doc, "")
    async with app.run_test(size=size) as pilot:
        await press(pilot)
        listed = app.screen.query_one("#diagnostics")
        diagnostics = list(doc.diagnostics)
        at = next(i for i, d in enumerate(diagnostics) if d.offset is not None)
        assert diagnostics[at].code in listed.plain().splitlines()[at]
        listed.focus()
        listed.cursor = listed.entry_of.index(at)
        await press(pilot, "enter")
        assert isinstance(app.screen, BytesScreen) and app.screen.at == diagnostics[at].offset
        assert str(app.screen.query_one("#bytes-title").render()).startswith(f"offset {diagnostics[at].offset} ")
        await press(pilot, "escape")
        without = next((i for i, d in enumerate(diagnostics) if d.offset is None), None)
        if without is not None:
            listed.focus()
            listed.cursor = listed.entry_of.index(without)
            await press(pilot, "enter")
            assert not isinstance(app.screen, BytesScreen)
