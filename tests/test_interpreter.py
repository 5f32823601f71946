"""The content interpreter against independent readers: operator sequences from pikepdf
(qpdf's content parser), glyph positions and advances from ``mutool trace`` (MuPDF)."""
from __future__ import annotations

import io
import re
import shutil
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import corpus_file, corpus_files, sample
from pdfinspect.content.interpreter import iter_steps
from pdfinspect.content.state import IDENTITY, multiply, transform
from pdfinspect.core.document import Document

pikepdf = pytest.importorskip("pikepdf")
needs_mutool = pytest.mark.skipif(shutil.which("mutool") is None, reason="mutool absent")
_G = re.compile(r'<g unicode="[^"]*" glyph="[^"]*" x="([-\d.]+)" y="([-\d.]+)" adv="([-\d.]+)"')


def _trace(path, page=1) -> list[tuple[float, float, float]]:
    out = subprocess.run(["mutool", "trace", str(path), str(page)], capture_output=True, text=True).stdout
    return [tuple(float(v) for v in m) for m in _G.findall(out)]


def test_matrix_product_follows_the_row_vector_convention():
    # 8.3.4: [x' y' 1] = [x y 1] × M; scaling then translating moves the scaled point.
    scale, move = (2, 0, 0, 3, 0, 0), (1, 0, 0, 1, 10, 20)
    assert transform(multiply(scale, move), 1, 1) == (12, 23)
    assert multiply(IDENTITY, move) == move


@pytest.mark.parametrize("path", [p for p in corpus_files() if not p.name.startswith(("damaged", "qpdf-aes-256-u"))],
                         ids=lambda p: p.name)
def test_operators_match_qpdf_content_parser(path):
    doc = Document.open(path)
    ours = [s.op for s in iter_steps(doc, doc.page_ref(1)) if s.depth == 0 and s.op]
    with pikepdf.open(path) as pdf:
        theirs = [str(i.operator) for i in pikepdf.parse_content_stream(pdf.pages[0])]
    assert [o for o in ours if o != "BI"] == [o for o in theirs if o not in ("INLINE IMAGE",)]


@needs_mutool
@pytest.mark.parametrize("name", ["pdflatex-cm-builtin-notounicode.pdf", "gs-ps2pdf-base14-czech.pdf",
                                  "latex-dvips-pk300-type3.pdf", "libreoffice-ru-el-ja-tagged-pdfa2b.pdf",
                                  "platex-dvipdfmx-ja-ipa-cidtype2.pdf"])
def test_glyph_advances_match_mupdf(name):
    """Widths from /Widths, /W + /DW and Type3 /FontMatrix, against MuPDF's advances."""
    path = corpus_file(name)
    doc = Document.open(path)
    ours = [g for s in iter_steps(doc, doc.page_ref(1)) for g in s.glyphs]
    theirs = _trace(path)
    assert len(ours) == len(theirs)
    for g, (_x, _y, adv) in zip(ours, theirs):
        assert abs(g.width - adv) < 2e-3


@needs_mutool
def test_positions_with_tj_kerning_spacing_and_scaling_match_mupdf():
    path = sample("content.pdf")
    doc = Document.open(path)
    ours = [g.user_xy for s in iter_steps(doc, doc.page_ref(1)) for g in s.glyphs]  # trace: before the CTM
    theirs = _trace(path)
    assert len(ours) == len(theirs) > 100
    for (x, y), (tx, ty, _adv) in zip(ours, theirs):
        assert abs(x - tx) < 0.01 and abs(y - ty) < 0.01


def test_forms_recurse_with_depth_and_cycles_are_cut():
    path = sample("content.pdf")
    doc = Document.open(path)
    steps = list(iter_steps(doc, doc.page_ref(1)))
    with pikepdf.open(path) as pdf:
        xobjects = pdf.pages[0].Resources.XObject
        form_ref = xobjects.Fm1.objgen
        loop_ref = xobjects.Loop.objgen
        form_ops = [str(i.operator) for i in pikepdf.parse_content_stream(xobjects.Fm1)]
    inner = [s for s in steps if s.source is not None and (s.source.num, s.source.gen) == form_ref]
    assert [s.op for s in inner] == form_ops and {s.depth for s in inner} == {1}
    do = steps[inner[0].index - 1]
    assert do.op == "Do" and do.depth == 0
    # the form runs under the CTM in force at Do, then the state comes back
    assert inner[0].gstate.ctm[4:] == do.gstate.ctm[4:]
    assert steps[inner[-1].index + 1].gstate.ctm == do.gstate.ctm or steps[inner[-1].index + 1].op == "Q"
    loop = [s for s in steps if s.source is not None and (s.source.num, s.source.gen) == loop_ref]
    assert len(loop) == 1 and any(d.code == "form-cycle" for d in loop[0].diagnostics)


def test_marked_content_carries_actual_text_and_mcid():
    doc = Document.open(sample("content.pdf"))
    shown = [s for s in iter_steps(doc, doc.page_ref(1)) if s.glyphs and s.marked]
    with pikepdf.open(sample("content.pdf")) as pdf:
        bdcs = [i.operands for i in pikepdf.parse_content_stream(pdf.pages[0]) if str(i.operator) == "BDC"]
    inline = next(props for _tag, props in bdcs if isinstance(props, pikepdf.Dictionary))
    first = shown[0].marked[-1]
    assert first.actual_text == str(inline.ActualText) and first.mcid == int(inline.MCID)


