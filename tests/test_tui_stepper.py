"""Pilot tests for the content stepper and the glyph inspector, on the κ sample.

Expected values come from pikepdf (the content stream's operators, the font's ToUnicode
object and its bytes) and fontTools' AGL, not from our own output.
"""
from __future__ import annotations

import io
import re
from importlib import import_module
from pathlib import Path

import pikepdf
import pytest
from conftest import press, run_command, sample
from fontTools import agl

from pdfinspect.core.document import Document
from pdfinspect.tui.app import PdfInspectApp
from pdfinspect.tui.screens.glyphs import CodeRow, GlyphScreen
from pdfinspect.tui.screens.help import HelpScreen
from pdfinspect.tui.screens.stepper import StepperScreen

SIZE = (120, 40)
KAPPA = sample("kappa.pdf")


def make_app(view: str | None, page: int = 1) -> PdfInspectApp:
    return PdfInspectApp(Document.open(KAPPA), "", None, (view, page) if view else None)


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
        # no entry for the code: the CMap opens at its nearest entry (its only one here)
        lines = tounicode.splitlines()
        assert app.current.line == next(n for n in range(2, len(lines) + 1)
                                        if lines[n - 2].rstrip().endswith(b"beginbfchar"))


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
        await press(pilot, "m")
        assert screen.ops.breakpoints == {"Tj"}
        assert "●" in screen.ops.build_line(tjs[1]).plain
        await press(pilot, "home", "c")
        assert screen.ops.cursor == tjs[0]
        await press(pilot, "c")
        assert screen.ops.cursor == tjs[1]
        await press(pilot, "m", "home", "c")  # breakpoint off again: c stays put
        assert screen.ops.breakpoints == set() and screen.ops.cursor == 0
        hint = str(list(app._notifications)[-1].message)  # and says which key sets one: m, bound to it
        key = hint.split("no breakpoints: ", 1)[1].split()[0]
        assert [b.action for b in StepperScreen.BINDINGS if b.key == key] == ["breakpoint"]


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
        await press(pilot, "f", "u")  # nothing on the page resolves to nothing: the table says so
        assert texts(table) == ["no code matches the filters; u x f m toggle"]
        assert "filters: unresolved" in str(screen.query_one("#glyphs-header").render())
        await press(pilot, "u", "f", "enter")
        assert app.focused is screen.query_one("#glyph-path")
        await press(pilot, "enter")
        assert str(app.screen.query_one("#object-header").render()).startswith(f"{num} {gen} obj")


@pytest.mark.asyncio
async def test_palette_opens_both_views_and_help_lists_their_keys():
    app = make_app(None)
    async with app.run_test(size=SIZE) as pilot:
        await run_command(pilot, "step 1")
        await press(pilot)
        assert isinstance(app.screen, StepperScreen) and app.screen.page == 1
        await run_command(pilot, "glyphs 1")
        await press(pilot)
        assert isinstance(app.screen, GlyphScreen) and app.screen.rows
        await press(pilot, "question_mark")
        assert isinstance(app.screen, HelpScreen)
        table = app.screen.query_one("#help-table").content
        described = {str(cell) for cell in table.columns[2]._cells}
        assert {b.tooltip for b in StepperScreen.BINDINGS + GlyphScreen.BINDINGS} <= described


# -- page prompt, source panel, font panel, ToUnicode lines, ActualText -------------------------
PAGES = sample("pages.pdf")
CONTENT = sample("content.pdf")
CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"


def app_on(path, view: str) -> PdfInspectApp:
    return PdfInspectApp(Document.open(path), "", None, (view, 1))


def marked(panel) -> str:
    """The text a panel shows in reverse video (the current operator, its glyphs), on the
    lines the panel has room for."""
    lines = panel.render().split("\n", allow_blank=True)[:panel.content_region.height]
    return "".join(line.plain[s.start:s.end] for line in lines for s in line.spans if "reverse" in str(s.style))


