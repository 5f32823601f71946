"""What is in this file: identity, structure, repairs, and entry points to follow."""
from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Static

from pdfinspect.core.objects import Ref
from pdfinspect.present.summary import WARN, diagnostic_parts, document_summary
from pdfinspect.present.text import safe_line

from ..messages import TRAILER_REF, ObjectRequested, Target
from ..widgets.line_view import LineView, RefList
from ..widgets.parts import styled

_STYLES = {"error": "bold red", "warning": "yellow", "info": "dim", "code": "bold", "where": "dim",
           "repair": "green"}


def summary(doc, numbers: list[int] | None) -> Text:
    """The facts block of the overview (:func:`pdfinspect.present.summary.document_summary`);
    ``numbers`` are the in-use object numbers (``None`` while a worker lists them)."""
    facts = document_summary(doc, numbers)
    t = Text()
    for fact in facts.facts:
        t.append(f"{fact.label:<14}", style="bold")
        t.append(fact.value + "\n", style="bold yellow" if fact.role == WARN else "")
    for line in facts.security:
        t.append(f"{'':<14}{line}\n")
    t.rstrip()
    return t


def diagnostics_text(doc) -> Text:
    t = Text()
    if not doc.diagnostics:
        t.append("No damage found while opening.", style="dim")
        return t
    for d in doc.diagnostics:
        t.append_text(styled(diagnostic_parts(d), _STYLES))
        t.append("\n")
    return t


def entry_points(app) -> list[tuple[Content, Ref | None, str | None]]:
    """Trailer, catalog, info, pages, first page and its fonts, encryption dictionary."""
    doc = app.doc
    items: list[tuple[Content, Ref | None, str | None]] = [(Content("trailer"), TRAILER_REF, None)]

    def add(label: str, ref, key: str) -> None:
        if isinstance(ref, Ref):
            items.append((Content.assemble(f"{label:<16}", (f"{ref.num} {ref.gen} R", "$text-accent")), ref, key))

    add("Catalog /Root", doc.trailer.get("Root"), "/Root")
    add("Info", doc.trailer.get("Info"), "/Info")
    add("Encrypt", doc.trailer.get("Encrypt"), "/Encrypt")
    add("Pages", doc.catalog.get("Pages"), "/Pages")
    add("Page 1", doc.page_ref(1), "/Kids")
    fonts = app.fonts_target(1)
    if fonts is not None:
        add("Fonts of page 1", fonts.ref, "/Font")
    for key in ("Outlines", "AcroForm", "Names", "StructTreeRoot", "Metadata"):
        add(key, doc.catalog.get(key), "/" + key)
    return items


class OverviewScreen(Screen):
    """The first screen: ``enter`` on an entry point opens it in the browser."""

    def compose(self) -> ComposeResult:
        with Horizontal():
            with VerticalScroll(id="overview-facts"):
                yield Static("Overview", classes="panel-title")
                yield Static(id="summary", markup=False)
                yield Static("Repairs and diagnostics", classes="panel-title")
                yield Static(id="diagnostics", markup=False)
            with Vertical(id="overview-entries"):
                yield Static("Entry points", classes="panel-title")
                yield RefList(id="entry-points")
        yield Footer()

    def on_mount(self) -> None:
        doc = self.app.doc
        self.show_summary()
        try:
            items = entry_points(self.app)
        except Exception as e:  # keep the screen up whatever the core did
            items = [(Content(f"error: {safe_line(str(e))}").stylize("$text-error"), None, None)]
        self.app.numbers_ready.subscribe(self, self.on_numbers_ready)
        self.query_one("#diagnostics", Static).update(diagnostics_text(doc))
        self.query_one("#entry-points", RefList).set_items(items)
        self.query_one("#entry-points").focus()

    def on_numbers_ready(self, _) -> None:
        self.show_summary()

    def show_summary(self) -> None:
        try:
            text = summary(self.app.doc, self.app.numbers)
        except Exception as e:  # keep the screen up whatever the core did
            text = Text(f"error: {safe_line(str(e))}", style="red")
        self.query_one("#summary", Static).update(text)

    def on_screen_resume(self) -> None:
        # repairs can be found lazily after opening (objects parsed since)
        self.query_one("#diagnostics", Static).update(diagnostics_text(self.app.doc))

    def on_line_view_followed(self, event: LineView.Followed) -> None:
        event.stop()
        self.post_message(ObjectRequested(Target.of(event.ref, None, event.key)))
