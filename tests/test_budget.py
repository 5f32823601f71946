"""The interpretation budget (core/budget.py): fan-out of forms and Type3 procedures, glyphs,
the font scan and the decoded bytes of a whole command are bounded, each stop one line."""
from __future__ import annotations

import importlib.util
import subprocess
import sys
import zlib

import pytest

from conftest import ROOT, SAMPLES
from pdfinspect.content.fontreports import font_reports
from pdfinspect.content.interpreter import iter_steps
from pdfinspect.core.budget import Budget, Limits
from pdfinspect.core.document import Document

_spec = importlib.util.spec_from_file_location("make_samples", SAMPLES / "make_samples.py")
make_samples = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_samples)
stream = make_samples.stream


def fanout(levels: int = 5, width: int = 6) -> bytes:
    """Form i draws form i+1 ``width`` times: no cycle, width**levels runs of the last."""
    b = make_samples.Builder()
    make_samples.skeleton(b, resources=b"/XObject << /X 10 0 R >>")
    b.obj(4, stream(b"", b"/X Do"))
    for i in range(levels):
        last = i == levels - 1
        res = b"/Font << /F1 5 0 R >>" if last else b"/XObject << /X %d 0 R >>" % (11 + i)
        body = b"BT /F1 12 Tf (x) Tj ET" if last else b" ".join([b"/X Do"] * width)
        b.obj(10 + i, stream(b"/Type /XObject /Subtype /Form /BBox [0 0 9 9] /Resources << %s >>" % res, body))
    b.obj(5, make_samples.HELVETICA)
    b.xref_table(b"/Root 1 0 R")
    return b.getvalue()


def type3_fanout(levels: int = 5, width: int = 6) -> bytes:
    """Type3 font i's glyph procedure shows ``width`` glyphs of font i+1."""
    b = make_samples.Builder()
    make_samples.skeleton(b, resources=b"/Font << /T 20 0 R >>")
    b.obj(4, stream(b"", b"BT /T 12 Tf (" + b"a" * width + b") Tj ET"))
    for i in range(levels):
        font, proc, last = 20 + 2 * i, 21 + 2 * i, i == levels - 1
        body = b"0 0 m 1 1 l S" if last else b"BT /T 1 Tf (" + b"a" * width + b") Tj ET"
        b.obj(proc, stream(b"", b"1000 0 d0 " + body))
        res = b"" if last else b"/Resources << /Font << /T %d 0 R >> >>" % (font + 2)
        b.obj(font, b"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0] "
                    b"/CharProcs << /a %d 0 R >> /Encoding << /Differences [97 /a] >> /FirstChar 97 "
                    b"/LastChar 97 /Widths [1000] %s >>" % (proc, res))
    b.xref_table(b"/Root 1 0 R")
    return b.getvalue()


def spent(doc) -> list[str]:
    return [d.message for d in doc.diagnostics if d.code == "budget-spent"]


def test_form_fan_out_is_bounded_by_invocations_not_only_by_depth():
    doc = Document(fanout(), limits=Limits(invocations=100))
    steps = list(iter_steps(doc, doc.page_ref(1)))
    assert sum(1 for s in steps if s.op == "Do") <= 101 * 6
    assert "invocation budget (100) ran out" in spent(doc)[0]
    assert steps[-1].diagnostics[-1].code == "budget-spent"
    whole = Document(fanout())  # the default limits let 6**4 runs through
    assert sum(1 for s in iter_steps(whole, whole.page_ref(1)) if s.op == "Tj") == 6 ** 4
    assert not spent(whole)


def test_type3_procedure_fan_out_is_bounded():
    doc = Document(type3_fanout(), limits=Limits(invocations=50))
    list(iter_steps(doc, doc.page_ref(1)))
    assert "invocation budget (50)" in spent(doc)[0]


