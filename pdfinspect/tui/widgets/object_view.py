"""An object as highlighted PDF syntax, one reference per line so ``enter`` can follow it.

Containers that hold a reference (or a string worth a ``% "text"`` note) are written one
entry per line; the others stay as :func:`format_object` writes them. Every line knows the
reference on it and the dictionary key it sits under (the key tells a stream viewer that
``/JS`` leads to script).
"""
from __future__ import annotations

from dataclasses import dataclass

from textual.content import Content

from pdfinspect.core.objects import Array, Dict, Ref, Stream, String
from pdfinspect.core.serialize import format_name, format_object
from pdfinspect.core.textstrings import decode_text
from pdfinspect.present.text import safe_line

from .highlighting import highlight_lines
from .line_view import RefList

MAX_LINES = 20_000


@dataclass(frozen=True, slots=True)
class ObjectLine:
    text: str
    ref: Ref | None
    key: str | None


def _text_note(v) -> str:
    """``% "text"`` for a hex or non-ASCII string that reads as a text string (7.9.2.2)."""
    if not isinstance(v, String) or not (v.hex or any(b < 0x20 or b > 0x7E for b in v.value)):
        return ""
    text = decode_text(v.value)
    if not text or sum(c.isprintable() for c in text) < 0.9 * len(text):
        return ""
    return f'% "{text[:200]}"'


def _own_lines(value) -> bool:
    """Whether ``value`` holds a reference or a string with a text note: those get own lines."""
    if isinstance(value, Ref) or isinstance(value, String):
        return isinstance(value, Ref) or bool(_text_note(value))
    if isinstance(value, Stream):
        value = value.dict
    if isinstance(value, Dict):
        return any(_own_lines(v) for v in value.values())
    if isinstance(value, Array):
        return any(_own_lines(v) for v in value)
    return False


def object_lines(value, limit: int = MAX_LINES, width: int = 88) -> list[ObjectLine]:
    """Lines of PDF syntax for ``value`` (flat parts up to ``width`` columns); at most
    ``limit`` lines plus a note of the rest."""
    out: list[ObjectLine] = []

    def emit(v, depth: int, prefix: str, key: str | None) -> None:
        if len(out) >= limit:
            return
        pad = "  " * depth
        if isinstance(v, Stream):
            v = v.dict
        if not isinstance(v, (Dict, Array)) or not _own_lines(v):
            text = format_object(v, depth, width)
            lines = text.split("\n")
            ref = v if isinstance(v, Ref) else None
            out.append(ObjectLine(safe_line(prefix + lines[0]), ref, key))
            out.extend(ObjectLine(safe_line(line), None, key) for line in lines[1:])
            note = _text_note(v)
            if note:
                out.append(ObjectLine(safe_line(pad + "  " + note), None, key))
            return
        if isinstance(v, Dict):
            out.append(ObjectLine(prefix + "<<", None, key))
            for k, item in v.items():
                emit(item, depth + 1, f"{pad}  {format_name(k)} ", "/" + k)
            out.append(ObjectLine(pad + ">>", None, key))
        else:
            out.append(ObjectLine(prefix + "[", None, key))
            for item in v:
                emit(item, depth + 1, pad + "  ", key)
            out.append(ObjectLine(pad + "]", None, key))

    emit(value, 0, "", None)
    if len(out) >= limit:
        out.append(ObjectLine(f"% … truncated after {limit} lines", None, None))
    return out


Item = tuple[Content, Ref | None, str | None]


def object_items(value, trailer_lines: list[str] = (), width: int = 88) -> list[Item]:
    """The highlighted lines of ``value`` plus ``trailer_lines`` (comments), each with the
    reference and key on it. Costs time in proportion to the object (at most
    :data:`MAX_LINES` lines): the browser calls it in a worker."""
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

    def show_items(self, items: list[Item]) -> None:
        """Show lines made by :func:`object_items`, the cursor on the first reference."""
        self.set_items(items, next((i for i, (_, ref, _) in enumerate(items) if ref is not None), 0))
