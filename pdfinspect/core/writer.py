"""Saving changes: an incremental update, or a full rewrite (ISO 32000-1 7.5.6, 7.5.4, 7.5.8).

An incremental update keeps the original bytes untouched as the prefix of the output and
appends the new objects, one cross-reference section of the same kind as the file's last
one (a classic table, or an xref stream with ``/W`` ``/Index`` ``/Size``, Flate-compressed)
whose ``/Prev`` names the last section, and a trailer carrying ``/Root`` ``/Info``
``/Encrypt`` over with the first ``/ID`` element kept and the second one new (14.4).

A file that needed repair to open has no sound section to chain to: :func:`check_updatable`
says so, and :func:`rewrite` writes a whole new file instead (every object under its own
number, one fresh xref table). In an encrypted file the new objects' strings and streams
are encrypted with the document's security handler (R2–R4 per-object keys, AESV3 the file
key); the xref stream and the /Encrypt dictionary never are (7.6.2).

Both write to a binary file as they go (:func:`write_update`, :func:`write_rewrite`): the
original bytes are copied from the document's map in chunks, never held whole; the
:mod:`.atomic` helpers give the file. :func:`incremental_update` and :func:`rewrite` return
the bytes instead, for callers that want them in memory.

Stream values given to the writer hold their *filtered, unencrypted* data in ``raw``.
"""
from __future__ import annotations

import hashlib
import io
import os
import time
import zlib
from collections.abc import Iterable, Mapping
from typing import BinaryIO

from .diagnostics import PdfError, error
from .objects import Array, Dict, Name, Ref, Stream, String, is_integer
from .serialize import format_object
from .xref import IN_FILE

_FLAT = 10 ** 9  # format_object width: every value on one line
TRAILER_KEYS = ("Root", "Info", "Encrypt")
_BINARY_COMMENT = b"%\xe2\xe3\xcf\xd3\n"  # 7.5.2: marks the file as binary for transfer tools
CHUNK = 1 << 20  # bytes of the original copied at a time


class _Sink:
    """A binary file written in order: the offset reached, and a digest of what was written
    after ``start`` (the new part the second /ID element is made from)."""

    def __init__(self, f: BinaryIO, start: int = 0):
        self.f, self.pos = f, start
        self.digest = hashlib.md5()

    def write(self, data: bytes) -> None:
        self.f.write(data)
        self.pos += len(data)
        self.digest.update(data)


def check_updatable(doc) -> None:
    """Raise :class:`PdfError` (``update-refused``) when an incremental update cannot be
    chained to the file, or its new objects cannot be encrypted."""
    if doc.repaired or not doc.revisions:
        raise _refuse("the file needed repair to open (cross-reference rebuilt by scanning): there is "
                      "no sound xref section to chain an update to; use --rewrite to write a new file")
    if doc.startxref is None or doc.revisions[-1].startxref != doc.startxref:
        raise _refuse(f"startxref names offset {doc.startxref}, where no xref section was read: there is "
                      "no sound xref section to chain an update to; use --rewrite to write a new file")
    check_encryptable(doc)


def check_encryptable(doc) -> None:
    if doc.trailer.get("Encrypt") is not None and doc.security is None:
        raise _refuse("the file's /Encrypt dictionary could not be used, so new objects cannot be "
                      "encrypted to match the file")


def _refuse(message: str) -> PdfError:
    return PdfError(error("update-refused", message, clause="7.5.6"))


def next_free_number(doc) -> int:
    """The first object number no revision uses and the trailer's /Size allows."""
    size = doc.trailer.get("Size")
    numbers = doc.xref()
    top = max(numbers) + 1 if numbers else 1
    return max(top, size if is_integer(size) else 0, 1)


def incremental_update(doc, objects: Mapping[Ref, object], compress: bool = True) -> bytes:
    """:func:`write_update` into memory: the bytes of the updated file."""
    f = io.BytesIO()
    write_update(doc, objects, f, compress)
    return f.getvalue()