@pytest.mark.asyncio
async def test_p_and_a_number_picks_the_page_in_both_views():
    with pikepdf.open(PAGES) as pdf:
        ops3 = [str(op) for _, op in pikepdf.parse_content_stream(pdf.pages[2])]
        shown2 = {bytes(operands[0]) for operands, op in pikepdf.parse_content_stream(pdf.pages[1])
                  if str(op) == "Tj"}
    app = app_on(PAGES, "stepper")
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "p", "3", "enter")
        screen = app.screen
        assert screen.page == 3 and [s.op for s in screen.ops.steps] == ops3
        await press(pilot, "p", "x", "enter")  # not a number: the page stays
        assert screen.page == 3
        await run_command(pilot, "glyphs 1")
        await press(pilot, "p", "p", "2", "enter")
        assert isinstance(app.screen, GlyphScreen) and app.screen.page == 2
        assert {r.record.glyph.code for r in app.screen.rows} == {bytes([b]) for s in shown2 for b in s}


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [(80, 24), SIZE])
async def test_source_panel_marks_each_operator_in_the_page_or_form_stream(size):
    """At 80x24 the panel has three lines: the operator's is the middle one (it was the
    fourth, out of sight)."""
    with pikepdf.open(CONTENT) as pdf:
        page_bytes = pdf.pages[0].Contents.read_bytes()
        form = pdf.pages[0].Resources.XObject.Fm1
        form_bytes, form_objgen = form.read_bytes(), form.objgen
    app = app_on(CONTENT, "stepper")
    async with app.run_test(size=size) as pilot:
        await press(pilot)
        screen = app.screen
        panel = screen.query_one("#step-source")
        checked_form = 0
        for i, step in enumerate(screen.ops.steps):
            if step.op in ("BI", "Do") or step.op.startswith("unknown"):
                continue  # inline image data and unknown operators: shown, not compared
            screen.ops.cursor = i
            await pilot.pause()
            data = form_bytes if step.depth else page_bytes
            expected = data[step.span[0]:step.span[1]].decode("latin-1").split("\n")[0]
            assert marked(panel) == expected and expected.rstrip().endswith(step.op)
            if step.depth:
                checked_form += 1
                title = str(screen.query_one("#step-source-title").render())
                assert f"form {form_objgen[0]} {form_objgen[1]} R" in title
        assert checked_form > 0


@pytest.mark.asyncio
async def test_font_panel_lists_dicts_and_program_tables_of_the_kappa_font():
    from fontTools.t1Lib import T1Font

    with pikepdf.open(KAPPA) as pdf:
        font = pdf.pages[0].Resources.Font.F4
        tu, prog = font.ToUnicode, font.FontDescriptor.FontFile
        entries = tu.read_bytes().split(b"beginbfchar")[1].split(b"endbfchar")[0].split(b"<")[1::2]
        t1 = T1Font.__new__(T1Font)  # fontTools' Type 1 reader on the embedded bytes
        t1.data, t1.encoding = bytes(prog.read_bytes()), "ascii"
        t1.parse()
        encoding = [n for n in t1.font["Encoding"] if n != ".notdef"]
        charstrings = len(t1.font["CharStrings"])
        tu_objgen, prog_objgen = tu.objgen, prog.objgen
        shows = [ops[0] if op == pikepdf.Operator("TJ") else ops
                 for ops, op in pikepdf.parse_content_stream(pdf.pages[0]) if str(op) in ("Tj", "TJ")]
        shown = {b for operands in shows for s in operands if isinstance(s, pikepdf.String) for b in bytes(s)}
        mapped = {int(e.split(b">")[0], 16) for e in entries}
    app = make_app("glyphs")
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot)
        panel = str(app.screen.query_one("#glyph-font").render())
        assert f"ToUnicode  {tu_objgen[0]} {tu_objgen[1]} R: {len(entries)} bfchar" in panel
        assert f"/FontFile Type1 {prog_objgen[0]} {prog_objgen[1]} R" in panel
        assert f"CharStrings: {charstrings} glyphs" in panel
        assert f"built-in encoding: {len(encoding)} codes" in panel
        # the codes without entries: the font's diagnosis, from fonts.reasons as 'pdfinspect fonts' says it
        missing = f"ToUnicode misses {len(shown - mapped)} of {len(shown)} codes ({tu_objgen[0]} {tu_objgen[1]} R)"
        assert missing in " ".join(panel.split())


