"""One object as both front ends show it: a header of facts, then lines of PDF syntax.

:func:`object_header` says where the object is (file offset, or object stream and index),
how long it is, which revision wrote it and, when there is no object, why (ISO 32000 7.5.4,
7.5.6, 7.5.7). :func:`object_lines` writes the value as PDF syntax with one reference per
line, so a front end can follow the reference on any line.

Revisions are numbered from 0 (the original file) everywhere: in these headers, in the CLI's
``--revision K`` and in ``Document.revisions[K]``.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..core.objects import Array, Dict, Name, Ref, Stream, String, is_integer, is_number, type_name
from ..core.serialize import format_name, format_object
from ..core.textstrings import decode_text
from ..core.xref import IN_FILE, IN_OBJSTM
from .text import Parts, plain, safe_line

MAX_LINES = 20_000
"""Lines of one object the app lays out; the CLI prints every line."""

# Roles of the parts of a header: each front end gives them its own style.
TITLE, FACT, NOTE, AS_OF, MISSING = "title", "fact", "note", "as-of", "missing"


def revision_label(k: int, count: int) -> str:
    """``revision K of 0–N``: revisions count from 0, the original file."""
    return f"revision {k} of 0–{count - 1}" if count > 1 else f"revision {k}"


def type_names(value) -> tuple[str | None, str | None, str | None]:
    """The /Type, /Subtype and /S of a dictionary or stream (``None`` where absent or not a name)."""
    d = value.dict if isinstance(value, Stream) else value
    if not isinstance(d, Dict):
        return None, None, None

    def name(key: str) -> str | None:
        v = d.get(key)
        return str(v) if isinstance(v, Name) else None
    return name("Type"), name("Subtype"), name("S")


def names_label(names: tuple[str | None, ...]) -> str:
    """``/A /B`` of the names given, terminal-safe."""
    return " ".join("/" + safe_line(n) for n in names if n is not None)


@dataclass(frozen=True, slots=True)
class ObjectRow:
    """One object as an object list shows it: the CLI's ``objects`` and the app's object list.

    ``kind`` is the value's kind (:func:`~pdfinspect.core.objects.type_name`); ``type``,
    ``subtype``, ``s`` its dictionary's /Type, /Subtype and /S; ``size`` the bytes from
    ``N G obj`` through ``endobj`` (in the decoded data for an object in an object stream);
    ``where`` the cross-reference entry's description (``""`` without one); ``damaged``:
    reading it left diagnostics."""

    num: int
    gen: int
    kind: str
    type: str | None
    subtype: str | None
    s: str | None
    size: int
    where: str
    in_objstm: bool
    damaged: bool

    @property
    def type_subtype(self) -> str:
        """``/Type /Subtype``, terminal-safe."""
        return names_label((self.type, self.subtype))

    @property
    def names(self) -> str:
        """``/Type /Subtype /S``, terminal-safe."""
        return names_label((self.type, self.subtype, self.s))


def object_row(obj, entry) -> ObjectRow:
    """The row of the indirect object ``obj`` found through the xref ``entry`` (or ``None``)."""
    return ObjectRow(obj.num, obj.gen, type_name(obj.value), *type_names(obj.value), size=obj.end - obj.start,
                     where=entry.describe() if entry is not None else "",
                     in_objstm=entry is not None and entry.kind == IN_OBJSTM, damaged=bool(obj.diagnostics))


@dataclass(frozen=True, slots=True)
class ObjectHeader:
    """The facts about one object, or the trailer (``num`` is ``None``).

    ``offset`` is where ``N G obj`` starts in the file; for an object inside an object
    stream it is ``None`` and ``stream``/``index`` say where it is (``start`` is then its
    offset in the stream's decoded data). ``length`` counts the bytes from ``N G obj``
    through ``endobj``. ``revision`` is the revision that wrote the object, ``count`` how
    many the document has, ``as_of`` the revision asked for (``None``: the latest).
    ``missing`` says why there is no object.
    """

    num: int | None
    gen: int | None
    count: int
    revision: int | None = None
    as_of: int | None = None
    offset: int | None = None
    stream: int | None = None
    index: int | None = None
    start: int | None = None
    length: int | None = None
    earlier: bool = False
    missing: str | None = None

    @property
    def title(self) -> str:
        if self.num is None:
            return "trailer"
        return f"{self.num} {self.gen if self.gen is not None else 0} obj"

    def facts(self) -> list[str]:
        if self.missing is not None:
            return []
        out = []
        if self.stream is not None:
            out.append(f"object stream {self.stream} index {self.index}")
            out.append(f"offset {self.start} in its data")
        elif self.offset is not None:
            out.append(f"offset {self.offset}")
        if self.length is not None:
            out.append(f"{self.length} bytes")
        if self.revision is not None:
            out.append(revision_label(self.revision, self.count))
        return out

    def parts(self) -> Parts:
        """``(text, role)`` pieces of the one-line header, roles :data:`TITLE` … :data:`MISSING`;
        every text is terminal-safe."""
        parts = [(self.title, TITLE)]
        if self.missing is not None:
            parts.append((f"  missing: {safe_line(self.missing)}", MISSING))
        facts = self.facts()
        if facts:
            parts.append(("  " + ", ".join(facts), FACT))
        if self.earlier:
            parts.append((f"  (replaces the object as of revision {self.revision - 1})", NOTE))
        if self.as_of is not None:
            parts.append((f"  [as of revision {self.as_of}]", AS_OF))
        return parts

    @property
    def line(self) -> str:
        """The whole header as one line."""
        return plain(self.parts())

    @property
    def detail(self) -> str:
        """The header after the title (what ``show`` prints as a comment above ``N G obj``)."""
        return plain(self.parts()[1:]).strip()


def object_header(doc, num: int, gen: int | None = None, revision: int | None = None):
    """``(ObjectHeader, IndirectObject or None)`` for object ``num`` (at ``gen``, if given)
    as of ``revision``; without an object, ``missing`` is ``Document.lookup``'s reason."""
    count = len(doc.revisions)
    found = doc.lookup(num, gen, revision)
    obj, rev = found.object, found.revision
    if obj is None:
        return ObjectHeader(num, gen, count, rev, revision, missing=found.reason), None
    earlier = rev is not None and rev > 0 and doc.get(num, None, rev - 1) is not None
    if obj.container is not None:
        header = ObjectHeader(num, obj.gen, count, rev, revision, stream=obj.container, index=obj.index,
                              start=obj.start, length=obj.end - obj.start, earlier=earlier)
    else:
        header = ObjectHeader(num, obj.gen, count, rev, revision, offset=obj.start,
                              length=obj.end - obj.start, earlier=earlier)
    return header, obj


def trailer_header(doc, revision: int | None = None) -> tuple[ObjectHeader, Dict]:
    """``(ObjectHeader, trailer dictionary)`` of ``revision`` (default: the latest)."""
    count = len(doc.revisions)
    if not doc.revisions:
        return ObjectHeader(None, None, 0), doc.trailer
    k = count - 1 if revision is None else revision
    return ObjectHeader(None, None, count, k, revision), doc.revisions[k].trailer


# -- object lines ----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ObjectLine:
    """A terminal-safe line of PDF syntax, the reference on it and the key it sits under."""

    text: str
    ref: Ref | None
    key: str | None


def text_note(v) -> str:
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
        return isinstance(value, Ref) or bool(text_note(value))
    if isinstance(value, Stream):
        value = value.dict
    if isinstance(value, Dict):
        return any(_own_lines(v) for v in value.values())
    if isinstance(value, Array):
        return any(_own_lines(v) for v in value)
    return False


def _numbers_and_names(v: Array) -> bool:
    return bool(v) and all(is_number(x) or isinstance(x, Name) for x in v)


def code_runs(items: Array, key: str, first_char: int, width: int, per_line: int = 8) -> list[str]:
    """``/Widths`` or ``/Differences`` wrapped, each line annotated with the codes it assigns
    (9.6.2.1 widths from /FirstChar; 9.6.5.1 a number starts a run of codes for the names
    after it)."""
    lines: list[str] = []
    if key == "/Widths":
        for start in range(0, len(items), per_line):
            chunk = items[start:start + per_line]
            lo = first_char + start
            text = " ".join(format_object(x) for x in chunk)
            lines.append(f"{text}  % codes {lo}–{lo + len(chunk) - 1}")
        return lines
    code, run, run_start = None, [], None

    def flush() -> None:
        if run:
            lines.append(f"{' '.join(run)}  % codes {run_start}–{code - 1}" if code > run_start else " ".join(run))

    for x in items:
        if is_number(x):
            flush()
            code = int(x)
            run, run_start = [format_object(x)], code
        else:
            if code is None:  # a name before any code: malformed, shown as is
                lines.append(format_object(x))
                continue
            if len(run) > per_line:
                flush()
                run, run_start = [], code
            run.append(format_object(x))
            code += 1
    flush()
    return lines


def object_lines(value, limit: int | None = MAX_LINES, width: int = 88) -> list[ObjectLine]:
    """Lines of PDF syntax for ``value``: containers that hold a reference (or a string worth
    a ``% "text"`` note) one entry per line, the rest as :func:`format_object` writes them
    (up to ``width`` columns). At most ``limit`` lines plus a note of the rest (``None``:
    every line)."""
    out: list[ObjectLine] = []

    def emit(v, depth: int, prefix: str, key: str | None, parent=None) -> None:
        if limit is not None and len(out) >= limit:
            return
        pad = "  " * depth
        if isinstance(v, Stream):
            v = v.dict
        if isinstance(v, Array) and key in ("/Widths", "/Differences") and _numbers_and_names(v):
            out.append(ObjectLine(safe_line(prefix + "["), None, key))
            first = parent.get("FirstChar") if isinstance(parent, Dict) else None
            for text in code_runs(v, key, first if is_integer(first) else 0, width - len(pad) - 2):
                out.append(ObjectLine(safe_line(pad + "  " + text), None, key))
            out.append(ObjectLine(pad + "]", None, key))
            return
        if not isinstance(v, (Dict, Array)) or not _own_lines(v):
            lines = format_object(v, depth, width).split("\n")
            ref = v if isinstance(v, Ref) else None
            out.append(ObjectLine(safe_line(prefix + lines[0]), ref, key))
            out.extend(ObjectLine(safe_line(line), None, key) for line in lines[1:])
            note = text_note(v)
            if note:
                out.append(ObjectLine(safe_line(pad + "  " + note), None, key))
            return
        if isinstance(v, Dict):
            out.append(ObjectLine(prefix + "<<", None, key))
            for k, item in v.items():
                emit(item, depth + 1, f"{pad}  {format_name(k)} ", "/" + k, v)
            out.append(ObjectLine(pad + ">>", None, key))
        else:
            out.append(ObjectLine(prefix + "[", None, key))
            for item in v:
                emit(item, depth + 1, pad + "  ", key)
            out.append(ObjectLine(pad + "]", None, key))

    emit(value, 0, "", None)
    if limit is not None and len(out) >= limit:
        out.append(ObjectLine(f"% … truncated after {limit} lines", None, None))
    return out


def object_at(doc, offset: int, revision: int | None = None) -> tuple[int, int] | None:
    """(object number, its offset) of the object stored last before ``offset`` in the file
    (by the cross-reference entries as of ``revision``): where a byte offset falls."""
    best = None
    for num, e in doc.xref(revision).items():
        if e.kind == IN_FILE and e.a <= offset and (best is None or e.a > best[1]):
            best = (num, e.a)
    return best
