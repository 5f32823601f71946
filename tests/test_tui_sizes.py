"""Every screen at 80x24, 120x40 and 200x60: the columns a reader needs are drawn; every
global key works from every screen; the display fixes of issue 11."""
from __future__ import annotations

import pikepdf
import pytest
from conftest import press, sample, settle
from rich.cells import cell_len

from pdfinspect.core.document import Document
from pdfinspect.present.glyphs import FILTERS
from pdfinspect.tui import start_target
from pdfinspect.tui.app import PdfInspectApp
from pdfinspect.tui.messages import ContentView, Target
from pdfinspect.tui.screens.browser import BrowserScreen
from pdfinspect.tui.screens.glyphs import GlyphScreen
from pdfinspect.tui.screens.help import HelpScreen
from pdfinspect.tui.screens.overview import OverviewScreen
from pdfinspect.tui.screens.revisions import RevisionsScreen
from pdfinspect.tui.screens.search import SearchScreen
from pdfinspect.tui.screens.stepper import StepperScreen
from pdfinspect.tui.widgets.column_list import column_widths, fit
from pdfinspect.tui.widgets.glyph_panels import GLYPH_COLUMNS
from pdfinspect.tui.widgets.stream_view import text_lines

SIZES = [(80, 24), (120, 40), (200, 60)]
KAPPA = sample("kappa.pdf")


def drawn(view) -> list[str]:
    """The lines the widget draws, as they reach the terminal."""
    return [view.render_line(y).text.rstrip() for y in range(view.size.height)]


@pytest.mark.parametrize("size", SIZES)
async def test_stepper_shows_operator_code_unicode_and_method(size):
    with pikepdf.open(KAPPA) as pdf:
        ops = [str(op) for _, op in pikepdf.parse_content_stream(pdf.pages[0])]
    app = PdfInspectApp(Document.open(KAPPA), "", None, ("stepper", 1))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        screen = app.screen
        lines = drawn(screen.ops)
        for i, op in enumerate(ops[:screen.ops.size.height]):
            assert lines[i].split()[1] == op  # index, then the operator, whatever the width
        await press(pilot, "t")
        glyphs = drawn(screen.query_one("#step-glyphs"))
        for line, record in zip(glyphs, screen.shown_glyphs):
            words = line.split()
            assert words[0] == record.glyph.code.hex()
            assert f"U+{ord(record.unicode[0]):04X}" in line and record.method in words
        assert "Unicode" in str(screen.query_one("#step-glyphs-header").render())


@pytest.mark.parametrize("size", SIZES)
async def test_glyph_table_shows_code_unicode_and_method(size):
    app = PdfInspectApp(Document.open(KAPPA), "", None, ("glyphs", 1))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        screen = app.screen
        table = screen.query_one("#glyph-table")
        lines = drawn(table)
        checked = 0
        for line, item in zip(lines, screen.shown):
            if hasattr(item, "record"):
                r = item.record
                words = line.split()
                assert words[0] == r.glyph.code.hex() and r.method in words
                assert f"U+{ord(r.unicode[0]):04X}" in line
                checked += 1
        assert checked == len(screen.rows)


def unspaced(text: str) -> str:
    return "".join(text.split())


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("view, table, path", [("stepper", "#step-glyphs", "#step-path"),
                                               ("glyphs", "#glyph-table", "#glyph-path")])
async def test_glyph_lists_fit_their_pane_and_paths_wrap(size, view, table, path):
    """No sideways scrolling in the glyph panes at any size (at 80x24 the stepper's glyph list
    drew a scrollbar row under its one glyph): the least needed columns go, the titles stay
    over their columns, and a resolution path wraps, every word of it on screen."""
    app = PdfInspectApp(Document.open(KAPPA), "", None, (view, 1))
    async with app.run_test(size=size) as pilot:
        await press(pilot, *(["t"] if view == "stepper" else []))
        screen = app.screen
        for widget in (screen.query_one(table), screen.query_one(path)):
            assert not widget.show_horizontal_scrollbar, widget.id
            assert max(cell_len(line) for line in drawn(widget)) <= widget.scrollable_content_region.width
        record = screen.shown_glyphs[0] if view == "stepper" else screen.shown[1].record
        header = str(screen.query_one(f"{table}-header").render())
        row = next(line for line in drawn(screen.query_one(table)) if line.startswith(record.glyph.code.hex()))
        assert header.index("Unicode") == row.index("U+") and header.index("method") == row.index(record.method)
        wrapped = unspaced("".join(drawn(screen.query_one(path))))
        for step in record.path[:2]:  # (the first two steps are on screen at 80x24)
            assert unspaced(f"{step.method} {step.source_desc}") in wrapped and unspaced(step.detail) in wrapped


