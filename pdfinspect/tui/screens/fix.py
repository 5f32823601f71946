"""'Write a fixed copy…' of one font from the glyph inspector (``pdfinspect fix`` in the app).

The modal plans the fix for the font over every page in a worker (the same plan the CLI
prints: what each code maps to and why), shows it, and asks for the output path. ``ctrl+s``
(or the button) writes the incremental update in a worker; the screen is dismissed with the
path written, and the glyph inspector then opens the fixed copy's revisions. The input file
is never written.
"""
from __future__ import annotations

from pathlib import Path

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from pdfinspect.core.atomic import check_target
from pdfinspect.core.diagnostics import PdfError
from pdfinspect.core.objects import Ref
from pdfinspect.fonts.fix import FixPlan
from pdfinspect.present.fix import plan_lines, walk
from pdfinspect.present.text import safe_line


def default_output(path: str | None) -> str:
    p = Path(path or "document.pdf")
    return str(p.with_name(f"{p.stem}-fixed{p.suffix or '.pdf'}"))


class FixScreen(ModalScreen[str | None]):
    """The plan for one font, an output path, and save; ``escape`` cancels."""

    AUTO_FOCUS = "#fix-output"  # the keys typed are the path (shift+tab reaches the plan to scroll it)

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="fix-cancel", tooltip="Close without writing"),
                Binding("ctrl+s", "save", "Save", id="fix-save", tooltip="Write the fixed copy")]
    DEFAULT_CSS = """
    FixScreen { align: center middle; }
    #fix-box { width: 90%; height: 85%; border: round $primary; background: $surface; }
    #fix-plan { height: 1fr; padding: 0 1; }
    #fix-output { margin: 0 1; }
    #fix-status { padding: 0 1; height: auto; color: $text-muted; }
    #fix-buttons { height: auto; align-horizontal: right; padding: 0 1; }
    """

    def __init__(self, font_ref: Ref, font_label: str) -> None:
        super().__init__()
        self.font_ref = font_ref
        self.font_label = font_label
        self.plan: FixPlan | None = None
        self.doc = None

    def compose(self) -> ComposeResult:
        with Vertical(id="fix-box"):
            yield Static(f"write a fixed copy — ToUnicode for {safe_line(self.font_label)}", classes="panel-title")
            with VerticalScroll(id="fix-plan"):
                yield Static("planning: resolving this font's codes on every page…", id="fix-plan-text", markup=False)
            yield Input(default_output(self.app.doc.path), id="fix-output")
            yield Static("", id="fix-status", markup=False)
            with Horizontal(id="fix-buttons"):
                yield Button("Save (ctrl+s)", id="fix-save-button", variant="primary", disabled=True)
                yield Button("Cancel (esc)", id="fix-cancel-button")

    def on_mount(self) -> None:
        self.make_plan()

    @work(thread=True, exclusive=True, group="fix", exit_on_error=False)
    def make_plan(self) -> None:
        doc = self.app.worker_doc()  # this worker's own Document
        plan, _ = walk(doc, only={self.font_ref})
        self.app.call_from_thread(self._planned, doc, plan)

    def _planned(self, doc, plan: FixPlan) -> None:
        self.doc, self.plan = doc, plan
        self.query_one("#fix-plan-text", Static).update("\n".join(plan_lines(plan)))
        ready = bool(plan.to_write)
        self.query_one("#fix-save-button", Button).disabled = not ready
        repaired = " (the file needed repair to open: a whole new file is written)" if doc.repaired else ""
        self.status(f"enter the output path, then ctrl+s{repaired}" if ready else "nothing to write for this font")

    def status(self, text: str) -> None:
        self.query_one("#fix-status", Static).update(text)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "fix-save-button":
            self.action_save()
        else:
            self.action_cancel()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_save()

    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_save(self) -> None:
        if self.plan is None or not self.plan.to_write:
            return
        out = self.query_one("#fix-output", Input).value.strip()
        if not out:
            self.status("the output path is empty")
            return
        try:
            check_target(out, inputs=[self.app.doc.path])  # the policy `pdfinspect fix` applies
        except PdfError as e:
            self.status(f"not written: {safe_line(e.diagnostic.message)}")
            return
        self.status(f"writing {out}…")
        self.write_copy(out)

    @work(thread=True, exclusive=True, group="fix", exit_on_error=False)
    def write_copy(self, out: str) -> None:
        try:
            self.plan.save(self.doc, out, rewrite=self.doc.repaired)  # no sound xref to chain to
        except PdfError as e:  # a refusal (needs repair, cannot encrypt, the path) or an OSError
            self.app.call_from_thread(self.status, f"not written: {safe_line(e.diagnostic.message)}")
        except Exception as e:  # nothing was written (the temporary file is gone): say why
            self.app.call_from_thread(self.status, f"not written: {safe_line(str(e))}")
        else:
            self.app.call_from_thread(self.dismiss, out)
