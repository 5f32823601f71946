"""Hidden text: a page built here for every reason id of content/visibility.py, and the
ordinary TeX and office files reporting nothing."""
from __future__ import annotations

import bisect
import io
from types import SimpleNamespace

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from conftest import corpus_file, corpus_files, sample
from pdfinspect.content.visibility import REASONS, page_visibility
from pdfinspect.core.document import Document

pikepdf = pytest.importorskip("pikepdf")
HELVETICA = dict(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica)


def page_pdf(content: bytes, *, crop=None, gstates=None, xobjects=None) -> Document:
    """A one-page document drawing ``content`` with Helvetica as /F1."""
    pdf = pikepdf.new()
    page = pdf.add_blank_page(page_size=(612, 792))
    res = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=pdf.make_indirect(pikepdf.Dictionary(**HELVETICA))))
    if gstates:
        res.ExtGState = pikepdf.Dictionary({"/" + k: pikepdf.Dictionary(v) for k, v in gstates.items()})
    if xobjects:
        res.XObject = pikepdf.Dictionary({"/" + k: v(pdf) for k, v in xobjects.items()})
    page.Resources = res
    if crop:
        page.CropBox = pikepdf.Array(crop)
    page.Contents = pdf.make_stream(content)
    buf = io.BytesIO()
    pdf.save(buf)
    return Document(buf.getvalue())


def hidden(content: bytes, **kw) -> dict[str, tuple[str, ...]]:
    """Text of each glyph → its reasons (the last glyph with that text wins)."""
    doc = page_pdf(content, **kw)
    records, vis = page_visibility(doc, doc.page_ref(1))
    return {r.unicode: v.reasons for r, v in zip(records, vis)}


SHOWN = b"BT /F1 12 Tf 72 700 Td (A) Tj ET "


@pytest.mark.parametrize("content, reason, kw", [
    (b"BT /F1 12 Tf 3 Tr 72 600 Td (B) Tj ET", "invisible_mode", {}),
    (b"BT /F1 12 Tf 7 Tr 72 600 Td (B) Tj ET", "invisible_mode", {}),
    (b"q 0 0 100 100 re W n BT /F1 12 Tf 72 600 Td (B) Tj ET Q", "clipped", {}),
    (b"q 10 10 m 100 10 l 50 100 l h W n BT /F1 12 Tf 300 600 Td (B) Tj ET Q", "clipped", {}),
    (b"BT /F1 12 Tf 72 900 Td (B) Tj ET", "off_page", {}),
    (b"BT /F1 12 Tf 72 600 Td (B) Tj ET", "off_page", {"crop": [0, 650, 612, 792]}),
    (b"q /G0 gs BT /F1 12 Tf 72 600 Td (B) Tj ET Q", "transparent", {"gstates": {"G0": {"/ca": 0}}}),
    (b"BT /F1 0.5 Tf 72 600 Td (B) Tj ET", "tiny", {}),
    (b"q 0.1 0 0 0.1 0 0 cm BT /F1 8 Tf 720 6000 Td (B) Tj ET Q", "tiny", {}),
    (b"BT 1 1 1 rg /F1 12 Tf 72 600 Td (B) Tj ET", "same_color_as_background", {}),
    (b"0 0 1 rg 50 550 200 100 re f BT 0 0 1 rg /F1 12 Tf 72 600 Td (B) Tj ET", "same_color_as_background", {}),
    (b"BT /F1 12 Tf 72 600 Td (B) Tj ET 1 1 1 rg 60 590 100 30 re f", "covered", {}),
    (b"BT /F1 12 Tf 72 600 Td (B) Tj ET q 100 0 0 30 60 590 cm /Im0 Do Q", "covered",
     {"xobjects": {"Im0": lambda pdf: pdf.make_stream(b"\x80", Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image,
                                                      Width=1, Height=1, ColorSpace=pikepdf.Name.DeviceGray,
                                                      BitsPerComponent=8)}}),
    (b"BT /F1 12 Tf 72 600 Td (B) Tj ET BT /F1 12 Tf 72.5 600 Td (B) Tj ET", "duplicate", {}),
])
def test_each_reason_on_a_page_built_for_it(content, reason, kw):
    got = hidden(SHOWN + content, **kw)
    assert got["A"] == ()  # the control glyph is seen
    assert reason in got["B"], got


