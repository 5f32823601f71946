"""Every object by number, with type, subtype and size; rows are built only when shown."""
from __future__ import annotations

from textual.content import Content

from pdfinspect.core.objects import Dict, Name, Ref, Stream, type_name
from pdfinspect.core.xref import IN_OBJSTM
from pdfinspect.present.text import safe_line

from ..messages import object_ref
from .line_view import LineView


def describe_value(value) -> tuple[str, str]:
    """(kind, /Type /Subtype) of a value, for lists and tree labels."""
    kind = type_name(value)
    d = value.dict if isinstance(value, Stream) else value
    if not isinstance(d, Dict):
        return kind, ""
    names = [f"/{d[k]}" for k in ("Type", "Subtype", "S") if isinstance(d.get(k), Name)]
    return kind, safe_line(" ".join(names))


class ObjectList(LineView):
    """A virtual list over object numbers (``doc.object_numbers()``); fast at 100,000 objects."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.doc = None
        self.numbers: list[int] = []
        self.marks: dict[int, str] = {}

    def load(self, doc, numbers: list[int], marks: dict[int, str] | None = None) -> None:
        self.doc = doc
        self.numbers = numbers
        self.marks = marks or {}
        self.reset(60)

    @property
    def line_count(self) -> int:
        return len(self.numbers)

    def build_line(self, index: int) -> Content:
        num = self.numbers[index]
        entry = self.doc.xref().get(num)
        try:
            obj = self.doc.get(num)
        except Exception as e:  # a core bug must not take the list down
            return Content(f"{num:>7}  error: {safe_line(str(e))}").stylize("$text-error")
        if obj is None:
            return Content(f"{num:>7}  missing").stylize("$text-error")
        kind, names = describe_value(obj.value)
        size = f"{obj.end - obj.start} B"
        where = "objstm" if entry is not None and entry.kind == IN_OBJSTM else ""
        mark = self.marks.get(num, " ")
        text = f"{mark}{num:>6} {obj.gen:<3}{kind:<10} {names:<22} {size:>9} {where}"
        content = Content(text.rstrip()).stylize("$text-accent", 1, 7).stylize("$text-muted", 36)
        return content.stylize("$text-error", 11, 21) if obj.diagnostics else content

    def line_ref(self, index: int) -> tuple[Ref, str | None] | None:
        return object_ref(self.doc, self.numbers[index]), None

    def select_number(self, num: int) -> None:
        """Put the cursor on object ``num`` if it is listed."""
        from bisect import bisect_left

        i = bisect_left(self.numbers, num)
        if i < len(self.numbers) and self.numbers[i] == num:
            self.cursor = i
