"""Glyph boxes (content.geometry): the spec's construction on built files, and pdfium's loose
character boxes on a fixed subset of the corpora (bench/bench_preview.py --agree runs them all)."""
from __future__ import annotations

import io
import json
import math
from pathlib import Path

import pikepdf
import pytest

from pdfinspect.cli import main
from pdfinspect.content.textlayout import page_glyphs
from pdfinspect.core.document import Document

from conftest import CORPUS, ROOT, sample

PDFJS = ROOT.parent / "shared" / "corpus-pdfjs"


def _doc(content: bytes, font=None, descriptor: dict | None = None) -> Document:
    """One page showing ``content`` with /F1: Helvetica, or ``font(pdf)``'s dictionary."""
    pdf = pikepdf.new()
    fd = font(pdf) if font else dict(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica)
    if descriptor is not None:
        fd = dict(fd, FirstChar=65, LastChar=66, Widths=[500, 600],
                  FontDescriptor=pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.FontDescriptor,
                                                                      **descriptor)))
    page = pdf.add_blank_page()
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=pdf.make_indirect(pikepdf.Dictionary(**fd))))
    page.Contents = pdf.make_stream(content)
    buf = io.BytesIO()
    pdf.save(buf)
    return Document(buf.getvalue())


def _boxes(doc: Document):
    return [r.bbox for r in page_glyphs(doc, doc.page_ref(1))]


def _close(a, b, tol=1e-6):
    return all(abs(x - y) < tol for x, y in zip(a, b, strict=True))


DESC = dict(FontName=pikepdf.Name("/Test"), Flags=32, FontBBox=[-100, -300, 1000, 1000],
            Ascent=700, Descent=-200, ItalicAngle=0, CapHeight=700, StemV=80)


def test_box_is_advance_width_by_ascent_and_descent_through_size_rise_and_tz():
    # A: w0 500, size 10, Tz 50 → 2.5 wide; rise 3 lifts it; ascent 700/descent -200 → 7 up, 2 down
    doc = _doc(b"BT /F1 10 Tf 50 Tz 3 Ts 100 200 Td (AB) Tj ET", descriptor=DESC)
    a, b = _boxes(doc)
    assert _close(a.rect, (100, 201, 102.5, 210))
    assert _close(b.rect, (102.5, 201, 105.5, 210))  # B: w0 600 → 3 wide, starts where A ends


def test_box_follows_the_ctm_and_a_rotated_text_matrix():
    doc = _doc(b"2 0 0 2 10 20 cm BT /F1 10 Tf 0 1 -1 0 100 200 Tm (A) Tj ET", descriptor=DESC)
    (box,) = _boxes(doc)
    # in user space the baseline runs up from (100, 200): 5 long, the em from x 107 (descent) to 93
    assert _close(box.user_rect, (93, 200, 102, 205))
    assert _close(box.rect, (196, 420, 214, 430))
    assert _close(box.page[:2], (214, 420))  # the quad starts at the descent below the origin


@pytest.mark.parametrize("descriptor, expected", [
    (dict(DESC, Descent=200), (-2, 7)),  # a positive /Descent is negated
    (dict(DESC, Ascent=1200, FontBBox=[0, -100, 1000, 900]), (-1, 9)),  # kept within /FontBBox
    (dict(DESC, Ascent=9.46, Descent=-2.73), (-3, 10)),  # in the wrong units: /FontBBox instead
    (dict(DESC, Ascent=0, Descent=0), (-3, 10)),
])
def test_vertical_extent_from_the_descriptor(descriptor, expected):
    doc = _doc(b"BT /F1 10 Tf 0 0 Td (A) Tj ET", descriptor=descriptor)
    (box,) = _boxes(doc)
    assert _close((box.rect[1], box.rect[3]), expected)


def test_standard_font_without_descriptor_uses_its_afm_bbox():
    (box,) = _boxes(_doc(b"BT /F1 10 Tf 0 0 Td (H) Tj ET"))
    assert _close(box.rect, (0, -2.25, 7.22, 9.31))  # Helvetica: H is 722 wide, FontBBox y -225..931


