"""Annotation appearance streams and Type3 glyph procedures that show text, run by the
interpreter and marked on every step and glyph; ``--no-annots``; streamed JSON."""
from __future__ import annotations

import io
import json
import warnings

import pytest

from conftest import CORPUS
from pdfinspect.cli import main
from pdfinspect.content.interpreter import annotation_matrix, iter_steps
from pdfinspect.content.state import transform
from pdfinspect.content.textlayout import page_glyphs, page_text
from pdfinspect.core.document import Document
from pdfinspect.core.objects import Ref

pikepdf = pytest.importorskip("pikepdf")
PDFJS = CORPUS.parent / "corpus-pdfjs"
HELVETICA = dict(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica,
                 Encoding=pikepdf.Name.WinAnsiEncoding)


def _form(pdf, content: bytes, bbox, matrix=None):
    d = dict(Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form, BBox=bbox,
             Resources=pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=pdf.make_indirect(
                 pikepdf.Dictionary(**HELVETICA)))))
    if matrix is not None:
        d["Matrix"] = matrix
    return pdf.make_stream(content, **d)


def _annotated() -> tuple[bytes, dict[str, int]]:
    """A page showing 'Page', with a FreeText note (scaled 2x into its /Rect), a check box
    whose /AS picks 'Yes', a hidden and a NoView widget, and a link without appearance."""
    pdf = pikepdf.new()
    page = pdf.add_blank_page()
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=pdf.make_indirect(pikepdf.Dictionary(**HELVETICA))))
    page.Contents = pdf.make_stream(b"BT /F1 12 Tf 72 700 Td (Page) Tj ET")
    text = b"BT /F1 10 Tf 2 5 Td (%s) Tj ET"

    def annot(subtype, rect, ap=None, **extra):
        d = pikepdf.Dictionary(Type=pikepdf.Name.Annot, Subtype=pikepdf.Name(subtype), Rect=rect, **extra)
        if ap is not None:
            d.AP = pikepdf.Dictionary(N=ap)
        return pdf.make_indirect(d)

    note = annot("/FreeText", [200, 300, 300, 320], _form(pdf, text % b"Note", [0, 0, 50, 10]))
    box = annot("/Widget", [400, 300, 420, 320],
                pikepdf.Dictionary(Yes=_form(pdf, text % b"Yes", [0, 0, 20, 20]),
                                   Off=_form(pdf, text % b"Off", [0, 0, 20, 20])), AS=pikepdf.Name.Yes)
    hidden = annot("/Widget", [0, 0, 50, 50], _form(pdf, text % b"Hidden", [0, 0, 50, 50]), F=2)
    noview = annot("/Widget", [0, 0, 50, 50], _form(pdf, text % b"NoView", [0, 0, 50, 50]), F=32 | 4)
    link = annot("/Link", [0, 0, 10, 10])
    page.Annots = pdf.make_indirect(pikepdf.Array([note, box, hidden, noview, link]))
    buf = io.BytesIO()
    with warnings.catch_warnings():  # pikepdf: widgets not in an /AcroForm (readers draw them anyway)
        warnings.simplefilter("ignore")
        pdf.save(buf)  # renumbers: read the numbers back in /Annots order
    doc = Document(buf.getvalue())
    annots = doc.resolve(doc.resolve(doc.page_ref(1)).get("Annots"))
    return buf.getvalue(), dict(zip(("note", "box", "hidden", "noview"), (a.num for a in annots)))


def test_annotation_text_is_drawn_marked_and_left_out_with_no_annots():
    data, nums = _annotated()
    doc = Document(data)
    records = list(page_glyphs(doc, doc.page_ref(1)))
    by_annot = {}
    for r in records:
        key = r.step.annotation.num if r.step.annotation else None
        by_annot[key] = by_annot.get(key, "") + r.unicode
    assert by_annot == {None: "Page", nums["note"]: "Note", nums["box"]: "Yes"}
    assert "".join(r.unicode for r in page_glyphs(doc, doc.page_ref(1), annots=False)) == "Page"
    assert page_text(doc, doc.page_ref(1), annots=False) == "Page\n"
    # 12.5.5: the BBox [0 0 50 10] is scaled 2x onto the Rect [200 300 300 320]
    first = next(r for r in records if r.step.annotation and r.step.annotation.num == nums["note"])
    assert first.glyph.page_xy == pytest.approx((200 + 2 * 2, 300 + 2 * 5))
    assert first.step.depth == 1


