"""What changed between two revisions of an incrementally updated file (ISO 32000 7.5.6).

:func:`revision_diff` compares the cross-reference tables as of revisions A and B: objects
``added`` (in use in B, absent or free in A), ``freed`` (the other way), ``changed`` (a new
entry whose object or stream data differs) and ``rewritten`` (a new entry, same value).
Each object's syntax is compared as text (a unified diff of :func:`object_lines`), and a
stream's decoded data by :func:`stream_diff`: a unified diff when the data is text (content
streams, CMaps, XML…, see :func:`stream_kind`), a byte summary when it is binary.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass

from ..core.objects import Dict, Ref, Stream
from ..core.xref import FREE
from .objects import object_lines
from .streams import stream_kind
from .text import bytes_as_text, safe_line

ADDED, CHANGED, FREED, REWRITTEN = "added", "changed", "freed", "rewritten"
MAX_DIFF_LINES = 50_000  # per side: longer text is summarised like binary data
CONTEXT = 3


@dataclass(frozen=True, slots=True)
class StreamDiff:
    """Decoded stream data before and after: ``kind`` (see :func:`stream_kind`) of the newer
    data, ``text`` True when ``lines`` is a unified diff, else ``lines`` is a byte summary."""

    kind: str
    before: int  # decoded bytes
    after: int
    text: bool
    lines: tuple[str, ...]

    @property
    def same(self) -> bool:
        return not self.lines


@dataclass(frozen=True, slots=True)
class ObjectDiff:
    num: int
    gen: int
    change: str  # ADDED, CHANGED, FREED, REWRITTEN
    lines: tuple[str, ...]  # unified diff of the object's syntax (dictionary only for a stream)
    stream: StreamDiff | None = None
    replaced: tuple[Replaced, ...] = ()


@dataclass(frozen=True, slots=True)
class Replaced:
    """A dictionary key that now points at another stream (``fix`` writes a new /ToUnicode):
    the old stream's data against the new one's."""

    key: str
    before: Ref
    after: Ref
    stream: StreamDiff


def _unified(a: list[str], b: list[str], name_a: str, name_b: str) -> tuple[str, ...]:
    return tuple(safe_line(ln.rstrip("\n")) for ln in difflib.unified_diff(a, b, name_a, name_b, n=CONTEXT,
                                                                            lineterm=""))


def _data(doc, obj) -> bytes:
    return doc.stream_data(obj).data if obj is not None and isinstance(obj.value, Stream) else b""


def stream_diff(doc, before, after, name_a: str = "before", name_b: str = "after") -> StreamDiff:
    """Compare the decoded data of two stream objects (either may be ``None``: no data)."""
    a, b = _data(doc, before), _data(doc, after)
    stream = after.value if after is not None and isinstance(after.value, Stream) else \
        before.value if before is not None else None
    kind = stream_kind(stream.dict, b or a) if isinstance(stream, Stream) else "hex"
    if a == b:
        return StreamDiff(kind, len(a), len(b), kind != "hex", ())
    if kind != "hex":
        la, lb = bytes_as_text(a).splitlines(), bytes_as_text(b).splitlines()
        if len(la) <= MAX_DIFF_LINES and len(lb) <= MAX_DIFF_LINES:
            return StreamDiff(kind, len(a), len(b), True, _unified(la, lb, name_a, name_b))
    first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    differ = sum(x != y for x, y in zip(a, b)) + abs(len(a) - len(b))
    return StreamDiff(kind, len(a), len(b), False, (
        f"binary data: {len(a)} → {len(b)} bytes decoded, first difference at offset {first}, "
        f"{differ} byte(s) differ or were added/removed",))


def _object_text(obj) -> list[str]:
    return [line.text for line in object_lines(obj.value, limit=None)] if obj is not None else []


def object_diff(doc, num: int, a: int, b: int, change: str | None = None) -> ObjectDiff:
    """Object ``num`` as of revision ``a`` against revision ``b``."""
    before, after = doc.get(num, None, a), doc.get(num, None, b)
    name_a, name_b = f"{num} obj (revision {a})", f"{num} obj (revision {b})"
    lines = _unified(_object_text(before), _object_text(after), name_a, name_b)
    streams = any(o is not None and isinstance(o.value, Stream) for o in (before, after))
    sd = stream_diff(doc, before, after, name_a + " stream", name_b + " stream") if streams else None
    replaced = _replaced(doc, before, after, a, b) if before is not None and after is not None else ()
    if change is None:
        change = ADDED if before is None else FREED if after is None else \
            CHANGED if lines or (sd is not None and not sd.same) else REWRITTEN
    gen = (after or before).gen if (after or before) is not None else 0
    return ObjectDiff(num, gen, change, lines, sd, replaced)


def _replaced(doc, before, after, a: int, b: int) -> tuple[Replaced, ...]:
    """Keys of a dictionary (or a stream's) whose reference changed from one stream to another."""
    da = before.value.dict if isinstance(before.value, Stream) else before.value
    db = after.value.dict if isinstance(after.value, Stream) else after.value
    if not isinstance(da, Dict) or not isinstance(db, Dict):
        return ()
    out = []
    for key, new in db.items():
        old = da.get(key)
        if not (isinstance(old, Ref) and isinstance(new, Ref)) or old == new:
            continue
        oa, ob = doc.get(old.num, old.gen, a), doc.get(new.num, new.gen, b)
        if oa is not None and ob is not None and isinstance(oa.value, Stream) and isinstance(ob.value, Stream):
            out.append(Replaced(str(key), old, new, stream_diff(doc, oa, ob, f"/{key} {old} (revision {a})",
                                                                f"/{key} {new} (revision {b})")))
    return tuple(out)


def changed_numbers(doc, a: int, b: int) -> list[tuple[int, str | None]]:
    """(object number, ADDED/FREED, or None when the entry differs) between revisions a and b."""
    xa, xb = doc.xref(a), doc.xref(b)
    out: list[tuple[int, str | None]] = []
    for num in sorted(set(xa) | set(xb)):
        ea, eb = xa.get(num), xb.get(num)
        used_a, used_b = ea is not None and ea.kind != FREE, eb is not None and eb.kind != FREE
        if not num or (not used_a and not used_b):
            continue
        if used_b and not used_a:
            out.append((num, ADDED))
        elif used_a and not used_b:
            out.append((num, FREED))
        elif ea != eb:
            out.append((num, None))
    return out


def revision_diff(doc, a: int, b: int, nums: list[int] | None = None) -> list[ObjectDiff]:
    """Every object that differs between revisions ``a`` and ``b`` (or just ``nums``)."""
    wanted = set(nums) if nums is not None else None
    return [object_diff(doc, num, a, b, change) for num, change in changed_numbers(doc, a, b)
            if wanted is None or num in wanted]


def trailer_diff(doc, a: int, b: int) -> tuple[str, ...]:
    text_a = [line.text for line in object_lines(doc.revisions[a].trailer, limit=None)]
    text_b = [line.text for line in object_lines(doc.revisions[b].trailer, limit=None)]
    return _unified(text_a, text_b, f"trailer (revision {a})", f"trailer (revision {b})")