@pytest.mark.asyncio
async def test_font_panel_reads_truetype_cmap_subtables_and_path_opens_tounicode_at_the_entry():
    from fontTools.ttLib import TTFont

    path = CORPUS / "libreoffice-ru-el-ja-tagged-pdfa2b.pdf"
    if not path.exists():
        pytest.skip("corpus not present")
    with pikepdf.open(path) as pdf:
        font = pdf.pages[0].Resources.Font.F2
        tt = TTFont(io.BytesIO(font.FontDescriptor.FontFile2.read_bytes()))
        subtables = {(t.platformID, t.platEncID): len(t.cmap) for t in tt["cmap"].tables}
        tu_lines = font.ToUnicode.read_bytes().decode("latin-1").splitlines()
        font_objgen = font.objgen
    app = app_on(path, "glyphs")
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot)
        screen = app.screen
        table = screen.query_one("#glyph-table")
        start = next(i for i, item in enumerate(screen.shown)
                     if not isinstance(item, CodeRow) and item.ref is not None and item.ref.num == font_objgen[0])
        rows = [i for i, item in enumerate(screen.shown) if i > start and isinstance(item, CodeRow)
                and item.font is screen.shown[start] and item.record.method == "ToUnicode"]
        table.cursor = rows[-1]
        await pilot.pause()
        panel = str(screen.query_one("#glyph-font").render())
        for (platform, encoding), n in subtables.items():
            assert f"cmap ({platform},{encoding}): {n} codes" in panel
        code = screen.shown[rows[-1]].record.glyph.code.hex()
        line = next(n for n, text in enumerate(tu_lines, 1)
                    if re.match(rf"\s*<{code}>", text, re.IGNORECASE))
        await press(pilot, "enter", "enter")
        assert app.current.line == line
        view = app.screen.query_one("#stream-view")
        assert view.max_scroll_y > 0 and view.scroll_offset.y == min(line - 1, view.max_scroll_y)


@pytest.mark.asyncio
async def test_text_drawn_so_far_shows_actual_text_instead_of_the_glyphs(tmp_path):
    pdf = pikepdf.new()
    helvetica = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                                     BaseFont=pikepdf.Name.Helvetica))
    content = (b"/Span << /ActualText (xyz) >> BDC BT /F1 12 Tf 72 700 Td (abc) Tj ET EMC\n"
               b"BT /F1 12 Tf 72 680 Td (def) Tj ET")
    page = pikepdf.Page(pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=[0, 0, 612, 792],
                                           Resources=pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=helvetica)),
                                           Contents=pdf.make_stream(content)))
    pdf.pages.append(page)
    pdf.save(tmp_path / "actual.pdf")
    with pikepdf.open(tmp_path / "actual.pdf") as check:
        mc = [operands for operands, op in pikepdf.parse_content_stream(check.pages[0]) if str(op) == "BDC"]
        actual = str(mc[0][1].ActualText)
        shown = [bytes(operands[0]).decode() for operands, op in pikepdf.parse_content_stream(check.pages[0])
                 if str(op) == "Tj"]
    app = app_on(tmp_path / "actual.pdf", "stepper")
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "t")
        text = str(app.screen.query_one("#step-text").render())
        assert actual in text and shown[0] not in text
        await press(pilot, "t")
        text = str(app.screen.query_one("#step-text").render())
        assert text.split("\n")[-2:] == [actual, shown[1]]


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [(80, 24), SIZE])
async def test_text_drawn_so_far_shows_the_current_operators_glyphs(size):
    """The panel ends on the line of the operator's glyphs, wrapped to its width: at 80x24
    (two lines) it showed the first of the last six lines, without them."""
    with pikepdf.open(CONTENT) as pdf:
        shows = sum(str(op) in ("Tj", "TJ", "'", '"') for _, op in pikepdf.parse_content_stream(pdf.pages[0]))
    app = app_on(CONTENT, "stepper")
    async with app.run_test(size=size) as pilot:
        await press(pilot)
        screen = app.screen
        panel = screen.query_one("#step-text")
        seen = 0
        for i, step in enumerate(screen.ops.steps):
            if step.glyphs and not step.depth:
                screen.ops.cursor = i
                await pilot.pause()
                first = screen.records[screen.first_record[i]]
                assert marked(panel).startswith(first.unicode[:1]), (step.op, marked(panel))
                seen += 1
        assert seen == shows


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [(80, 24), SIZE])
async def test_what_each_operator_changed_is_in_sight(size):
    """The state panel has six rows at 80x24: "changed" was the twelfth."""
    from textual.geometry import Region

    app = app_on(CONTENT, "stepper")
    async with app.run_test(size=size) as pilot:
        await press(pilot)
        screen = app.screen
        panel = screen.query_one("#step-state")
        for i, step in enumerate(screen.ops.steps[1:], 1):
            screen.ops.cursor = i
            await pilot.pause()
            lines = [strip.text.strip() for strip in panel.render_lines(Region(0, 0, *panel.outer_size))]
            assert lines[0].startswith(f"step    {i}  {step.op}")
            assert any(line.startswith("changed ") for line in lines), (step.op, lines)