def write_update(doc, objects: Mapping[Ref, object], f: BinaryIO, compress: bool = True) -> int:
    """Write the original file followed by ``objects`` (new ones, or new revisions of existing
    numbers) as one incremental update to ``f``; the number of bytes written. Raises
    :class:`PdfError` (``update-refused``) before writing anything when the file cannot take one."""
    check_updatable(doc)
    buf, size = doc.buf, len(doc.buf)
    for start in range(0, size, CHUNK):
        f.write(buf[start:start + CHUNK])
    out = _Sink(f, size)
    if size and buf[size - 1:size] not in (b"\n", b"\r"):
        out.write(b"\n")  # after the prefix, never inside it
    offsets = _write_objects(out, doc, sorted(objects.items()), encrypt_data=True)
    trailer = _trailer(doc, doc.trailer, out.digest.digest())
    trailer["Prev"] = doc.startxref
    top = max([r.num for r in objects] + [0])
    size = doc.trailer.get("Size")
    size = max(size if is_integer(size) else 0, top + 1)
    if doc.revisions[-1].sections[0].kind == "stream":
        num = max(size, next_free_number(doc))  # the xref stream's own number
        trailer["Size"] = num + 1
        _xref_stream(out, offsets, trailer, num, compress)
    else:
        trailer["Size"] = size
        _xref_table(out, offsets, trailer)
    return out.pos


def rewrite(doc, objects: Mapping[Ref, object]) -> bytes:
    """:func:`write_rewrite` into memory: the bytes of the new file."""
    f = io.BytesIO()
    write_rewrite(doc, objects, f)
    return f.getvalue()


def write_rewrite(doc, objects: Mapping[Ref, object], f: BinaryIO) -> int:
    """Write a whole new file to ``f``: every object in use (``objects`` replacing or adding),
    each under its own number and generation, object and xref streams unpacked, one xref
    table; the number of bytes written."""
    check_encryptable(doc)
    version = (doc.version or "1.7").encode("ascii", "replace")
    out = _Sink(f)
    out.write(b"%PDF-" + version + b"\n" + _BINARY_COMMENT)
    encrypt_ref = doc.trailer.get("Encrypt")
    skip = encrypt_ref.num if isinstance(encrypt_ref, Ref) else None
    items: dict[int, tuple[Ref, object, bool]] = {}
    for obj in doc.iter_objects(cache=False):
        value = obj.value
        if isinstance(value, Stream) and value.dict.get("Type") in ("XRef", "ObjStm"):
            continue
        if isinstance(value, Dict) and "Linearized" in value:
            continue  # its offsets and hints would lie about the new file
        # streams read from the file keep their (encrypted) data as it is
        items[obj.num] = (Ref(obj.num, obj.gen), value, False)
    for ref, value in objects.items():
        items[ref.num] = (ref, value, True)
    offsets: dict[int, tuple[int, int]] = {}
    for num in sorted(items):
        ref, value, new = items[num]
        offsets.update(_write_objects(out, doc, [(ref, value)], encrypt_data=new,
                                      plain=num == skip))
    trailer = _trailer(doc, doc.trailer, out.digest.digest())
    trailer["Size"] = max(offsets, default=0) + 1
    offsets[0] = (0, 65535)
    _xref_table(out, offsets, trailer, free_head=True)
    return out.pos


# -- objects ------------------------------------------------------------------------------------
def _write_objects(out: _Sink, doc, items: Iterable[tuple[Ref, object]], *,
                   encrypt_data: bool, plain: bool = False) -> dict[int, tuple[int, int]]:
    """Append each object; return {number: (offset, generation)}."""
    security = None if plain else doc.security
    offsets = {}
    for ref, value in items:
        offsets[ref.num] = (out.pos, ref.gen)
        out.write(f"{ref.num} {ref.gen} obj\n".encode())
        if security is not None:
            value = _encrypt_strings(security, value, ref)
        if isinstance(value, Stream):
            data = value.raw
            if security is not None and encrypt_data and _stream_encrypted(doc, value):
                data = security.encrypt_stream(data, ref.num, ref.gen)
            d = Dict(value.dict)
            d["Length"] = len(data)
            out.write(_syntax(d) + b"\nstream\n" + data + b"\nendstream")
        else:
            out.write(_syntax(value))
        out.write(b"\nendobj\n")
    return offsets


