"""Pilot tests: each screen walked by keyboard, checked against pikepdf/qpdf and the bytes."""
from __future__ import annotations

import asyncio
import gc
import re
import subprocess
import sys
import threading

import pikepdf
from conftest import ROOT, corpus_file, press, run_command, sample, settle

from pdfinspect.core.document import Document
from pdfinspect.tui import start_target
from pdfinspect.tui.app import PdfInspectApp
from pdfinspect.tui.memory import building
from pdfinspect.tui.screens import browser
from pdfinspect.tui.screens.browser import BrowserScreen
from pdfinspect.tui.screens.help import HelpScreen
from pdfinspect.tui.screens.revisions import RevisionsScreen
from pdfinspect.tui.widgets.line_view import LineView
from pdfinspect.tui.widgets.object_list import ObjectList
from pdfinspect.tui.widgets.stream_view import StreamView
from textual.geometry import Region

SIZE = (120, 40)


def make_app(path, **kw) -> PdfInspectApp:
    doc = Document.open(path)
    return PdfInspectApp(doc, "", start_target(doc, kw.get("object_num"), kw.get("page")))


async def goto(pilot, text: str) -> None:
    await press(pilot, "g", *text, "enter")


async def palette(pilot, text: str) -> None:
    """Run the first command the palette offers for ``text``."""
    await run_command(pilot, text)


def shows(app, objgen: tuple[int, int]) -> bool:
    """Whether the browser's header reads ``N G obj`` for ``objgen``."""
    return header(app).startswith(f"{objgen[0]} {objgen[1]} obj")


def header(app) -> str:
    return str(app.screen.query_one("#object-header").render())


def drawn(view: LineView) -> list[str]:
    """The lines the widget actually draws (what reaches the terminal)."""
    return [view.render_line(y).text.rstrip() for y in range(view.size.height)]


def qpdf_objects(path) -> dict[int, str]:
    """qpdf's view of the xref: object number → its entry ("uncompressed; offset = 15")."""
    out = subprocess.run(["qpdf", "--show-xref", str(path)], capture_output=True, text=True).stdout
    return {int(line.split("/")[0]): line.split(": ", 1)[1] for line in out.splitlines() if ": " in line}


def qpdf_offsets(path) -> dict[int, int]:
    return {num: int(entry.split("offset = ")[1])
            for num, entry in qpdf_objects(path).items() if "offset = " in entry}


async def test_overview_facts_match_pikepdf():
    path = sample("minimal.pdf")
    with pikepdf.open(path) as pdf:
        version, pages = pdf.pdf_version, len(pdf.pages)
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        text = str(app.screen.query_one("#summary").render())
        assert "minimal.pdf" in text
        assert f"Version       {version}" in text
        assert f"Pages         {pages}" in text
        assert f"Objects       {len(qpdf_objects(path))} in use" in text  # listed by a worker
        entries = [line for line in drawn(app.screen.query_one("#entry-points")) if line]
        assert entries[0] == "trailer" and any(line.startswith("Catalog /Root") for line in entries)


async def test_goto_shows_header_with_qpdf_offset():
    path = sample("minimal.pdf")
    offsets = qpdf_offsets(path)
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await goto(pilot, "4")
        assert isinstance(app.screen, BrowserScreen)
        assert header(app).startswith("4 0 obj")
        assert f"offset {offsets[4]}" in header(app)
        await goto(pilot, "3 0")
        assert header(app).startswith("3 0 obj")


async def test_follow_reference_back_and_forward():
    path = sample("minimal.pdf")
    with pikepdf.open(path) as pdf:
        root, pages = pdf.Root.objgen, pdf.Root.Pages.objgen
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await goto(pilot, str(root[0]))
        view = app.screen.query_one("#object-view")
        assert any("/Pages" in line for line in drawn(view))
        await press(pilot, "enter")  # the cursor starts on the first reference: /Pages
        assert shows(app, pages)
        await press(pilot, "backspace")
        assert shows(app, root)
        await press(pilot, "alt+right")
        assert shows(app, pages)
        await press(pilot, "alt+left")
        assert shows(app, root)


