"""Predictors for FlateDecode and LZWDecode (ISO 32000 7.4.4.4, parameters in Table 8).

/Predictor 2 is TIFF Predictor 2 (horizontal differencing per colour component);
/Predictor 10–15 are the PNG predictors, where every row starts with its own filter-type
byte (RFC 2083 6): the value 10–15 only says what the encoder had in mind, so any row may
use any of None/Sub/Up/Average/Paeth. /Colors, /BitsPerComponent and /Columns default to
1, 8 and 1 (Table 8).

A last row shorter than /Columns asks for is decoded as far as it goes and reported. An
unknown PNG row type stops decoding at that row.

Hostile parameters cost nothing up front: rows are cut from the data, never allocated from
/Columns, /Colors or /BitsPerComponent, and every row type runs in time linear in its bytes.
Average and Paeth need a Python step per byte (each byte depends on the one just decoded):
only the first :data:`SLOW_ROWS_LIMIT` bytes of such rows (components, for TIFF rows of other
than 8 bits) are undone per stream, the rest is reported (a stream of crafted Paeth rows
took 41 s).
"""
from __future__ import annotations

import struct
from itertools import accumulate, chain

from pdfinspect.core.filters.base import Decoded, int_param, join
from pdfinspect.core.objects import Dict

_BPC = (1, 2, 4, 8, 16)
SLOW_ROWS_LIMIT = 16 * 1024 * 1024  # bytes of Average and Paeth rows undone per stream
_LOW8 = (0xFF).__and__


def _sub(row: bytes, bpp: int) -> bytearray:
    """Undo differencing against the byte ``bpp`` to the left (PNG Sub, TIFF at 8 bpc):
    per column of bytes (few columns) or per block of ``bpp`` bytes (few blocks), so that
    a huge /Colors costs no more than a small one."""
    cur = bytearray(row)
    n = len(row)
    if bpp * bpp <= n:
        for k in range(bpp):
            cur[k::bpp] = bytes(map(_LOW8, accumulate(row[k::bpp])))
    else:
        for j in range(bpp, n, bpp):
            block = row[j:j + bpp]
            cur[j:j + len(block)] = _up(block, cur[j - bpp:j])
    return cur


def _up(row: bytes, prev: bytes | bytearray) -> bytes:
    """Add ``prev`` to ``row`` byte by byte mod 256 (PNG Up), the whole row at once.

    Adding the low seven bits of every byte cannot carry into the next byte; the top bit
    of each byte sum is then the XOR of the two top bits and that carry.
    """
    n = len(row)
    x, y = int.from_bytes(row, "big"), int.from_bytes(prev[:n], "big")
    low = int.from_bytes(b"\x7f" * n, "big")
    return (((x & low) + (y & low)) ^ ((x ^ y) & ~low)).to_bytes(n, "big")


def _average(row: bytes, prev: bytes, bpp: int) -> bytearray:
    cur = bytearray(row)
    for j in range(len(cur)):
        left = cur[j - bpp] if j >= bpp else 0
        cur[j] = (cur[j] + ((left + prev[j]) >> 1)) & 0xFF
    return cur


def _paeth(row: bytes, prev: bytes, bpp: int) -> bytearray:
    cur = bytearray(row)
    for j in range(len(cur)):
        if j >= bpp:
            a, c = cur[j - bpp], prev[j - bpp]
        else:
            a = c = 0
        b = prev[j]
        p = a + b - c
        pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
        pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
        cur[j] = (cur[j] + pred) & 0xFF
    return cur


