"""Every font of the document with the ``fonts`` report (``pdfinspect fonts``).

Left: one line per font (where it is, its resource names, subtype, base font), marked when
the report finds a reason its text extracts badly. Right: the report of the font under the
cursor. ``enter`` opens the glyph inspector on the first page the font draws on; ``d``
opens the font dictionary in the browser. Reading every page takes a while on big files, so
a worker builds the reports and says how far it got.
"""
from __future__ import annotations

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Static
from textual.worker import Worker, get_current_worker

from pdfinspect.content.fontreports import FontFacts, font_facts, font_reports
from pdfinspect.core.objects import Ref
from pdfinspect.fonts.resolve import Resolver
from pdfinspect.present.fontreport import report_lines, report_title

from ..failures import ReportsFailures, failure_line
from ..messages import ObjectRequested, Target
from ..widgets.column_list import GlyphsPickList, PickList
from ..widgets.line_view import LineView, note


class FontsScreen(ReportsFailures, Screen):
    """The document's fonts; ``enter`` to a font's glyphs."""

    AUTO_FOCUS = "#font-list"
    BINDINGS = [
        Binding("d", "dictionary", "Font object", id="font-object", tooltip="Open the font dictionary in the browser"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.records: list[FontFacts] = []
        self.refs: list[Ref | None] = []

    def compose(self) -> ComposeResult:
        yield Static("reading the pages…", id="fonts-header", markup=False)
        with Horizontal():
            with Vertical(id="fonts-main"):
                yield Static("fonts (enter: glyphs, d: font object)", classes="panel-title")
                yield GlyphsPickList(id="font-list")
            with VerticalScroll(id="fonts-side"):
                yield Static("report", classes="panel-title")
                yield Static(id="font-report", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#font-list", PickList).set_items([note("reading the pages…")])
        self.load()

    @work(thread=True, exclusive=True, group="fonts", exit_on_error=False)
    def load(self) -> None:
        doc = self.app.worker_doc()
        resolver = Resolver(doc)
        worker = get_current_worker()

        def tick(done: int, total: int) -> None:
            if worker.is_cancelled:
                raise KeyboardInterrupt  # stops font_reports between pages
            if done % 20 == 0 or done == total:
                self.app.call_from_thread(self.progress, done, total)
        try:
            reports = font_reports(doc, None, resolver, progress=tick)
        except KeyboardInterrupt:
            return
        records = [font_facts(rep, resolver) for rep in reports]
        if not worker.is_cancelled:
            self.app.call_from_thread(self.loaded, records, [rep.ref for rep in reports])

    def progress(self, done: int, total: int) -> None:
        self.query_one("#fonts-header", Static).update(f"reading the pages… {done} of {total}")

    def worker_failed(self, worker: Worker) -> None:
        if worker.group == "fonts":
            self.query_one("#fonts-header", Static).update(
                Text(f"error: {failure_line(worker.error)}", style="red"))

    def loaded(self, records: list[FontFacts], refs: list[Ref | None]) -> None:
        self.records, self.refs = records, refs
        flagged = sum(1 for r in records if r.reasons)
        pages = self.app.doc.page_count()
        self.query_one("#fonts-header", Static).update(
            f"{len(records)} font{'s' if len(records) != 1 else ''} on {pages} page{'s' if pages != 1 else ''}; "
            f"{flagged} with a reason their text extracts badly (!)")
        items = [(Content.assemble(("! " if r.reasons else "  ", "$text-warning"), report_title(r)), ref, None)
                 for r, ref in zip(records, refs)] or [note("no page selects a font")]
        view = self.query_one("#font-list", PickList)
        view.set_items(items)
        self.show_report(view.cursor)

    def show_report(self, index: int) -> None:
        panel = self.query_one("#font-report", Static)
        if not 0 <= index < len(self.records):
            panel.update("")
            return
        rec = self.records[index]
        pages = rec.pages
        where = f"    pages:     {', '.join(map(str, pages[:20]))}{'…' if len(pages) > 20 else ''}" if pages else \
            "    pages:     none draws with it"
        panel.update("\n".join([report_title(rec), where, *report_lines(rec)]))

    def on_line_view_moved(self, event: LineView.Moved) -> None:
        if event.view.id == "font-list":
            self.show_report(event.index)

    def on_pick_list_picked(self, event: PickList.Picked) -> None:
        event.stop()
        self.action_glyphs()

    def _current(self) -> FontFacts | None:
        index = self.query_one("#font-list", PickList).cursor
        return self.records[index] if 0 <= index < len(self.records) else None

    def action_glyphs(self) -> None:
        rec = self._current()
        if rec is None or not rec.pages:
            self.notify("this font draws no glyph", severity="warning")
            return
        self.app.open_content_view("glyphs", rec.pages[0])

    def action_dictionary(self) -> None:
        index = self.query_one("#font-list", PickList).cursor
        ref = self.refs[index] if 0 <= index < len(self.refs) else None
        if ref is None:
            self.notify("a direct font or a stand-in: no object to open", severity="warning")
            return
        self.post_message(ObjectRequested(Target(ref)))
