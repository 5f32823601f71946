"""Reading orders drawn (issue 22): the preview numbers a page's lines in the content, structure
or columns order (``O``), and the Extractors screen sets each extractor's emulated order of lines
beside ours (``O`` there). Headless first (``present/readingorder``), then pilot tests, on the
tagged two-column page of ``test_structure`` (right column drawn first, the tree reads the left
first)."""
from __future__ import annotations

import pytest
from conftest import press, sample
from test_structure import _tagged, two_columns  # noqa: F401 (a fixture)

from pdfinspect.content.textlayout import page_glyphs
from pdfinspect.core.document import Document
from pdfinspect.extractors import emulate, page_frame
from pdfinspect.extractors.base import LINE, NOTHING, SPACE, Decision, Emulation
from pdfinspect.extractors import oracle
from pdfinspect.present.readingorder import (CYCLE, NO_TREE, NOTES, UNCLAIMED, extractor_orders, number_ranges,
                                             reading_orders, real_order)
from pdfinspect.tui.screens import extractors as screen_module
from pdfinspect.tui.app import PdfInspectApp
from pdfinspect.tui.screens.extractors import ExtractorsScreen
from pdfinspect.tui.screens.glyphs import CodeRow, GlyphScreen
from pdfinspect.tui.widgets.preview import PagePreview

pikepdf = pytest.importorskip("pikepdf")

CONTENT = ["Title across the page", "right one", "right two", "left one", "left two", "7"]
READING = ["Title across the page", "left one", "left two", "right one", "right two", "7"]


def test_the_same_lines_are_numbered_in_each_order(two_columns):  # noqa: F811
    with Document.open(two_columns) as doc:
        orders = reading_orders(doc, 1, doc.page_ref(1))
    assert orders.missing == {}
    texts = {order: [line.text for line in n.lines] for order, n in orders.numberings.items()}
    assert texts == {"content": CONTENT, "structure": READING, "columns": READING}
    left = {order: next(line for line in n.lines if line.text == "left one") for order, n in orders.numberings.items()}
    assert {order: line.number for order, line in left.items()} == {"content": 4, "structure": 2, "columns": 2}
    assert {line.line for line in left.values()} == {3}  # one line, three numbers
    x, y = left["content"].start  # left of the first glyph, at mid-height
    assert x == 72 and 700 < y < 712
    assert [orders.next_order(order) for order in CYCLE] == ["content", "structure", "columns", ""]


def test_without_a_structure_tree_the_structure_order_is_skipped():
    with Document.open(sample("kappa.pdf")) as doc:
        orders = reading_orders(doc, 1, doc.page_ref(1))
    assert set(orders.numberings) == {"content", "columns"} and orders.missing == {"structure": NO_TREE}
    assert orders.next_order("content") == "columns"


def test_a_page_no_element_claims_keeps_its_content_order(tmp_path):
    from pikepdf import Array

    from test_structure import TWO_COLUMNS

    path = _tagged(tmp_path / "unclaimed.pdf", TWO_COLUMNS, lambda pdf, page, doc: Array([]), Array([]))
    with Document.open(path) as doc:
        structure = reading_orders(doc, 1, doc.page_ref(1)).numberings["structure"]
    assert [line.text for line in structure.lines] == CONTENT and structure.note == UNCLAIMED


def test_number_ranges():
    assert number_ranges([2, 3, 4, 7]) == "2-4,7"
    assert number_ranges([5, 4]) == "5,4" and number_ranges([1, 3, 4]) == "1,3-4" and number_ranges([]) == ""


def test_labels_that_would_overlap_or_touch_are_written_as_one():
    from pdfinspect.tui.widgets.preview import merged_labels

    assert merged_labels([(10, "1")]) == [(9, "1")]  # ends just before its line
    assert merged_labels([(10, "4"), (10, "5")]) == [(7, "4-5")]  # one cell
    assert merged_labels([(10, "1"), (11, "7")]) == [(7, "1,7")]  # side by side they would read 17
    assert merged_labels([(20, "47"), (3, "14")]) == [(1, "14"), (18, "47")]  # apart: each its own
    assert merged_labels([(1, "33")]) == [(0, "33")]  # cut at the pane's left edge


