"""render/ and the render/extract commands: PNGs read back, bytes compared with pikepdf's."""
from __future__ import annotations

import io
import json
import subprocess
import sys
import zlib

import pikepdf
import pytest
from PIL import Image

from conftest import ROOT, sample

from pdfinspect.core.document import Document
from pdfinspect.render.boxes import OTHER
from pdfinspect.render.halfblock import cell_rows
from pdfinspect.render.image import inline_dict, picture
from pdfinspect.render.page import Page, Renderer, View, around


def run(*args, check=True, text=True):
    p = subprocess.run([sys.executable, "-m", "pdfinspect", *map(str, args)], capture_output=True,
                       text=text, cwd=ROOT)
    if check:
        assert p.returncode == 0, p.stderr
    return p


def _images_pdf(path):
    """A page drawing a Flate RGB image, a DCT image and an indexed image; /Rotate 90."""
    pdf = pikepdf.new()
    rgb = Image.new("RGB", (4, 2), (255, 0, 0))
    rgb.putpixel((1, 1), (0, 0, 255))
    flate = pdf.make_stream(zlib.compress(rgb.tobytes()), Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image,
                            Width=4, Height=2, ColorSpace=pikepdf.Name.DeviceRGB, BitsPerComponent=8,
                            Filter=pikepdf.Name.FlateDecode)
    jpeg = io.BytesIO()
    Image.new("RGB", (8, 8), (0, 128, 0)).save(jpeg, "JPEG")
    dct = pdf.make_stream(jpeg.getvalue(), Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=8,
                          Height=8, ColorSpace=pikepdf.Name.DeviceRGB, BitsPerComponent=8,
                          Filter=pikepdf.Name.DCTDecode)
    indexed = pdf.make_stream(bytes([0, 1, 1, 0]), Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image,
                              Width=2, Height=2, BitsPerComponent=8,
                              ColorSpace=[pikepdf.Name.Indexed, pikepdf.Name.DeviceRGB, 1,
                                          pikepdf.String(b"\x00\x00\x00\xff\xff\x00")])
    page = pdf.add_blank_page(page_size=(200, 100))
    page.Rotate = 90
    page.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(A=flate, B=dct, C=indexed))
    page.Contents = pdf.make_stream(b"q 40 0 0 20 10 10 cm /A Do Q q 8 0 0 8 100 50 cm /B Do Q")
    pdf.save(path)
    with pikepdf.open(path) as saved:  # numbers as written (saving renumbers)
        x = saved.pages[0].Resources.XObject
        return {"flate": x.A.objgen[0], "dct": x.B.objgen[0], "indexed": x.C.objgen[0]}


# -- the page mapping ------------------------------------------------------------------------------
@pytest.mark.parametrize("rotation, point, expected", [
    (0, (0, 100), (0, 0)), (0, (200, 0), (200, 100)),
    (90, (0, 0), (0, 0)), (90, (0, 100), (100, 0)),  # the bottom-left corner goes to the top-left
    (180, (200, 100), (0, 100)), (270, (200, 100), (0, 0)),
])
def test_display_coordinates_follow_rotate(rotation, point, expected):
    assert Page((0, 0, 200, 100), rotation).to_display(*point) == expected


def test_region_around_a_glyph_is_shaped_like_the_pane_and_stays_on_the_page():
    page = Page((0, 0, 612, 792), 0)
    l, t, r, b = around(page, (10, 780, 16, 790), (80, 40))
    assert (l, t) == (0, 0) and abs((r - l) / (b - t) - 2) < 1e-9


def test_rendering_is_cached_and_rotated(tmp_path):
    path = tmp_path / "images.pdf"
    _images_pdf(path)
    renderer = Renderer(str(path))
    view = renderer.view(0, (50, 100))
    assert view.page.size == (100, 200)  # /Rotate 90 shows the 200×100 page upright
    image = renderer.render(0, view)
    assert image.size == (50, 100) and renderer.render(0, view) is image
    # the red image XObject (user space x 10..50, y 10..30) is at the top left once rotated
    x, y = view.to_pixel(30, 20)
    assert image.getpixel((round(x), round(y)))[0] > 200 and image.getpixel((round(x), round(y)))[2] < 80


