"""'Export…' from the browser (``e``): the object shown written to a file, as ``pdfinspect
extract`` writes it (:mod:`pdfinspect.present.export`): a font's program with its suffix,
an image as PNG (JPEG as stored), another stream decoded, or as stored when the browser
shows it raw. The modal says what will be written and asks for the path; ``ctrl+s`` (or
Enter) writes in a worker, ``escape`` cancels. The input file is never written.
"""
from __future__ import annotations

from pathlib import Path

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from pdfinspect.core.diagnostics import PdfError
from pdfinspect.present.export import Exported, Proposal, export, propose
from pdfinspect.present.text import safe_line

from ..failures import ReportsFailures, failure_line


class ExportScreen(ReportsFailures, ModalScreen[Exported | None]):
    """What object ``num`` exports to, an output path, and save; dismissed with what was written."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="export-cancel", tooltip="Close without writing"),
                Binding("ctrl+s", "save", "Save", id="export-save", tooltip="Write the file")]
    DEFAULT_CSS = """
    ExportScreen { align: center middle; }
    #export-box { width: 90%; height: auto; max-height: 12; border: round $primary; background: $surface; }
    #export-what, #export-status { padding: 0 1; height: auto; }
    #export-status { color: $text-muted; }
    #export-output { margin: 0 1; }
    """

    class Proposed(Message):
        """The worker found what the object exports to (tests wait for this, never for time)."""

    def __init__(self, num: int, raw: bool) -> None:
        super().__init__()
        self.num, self.raw = num, raw
        self.proposal: Proposal | None = None
        self.doc = None

    def compose(self) -> ComposeResult:
        with Vertical(id="export-box"):
            yield Static(f"export object {self.num}", classes="panel-title", markup=False)
            yield Static("looking at the object…", id="export-what", markup=False)
            yield Input("", id="export-output", disabled=True)
            yield Static("", id="export-status", markup=False)

    def on_mount(self) -> None:
        self.find_proposal()

    @work(thread=True, exclusive=True, group="export", exit_on_error=False)
    def find_proposal(self) -> None:
        doc = self.app.worker_doc()  # this worker's own Document, kept for the writing
        try:
            proposal = propose(doc, self.num, self.raw)
        except PdfError as e:
            self.app.call_from_thread(self.status, f"nothing to write: {safe_line(str(e.diagnostic.message))}")
            return
        self.app.call_from_thread(self._proposed, doc, proposal)

    def _proposed(self, doc, proposal: Proposal) -> None:
        self.doc, self.proposal = doc, proposal
        self.query_one("#export-what", Static).update(f"writes {proposal.what}")
        folder = Path(str(self.app.doc.path)).parent if self.app.doc.path else Path.cwd()
        field = self.query_one("#export-output", Input)
        field.value, field.disabled = str(folder / proposal.name), False
        field.focus()
        self.status("enter the output path, then ctrl+s (escape cancels)")
        self.post_message(self.Proposed())

    def status(self, text: str) -> None:
        self.query_one("#export-status", Static).update(text)

    def worker_failed(self, worker) -> None:
        self.status(f"stopped: {failure_line(worker.error)}")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_save()

    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_save(self) -> None:
        out = self.query_one("#export-output", Input).value.strip()
        if self.proposal is None:
            return
        if not out:
            self.status("the output path is empty")
            return
        self.status(f"writing {out}…")
        self.write(Path(out))

    @work(thread=True, exclusive=True, group="export", exit_on_error=False)
    def write(self, target: Path) -> None:
        try:
            done = export(self.doc, self.proposal, target)
        except PdfError as e:  # the input file, a folder that is not there, a full disk: say it
            self.app.call_from_thread(self.status, f"not written: {safe_line(e.diagnostic.message)}")
        else:
            self.app.call_from_thread(self.dismiss, done)
