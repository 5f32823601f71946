"""FlateDecode (ISO 32000 7.4.4): zlib (RFC 1950) around deflate (RFC 1951), bounded.

The deflate data is inflated in raw mode and the zlib header and Adler-32 trailer are
checked here, so that each kind of damage gets its own verdict:

- header not a valid zlib header: the bytes are inflated as raw deflate from offset 0
  (some producers omit the header; pdf.js and MuPDF accept them) — a note;
- deflate data complete but the Adler-32 checksum missing or cut short (the bytes that
  are there agree) — a note: nothing was lost, and real files often end that way;
- Adler-32 (or what is left of it) wrong — an error: the output is probably corrupt;
- bytes after the checksum (a stray EOL counted in /Length) — a note;
- input ends inside the deflate data (truncated stream) — an error, with everything that
  could be inflated returned;
- corrupt deflate data — an error naming zlib's reason and the input byte where zlib
  stopped, with everything inflated before it returned;
- output would pass ``limit`` — the first ``limit`` bytes and an error; inflation is
  bounded with ``max_length`` so a bomb never allocates more than ``limit + 1`` bytes.
"""
from __future__ import annotations

import zlib
from dataclasses import dataclass

from pdfinspect.core.filters.base import Decoded, join, limit_error
from pdfinspect.core.objects import Dict

_CHUNK = 1 << 16


@dataclass(frozen=True, slots=True)
class _Inflated:
    out: bytes
    adler: int
    eof: bool
    unused: bytes
    exceeded: bool
    failure: str | None  # zlib's reason, prefix stripped
    failed_at: int | None  # offset of the input byte where zlib stopped


def _feed(d, piece: bytes, out: bytearray, limit: int) -> bool:
    """Inflate ``piece`` into ``out``; True when the output would pass ``limit``.

    Asking for one byte more than there is room for tells "exactly full" from "more to
    come": zlib returns less than ``max_length`` only when it has no more output.
    """
    out += d.decompress(piece, limit - len(out) + 1)
    if len(out) > limit:
        del out[limit:]
        return True
    return False


def _inflate(data: bytes, start: int, limit: int) -> _Inflated:
    d = zlib.decompressobj(-15)
    out = bytearray()
    pos = start  # first input byte not yet given to zlib
    exceeded = False
    failure = failed_at = None
    while pos < len(data) and not d.eof and not exceeded:
        chunk = data[pos : pos + _CHUNK]
        before, mark = d.copy(), len(out)
        try:
            exceeded = _feed(d, chunk, out, limit)
            pos += len(chunk)
            continue
        except zlib.error:
            pass
        # Replay the chunk a byte at a time to find the byte zlib rejects and keep every
        # byte of output that precedes it.
        d = before
        del out[mark:]
        for byte in chunk:
            try:
                exceeded = _feed(d, bytes((byte,)), out, limit)
            except zlib.error as exc:
                failure, failed_at = str(exc).split(": ", 1)[-1], pos
                break
            pos += 1
            if exceeded or d.eof:
                break
        break
    unused = d.unused_data + data[pos:] if d.eof else b""
    return _Inflated(bytes(out), zlib.adler32(out), d.eof, unused, exceeded, failure, failed_at)


def _header_problem(data: bytes) -> str | None:
    """Why the first two bytes are not a zlib header (RFC 1950 2.2), or None."""
    if len(data) < 2:
        return "stream shorter than a zlib header"
    cmf, flg = data[0], data[1]
    if cmf & 0x0F != 8 or cmf >> 4 > 7:
        return f"invalid zlib header {cmf:02x} {flg:02x}"
    if (cmf << 8 | flg) % 31:
        return f"zlib header check failed ({cmf:02x} {flg:02x})"
    if flg & 0x20:
        return "zlib header asks for a preset dictionary"
    return None


def decode_flate(data: bytes, params: Dict | None, limit: int) -> Decoded:
    """Inflate ``data``; never more than ``limit`` bytes, never raises."""
    header = _header_problem(data)
    raw = header is not None
    r = _inflate(data, 0 if raw else 2, limit)
    note = f"{header}; decoded as raw deflate" if raw else None
    if r.exceeded:
        return Decoded(r.out, f"zlib: {limit_error(limit)}", note)
    if r.failure is not None:
        return Decoded(r.out, f"zlib: {r.failure} at input byte {r.failed_at}", note)
    if not r.eof:
        end = "truncated: input ended inside the deflate data"
        return Decoded(r.out, f"zlib: {end} after {len(r.out)} bytes of output", note)
    if raw:
        if r.unused:
            note = join(note, f"{len(r.unused)} bytes after the deflate data ignored")
        return Decoded(r.out, None, note)
    trailer, extra = r.unused[:4], r.unused[4:]
    if trailer != r.adler.to_bytes(4, "big")[: len(trailer)]:
        return Decoded(r.out, "zlib: Adler-32 checksum mismatch; data may be corrupt", note, whole=True)
    if len(trailer) < 4:
        note = join(note, "Adler-32 checksum missing or cut short; data complete")
    if extra:
        note = join(note, f"{len(extra)} bytes after the zlib stream ignored")
    return Decoded(r.out, None, note)