def test_type3_box_goes_through_the_font_matrix():
    proc = b"50 0 0 0 40 60 d1 0 0 40 60 re f"

    def font(pdf):
        return dict(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type3, FontBBox=[0, -10, 40, 60],
                    FontMatrix=[0.01, 0, 0, 0.01, 0, 0], FirstChar=97, LastChar=97, Widths=[50],
                    Encoding=pikepdf.Dictionary(Differences=[97, pikepdf.Name.a]),
                    CharProcs=pikepdf.Dictionary(a=pdf.make_stream(proc)))
    (box,) = _boxes(_doc(b"BT /F1 2 Tf 10 10 Td (a) Tj ET", font=font))
    # glyph space x 0..50, y -10..60, × 0.01 × size 2 → 1 wide, from 0.2 below to 1.2 above
    assert _close(box.rect, (10, 9.8, 11, 11.2))


def test_type3_without_a_font_bbox_takes_each_glyph_s_d1_box():
    def font(pdf):
        return dict(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type3, FontBBox=[0, 0, 0, 0],
                    FontMatrix=[0.01, 0, 0, 0.01, 0, 0], FirstChar=97, LastChar=98, Widths=[50, 50],
                    Encoding=pikepdf.Dictionary(Differences=[97, pikepdf.Name.a, pikepdf.Name.b]),
                    CharProcs=pikepdf.Dictionary(a=pdf.make_stream(b"50 0 0 -20 40 30 d1 0 -20 40 50 re f"),
                                                 b=pdf.make_stream(b"50 0 d0")))
    a, b = _boxes(_doc(b"BT /F1 2 Tf 10 10 Td (ab) Tj ET", font=font))
    assert _close(a.rect, (10, 9.6, 11, 10.6))  # d1's lly -20 and ury 30, × 0.01 × size 2
    assert _close(b.rect, (11, 9.6, 12, 11.6))  # d0 gives no box: 0.8 em up, 0.2 em down (size 2)


def test_vertical_writing_hangs_the_box_below_the_pen(tmp_path):
    from test_interpreter import _vertical_pdf

    path = tmp_path / "vertical.pdf"
    _vertical_pdf(path)
    records = list(page_glyphs(Document.open(path), Document.open(path).page_ref(1)))
    last = records[-1]  # CID 1: no /W2 entry: v = (w0/2, DW2[0] = 880), w0 = 1 em (DW)
    x, y = last.glyph.user_xy
    assert _close(last.bbox.user_rect, (x - 10, y - 20, x + 10, y), 1e-6)  # size 20, em 880 + 120 below
    first = records[0]  # CID 843: /W2 gives v = (500, 880)
    x, y = first.glyph.user_xy
    assert _close(first.bbox.user_rect[::2], (x - 10, x + 10))


def test_glyphs_json_has_the_boxes(capsys):
    assert main(["glyphs", str(sample("kappa.pdf")), "--json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert records and all(len(r["bbox"]) == 4 and len(r["quad"]) == 8 for r in records)
    for r in records:
        x0, y0, x1, y1 = r["bbox"]
        assert x0 <= r["x"] <= x1 and y0 <= r["y"] <= y1  # the origin sits on the box's baseline


# -- beside pdfium ---------------------------------------------------------------------------------
# Type1, standard 14, CIDType2 (vertical too), OpenType, TrueType with a positive /Descent and
# with /Ascent above /FontBBox, Type3 bitmaps, a predefined CMap.
SUBSET = [CORPUS / n for n in ("pdflatex-cm-tounicode.pdf", "gs-ps2pdf-base14-czech.pdf",
                               "platex-dvipdfmx-ja-ipa-cidtype2.pdf", "uplatex-dvipdfmx-ja-noto-tounicode.pdf",
                               "latex-dvips-pk300-type3.pdf")] + \
         [PDFJS / n for n in ("pdkids.pdf", "issue16263.pdf", "TrueType_without_cmap.pdf", "90ms_rksj_h_sample.pdf")]


def test_centres_agree_with_pdfium_loose_boxes():
    from pdfinspect.render.crosscheck import compare, open_pdfium

    files = [p for p in SUBSET if p.exists()]
    if not files:
        pytest.skip("corpora not available")
    pairs = within = 0
    for path in files:
        doc = Document.open(path)
        c = compare(page_glyphs(doc, doc.page_ref(1)), open_pdfium(str(path))[0])
        assert len(c.pairs) >= 0.8 * min(c.ours, c.theirs), path.name  # the alignment found them
        pairs += len(c.pairs)
        within += c.within(1.0)
    assert pairs > 1000
    assert within / pairs >= 0.98