def test_every_reason_id_has_a_test_page():
    ids = {"invisible_mode", "clipped", "off_page", "transparent", "tiny", "same_color_as_background", "covered",
           "duplicate", "optional_content_off", "draws_nothing"}
    # optional_content_off: tests/test_optional_content.py; draws_nothing: tests/test_blank_glyphs.py
    assert set(REASONS) == ids


@pytest.mark.parametrize("content", [
    b"q 0 0 612 792 re W n BT /F1 12 Tf 72 600 Td (B) Tj ET Q",  # a clip around the page
    b"BT /F1 12 Tf 72 600 Td (B) Tj ET BT /F1 12 Tf 85 600 Td (B) Tj ET",  # the same letter, one em on
    b"0.9 g 50 550 200 100 re f BT 0 g /F1 12 Tf 72 600 Td (B) Tj ET",  # dark on a grey box
    b"BT /F1 12 Tf 72 600 Td (B) Tj ET 1 1 1 rg 60 590 5 30 re f",  # a fill beside it, not over it
    b"BT /F1 12 Tf 72 600 Td (B) Tj ET q /G0 gs 1 1 1 rg 60 590 100 30 re f Q",  # a half-transparent cover
    b"1 1 1 rg 50 550 200 100 re f BT 0 0 0 rg 2 Tr /F1 12 Tf 72 600 Td (B) Tj ET",
    b"q 50 550 200 100 re W n /Sh0 sh Q BT 1 1 1 rg /F1 12 Tf 72 600 Td (B) Tj ET",  # white on a shading
    b"0 0 1 rg 50 550 m 250 550 l 250 650 l 50 650 l h f BT 1 1 1 rg /F1 12 Tf 72 600 Td (B) Tj ET",  # on a path
])
def test_seen_text_has_no_reason(content):
    got = hidden(SHOWN + content, gstates={"G0": {"/ca": 0.5}})
    assert got["B"] == ()


def test_a_form_bbox_clips():
    form = lambda pdf: pdf.make_stream(b"BT /F1 12 Tf 5 5 Td (B) Tj ET BT /F1 12 Tf 200 5 Td (C) Tj ET",
                                       Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form, BBox=[0, 0, 100, 50],
                                       Resources=pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=pikepdf.Dictionary(**HELVETICA))))
    got = hidden(SHOWN + b"q 1 0 0 1 72 600 cm /Fm0 Do Q", xobjects={"Fm0": form})
    assert got["B"] == () and got["C"] == ("clipped",)


@pytest.mark.parametrize("path", [sample("kappa.pdf"), sample("content.pdf"), sample("cid-identity.pdf")],
                         ids=lambda p: p.name)
def test_samples_report_nothing(path):
    doc = Document.open(path)
    for n in range(1, doc.page_count() + 1):
        _, vis = page_visibility(doc, doc.page_ref(n))
        assert all(v.visible for v in vis)


ORDINARY = ["pdflatex-cm-builtin-notounicode.pdf", "gs-ps2pdf-base14-czech.pdf", "libreoffice-ru-el-ja-tagged-pdfa2b.pdf",
            "platex-dvipdfmx-ja-ipa-cidtype2.pdf", "latex-dvips-pk300-type3.pdf"]


@pytest.mark.parametrize("name", ORDINARY)
def test_ordinary_tex_and_office_files_report_nothing(name):
    path = corpus_file(name)
    doc = Document.open(path)
    for n in range(1, min(doc.page_count(), 5) + 1):
        _, vis = page_visibility(doc, doc.page_ref(n))
        assert [v for v in vis if not v.visible] == []


