"""Objects in qpdf's JSON v2 layout (the layout of ``qpdf --json=2 --json-key=qpdf``).

Names are ``"/X"``, references ``"N G R"``, strings ``"u:text"`` when they read as text
and ``"b:hex"`` otherwise, streams ``{"stream": {"dict": …, "data": base64}}``.
"""
from __future__ import annotations

import base64
import json
import re
from math import isfinite
from collections.abc import Iterator
from typing import TextIO, cast

from . import source
from .diagnostics import Severity, warning
from .document import Document
from .objects import Array, Dict, Name, Ref, Stream, String
from .parser import IndirectObject
from .serialize import is_whole
from .xref import FREE, IN_FILE, XrefEntry
from .textstrings import decode_text, pdfdoc_table

# What qpdf's --decode-level=generalized decodes; RunLengthDecode belongs to its
# "specialized" level, image filters to "all".
GENERALIZED = frozenset({"FlateDecode", "LZWDecode", "ASCII85Decode", "ASCIIHexDecode"})

_CONTROLS_AS_TEXT = frozenset(b"\t\n\x0c\r\x08")


_PRINTABLE_ASCII = re.compile(rb"[\x20-\x7e]*")
_NULL_VALUE = re.compile(rb"[\x00\t\n\x0c\r ]*null(?![^\x00\t\n\x0c\r ()<>\[\]{}/%])")
_NULL_OBJECT = re.compile(rb"\d+[\x00\t\n\x0c\r ]+\d+[\x00\t\n\x0c\r ]+obj" + _NULL_VALUE.pattern)


def json_string(s: String) -> str:
    """``u:text`` when qpdf writes the string as text, else ``b:hex``: the bytes are kept.

    qpdf's rule (QPDF_String::writeJSON): a string with a UTF-16 (BE or LE) or UTF-8 byte
    order mark is text; otherwise it is text only if it has no control character but HT LF FF CR BS,
    at most a fifth of its bytes are ≥ 0x7F, and every byte is defined in PDFDocEncoding
    (so the text converts back to the same bytes). A marked string that does not decode
    cleanly keeps its bytes too, where qpdf would write U+FFFD.
    """
    raw = s.value
    if _PRINTABLE_ASCII.fullmatch(raw):
        return "u:" + raw.decode("ascii")
    if raw.startswith((b"\xfe\xff", b"\xff\xfe", b"\xef\xbb\xbf")):
        problems: list = []
        text = decode_text(raw, problems)
        if all(p.severity is Severity.INFO for p in problems):
            return "u:" + text
        return "b:" + raw.hex()
    high = 0
    for b in raw:
        if b >= 0x7F:
            high += 1
        elif b < 0x20 and b not in _CONTROLS_AS_TEXT:
            return "b:" + raw.hex()
    if 5 * high > len(raw):
        return "b:" + raw.hex()
    table = pdfdoc_table()
    chars = [table[b] if b >= 0x20 else chr(b) for b in raw]
    if None in chars:
        return "b:" + raw.hex()
    return "u:" + "".join(cast("list[str]", chars))  # no None: checked above


def json_name(n: Name) -> str:
    raw = n.encode("latin-1")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return "n:/" + "".join(chr(b) if 0x21 <= b < 0x7F and b != 0x23 else f"#{b:02x}" for b in raw)
    return "/" + text


_names: dict[str, str] = {}  # Name → its JSON text: a file repeats a few hundred names


def _name(n: Name) -> str:
    text = _names.get(n)
    if text is None:
        text = _names[n] = _quote(json_name(n))
    return text


