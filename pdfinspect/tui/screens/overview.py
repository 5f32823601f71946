"""What is in this file: identity, structure, repairs, and entry points to follow.

The screen paints before the summary is computed: the summary (which walks the whole page
tree to count pages) is made in a worker over a Document of its own and shown when ready.
"""
from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Static
from textual.worker import get_current_worker

from pdfinspect.core.objects import Ref
from pdfinspect.present.goto import OFFSET, GoTo
from pdfinspect.present.summary import WARN, Summary, check_rows, diagnostic_parts, document_summary, with_objects
from pdfinspect.present.text import safe_line

from ..failures import Cancelled, ReportsFailures
from ..messages import TRAILER_REF, ObjectRequested, Target
from ..widgets.column_list import WrappedList
from ..widgets.line_view import LineView, RefList, note
from ..widgets.parts import styled

if TYPE_CHECKING:  # the whole-file check runs when asked (x)
    from pdfinspect.core.check import CheckReport

_STYLES = {"error": "bold red", "warning": "yellow", "info": "dim", "code": "bold", "where": "dim",
           "repair": "green"}


LABEL = 14  # the width of the facts' label column


def fact_row(t: Text, label: str, value: str, style: str = "", width: int = 0) -> None:
    """``label`` and ``value`` as a row of ``t``, the value wrapped under itself to fit ``width``
    cells (0: not wrapped), not back under the label."""
    t.append(f"{label:<{LABEL}}", style="bold")
    lines = textwrap.wrap(value, width - LABEL) if width > 2 * LABEL else [value]
    t.append(("\n" + " " * LABEL).join(lines or [""]) + "\n", style=style)


def summary(facts: Summary | None, width: int = 0) -> Text:
    """The facts block of the overview (:func:`pdfinspect.present.summary.document_summary`;
    ``None`` while a worker computes it)."""
    if facts is None:
        return Text("reading the document…", style="dim")
    t = Text()
    for fact in facts.facts:
        fact_row(t, fact.label, fact.value, "bold yellow" if fact.role == WARN else "", width)
    for line in facts.security:
        fact_row(t, "", line, "", width)
    t.rstrip()
    return t


class DiagnosticList(WrappedList):
    """The repairs and diagnostics, one entry each, wrapped; ``enter`` on one that gives an
    offset shows the file's bytes there (as ``g @OFFSET``)."""

    BINDINGS = [Binding("enter", "follow", "Bytes", id="diagnostic-bytes",
                        tooltip="Show the file's bytes at the diagnostic's offset")]
    DEFAULT_CSS = "DiagnosticList { height: auto; }"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.offsets: list[int | None] = []

    def show(self, doc) -> None:
        diagnostics = list(doc.diagnostics)
        self.offsets = [d.offset for d in diagnostics]
        self.set_entries([(Content.from_rich_text(styled(diagnostic_parts(d), _STYLES)), None, None)
                          for d in diagnostics]
                         or [note("No damage found so far (objects are checked as they are read).")])

    def reset(self, width_hint: int = 0) -> None:
        RefList.reset(self, width_hint)  # not PanelList's: its height follows its lines
        self.refresh(layout=True)

    def plain(self) -> str:
        return "\n".join(content.plain for content, _, _ in self.entries)

    def action_follow(self) -> None:
        offset = self.offsets[self.entry_of[self.cursor]] if self.line_count and self.offsets else None
        if offset is None:
            self.notify("this diagnostic gives no offset", severity="warning")
        else:
            self.app.go(GoTo(OFFSET, offset))


def check_text(report: CheckReport, width: int = 0) -> Text:
    """The result of a whole-file check: its counts, every error and warning, the verdict."""
    *counts, verdict = check_rows(report)
    t = Text()
    for row in counts:
        fact_row(t, row.label, row.value, "bold yellow" if row.role == WARN else "", width)
    for d in report.errors + report.warnings:
        t.append_text(styled(diagnostic_parts(d), _STYLES))
        t.append("\n")
    t.append(verdict.value, style="bold red" if report.errors else "bold yellow" if report.warnings else "bold green")
    return t


CHECK_PROMPT = "Not run: press x to parse every object and decode every stream (pdfinspect check)."


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