def test_hidden_command_lists_runs_with_page_reasons_and_box(tmp_path, capsys):
    import json

    from pdfinspect.cli.main import main

    pdf = pikepdf.new()
    for text in (b"(Shown) Tj 3 Tr 0 -14 Td (Not shown) Tj", b"(Shown too) Tj"):
        page = pdf.add_blank_page(page_size=(612, 792))
        page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=pdf.make_indirect(pikepdf.Dictionary(**HELVETICA))))
        page.Contents = pdf.make_stream(b"BT /F1 12 Tf 72 700 Td " + text + b" ET")
    path = tmp_path / "two.pdf"
    pdf.save(path)
    assert main(["hidden", str(path), "--json"]) == 0
    (run,) = json.loads(capsys.readouterr().out)
    assert run["page"] == 1 and run["text"] == "Not shown" and run["reasons"] == ["invisible_mode"]
    assert run["bbox"][0] == 72 and 680 < run["bbox"][1] < 690 and run["glyphs"] == [5, 13]
    assert main(["hidden", str(path), "-p", "2"]) == 0
    assert capsys.readouterr().out == ""
    assert main(["hidden", str(path), "-p", "1-2"]) == 0
    assert capsys.readouterr().out.splitlines()[1].strip() == "Not shown"


def _group(paint: bytes):
    return lambda pdf: pdf.make_stream(paint, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form,
                                       BBox=[0, 0, 612, 792],
                                       Group=pikepdf.Dictionary(S=pikepdf.Name.Transparency))


@pytest.mark.parametrize("gstate, reasons", [
    ({"/BM": pikepdf.Name.Multiply}, ()),  # composited by a blend mode: what it does to the text is not modelled
    ({"/ca": 0.5}, ()),  # composited translucently: likewise, and it covers nothing
    ({"/BM": pikepdf.Name.Normal}, ("same_color_as_background", "covered")),  # an opaque group over it
])
def test_a_transparency_group_composited_later_leaves_the_background_unknown(gstate, reasons):
    white_on_white = b"BT 1 1 1 rg /F1 12 Tf 72 600 Td (B) Tj ET "
    got = hidden(SHOWN + white_on_white + b"q /G0 gs /Fm0 Do Q", gstates={"G0": gstate},
                 xobjects={"Fm0": _group(b"1 0.5 0 rg 0 0 612 792 re f")})
    assert got["B"] == reasons
    # without the group over it, the same text is white on the white page
    assert hidden(SHOWN + white_on_white)["B"] == ("same_color_as_background",)


def _reference_background_and_cover(records, reasons, order, paints, crop):
    """``_background_and_cover`` as it was with one 64 pt grid (every paint of the centre's
    cell looked at), kept to check the grids of several sizes against."""
    from pdfinspect.content.visibility import EDGE, REACH, WHITE, _PaintIndex, _center, _inside, _overlaps, _rgb, _same

    index = _PaintIndex(paints, crop or (-REACH, -REACH, REACH, REACH))
    for r, why, before in zip(records, reasons, order):
        if why:
            continue
        color = _rgb(r.step.gstate, fill=r.step.gstate.text.render not in (1, 5))
        x, y = _center(r)
        here = index.at(x, y)
        split = bisect.bisect_left(here, before)
        background = None
        if color is not None:
            background = WHITE
            for i in reversed(here[:split]):
                if _inside(x, y, paints[i][0].rect):
                    background = paints[i][1]
                    break
        box = r.bbox.rect if r.bbox is not None else (x, y, x, y)
        if background is not None and _same(color, background) and not any(
                paints[i][0].composited and _overlaps(paints[i][0].rect, box) for i in here[split:]):
            why.append("same_color_as_background")
        for i in here[split:]:
            p, rect = paints[i][0], paints[i][0].rect
            if p.exact and p.opaque and (rect[0] <= box[0] + EDGE and rect[1] <= box[1] + EDGE
                                         and rect[2] >= box[2] - EDGE and rect[3] >= box[3] - EDGE):
                why.append("covered")
                break


_coord = st.one_of(st.floats(-700, 1400, allow_nan=False),
                   st.sampled_from([0.0, 7.9, 8.0, 63.9, 64.0, 64.1, 127.99, 128.0, 612.0, 792.0, -0.1, 5000.0]))
