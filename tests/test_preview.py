"""The page preview in the stepper and the glyph inspector (pilot), and its SVG snapshot."""
from __future__ import annotations

import pikepdf
import pytest
from conftest import press, sample, settle

from pdfinspect.core.document import Document
from pdfinspect.render.boxes import OPERATOR, OTHER, SELECTED
from pdfinspect.tui.app import PdfInspectApp
from pdfinspect.tui.screens.help import HelpScreen
from pdfinspect.tui.widgets.preview import PagePreview

KAPPA = sample("kappa.pdf")


def make_app(view: str, images: str = "auto") -> PdfInspectApp:
    app = PdfInspectApp(Document.open(KAPPA), "", None, (view, 1))
    app.images = images
    return app


def colours(pane: PagePreview) -> set:
    return {c for row in pane.rows for cell in row for c in cell}


async def test_stepper_preview_boxes_the_operator_and_zooms_to_the_glyph():
    app = make_app("stepper")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        pane = app.screen.query_one("#preview", PagePreview)
        assert not pane.display
        await press(pilot, "t", "i")  # the first text-showing operator, then the preview
        assert pane.display and pane.rows
        assert len(pane.rows) == pane.content_region.height or len(pane.rows[0]) == pane.content_region.width
        assert SELECTED in colours(pane)  # its first glyph, highlighted
        whole = pane.request
        await press(pilot, "Z")
        assert pane.request[3] is not None and pane.request != whole  # zoomed to the glyph
        assert SELECTED in colours(pane)
        await press(pilot, "Z")
        assert pane.request[3] is None
        await press(pilot, "i")
        assert not pane.display


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)])
async def test_with_the_preview_open_operators_and_glyph_columns_stay_readable(size):
    """At 80x24 the open preview left the operator list six columns (numbers, no operator)
    and the glyph inspector's path eleven."""
    with pikepdf.open(KAPPA) as pdf:
        ops = [str(op) for _, op in pikepdf.parse_content_stream(pdf.pages[0])]
    app = make_app("stepper")
    async with app.run_test(size=size) as pilot:
        await press(pilot, "t", "i")
        screen = app.screen
        assert screen.query_one("#preview", PagePreview).size.width >= 20
        lines = [screen.ops.render_line(y).text.split() for y in range(len(ops))]
        assert [line[1] for line in lines] == ops
        record = screen.shown_glyphs[0]
        row = screen.query_one("#step-glyphs").render_line(0).text.split()
        assert row[0] == record.glyph.code.hex() and f"U+{ord(record.unicode):04X}" in row and record.method in row
    app = make_app("glyphs")
    async with app.run_test(size=size) as pilot:
        await press(pilot, "i")
        screen = app.screen
        assert screen.query_one("#preview", PagePreview).size.width >= 20
        table = screen.query_one("#glyph-table")
        for y, item in enumerate(screen.shown[:table.size.height]):
            if hasattr(item, "record"):
                row = table.render_line(y).text.split()
                r = item.record
                assert row[0] == r.glyph.code.hex() and f"U+{ord(r.unicode[0]):04X}" in row and r.method in row
        side = screen.query_one("#glyphs-side")
        assert not side.display or side.size.width >= 30  # the path is read in a pane, or not at all


async def test_stepping_with_the_preview_open_moves_the_boxes():
    app = make_app("stepper")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await press(pilot, "t", "i")
        first = pane_request = app.screen.query_one("#preview", PagePreview).request
        await press(pilot, "t")
        pane_request = app.screen.query_one("#preview", PagePreview).request
        if app.screen.ops.steps[app.screen.ops.cursor].glyphs:
            assert pane_request != first


async def test_glyph_inspector_shows_every_glyph_of_the_font_and_code():
    app = make_app("glyphs")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await press(pilot, "i")
        pane = app.screen.query_one("#preview", PagePreview)
        assert pane.rows
        _, _, layers, _, _ = pane.request
        drawn = {colour: len(quads) for colour, quads in layers}
        screen = app.screen
        row = screen.current
        same_font = [r for r in screen.records if r.step.font is row.font]
        same_code = [r for r in same_font if r.glyph.code == row.record.glyph.code]
        assert drawn[SELECTED] == len(same_code) == row.count
        assert drawn[OPERATOR] == len(same_font)
        assert OTHER not in drawn
        await press(pilot, "Z")  # zoomed to the code's glyphs, and back
        assert pane.request[3] is not None and SELECTED in colours(pane)
        await press(pilot, "Z")
        assert pane.request[3] is None


async def test_preview_key_is_in_help_and_none_turns_it_off():
    app = make_app("stepper", images="none")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await press(pilot, "i")
        assert not app.screen.query_one("#preview", PagePreview).display
        await press(pilot, "question_mark")
        assert isinstance(app.screen, HelpScreen)
        ids = {b.id for _where, bindings in app.screen.groups for b in bindings if hasattr(b, "id")}
        assert {"toggle-preview", "zoom-preview"} <= ids


