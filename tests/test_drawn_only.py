"""The interpreter's fast path (``iter_steps(..., drawn_only=True)``) against the full run: every
step it yields is the full run's step of the same index (state, glyphs, paint, diagnostics), and
no step that shows glyphs or paints is missing; the budget stops both at the same operator."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import corpus_files, sample
from pdfinspect.content.interpreter import iter_steps
from pdfinspect.content.tokenizer import QUICK
from pdfinspect.core.budget import Budget
from pdfinspect.core.document import Document

pikepdf = pytest.importorskip("pikepdf")


def _compare(doc, ref, budget_of=None) -> tuple[int, int]:
    """Both runs of page ``ref``; (steps of the full run, steps yielded by the fast path)."""
    full_budget, quick_budget = (budget_of(), budget_of()) if budget_of else (None, None)
    doc = Document.open(doc)  # one document: the fonts of both runs are the same objects
    full = list(iter_steps(doc, ref, budget=full_budget))
    quick = list(iter_steps(doc, ref, budget=quick_budget, drawn_only=True))
    by_index = {s.index: s for s in full}
    for s in quick:
        assert s == by_index[s.index], s.index
    shown = {s.index for s in quick}
    assert [s.index for s in full if (s.glyphs or s.painted) and s.index not in shown] == []
    if budget_of:
        assert quick_budget.stopped == full_budget.stopped and quick_budget.halted == full_budget.halted
    return len(full), len(quick)


# operators the fast path takes, others, and oddities it must leave to the tokenizer
VOCABULARY = [
    b"q", b"Q", b"1 0 0 1 10 20 cm", b"0.5 0 0 2 -3 4 cm", b"0 1 -1 0 300 0 cm", b"0 0 1e9 cm",
    b"0.2 0.4 0.6 rg", b"1 0 0 RG", b"0.5 g", b"1 G", b"0 0 0 1 k", b"1 0 0 0 K", b".5 w", b"1 J", b"2 j",
    b"4 M", b"1 i", b"[1 2] 0 d", b"[] 0 d", b"[3] 1.5 d",
    b"10 10 m", b"20 30 l", b"1 2 3 4 5 6 c", b"1 2 3 4 v", b"1 2 3 4 y", b"h", b"20 20 100 50 re",
    b"0 0 612 792 re", b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*", b"S", b"s", b"n", b"W", b"W*",
    b"BT /F1 12 Tf 72 700 Td (Hello) Tj ET", b"BT /F1 9 Tf 1 0 0 1 50 50 Tm [(A) -200 (B)] TJ ET",
    b"/Fm1 Do", b"/Im1 Do", b"BI /W 1 /H 1 /BPC 8 /CS /G ID \x00 EI", b"/GS1 gs", b"/CS0 cs 0.3 scn",
    b"/P0 sh", b"% a comment\n", b"1 2 m3 4 l", b"1 2 3 m", b"5 l", b"(x) w", b"0 0 1 rg 0 0 1 rg",
    b"1.2.3 w", b"123456789012345678 w", b"/Name re", b"BX 1 2 zz EX", b")", b"]", b"1 2 3 4 re",
]


def _page(tmp_path, content: bytes, annotation: bytes | None = None) -> str:
    pdf = pikepdf.new()
    font = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                                BaseFont=pikepdf.Name.Helvetica))
    form = pdf.make_stream(b"q 0 1 0 rg 0 0 50 50 re f Q BT /F1 8 Tf (in form) Tj ET 1 0 0 RG 0 0 m 5 5 l S",
                           Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form, BBox=[0, 0, 40, 40],
                           Resources=pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font)))
    image = pdf.make_stream(b"\x00", Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Image, Width=1, Height=1,
                            BitsPerComponent=8, ColorSpace=pikepdf.Name.DeviceGray)
    page = pdf.add_blank_page(page_size=(612, 792))
    page.Resources = pikepdf.Dictionary(
        Font=pikepdf.Dictionary(F1=font), XObject=pikepdf.Dictionary(Fm1=form, Im1=image),
        ExtGState=pikepdf.Dictionary(GS1=pikepdf.Dictionary(ca=0.5, LW=3)))
    page.Contents = pdf.make_stream(content)
    if annotation is not None:
        ap = pdf.make_stream(annotation, Type=pikepdf.Name.XObject, Subtype=pikepdf.Name.Form, BBox=[0, 0, 100, 100],
                             Resources=pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font)))
        page.Annots = pdf.make_indirect(pikepdf.Array([pdf.make_indirect(pikepdf.Dictionary(
            Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.Square, Rect=[100, 100, 200, 200],
            AP=pikepdf.Dictionary(N=ap)))]))
    path = tmp_path / "page.pdf"
    pdf.save(path)
    return str(path)


def _ref(path):
    return Document.open(path).page_ref(1)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(VOCABULARY), st.sampled_from([b" ", b"\n", b"\r\n", b"\x00", b"  "])),
                min_size=1, max_size=40),
       st.booleans(), st.one_of(st.none(), st.integers(1, 60)))
def test_fast_path_yields_the_full_runs_drawing_steps(tmp_path, ops, annotation, operators):
    content = b"".join(op + sep for op, sep in ops)
    path = _page(tmp_path, content, content if annotation else None)
    _compare(path, _ref(path), (lambda: Budget(operators=operators)) if operators else None)


def test_fast_path_on_vector_art_with_nesting_clips_and_text(tmp_path):
    shape = (b"q 1 0 0 1 %d %d cm 0.1 0.2 0.3 rg 0.5 w 0 0 m 4.5 0 l 6 1.5 6 3 4.5 6 c 0 6 l h f 0 0 1 RG 1 1 m 5 5 l"
             b" 1 5 l S [1 2] 0 d 1 J 2 2 4 4 re B* q 0 0 3 3 re W n 1 1 1 rg 0 0 10 10 re f Q Q")
    content = b"\n".join(shape % (x, y) for x in range(0, 300, 30) for y in range(0, 300, 30))
    content += b"\nq 0 0 1000 1000 re W n BT /F1 5 Tf 5 5 Td [(covered) -100 (text)] TJ ET Q 1 1 1 rg 0 0 50 50 re f"
    content += b"\nq 0.5 0 0 0.5 0 0 cm /Fm1 Do Q 0 0 1 rg 10 10 m 20 10 l 20 20 l f /Im1 Do"
    path = _page(tmp_path, content, b"0 0 1 rg 0 0 100 100 re f BT /F1 9 Tf (note) Tj ET")
    full, quick = _compare(path, _ref(path))
    assert quick < full / 3  # the path operators, colours and q/Q were not stepped
    for operators in (5, 17, 18, 19, 250, 1000):  # stops inside paths, before paints, in the form
        _compare(path, _ref(path), lambda: Budget(operators=operators))


def test_quick_pattern_takes_only_whole_operators_of_their_count():
    for text in (b"1 2 3 m", b"1 2 m3 4 l", b"0 0 1e9 cm", b"1 2 3 4 ref", b"B*x", b"1 rg", b"(x) w",
                 b"123456789012345678 w", b"/F1 12 Tf"):
        assert QUICK.match(text) is None, text
    m = QUICK.match(b" 0 0 m 1 1 l 2 2 4 4 re h B* Q")
    assert (m.lastgroup, m.group("pp"), m.start("s")) == ("pp", b"B*", 1)
    assert QUICK.match(b"1 2 3 4 5 6 cm 7 8 m").lastgroup == "cm"


@pytest.mark.parametrize("path", [*corpus_files(), sample("content.pdf"), sample("kappa.pdf")], ids=lambda p: p.name)
def test_fast_path_on_the_corpus(path):
    try:
        doc = Document.open(path)
    except Exception:  # noqa: BLE001  (files the corpus keeps broken or locked)
        pytest.skip("not readable")
    ref = doc.page_ref(1)
    if ref is None:
        pytest.skip("no page")
    _compare(path, ref)


def test_generated_constructors_make_the_same_frozen_objects():
    import dataclasses

    from pdfinspect.content.interpreter import Glyph, Painted, Step
    from pdfinspect.content.state import GraphicsState, TextState, maker, replace

    gs = GraphicsState(ctm=(2.0, 0.0, 0.0, 2.0, 5.0, 5.0), fill_color=(1, 0, 0), text=TextState(size=9.0))
    painted = Painted("fill", (0.0, 0.0, 1.0, 1.0), True, False, False)
    for cls, values in ((Painted, ("fill", (0.0, 0.0, 1.0, 1.0), True, False, False)),
                        (Glyph, (b"A", None, 0.5, 6.0, (1.0, 2.0), (3.0, 4.0), None, False, -20.0)),
                        (Step, (3, "f", (), (0, 1), 0, None, gs, None, None, (), None, (), (), None, None, 1, painted,
                                b"f")),
                        (GraphicsState, tuple(getattr(gs, f.name) for f in dataclasses.fields(GraphicsState)))):
        made = maker(cls)(*values)
        assert type(made) is cls and made == cls(*values) and hash(made) == hash(cls(*values))
        with pytest.raises(dataclasses.FrozenInstanceError):
            made.__setattr__(dataclasses.fields(cls)[0].name, None)
    assert replace(gs, line_width=3.0) == dataclasses.replace(gs, line_width=3.0)
    assert replace(gs.text, size=1.0) == dataclasses.replace(gs.text, size=1.0)