class OverviewScreen(ReportsFailures, Screen):
    """The first screen: ``enter`` on an entry point opens it in the browser; ``x`` runs the
    whole-file check in a worker and shows its result under the repairs."""

    BINDINGS = [
        Binding("x", "check", "Check file", id="check-file",
                tooltip="Parse every object and decode every stream, as pdfinspect check does"),
    ]
    report: CheckReport | None = None  # the whole-file check's, once it ran
    facts: Summary | None = None  # the document summary, once the worker made it

    def compose(self) -> ComposeResult:
        with Horizontal():
            with VerticalScroll(id="overview-facts"):
                yield Static("Overview", classes="panel-title")
                yield Static(id="summary", markup=False)
                yield Static("Repairs and diagnostics", classes="panel-title")
                yield DiagnosticList(id="diagnostics")
                yield Static("Whole-file check", classes="panel-title")
                yield Static(CHECK_PROMPT, id="check", markup=False)
            with Vertical(id="overview-entries"):
                yield Static("Entry points", classes="panel-title")
                yield RefList(id="entry-points")
        yield Footer()

    def on_mount(self) -> None:
        doc = self.app.doc
        self.show_summary()  # "reading the document…": on_screen_resume (also at the first showing) loads it
        try:
            items = entry_points(self.app)
        except Exception as e:  # keep the screen up whatever the core did
            items = [(Content(f"error: {safe_line(str(e))}").stylize("$text-error"), None, None)]
        self.app.numbers_ready.subscribe(self, self.on_numbers_ready)
        self.call_after_refresh(self.app.want_numbers)  # after the first paint, as the summary
        self.query_one("#diagnostics", DiagnosticList).show(doc)
        self.query_one("#entry-points", RefList).set_items(items)
        self.query_one("#entry-points").focus()

    def on_numbers_ready(self, _) -> None:
        """The object count, into the summary shown (computing it again would walk the page tree again)."""
        if self.facts is not None:
            self._summary_ready(self.facts)

    def on_resize(self) -> None:
        self.show_summary()  # the facts are wrapped for the width
        if self.report is not None:
            self._check_done(self.report)

    def show_summary(self) -> None:
        panel = self.query_one("#summary", Static)
        width = panel.content_region.width
        panel.update(summary(self.facts, width))
        if self.facts is not None:  # the facts may bring the pane's scroll bar: wrap them again for it
            self.call_after_refresh(lambda: panel.content_region.width != width and self.show_summary())

    @work(thread=True, exclusive=True, group="summary", exit_on_error=False)
    def load_summary(self) -> None:
        """Compute the summary over a Document of its own (it shares the app's diagnostics)."""
        doc = self.app.worker_doc()
        try:
            facts = document_summary(doc, self.app.numbers)
        finally:
            doc.close()
        self.app.call_from_thread(self._summary_ready, facts)

    def _summary_ready(self, facts: Summary) -> None:
        if self.app.numbers is not None:  # counted meanwhile
            facts = with_objects(facts, self.app.doc, self.app.numbers)
        self.facts = facts
        self.show_summary()

    def on_screen_resume(self) -> None:
        # repairs can be found lazily after opening (objects parsed since, by any worker); the worker
        # starts once the screen is painted (a thread computing meanwhile would slow the first paint)
        self.call_after_refresh(self.load_summary)
        self.query_one("#diagnostics", DiagnosticList).show(self.app.doc)

    def action_check(self) -> None:
        self.query_one("#check", Static).update("checking…")
        self.run_check()

    @work(thread=True, exclusive=True, group="check", exit_on_error=False)
    def run_check(self) -> None:
        """Check a Document of its own (check notes what it finds in the document it reads)."""
        from pdfinspect.core.check import check

        worker = get_current_worker()

        def progress(done: int, total: int) -> None:
            if worker.is_cancelled:  # the app is quitting: stop within 500 objects
                raise Cancelled
            self.app.call_from_thread(self._check_progressed, done, total)

        doc = self.app.worker_doc()
        try:
            report = check(doc, progress)
        except Cancelled:
            return
        finally:
            doc.close()
        self.app.call_from_thread(self._check_done, report)

    def _check_progressed(self, done: int, total: int) -> None:
        self.query_one("#check", Static).update(f"checking… {done:,} of {total:,} objects")

    def _check_done(self, report: CheckReport) -> None:
        self.report = report
        panel = self.query_one("#check", Static)
        panel.update(check_text(report, panel.content_region.width))
        self.call_after_refresh(panel.scroll_visible, animate=False)
        self.post_message(self.CheckDone(report))

    def worker_failed(self, worker) -> None:
        if worker.group == "summary":  # keep the screen up whatever the core did
            self.query_one("#summary", Static).update(Text(f"error: {safe_line(str(worker.error))}", style="red"))
            return
        self.query_one("#check", Static).update(Text("the check stopped: see the notification", style="red"))

    class CheckDone(Message):
        """The whole-file check finished (tests wait for this, never for time)."""

        def __init__(self, report: CheckReport) -> None:
            super().__init__()
            self.report = report

    def on_line_view_followed(self, event: LineView.Followed) -> None:
        event.stop()
        self.post_message(ObjectRequested(Target.of(event.ref, None, event.key)))