def test_pdfium_dying_or_hanging_is_a_render_error_and_the_next_call_starts_afresh(monkeypatch):
    from pdfinspect.render import page as page_module
    from pdfinspect.render.page import RenderError

    renderer = Renderer(str(sample("kappa.pdf")))
    try:
        monkeypatch.setattr(page_module, "RENDER_MEMORY", 1)  # pdfium's process cannot load pdfium
        with pytest.raises(RenderError, match="pdfium crashed on page 1"):
            renderer.page(0)
        monkeypatch.setattr(page_module, "RENDER_MEMORY", 3 * 1024 ** 3)
        monkeypatch.setattr(page_module, "RENDER_TIMEOUT", 0.0)  # no answer can come in no time
        with pytest.raises(RenderError, match="did not finish page 1"):
            renderer.page(0)
        monkeypatch.setattr(page_module, "RENDER_TIMEOUT", 60.0)
        page = renderer.page(0)
        assert renderer.render(0, View(page, (0.0, 0.0) + page.size, 0.2)).size[0] > 10
    finally:
        renderer.close()


def test_half_blocks_pair_upper_and_lower_pixels():
    image = Image.new("RGB", (2, 3), (255, 255, 255))
    image.putpixel((0, 0), (255, 0, 0))
    image.putpixel((1, 1), (0, 0, 255))
    rows = cell_rows(image)
    assert rows == [[((255, 0, 0), (255, 255, 255)), ((255, 255, 255), (0, 0, 255))],
                    [((255, 255, 255), (255, 255, 255))] * 2]


# -- render --------------------------------------------------------------------------------------
def test_render_draws_boxes_where_glyphs_json_says(tmp_path):
    f = sample("kappa.pdf")
    out = tmp_path / "page.png"
    run("render", f, "-p", 1, "-o", out, "--boxes", "all", "--scale", 2)
    glyphs = json.loads(run("glyphs", f, "--json").stdout)
    image = Image.open(out).convert("RGB")
    doc = Document.open(f)
    box = doc.resolve(doc.resolve(doc.page_ref(1)).get("MediaBox"))
    top = float(box[3])
    assert glyphs
    for g in glyphs:
        x0, y0, x1, y1 = g["bbox"]
        for px, py in (((x0 + x1) / 2, y0), ((x0 + x1) / 2, y1), (x0, (y0 + y1) / 2)):
            colour = image.getpixel((min(round(px * 2), image.width - 1), min(round((top - py) * 2), image.height - 1)))
            assert colour == OTHER, (g["index"], px, py, colour)
    # without boxes, the same spots are not box-coloured
    plain = tmp_path / "plain.png"
    run("render", f, "-o", plain, "--scale", 2)
    g = glyphs[0]
    assert Image.open(plain).convert("RGB").getpixel((round(g["bbox"][0] * 2), round((top - g["bbox"][1]) * 2))) != OTHER


def test_render_and_extract_refuse_to_write_the_input(tmp_path):
    path = tmp_path / "in.pdf"
    _images_pdf(path)
    before = path.read_bytes()
    stream = _images_pdf(tmp_path / "other.pdf")["flate"]
    for args in (("render", path, "-o", path), ("extract", path, stream, "--raw", "-o", path)):
        p = run(*args, check=False)
        assert p.returncode == 1 and "never written" in p.stderr and "Traceback" not in p.stderr
    assert path.read_bytes() == before


# -- extract -------------------------------------------------------------------------------------
def test_extract_stream_bytes_match_pikepdf(tmp_path):
    path = tmp_path / "images.pdf"
    nums = _images_pdf(path)
    with pikepdf.open(path) as pdf:
        obj = pdf.get_object(nums["flate"], 0)
        raw, decoded = obj.read_raw_bytes(), obj.read_bytes()
    run("extract", path, nums["flate"], "--raw", "-o", tmp_path / "raw.bin")
    run("extract", path, nums["flate"], "--decoded", "-o", tmp_path / "dec.bin")
    assert (tmp_path / "raw.bin").read_bytes() == raw
    assert (tmp_path / "dec.bin").read_bytes() == decoded != raw