def test_unknown_operators_and_compat_sections_are_reported_not_fatal():
    doc = Document.open(sample("content.pdf"))
    codes = {d.code for s in iter_steps(doc, doc.page_ref(1)) for d in s.diagnostics}
    assert {"operator-unknown", "operator-unknown-compat"} <= codes


def _with_content(data: bytes) -> Document:
    pdf = pikepdf.new()
    page = pdf.add_blank_page()
    font = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                                BaseFont=pikepdf.Name.Helvetica))
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font), XObject=pikepdf.Dictionary())
    form = pdf.make_stream(b"/F1 9 Tf (x) Tj /X Do")
    form.Type, form.Subtype, form.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, [0, 0, 10, 10]
    form.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(X=form))
    page.Resources.XObject.X = form
    page.Contents = pdf.make_stream(data)
    buf = io.BytesIO()
    pdf.save(buf)
    return Document(buf.getvalue())


SEED = (b"q 1 0 0 1 5 5 cm BT /F1 12 Tf 1 Tc 2 Tw 90 Tz 14 TL 10 700 Td [(AB) -50 (C )] TJ T* (d) ' "
        b"1 2 (e) \" 0 0 1 rg /P <</MCID 0 /ActualText (z)>> BDC ET EMC /X Do Q BI /W 1 /H 1 ID \x00 EI")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(SEED)), st.integers(0, 8), st.binary(max_size=6)), max_size=6))
def test_interpreter_never_raises_on_mutated_content(edits):
    data = bytearray(SEED)
    for pos, cut, insert in edits:
        data[pos:pos + cut] = insert
    doc = _with_content(bytes(data))
    for step in iter_steps(doc, doc.page_ref(1)):
        assert step.depth <= 12


def _vertical_pdf(path):
    """A Type0 font with Identity-V, /DW2 and /W2 in both forms (9.7.4.3)."""
    import pikepdf

    pdf = pikepdf.new()
    cidfont = pdf.make_indirect(pikepdf.Dictionary(
        Type=pikepdf.Name.Font, Subtype=pikepdf.Name.CIDFontType0, BaseFont=pikepdf.Name("/Ryumin-Light"),
        CIDSystemInfo=pikepdf.Dictionary(Registry=pikepdf.String("Adobe"), Ordering=pikepdf.String("Japan1"),
                                         Supplement=2),
        FontDescriptor=pdf.make_indirect(pikepdf.Dictionary(
            Type=pikepdf.Name.FontDescriptor, FontName=pikepdf.Name("/Ryumin-Light"), Flags=4,
            FontBBox=[0, -200, 1000, 900], ItalicAngle=0, Ascent=880, Descent=-120, CapHeight=700,
            StemV=80)),
        DW2=[880, -1000], W2=[843, [-500, 500, 880, -700, 500, 880], 900, 910, -300, 500, 880]))
    font = pdf.make_indirect(pikepdf.Dictionary(
        Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type0, BaseFont=pikepdf.Name("/Ryumin-Light-Identity-V"),
        Encoding=pikepdf.Name("/Identity-V"), DescendantFonts=[cidfont]))
    content = b"BT /F1 20 Tf 300 700 Td <034b034c0384038e0001> Tj ET"
    page = pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=[0, 0, 612, 792],
                              Resources=pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font)),
                              Contents=pdf.make_stream(content))
    pdf.pages.append(pikepdf.Page(page))
    pdf.save(path)


def test_vertical_advances_come_from_w2_then_dw2(tmp_path):
    path = tmp_path / "vertical.pdf"
    _vertical_pdf(path)
    doc = Document.open(path)
    glyphs = [g for s in iter_steps(doc, doc.page_ref(1)) for g in s.glyphs]
    assert [g.cid for g in glyphs] == [843, 844, 900, 910, 1]
    ys = [g.user_xy[1] for g in glyphs]
    # w1y per CID: 843 → -500, 844 → -700, 900..910 → -300, CID 1 → /DW2 -1000; size 20
    assert [round(b - a, 6) for a, b in zip(ys, ys[1:])] == [-10.0, -14.0, -6.0, -6.0]


@needs_mutool
def test_vertical_positions_match_mupdf(tmp_path):
    path = tmp_path / "vertical.pdf"
    _vertical_pdf(path)
    doc = Document.open(path)
    ours = [g.user_xy[1] for s in iter_steps(doc, doc.page_ref(1)) for g in s.glyphs]
    theirs = [y for _x, y, _adv in _trace(path)]
    assert len(ours) == len(theirs) == 5
    # MuPDF reports the glyph origin (pen minus the position vector v, the same v_y = 880 for
    # every glyph here), we report the pen: compare the steps between glyphs.
    for (a0, a1), (b0, b1) in zip(zip(ours, ours[1:]), zip(theirs, theirs[1:])):
        assert abs((a1 - a0) - (b1 - b0)) < 0.01


def test_each_step_carries_the_content_its_span_indexes():
    """The page's and each form's decoded content travel with the steps (the stepper shows the
    operator's line from it instead of decoding again)."""
    doc = Document.open(sample("content.pdf"))
    steps = [s for s in iter_steps(doc, doc.page_ref(1)) if s.op]
    assert {s.depth for s in steps} >= {0, 1}  # the page and its form
    for s in steps:
        text = s.content[s.span[0]:s.span[1]].rstrip()
        op = s.op.encode("latin-1")  # the operator ends its span (an inline image's span begins with BI)
        assert text.endswith(op) or (op == b"BI" and text.startswith(op) and text.endswith(b"EI")), (s.op, text)
    forms = {s.source for s in steps if s.depth == 1}
    for s in steps:
        if s.source in forms:
            assert s.content == doc.stream_data(doc.get(s.source.num).value).data