def _stream_encrypted(doc, stream: Stream) -> bool:
    t = stream.dict.get("Type")
    return t != "XRef" and not (t == "Metadata" and not doc.security.encrypt_metadata)


def _encrypt_strings(security, value, ref: Ref):
    if isinstance(value, String):
        return String(security.encrypt_string(value.value, ref.num, ref.gen), True)
    if isinstance(value, Array):
        return Array(_encrypt_strings(security, v, ref) for v in value)
    if isinstance(value, Stream):
        return Stream(_encrypt_strings(security, value.dict, ref), value.raw)
    if isinstance(value, Dict):
        return Dict((k, _encrypt_strings(security, v, ref)) for k, v in value.items())
    return value


def _syntax(value) -> bytes:
    return format_object(value, width=_FLAT).encode("latin-1")


# -- trailer and cross-reference ----------------------------------------------------------------------
def _trailer(doc, old: Dict, appended: bytes) -> Dict:
    """/Root /Info /Encrypt as before; /ID with its first element kept, the second new
    (``appended``: a digest of the bytes written)."""
    trailer = Dict()
    for key in TRAILER_KEYS:
        if old.get(key) is not None:
            trailer[Name(key)] = old[key]
    ids = old.get("ID")
    first = ids[0] if isinstance(ids, Array) and ids and isinstance(ids[0], String) else None
    fresh = hashlib.md5((first.value if first else b"") + appended + repr(time.time()).encode()
                        + os.urandom(8)).digest()
    if first is None and old.get("Encrypt") is not None:
        # the file key was made from no /ID, which readers take as an empty first element (7.6.3.3
        # step 5); a new first element would make the file key of every reader another one, and
        # the copy undecryptable
        first = String(b"", True)
    trailer[Name("ID")] = Array([first if first is not None else String(fresh, True), String(fresh, True)])
    return trailer


def _subsections(nums: list[int]) -> list[tuple[int, int]]:
    """Runs of consecutive numbers as (first, count)."""
    runs: list[list[int]] = []
    for n in nums:
        if runs and n == runs[-1][0] + runs[-1][1]:
            runs[-1][1] += 1
        else:
            runs.append([n, 1])
    return [(a, b) for a, b in runs]


def _xref_table(out: _Sink, offsets: dict[int, tuple[int, int]], trailer: Dict,
                free_head: bool = False) -> None:
    """A classic table (7.5.4): 20-byte entries; object 0 heads the free list when given."""
    start = out.pos
    lines = [b"xref\n"]
    nums = sorted(offsets)
    for first, count in _subsections(nums):
        lines.append(f"{first} {count}\n".encode())
        for num in range(first, first + count):
            off, gen = offsets[num]
            kind = "f" if free_head and num == 0 else "n"
            lines.append(f"{off:010d} {gen:05d} {kind}\r\n".encode())
    out.write(b"".join(lines))
    out.write(b"trailer\n" + _syntax(trailer) + f"\nstartxref\n{start}\n%%EOF\n".encode())


def _xref_stream(out: _Sink, offsets: dict[int, tuple[int, int]], trailer: Dict, num: int,
                 compress: bool) -> None:
    """An xref stream (7.5.8) listing the new objects and itself; never encrypted."""
    start = out.pos
    entries = dict(offsets)
    entries[num] = (start, 0)
    w2 = max(1, (max(off for off, _ in entries.values()).bit_length() + 7) // 8)
    nums = sorted(entries)
    rows = b"".join(IN_FILE.to_bytes(1, "big") + entries[n][0].to_bytes(w2, "big")
                    + entries[n][1].to_bytes(2, "big") for n in nums)
    d = Dict({Name("Type"): Name("XRef"), Name("Size"): trailer["Size"],
              Name("Index"): Array(x for run in _subsections(nums) for x in run),
              Name("W"): Array([1, w2, 2])})
    d.update((k, v) for k, v in trailer.items() if k != "Size")
    if compress:
        rows = zlib.compress(rows)
        d["Filter"] = Name("FlateDecode")
    d["Length"] = len(rows)
    out.write(f"{num} 0 obj\n".encode() + _syntax(d) + b"\nstream\n" + rows + b"\nendstream\nendobj\n")
    out.write(f"startxref\n{start}\n%%EOF\n".encode())