def test_each_extractor_order_beside_ours(two_columns):  # noqa: F811
    with Document.open(two_columns) as doc:
        ref = doc.page_ref(1)
        records = list(page_glyphs(doc, ref))
        emulations = {name: emulate(name, records, page_frame(doc, ref)) for name in ("pdfminer", "poppler")}
    table = extractor_orders(records, emulations)
    assert [line.text for line in table.ours.lines] == READING
    by_name = {e.name: e for e in table.extractors}
    pdfminer = by_name["pdfminer"]  # content order: the right column first
    assert pdfminer.lines == ((1,), (4,), (5,), (2,), (3,), (6,)) and not pdfminer.same
    assert [pdfminer.cell(row) for row in range(6)] == ["1", "4", "5", "2", "3", "6"]
    # poppler's reading order (TextBlock::visitDepthFirst): row by row, as pdftotext reads it
    assert by_name["poppler"].lines == ((1,), (2,), (4,), (3,), (5,), (6,)) and not by_name["poppler"].same
    assert table.target(1).unicode == "l"  # enter on row 2: the first glyph of "left one"
    # an extractor that reads across the gutter: left one + right one on one output line
    by_line = {line.text: [r for r in records if r.glyph.page_xy[1] == r0.glyph.page_xy[1]
                           and (r.glyph.page_xy[0] < 300) == (r0.glyph.page_xy[0] < 300)]
               for line in table.ours.lines for r0 in [line.first]}
    decisions = []
    for text, before in (("left one", LINE), ("right one", SPACE), ("left two", LINE), ("right two", SPACE)):
        for i, r in enumerate(by_line[text]):
            decisions.append(Decision(r, r.unicode, True, before if i == 0 else NOTHING))
    across = extractor_orders(records, {"across": Emulation("across", tuple(decisions))}).extractors[0]
    assert across.lines == ((2, 4), (3, 5)) and across.cell(0) == "2 4"


# pdftotext's reading of the page: its rows across the gutter (short columns read as a table)
ACROSS = "Title across the page\nleft one right one\nleft two right two\n\n7\n"


def test_a_real_extractor_order_read_from_its_words(two_columns):  # noqa: F811
    with Document.open(two_columns) as doc:
        ours = extractor_orders(list(page_glyphs(doc, doc.page_ref(1))), {}).ours
    assert real_order(ours, "poppler", ACROSS).lines == ((1,), (2, 4), (3, 5), (6,))  # the empty line left out
    right_first = real_order(ours, "x", "TITLE across the page\nright one\nright two\nleft one\nleft two\n7")
    assert [right_first.cell(row) for row in range(6)] == ["1", "4", "5", "2", "3", "6"] and not right_first.same
    assert right_first.first[1].unicode == "r"  # enter there: the first glyph of "right one"
    assert real_order(ours, "x", "\n".join(READING)).same
    # a word found nowhere is passed over; one far away needs its neighbour to follow it there
    odd = real_order(ours, "x", "Title acrossthe page\nnothing here\nleft two the")
    assert odd.lines == ((1,), (0,), (3,)) and odd.cell(1) == "·"


def _drawn(pane: PagePreview) -> str:
    """The digits written over the half-blocks (a number is the only text there)."""
    return "".join(ch for y in range(pane.size.height) for ch in pane.render_line(y).text if ch.isdigit())