def test_hidden_and_noview_annotations_are_not_drawn_but_reported():
    data, nums = _annotated()
    doc = Document(data)
    steps = list(iter_steps(doc, doc.page_ref(1)))
    notes = {s.annotation.num: [d.code for d in s.diagnostics] for s in steps if s.op == "" and s.annotation}
    assert notes == {nums["hidden"]: ["annot-hidden"], nums["noview"]: ["annot-hidden"]}
    assert not any(s.glyphs for s in steps if s.annotation and s.annotation.num in (nums["hidden"], nums["noview"]))


def test_annotation_matrix_maps_the_transformed_bbox_onto_the_rect():
    # a quarter turn: BBox [0 0 100 20] becomes [-20 0 0 100], then fills Rect [10 10 30 110]
    m = (0.0, 1.0, -1.0, 0.0, 0.0, 0.0)
    a = annotation_matrix((0, 0, 100, 20), m, (30, 110, 10, 10))
    corners = {transform(a, *transform(m, x, y)) for x in (0, 100) for y in (0, 20)}
    assert {(round(x, 6), round(y, 6)) for x, y in corners} == {(10, 10), (30, 10), (10, 110), (30, 110)}
    assert annotation_matrix((0, 0, 0, 0), (1, 0, 0, 1, 0, 0), (5, 5, 9, 9))[0] == 1.0  # degenerate: unscaled


