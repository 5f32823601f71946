"""The file's bytes at an offset (``g @336``): the offsets diagnostics give, as a hex dump.

The same dump as ``pdfinspect bytes FILE OFFSET``, with the object the offset falls in;
``enter`` opens that object in the browser, ``escape`` closes the view.
"""
from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from pdfinspect.present.objects import object_at
from pdfinspect.present.text import hexdump

from ..messages import Target, object_ref

SHOWN = 512  # bytes dumped from the offset on


class BytesScreen(ModalScreen[None]):
    """``escape`` closes it, ``enter`` opens the object the offset falls in."""

    BINDINGS = [Binding("escape,q", "dismiss", "Close", id="close-bytes"),
                Binding("enter", "open_object", "Object", id="bytes-object",
                        tooltip="Open the object the offset falls in")]

    def __init__(self, offset: int) -> None:
        super().__init__()
        self.at = offset
        self.found: tuple[int, int] | None = None

    def compose(self) -> ComposeResult:
        doc = self.app.doc
        if self.at >= doc.size:
            title = f"offset {self.at} is past the end of the file ({doc.size} bytes)"
            dump = ""
        else:
            self.found = object_at(doc, self.at)
            where = (f"{self.at - self.found[1]} bytes into object {self.found[0]} (enter opens it)"
                     if self.found else "before the first object")
            title = f"offset {self.at} ({self.at:#x}): {where}"
            dump = hexdump(bytes(doc.buf[self.at:self.at + SHOWN]), start=self.at)
        with VerticalScroll(id="bytes-box"):
            yield Static(title, classes="panel-title", markup=False, id="bytes-title")
            yield Static(dump, markup=False, id="bytes-dump")
        yield Footer()

    async def action_dismiss(self, result=None) -> None:
        self.dismiss(None)

    def action_open_object(self) -> None:
        if self.found is None:
            return
        self.dismiss(None)
        self.app.show_target(Target(object_ref(self.app.doc, self.found[0])))
