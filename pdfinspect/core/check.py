"""A whole-file check, the counterpart of ``qpdf --check``: every object parsed, every stream
decoded, lengths and offsets compared with the data, the page tree walked, the encryption
read. The result is a :class:`CheckReport` that the CLI prints and the app can show."""
from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import repair, source
from .diagnostics import Diagnostic, Severity, warning
from .objects import Stream, is_integer
from .xref import IN_FILE, read_revisions

if TYPE_CHECKING:
    from .document import Document

CLEAN, ERRORS, WARNINGS = 0, 1, 3  # exit statuses, as qpdf --check uses them


@dataclass(frozen=True, slots=True)
class CheckReport:
    """What a check found: counts, the encryption, and every diagnostic by severity."""

    version: str | None
    encryption: str
    pages: int
    objects: int
    streams: int
    streams_failed: int
    errors: tuple[Diagnostic, ...]
    warnings: tuple[Diagnostic, ...]

    @property
    def status(self) -> int:
        """0 clean, 3 warnings only, 1 errors (the exit status of ``pdfinspect check``)."""
        return ERRORS if self.errors else WARNINGS if self.warnings else CLEAN

    def verdict(self) -> str:
        if self.errors:
            return f"{len(self.errors)} error(s) and {len(self.warnings)} warning(s) found"
        if self.warnings:
            return f"no errors; {len(self.warnings)} warning(s) found"
        return "no syntax or stream encoding errors found"


def check(doc: Document, progress: Callable[[int, int], object] | None = None) -> CheckReport:
    """Check ``doc`` whole. ``progress(done, total)`` is called every 500 objects and at the end."""
    total = len(doc.object_numbers())
    objects = streams = failed = 0
    for objects, obj in enumerate(doc.iter_objects(cache=False), 1):
        if isinstance(obj.value, Stream) and not doc.locked:
            streams += 1
            res = doc.stream_data(obj)
            if res.error:
                failed += 1
                doc.note(warning("stream-decode", f"stream {obj.num} {obj.gen}: {res.error}",
                                 offset=obj.value.data_offset, ref=(obj.num, obj.gen), clause="7.4"))
        if progress is not None and objects % 500 == 0:
            progress(objects, total)
    if progress is not None:
        progress(objects, total)
    missing = total - objects
    if missing:
        doc.note(warning("objects-unreadable", f"{missing} of {total} object(s) listed in use could not be "
                         "read", clause="7.5.4"))
    size, numbers = doc.trailer.get("Size"), doc.object_numbers()
    if is_integer(size) and numbers and numbers[-1] >= size:
        doc.note(warning("trailer-size", f"the trailer's /Size is {size}, but object {numbers[-1]} is in use "
                         "(/Size is one more than the highest object number)", clause="7.5.5"))
    pages = doc.page_count()
    if pages == 0:
        doc.note(Diagnostic(Severity.ERROR, "pages-none", "no page is reachable from the catalog",
                            clause="7.7.3"))
    facts = doc.encryption
    if facts is None:
        encryption = "none"
    elif doc.locked:
        encryption = f"{facts.describe()}; locked (streams not checked)"
    else:
        assert doc.security is not None  # an unlocked encrypted document has its handler
        encryption = f"{facts.describe()}; opened with the {doc.security.authenticated_as} password"
    found = doc.diagnostics
    return CheckReport(doc.version, encryption, pages, objects, streams, failed,
                       tuple(d for d in found if d.severity is Severity.ERROR),
                       tuple(d for d in found if d.severity is Severity.WARNING))


@dataclass(frozen=True, slots=True)
class Shift:
    """Every wrong cross-reference offset is off by the same ``delta`` bytes (the object
    starts ``delta`` bytes after where its entry says): ``entries`` wrong ones, and whether
    ``startxref`` is shifted too (then the table was found only by applying the shift)."""

    delta: int
    entries: int
    startxref: bool


_XREF_KEYWORD = re.compile(rb"(?:^|[\r\n])xref[\s]")
_XREF_STREAM = re.compile(rb"/Type\s*/XRef\b")


def offset_shift(doc: Document) -> Shift | None:
    """The uniform shift of the file's xref offsets (7.5.4), if there is one: bytes inserted
    or removed before the objects by a broken transfer or editor. The tables read are checked
    first; when ``startxref`` points at no table, each xref section found in the file is
    tried at the distance from ``startxref`` and kept if it places every object right."""
    deltas: list[int] = []
    for r in doc.revisions:
        if r.startxref < 0:
            continue
        for num, e in r.entries.items():
            if e.kind == IN_FILE:
                found = doc.scan_offset(num)
                if found is not None and found != e.a:
                    deltas.append(found - e.a)
    if deltas:
        return Shift(deltas[0], len(deltas), False) if len(set(deltas)) == 1 and len(deltas) > 1 else None
    if doc.startxref is None or any(r.startxref >= 0 for r in doc.revisions):
        return None
    buf = doc.buf
    headers = sorted(offset for offset, _ in repair.scan_headers(buf).values())
    candidates = [m.start() + (buf[m.start()] in b"\r\n") for m in source.finditer(buf, _XREF_KEYWORD)]
    for m in source.finditer(buf, _XREF_STREAM):
        k = bisect.bisect_right(headers, m.start()) - 1
        if k >= 0:
            candidates.append(headers[k])
    for at in sorted(set(candidates), reverse=True):  # the last section is the newest
        delta = at - doc.startxref
        if not delta:
            continue
        revisions, _ = read_revisions(buf, doc.startxref, delta)
        placed = [(num, e.a) for r in revisions for num, e in r.entries.items() if e.kind == IN_FILE]
        if placed and all(doc.scan_offset(num) == a for num, a in placed):
            return Shift(delta, len(placed), True)
    return None
