"""The Extractors screen: what the real text extractors output for a page, against their emulation.

Opened with ``E`` from the glyph inspector or the stepper, or from the palette. A worker
emulates each extractor (:mod:`pdfinspect.extractors`) and runs the real ones installed
(:mod:`pdfinspect.extractors.oracle`, each in a subprocess); the outputs are shown side by
side with the words their emulation does not produce highlighted, and below them every
difference with the glyph, the rule and the constant that decided it. ``enter`` on a
difference opens that glyph's code in the glyph inspector.
"""
from __future__ import annotations

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import Worker, get_current_worker

from pdfinspect.content.textlayout import page_glyphs
from pdfinspect.extractors import emulate, oracle, page_frame
from pdfinspect.present.text import safe_line

from ..budget import page_budget
from ..failures import ReportsFailures, failure_line


class ExtractorsScreen(ReportsFailures, Screen):
    """Real extractors' text of page N side by side, and where each differs from its emulation."""

    BINDINGS = [
        Binding("escape", "close", "Close", id="extractors-close", tooltip="Back to where you were"),
    ]
    DEFAULT_CSS = """
    #extractors-columns { height: 1fr; }
    .extractor-column { width: 1fr; border-right: solid $panel; padding: 0 1; }
    #extractors-differences { height: 1fr; }
    """

    def __init__(self, page: int) -> None:
        super().__init__()
        self.page = page
        self.records: list = []
        self.targets: list = []  # per option: the glyph record that starts the difference, or None

    def compose(self) -> ComposeResult:
        yield Static(Text(f"page {self.page}: running the extractors…"), id="extractors-header")
        with Vertical():
            yield Horizontal(id="extractors-columns")
            yield Static("differences from the emulation (enter: open the glyph)", classes="panel-title")
            yield OptionList(id="extractors-differences")
        yield Footer()

    def on_mount(self) -> None:
        self.load(self.page, self.app.doc.path)

    @work(thread=True, exclusive=True, group="extractors", exit_on_error=False)
    def load(self, n: int, path: str | None) -> None:
        doc = self.app.worker_doc()
        ref = doc.page_ref(n)
        records = list(page_glyphs(doc, ref, budget=page_budget()))
        frame = page_frame(doc, ref)
        results = []
        for name in oracle.REAL:
            emulated = emulate(name, records, frame)
            real = oracle.run(name, path, n) if path else oracle.Run(name, None, "no file path")
            diffs = oracle.align(emulated, real.text, 500) if real.text is not None else []
            results.append((name, emulated, real, diffs))
            if get_current_worker().is_cancelled:
                return
        self.app.call_from_thread(self.loaded, records, results)

    def worker_failed(self, worker: Worker) -> None:
        if worker.group == "extractors":
            self.query_one("#extractors-header", Static).update(
                Text(f"page {self.page}: error: {failure_line(worker.error)}", style="red"))

    def loaded(self, records: list, results: list) -> None:
        self.records = records
        by_index = {r.index: r for r in records}
        columns = self.query_one("#extractors-columns", Horizontal)
        options: list[Option] = []
        self.targets = []
        header = Text(f"page {self.page}: ", style="bold")
        for name, emulated, real, diffs in results:
            column = VerticalScroll(classes="extractor-column")
            columns.mount(column)
            if real.text is None:
                column.mount(Static(Text.assemble((name, "bold"), "\n" + safe_line(real.error), style="dim")))
                header.append(f"{name} —  ", style="dim")
                continue
            agreement = oracle.agreement(emulated.text, real.text)
            header.append(f"{name} {agreement:.3f}  ", style="green" if not diffs else "yellow")
            column.mount(Static(self.column_text(name, real.text, diffs)))
            for d in diffs:
                line = Text.assemble((f"{name:<9}", "bold"), f"{d.kind:<8}", "ours ", (safe_line(d.ours[:40]), "cyan"),
                                     "  real ", (safe_line(d.theirs[:40]), "magenta"),
                                     f"  #{d.glyph} {safe_line(d.rule)}: {safe_line(d.detail)}" if d.glyph is not None
                                     else "")
                options.append(Option(line))
                self.targets.append(by_index.get(d.glyph) if d.glyph is not None else None)
        header.append("(word agreement with the emulation)", style="dim")
        self.query_one("#extractors-header", Static).update(header)
        listing = self.query_one("#extractors-differences", OptionList)
        listing.clear_options()
        listing.add_options(options or [Option(Text("no difference: every emulation matches its extractor"))])
        listing.highlighted = 0
        listing.focus()

    @staticmethod
    def column_text(name: str, real: str, diffs) -> Text:
        """The real output with the words its emulation does not produce highlighted."""
        marked = {w for d in diffs for w in d.theirs.split()}
        out = Text(name + "\n", style="bold")
        for line in real.splitlines():
            for i, word in enumerate(line.split(" ")):
                if i:
                    out.append(" ")
                out.append(safe_line(word), style="reverse" if word in marked else "")
            out.append("\n")
        return out

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """``enter`` on a difference: its glyph in the glyph inspector."""
        event.stop()
        self.open_glyph(event.option_index)

    def open_glyph(self, index: int | None) -> None:
        record = self.targets[index] if index is not None and index < len(self.targets) else None
        if record is None:
            self.app.bell()
            return
        font = record.step.font
        self.app.pending_glyph = (font.ref if font is not None else None, record.glyph.code)
        self.dismiss()
        self.app.open_content_view("glyphs", self.page)

    def action_close(self) -> None:
        self.dismiss()