@pytest.mark.parametrize("size", SIZES)
async def test_browser_overview_revisions_and_search_draw_their_key_text(size):
    doc = Document.open(sample("incremental.pdf"))
    app = PdfInspectApp(doc, "", start_target(doc, 1, None))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        assert str(app.screen.query_one("#object-header").render()).startswith("1 0 obj")
        assert any("/Type /Catalog" in line or "/Pages" in line for line in drawn(app.screen.query_one("#object-view")))
        await press(pilot, "o")
        assert "Pages" in str(app.screen.query_one("#summary").render())
        await press(pilot, "v")
        assert isinstance(app.screen, RevisionsScreen)
        await press(pilot, "slash")
        assert isinstance(app.screen, SearchScreen)


def test_columns_are_measured_in_cells():
    assert cell_len(fit("U+4E2D 中", 10)) == 10  # a CJK character takes two cells
    assert cell_len(fit("U+0065 U+0301 é", 16)) == 16  # a combining mark takes none
    cut = fit("U+0066 U+0066 U+0069 ﬃ", 8)
    assert cell_len(cut) == 8 and cut.endswith("…")


def test_columns_are_dropped_least_needed_first_and_the_rest_fit():
    needed = sorted(range(len(GLYPH_COLUMNS)), key=lambda i: GLYPH_COLUMNS[i].rank)
    for width in range(20, 80):
        widths = column_widths(GLYPH_COLUMNS, width)
        kept = [i for i in needed if widths[i]]
        assert kept == needed[:len(kept)]  # what goes is the least needed
        assert sum(widths) + len(kept) - 1 <= width
        assert all(c.least <= w <= c.most for c, w in zip(GLYPH_COLUMNS, widths) if w)
        if len(kept) < len(needed):  # the next column would not have fit at its narrowest
            assert sum(GLYPH_COLUMNS[i].least for i in needed[:len(kept) + 1]) + len(kept) > width


async def test_a_wrapped_list_wraps_up_to_its_limit_then_scrolls_sideways():
    """Wrapping costs ~50 us an entry on the UI thread: a list of an object's 10,000 referrers
    is not wrapped."""
    from textual.app import App
    from textual.content import Content

    from pdfinspect.tui.widgets.column_list import WRAP_LIMIT, WrappedList

    class Host(App):
        CSS = "WrappedList { width: 20; }"

        def compose(self):
            yield WrappedList(id="wrapped")

    app = Host()
    async with app.run_test(size=(40, 10)) as pilot:
        view = app.query_one(WrappedList)
        long = "3737 0 R /Resources /ProcSet"
        for count in (3, WRAP_LIMIT + 1):
            view.set_entries([(Content(long), None, None)] * count)
            await settle(pilot)
            wrapped = count <= WRAP_LIMIT
            assert (view.line_count > count) == wrapped and view.show_horizontal_scrollbar != wrapped
            if wrapped:
                assert squeeze(" ".join(c.plain for c, _, _ in view.items)) == " ".join([long] * count)


def test_tabs_are_expanded_before_they_reach_the_terminal():
    lines = text_lines(b"BT\t/F1 12 Tf\n\tET")
    assert lines == ["BT      /F1 12 Tf", "        ET"]


async def test_fonts_of_page_1_opens_at_the_font_entry():
    app = PdfInspectApp(Document.open(KAPPA))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        entries = app.screen.query_one("#entry-points")
        index = next(i for i, (c, _, _) in enumerate(entries.items) if c.plain.startswith("Fonts of page 1"))
        entries.cursor = index
        await press(pilot, "enter")
        view = app.screen.query_one("#object-view")
        content, _, key = view.items[view.cursor]
        assert key == "/Font" and ("/Font" in content.plain or "/F4" in content.plain)


