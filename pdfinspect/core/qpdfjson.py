"""Objects in qpdf's JSON v2 layout (the layout of ``qpdf --json=2 --json-key=qpdf``).

Names are ``"/X"``, references ``"N G R"``, strings ``"u:text"`` when they read as text
and ``"b:hex"`` otherwise, streams ``{"stream": {"dict": …, "data": base64}}``.
"""
from __future__ import annotations

import base64
import json
import re
from collections.abc import Iterator
from typing import TextIO

from .diagnostics import Severity, warning
from .document import Document
from .objects import Array, Dict, Name, Ref, Stream, String
from .parser import IndirectObject
from .serialize import is_whole
from .textstrings import decode_text, pdfdoc_table

# What qpdf's --decode-level=generalized decodes; RunLengthDecode belongs to its
# "specialized" level, image filters to "all".
GENERALIZED = frozenset({"FlateDecode", "LZWDecode", "ASCII85Decode", "ASCIIHexDecode"})

_CONTROLS_AS_TEXT = frozenset(b"\t\n\x0c\r\x08")


_PRINTABLE_ASCII = re.compile(rb"[\x20-\x7e]*")


def json_string(s: String) -> str:
    """``u:text`` when qpdf writes the string as text, else ``b:hex``: the bytes are kept.

    qpdf's rule (QPDF_String::writeJSON): a string with a UTF-16BE or UTF-8 byte order mark
    is text; otherwise it is text only if it has no control character but HT LF FF CR BS,
    at most a fifth of its bytes are ≥ 0x7F, and every byte is defined in PDFDocEncoding
    (so the text converts back to the same bytes). A marked string that does not decode
    cleanly keeps its bytes too, where qpdf would write U+FFFD.
    """
    raw = s.value
    if _PRINTABLE_ASCII.fullmatch(raw):
        return "u:" + raw.decode("ascii")
    if raw.startswith((b"\xfe\xff", b"\xef\xbb\xbf")):
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
    return "u:" + "".join(chars)


def json_name(n: Name) -> str:
    raw = n.encode("latin-1")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return "n:/" + "".join(chr(b) if 0x21 <= b < 0x7F and b != 0x23 else f"#{b:02x}" for b in raw)
    return "/" + text


_names: dict[str, str] = {}  # Name → its JSON text: a file repeats a few hundred names


def _name(n: str) -> str:
    text = _names.get(n)
    if text is None:
        text = _names[n] = _quote(json_name(n))
    return text


def encode(value) -> str:
    """``value`` as qpdf JSON v2 text (compact), written directly: no intermediate value."""
    t = type(value)
    if t is Name:
        return _name(value)
    if t is int:
        return str(value)
    if t is Ref:
        return f'"{value.num} {value.gen} R"'
    if t is Dict:
        return "{" + ", ".join(f"{_name(k)}: {encode(v)}" for k, v in value.items()) + "}"
    if t is Array:
        return "[" + ", ".join([encode(v) for v in value]) + "]"
    if t is String:
        return _quote(json_string(value))
    if t is float:
        return str(int(value)) if is_whole(value) else _float(value)
    if t is bool:
        return "true" if value else "false"
    return "null"  # null, and what is not a PDF value (a stray keyword)


def object_text(doc: Document, obj: IndirectObject, decode: bool = False) -> str:
    """One object as qpdf JSON v2 writes it (``--json-stream-data=inline``).

    A stream that fails to decode is written raw with its filters, as qpdf does, and the
    failure is added to ``doc.diagnostics``.
    """
    v = obj.value
    if not isinstance(v, Stream):
        return '{"value": ' + encode(v) + "}"
    d = Dict(v.dict)
    d.pop("Length", None)
    chain_names = _chain_names(doc, v.dict)
    if decode and chain_names and all(n in GENERALIZED for n in chain_names):
        res = doc.stream_data(obj)
        if res.error:
            data = doc.stream_data(obj, decode_filters=False).data
            doc.note(warning("stream-decode", f"stream {obj.num} {obj.gen}: {res.error}; written undecoded",
                             offset=v.data_offset, ref=(obj.num, obj.gen), clause="7.4"))
        else:
            data = res.data
            d.pop("Filter", None)
            d.pop("DecodeParms", None)
    else:
        data = doc.stream_data(obj, decode_filters=False).data
    return '{"stream": {"data": "' + base64.b64encode(data).decode("ascii") + '", "dict": ' + encode(d) + "}}"


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
    for obj in doc.iter_objects(revision, cache=False):
        yield f'   "obj:{obj.num} {obj.gen} R": {object_text(doc, obj, decode)},\n'
    # as read, like qpdf: an xref stream's trailer keeps /Type /W /Index…, an update's /Prev
    trailer = doc.revisions[revision].trailer if revision is not None else doc.trailer
    yield f'   "trailer": {{"value": {encode(trailer)}}}\n  }}\n ]\n}}\n'


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
_float = json.encoder.JSONEncoder().encode  # reals as json.dumps writes them (nan → NaN)


def _chain_names(doc: Document, d: Dict) -> list[str]:
    f = doc.resolve(d.get("Filter"))
    if isinstance(f, Name):
        return [str(f)]
    if isinstance(f, Array):
        return [str(doc.resolve(x)) for x in f]
    return []
