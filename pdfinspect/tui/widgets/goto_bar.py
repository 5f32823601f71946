"""The ``g`` prompt, docked over the footer: an object number (``N`` or ``N G``) or ``p N``.

A docked input rather than a modal screen: pushing a screen redraws everything twice, and
``g`` is the key pressed most.
"""
from __future__ import annotations

import re

from textual.binding import Binding
from textual.message import Message
from textual.widgets import Input

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


class GotoBar(Input):
    """Posts ``Answered`` with the text typed (``None`` on escape) and removes itself."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="cancel-go-to")]

    class Answered(Message):
        def __init__(self, text: str | None) -> None:
            super().__init__()
            self.text = text

    def __init__(self) -> None:
        super().__init__(placeholder="go to object: N, N G, or p N for page N", id="goto-bar")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.post_message(self.Answered(event.value))
        self.remove()

    def action_cancel(self) -> None:
        self.post_message(self.Answered(None))
        self.remove()