def test_operators_and_glyphs_are_bounded_and_a_callers_budget_reports_nothing_itself():
    doc = Document(fanout())
    budget = Budget(operators=40)
    assert len([s for s in iter_steps(doc, doc.page_ref(1), budget=budget) if s.op]) == 40
    assert budget.stopped.startswith("stopped: the operator budget (40) ran out") and not spent(doc)
    glyphs = Document(type3_fanout(levels=1, width=500), limits=Limits(glyphs=100))
    shown = sum(len(s.glyphs) for s in iter_steps(glyphs, glyphs.page_ref(1)))
    assert shown == 100 and "glyph budget (100)" in spent(glyphs)[0]


def test_the_font_scan_stops_at_the_same_budget():
    doc = Document(fanout(levels=6), limits=Limits(invocations=30))
    reports = font_reports(doc)
    assert [r.font.base_font for r in reports] == ["Helvetica"]
    assert "invocation budget (30)" in spent(doc)[0]


def test_a_commands_decoded_bytes_are_bounded_all_streams_together():
    b = make_samples.Builder()
    make_samples.skeleton(b)
    b.obj(4, stream(b"", b""))
    bomb = zlib.compress(b"\0" * 1_000_000)
    for i in range(10):
        b.obj(10 + i, stream(b"/Filter /FlateDecode", bomb))
    b.xref_table(b"/Root 1 0 R")
    doc = Document(b.getvalue(), limits=Limits(decoded_bytes=3_500_000))
    results = [doc.stream_data(doc.get(10 + i)) for i in range(10)]
    assert [len(r.data) for r in results[:3]] == [1_000_000] * 3
    assert len(results[3].data) == 500_000 and "decoded byte (all streams together) budget" in results[3].error
    assert all(not r.data for r in results[4:])


def test_budget_multiplies_the_limits_on_the_command_line(tmp_path):
    path = tmp_path / "fanout.pdf"
    path.write_bytes(fanout(levels=6, width=10))  # 100,000 runs of the last form: past the default
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    run = [sys.executable, "-m", "pdfinspect", "text", str(path), "--budget", "0.001"]
    p = subprocess.run(run, capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 0 and "Traceback" not in p.stderr
    lines = [line for line in p.stderr.splitlines() if "budget" in line]
    assert len(lines) == 1 and "invocation budget (10)" in lines[0] and "--budget N" in lines[0]


def test_a_bfrange_destination_longer_than_512_bytes_is_cut():
    from pdfinspect.fonts.cmap import parse_cmap

    cmap = parse_cmap(b"1 begincodespacerange <00> <FF> endcodespacerange 1 beginbfrange <00> <FF> <"
                      + b"0041" * 32000 + b"> endbfrange endcmap")
    text, entry = cmap.lookup_unicode(b"\x02")
    assert len(entry.dest) == 512 and text == "A" * 255 + "C"
    assert "cmap-dest-too-long" in {d.code for d in cmap.diagnostics}


def test_a_whole_document_command_stops_at_the_page_budget(tmp_path):
    pikepdf = pytest.importorskip("pikepdf")
    pdf = pikepdf.new()
    font = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                                BaseFont=pikepdf.Name.Helvetica))
    for n in range(1, 6):
        page = pdf.add_blank_page()
        page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font))
        page.Contents = pdf.make_stream(b"BT /F1 12 Tf 10 10 Td (page %d) Tj ET" % n)
    path = tmp_path / "five.pdf"
    pdf.save(path)
    from pdfinspect.core.budget import PAGES

    factor = str(2 / PAGES)  # a budget of two pages
    run = lambda *a: subprocess.run([sys.executable, "-m", "pdfinspect", *a], capture_output=True, text=True,
                                    cwd=ROOT, timeout=120)
    p = run("text", str(path), "--budget", factor)
    assert p.returncode == 0 and p.stdout.split("\f")[:2] == ["page 1\n", "page 2\n"] and "page 3" not in p.stdout
    assert "page budget (2) ran out before page 3 of 5" in p.stderr
    assert "page 5" in run("text", str(path)).stdout  # the default budget reads them all
    fonts = run("fonts", str(path), "--budget", factor)
    assert "page budget (2) ran out" in fonts.stderr