def test_extract_images_as_png_and_jpeg_passed_through(tmp_path):
    path = tmp_path / "images.pdf"
    nums = _images_pdf(path)
    run("extract", path, nums["flate"], "-o", tmp_path / "a")
    png = Image.open(tmp_path / "a.png")
    assert png.format == "PNG" and png.size == (4, 2) and png.convert("RGB").getpixel((1, 1)) == (0, 0, 255)
    with pikepdf.open(path) as pdf:
        jpeg = pdf.get_object(nums["dct"], 0).read_raw_bytes()
    run("extract", path, nums["dct"], "-o", tmp_path / "b.jpg")  # the suffix names JPEG: as stored
    run("extract", path, nums["dct"], "-o", tmp_path / "b2")  # no suffix: the image's own
    assert (tmp_path / "b.jpg").read_bytes() == (tmp_path / "b2.jpg").read_bytes() == jpeg
    run("extract", path, nums["indexed"], "-o", tmp_path / "c.png")
    assert Image.open(tmp_path / "c.png").convert("RGB").getpixel((1, 0)) == (255, 255, 0)


def test_extract_writes_the_format_the_suffix_names_or_says_why_not(tmp_path):
    path = tmp_path / "images.pdf"
    nums = _images_pdf(path)
    run("extract", path, nums["dct"], "-o", tmp_path / "x.png")  # a JPEG asked for as PNG: converted
    png = Image.open(tmp_path / "x.png")
    assert png.format == "PNG" and png.size == (8, 8) and not (tmp_path / "x.jpg").exists()
    r, g, b = png.convert("RGB").getpixel((4, 4))
    assert g > 100 and r < 40 and b < 40
    for name, works in (("x.bmp", ".png or .jpg .jpeg (as stored)"), ("y.jpg", ".png, not .jpg")):
        num = nums["dct"] if name == "x.bmp" else nums["flate"]
        p = run("extract", path, num, "-o", tmp_path / name, check=False)
        assert p.returncode == 1 and works in p.stderr and "format-unsupported" not in p.stderr
        assert len(p.stderr.strip().splitlines()) == 1 and not (tmp_path / name).exists()
    assert sorted(f.name for f in tmp_path.iterdir()) == ["images.pdf", "x.png"]  # no temporary file left


def test_output_path_mistakes_are_one_line_errors_and_create_nothing(tmp_path):
    path = tmp_path / "images.pdf"
    nums = _images_pdf(path)
    missing = tmp_path / "no" / "such"
    cases = [("render", path, "-o", missing / "p.png"), ("render", path, "-o", tmp_path),
             ("extract", path, nums["flate"], "--raw", "-o", missing / "s.bin"),
             ("extract", path, nums["flate"], "--raw", "-o", tmp_path),
             ("extract", sample("kappa.pdf"), "--font", 5, "-o", missing),
             ("extract", sample("kappa.pdf"), "--font", 5, "-o", missing / "k.pfb")]
    for args in cases:
        p = run(*args, check=False)
        assert p.returncode == 1 and len(p.stderr.strip().splitlines()) == 1 and "Traceback" not in p.stderr, args
        assert "does not exist" in p.stderr or "is a folder" in p.stderr
    assert not (tmp_path / "no").exists() and sorted(f.name for f in tmp_path.iterdir()) == ["images.pdf"]


def test_extract_font_programs_with_their_suffix(tmp_path):
    from pdfinspect.present.export import FONT_SUFFIX

    doc = Document.open(sample("kappa.pdf"))
    font = next(f for f in _fonts(doc) if f[1])
    run("extract", sample("kappa.pdf"), "--font", font[0], "-o", tmp_path)
    (written,) = tmp_path.iterdir()
    assert written.suffix == FONT_SUFFIX[font[1]]
    if written.suffix == ".pfb":
        from fontTools.t1Lib import T1Font

        t1 = T1Font(str(written))
        t1.parse()
        assert "kappa" in t1["CharStrings"]