async def test_referenced_by_lists_referrers_found_by_pikepdf():
    path = sample("minimal.pdf")
    with pikepdf.open(path) as pdf:
        target = pdf.pages[0].obj.Contents.objgen
        referrers = {o.objgen for o in pdf.objects
                     if isinstance(o, pikepdf.Dictionary) and any(
                         isinstance(v, pikepdf.Object) and v.is_indirect and v.objgen == target
                         for v in o.values())}
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await goto(pilot, str(target[0]))
        await settle(pilot)
        lines = [line for line in drawn(app.screen.query_one("#backrefs")) if line]
        assert {tuple(map(int, line.split()[:2])) for line in lines} == referrers
        assert all("/Contents" in line for line in lines)
        await press(pilot, "f", "enter")  # follow the referrer from the panel
        assert header(app).startswith(f"{min(referrers)[0]} 0 obj")


async def test_raw_decoded_toggle_matches_pikepdf():
    path = sample("filters.pdf")
    with pikepdf.open(path) as pdf:
        stream = pdf.get_object((9, 0))
        decoded, raw = stream.read_bytes(), stream.read_raw_bytes()
    app = make_app(path, object_num=9)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        view = app.screen.query_one(StreamView)
        assert view._data == decoded
        assert "FlateDecode" in str(app.screen.query_one("#stream-header").render())
        await press(pilot, "r")
        assert view._data == raw and view.kind == "hex"
        assert drawn(view)[0].startswith("00000000  " + " ".join(f"{b:02x}" for b in raw[:4]))
        await press(pilot, "r")
        assert view._data == decoded


async def test_binary_image_shows_as_hex():
    app = make_app(sample("filters.pdf"), object_num=11)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.screen.query_one(StreamView).kind == "hex"


async def test_decode_error_shown_inline_with_partial_data():
    path = sample("damaged-truncated.pdf")
    doc = Document.open(path)
    stream = next(o for o in doc.iter_objects() if o.is_stream)
    result = doc.stream_data(stream)
    assert result.error  # the sample is cut inside the Flate data
    app = make_app(path, object_num=stream.num)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        view = app.screen.query_one(StreamView)
        assert view._data == result.data
        last = view.line(view.line_count - 1).plain
        assert last.startswith("⚠ decode error")


async def test_markup_in_strings_is_shown_literally():
    path = sample("lexical.pdf")
    with pikepdf.open(path) as pdf:
        info_num = pdf.trailer.Info.objgen[0]
        author = bytes(pdf.trailer.Info.Author).decode("latin-1")
    app = make_app(path, object_num=info_num)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        lines = drawn(app.screen.query_one("#object-view"))
        author_line = next(line for line in lines if "/Author" in line)
        assert f"({author[:40]}" in author_line  # [bold red]… drawn as typed, not as style
        assert not any("\x1b" in line or "\x07" in line for line in lines)


async def test_revisions_show_changes_and_both_values():
    path = sample("incremental.pdf")
    with pikepdf.open(path) as pdf:
        info_num = pdf.trailer.Info.objgen[0]
        title = str(pdf.trailer.Info.Title)
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "v")
        screen = app.screen
        assert isinstance(screen, RevisionsScreen) and screen.revision == 2
        changes = [line for line in drawn(screen.query_one("#changed-objects")) if line]
        assert any(line.startswith("+") and f" {info_num} added" in line for line in changes)
        after = drawn(screen.query_one("#after-view"))
        assert any(f"/Title ({title})" in line for line in after)
        assert drawn(screen.query_one("#before-view"))[0] == "null"  # did not exist before
        await press(pilot, "left_square_bracket")
        assert screen.revision == 1
        changes = [line for line in drawn(screen.query_one("#changed-objects")) if line]
        assert any(line.startswith("~") and " 4 changed" in line for line in changes)
        await press(pilot, "tab", "enter")  # open the object as of revision 1 (numbered from 0, as in the CLI)
        assert isinstance(app.screen, BrowserScreen)
        assert "as of revision 1" in header(app)


async def test_damaged_file_opens_and_lists_repairs():
    path = sample("damaged-bad-offsets.pdf")
    offsets = qpdf_offsets(sample("minimal.pdf"))
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, "4")
        await press(pilot, "o")
        text = app.screen.query_one("#diagnostics").plain()
        assert "xref-offset-wrong" in text and "repaired:" in text
        await goto(pilot, "4")
        assert f"offset {offsets[4]}" in header(app)  # where the object really is, not where xref says


