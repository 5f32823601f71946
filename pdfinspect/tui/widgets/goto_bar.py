"""The ``g`` prompt, docked over the footer: an object number (``N`` or ``N G``) or ``p N``
(read by :func:`pdfinspect.present.goto.parse_goto`).

It never takes focus: the app hands it key events while it is open (:meth:`GotoBar.feed`).
Moving focus makes Textual restyle the old and new focus and rebuild the footer, which was
most of the time between Enter and the object being drawn; ``g`` is the key pressed most.
"""
from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.widgets import Static

class GotoBar(Static):
    """Collects a line of text from the keys it is fed; posts ``Answered`` (``None`` on escape)."""

    PROMPT = "go to: "
    PLACEHOLDER = "N, N G, or p N for page N"

    KEYS = [
        Binding("enter", "", "Go", id="answer-go-to", tooltip="Show the object or page typed"),
        Binding("backspace", "", "Delete", id="delete-go-to", tooltip="Delete the last character"),
        Binding("escape", "", "Cancel", id="cancel-go-to", tooltip="Close the prompt"),
    ]
    """The keys the prompt reads, for the help screen (it reads them itself, not by binding)."""

    class Answered(Message):
        def __init__(self, text: str | None) -> None:
            super().__init__()
            self.text = text

    def __init__(self) -> None:
        super().__init__(id="goto-bar", markup=False)
        self.text = ""

    def open(self) -> None:
        self.text = ""
        self.display = True
        self._draw()

    def feed(self, event: events.Key) -> bool:
        """Take one key; ``False`` for keys the prompt leaves to the app (``ctrl+…``)."""
        if event.key in ("enter", "escape"):
            self.display = False
            self.post_message(self.Answered(self.text if event.key == "enter" else None))
        elif event.key == "backspace":
            self.text = self.text[:-1]
        elif event.is_printable and event.character:
            self.text += event.character
        else:
            return False
        self._draw()
        return True

    def _draw(self) -> None:
        typed = Content(self.text) if self.text else Content(self.PLACEHOLDER).stylize("$text-muted")
        self.update(Content.assemble((self.PROMPT, "bold"), typed, ("▏", "$text-accent")))
