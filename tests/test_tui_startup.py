"""The app's start-up: what it imports and computes before its first screen is up (issue 23:
the first screen as a user sees it, `bench/bench_tmux.py`)."""
from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import ROOT, sample, settle

from pdfinspect.core.document import Document

START_UP = """
import sys
import pdfinspect.tui.app
heavy = ("pdfinspect.tui.screens.browser", "pdfinspect.tui.screens.glyphs", "pdfinspect.tui.screens.stepper",
         "pdfinspect.tui.screens.search", "pdfinspect.tui.screens.fonts", "pdfinspect.tui.screens.structure",
         "pdfinspect.content.interpreter", "PIL", "pypdfium2", "pygments", "fontTools",
         "pdfinspect.core.check", "pdfinspect.core.signatures", "pdfminer")
print(sorted(m for m in heavy if m in sys.modules))
"""


def test_the_app_imports_only_the_first_screen():
    """Importing the app imports the overview, not the screens a key opens later (the
    browser alone pulls in the renderer, the interpreter and Pygments)."""
    p = subprocess.run([sys.executable, "-c", START_UP], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "[]"


GLYPH_SCREEN = """
import sys
import pdfinspect.tui.app, pdfinspect.tui.screens.glyphs
later = ("PIL", "pypdfium2", "fontTools", "pdfminer", "multiprocessing", "pdfinspect.fonts.shapes",
         "pdfinspect.core.structtree", "pdfinspect.extractors", "pdfinspect.core.check")
print(sorted(m for m in later if m in sys.modules))
"""


def test_the_glyph_inspector_imports_what_its_table_needs():
    """The glyph inspector's screen imports the interpreter and the resolver; Pillow and pdfium
    (the preview draws when shown), fontTools and the outlines (the cursor row's picture), the
    structure tree (its element), the emulated extractors and pdfminer.six's package (its data is
    read from its files) come later or never."""
    p = subprocess.run([sys.executable, "-c", GLYPH_SCREEN], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "[]"


def _count_summaries(monkeypatch) -> list:
    from pdfinspect.tui.screens import overview

    calls = []
    made = overview.document_summary
    monkeypatch.setattr(overview, "document_summary", lambda *a: calls.append(a) or made(*a))
    return calls


async def test_the_summary_is_computed_once(monkeypatch):
    """The overview computes its summary (a walk of the whole page tree) once at start; the
    object count, listed by another worker, is put into it, not computed again with it."""
    from pdfinspect.tui.app import PdfInspectApp

    calls = _count_summaries(monkeypatch)
    app = PdfInspectApp(Document.open(sample("pages.pdf")))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        shown = str(app.screen.query_one("#summary").render())
        assert "Pages" in shown
        assert f"{len(app.numbers):,} in use" in shown
    assert len(calls) == 1


async def test_opening_on_the_glyph_inspector_makes_no_overview(monkeypatch):
    """``--page N --glyphs`` shows the glyph inspector first: the overview is not made (nor
    its summary computed) behind it."""
    from pdfinspect.tui.app import PdfInspectApp

    calls = _count_summaries(monkeypatch)
    app = PdfInspectApp(Document.open(sample("pages.pdf")), "", None, ("glyphs", 2))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert app.current_mode == "glyphs"
        assert str(app.screen.query_one("#glyphs-header").render()).startswith("page 2  ")
        await pilot.press("o")
        await settle(pilot)
        assert app.current_mode == "overview"
    assert len(calls) == 1  # when the overview was asked for


async def test_the_glyph_inspector_does_not_list_the_objects():
    """The object numbers (0.1–0.3 s on a file of 10⁵ objects) are listed for the screens that
    show them, not while the glyph inspector starts."""
    from conftest import press

    from pdfinspect.tui.app import PdfInspectApp

    app = PdfInspectApp(Document.open(sample("pages.pdf")), "", None, ("glyphs", 1))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert app.numbers is None
        await press(pilot, "b")
        await settle(pilot)
        assert app.numbers == Document.open(sample("pages.pdf")).object_numbers()


def test_the_page_tree_walk_yields_the_first_page_before_reading_the_last():
    from pdfinspect.core.pages import declared_count, iter_page_refs

    doc = Document.open(sample("pages.pdf"))
    refs = doc.page_refs()
    fresh = Document.open(sample("pages.pdf"))
    read = []
    resolve = fresh.resolve
    fresh.resolve = lambda obj: read.append(getattr(obj, "num", None)) or resolve(obj)
    walk = iter_page_refs(fresh)
    assert next(walk) == refs[0] and refs[-1].num not in read
    assert [refs[0], *walk] == refs
    assert declared_count(doc) == len(refs)


async def test_page_text_search_starts_without_counting_the_pages():
    """The page-text search's first scan takes the pages as the page tree's walk meets them
    (the first hits come before the whole tree is read); the count it learns serves later scans."""
    from conftest import press

    from pdfinspect.tui.app import PdfInspectApp

    app = PdfInspectApp(Document.open(sample("pages.pdf")))
    fork = app.worker_doc

    def uncounted():
        doc = fork()
        doc.page_count = lambda: pytest.fail("the pages were counted before the search")
        return doc
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        app.worker_doc = uncounted
        await press(pilot, "slash", "ctrl+t", *"page 3", "enter")
        screen = app.screen
        assert [h.page for h in screen.hits] == [3]
        assert screen.page_total == app.doc.page_count()
        status = str(screen.query_one("#search-status").render())
        assert status == f"done: 1 hits in {screen.page_total} of {screen.page_total} pages"


async def test_the_footer_is_made_once_for_the_binding_changes_before_a_refresh(monkeypatch):
    """Textual's footer remakes its keys at every change of the bindings (the glyph inspector's
    start made three); the glyph inspector's once for the changes made before its queued remake
    runs, and that remake shows the screen's keys."""
    from pdfinspect.tui.app import PdfInspectApp
    from pdfinspect.tui.widgets.footer import Footer

    app = PdfInspectApp(Document.open(sample("pages.pdf")), "", None, ("glyphs", 1))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        footer = app.screen.query_one(Footer)
        made = []
        recompose = footer.recompose

        async def counted() -> None:
            made.append(1)
            await recompose()
        monkeypatch.setattr(footer, "recompose", counted)
        for _ in range(3):
            app.screen.refresh_bindings()
        await settle(pilot)
        assert len(made) == 1
        assert "Unresolved" in " ".join(str(key.render()) for key in footer.children)
