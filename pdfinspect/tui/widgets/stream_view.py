"""Stream data as highlighted text (a window at a time) or as a hex dump.

Which highlighter applies is the stream's kind, decided by
:func:`pdfinspect.present.streams.stream_kind` (the CLI's ``show`` asks it too).
"""
from __future__ import annotations

from textual.content import Content

from pdfinspect.present.text import bytes_as_text, hexdump

from .highlighting import highlight_lines
from .line_view import LineView

CHUNK = 256
VIEW_LIMIT = 64 * 1024 * 1024
"""Decode at most this much of a stream to view or search it; past it the viewer says so."""


def text_lines(data: bytes) -> list[str]:
    """Terminal-safe lines of ``data``, TABs expanded to 8-column stops (a TAB reached the
    terminal and pushed the line into the next pane); slow on big streams: call it in a worker."""
    return [line.expandtabs(8) for line in bytes_as_text(data).split("\n")]


class StreamView(LineView):
    """Lines of a stream; text is highlighted lazily in chunks of :data:`CHUNK` lines."""

    # a one-cell scrollbar: a dump of 8 bytes a line fits beside it in the 44 columns of 80x24
    DEFAULT_CSS = "StreamView { scrollbar-size-vertical: 1; }"

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(show_cursor=False, id=id, classes=classes)
        self._data = b""
        self._text: list[str] = []
        self._kind = "text"
        self._hex = False
        self._row = 16
        self._tail: list[Content] = []
        self._chunks: dict[int, list[Content]] = {}
        self.marked: int | None = None  # a line shown in reverse video (a search hit, a CMap entry)

    def show_data(self, data: bytes, kind: str, text: list[str] | None, tail: list[Content] = ()) -> None:
        """Show ``data`` as hex (``text`` is ``None``) or as the lines from :func:`text_lines`."""
        self._data = data
        self._kind = kind
        self._hex = text is None
        self._tail = list(tail)
        self._chunks = {}
        self._text = text or []
        self._row = self.bytes_per_row()
        self.set_reactive(LineView.cursor, 0)
        self.reset(self.content_width())
        self.scroll_to(0, 0, animate=False, immediate=True)

    def bytes_per_row(self) -> int:
        """16, 8 or 4 bytes a hex line: what keeps the ASCII column on screen beside the
        scrollbar a long dump has (16 while the view has no size yet: on_resize fits it)."""
        room = self.size.width - self.styles.scrollbar_size_vertical
        return next((n for n in (16, 8) if room >= len(hexdump(bytes(n), 0, n))), 4) if self.size.width else 16

    def content_width(self) -> int:
        if self._hex:
            return len(hexdump(bytes(self._row), 0, self._row))
        return max((len(t) for t in self._text[:2000]), default=0)

    def on_resize(self) -> None:
        if self._hex and self.bytes_per_row() != self._row:  # shown before it was laid out, or resized
            self._row = self.bytes_per_row()
            self.reset(self.content_width())

    @property
    def kind(self) -> str:
        return "hex" if self._hex else self._kind

    @property
    def body_count(self) -> int:
        if self._hex:
            return (len(self._data) + self._row - 1) // self._row
        return len(self._text)

    @property
    def line_count(self) -> int:
        return self.body_count + len(self._tail)

    def build_line(self, index: int) -> Content:
        body = self.body_count
        if index >= body:
            return self._tail[index - body]
        if self._hex:
            start = index * self._row
            line = hexdump(self._data[start:start + self._row], start, self._row)
            return Content(line).stylize("$text-muted", 0, 8)
        chunk = index // CHUNK
        lines = self._chunks.get(chunk)
        if lines is None:
            part = self._text[chunk * CHUNK:(chunk + 1) * CHUNK]
            lines = highlight_lines("\n".join(part), self._kind if self._kind != "hex" else "text")
            self._chunks[chunk] = lines
        line = lines[index - chunk * CHUNK]
        return line.stylize("reverse") if index == self.marked else line

    def action_cursor_up(self) -> None:
        self.scroll_up(animate=False)

    def action_cursor_down(self) -> None:
        self.scroll_down(animate=False)

    def action_page_up(self) -> None:
        self.scroll_page_up(animate=False)

    def action_page_down(self) -> None:
        self.scroll_page_down(animate=False)

    def action_first(self) -> None:
        self.scroll_home(animate=False)

    def action_last(self) -> None:
        self.scroll_end(animate=False)