def test_cli_no_annots_and_streamed_json(tmp_path, capsys):
    data, nums = _annotated()
    path = tmp_path / "annots.pdf"
    path.write_bytes(data)
    assert main(["glyphs", str(path), "--json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert {r["annotation"] for r in records} == {None, f"{nums['note']} 0 R", f"{nums['box']} 0 R"}
    assert all("charproc" in r for r in records)
    assert main(["glyphs", str(path), "--json", "--no-annots"]) == 0
    assert "".join(r["unicode"] for r in json.loads(capsys.readouterr().out)) == "Page"
    assert main(["ops", str(path), "--json"]) == 0
    ops = json.loads(capsys.readouterr().out)
    assert [o["index"] for o in ops] == list(range(len(ops)))
    assert main(["glyphs", str(path)]) == 0
    assert f"[annotation {nums['note']} 0 R]" in capsys.readouterr().out
    assert main(["text", str(path), "-p", "1", "--no-annots"]) == 0
    assert capsys.readouterr().out == "Page\n"


def test_streamed_json_is_valid_when_empty_and_across_chunks(tmp_path, capsys):
    pdf = pikepdf.new()
    page = pdf.add_blank_page()
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=pdf.make_indirect(pikepdf.Dictionary(**HELVETICA))))
    page.Contents = pdf.make_stream(b"BT /F1 1 Tf " + b"(abcdefghij) Tj " * 100 + b"ET")
    pdf.add_blank_page()
    path = tmp_path / "many.pdf"
    pdf.save(path)
    assert main(["glyphs", str(path), "--json"]) == 0
    assert [r["index"] for r in json.loads(capsys.readouterr().out)] == list(range(1000))
    assert main(["glyphs", str(path), "-p", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []


def _type3_pdf(proc: bytes, own_resources: bool = True) -> bytes:
    """A Type3 font /T whose glyph 'a' runs ``proc`` (with Helvetica as /F1 in reach)."""
    pdf = pikepdf.new()
    page = pdf.add_blank_page()
    helv = pdf.make_indirect(pikepdf.Dictionary(**HELVETICA))
    t3 = pdf.make_indirect(pikepdf.Dictionary(
        Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type3, FontBBox=[0, 0, 1000, 1000],
        FontMatrix=[0.001, 0, 0, 0.001, 0, 0], CharProcs=pikepdf.Dictionary(a=pdf.make_stream(proc)),
        Encoding=pikepdf.Dictionary(Differences=[97, pikepdf.Name.a]), FirstChar=97, LastChar=97,
        Widths=[667]))  # Helvetica's K: the glyph procedure's text runs on without gaps
    fonts = pikepdf.Dictionary(F1=helv, T=t3)
    if own_resources:
        t3.Resources = pikepdf.Dictionary(Font=fonts)
    page.Resources = pikepdf.Dictionary(Font=fonts)
    page.Contents = pdf.make_stream(b"BT /T 20 Tf 100 100 Td (aa) Tj ET")
    buf = io.BytesIO()
    pdf.save(buf)
    return buf.getvalue()


@pytest.mark.parametrize("own_resources", [True, False])
def test_type3_procedure_that_shows_text_is_followed(own_resources):
    doc = Document(_type3_pdf(b"1000 0 d0 BT /F1 1000 Tf (K) Tj ET", own_resources))
    records = list(page_glyphs(doc, doc.page_ref(1)))
    outer = [r for r in records if r.step.charproc is None]
    inner = [r for r in records if r.step.charproc is not None]
    assert [r.glyph.code for r in outer] == [b"a", b"a"] and all(r.glyph.proc_text for r in outer)
    assert [r.unicode for r in inner] == ["K", "K"]
    assert {r.step.charproc for r in inner} == {outer[0].glyph.charproc}
    # glyph space: FontMatrix × size 20 at the pen: the second K sits one advance further
    assert inner[0].glyph.page_xy == pytest.approx((100, 100))
    assert inner[1].glyph.page_xy == pytest.approx((100 + 0.667 * 20, 100))
    assert page_text(doc, doc.page_ref(1)) == "KK\n"  # the procedure's text, not twice


def test_type3_procedure_showing_its_own_font_stops_with_a_warning():
    doc = Document(_type3_pdf(b"1000 0 d0 BT /T 1 Tf (a) Tj ET"))
    steps = list(iter_steps(doc, doc.page_ref(1)))
    codes = [d.code for s in steps for d in s.diagnostics]
    assert "type3-recursive" in codes
    assert sum(len(s.glyphs) for s in steps) == 2  # the page's two glyphs only


def test_type3_procedure_drawing_only_paths_is_not_run():
    doc = Document(_type3_pdf(b"1000 0 d0 0 0 m 10 10 l S % (Tj) in a comment is no text\n"))
    steps = list(iter_steps(doc, doc.page_ref(1)))
    assert not any(s.charproc for s in steps)
    assert not any(g.proc_text for s in steps for g in s.glyphs)


def _pdfjs(name: str):
    path = PDFJS / name
    if not path.exists():
        pytest.skip(f"{name} not in corpus-pdfjs")
    return Document.open(path)


@pytest.mark.parametrize("name", ["annotation-choice-widget.pdf", "annotation-text-widget.pdf",
                                  "annotation_hidden_noview.pdf", "annotation-tx3.pdf"])
def test_pdfjs_annotation_files(name):
    doc = _pdfjs(name)
    ref = doc.page_ref(1)
    page = doc.resolve(ref)
    listed = {a.num for a in doc.resolve(page.get("Annots")) if isinstance(a, Ref)}
    records = list(page_glyphs(doc, ref))
    marked = [r for r in records if r.step.annotation is not None]
    assert marked, "some annotation text is drawn"
    for r in marked:
        annot = doc.resolve(r.step.annotation)
        assert r.step.annotation.num in listed
        assert not (int(annot.get("F") or 0) & (2 | 32)), "hidden annotations are not drawn"
    plain = list(page_glyphs(doc, ref, annots=False))
    assert [r.unicode for r in plain] == [r.unicode for r in records if r.step.annotation is None]


def test_pdfjs_type3_procedures_drawing_text():
    doc = _pdfjs("pr4922.pdf")
    records = list(page_glyphs(doc, doc.page_ref(1)))
    outer = "".join(r.unicode for r in records if r.step.charproc is None)
    inner = "".join(r.unicode for r in records if r.step.charproc is not None)
    assert outer and inner == outer  # each Type3 glyph draws its own letter in a real font
    assert page_text(doc, doc.page_ref(1)).split() == outer.split()


def test_state_rows_say_where_a_step_comes_from():
    from pdfinspect.present.content import state_rows

    data, nums = _annotated()
    doc = Document(data)
    step = next(s for s in iter_steps(doc, doc.page_ref(1)) if s.glyphs and s.annotation)
    assert f"(annotation {nums['note']} 0 R)" in state_rows(step)[0].value
    doc = Document(_type3_pdf(b"1000 0 d0 BT /F1 1000 Tf (K) Tj ET"))
    step = next(s for s in iter_steps(doc, doc.page_ref(1)) if s.charproc)
    assert f"in Type3 glyph procedure {step.charproc}" in state_rows(step)[0].value
