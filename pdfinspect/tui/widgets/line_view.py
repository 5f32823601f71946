"""A virtual list of lines with a cursor: only visible lines are built (toolong style).

Subclasses say how many lines there are and how to build line ``i`` as ``Content``; the
view caches built lines in an LRU cache, so lists of 100,000 objects or a stream of a
million lines cost only what is on screen.
"""
from __future__ import annotations

from rich.segment import Segment
from textual.binding import Binding
from textual.cache import LRUCache
from textual.content import Content
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from pdfinspect.core.objects import Ref


class LineView(ScrollView, can_focus=True):
    """Scrollable lines with a cursor; ``enter`` follows the reference on the cursor line."""

    BINDINGS = [
        Binding("up,k", "cursor_up", "Up", show=False, id="cursor-up"),
        Binding("down,j", "cursor_down", "Down", show=False, id="cursor-down"),
        Binding("pageup", "page_up", "Page up", show=False, id="page-up"),
        Binding("pagedown", "page_down", "Page down", show=False, id="page-down"),
        Binding("home", "first", "First line", show=False, id="first-line"),
        Binding("end", "last", "Last line", show=False, id="last-line"),
        Binding("enter", "follow", "Follow", id="follow", tooltip="Open the object on this line"),
    ]
    COMPONENT_CLASSES = {"line-view--cursor"}
    DEFAULT_CSS = """
    LineView { height: 1fr; }
    LineView > .line-view--cursor { background: $block-cursor-blurred-background; }
    LineView:focus > .line-view--cursor { background: $block-cursor-background; color: $block-cursor-foreground; }
    """

    cursor: reactive[int] = reactive(0, always_update=True, repaint=False)  # watch_cursor repaints

    class Followed(Message):
        """The user pressed enter on a line that refers to an object."""

        def __init__(self, view: "LineView", index: int, ref: Ref, key: str | None) -> None:
            super().__init__()
            self.view = view
            self.index = index
            self.ref = ref
            self.key = key

        @property
        def control(self) -> "LineView":
            return self.view

    class Moved(Message):
        """The cursor moved to line ``index``."""

        def __init__(self, view: "LineView", index: int) -> None:
            super().__init__()
            self.view = view
            self.index = index

        @property
        def control(self) -> "LineView":
            return self.view

    def __init__(self, *, show_cursor: bool = True, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.show_cursor = show_cursor
        self._lines: LRUCache[int, Content] = LRUCache(2048)

    # -- what subclasses provide ---------------------------------------------------
    @property
    def line_count(self) -> int:
        return 0

    def build_line(self, index: int) -> Content:
        return Content("")

    def line_ref(self, index: int) -> tuple[Ref, str | None] | None:
        """The reference on line ``index`` and the key it sits under, if any."""
        return None

    # -- state ---------------------------------------------------------------------
    def reset(self, width_hint: int = 0) -> None:
        """Forget built lines and recompute the virtual size (call after the data changed)."""
        self._lines.clear()
        self.virtual_size = Size(width_hint, self.line_count)
        self.set_reactive(LineView.cursor, min(self.cursor, max(self.line_count - 1, 0)))
        self.refresh()

    def line(self, index: int) -> Content:
        content = self._lines.get(index)
        if content is None:
            content = self.build_line(index)
            self._lines[index] = content
        return content

    def validate_cursor(self, value: int) -> int:
        return max(0, min(value, self.line_count - 1))

    def watch_cursor(self, old: int, new: int) -> None:
        scrolled = self.scroll_offset
        self.scroll_to_cursor()
        if self.scroll_offset == scrolled:  # only the two cursor lines change (a scroll repaints all)
            self.refresh_lines(old)
            self.refresh_lines(new)
        if old != new:
            self.post_message(self.Moved(self, new))

    def scroll_to_cursor(self) -> None:
        height = self.scrollable_content_region.height or 1
        y = self.scroll_offset.y
        if self.cursor < y:
            self.scroll_to(y=self.cursor, animate=False, immediate=True)
        elif self.cursor >= y + height:
            self.scroll_to(y=self.cursor - height + 1, animate=False, immediate=True)

    # -- actions -------------------------------------------------------------------
    def action_cursor_up(self) -> None:
        self.cursor -= 1

    def action_cursor_down(self) -> None:
        self.cursor += 1

    def action_page_up(self) -> None:
        self.cursor -= max(1, self.scrollable_content_region.height - 1)

    def action_page_down(self) -> None:
        self.cursor += max(1, self.scrollable_content_region.height - 1)

    def action_first(self) -> None:
        self.cursor = 0

    def action_last(self) -> None:
        self.cursor = self.line_count - 1

    def action_follow(self) -> None:
        if not self.line_count:
            return
        target = self.line_ref(self.cursor)
        if target is not None:
            self.post_message(self.Followed(self, self.cursor, *target))

    def on_click(self, event) -> None:
        index = self.scroll_offset.y + event.y
        if 0 <= index < self.line_count:
            self.cursor = index

    # -- rendering -----------------------------------------------------------------
    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = scroll_y + y
        width = self.scrollable_content_region.width
        base = self.visual_style
        if index >= self.line_count:
            return Strip.blank(width, base.rich_style)
        style = self.get_visual_style("line-view--cursor") if (
            self.show_cursor and index == self.cursor) else base
        segments = [Segment(text, s.rich_style)
                    for text, s in self.line(index).render(style, end="", parse_style=self._get_style)]
        return Strip(segments).crop(scroll_x, scroll_x + width).extend_cell_length(width, style.rich_style)


def note(text: str) -> tuple[Content, None, None]:
    """A muted line without a reference, for a RefList: "loading…", "nothing refers to this object"."""
    return Content(text).stylize("$text-muted"), None, None


class RefList(LineView):
    """A LineView over a prepared list of ``(content, ref, key)`` lines."""

    def __init__(self, *, show_cursor: bool = True, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(show_cursor=show_cursor, name=name, id=id, classes=classes)
        self._items: list[tuple[Content, Ref | None, str | None]] = []

    def set_items(self, items: list[tuple[Content, Ref | None, str | None]], cursor: int = 0) -> None:
        self._items = items
        width = max((c.cell_length for c, _, _ in items[:5000]), default=0)
        self.set_reactive(LineView.cursor, cursor)
        self.reset(width)
        self.scroll_to(y=0, animate=False, immediate=True)

    @property
    def line_count(self) -> int:
        return len(self._items)

    def build_line(self, index: int) -> Content:
        return self._items[index][0]

    def line_ref(self, index: int) -> tuple[Ref, str | None] | None:
        _, ref, key = self._items[index]
        return (ref, key) if ref is not None else None

    @property
    def items(self) -> list[tuple[Content, Ref | None, str | None]]:
        return self._items
