"""PDF object model (ISO 32000 7.3).

Mapping to Python:
- null → ``None``; boolean → ``bool``; integer → ``int``; real → ``float``
- name → :class:`Name` (a ``str`` subclass holding the name *without* the slash, after
  ``#xx`` decoding, bytes mapped one-to-one through Latin-1)
- string → :class:`String` (bytes, remembers literal vs hex; never decoded implicitly)
- array → :class:`Array` (a ``list``), dictionary → :class:`Dict` (a ``dict`` keyed by Name)
- indirect reference → :class:`Ref`; stream → :class:`Stream`
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeGuard, Union


class Name(str):
    """A PDF name. ``Name("Type") == "Type"``; written as ``/Type``."""

    __slots__ = ()

    @property
    def raw(self) -> bytes:
        return self.encode("latin-1")

    def __repr__(self) -> str:
        return f"Name({str.__repr__(self)})"


@dataclass(frozen=True, slots=True)
class String:
    """A PDF string: the bytes it denotes, and whether it was written as ``<hex>``."""

    value: bytes
    hex: bool = False

    def __bytes__(self) -> bytes:
        return self.value


@dataclass(frozen=True, slots=True, order=True)
class Ref:
    """An indirect reference ``num gen R``."""

    num: int
    gen: int = 0

    def __str__(self) -> str:
        return f"{self.num} {self.gen} R"


class Array(list):
    """A PDF array."""

    __slots__ = ()


class Dict(dict):
    """A PDF dictionary; keys are :class:`Name`."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Keyword:
    """A bare keyword that is not ``true``/``false``/``null`` (content operators, ``R``…)."""

    value: bytes

    def __str__(self) -> str:
        return self.value.decode("latin-1")


class Stream:
    """A stream: its dictionary and the raw (still filtered, maybe encrypted) bytes.

    The bytes are not copied when the stream is parsed: ``raw`` slices them from the file's
    buffer (the file's bytes, or its on-demand source) each time it is read, so a cache of parsed objects holds dictionaries,
    not data. ``data_offset`` is the byte offset of the data in the file (``None`` for
    streams built in memory), ``ref`` the indirect object the stream is (set by the parser),
    so ``Document.stream_data(stream)`` can decrypt it from the value alone. Decoding lives
    in :mod:`pdfinspect.core.filters` and the Document, which knows the decryption key.
    """

    __slots__ = ("dict", "data_offset", "diagnostics", "ref", "_source", "_start", "_end")

    def __init__(self, dict: Dict, raw: bytes = b"", data_offset: int | None = None,
                 diagnostics: list | None = None, ref: "Ref | None" = None):
        self.dict = dict
        self.data_offset = data_offset
        self.diagnostics = [] if diagnostics is None else diagnostics
        self.ref = ref
        self._source, self._start, self._end = raw, 0, len(raw)

    @classmethod
    def in_buffer(cls, d: Dict, buf, start: int, end: int, ref: "Ref | None" = None) -> "Stream":
        """A stream whose data is ``buf[start:end]``, read from ``buf`` on demand."""
        s = cls(d, b"", start, None, ref)
        s._source, s._start, s._end = buf, start, end
        return s

    @property
    def raw(self) -> bytes:
        """The stored bytes (filtered, maybe encrypted), read from the file now."""
        return bytes(self._source[self._start:self._end])

    @property
    def raw_length(self) -> int:
        """How many bytes ``raw`` holds, without reading them."""
        return self._end - self._start

    def get(self, key: str, default: Any = None) -> Any:
        return self.dict.get(key, default)

    def __getitem__(self, key: str) -> Any:
        return self.dict[key]

    def __contains__(self, key: object) -> bool:
        return key in self.dict

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Stream):
            return NotImplemented
        return self.dict == other.dict and self.raw_length == other.raw_length and self.raw == other.raw

    __hash__ = None  # type: ignore[assignment]  # mutable, like the Dict it wraps

    def __repr__(self) -> str:
        where = f", ref={self.ref}" if self.ref is not None else ""
        return f"Stream({self.dict!r}, {self.raw_length} bytes{where})"

    def __getstate__(self):
        return (self.dict, self.raw, self.data_offset, self.diagnostics, self.ref)

    def __setstate__(self, state) -> None:
        d, raw, offset, diags, ref = state
        Stream.__init__(self, d, raw, offset, diags, ref)


PdfObject = Union[None, bool, int, float, Name, String, Array, Dict, Ref, Stream]


def is_integer(value: Any) -> TypeGuard[int]:
    """True for a PDF integer: an ``int`` that is not a ``bool`` (Python's bool is an int)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: Any) -> TypeGuard[int | float]:
    """True for a PDF integer or real (7.3.3), booleans excluded."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def type_name(obj: Any) -> str:
    """A short human name for the kind of a PDF object."""
    if obj is None:
        return "null"
    if isinstance(obj, bool):
        return "boolean"
    if isinstance(obj, int):
        return "integer"
    if isinstance(obj, float):
        return "real"
    if isinstance(obj, Name):
        return "name"
    if isinstance(obj, String):
        return "string"
    if isinstance(obj, Array):
        return "array"
    if isinstance(obj, Stream):
        return "stream"
    if isinstance(obj, Dict):
        return "dictionary"
    if isinstance(obj, Ref):
        return "reference"
    return type(obj).__name__