@pytest.mark.asyncio
async def test_source_and_text_are_laid_out_again_when_the_terminal_shrinks():
    app = app_on(CONTENT, "stepper")
    async with app.run_test(size=(200, 60)) as pilot:
        await press(pilot)
        screen = app.screen
        last = max(i for i, step in enumerate(screen.ops.steps) if step.glyphs and not step.depth)
        screen.ops.cursor = last
        await press(pilot)
        step = screen.ops.steps[last]
        await pilot.resize_terminal(80, 24)
        await press(pilot)
        assert marked(screen.query_one("#step-source")).rstrip().endswith(step.op)
        assert marked(screen.query_one("#step-text")).startswith(screen.records[screen.first_record[last]].unicode[:1])


@pytest.mark.asyncio
@pytest.mark.parametrize("view, module, name", [("stepper", "stepper", "iter_steps"),
                                                ("glyphs", "glyphs", "page_glyph_facts")])
async def test_a_page_the_core_fails_on_says_so_instead_of_running_forever(monkeypatch, tmp_path, view, module, name):
    from importlib import import_module

    def broken(*args, **kwargs):
        raise RuntimeError("core bug [b]here[/b]\x1b[2J")

    monkeypatch.setattr(import_module(f"pdfinspect.tui.screens.{module}"), name, broken)
    log = tmp_path / "app.log"
    app = PdfInspectApp(Document.open(KAPPA), "", None, (view, 1), log_path=log)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot)
        text = str(app.screen.query_one(f"#{view}-header").render())
        assert "running" not in text and "resolving" not in text
        assert "error: RuntimeError: core bug [b]here[/b]" in text and "\x1b" not in text
        # one line on screen, the whole traceback in the --log file
        notes = [n.message for n in app._notifications]
        assert len(notes) == 1 and "core bug" in notes[0] and str(log) in notes[0] and "\n" not in notes[0]
        written = log.read_text()
        assert "Traceback (most recent call last)" in written and ", in broken\n" in written


@pytest.mark.asyncio
async def test_a_big_file_that_changed_under_a_view_offers_to_reload_without_a_traceback(monkeypatch, tmp_path):
    from pdfinspect.core.diagnostics import PdfError, error

    def changed(*args, **kwargs):  # what core.source raises when a file read on demand changed
        raise PdfError(error("file-changed", "big.pdf changed on disk while open (truncated or rewritten): "
                             "offset 5 can no longer be read as it was; reopen it", offset=5))

    monkeypatch.setattr(import_module("pdfinspect.tui.screens.stepper"), "iter_steps", changed)
    log = tmp_path / "app.log"
    app = PdfInspectApp(Document.open(KAPPA), "", None, ("stepper", 1), log_path=log)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot)
        notes = [n.message for n in app._notifications]
        assert len(notes) == 1 and "changed on disk while open" in notes[0] and "ctrl+r reloads it" in notes[0]
        assert app._change_told and not log.exists()  # no traceback: it is no bug


@pytest.mark.asyncio
async def test_breakpoints_on_a_font_resource_and_on_a_code():
    app = PdfInspectApp(Document.open(sample("cid-identity.pdf")), "", None, ("stepper", 1))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot)
        screen = app.screen
        shows = [i for i, s in enumerate(screen.ops.steps) if s.glyphs]
        f1, f2 = shows  # /F1 draws 日本語 ABC, /F2 Hi!😀ffi…
        screen.ops.cursor = f2
        await press(pilot, "M")
        assert screen.ops.breakpoints == {"font:F2"} and "breakpoints: font /F2" in str(
            screen.query_one("#stepper-header").render())
        await press(pilot, "home", "c")
        assert screen.ops.cursor == f2
        await press(pilot, "M", "home", "c")  # off again
        assert screen.ops.cursor == 0
        code = screen.ops.steps[f1].glyphs[0].code
        screen.ops.cursor = f1
        await press(pilot, "B")
        assert screen.ops.breakpoints == {"code:" + code.hex()} and "●" in screen.ops.build_line(f1).plain
        await press(pilot, "home", "c")
        assert screen.ops.cursor == f1
        await press(pilot, "c")
        assert screen.ops.cursor == f1  # no other operator draws that code