async def test_browser_shows_image_xobjects_and_the_stepper_boxes_where_they_land(tmp_path):
    from pdfinspect.tui import start_target
    from test_render import _images_pdf

    path = tmp_path / "images.pdf"
    nums = _images_pdf(path)
    doc = Document.open(path)
    app = PdfInspectApp(doc, "", start_target(doc, nums["flate"], None))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        pane = app.screen.query_one("#preview", PagePreview)
        assert pane.display and pane.request[0] == "picture"
        assert (255, 0, 0) in colours(pane) and (0, 0, 255) in colours(pane)  # the 4×2 image's pixels
        app.show_target(start_target(doc, 1, None))  # the catalog: no image, no pane
        await settle(pilot)
        assert app.screen.query_one("#object-header").render().plain.startswith("1 0 obj")
        assert not pane.display
        app.show_target(start_target(doc, nums["dct"], None))
        await settle(pilot)
        assert pane.display and (0, 128, 0) in {tuple(round(v / 8) * 8 for v in c) for c in colours(pane)}
    app = PdfInspectApp(Document.open(path), "", None, ("stepper", 1))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await press(pilot, "i")
        while app.screen.ops.steps[app.screen.ops.cursor].op != "Do":
            await press(pilot, "n")
        pane = app.screen.query_one("#preview", PagePreview)
        _, _, layers, focus, _ = pane.request
        assert layers == ((OPERATOR, ((10.0, 10.0, 50.0, 10.0, 50.0, 30.0, 10.0, 30.0),)),)  # 40 0 0 20 10 10 cm
        assert OPERATOR in colours(pane)


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)])
async def test_an_image_its_stream_and_why_it_is_not_shown_share_the_browser(tmp_path, size):
    """At 80x24 the picture under an image's stream left the stream no line, the hex dump
    scrolled sideways, and the reason an image is not shown was cut at the pane's edge."""
    from pdfinspect.tui import start_target
    from test_render import _images_pdf

    path = tmp_path / "images.pdf"
    nums = _images_pdf(path)
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        jbig2 = pdf.make_stream(b"\0" * 64, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=8,
                                Height=8, ColorSpace=pikepdf.Name.DeviceGray, BitsPerComponent=1,
                                Filter=pikepdf.Name.JBIG2Decode)
        pdf.pages[0].Resources.XObject.J = jbig2
        pdf.save(path)
    with pikepdf.open(path) as pdf:
        jbig2 = pdf.pages[0].Resources.XObject.J.objgen[0]
    doc = Document.open(path)
    app = PdfInspectApp(doc, "", start_target(doc, nums["dct"], None))
    async with app.run_test(size=size) as pilot:
        await press(pilot)
        pane = app.screen.query_one("#preview", PagePreview)
        view = app.screen.query_one("#stream-view")
        assert pane.display and pane.rows and view.kind == "hex"
        assert view.scrollable_content_region.height >= 3 and not view.show_horizontal_scrollbar
        await press(pilot, "g", *str(jbig2), "enter")
        assert pane.display and not pane.rows and pane.message.startswith("image not shown: JBIG2Decode")
        lines = [pane.render_line(y).text.strip() for y in range(pane.size.height)]
        assert " ".join(line for line in lines if line) == pane.message


def test_preview_snapshot(snap_compare):
    async def open_preview(pilot) -> None:
        await settle(pilot)
        await press(pilot, "t", "i")

    assert snap_compare(make_app("stepper"), terminal_size=(120, 36), run_before=open_preview)


# -- sharper pictures through textual-image (kitty graphics protocol, Sixel) ---------------------
def test_images_mode_is_chosen_from_the_flag_the_terminal_and_what_is_installed(monkeypatch):
    from pdfinspect.tui import graphics

    assert graphics.choose("none")[0] == graphics.NONE
    assert graphics.choose("halfblock", tty=True)[0] == graphics.HALFBLOCK
    if graphics.installed():  # (the test extra installs textual-image)
        assert graphics.choose("kitty", tty=False)[0] == graphics.KITTY
        assert graphics.choose("sixel", tty=False)[0] == graphics.SIXEL
        how, why = graphics.choose("auto", tty=False, env={})
        assert how == graphics.HALFBLOCK and "no terminal" in why
        how, why = graphics.choose("auto", tty=True, env={"TMUX": "/tmp/tmux-0/default,1,0"})
        assert how == graphics.HALFBLOCK and "tmux" in why
        how, why = graphics.choose("auto", tty=True, env={"TEXTUAL_DRIVER": "textual.drivers.web_driver:WebDriver"})
        assert how == graphics.HALFBLOCK and "web" in why
    monkeypatch.setattr(graphics, "installed", lambda: False)
    how, why = graphics.choose("kitty", tty=True, env={})
    assert how == graphics.HALFBLOCK and "pdfinspect[images]" in why