def _fonts(doc):
    """(font object number, its program's suffix key) for the fonts of page 1."""
    from pdfinspect.core.objects import Ref

    page = doc.resolve(doc.page_ref(1))
    fonts = doc.resolve(doc.resolve(page.get("Resources")).get("Font"))
    out = []
    for value in fonts.values():
        desc = doc.resolve(doc.resolve(value).get("FontDescriptor"))
        key = next((k for k in ("FontFile", "FontFile2", "FontFile3") if desc and k in desc), None)
        if key == "FontFile3":
            key = str(doc.resolve(desc[key]).dict.get("Subtype"))
        out.append((value.num if isinstance(value, Ref) else None, key))
    return out


def test_show_raw_into_a_pipe_writes_the_bytes():
    f = sample("filters.pdf")
    doc = Document.open(f)
    obj = doc.get(4)
    p = run("show", f, 4, "--raw", text=False)
    assert p.stdout == doc.raw_bytes(obj)


def test_inline_image_abbreviations_and_picture():
    from pdfinspect.core.objects import Dict, Name

    d = inline_dict(Dict({"W": 2, "H": 1, "BPC": 8, "CS": Name("G")}))
    assert d["ColorSpace"] == "DeviceGray" and d["Width"] == 2
    image = picture(Document.open(sample("minimal.pdf")), d, b"\x00\xff", None)
    assert image.size == (2, 1) and image.getpixel((1, 0)) == 255


# -- export from the app ------------------------------------------------------------------------
async def _export_in_app(path, num, keys, out, size=(80, 24)):
    """Open object ``num`` in the browser, press ``keys``, then ``e``, type ``out``, ctrl+s."""
    from conftest import settle
    from textual.widgets import Input

    from pdfinspect.core.document import Document
    from pdfinspect.tui import start_target
    from pdfinspect.tui.app import PdfInspectApp
    from pdfinspect.tui.screens.export import ExportScreen

    doc = Document.open(path)
    app = PdfInspectApp(doc, "", start_target(doc, num, None))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        for key in [*keys, "e"]:
            await pilot.press(key)
            await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ExportScreen)
        field = screen.query_one("#export-output", Input)
        shown = str(screen.query_one("#export-what").render())
        field.value = str(out)
        await pilot.press("ctrl+s")
        await settle(pilot)
        still_open = app.screen is screen
        status = str(screen.query_one("#export-status").render()) if still_open else ""
        return shown, status, still_open


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_export_from_the_browser_writes_decoded_raw_font_and_image(tmp_path, size):
    path = sample("filters.pdf")
    with pikepdf.open(path) as pdf:
        flate = next(o for o in pdf.objects if isinstance(o, pikepdf.Stream) and o.get("/Filter") == "/FlateDecode"
                     and o.get("/Subtype") != "/Image")
        num, decoded, raw = flate.objgen[0], flate.read_bytes(), flate.read_raw_bytes()
    shown, _, still_open = await _export_in_app(path, num, [], tmp_path / "d.bin", size)
    assert "decoded" in shown and not still_open and (tmp_path / "d.bin").read_bytes() == decoded
    shown, _, _ = await _export_in_app(path, num, ["r"], tmp_path / "r.bin", size)  # the view shows it raw
    assert "as stored" in shown and (tmp_path / "r.bin").read_bytes() == raw
    with pikepdf.open(sample("kappa.pdf")) as pdf:
        font = pdf.pages[0].Resources.Font.F4
        program = font.FontDescriptor.FontFile.read_bytes()
        fnum = font.objgen[0]
    shown, _, _ = await _export_in_app(sample("kappa.pdf"), fnum, [], tmp_path / "k.pfb", size)
    assert "font program /FontFile" in shown
    from fontTools.t1Lib import T1Font
    assert T1Font(str(tmp_path / "k.pfb")).getData().startswith(program[:64])  # segmented, same clear text
    images = tmp_path / "images.pdf"
    nums = _images_pdf(images)
    shown, _, _ = await _export_in_app(images, nums["flate"], [], tmp_path / "i.png", size)
    png = Image.open(tmp_path / "i.png")
    assert "image as PNG" in shown and png.size == (4, 2) and png.convert("RGB").getpixel((1, 1)) == (0, 0, 255)
    shown, _, _ = await _export_in_app(images, nums["dct"], [], tmp_path / "j.jpg", size)  # JPEG: as stored
    with pikepdf.open(images) as pdf:
        assert (tmp_path / "j.jpg").read_bytes() == pdf.get_object(nums["dct"], 0).read_raw_bytes()
    assert "DCTDecode image as stored" in shown


