"""Cross-reference data (ISO 32000 7.5.4 tables, 7.5.8 streams, 7.5.6 incremental updates).

Reads the chain of xref sections from ``startxref`` through ``/Prev`` (and the ``/XRefStm``
of hybrid files) into a list of :class:`Revision`, oldest first. Decoding an xref stream
needs the filters, which is all this module asks of the rest of the core.
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from . import source
from .diagnostics import Diagnostic, warning
from .filters import decode, filter_chain
from .numbers import read_int
from .objects import Array, Dict, Ref, Stream, is_integer
from .parser import Parser

FREE, IN_FILE, IN_OBJSTM = 0, 1, 2

_SUBSECTION = re.compile(rb"[\x00\t\n\x0c\r ]*(\d+)[ \t]+(\d+)[ \t]*(?:\r\n|\r|\n|[ \t]*(?=\d))")
_ENTRY = re.compile(rb"[\x00\t\n\x0c\r ]*(\d{1,10})[ \t]+(\d{1,5})[ \t]+([nf])")
_TRAILER = re.compile(rb"[\x00\t\n\x0c\r ]*trailer")
_XREF_KW = re.compile(rb"[\x00\t\n\x0c\r ]*xref")
_STARTXREF = re.compile(rb"startxref[\x00\t\n\x0c\r ]*(\d+)")


@dataclass(frozen=True, slots=True)
class XrefEntry:
    """``kind`` FREE: a = next free object, b = generation; IN_FILE: a = offset, b = generation;
    IN_OBJSTM: a = object stream number, b = index in it."""

    kind: int
    a: int
    b: int

    @property
    def gen(self) -> int:
        return 0 if self.kind == IN_OBJSTM else self.b

    def describe(self) -> str:
        if self.kind == FREE:
            return f"free (next {self.a}, gen {self.b})"
        if self.kind == IN_FILE:
            return f"offset {self.a} gen {self.b}"
        return f"in object stream {self.a} index {self.b}"


@dataclass(slots=True)
class XrefSection:
    offset: int
    kind: str  # "table" or "stream"
    entries: Mapping[int, XrefEntry]
    trailer: Dict
    diagnostics: list[Diagnostic] = field(default_factory=list)
    stream_num: int | None = None


@dataclass(slots=True)
class Revision:
    """One revision: the xref section(s) written by one save of the file."""

    index: int
    startxref: int
    trailer: Dict
    sections: list[XrefSection]
    entries: Mapping[int, XrefEntry]


def find_startxref(buf) -> tuple[int | None, int | None]:
    """Return (offset of the 'startxref' keyword, the offset it names), searching from the end."""
    n = len(buf)
    pos = buf.rfind(b"startxref", max(0, n - 4096))
    if pos < 0:
        pos = buf.rfind(b"startxref")
    if pos < 0:
        return None, None
    with source.window(buf, pos, pos + 4096):
        m = _STARTXREF.match(buf, pos)
    return pos, read_int(m.group(1)) if m else None


def read_section(buf, offset: int) -> XrefSection | None:
    """Read the xref table or xref stream at ``offset``; ``None`` if neither is there."""
    with source.window(buf, offset, offset + 4096):
        m = _XREF_KW.match(buf, offset)
    if m:
        pos = m.end()
        return source.grown(buf, offset, lambda end: _read_table(buf, offset, pos, len(buf) if end is None else end))
    obj = source.parse_indirect_at(buf, offset)
    if obj is None or not isinstance(obj.value, Stream):
        return None
    d = obj.value.dict
    if d.get("Type") != "XRef":
        return None
    return _read_stream(obj, offset)


def _read_table(buf, offset: int, pos: int, n: int) -> tuple[XrefSection, int]:
    """The table whose entries start at ``pos``, read up to ``n``, and how far it was read."""
    entries: dict[int, XrefEntry] = {}
    diags: list[Diagnostic] = []
    while pos < n:
        if _TRAILER.match(buf, pos, n):
            break
        sm = _SUBSECTION.match(buf, pos, n)
        if not sm:
            diags.append(warning("xref-bad-subsection", "xref table: expected a subsection header or "
                                 "'trailer'", offset=pos, clause="7.5.4"))
            break
        first = read_int(sm.group(1), diags, sm.start(1))
        count = read_int(sm.group(2), diags, sm.start(2))
        pos = sm.end()
        for i in range(count):
            em = _ENTRY.match(buf, pos, n)
            if not em:
                diags.append(warning("xref-bad-entry", f"xref table: entry {i} of subsection "
                                     f"{first} {count} unreadable; subsection cut", offset=pos, clause="7.5.4"))
                break
            pos = em.end()
            a, b = int(em.group(1)), int(em.group(2))
            num = first + i
            if em.group(3) == b"n":
                entries[num] = XrefEntry(IN_FILE, a, b)
            else:
                entries[num] = XrefEntry(FREE, a, b)
        else:
            continue
        # bad entry: resynchronise on 'trailer'
        t = buf.find(b"trailer", pos, n)
        if t < 0:
            break
        pos = t
    trailer = Dict()
    tm = _TRAILER.match(buf, pos, n)
    reach = pos + 64  # where 'trailer' would have ended
    if tm:
        p = Parser(buf, tm.end(), n)
        value = p.parse_object()
        reach = p.lexer.pos
        diags.extend(p.diagnostics)
        if isinstance(value, Dict):
            trailer = value
        else:
            diags.append(warning("trailer-bad", "trailer is not a dictionary", offset=tm.end(), clause="7.5.5"))
    else:
        diags.append(warning("trailer-missing", "no 'trailer' after the xref table", offset=pos, clause="7.5.5"))
    return XrefSection(offset, "table", entries, trailer, diags), reach


def _read_stream(obj, offset: int) -> XrefSection:
    stream: Stream = obj.value
    d = stream.dict
    diags: list[Diagnostic] = list(obj.diagnostics)
    res = decode(stream.raw, filter_chain(d))
    if res.error:
        diags.append(warning("xref-stream-decode", f"xref stream {obj.num}: {res.error}", offset=offset,
                             ref=(obj.num, obj.gen), clause="7.5.8"))
    data = res.data
    w = d.get("W")
    if not (isinstance(w, Array) and len(w) == 3 and all(isinstance(x, int) and x >= 0 for x in w)):
        diags.append(warning("xref-stream-bad-w", "xref stream /W is not three non-negative integers",
                             offset=offset, ref=(obj.num, obj.gen), clause="7.5.8.2"))
        return XrefSection(offset, "stream", {}, d, diags, obj.num)
    w1, w2, w3 = w
    size = d.get("Size") if isinstance(d.get("Size"), int) else 0
    index = d.get("Index")
    if not (isinstance(index, Array) and len(index) % 2 == 0 and all(isinstance(x, int) for x in index)):
        if index is not None:
            diags.append(warning("xref-stream-bad-index", "xref stream /Index malformed; using [0 Size]",
                                 offset=offset, ref=(obj.num, obj.gen), clause="7.5.8.2"))
        index = [0, size]
    entries = StreamEntries(data, (w1, w2, w3), [(index[k], index[k + 1]) for k in range(0, len(index), 2)])
    if obj.num not in entries:
        # The xref stream is an object at startxref even when its own /Index leaves it out
        # (7.5.8.1 only says it "should" be listed): qpdf and MuPDF show it; so do we.
        entries.extra[obj.num] = XrefEntry(IN_FILE, offset, obj.gen)
    if entries.short:
        diags.append(warning("xref-stream-short", f"xref stream data holds {entries.rows} of "
                             f"{entries.declared} entries", offset=offset, ref=(obj.num, obj.gen),
                             clause="7.5.8.3"))
    return XrefSection(offset, "stream", entries, d, diags, obj.num)


class StreamEntries(Mapping):
    """The entries of an xref stream, decoded row by row on demand.

    Looking up one object costs one row, so opening a file with 100,000 objects to show
    one of them does not build 100,000 entries. Types other than 0, 1, 2 are ignored as
    7.5.8.3 says (they read as null references).
    """

    def __init__(self, data: bytes, widths: tuple[int, int, int], ranges: list[tuple[int, int]]):
        self.data = data
        self.widths = widths
        row = sum(widths)
        self.rows = len(data) // row if row else 0
        self.declared = sum(c for _, c in ranges)
        self.short = self.declared > self.rows
        self._ranges: list[tuple[int, int, int]] = []  # (first, count, first row)
        at = 0
        for first, count in ranges:
            count = max(0, min(count, self.rows - at))
            self._ranges.append((first, count, at))
            at += count
        self._all: dict[int, XrefEntry] | None = None
        self.extra: dict[int, XrefEntry] = {}  # entries the rows do not hold (the stream itself)

    def _row(self, r: int) -> XrefEntry | None:
        w1, w2, w3 = self.widths
        pos = r * (w1 + w2 + w3)
        data = self.data
        t = int.from_bytes(data[pos:pos + w1], "big") if w1 else 1
        if t not in (0, 1, 2):
            return None
        a = int.from_bytes(data[pos + w1:pos + w1 + w2], "big")
        b = int.from_bytes(data[pos + w1 + w2:pos + w1 + w2 + w3], "big") if w3 else 0
        return XrefEntry(t, a, b)

    def __getitem__(self, num: int) -> XrefEntry:
        if self._all is not None:
            return self._all[num]
        found = None
        for first, count, at in self._ranges:  # later subsections win, as in a dict
            if first <= num < first + count:
                found = at + num - first
        if found is None:
            return self.extra[num]
        entry = self._row(found)
        if entry is None:
            raise KeyError(num)
        return entry

    def materialize(self) -> dict[int, XrefEntry]:
        if self._all is None:
            out: dict[int, XrefEntry] = {}
            w1, w2, w3 = self.widths
            row = w1 + w2 + w3
            data, frombytes = self.data, int.from_bytes
            for first, count, at in self._ranges:
                pos = at * row
                for num in range(first, first + count):
                    t = frombytes(data[pos:pos + w1], "big") if w1 else 1
                    if t in (0, 1, 2):
                        out[num] = XrefEntry(t, frombytes(data[pos + w1:pos + w1 + w2], "big"),
                                             frombytes(data[pos + w1 + w2:pos + row], "big") if w3 else 0)
                    pos += row
            for num, e in self.extra.items():
                out.setdefault(num, e)
            self._all = out
        return self._all

    def __iter__(self) -> Iterator[int]:
        return iter(self.materialize())

    def __len__(self) -> int:
        return len(self.materialize())


def _prev_offset(section: XrefSection, diags: list[Diagnostic]) -> int | None:
    """The offset /Prev names. A reference ``N G R`` is read as offset N, as pdf.js does; any
    other value ends the chain, with a diagnostic."""
    prev = section.trailer.get("Prev")
    if prev is None or is_integer(prev):
        return prev
    if isinstance(prev, Ref):
        diags.append(warning("xref-prev-reference", f"/Prev is the reference {prev}, not an offset",
                             offset=section.offset, clause="7.5.5",
                             repair=f"followed as offset {prev.num} (pdf.js's reading)"))
        return prev.num
    if isinstance(prev, float) and prev.is_integer():
        diags.append(warning("xref-prev-real", f"/Prev is the real {prev}, not an integer",
                             offset=section.offset, clause="7.5.5", repair=f"followed as offset {int(prev)}"))
        return int(prev)
    diags.append(warning("xref-prev-bad", f"/Prev is {type(prev).__name__} {prev!r:.40}, not an offset; "
                         "older revisions not read", offset=section.offset, clause="7.5.5",
                         repair="the file is scanned for the objects they held"))
    return None


def read_revisions(buf, startxref: int, base: int = 0) -> tuple[list[Revision], list[Diagnostic]]:
    """Follow ``/Prev`` from ``startxref``; return revisions oldest first.

    ``base`` is where the file the offsets count from starts in ``buf`` (a %PDF header after
    junk, or a second file appended to a first): every offset read is shifted by it.
    """
    diags: list[Diagnostic] = []
    chain: list[tuple[int, list[XrefSection]]] = []
    seen: set[int] = set()
    offset: int | None = startxref + base
    while offset is not None:
        if offset in seen:
            diags.append(warning("xref-prev-loop", f"/Prev chain loops back to offset {offset}; stopped",
                                 offset=offset, clause="7.5.6"))
            break
        seen.add(offset)
        if not (0 <= offset < len(buf)):
            diags.append(warning("xref-offset-out-of-range", f"xref offset {offset} is outside the file",
                                 offset=offset, clause="7.5.5"))
            break
        section = read_section(buf, offset)
        if section is None:
            diags.append(warning("xref-not-found", f"no xref table or stream at offset {offset}",
                                 offset=offset, clause="7.5.5"))
            break
        diags.extend(section.diagnostics)
        sections = [section]
        stm = section.trailer.get("XRefStm")
        if section.kind == "table" and isinstance(stm, int):
            stm += base
            hybrid = read_section(buf, stm) if 0 <= stm < len(buf) else None
            if hybrid is None or hybrid.kind != "stream":
                diags.append(warning("xrefstm-not-found", f"/XRefStm {stm} does not point at an xref stream",
                                     offset=stm, clause="7.5.8.4"))
            else:
                diags.extend(hybrid.diagnostics)
                sections.append(hybrid)
        chain.append((offset, sections))
        offset = _prev_offset(section, diags)
        if offset is not None:
            offset += base
    revisions: list[Revision] = []
    for i, (off, sections) in enumerate(reversed(chain)):
        entries = sections[0].entries
        if len(sections) > 1:
            merged = dict(entries)
            for extra in sections[1:]:
                # hybrid file: the stream's entries fill in what the table leaves free or absent
                for num, e in extra.entries.items():
                    cur = merged.get(num)
                    if cur is None or cur.kind == FREE:
                        merged[num] = e
            entries = merged
        if base:
            entries = {num: XrefEntry(IN_FILE, e.a + base, e.b) if e.kind == IN_FILE else e
                       for num, e in entries.items()}
        revisions.append(Revision(i, off, sections[0].trailer, sections, entries))
    return revisions, diags
