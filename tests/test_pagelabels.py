"""Page labels (ISO 32000-1 12.4.2): ``pages`` lists them, ``-p`` accepts them."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from pdfinspect.core.document import Document
from pdfinspect.core.pagelabels import letters, page_label, page_labels, roman

pikepdf = pytest.importorskip("pikepdf")


def _cli(*argv) -> subprocess.CompletedProcess:
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-m", "pdfinspect", *map(str, argv)], capture_output=True, text=True,
                          env=env, timeout=300)


@pytest.fixture(scope="module")
def labelled(tmp_path_factory):
    """30 pages like a book: i–xxiii, then 1–4, then A-2… (a prefix and /St), each page
    showing its physical number; the label "Z" is given to two pages (an ambiguous label)."""
    path = tmp_path_factory.mktemp("labels") / "book.pdf"
    pdf = pikepdf.Pdf.new()
    font = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                                BaseFont=pikepdf.Name.Helvetica))
    for n in range(1, 33):
        pdf.add_blank_page()
        page = pdf.pages[-1]
        page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font))
        page.Contents = pdf.make_stream(f"BT /F1 12 Tf 72 720 Td (physical {n}) Tj ET".encode())
    D = pikepdf.Name.D
    pdf.Root.PageLabels = pikepdf.Dictionary(Kids=pikepdf.Array([pdf.make_indirect(pikepdf.Dictionary(Nums=pikepdf.Array([
        0, pikepdf.Dictionary(S=pikepdf.Name.r), 23, pikepdf.Dictionary(S=D),
        27, pikepdf.Dictionary(S=D, P=pikepdf.String("A-"), St=2),
        30, pikepdf.Dictionary(P=pikepdf.String("Z")), 31, pikepdf.Dictionary(P=pikepdf.String("Z"))])))]))
    pdf.save(path)
    return path


def test_label_styles():
    assert [roman(n) for n in (1, 4, 9, 14, 23, 1994)] == ["i", "iv", "ix", "xiv", "xxiii", "mcmxciv"]
    assert [letters(n) for n in (1, 26, 27, 53)] == ["a", "z", "aa", "aaa"]


def test_labels_of_every_page(labelled):
    with Document.open(labelled) as doc:
        labels = page_labels(doc)
    assert labels[:3] == ["i", "ii", "iii"] and labels[22] == "xxiii"
    assert labels[23:27] == ["1", "2", "3", "4"]
    assert labels[27:30] == ["A-2", "A-3", "A-4"] and labels[30:] == ["Z", "Z"]


def test_one_label_without_walking_the_page_tree(labelled, monkeypatch):
    """``page_label`` (the app's page names) gives each page's label as ``page_labels`` does,
    without counting the pages (a walk of the whole page tree)."""
    with Document.open(labelled) as doc:
        labels = page_labels(doc)
    with Document.open(labelled) as doc:
        monkeypatch.setattr(doc, "page_count", lambda: pytest.fail("the page tree was walked"))
        assert [page_label(doc, i) for i in range(len(labels))] == labels
    minimal = ROOT / "sample_pdfs" / "minimal.pdf"
    with Document.open(minimal) as doc:
        assert page_label(doc, 0) is None


def test_pages_lists_labels(labelled):
    lines = _cli("pages", labelled).stdout.splitlines()
    assert lines[13].split()[:2] == ["14", "xiv"] and lines[23].split()[:2] == ["24", "1"]
    rec = json.loads(_cli("pages", labelled, "--json").stdout)
    assert rec[28] == {"page": 29, "label": "A-3", "ref": rec[28]["ref"]}


@pytest.mark.parametrize("spec, physical", [("xiv", 14), ("A-3", 29), ("3", 3), ("label:3", 26), ("label:xiv", 14)])
def test_p_accepts_a_label(labelled, spec, physical):
    r = _cli("text", labelled, "-p", spec)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == f"physical {physical}"


def test_p_label_errors(labelled):
    r = _cli("text", labelled, "-p", "Z")
    assert r.returncode == 1 and "names pages 31, 32" in r.stderr
    r = _cli("text", labelled, "-p", "nope")
    assert r.returncode == 1 and "no page labelled 'nope'" in r.stderr
    r = _cli("text", labelled, "-p", "99")
    assert r.returncode == 1 and "no page 99" in r.stderr


async def test_the_app_names_pages_by_number_and_label(labelled):
    from conftest import press

    from pdfinspect.tui.app import PdfInspectApp

    app = PdfInspectApp(Document.open(labelled), "", None, ("stepper", 14))
    async with app.run_test(size=(80, 24)) as pilot:
        await press(pilot)
        assert str(app.screen.query_one("#stepper-header").render()).startswith("page 14 (xiv)  ")
        await press(pilot, "y")
        assert str(app.screen.query_one("#glyphs-header").render()).startswith("page 14 (xiv)  ")
    assert app.page_name(2) == "page 2 (ii)"
    assert app.page_name(25) == "page 25 (2)"


def test_the_app_names_one_page_without_walking_the_page_tree(labelled, monkeypatch):
    """The stepper's and glyph inspector's header name their page on the UI thread: by its
    label alone (source3.pdf: 0.4 s to count 1,611 pages otherwise)."""
    from pdfinspect.tui.app import PdfInspectApp

    doc = Document.open(labelled)
    monkeypatch.setattr(doc, "page_count", lambda: pytest.fail("the page tree was walked to name one page"))
    assert PdfInspectApp(doc).page_name(30) == "page 30 (A-4)"


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_go_to_prompt_accepts_a_label(labelled, size):
    """``g p xiv`` goes to the page labelled xiv, by the rule ``-p`` follows (``pages_named``)."""
    from conftest import press

    from pdfinspect.tui.app import PdfInspectApp

    doc = Document.open(labelled)
    refs = doc.page_refs()
    app = PdfInspectApp(doc, "")
    async with app.run_test(size=size) as pilot:
        for spec, physical in (("xiv", 14), ("A-3", 29), ("label:3", 26), ("3", 3)):
            await press(pilot, "g", "p", "space", *spec, "enter")
            ref = refs[physical - 1]
            assert str(app.screen.query_one("#object-header").render()).startswith(f"{ref.num} {ref.gen} obj"), spec
        await press(pilot, "g", "p", "space", "Z", "enter")
        assert any("names pages 31, 32" in n.message for n in app._notifications)
        await press(pilot, "g", "p", "space", *"nope", "enter")
        assert any("no page labelled 'nope'" in n.message for n in app._notifications)
        await press(pilot, "y", "p", *"xxiii", "enter")  # the glyph inspector's page prompt reads labels too
        assert app.current_mode == "glyphs" and app.screen.page == 23


SOURCE3 = Path("/usr/share/doc/texlive-doc/latex/l3kernel/source3.pdf")  # Debian texlive-latex-base-doc
needs_source3 = pytest.mark.skipif(not SOURCE3.exists(), reason="source3.pdf (texlive-latex-base-doc) not installed")


@needs_source3
def test_source3_labels_on_the_real_file():
    """l3kernel's source3.pdf: 1,611 pages labelled i–xxiii, then 1…1588. ``-p 1503`` is the
    1503rd page (its running head reads "Index 1480"), ``-p label:1503`` the page a viewer
    numbers 1503 (the 1526th)."""
    rec = json.loads(_cli("pages", SOURCE3, "--json").stdout)
    assert len(rec) == 1611
    assert [r["label"] for r in rec[:23]] == [roman(n) for n in range(1, 24)]
    assert [r["label"] for r in rec[23:25]] == ["1", "2"] and rec[-1]["label"] == "1588"
    assert rec[1502]["label"] == "1480" and rec[1525]["label"] == "1503"

    def text(spec: str) -> str:
        r = _cli("text", SOURCE3, "-p", spec)
        assert r.returncode == 0, r.stderr
        return r.stdout

    assert text("1503").startswith("Index 1480\n")
    assert text("label:1503").startswith("Index 1503\n") and text("label:1503") == text("1526")
    assert text("xiv") == text("14")
    r = _cli("text", SOURCE3, "-p", "xxiv")
    assert r.returncode == 1 and "no page labelled 'xxiv'" in r.stderr


@needs_source3
async def test_source3_go_to_a_label_in_the_app():
    from conftest import press

    from pdfinspect.tui.app import PdfInspectApp

    doc = Document.open(SOURCE3)
    refs = doc.page_refs()
    app = PdfInspectApp(doc, "")
    async with app.run_test(size=(80, 24)) as pilot:
        for spec, physical in (("xiv", 14), ("1503", 1503), ("label:1503", 1526)):
            await press(pilot, "g", "p", "space", *spec, "enter")
            ref = refs[physical - 1]
            assert str(app.screen.query_one("#object-header").render()).startswith(f"{ref.num} {ref.gen} obj"), spec
    assert app.page_name(14) == "page 14 (xiv)" and app.page_name(1526) == "page 1526 (1503)"


def test_page_option_of_the_app_takes_a_label(labelled, monkeypatch):
    """``pdfinspect FILE --page xiv --glyphs`` opens the app at the page labelled xiv."""
    import pdfinspect.tui
    from pdfinspect.cli.main import main

    opened = []
    monkeypatch.setattr(pdfinspect.tui, "run_app", lambda path, **kw: opened.append(kw["page"]) or 0)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert main([str(labelled), "--page", "xiv", "--glyphs"]) == 0
    assert main([str(labelled), "--page", "label:3", "--step"]) == 0
    assert main([str(labelled), "--page", "3"]) == 0
    assert opened == [14, 26, 3]
    r = _cli(labelled, "--page", "nope")
    assert r.returncode == 1 and "no page labelled 'nope'" in r.stderr