async def test_export_refuses_the_input_file_and_says_why(tmp_path):
    import shutil as sh

    path = tmp_path / "copy.pdf"
    sh.copyfile(sample("filters.pdf"), path)
    before = path.read_bytes()
    with pikepdf.open(path) as pdf:
        num = next(o.objgen[0] for o in pdf.objects if isinstance(o, pikepdf.Stream))
    _, status, still_open = await _export_in_app(path, num, [], path)
    assert still_open and "never written" in status and path.read_bytes() == before
    _, status, still_open = await _export_in_app(path, 1, [], tmp_path / "x.bin")  # the catalog
    assert still_open and not (tmp_path / "x.bin").exists()
    _, status, still_open = await _export_in_app(path, num, [], tmp_path / "no" / "x.bin")
    assert still_open and "does not exist" in status and not (tmp_path / "no").exists()


def test_a_few_bytes_claiming_a_huge_inline_image_are_refused_not_padded():
    from pdfinspect.core.document import Document
    from pdfinspect.core.objects import Dict, Name
    from pdfinspect.render.image import ImageError, inline_picture

    doc = Document.open(sample("content.pdf"))
    params = Dict({"W": 10000, "H": 5000, "BPC": 8, "CS": Name("RGB")})
    with pytest.raises(ImageError, match="needs 150,000,000 bytes"):
        inline_picture(doc, params, b"\x00" * 12, 1 << 20)
    small = inline_picture(doc, Dict({"W": 4, "H": 1, "BPC": 8, "CS": Name("G")}), b"\x00\x80", 1 << 20)
    assert small.size == (4, 1) and small.getpixel((3, 0)) == 255  # a short small image is padded


def test_render_op_boxes_are_labelled_with_operator_numbers(tmp_path):
    from pdfinspect.render.boxes import OPERATOR

    f = sample("content.pdf")
    out = tmp_path / "ops.png"
    assert "op boxes" in run("render", f, "-o", out, "--boxes", "op", "--scale", 2).stdout
    ops = [r for r in json.loads(run("ops", f, "--json").stdout) if r["text"]]
    glyphs = json.loads(run("glyphs", f, "--json").stdout)
    first = ops[0]["index"]
    x0 = min(g["bbox"][0] for g in glyphs if g["op"] == first)
    y1 = max(g["bbox"][3] for g in glyphs if g["op"] == first)
    doc = Document.open(f)
    top = float(doc.resolve(doc.resolve(doc.page_ref(1)).get("MediaBox"))[3])
    px, py = round(x0 * 2), round((top - y1) * 2)
    image = Image.open(out).convert("RGB")
    def inked(image):  # the label's strokes (antialiased: blue-dominant) just above the box's top edge
        return any(b > r + 60 for r, _, b in (image.getpixel((x, y)) for x in range(px, px + 12)
                                              for y in range(max(py - 12, 0), py - 1)))
    assert OPERATOR == (0, 120, 255) and inked(image)
    plain = tmp_path / "plain.png"
    run("render", f, "-o", plain, "--scale", 2)
    assert not inked(Image.open(plain).convert("RGB"))
