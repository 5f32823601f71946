"""Gaps between glyphs, their causes, directions and lines (content/gaps.py), on pages built here."""
from __future__ import annotations

import pytest

from pdfinspect.content.gaps import CAUSES, glyph_layouts
from pdfinspect.content.textlayout import page_glyphs
from test_visibility import page_pdf

pikepdf = pytest.importorskip("pikepdf")


def layouts(content: bytes, **kw):
    doc = page_pdf(content, **kw)
    records = list(page_glyphs(doc, doc.page_ref(1)))
    return records, glyph_layouts(records)


def gap_before(content: bytes, text: str, **kw):
    records, lays = layouts(content, **kw)
    return next(lay for r, lay in zip(records, lays) if r.unicode == text)


def test_tj_number_is_the_gap_in_thousandths_of_an_em():
    lay = gap_before(b"BT /F1 10 Tf 72 700 Td [(A) -110 (B)] TJ ET", "B")
    assert lay.gap.causes == ("tj_adjust",) and lay.gap.tj == -110
    assert lay.gap.along_em == pytest.approx(0.11) and lay.gap.along_pt == pytest.approx(1.1)
    assert lay.gap.across_em == pytest.approx(0) and lay.gap.em_pt == pytest.approx(10)


def test_plain_advance_has_no_gap():
    lay = gap_before(b"BT /F1 10 Tf 72 700 Td (AB) Tj ET", "B")
    assert lay.gap.causes == ("advance",) and lay.gap.along_pt == pytest.approx(0, abs=1e-9)


@pytest.mark.parametrize("content, cause, em", [
    (b"BT /F1 10 Tf 2 Tc 72 700 Td (AB) Tj ET", "char_spacing", 0.2),
    (b"BT /F1 10 Tf 5 Tw 72 700 Td (A B) Tj ET", "word_spacing", 0.5),
])
def test_spacing_causes_and_their_share(content, cause, em):
    lay = gap_before(content, "B")
    assert cause in lay.gap.causes and lay.gap.part(cause) == pytest.approx(em)


def test_horizontal_scaling_is_named_with_what_it_scales():
    lay = gap_before(b"BT /F1 10 Tf 50 Tz 72 700 Td [(A) -200 (B)] TJ ET", "B")
    assert lay.gap.causes == ("tj_adjust", "horizontal_scaling") and lay.gap.along_em == pytest.approx(0.1)


@pytest.mark.parametrize("content, cause", [
    (b"BT /F1 10 Tf 72 700 Td (A) Tj 30 0 Td (B) Tj ET", "text_move"),
    (b"BT /F1 10 Tf 72 700 Td (A) Tj ET BT /F1 10 Tf 100 700 Td (B) Tj ET", "new_bt"),
    (b"BT /F1 10 Tf 72 700 Td (A) Tj 2 Ts (B) Tj ET", "text_rise"),
])
def test_positioning_causes(content, cause):
    assert cause in gap_before(content, "B").gap.causes


def test_form_boundary():
    form = lambda pdf: pdf.make_stream(b"BT /F1 10 Tf 0 0 Td (B) Tj ET", Type=pikepdf.Name.XObject,
                                       Subtype=pikepdf.Name.Form, BBox=[0, 0, 100, 50])
    lay = gap_before(b"BT /F1 10 Tf 72 700 Td (A) Tj ET q 1 0 0 1 80 700 cm /Fm0 Do Q", "B",
                     xobjects={"Fm0": form})
    assert "form_boundary" in lay.gap.causes


def test_every_cause_is_described():
    assert {"advance", "tj_adjust", "char_spacing", "word_spacing", "horizontal_scaling", "text_move", "new_bt",
            "form_boundary", "annotation_boundary"} <= set(CAUSES)


def test_rotated_text_glyph_by_glyph_stays_one_line():
    # "Property" drawn upwards one glyph per Tm, as rotated table headers are
    xs = b"".join(b"0 1 -1 0 300 %d Tm (%s) Tj " % (500 + 6 * k, bytes([c])) for k, c in enumerate(b"Property"))
    records, lays = layouts(b"BT /F1 10 Tf " + xs + b"ET")
    assert {lay.direction for lay in lays} == {"rotated"} and {lay.angle for lay in lays} == {90.0}
    assert len({lay.line for lay in lays}) == 1


def test_lines_and_direction():
    records, lays = layouts(b"BT /F1 10 Tf 72 700 Td (AB) Tj 0 -12 Td (CD) Tj ET")
    assert [lay.line for lay in lays] == [0, 0, 1, 1]
    assert [lay.starts_line for lay in lays] == [True, False, True, False]
    assert {lay.direction for lay in lays} == {"ltr"}
