"""'e' in the browser: the object shown written to a file after a save prompt, by keyboard, at
every size; expected bytes come from pikepdf and Pillow."""
from __future__ import annotations

import shutil
import struct

import pikepdf
import pytest
from conftest import press, sample
from PIL import Image

from pdfinspect.core.document import Document
from pdfinspect.tui import start_target
from pdfinspect.tui.app import PdfInspectApp
from pdfinspect.tui.screens.browser import BrowserScreen
from pdfinspect.tui.screens.export import ExportScreen

SIZES = [(80, 24), (120, 40), (200, 60)]


def pfb_segments(data: bytes) -> list[bytes]:
    """The segments of a PFB file (Adobe Technical Note 5040): 0x80, type, 4-byte length, data."""
    out, i = [], 0
    while data[i:i + 2] != b"\x80\x03":
        assert data[i] == 0x80 and data[i + 1] in (1, 2)
        (n,) = struct.unpack("<I", data[i + 2:i + 6])
        out.append(data[i + 6:i + 6 + n])
        i += 6 + n
    return out


def browser_on(path, num: int) -> PdfInspectApp:
    doc = Document.open(path)
    return PdfInspectApp(doc, "", start_target(doc, num, None))


async def save_as(pilot, out) -> ExportScreen:
    """``e``, the path typed over the proposed one, Enter; returns the prompt shown."""
    await press(pilot, "e")
    screen = pilot.app.screen
    assert isinstance(screen, ExportScreen)
    await press(pilot, "ctrl+u", *str(out), "enter")
    return screen


@pytest.mark.parametrize("size", SIZES)
async def test_e_writes_the_font_program_as_pfb_beside_the_input(size, tmp_path):
    src = tmp_path / "kappa.pdf"
    shutil.copy(sample("kappa.pdf"), src)
    with pikepdf.open(src) as pdf:
        program = pdf.pages[0].Resources.Font.F4.FontDescriptor.FontFile
        num, data = program.objgen[0], program.read_bytes()
        lengths = [int(program.Length1), int(program.Length2)]
    app = browser_on(src, num)
    async with app.run_test(size=size) as pilot:
        await press(pilot, "e")
        screen = app.screen
        assert isinstance(screen, ExportScreen)
        assert f"/FontFile {num} 0 R" in str(screen.query_one("#export-what").render())
        field = screen.query_one("#export-output")
        assert field.has_focus and field.value == str(tmp_path / f"font-{num}.pfb")
        await press(pilot, "enter")  # the proposed path
        assert isinstance(app.screen, BrowserScreen)
    cleartext, binary, rest = pfb_segments((tmp_path / f"font-{num}.pfb").read_bytes())
    assert cleartext == data[:lengths[0]] and binary == data[lengths[0]:sum(lengths)]
    assert cleartext + binary + rest == data


@pytest.mark.parametrize("size", SIZES)
async def test_e_writes_a_stream_decoded_or_as_stored_as_the_view_shows_it(size, tmp_path):
    path = sample("filters.pdf")
    with pikepdf.open(path) as pdf:
        stream = pdf.get_object((9, 0))
        decoded, raw = stream.read_bytes(), stream.read_raw_bytes()
    assert decoded != raw
    app = browser_on(path, 9)
    async with app.run_test(size=size) as pilot:
        await press(pilot)
        await save_as(pilot, tmp_path / "decoded.bin")
        await press(pilot, "r")  # raw: what the view shows is what is written
        await save_as(pilot, tmp_path / "raw.bin")
    assert (tmp_path / "decoded.bin").read_bytes() == decoded
    assert (tmp_path / "raw.bin").read_bytes() == raw


async def test_e_writes_an_image_as_png(tmp_path):
    from test_render import _images_pdf

    path = tmp_path / "images.pdf"
    nums = _images_pdf(path)
    with pikepdf.open(path) as pdf:
        expected = pikepdf.PdfImage(pdf.get_object((nums["flate"], 0))).as_pil_image().convert("RGB")
    app = browser_on(path, nums["flate"])
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot)
        await save_as(pilot, tmp_path / "image.png")
    with Image.open(tmp_path / "image.png") as written:
        assert written.format == "PNG" and written.convert("RGB").tobytes() == expected.tobytes()


async def test_the_input_file_is_refused_and_escape_writes_nothing(tmp_path):
    src = tmp_path / "kappa.pdf"
    shutil.copy(sample("kappa.pdf"), src)
    original = src.read_bytes()
    app = browser_on(src, 4)
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot)
        screen = await save_as(pilot, src)
        assert app.screen is screen and "not written" in str(screen.query_one("#export-status").render())
        await press(pilot, "escape")
        assert isinstance(app.screen, BrowserScreen)
    assert src.read_bytes() == original and sorted(p.name for p in tmp_path.iterdir()) == ["kappa.pdf"]
