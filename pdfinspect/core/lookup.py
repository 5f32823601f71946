"""Why an object is there or not: the answer to ``Document.lookup(num, gen)``.

``Document.get`` gives ``None`` for four different reasons; a user who asked for ``4 3``
needs to hear which one (ISO 32000 7.5.4: a free entry, an absent number, another
generation in use, or an entry whose object cannot be read).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from .diagnostics import Diagnostic
from .parser import IndirectObject
from .xref import FREE, IN_FILE, XrefEntry

if TYPE_CHECKING:
    from .document import Document


class Found(str, Enum):
    OK = "ok"
    ABSENT = "absent"  # the number is in no cross-reference section: it never existed
    FREE = "free"  # listed as free
    WRONG_GENERATION = "wrong-generation"  # in use, at another generation
    UNREADABLE = "unreadable"  # listed in use, but no object could be read there


@dataclass(frozen=True, slots=True)
class Lookup:
    """The result of looking up ``num gen``: the object, or why there is none.

    ``entry`` is the cross-reference entry in force, ``revision`` the revision (from 0) that
    wrote it, ``diagnostics`` what went wrong reading it (for ``UNREADABLE``).
    """

    num: int
    gen: int | None
    status: Found
    object: IndirectObject | None
    entry: XrefEntry | None
    revision: int | None
    reason: str
    diagnostics: tuple[Diagnostic, ...] = ()

    @property
    def ok(self) -> bool:
        return self.status is Found.OK

    def __bool__(self) -> bool:
        return self.ok


def lookup(doc: Document, num: int, gen: int | None = None, revision: int | None = None) -> Lookup:
    entries = doc.xref(revision)
    entry = entries.get(num)
    rev = doc.revision_of(num, revision)
    asked = f"object {num} {gen}" if gen is not None else f"object {num}"
    as_of = f" as of revision {revision}" if revision is not None else ""
    if entry is None and num > 0 and num > max(doc.object_numbers(), default=0):
        doc.page_refs()  # numbers the pages written directly in /Kids, past every listed object (direct_page)
    holder = doc.direct_holder(num) if entry is None else None
    if holder is not None and not gen:
        return Lookup(num, gen, Found.OK, doc.get(num), None, None,
                      f"{asked}: a page dictionary written directly as entry {holder[1]} of /Kids in object "
                      f"{holder[0].num}, numbered by pdfinspect (no object has this number)")
    if entry is None or (num == 0 and entry.kind == FREE):
        nums = doc.object_numbers(revision)
        span = f" (in-use numbers run from {nums[0]} to {nums[-1]})" if nums else ""
        return Lookup(num, gen, Found.ABSENT, None, None, None,
                      f"{asked} does not exist: no cross-reference entry{as_of}{span}")
    if entry.kind == FREE:
        was = _last_in_use(doc, num, rev)
        before = f"; it was in use at generation {was[1].gen} in revision {was[0]}" if was else ""
        return Lookup(num, gen, Found.FREE, None, entry, rev,
                      f"{asked} is free (entry of revision {rev}: next free {entry.a}, next generation "
                      f"{entry.b}){before}")
    if gen is not None and entry.gen != gen:
        return Lookup(num, gen, Found.WRONG_GENERATION, None, entry, rev,
                      f"{asked} does not exist: object {num} is in use at generation {entry.gen}, "
                      f"not {gen} ({entry.describe()}, revision {rev})")
    obj = doc.get(num, None, revision)
    if obj is None:
        diags = tuple(d for d in doc.diagnostics if d.ref is not None and d.ref[0] == num
                      or entry.kind != IN_FILE and d.ref is not None and d.ref[0] == entry.a)
        last = diags[-1] if diags else None
        why = f": {last.message}" + (f"; {last.repair}" if last.repair else "") if last else ""
        return Lookup(num, gen, Found.UNREADABLE, None, entry, rev,
                      f"{asked} is listed ({entry.describe()}, revision {rev}) but cannot be read{why}",
                      diags)
    return Lookup(num, gen, Found.OK, obj, entry, rev, f"{asked}: {entry.describe()}, revision {rev}")


def _last_in_use(doc: Document, num: int, rev: int | None) -> tuple[int, XrefEntry] | None:
    for k in range((rev if rev is not None else len(doc.revisions)) - 1, -1, -1):
        e = doc.revisions[k].entries.get(num)
        if e is not None:
            return (k, e) if e.kind != FREE else None
    return None