async def test_broken_object_shows_its_error_in_place():
    app = make_app(sample("damaged-broken-object.pdf"), object_num=6)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert header(app).startswith("6 0 obj")
        lines = drawn(app.screen.query_one("#object-view"))
        assert any(line.startswith("% warning") for line in lines)


async def test_page_start_and_palette_go_to_page():
    path = sample("pages.pdf")
    with pikepdf.open(path) as pdf:
        page3 = pdf.pages[2].obj.objgen
        page1 = pdf.pages[0].obj.objgen
    app = make_app(path, page=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert shows(app, page1)
        await palette(pilot, "page 3")
        assert shows(app, page3)


async def test_fonts_of_page_open_the_node_holding_inherited_fonts():
    path = sample("pages.pdf")
    with pikepdf.open(path) as pdf:
        page3 = pdf.pages[2].obj.objgen[0]
    # pikepdf pushes inherited /Resources down to the pages, so read the bytes: the /Pages
    # node whose /Kids hold page 3 carries /Resources with a direct /Font dictionary.
    holder = re.search(rb"\n(\d+) 0 obj\n<<[^\n]*/Kids \[[^\]]*\b%d 0 R[^\n]*/Resources << /Font <<" % page3,
                       path.read_bytes())
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await palette(pilot, "fonts 3")
        assert header(app).startswith(f"{int(holder[1])} 0 obj")


async def test_search_lists_hits_as_object_and_offset():
    path = sample("minimal.pdf")
    with pikepdf.open(path) as pdf:
        contents = pdf.pages[0].obj.Contents
        offset = contents.read_bytes().find(b"Hello")
        num = contents.objgen[0]
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "slash", *"hello", "enter")
        await settle(pilot)
        hits = [line for line in drawn(app.screen.query_one("#search-hits")) if line]
        assert any(line.startswith(f"{num} 0 R  stream @{offset}") for line in hits)
        await press(pilot, "enter")
        assert header(app).startswith(f"{num} 0 obj")


async def test_help_lists_every_app_binding():
    app = make_app(sample("minimal.pdf"))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "question_mark")
        assert isinstance(app.screen, HelpScreen)
        table = app.screen.query_one("#help-table").content
        described = {str(cell) for cell in table.columns[2]._cells}
        assert {b.tooltip for b in app.BINDINGS} <= described
        assert len(table.columns) == 3  # where, keys, what: no internal binding ids
        assert "escape" in str(app.screen.query_one(".panel-title").render())  # says how to close it
        for key in ("escape", "q", "question_mark", "f1"):
            await press(pilot, "question_mark")
            await press(pilot, key)
            assert not isinstance(app.screen, HelpScreen)


async def test_object_list_matches_qpdf_objects():
    path = corpus_file("mupdf-incremental-update.pdf")
    expected = sorted(qpdf_objects(path))
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "b", "l")
        listing = app.screen.query_one(ObjectList)
        assert listing.numbers == expected
        await press(pilot, "end", "enter")
        assert header(app).startswith(f"{expected[-1]} ")


async def test_cursor_highlight_follows_moves_and_scrolls():
    """What the list would draw (its line cache included): the highlight on the cursor line
    only, whether a move repaints two lines or scrolls the list."""
    app = make_app(sample("pages.pdf"))
    async with app.run_test(size=(100, 12)) as pilot:
        await press(pilot, "b", "l")
        listing = app.screen.query_one(ObjectList)
        cursor_bg = listing.get_visual_style("line-view--cursor").rich_style.bgcolor
        height = listing.scrollable_content_region.height
        assert 1 < height < listing.line_count
        for key in ["home"] + ["down"] * (height + 2) + ["up"] * (height + 1):
            await press(pilot, key)
            strips = listing.render_lines(Region(0, 0, listing.size.width, height))
            lit = [y for y, strip in enumerate(strips)
                   if any(seg.style is not None and seg.style.bgcolor == cursor_bg for seg in strip)]
            assert lit == [listing.cursor - listing.scroll_offset.y], key


def test_building_pauses_the_collector_until_the_last_builder_is_done():
    assert gc.isenabled()
    with building():
        with building():
            assert not gc.isenabled()
        assert not gc.isenabled()  # another builder is still at work
        kept = [[n] for n in range(10)]
    assert gc.isenabled() and gc.get_freeze_count() >= len(kept)


