"""The password prompt shown before the app when an encrypted file does not open with the
password given (ISO 32000-1 7.6.3): what is known about the encryption first, then the prompt.

It is a small app of its own because the inspector needs an open :class:`Document`; it
returns the document once a password opens it, or ``None`` when the user gives up. ``ctrl+o``
opens the file without its key instead (read-only, ``Document.locked``): the trailer, the
xref, ``/Encrypt`` and every object's structure can be browsed; strings and streams stay
encrypted (a stream shows its decode error).
"""
from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Footer, Input, Static

from pdfinspect.core.diagnostics import PasswordError, PdfError
from pdfinspect.core.document import Document
from pdfinspect.present.text import safe_line


class PasswordApp(App[Document | None]):
    """``enter`` tries the password typed, ``ctrl+o`` opens without the key, ``escape`` gives up."""

    CSS_PATH = "app.tcss"
    TITLE = "pdfinspect"
    BINDINGS = [Binding("escape", "give_up", "Cancel", id="cancel-password", tooltip="Quit without opening the file"),
                Binding("ctrl+o", "open_locked", "Open locked", id="open-locked",
                        tooltip="Browse without the key: xref, trailer, /Encrypt, objects; strings and "
                                "streams stay encrypted")]

    def __init__(self, path: str | Path, facts: list[str], reason: str) -> None:
        super().__init__()
        self.path = path
        self.facts = facts
        self.reason = reason
        self.password = ""  # the password that opened the file
        self.sub_title = Path(path).name

    def compose(self) -> ComposeResult:
        with Vertical(id="password-box"):
            yield Static("Encrypted file", classes="panel-title")
            facts = Text()
            for line in self.facts:
                facts.append(safe_line(line) + "\n")
            facts.append(safe_line(self.reason), style="yellow")
            yield Static(facts, id="password-facts")
            yield Input(placeholder="password (user or owner)", password=True, id="password-input")
            yield Static(id="password-status", markup=False)
        yield Footer()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        status = self.query_one("#password-status", Static)
        try:
            doc = Document.open(self.path, event.value)
        except PasswordError as e:
            status.update(Text(f"{safe_line(str(e.diagnostic.message))}: try again", style="red"))
            self.query_one(Input).value = ""
        except PdfError as e:
            status.update(Text(safe_line(str(e)), style="red"))
        else:
            self.password = event.value
            self.exit(doc)

    def action_open_locked(self) -> None:
        try:
            doc = Document.open(self.path, allow_locked=True)
        except PdfError as e:
            self.query_one("#password-status", Static).update(Text(safe_line(str(e)), style="red"))
            return
        self.exit(doc)

    def action_give_up(self) -> None:
        self.exit(None)