async def test_an_empty_filter_says_so():
    app = PdfInspectApp(Document.open(sample("cid-identity.pdf")), "", None, ("glyphs", 1))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        for key in "uxfm":
            await press(pilot, key)
            if screen.shown == [None]:
                break
        else:
            pytest.skip("every filter matches a code of this page")
        assert drawn(screen.query_one("#glyph-table"))[0] == "no code matches the filters; u x f m toggle"
        header = " ".join(str(screen.query_one("#glyphs-header").render()).split())
        assert all(FILTERS[f][0] in header.split("filters: ", 1)[1] for f in screen.filters)  # which, the header says


GLOBAL = {"o": OverviewScreen, "b": BrowserScreen, "v": RevisionsScreen, "c": StepperScreen, "y": GlyphScreen}


async def test_every_global_key_works_from_every_screen():
    app = PdfInspectApp(Document.open(KAPPA))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for start in [*GLOBAL, "slash"]:
            for key, screen in GLOBAL.items():
                await press(pilot, start)
                if start == "slash":  # the query has the keys: escape leaves it
                    await press(pilot, "escape")
                await press(pilot, key)
                assert isinstance(app.screen, screen), (start, key)
            await press(pilot, start, *(["escape"] if start == "slash" else []))
            asked_on = type(app.screen)
            await press(pilot, "question_mark")
            assert isinstance(app.screen, HelpScreen)
            table = app.screen.query_one("#help-table").content  # the keys of the screen asked on first
            first = asked_on.BINDINGS[0]
            assert str(table.columns[2]._cells[0]) == (first.tooltip or first.description), asked_on
            await press(pilot, "escape")
            await press(pilot, start, *(["escape"] if start == "slash" else []), "g", "4", "enter")  # go-to from anywhere lands in the browser
            assert str(app.screen.query_one("#object-header").render()).startswith("4 0 obj")


STARTS = {"o": OverviewScreen, "b": BrowserScreen, "v": RevisionsScreen, "c": StepperScreen, "y": GlyphScreen,
          "slash": SearchScreen}


def to_screen(key: str) -> list[str]:
    return [key, "B", "T", "enter"] if key == "slash" else [key]  # a search run: its hits have the keys


async def test_f1_ctrl_p_tab_and_shift_tab_work_from_every_screen():
    from textual.command import CommandPalette

    app = PdfInspectApp(Document.open(KAPPA))
    async with app.run_test(size=(80, 24)) as pilot:
        for start, screen in STARTS.items():
            await press(pilot, *to_screen(start))
            assert isinstance(app.screen, screen)
            await press(pilot, "f1")
            assert isinstance(app.screen, HelpScreen), start
            await press(pilot, "escape", "ctrl+p")
            assert isinstance(app.screen, CommandPalette), start
            await press(pilot, "escape")
            assert isinstance(app.screen, screen)
            first = app.focused
            await press(pilot, "tab")
            assert app.focused is not first, start  # the next pane
            await press(pilot, "shift+tab")
            assert app.focused is first, start


@pytest.mark.parametrize("start", list(STARTS))
async def test_q_quits_from_every_screen(start):
    app = PdfInspectApp(Document.open(KAPPA))
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot, *to_screen(start))
        assert isinstance(app.screen, STARTS[start])
        await press(pilot, "q")
        assert not app.is_running


async def test_back_and_forward_return_to_the_stepper_and_glyph_inspector():
    app = PdfInspectApp(Document.open(KAPPA))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "g", "5", "enter", "c")
        assert isinstance(app.screen, StepperScreen)
        await press(pilot, "y")
        assert isinstance(app.screen, GlyphScreen)
        await press(pilot, "g", "7", "enter")
        assert app.current == Target(app.current.ref) and app.current.ref.num == 7
        await press(pilot, "backspace")
        assert isinstance(app.screen, GlyphScreen) and app.current == ContentView("glyphs", 1)
        await press(pilot, "backspace")
        assert isinstance(app.screen, StepperScreen)
        await press(pilot, "backspace")
        assert isinstance(app.screen, BrowserScreen) and app.current.ref.num == 5
        await press(pilot, "alt+right")
        assert isinstance(app.screen, StepperScreen)