WHITE_RGB = (1.0, 1.0, 1.0)
_size = st.one_of(st.floats(0.01, 12), st.floats(0, 3000), st.just(0.3))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_coord, _coord, _size, _size, st.booleans(), st.booleans(), st.booleans(),
                          st.sampled_from([WHITE_RGB, (0.0, 0.0, 0.0), None])), max_size=60),
       st.lists(st.tuples(_coord, _coord, st.floats(0.05, 20), st.floats(0.05, 20), st.integers(0, 60),
                          st.sampled_from([(1,), (0,), (1, 1, 1)])), min_size=1, max_size=30),
       st.sampled_from([(0.0, 0.0, 612.0, 792.0), None, (100.0, 100.0, 300.0, 200.0)]))
# a paint within EDGE of a glyph but past the edge of its centre's 64 pt cell: not a cover
@example([(64.0, 0.0, 6.0, 100.0, True, True, False, None)], [(63.7, 10.0, 0.2, 0.2, 0, (1,))],
         (0.0, 0.0, 612.0, 792.0))
# the last of three paints under the centre, of three sizes, gives the background
@example([(0.0, 0.0, 600.0, 700.0, True, True, False, (0.0, 0.0, 0.0)),
          (10.0, 10.0, 30.0, 30.0, True, True, False, WHITE_RGB), (12.0, 12.0, 2.0, 2.0, False, True, False, None)],
         [(12.5, 12.5, 0.5, 0.5, 3, (1,)), (20.0, 20.0, 1.0, 1.0, 3, (1,)), (100.0, 100.0, 1.0, 1.0, 3, (0,))], None)
def test_paint_grids_find_what_one_grid_found(paint_specs, glyph_specs, crop):
    """Backgrounds and covers from the grids of several sizes equal those the single 64 pt grid
    gave, for paints of every size, on and off the page, and glyphs near cell edges."""
    from pdfinspect.content.interpreter import Painted
    from pdfinspect.content.state import GraphicsState
    from pdfinspect.content.visibility import _background_and_cover

    paints = [(Painted("fill", (x, y, x + w, y + h), exact, opaque, composited), rgb)
              for x, y, w, h, exact, opaque, composited, rgb in paint_specs]
    records, order = [], []
    for x, y, w, h, before, color in glyph_specs:
        gs = GraphicsState(fill_color=color, fill_space="DeviceRGB" if len(color) == 3 else "DeviceGray")
        box = SimpleNamespace(rect=(x, y, x + w, y + h), center=(x + w / 2, y + h / 2))
        records.append(SimpleNamespace(step=SimpleNamespace(gstate=gs), bbox=box))
        order.append(min(before, len(paints)))
    ours, theirs = [[] for _ in records], [[] for _ in records]
    _background_and_cover(records, ours, order, paints, crop)
    _reference_background_and_cover(records, theirs, order, paints, crop)
    assert ours == theirs


@pytest.mark.parametrize("content", [
    b"0 0 1 rg 50 550 200 100 re f BT 0 0 1 rg /F1 12 Tf 72 600 Td (B) Tj ET",  # a paint before, recorded
    b"BT /F1 12 Tf 72 600 Td (B) Tj ET 1 1 1 rg 60 590 100 30 re f",  # after the last glyph step
    b"1 0 0 rg 60 590 100 30 re f BT 1 0 0 rg /F1 12 Tf 72 600 Td (B) Tj ET 1 1 1 rg 60 590 10 30 re f "
    b"q 0 0 1 RG 2 w 1 0 0 1 5 5 cm 0 1 0 rg 70 595 20 20 re B Q BT /F1 12 Tf 75 600 Td (C) Tj ET",
    b"q 0.5 g 0 0 612 792 re f Q BT 0.5 g /F1 12 Tf 72 600 Td (B) Tj ET 0.5 g 10 10 m 600 10 l 300 700 l f",
])
def test_paints_recorded_by_the_interpreter_give_what_their_steps_give(content):
    """page_visibility has most paints recorded (``paints=``) instead of yielded as steps: same verdicts."""
    from pdfinspect.content.textlayout import page_steps
    from pdfinspect.content.visibility import page_box, visibility

    doc = page_pdf(SHOWN + content)
    ref = doc.page_ref(1)
    records, vis = page_visibility(doc, ref)
    records_stepped, vis_stepped = visibility(page_steps(doc, ref), page_box(doc, ref))
    assert [r.unicode for r in records] == [r.unicode for r in records_stepped]
    assert vis == vis_stepped
    assert any(v.reasons for v in vis)
