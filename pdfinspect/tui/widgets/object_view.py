"""An object as highlighted PDF syntax, one reference per line so ``enter`` can follow it.

Containers that hold a reference are written one entry per line; containers without one
stay flat as :func:`format_object` writes them. Every line knows the reference on it and the
dictionary key it sits under (the key tells a stream viewer that ``/JS`` leads to script).
"""
from __future__ import annotations

from dataclasses import dataclass

from textual.content import Content

from pdfinspect.core.objects import Array, Dict, Ref, Stream
from pdfinspect.core.serialize import format_name, format_object
from pdfinspect.present.text import safe_line

from .highlighting import highlight_lines
from .line_view import RefList

MAX_LINES = 20_000


@dataclass(frozen=True, slots=True)
class ObjectLine:
    text: str
    ref: Ref | None
    key: str | None


def _has_ref(value) -> bool:
    if isinstance(value, Ref):
        return True
    if isinstance(value, Stream):
        value = value.dict
    if isinstance(value, Dict):
        return any(_has_ref(v) for v in value.values())
    if isinstance(value, Array):
        return any(_has_ref(v) for v in value)
    return False


def object_lines(value, limit: int = MAX_LINES) -> list[ObjectLine]:
    """Lines of PDF syntax for ``value``; at most ``limit`` lines plus a note of the rest."""
    out: list[ObjectLine] = []

    def emit(v, depth: int, prefix: str, key: str | None) -> None:
        if len(out) >= limit:
            return
        pad = "  " * depth
        if isinstance(v, Stream):
            v = v.dict
        if not isinstance(v, (Dict, Array)) or not _has_ref(v):
            text = format_object(v, depth)
            lines = text.split("\n")
            ref = v if isinstance(v, Ref) else None
            out.append(ObjectLine(safe_line(prefix + lines[0]), ref, key))
            out.extend(ObjectLine(safe_line(line), None, key) for line in lines[1:])
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


class ObjectView(RefList):
    """Shows one PDF value; ``enter`` on a line with a reference posts ``Followed``."""

    def show_value(self, value, trailer_lines: list[str] = ()) -> None:
        lines = object_lines(value)
        text = "\n".join([line.text for line in lines] + list(trailer_lines))
        contents = highlight_lines(text, "pdf")
        items = [(c, line.ref, line.key) for c, line in zip(contents, lines)]
        items += [(c, None, None) for c in contents[len(lines):]]
        first_ref = next((i for i, (_, ref, _) in enumerate(items) if ref is not None), 0)
        self.set_items(items, first_ref)
