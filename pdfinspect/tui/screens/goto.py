"""The ``g`` prompt: an object number (``N`` or ``N G``) or a page (``p N``)."""
from __future__ import annotations

import re

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label

GOTO = re.compile(r"\s*(?:(?P<page>p|page)\s*(?P<pnum>\d+)|(?P<num>\d+)(?:\s+(?P<gen>\d+))?(?:\s+R)?)\s*",
                  re.IGNORECASE)


def parse_goto(text: str) -> tuple[str, int, int | None] | None:
    """``("object", N, G or None)`` or ``("page", N, None)``; ``None`` if not understood."""
    m = GOTO.fullmatch(text)
    if m is None:
        return None
    if m["page"]:
        return "page", int(m["pnum"]), None
    return "object", int(m["num"]), int(m["gen"]) if m["gen"] else None


class GotoScreen(ModalScreen[str | None]):
    """Ask where to go; dismisses with the text typed (``None`` on escape)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(id="goto-box"):
            yield Label("Go to object  (N, N G, or p N for page N)")
            yield Input(placeholder="object number", id="goto-input")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)
