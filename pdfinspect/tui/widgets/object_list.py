"""Every object by number, with type, subtype and size; rows are read in a worker.

Nothing is parsed on the UI thread: a row not read yet is drawn as ``num …`` and the list
asks a thread worker (on the app's loader Document, see ``App.loader``) for the rows on
screen; they arrive as one message and the list redraws. One object of 100,000 references
took the UI 8.9 s when rows were parsed in ``render_line``.
"""
from __future__ import annotations

from bisect import bisect_left

from textual import work
from textual.cache import LRUCache
from textual.content import Content
from textual.worker import get_current_worker

from pdfinspect.core.objects import Ref, type_name
from pdfinspect.present.objects import object_row as present_row
from pdfinspect.present.objects import names_label, type_names
from pdfinspect.present.text import safe_line

from ..messages import object_ref
from .line_view import LineView


def describe_value(value) -> tuple[str, str]:
    """(kind, /Type /Subtype /S) of a value, for tree labels."""
    return type_name(value), names_label(type_names(value))


def object_row(doc, num: int) -> Content:
    """The list line of object ``num`` (parses the object: call it off the UI thread)."""
    entry = doc.xref().get(num)
    try:
        obj = doc.get(num)
    except Exception as e:  # a core bug must not take the list down; the row says what it was
        return Content(f"{num:>7}  error: {safe_line(str(e))}").stylize("$text-error")
    if obj is None:
        return Content(f"{num:>7}  missing").stylize("$text-error")
    row = present_row(obj, entry)
    size = f"{row.size} B"
    where = "objstm" if row.in_objstm else ""
    text = f"{num:>7} {row.gen:<3}{row.kind:<10} {row.names:<22} {size:>9} {where}"
    content = Content(text.rstrip()).stylize("$text-accent", 1, 7).stylize("$text-muted", 36)
    return content.stylize("$text-error", 11, 21) if row.damaged else content


class ObjectList(LineView):
    """A virtual list over object numbers (``doc.object_numbers()``); fast at 100,000 objects."""

    PRELOAD = 100  # rows read beyond the visible ones, so scrolling a page shows them at once

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.doc = None
        self.numbers: list[int] = []
        self._rows: LRUCache[int, Content] = LRUCache(4096)
        self._asked: tuple[int, int] | None = None  # the window of rows the worker is reading

    def load(self, doc, numbers: list[int]) -> None:
        self.doc = doc
        self.numbers = numbers
        self._rows.clear()
        self._asked = None
        self.reset(60)

    @property
    def line_count(self) -> int:
        return len(self.numbers)

    def build_line(self, index: int) -> Content:
        num = self.numbers[index]
        row = self._rows.get(num)
        if row is not None:
            return row
        self._ask(index)
        return Content(f"{num:>7} …").stylize("$text-muted")

    def line(self, index: int) -> Content:
        # rows not read yet are not cached as lines: they change when the worker is done
        num = self.numbers[index]
        return super().line(index) if num in self._rows else self.build_line(index)

    def _ask(self, index: int) -> None:
        if self._asked is not None and self._asked[0] <= index < self._asked[1]:
            return
        height = max(self.scrollable_content_region.height, 1)
        first = max(0, min(index, self.scroll_offset.y) - self.PRELOAD // 2)
        window = (first, min(len(self.numbers), max(index + 1, self.scroll_offset.y + height) + self.PRELOAD))
        self._asked = window
        self.read_rows(self.numbers[window[0]:window[1]])

    @work(thread=True, exclusive=True, group="object-rows", exit_on_error=False)
    def read_rows(self, numbers: list[int]) -> None:
        worker = get_current_worker()
        rows = {}
        with self.app.loader() as doc:
            for num in numbers:
                if worker.is_cancelled:
                    break
                rows[num] = object_row(doc, num)
        self.app.call_from_thread(self._rows_read, rows)

    def _rows_read(self, rows: dict[int, Content]) -> None:
        for num, row in rows.items():
            self._rows[num] = row
        self._asked = None
        self._lines.clear()
        self.refresh()

    def line_ref(self, index: int) -> tuple[Ref, str | None] | None:
        return object_ref(self.doc, self.numbers[index]), None

    def select_number(self, num: int) -> None:
        """Put the cursor on object ``num`` if it is listed."""
        i = bisect_left(self.numbers, num)
        if i < len(self.numbers) and self.numbers[i] == num:
            self.cursor = i