@pytest.mark.asyncio
async def test_glyph_inspector_visibility_filter_and_stepper_gap(tmp_path):
    # "A", then "B" with a TJ gap of 110, then "C" in render mode 3 (invisible): built with pikepdf
    pdf = pikepdf.new()
    page = pdf.add_blank_page()
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=pikepdf.Dictionary(
        Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica)))
    page.Contents = pdf.make_stream(b"BT /F1 10 Tf 72 700 Td (A) Tj [-110 (B)] TJ 3 Tr (C) Tj ET")
    path = tmp_path / "hidden.pdf"
    pdf.save(path)
    app = PdfInspectApp(Document.open(path), "", None, ("glyphs", 1))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot)
        screen = app.screen
        assert isinstance(screen, GlyphScreen)
        table = screen.query_one("#glyph-table")
        codes = lambda: [item.record.glyph.code for item in screen.shown if isinstance(item, CodeRow)]  # noqa: E731
        assert codes() == [b"A", b"B", b"C"]
        await press(pilot, "h")
        assert codes() == [b"A", b"B"] and "glyphs: visible" in str(screen.query_one("#glyphs-header").render())
        await press(pilot, "h")
        assert codes() == [b"C"]
        assert "hidden: invisible_mode" in "\n".join(texts(screen.query_one("#glyph-path")))
        _, layers, _ = screen.preview_request()
        from pdfinspect.render.boxes import HIDDEN
        assert [len(q) for colour, q in layers if colour == HIDDEN] == [1]
        await press(pilot, "h")
        assert codes() == [b"A", b"B", b"C"]
        table.cursor = 2  # B
        await pilot.pause()
        shown = " ".join(line.strip() for line in texts(screen.query_one("#glyph-path")))  # (wrapped)
        assert "gap before: 0.11 em (1.1 pt) from TJ \u2212110" in shown
    app = PdfInspectApp(Document.open(path), "", None, ("stepper", 1))
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot)
        screen = app.screen
        screen.ops.cursor = next(i for i, s in enumerate(screen.ops.steps) if s.op == "TJ")
        await press(pilot)
        assert "gap     0.11 em (1.1 pt) from TJ \u2212110" in str(screen.query_one("#step-state").render())


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [(80, 24), SIZE], ids=["80x24", "120x40"])
async def test_glyph_inspector_draws_the_glyphs_outline_below_its_path(size):
    from pdfinspect.content.textlayout import page_glyphs
    from pdfinspect.fonts.shapevote import GlyphShapes
    from pdfinspect.present.shapes import glyph_picture

    doc = Document.open(KAPPA)
    kappa = next(r for r in page_glyphs(doc, doc.page_ref(1)) if r.unicode == agl.toUnicode("kappa"))
    expected = glyph_picture(GlyphShapes(doc), kappa)
    assert expected.rows and any(ch != "\u2800" for row in expected.rows for ch in row)
    app = make_app("glyphs")
    async with app.run_test(size=size) as pilot:
        await press(pilot)
        screen = app.screen
        row = next(i for i, item in enumerate(screen.shown)
                   if isinstance(item, CodeRow) and item.record.unicode == kappa.unicode)
        screen.query_one("#glyph-table").cursor = row
        screen.show_path(row)
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        lines = texts(screen.query_one("#glyph-path"))
        title = lines.index("outline: what the code draws")
        assert [t.strip() for t in lines[title + 1:title + 1 + len(expected.rows)]] == list(expected.rows)
        rest = "".join(t.strip() for t in lines[title + 1 + len(expected.rows):])  # wrapped at 80 columns
        assert rest.startswith("fingerprint") and expected.fingerprint in rest