async def test_tree_expands_lazily_and_opens_objects():
    path = sample("minimal.pdf")
    with pikepdf.open(path) as pdf:
        root = pdf.Root.objgen
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "b", "t")
        tree = app.screen.query_one("#object-tree")
        root_node = next(n for n in tree.root.children if str(n.label).startswith("/Root"))
        assert not root_node.children  # nothing read below until expanded
        tree.move_cursor(root_node)
        await press(pilot, "space")
        assert any(str(n.label).startswith("/Pages") for n in root_node.children)
        await press(pilot, "enter")
        assert shows(app, root)


async def test_every_object_of_every_damaged_sample_displays():
    """Nothing in a PDF crashes the app: each object of each damaged sample shows in place."""
    paths = sorted(sample("minimal.pdf").parent.glob("damaged-*.pdf"))
    for path in paths:
        doc = Document.open(path, decode_limit=1 << 16)  # the bomb stays small
        app = PdfInspectApp(doc)
        async with app.run_test(size=SIZE) as pilot:
            await press(pilot, "b")
            for num in [*doc.object_numbers(), max(doc.object_numbers(), default=0) + 1]:
                app.goto_object(num)
                await settle(pilot)  # the object is read in a worker
                assert header(app).startswith(f"{num} "), (path.name, num)


async def test_bomb_stream_stops_at_the_limit_and_says_so():
    path = sample("damaged-bomb.pdf")
    doc = Document.open(path, decode_limit=1 << 16)
    form = next(o for o in doc.iter_objects() if o.is_stream and o.value.dict.get("Subtype") == "Form")
    app = PdfInspectApp(doc, "", start_target(doc, form.num, None))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        view = app.screen.query_one(StreamView)
        assert len(view._data) <= 1 << 16
        assert "limit" in view.line(view.line_count - 1).plain


async def test_encrypted_file_shows_decrypted_strings():
    path = sample("encrypted-rc4.pdf")
    with pikepdf.open(path) as pdf:
        title = str(pdf.trailer.Info.Title)
        info = pdf.trailer.Info.objgen[0]
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        summary = str(app.screen.query_one("#summary").render())
        assert f"Title         {title}" in summary
        assert "RC4" in summary
        await goto(pilot, str(info))
        hex_title = f"<{title.encode('latin-1').hex()}>"  # pikepdf wrote it as a hex string
        assert any(hex_title in line for line in drawn(app.screen.query_one("#object-view")))