def _needs_textual_image():
    import pytest

    pytest.importorskip("textual_image")


async def _sharp_preview(images: str, monkeypatch):
    """The stepper's preview of kappa.pdf's TJ with ``app.images`` = ``images``; returns the pane
    and what went to the terminal outside Textual (textual-image writes kitty data there)."""
    import io
    import sys

    sent = io.StringIO()
    monkeypatch.setattr(sys, "__stdout__", sent)
    app = make_app("stepper", images)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await press(pilot, "t", "i")
        pane = app.screen.query_one("#preview", PagePreview)
        assert pane.display and pane.sharp is not None and pane.rows == []
        inner = pane.sharp.children[0] if pane.sharp.children else pane.sharp
        from textual.geometry import Region

        strips = inner.render_lines(Region(0, 0, inner.size.width, inner.size.height))
        return pane, sent.getvalue(), "".join(seg.text for strip in strips for seg in strip)


async def test_kitty_preview_sends_the_boxed_picture_over_the_graphics_protocol(monkeypatch):
    import base64
    import io

    from PIL import Image

    _needs_textual_image()
    pane, sent, _ = await _sharp_preview("kitty", monkeypatch)
    # APC "_G" messages: the PNG (f=100) in base64 chunks, then a virtual placement (a=p)
    messages = [part.split("\x1b", 1)[0] for part in sent.split("\x1b_G")[1:]]
    payload = "".join(m.split(";", 1)[1] for m in messages if "f=100" in m.split(";", 1)[0])
    png = Image.open(io.BytesIO(base64.b64decode(payload))).convert("RGB")
    assert png.size == pane.picture.size and png.tobytes() == pane.picture.convert("RGB").tobytes()
    assert any(m.startswith("a=p") for m in messages)
    assert SELECTED in {colour for _, colour in png.getcolors(1 << 20)}  # the selected glyph's box, sharp


async def test_sixel_preview_draws_the_boxed_picture_as_sixels(monkeypatch):
    _needs_textual_image()
    pane, _, drawn = await _sharp_preview("sixel", monkeypatch)
    start = drawn.index("\x1bP")  # one DCS sixel sequence, between cursor moves
    assert drawn.count("\x1bP") == 1 and "\x1b\\" in drawn[start:]
    width, height = pane.picture.size
    assert f'"1;1;{width};{height}' in drawn  # raster attributes: the whole picture, unscaled
    r, g, b = (round(c * 100 / 255) for c in SELECTED)
    assert f";2;{r};{g};{b}" in drawn  # the selected box's colour is in the palette (RGB in percent)


async def test_browser_previews_the_inline_image_of_a_content_stream(tmp_path):
    """content.pdf's BI /W 8 /H 1 /BPC 8 /CS /G (bytes that hold " EI "), and an
    ASCIIHex-filtered RGB one (/F /AHx abbreviations): the pictures are their samples."""
    import pikepdf

    from pdfinspect.tui import start_target

    with pikepdf.open(sample("content.pdf")) as pdf:
        data = pdf.pages[0].obj.Contents.read_bytes()
    start = data.index(b"BI /W 8 /H 1 /BPC 8 /CS /G ID ") + len(b"BI /W 8 /H 1 /BPC 8 /CS /G ID ")
    grey = data[start:start + 8]  # the 8 samples, as pikepdf decodes the stream
    rgb = tmp_path / "inline-rgb.pdf"
    with pikepdf.new() as pdf:
        pdf.add_blank_page(page_size=(100, 100))
        pdf.pages[0].Contents = pdf.make_stream(
            b"q 20 0 0 10 0 0 cm BI /W 2 /H 1 /BPC 8 /CS /RGB /F /AHx ID ff0000 00ff00> EI Q")
        pdf.save(rgb)
    for path, expected in ((sample("content.pdf"), [(b, b, b) for b in grey]),
                           (rgb, [(255, 0, 0), (0, 255, 0)])):
        with pikepdf.open(path) as pdf:
            contents = pdf.pages[0].obj.Contents
            num = (contents[0] if isinstance(contents, pikepdf.Array) else contents).objgen[0]
        doc = Document.open(path)
        app = PdfInspectApp(doc, "", start_target(doc, num, None))
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            pane = app.screen.query_one("#preview", PagePreview)
            assert pane.display and pane.request[0] == "picture"
            image = pane.request[1].convert("RGB")
            assert image.size == (len(expected), 1) and [image.getpixel((x, 0)) for x in range(image.width)] == expected
