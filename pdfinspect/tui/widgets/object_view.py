"""An object as highlighted PDF syntax, one reference per line so ``enter`` can follow it.

The lines come from :func:`pdfinspect.present.objects.object_lines` (the CLI's ``show``
prints the same ones). Every line knows the reference on it and the dictionary key it sits
under (the key tells a stream viewer that ``/JS`` leads to script).
"""
from __future__ import annotations

from textual.content import Content

from pdfinspect.core.objects import Ref
from pdfinspect.present.objects import object_lines

from .highlighting import highlight_lines
from .line_view import RefList

Item = tuple[Content, Ref | None, str | None]


def object_items(value, trailer_lines: list[str] = (), width: int = 88) -> list[Item]:
    """The highlighted lines of ``value`` plus ``trailer_lines`` (comments), each with the
    reference and key on it. Costs time in proportion to the object (at most
    :data:`~pdfinspect.present.objects.MAX_LINES` lines): the browser calls it in a worker."""
    lines = object_lines(value, width=width)
    text = "\n".join([line.text for line in lines] + list(trailer_lines))
    contents = highlight_lines(text, "pdf")
    items = [(c, line.ref, line.key) for c, line in zip(contents, lines)]
    return items + [(c, None, None) for c in contents[len(lines):]]


def lines_not_in(items: list[Item], other: list[Item]) -> list[Item]:
    """``items`` with the lines that ``other`` does not have highlighted (a line-wise diff)."""
    theirs = {content.plain for content, _, _ in other}
    return [(content if content.plain in theirs else content.stylize("on $warning-muted"), ref, key)
            for content, ref, key in items]


class ObjectView(RefList):
    """Shows one PDF value; ``enter`` on a line with a reference posts ``Followed``."""

    def show_items(self, items: list[Item], key: str | None = None) -> None:
        """Show lines made by :func:`object_items`, the cursor on the first line under ``key``
        (the entry the user came for: "Fonts of page 1" opens /Resources at /Font), else on
        the first reference."""
        under = next((i for i, (_, _, k) in enumerate(items) if key is not None and k == key), None)
        self.set_items(items, under if under is not None else
                       next((i for i, (_, ref, _) in enumerate(items) if ref is not None), 0))