async def test_goto_prompt_takes_pages_refuses_junk_and_cancels():
    path = sample("pages.pdf")
    with pikepdf.open(path) as pdf:
        page2 = pdf.pages[1].obj.objgen
    app = make_app(path, object_num=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await goto(pilot, "p 2")
        assert shows(app, page2)
        await goto(pilot, "x1")
        assert shows(app, page2)  # stays, says why
        assert any("not an object number" in str(n.message) for n in app._notifications)
        focused = app.focused
        await press(pilot, "g", "7", "escape")
        assert not app.screen.query_one("#goto-bar").display and app.focused is focused
        assert shows(app, page2)


def huge_array_pdf(path):
    """A file whose /Root /Big is one array of 100,000 references (a second or so to parse)."""
    pdf = pikepdf.new()
    pdf.add_blank_page()
    leaf = pdf.make_indirect(pikepdf.Dictionary(N=1))
    pdf.Root.Big = pdf.make_indirect(pikepdf.Array([leaf] * 100_000))
    pdf.save(path)
    with pikepdf.open(path) as pdf:
        return pdf.Root.Big.objgen, pdf.Root.Big[0].objgen


async def test_huge_object_loads_in_a_worker_while_keys_still_work(tmp_path, monkeypatch):
    path = tmp_path / "huge.pdf"
    big, first = huge_array_pdf(path)
    started, release = threading.Event(), threading.Event()
    real = browser.object_display

    def gated(doc, target):  # hold the worker so the test sees the app while it is busy
        if target.ref is not None and target.ref.num == big[0]:
            started.set()
            release.wait(10)
        return real(doc, target)

    monkeypatch.setattr(browser, "object_display", gated)
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("g", *str(big[0]), "enter")
        assert started.wait(5)
        assert header(app) == f"loading {big[0]} {big[1]} obj…"
        assert drawn(app.screen.query_one("#object-view"))[0] == "loading…"
        await pilot.press("o")  # keys are handled while the worker is still busy
        assert app.current_mode == "overview"
        await pilot.press("b", "g", "1", "enter")  # and a newer request wins over the old one
        release.set()
        await settle(pilot)
        assert shows(app, (1, 0))
        await goto(pilot, str(big[0]))
        assert shows(app, big)
        view = app.screen.query_one("#object-view")
        lines = [content.plain for content, _, _ in view.items]
        assert lines[0] == "[" and lines[1].strip() == f"{first[0]} {first[1]} R"
        assert lines[-1].startswith("% … truncated after")  # the rest is not formatted at all


async def test_back_reference_index_reports_progress(tmp_path):
    path = tmp_path / "many.pdf"
    pdf = pikepdf.new()
    pdf.add_blank_page()
    pdf.Root.Many = pikepdf.Array([pdf.make_indirect(pikepdf.Dictionary(N=i)) for i in range(2500)])
    pdf.save(path)
    objects = len(qpdf_objects(path))
    app = make_app(path)
    seen = []
    built = asyncio.Event()
    async with app.run_test(size=SIZE) as pilot:
        app.backrefs_progress.subscribe(app.screen, seen.append, immediate=True)
        await settle(pilot)
        app.backrefs_ready.subscribe(app.screen, lambda _: built.set())  # after the screen's own subscriber
        await goto(pilot, "1")  # the index is built when an object's referrers are first shown
        await built.wait()  # the worker's completion message, not a time
        await settle(pilot)
        bar = app.screen.query_one("#backrefs-progress")
        assert seen == [(n, objects) for n in range(1000, objects, 1000)] + [(objects, objects)]
        assert (bar.progress, bar.total) == (objects, objects) and not bar.display
        assert app.index_progress is None


async def test_next_object_from_the_trailer_is_the_first_object():
    path = sample("minimal.pdf")
    first = min(qpdf_objects(path))
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "b")  # the browser opens at the trailer
        assert header(app).startswith("trailer")
        await press(pilot, "right_square_bracket")
        assert shows(app, (first, 0))


async def test_a_search_the_core_fails_on_says_so_instead_of_searching_forever(monkeypatch):
    def broken(self, *args, **kwargs):
        raise RuntimeError("core bug [b]x[/b]\x1b[2J")

    monkeypatch.setattr(Document, "iter_objects", broken)
    app = make_app(sample("minimal.pdf"))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "slash", *"hello", "enter")
        status = str(app.screen.query_one("#search-status").render())
        assert "searching" not in status
        assert "error: RuntimeError: core bug [b]x[/b]" in status and "\x1b" not in status


async def test_revisions_show_a_stream_diff_under_the_new_value(tmp_path):
    """Content stream 4 changed in revision 1: its decoded data as a unified diff; in a fix
    output, the font's new /ToUnicode diffed against the old one (as `pdfinspect diff`)."""
    app = make_app(sample("incremental.pdf"))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "v", "left_square_bracket")
        screen = app.screen
        rows = [num for _, num, _ in screen.query_one("#changed-objects").rows]
        await press(pilot, "tab", *["down"] * rows.index(4))
        after = [c.plain for c, _, _ in screen.query_one("#after-view").items]
        assert "% stream (content), decoded: 41 → 59 bytes" in after
        assert "-BT /F1 24 Tf 72 720 Td (Revision 1) Tj ET" in after
        assert "+BT /F1 24 Tf 72 720 Td (Revision 2: object 4 changed) Tj ET" in after
    fixed = tmp_path / "fixed.pdf"
    subprocess.run([sys.executable, "-m", "pdfinspect", "fix", str(sample("kappa.pdf")), "-o", str(fixed)],
                   check=True, capture_output=True, cwd=ROOT)
    app = make_app(fixed)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "v")
        screen = app.screen
        rows = [num for _, num, _ in screen.query_one("#changed-objects").rows]
        await press(pilot, "tab", *["down"] * rows.index(5))
        after = [c.plain for c, _, _ in screen.query_one("#after-view").items]
        assert any(line.startswith("% /ToUnicode now 9 0 R instead of 7 0 R") for line in after)
        assert "+<14> <03ba>" in after and "-1 beginbfchar" in after