def _left_column_label(pane: PagePreview) -> str:
    """The number asked for at the start of "left one" (x 72, baseline 700)."""
    return next(text for x, y, text in pane.request[4] if x == 72 and 700 < y < 712)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_o_numbers_the_lines_in_the_preview(two_columns, size):  # noqa: F811
    app = PdfInspectApp(Document.open(two_columns), "", None, ("glyphs", 1))
    app.images = "halfblock"
    async with app.run_test(size=size) as pilot:
        await press(pilot, "O")  # opens the preview, numbered in content order
        screen, pane = app.screen, app.screen.query_one("#preview", PagePreview)
        assert pane.display and screen.line_order == "content"
        assert pane.border_title == "content order: 6 lines (O)"
        assert _left_column_label(pane) == "4" and set(_drawn(pane)) == set("123456")
        await press(pilot, "O")
        assert pane.border_title == "structure order: 6 lines (O)" and _left_column_label(pane) == "2"
        await press(pilot, "O")
        assert pane.border_title == "columns order: 6 lines (O)" and _left_column_label(pane) == "2"
        await press(pilot, "Z")  # zoomed, still numbered
        assert pane.request[3] is not None and pane.request[4]
        await press(pilot, "Z", "O")
        assert screen.line_order == "" and not pane.border_title and pane.request[4] == () and _drawn(pane) == ""
        assert not app._notifications


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_stepper_numbers_lines_and_skips_a_missing_structure_tree(size):
    app = PdfInspectApp(Document.open(sample("kappa.pdf")), "", None, ("stepper", 1))
    app.images = "halfblock"
    async with app.run_test(size=size) as pilot:
        await press(pilot, "t", "i", "O")
        pane = app.screen.query_one("#preview", PagePreview)
        assert pane.border_title == "content order: 1 line (O)" and "1" in _drawn(pane)
        assert pane.request[2]  # the operator's glyphs are boxed as before
        await press(pilot, "O")
        assert app.screen.line_order == "columns"
        assert [n.message for n in app._notifications] == [NOTES[NO_TREE]]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_extractors_screen_shows_each_order_of_lines(two_columns, monkeypatch, size):  # noqa: F811
    monkeypatch.setattr(screen_module.oracle, "run", lambda name, path, page, timeout=60.0: oracle.Run(name, ACROSS))
    app = PdfInspectApp(Document.open(two_columns), "", None, ("glyphs", 1))
    async with app.run_test(size=size) as pilot:
        await press(pilot, "E")
        screen = app.screen
        assert isinstance(screen, ExtractorsScreen)
        order = screen.query_one("#extractors-order")
        assert not order.display and screen.query_one("#extractors-differences").display
        await press(pilot, "O")
        assert order.display and not screen.query_one("#extractors-differences").display and order.has_focus
        header = str(screen.query_one("#extractors-order-header").render()).split()
        assert header[:6] == ["#", "pdfminer", "pypdf", "pdfium", "poppler", "mupdf"]
        rows = [order.render_line(y).text.split() for y in range(6)]
        assert rows[0] == ["1", "1", "1", "1", "1", "1", "Title", "across", "the", "page"]
        assert rows[1] == ["2", "4", "4", "4", "2", "4", "left", "one"]  # poppler: row by row, as pdftotext
        assert rows[3] == ["4", "2", "2", "2", "3", "2", "right", "one"]
        await press(pilot, "O")  # the real outputs (here all pdftotext's, read across the gutter)
        assert "real output" in str(screen.query_one("#extractors-lower-title").render())
        rows = [order.render_line(y).text.split() for y in range(6)]
        assert rows[1] == ["2", *["2", "4"] * 5, "left", "one"] and rows[3] == ["4", *["6"] * 5, "right", "one"]
        await press(pilot, "O")
        assert not order.display and screen.query_one("#extractors-differences").display
        await press(pilot, "O")
        await press(pilot, "down", "enter")  # "left one": its first glyph in the glyph inspector
        glyphs = app.screen
        assert isinstance(glyphs, GlyphScreen)
        row = glyphs.shown[glyphs.query_one("#glyph-table").cursor]
        assert isinstance(row, CodeRow) and row.record.glyph.code == b"l"


async def test_another_page_is_numbered_in_the_same_order():
    app = PdfInspectApp(Document.open(sample("pages.pdf")), "", None, ("glyphs", 1))
    app.images = "halfblock"
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, "O", "O")  # content, then columns (no structure tree)
        await press(pilot, "p", "2", "enter")
        screen, pane = app.screen, app.screen.query_one("#preview", PagePreview)
        assert screen.page == 2 and screen.reading.page == 2 and screen.line_order == "columns"
        assert pane.request[1] == 1 and pane.request[4] and pane.border_title == "columns order: 1 line (O)"


async def test_a_sharper_picture_has_the_numbers_drawn_into_it(two_columns, monkeypatch):  # noqa: F811
    """With textual-image (kitty graphics) the numbers are drawn into the picture, left of each line."""
    import io
    import sys

    pytest.importorskip("textual_image")
    monkeypatch.setattr(sys, "__stdout__", io.StringIO())  # textual-image writes kitty data there
    app = PdfInspectApp(Document.open(two_columns), "", None, ("glyphs", 1))
    app.images = "kitty"
    async with app.run_test(size=(120, 40)) as pilot:
        await press(pilot, "O")
        pane = app.screen.query_one("#preview", PagePreview)
        assert pane.sharp is not None and pane.rows == [] and pane.numbers == {}
        assert _inked(pane.picture)
        await press(pilot, "O", "O", "O")  # off again: no number drawn
        assert not _inked(pane.picture)


def _inked(picture) -> bool:
    """Some pixel is the numbers' orange ink (or its anti-aliased edge): more green than blue,
    which neither the page's greys, the blue and red boxes nor white have."""
    return any(r > g and g - b > 40 for _, (r, g, b) in picture.convert("RGB").getcolors(1 << 20))