async def test_a_search_hit_opens_its_stream_decoded_at_the_line_and_n_walks_the_hits():
    path = sample("content.pdf")
    with pikepdf.open(path) as pdf:
        streams = {o.objgen: o.read_bytes() for o in pdf.objects if isinstance(o, pikepdf.Stream)}
    word = b"Tf"
    expected = [(num, data[:data.lower().index(word.lower())].count(b"\n") + 1)
                for (num, _), data in sorted(streams.items()) if word.lower() in data.lower()]
    app = PdfInspectApp(Document.open(path))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "slash", *"Tf", "enter")  # the hits take the focus
        screen = app.screen
        first = [(h.ref.num, h.line) for h in screen.hits if h.where == "stream"]
        assert first[0] == expected[0] and screen.hits[0].where == "stream"
        await press(pilot, "enter")
        assert isinstance(app.screen, BrowserScreen)
        view = app.screen.query_one("#stream-view")
        assert view.marked == expected[0][1] - 1 and view.kind != "hex"
        assert "Tf" in view.line(view.marked).plain
        assert any(s.style == "reverse" for s in view.line(view.marked).spans)
        await press(pilot, "n")
        assert app.hit_index == 1
        await press(pilot, "N", "slash", "escape", "escape")  # escape from the hits leaves the search
        assert isinstance(app.screen, BrowserScreen)