def _png(data: bytes, colors: int, bpc: int, columns: int) -> Decoded:
    bpp = max(1, (colors * bpc + 7) // 8)
    rowlen = (colors * bpc * columns + 7) // 8
    out = bytearray()
    prev = b""
    slow = SLOW_ROWS_LIMIT
    for row_no, i in enumerate(range(0, len(data), rowlen + 1)):
        kind, row = data[i], data[i + 1 : i + 1 + rowlen]
        prev = prev.ljust(len(row), b"\0")
        if kind in (3, 4):
            slow -= len(row)
            if slow < 0:
                return Decoded(bytes(out), f"PNG predictor: Average and Paeth rows past {SLOW_ROWS_LIMIT:,} "
                                           f"bytes not undone (row {row_no} on)")
        cur: bytes | bytearray
        if kind == 0:
            cur = row
        elif kind == 1:
            cur = _sub(row, bpp)
        elif kind == 2:
            cur = _up(row, prev)
        elif kind == 3:
            cur = _average(row, prev, bpp)
        elif kind == 4:
            cur = _paeth(row, prev, bpp)
        else:
            return Decoded(bytes(out), f"PNG predictor: unknown row type {kind} in row {row_no}")
        out += cur
        prev = bytes(cur)
    return Decoded(bytes(out), _short_row(len(data), rowlen + 1))


def _tiff_row(row: bytes, colors: int, bpc: int, columns: int) -> bytes:
    """Undo TIFF Predictor 2 on one row: running sums per colour, mod 2**bpc."""
    if bpc == 8:
        return bytes(_sub(row, colors))
    if bpc == 16:
        count = len(row) // 2
        values = list(struct.unpack(f">{count}H", row[: 2 * count]))
    else:
        count = min(colors * columns, len(row) * 8 // bpc)
        values = list(chain.from_iterable(map(_UNPACK[bpc].__getitem__, row)))[:count]
    mask = (1 << bpc) - 1
    if colors * colors <= count:
        for k in range(colors):
            values[k::colors] = map(mask.__and__, accumulate(values[k::colors]))
    else:  # few pixels of many colours: pixel by pixel
        for j in range(colors, count):
            values[j] = (values[j] + values[j - colors]) & mask
    if bpc == 16:
        return struct.pack(f">{count}H", *values) + row[2 * count :]
    # Padding bits at the end of the row come out as zero, as in qpdf.
    per = 8 // bpc
    values += [0] * (-count % per)
    shifts = [bpc * (per - 1 - k) for k in range(per)]
    packed = bytes(sum(v << s for v, s in zip(values[j:j + per], shifts)) for j in range(0, len(values), per))
    return packed.ljust(len(row), b"\0")


# each byte as its 8 // bpc values of bpc bits, most significant first
_UNPACK = {bpc: [tuple((b >> (8 - bpc * (k + 1))) & ((1 << bpc) - 1) for k in range(8 // bpc)) for b in range(256)]
           for bpc in (1, 2, 4)}


def _tiff(data: bytes, colors: int, bpc: int, columns: int) -> Decoded:
    rowlen = (colors * bpc * columns + 7) // 8
    out: list[bytes] = []
    slow = SLOW_ROWS_LIMIT  # values handled one by one in Python (all but 8 bits per component)
    for row_no, i in enumerate(range(0, len(data), rowlen)):
        row = data[i : i + rowlen]
        if bpc != 8:
            slow -= len(row) * 8 // bpc
            if slow < 0:
                return Decoded(b"".join(out), f"TIFF predictor: rows past {SLOW_ROWS_LIMIT:,} components of "
                                              f"{bpc} bits not undone (row {row_no} on)")
        out.append(_tiff_row(row, colors, bpc, columns))
    return Decoded(b"".join(out), _short_row(len(data), rowlen))


def _short_row(size: int, stride: int) -> str | None:
    left = size % stride
    if left:
        return f"predictor: last row has {left} of {stride} bytes"
    return None


def apply_predictor(data: bytes, params: Dict | None) -> Decoded:
    """Undo the predictor /DecodeParms asks for (none when /Predictor is 1 or absent)."""
    predictor, e1 = int_param(params, "Predictor", 1, lambda v: v in (1, 2) or 10 <= v <= 15)
    colors, e2 = int_param(params, "Colors", 1, lambda v: v >= 1)
    bpc, e3 = int_param(params, "BitsPerComponent", 8, lambda v: v in _BPC)
    columns, e4 = int_param(params, "Columns", 1, lambda v: v >= 1)
    bad = join(e1, e2, e3, e4)
    bad = bad and f"DecodeParms: {bad}"
    if predictor == 1:
        return Decoded(data, bad)
    decoded = (_tiff if predictor == 2 else _png)(data, colors, bpc, columns)
    return Decoded(decoded.data, join(bad, decoded.error))
