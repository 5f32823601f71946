"""Lists in fixed-size panels, laid out for the width they have.

The glyph list of the stepper and the glyph table are wider than their pane at 80x24. Rather
than scroll sideways (a scrollbar row under a list of three lines, and the columns a reader
needs out of sight), :func:`column_widths` drops the least needed columns and narrows the
others to what the pane holds; the header above the list is laid out with the rows. Lines of
prose (a glyph's resolution path) wrap instead (:class:`WrappedList`).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.cells import cell_len, set_cell_size
from textual.binding import Binding
from textual.content import Content
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from pdfinspect.core.objects import Ref

from .line_view import LineView, RefList


class PanelList(RefList):
    """A RefList in a fixed-size panel: new items redraw it without a layout pass of the
    screen unless its scrollbars come or go (a layout of the stepper costs ~70 ms)."""

    def reset(self, width_hint: int = 0) -> None:
        old, new = self.virtual_size, Size(width_hint, self.line_count)
        view = self.scrollable_content_region.size
        if view.area and all((a > v) == (b > v) for a, b, v in zip(old, new, view)):
            self.set_reactive(Widget.virtual_size, new)  # LineView.reset then finds it unchanged
        super().reset(width_hint)

    def row_width(self, lines: int) -> int:
        """The cells a line may take when the list holds ``lines`` lines (a vertical
        scrollbar, there when they outnumber the rows, takes its share)."""
        region = self.content_region
        return max(0, region.width - (self.styles.scrollbar_size_vertical if lines > region.height else 0))


class PickList(PanelList):
    """A RefList whose ``enter`` picks the cursor line instead of following a reference."""

    class Picked(Message):
        def __init__(self, view: "PickList", index: int) -> None:
            super().__init__()
            self.view = view
            self.index = index

        @property
        def control(self) -> "PickList":
            return self.view

    def action_follow(self) -> None:
        if self.line_count:
            self.post_message(self.Picked(self, self.cursor))


class GlyphsPickList(PickList):
    """A PickList whose ``enter`` opens glyphs (the Fonts and Structure screens' lists): the
    footer and the help say so."""

    BINDINGS = [Binding("enter", "follow", "Glyphs", id="open-glyphs",
                        tooltip="Open the glyph inspector on the page of the font or element under the cursor")]


@dataclass(frozen=True, slots=True)
class Column:
    """A column: its title, its narrowest and widest width in terminal cells, and its rank
    (0 is the most needed; the highest rank is dropped first)."""

    title: str
    least: int
    most: int
    rank: int
    right: bool = False


def column_widths(columns: Sequence[Column], width: int) -> list[int]:
    """Each column's width for rows of ``width`` cells, a space between columns, 0 for a
    column dropped: the least needed go until the rest fit at their narrowest, then the
    columns widen to their widest in order of need."""
    kept = sorted(range(len(columns)), key=lambda i: columns[i].rank)
    while len(kept) > 1 and sum(columns[i].least for i in kept) + len(kept) - 1 > width:
        kept.pop()
    sizes = [0] * len(columns)
    for i in kept:
        sizes[i] = columns[i].least
    spare = width - sum(sizes) - (len(kept) - 1)
    for i in kept:
        grow = max(0, min(spare, columns[i].most - columns[i].least))
        sizes[i] += grow
        spare -= grow
    return sizes


def fit(text: str, width: int, right: bool = False) -> str:
    """``text`` padded or cut to exactly ``width`` terminal cells (a CJK character takes two,
    a combining mark none), cut text ending in ``…``."""
    if cell_len(text) <= width:
        pad = " " * (width - cell_len(text))
        return pad + text if right else text + pad
    return set_cell_size(text, width - 1) + "…" if width else ""


Cells = Sequence[tuple[str, str]]
"""A row: each column's text (terminal-safe) and style."""


def column_line(columns: Sequence[Column], widths: Sequence[int], cells: Cells) -> Content:
    """A row's cells in the columns :func:`column_widths` kept, fitted to their widths."""
    parts: list[tuple[str, str] | str] = []
    for column, width, (text, style) in zip(columns, widths, cells):
        if width:
            parts.extend([" "] if parts else [])
            parts.append((fit(text, width, column.right), style))
    return Content.assemble(*parts)


class ColumnList(PickList):
    """A PickList of rows laid out in ``columns`` for its width, with its ``header`` (a
    Static the screen puts above it). A row is its cells, or a Content line across the
    columns (cut to the width)."""

    def __init__(self, columns: Sequence[Column], header: Static, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.columns = columns
        self.header = header
        self.rows: list[tuple[Cells | Content, Ref | None, str | None]] = []
        self.widths: list[int] = []
        self._laid_out_for = -1

    def set_rows(self, rows: list[tuple[Cells | Content, Ref | None, str | None]], cursor: int = 0) -> None:
        self.rows = rows
        self.set_items(self._lay_out(), cursor)

    def _lay_out(self) -> list[tuple[Content, Ref | None, str | None]]:
        width = self._laid_out_for = self.row_width(len(self.rows))
        widths = column_widths(self.columns, width)
        if widths != self.widths:  # (a fixed-height header: no layout pass of the screen)
            self.widths = widths
            self.header.update(column_line(self.columns, widths, [(c.title, "") for c in self.columns]), layout=False)
        return [(row.truncate(width, ellipsis=True) if isinstance(row, Content) else
                 column_line(self.columns, self.widths, row), ref, key) for row, ref, key in self.rows]

    def on_resize(self) -> None:
        if self.row_width(len(self.rows)) != self._laid_out_for:
            self._items = self._lay_out()  # the cursor and the scroll position stay
            self.reset()


HANGING = 3  # cells a wrapped line's continuation is indented by
WRAP_LIMIT = 1000  # entries a WrappedList wraps (~50 us each on the UI thread); past it, lines scroll sideways


def wrap_hanging(content: Content, width: int) -> list[Content]:
    """``content`` in lines of at most ``width`` cells, the continuation lines indented."""
    if content.cell_length <= width or width <= 2 * HANGING:
        return [content]
    first = content.wrap(width)[0]
    rest = content[len(first.plain):]
    rest = rest[len(rest.plain) - len(rest.plain.lstrip(" ")):]
    return [first, *(Content.assemble(" " * HANGING, line) for line in rest.wrap(width - HANGING))]


class WrappedList(PanelList):
    """A PanelList whose long lines wrap to its width (so nothing is out of sight to the
    right): each entry ``(content, ref, key)`` takes as many lines as it needs, every one
    of them following the entry's reference. A list of more than :data:`WRAP_LIMIT` entries
    (an object 10,000 others refer to) is not wrapped: its lines scroll sideways."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.entries: list[tuple[Content, Ref | None, str | None]] = []
        self.entry_of: list[int] = []  # line → the entry it shows
        self._wrapped_for = -1

    def set_entries(self, entries: list[tuple[Content, Ref | None, str | None]]) -> None:
        self.entries = entries
        self.set_items(self._wrap())

    def _wrap(self) -> list[tuple[Content, Ref | None, str | None]]:
        if len(self.entries) > WRAP_LIMIT:
            self._wrapped_for, self.entry_of = -1, list(range(len(self.entries)))
            return list(self.entries)
        lines, width = [], self.row_width(len(self.entries))
        for wrap_width in (width, self.row_width(10 ** 9)):  # again if the wrapped lines need a scrollbar
            lines = [(n, part) for n, (content, _, _) in enumerate(self.entries)
                     for part in wrap_hanging(content, wrap_width)]
            width = wrap_width
            if self.row_width(len(lines)) == wrap_width:
                break
        self._wrapped_for = width
        self.entry_of = [n for n, _ in lines]
        return [(part, *self.entries[n][1:]) for n, part in lines]

    def on_resize(self) -> None:
        if len(self.entries) > WRAP_LIMIT:
            return
        if self.content_region.width and self.row_width(len(self._items)) != self._wrapped_for:
            entry = self.entry_of[self.cursor] if self.entry_of else 0
            self._items = self._wrap()
            self.set_reactive(LineView.cursor, self.entry_of.index(entry) if entry < len(self.entries) else 0)
            self.reset()