def test_widths_and_differences_are_wrapped_and_annotated_with_their_codes():
    from pdfinspect.present.objects import object_lines

    doc = Document.open(KAPPA)
    with pikepdf.open(KAPPA) as pdf:
        font = pdf.pages[0].Resources.Font.F4
        first, widths = int(font.FirstChar), [int(w) for w in font.Widths]
    lines = [line.text.strip() for line in object_lines(doc.get(font.objgen[0]).value) if line.key == "/Widths"]
    rows = lines[1:-1]
    assert len(rows) == -(-len(widths) // 8)  # eight to a line, not one
    assert rows[0] == " ".join(map(str, widths[:8])) + f"  % codes {first}–{first + 7}"
    assert rows[-1].endswith(f"% codes {first + 8 * (len(rows) - 1)}–{first + len(widths) - 1}")


@pytest.mark.parametrize("size", SIZES)
async def test_page_text_search_lists_page_and_operator_and_opens_the_stepper_there(size):
    """ctrl+t: the text of every page, through TJ kerning (content.pdf's [(W) 120 (A) -250.5 (VE)]
    TJ reads "WA VE"); enter opens the stepper at the operator that shows the hit."""
    app = PdfInspectApp(Document.open(sample("pages.pdf")))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await press(pilot, "slash", "ctrl+t", *"page 3", "enter")
        screen = app.screen
        assert "text of every page" in str(screen.query_one("#search-title").render())
        assert [(h.page, h.context.strip()) for h in screen.hits] == [(3, "Page 3")]
        assert drawn(screen.query_one("#search-hits"))[0].startswith(f"page 3  operator {screen.hits[0].step}")
        assert "1 hits in" in str(screen.query_one("#search-status").render())
    app = PdfInspectApp(Document.open(sample("content.pdf")))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await press(pilot, "slash", "ctrl+t", *"wa ve", "enter")
        hit, = app.screen.hits
        await press(pilot, "enter")
        assert isinstance(app.screen, StepperScreen) and app.screen.page == 1
        ops = app.screen.ops
        assert ops.cursor == hit.step and ops.steps[hit.step].op == "TJ"
        assert any("TJ" in line for line in drawn(ops))  # the operator is on screen
        await press(pilot, "slash", "ctrl+t")  # back to objects: the query runs again over the bytes
        assert "decoded streams" in str(app.screen.query_one("#search-title").render())
        assert all(h.where for h in app.screen.hits)


@pytest.mark.parametrize("size", SIZES)
async def test_ctrl_f_searches_the_object_shown_only_and_lands_on_the_line(size):
    path = sample("content.pdf")
    with pikepdf.open(path) as pdf:
        contents = pdf.pages[0].obj.Contents
        num, data = contents.objgen[0], contents.read_bytes()
    lines = [i + 1 for i, line in enumerate(data.splitlines()) if b"Tf" in line]
    doc = Document.open(path)
    app = PdfInspectApp(doc, "", start_target(doc, num, None))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await press(pilot, "ctrl+f")
        screen = app.screen
        assert isinstance(screen, SearchScreen) and f"Search object {num} 0" in str(screen.query_one("#search-title").render())
        await press(pilot, *"Tf", "enter")
        assert [(h.ref.num, h.line) for h in screen.hits] == [(num, line) for line in lines]
        assert "in 1 of 1 objects" in str(screen.query_one("#search-status").render())
        await press(pilot, "enter")
        view = app.screen.query_one("#stream-view")
        assert isinstance(app.screen, BrowserScreen) and view.marked == lines[0] - 1
        await press(pilot, "n")
        assert app.screen.query_one("#stream-view").marked == lines[1] - 1


@pytest.mark.parametrize("size", SIZES)
async def test_tree_labels_are_read_whole_while_the_tree_has_the_focus(size):
    """The catalog's label ("/Root 1 0 R  dictionary /Catalog") is drawn uncut in the tree at
    every size; under 120 columns the tree widens while focused and gives the room back."""
    doc = Document.open(KAPPA)
    app = PdfInspectApp(doc, "", start_target(doc, 4, None))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await press(pilot, "t")
        tree = app.screen.query_one("#object-tree")
        assert any(line.endswith("/Root 1 0 R  dictionary /Catalog") for line in drawn(tree))
        await press(pilot, "down", "down", "right")  # expand the catalog: its children's labels too
        assert any(line.endswith("/Pages 2 0 R  dictionary /Pages") for line in drawn(tree))
        focused = app.screen.query_one("#nav").size.width
        await press(pilot, "m")
        assert app.screen.query_one("#object-view").has_focus
        assert app.screen.query_one("#nav").size.width <= focused
        assert app.screen.query_one("#object-view").size.width > app.screen.query_one("#nav").size.width


def squeeze(line: str) -> str:
    return " ".join(line.split())


@pytest.mark.parametrize("size", SIZES)
async def test_overview_browser_revisions_and_search_columns_are_readable(size):
    """The columns a reader needs, uncut at every size: facts and entry points, object number
    and type in the list, revision numbers with their change counts and the changed objects,
    hit location and snippet."""
    path = sample("incremental.pdf")
    with pikepdf.open(path) as pdf:
        kinds = {o.objgen[0]: ("stream" if isinstance(o, pikepdf.Stream) else "dictionary")
                 for o in pdf.objects if o.objgen[0] and isinstance(o, (pikepdf.Dictionary, pikepdf.Stream))}
        title, pages = str(pdf.docinfo["/Title"]), len(pdf.pages)
        contents = pdf.pages[0].obj.Contents
        num, data = contents.objgen[0], contents.read_bytes()
    doc = Document.open(path)
    changes = {r.index: doc.revision_changes(r.index) for r in doc.revisions if r.index > 0}
    app = PdfInspectApp(doc, "", start_target(doc, None, None))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        facts = [squeeze(line) for line in str(app.screen.query_one("#summary").render()).splitlines()]
        for fact in ("File incremental.pdf", f"Title {title}", f"Pages {pages}", f"Revisions {len(doc.revisions)}"):
            assert fact in facts
        entries = [squeeze(line) for line in drawn(app.screen.query_one("#entry-points"))]
        assert "Catalog /Root 1 0 R" in entries and "Pages 2 0 R" in entries

        await press(pilot, "b", "l")
        listed = [squeeze(line) for line in drawn(app.screen.query_one("#object-list")) if line]
        for n, kind in kinds.items():
            assert any(line.startswith(f"{n} 0 {kind}") for line in listed), (n, kind, listed)

        await press(pilot, "v")
        revisions = [squeeze(line) for line in "\n".join(
            drawn(app.screen.query_one("#revision-list"))).replace("\n", " ").split("Revision ") if line]
        for k, ch in changes.items():
            counts = f"+{len(ch.added)} ~{len(ch.changed)} -{len(ch.freed)}"
            assert any(r.startswith(f"{k} ") and counts in r for r in revisions), (k, counts, revisions)
        rows = [squeeze(line) for line in drawn(app.screen.query_one("#changed-objects")) if line]
        last = changes[max(changes)]
        for mark, nums, word in (("+", last.added, "added"), ("~", last.changed, "changed"), ("-", last.freed, "freed")):
            for n in nums:
                assert any(row.startswith(f"{mark} {n} {word}") for row in rows), (mark, n, rows)

        await press(pilot, "slash", *"Revision", "enter")
        hits = [squeeze(line) for line in drawn(app.screen.query_one("#search-hits")) if line]
        offset = data.find(b"Revision")
        assert any(line.startswith(f"{num} 0 R stream @{offset} ") and "Revision" in line for line in hits), hits


@pytest.mark.parametrize("size", SIZES)
async def test_revision_sides_are_wide_enough_to_read(size):
    """Under 160 columns before and after are one above the other: side by side at 80x24
    each was 19 columns, the titles and "/Title (Revision 3)" cut."""
    path = sample("incremental.pdf")
    with pikepdf.open(path) as pdf:
        title = str(pdf.docinfo["/Title"])
    doc = Document.open(path)
    info = doc.trailer["Info"]
    app = PdfInspectApp(doc, "", start_target(doc, None, None))
    async with app.run_test(size=size) as pilot:
        await press(pilot, "v")
        screen = app.screen
        changes = screen.query_one("#changed-objects")
        changes.cursor = next(i for i in range(1, changes.line_count) if changes.line_ref(i)[0] == info)
        await press(pilot)
        before, after = screen.query_one("#revision-before"), screen.query_one("#revision-after")
        stacked = size[0] < 160
        assert (after.region.y > before.region.y) == stacked and (after.region.x > before.region.x) != stacked
        assert after.size.width >= (size[0] * 2 // 5 if stacked else 40)
        heading = str(screen.query_one("#after-title").render())
        assert heading == f"After: {info.num} {info.gen} obj in revision {len(doc.revisions) - 1}"
        assert cell_len(heading) < screen.query_one("#after-title").content_region.width
        assert any(f"/Title ({title})" in line for line in drawn(screen.query_one("#after-view")))


@pytest.mark.parametrize("size", SIZES)
async def test_referrers_wrap_in_their_pane_and_every_line_follows_its_referrer(size):
    """At 80x24 the referrers pane is 16 columns: "3 0 R /Resources /Font /F4" was cut."""
    with pikepdf.open(KAPPA) as pdf:
        page, font = pdf.pages[0].obj.objgen, pdf.pages[0].Resources.Font.F4.objgen
    doc = Document.open(KAPPA)
    app = PdfInspectApp(doc, "", start_target(doc, font[0], None))
    async with app.run_test(size=size) as pilot:
        await press(pilot)
        panel = app.screen.query_one("#backrefs")
        assert not panel.show_horizontal_scrollbar
        assert squeeze(" ".join(drawn(panel))) == f"{page[0]} {page[1]} R /Resources /Font /F4"
        await press(pilot, "f", "end", "enter")  # the last line, a continuation at 80x24
        assert str(app.screen.query_one("#object-header").render()).startswith(f"{page[0]} {page[1]} obj")


@pytest.mark.parametrize("size", SIZES)
async def test_enter_in_the_list_or_tree_moves_to_the_object_opened(size):
    """The list keeps the width it takes while focused (55% under 120 columns) only until
    enter opens an object: then the object pane has the focus and the room."""
    with pikepdf.open(KAPPA) as pdf:
        font = pdf.pages[0].Resources.Font.F4.objgen[0]
    app = PdfInspectApp(Document.open(KAPPA))
    async with app.run_test(size=size) as pilot:
        await press(pilot, "b", "l")
        listing = app.screen.query_one("#object-list")
        listing.cursor = next(i for i in range(listing.line_count) if drawn(listing)[i].split()[0] == str(font))
        await press(pilot, "enter")
        view, nav = app.screen.query_one("#object-view"), app.screen.query_one("#nav")
        assert str(app.screen.query_one("#object-header").render()).startswith(f"{font} 0 obj")
        assert view.has_focus and view.size.width > nav.size.width
        assert any(line.strip() == "/BaseFont /PDFInspectKappa" for line in drawn(view))
        await press(pilot, "l")
        assert listing.has_focus and drawn(listing)[listing.cursor].split()[0] == str(font)
        await press(pilot, "t", "down", "down", "enter")  # the tree: trailer, /Size, /Root
        assert view.has_focus and str(app.screen.query_one("#object-header").render()).startswith("1 0 obj")


@pytest.mark.parametrize("size", SIZES)
async def test_help_rows_read_whole_at_every_size(size):
    """Where, keys and what each binding does, every row of the help drawn whole (the last
    column wraps under itself)."""
    from textual.binding import Binding
    from textual.geometry import Region

    app = PdfInspectApp(Document.open(KAPPA))
    async with app.run_test(size=size) as pilot:
        await press(pilot, "question_mark")
        help_screen = app.screen
        table = help_screen.query_one("#help-table")
        text = squeeze(" ".join(strip.text for strip in table.render_lines(Region(0, 0, *table.outer_size))))
        rows = 0
        for where, bindings in help_screen.groups:
            for b in bindings:
                if isinstance(b, Binding):
                    keys = ", ".join(help_screen.key_display(k.strip()) for k in b.key.split(","))
                    assert squeeze(f"{where} {keys} {b.tooltip or b.description or b.action}") in text
                    rows += 1
        assert rows > 40


@pytest.mark.parametrize("size", SIZES)
async def test_a_hex_dump_fits_its_pane_with_its_ascii_column(size):
    """The dump's bytes a line are chosen for the pane's width, also when the stream is shown
    before its pane is laid out (opening at a font program drew 16 bytes a line in 44 columns)."""
    with pikepdf.open(KAPPA) as pdf:
        program = pdf.pages[0].Resources.Font.F4.FontDescriptor.FontFile
        num, data = program.objgen[0], program.read_bytes()
    doc = Document.open(KAPPA)
    app = PdfInspectApp(doc, "", start_target(doc, num, None))
    async with app.run_test(size=size) as pilot:
        for width, height in (size, (80, 24)):  # and once the terminal is made smaller
            await pilot.resize_terminal(width, height)
            await press(pilot)
            view = app.screen.query_one("#stream-view")
            assert view.kind == "hex" and not view.show_horizontal_scrollbar
            offset, hex_bytes, text = drawn(view)[1].split("  ", 2)
            row = len(hex_bytes.split())
            assert row in (4, 8, 16) and int(offset, 16) == row
            assert bytes.fromhex(hex_bytes) == data[row:2 * row] and len(text) == row


@pytest.mark.parametrize("size", SIZES)
async def test_overview_values_wrap_under_themselves_not_under_the_labels(size):
    from textual.geometry import Region

    from pdfinspect.present.summary import document_summary

    doc = Document.open(sample("encrypted-aes256.pdf"))
    facts = document_summary(doc, None)
    labels = {f.label for f in facts.facts}
    app = PdfInspectApp(doc)
    async with app.run_test(size=size) as pilot:
        await press(pilot)
        panel = app.screen.query_one("#summary")
        lines = [strip.text for strip in panel.render_lines(Region(0, 0, *panel.outer_size))]
        for line in lines:  # (the panel has one cell of padding)
            assert line[1:15].strip() in labels | {""}, line
        text = squeeze(" ".join(line[15:] for line in lines))
        for value in [f.value for f in facts.facts if f.label != "Objects"] + list(facts.security):
            assert squeeze(value) in text


README_KEYS = {"?": "question_mark", "/": "slash", "[": "left_square_bracket", "]": "right_square_bracket"}


def readme_keys() -> list[tuple[set[str], str]]:
    """(keys, where) of each row of the README's key table."""
    import re

    from conftest import ROOT

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = text.split("### Keys", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0].startswith("`"):
            keys = {README_KEYS.get(k, k) for k in re.findall(r"`([^`]+)`", cells[0])}
            rows.append((keys, cells[1]))
    return rows


def bound_keys(*binding_lists) -> set[str]:
    return {key.strip() for bindings in binding_lists for b in bindings for key in b.key.split(",")}


def test_every_key_in_the_readme_is_bound_where_it_says_and_every_binding_is_in_the_readme():
    from textual.app import App
    from textual.screen import Screen

    from pdfinspect.tui.widgets.line_view import LineView
    from pdfinspect.tui.widgets.object_tree import ObjectTree

    from pdfinspect.tui.password import PasswordApp
    from pdfinspect.tui.screens.extractors import ExtractorsScreen
    from pdfinspect.tui.screens.fonts import FontsScreen
    from pdfinspect.tui.screens.overview import DiagnosticList
    from pdfinspect.tui.screens.structure import StructureScreen
    from pdfinspect.tui.widgets.column_list import GlyphsPickList

    screens = {"overview": OverviewScreen, "browser": BrowserScreen, "revisions": RevisionsScreen,
               "search": SearchScreen, "stepper": StepperScreen, "glyphs": GlyphScreen, "fonts": FontsScreen,
               "structure": StructureScreen, "extractors": ExtractorsScreen}
    where = {name: bound_keys(cls.BINDINGS) for name, cls in screens.items()}
    for name in ("fonts", "structure"):  # their lists' enter opens glyphs
        where[name] |= bound_keys(GlyphsPickList.BINDINGS)
    where["overview"] |= bound_keys(DiagnosticList.BINDINGS)  # enter on a diagnostic: its bytes
    where["password prompt"] = bound_keys(PasswordApp.BINDINGS)
    where["everywhere"] = bound_keys(PdfInspectApp.BINDINGS, App.BINDINGS, Screen.BINDINGS) | {"ctrl+p"}
    where["lists"] = bound_keys(LineView.BINDINGS)
    where["browser tree"] = bound_keys(ObjectTree.BINDINGS)
    rows = readme_keys()
    assert len(rows) > 20
    for keys, places in rows:
        for place in places.split(", "):
            assert keys <= where[place], (place, keys - where[place])
    documented = set().union(*(keys for keys, _ in rows))
    ours = bound_keys(PdfInspectApp.BINDINGS, *(cls.BINDINGS for cls in screens.values()), LineView.BINDINGS)
    assert ours - documented == set()


async def test_a_length_found_wrong_while_browsing_reaches_the_overview():
    """The browser reads objects through a worker's own Document; what it finds wrong is
    the file's damage all the same: the overview lists it when the user comes back."""
    path = sample("damaged-bad-length.pdf")
    with pikepdf.open(path) as pdf:
        stream = next(o.objgen[0] for o in pdf.objects if isinstance(o, pikepdf.Stream))
    app = PdfInspectApp(Document.open(path))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        shown = app.screen.query_one("#diagnostics").plain()
        assert "stream-length-wrong" not in shown  # opening reads no stream
        await press(pilot, "g", *str(stream), "enter", "o")
        shown = " ".join(app.screen.query_one("#diagnostics").plain().split())
        assert f"stream-length-wrong" in shown and f"object {stream} 0" in shown
        facts = [" ".join(line.split()) for line in str(app.screen.query_one("#summary").render()).splitlines()]
        assert any(line.startswith("Damage ") and "none" not in line for line in facts)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_browser_keys_no_other_test_walks(size):
    """s focuses the stream, left collapses a tree node and goes to the parent, j/k and
    pagedown/pageup move in lists, as the README's key table says."""
    path = sample("content.pdf")
    with pikepdf.open(path) as pdf:
        contents = pdf.pages[0].obj.Contents.objgen[0]
    doc = Document.open(path)
    app = PdfInspectApp(doc, "", start_target(doc, contents, None))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await press(pilot, "s")
        assert app.screen.query_one("#stream-view").has_focus
        await press(pilot, "t", "down", "down", "right")  # /Root expanded
        tree = app.screen.query_one("#object-tree")
        node = tree.cursor_node
        assert tree.has_focus and node.is_expanded and "/Root" in str(node.label)
        await press(pilot, "left")
        assert not node.is_expanded
        await press(pilot, "l")
        listing = app.screen.query_one("#object-list")
        start = listing.cursor
        await press(pilot, "j", "j")
        assert listing.cursor == start + 2
        await press(pilot, "k")
        assert listing.cursor == start + 1
        await press(pilot, "pagedown")
        paged = listing.cursor
        assert paged == min(start + 1 + max(1, listing.scrollable_content_region.height - 1), listing.line_count - 1)
        await press(pilot, "pageup")
        assert listing.cursor == max(0, paged - max(1, listing.scrollable_content_region.height - 1))
        numbers = sorted(doc.object_numbers())
        await press(pilot, "m", "left_square_bracket")  # the object before the content stream
        before = numbers[numbers.index(contents) - 1]
        assert str(app.screen.query_one("#object-header").render()).startswith(f"{before} 0 obj")
        await press(pilot, "right_square_bracket")
        assert str(app.screen.query_one("#object-header").render()).startswith(f"{contents} 0 obj")