class Encoder:
    """Values as qpdf JSON v2 text (compact), written directly: no intermediate value.

    As qpdf does, a dictionary entry whose value is null, or a reference to an object the
    cross-reference data does not have in use at that generation (7.3.10: a null), is left
    out (7.3.7: such an entry is as if absent); the objects those references name are
    gathered in :attr:`dangling`, which qpdf lists as null objects.
    """

    def __init__(self, doc: Document, revision: int | None):
        self.doc = doc
        self.entries = doc.xref(revision)
        self.dangling: set[Ref] = set()
        self._nulls: dict[Ref, bool] = {}  # a reference's answer: pages, fonts and parents are referred to often

    def _is_null(self, value) -> bool:
        if value is None:
            return True
        if type(value) is not Ref:
            return False
        known = self._nulls.get(value)
        if known is None:
            e = self.entries.get(value.num)
            if e is None or e.kind == FREE or e.gen != value.gen:
                self.dangling.add(value)
                known = True
            else:
                known = self._holds_null(e)
            self._nulls[value] = known
        return known

    def _holds_null(self, e: XrefEntry) -> bool:
        """The object is ``null`` itself (``18 0 obj null endobj``): a look at its first
        bytes, not a parse, since every reference in a dictionary asks."""
        if e.kind == IN_FILE:
            with source.window(self.doc.buf, e.a, e.a + 256):
                return _NULL_OBJECT.match(self.doc.buf, e.a) is not None
        stm = self.doc._object_stream(e.a)
        if stm is None or not 0 <= e.b < len(stm.members):
            return False
        return _NULL_VALUE.match(stm.data, stm.first + stm.members[e.b][1]) is not None

    def encode(self, value) -> str:
        t = type(value)
        if t is Name:
            return _name(value)
        if t is int:
            return str(value)
        if t is Ref:
            self._is_null(value)  # kept in an array, as qpdf keeps it, but listed as null
            return f'"{value.num} {value.gen} R"'
        if t is Dict:
            return "{" + ", ".join([f"{_name(k)}: {self.encode(v)}" for k, v in value.items()
                                    if v is not None and (type(v) is not Ref or not self._is_null(v))]) + "}"
        if t is Array:
            return "[" + ", ".join([self.encode(v) for v in value]) + "]"
        if t is String:
            return _quote(json_string(value))
        if t is float:
            return str(int(value)) if is_whole(value) else repr(value) if isfinite(value) else "null"
        if t is bool:
            return "true" if value else "false"
        return "null"  # null, and what is not a PDF value (a stray keyword)

    def object_text(self, doc: Document, obj: IndirectObject, decode: bool = False) -> str:
        """One object as qpdf JSON v2 writes it (``--json-stream-data=inline``).

        A stream that fails to decode is written raw with its filters, as qpdf does, and the
        failure is added to ``doc.diagnostics``; one whose data is whole but fails a check
        (a wrong Adler-32) is written decoded, as qpdf writes it, and reported too.
        """
        v = obj.value
        if not isinstance(v, Stream):
            return '{"value": ' + self.encode(v) + "}"
        d = Dict(v.dict)
        d.pop("Length", None)
        chain_names = _chain_names(doc, v.dict)
        if decode and chain_names and all(n in GENERALIZED for n in chain_names):
            res = doc.stream_data(obj)
            if res.error:
                doc.note(warning("stream-decode", f"stream {obj.num} {obj.gen}: {res.error}; written "
                                 + ("decoded" if res.whole else "undecoded"),
                                 offset=v.data_offset, ref=(obj.num, obj.gen), clause="7.4"))
            if res.error and not res.whole:
                data = doc.stream_data(obj, decode_filters=False).data
            else:
                data = res.data
                d.pop("Filter", None)
                d.pop("DecodeParms", None)
        else:
            data = doc.stream_data(obj, decode_filters=False).data
        return '{"stream": {"data": "' + base64.b64encode(data).decode("ascii") + '", "dict": ' + self.encode(d) + "}}"


def iter_document_json(doc: Document, decode: bool = False, revision: int | None = None) -> Iterator[str]:
    """The whole document as qpdf JSON v2, in pieces written as they are produced: one
    object at a time, so the first bytes come at once and memory stays flat."""
    params = {"decodelevel": "generalized" if decode else "none"}
    yield f'{{\n "version": 2,\n "parameters": {_dumps(params)},\n "qpdf": [\n'
    nums = doc.object_numbers(revision)
    header = {
        "jsonversion": 2,
        "pdfversion": doc.version or "",
        "pushedinheritedpageresources": False,
        "calledgetallpages": False,
        "maxobjectid": max(nums) if nums else 0,
    }
    yield f"  {_dumps(header)},\n  {{\n"
    enc = Encoder(doc, revision)
    for obj in doc.iter_objects(revision, cache=False):
        yield f'   "obj:{obj.num} {obj.gen} R": {enc.object_text(doc, obj, decode)},\n'
    # as read, like qpdf: an xref stream's trailer keeps /Type /W /Index…, an update's /Prev
    trailer = enc.encode(doc.revisions[revision].trailer if revision is not None else doc.trailer)
    for ref in sorted(enc.dangling):
        yield f'   "obj:{ref.num} {ref.gen} R": {{"value": null}},\n'
    yield f'   "trailer": {{"value": {trailer}}}\n  }}\n ]\n}}\n'


_BATCH = 1 << 18  # characters gathered before one write: an unbuffered stdout (PYTHONUNBUFFERED) costs a system call a write


def write_document_json(doc: Document, out: TextIO, decode: bool = False, revision: int | None = None) -> None:
    """Write the document to ``out`` as it is produced: the opening is flushed at once, then
    objects go out in batches of about 256 K characters, each flushed, whatever buffering ``out`` has."""
    pieces = iter_document_json(doc, decode, revision)
    out.write(next(pieces))
    out.flush()
    batch: list[str] = []
    size = 0
    for piece in pieces:
        batch.append(piece)
        size += len(piece)
        if size >= _BATCH:
            out.write("".join(batch))
            out.flush()
            batch.clear()
            size = 0
    out.write("".join(batch))
    out.flush()


def document_json(doc: Document, decode: bool = False, revision: int | None = None) -> dict:
    """The whole document as one qpdf JSON v2 value (for small files and tests)."""
    return json.loads("".join(iter_document_json(doc, decode, revision)))


_dumps = json.JSONEncoder(ensure_ascii=True, check_circular=False, separators=(", ", ": ")).encode
_quote = json.encoder.encode_basestring_ascii  # a str as a JSON string, ASCII only (C speed)


def _chain_names(doc: Document, d: Dict) -> list[str]:
    f = doc.resolve(d.get("Filter"))
    if isinstance(f, Name):
        return [str(f)]
    if isinstance(f, Array):
        return [str(doc.resolve(x)) for x in f]
    return []
