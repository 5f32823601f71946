"""Predictors for FlateDecode and LZWDecode (ISO 32000 7.4.4.4, parameters in Table 8).

/Predictor 2 is TIFF Predictor 2 (horizontal differencing per colour component);
/Predictor 10–15 are the PNG predictors, where every row starts with its own filter-type
byte (RFC 2083 6): the value 10–15 only says what the encoder had in mind, so any row may
use any of None/Sub/Up/Average/Paeth. /Colors, /BitsPerComponent and /Columns default to
1, 8 and 1 (Table 8).

A last row shorter than /Columns asks for is decoded as far as it goes and reported. An
unknown PNG row type stops decoding at that row.
"""
from __future__ import annotations

import struct
from collections.abc import Iterator
from itertools import accumulate

from pdfinspect.core.filters.base import Decoded, int_param, join
from pdfinspect.core.objects import Dict

_BPC = (1, 2, 4, 8, 16)


def _add8(a: int, b: int) -> int:
    return (a + b) & 0xFF


def _sub(row: bytes, bpp: int) -> bytearray:
    """Undo differencing against the byte ``bpp`` to the left (PNG Sub, TIFF at 8 bpc)."""
    cur = bytearray(row)
    for k in range(min(bpp, len(row))):
        sums: Iterator[int] = accumulate(row[k::bpp], _add8)
        cur[k::bpp] = bytes(sums)
    return cur


def _up(row: bytes, prev: bytes) -> bytes:
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
    cur: bytes | bytearray
    for row_no, i in enumerate(range(0, len(data), rowlen + 1)):
        kind, row = data[i], data[i + 1 : i + 1 + rowlen]
        prev = prev.ljust(len(row), b"\0")
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
        bits = int.from_bytes(row, "big")
        top, mask = len(row) * 8, (1 << bpc) - 1
        values = [(bits >> (top - (k + 1) * bpc)) & mask for k in range(count)]
    modulus = 1 << bpc
    for k in range(min(colors, count)):
        values[k::colors] = [v % modulus for v in accumulate(values[k::colors])]
    if bpc == 16:
        return struct.pack(f">{count}H", *values) + row[2 * count :]
    packed = 0
    for v in values:
        packed = packed << bpc | v
    # Padding bits at the end of the row come out as zero, as in qpdf.
    return (packed << (len(row) * 8 - count * bpc)).to_bytes(len(row), "big")


def _tiff(data: bytes, colors: int, bpc: int, columns: int) -> Decoded:
    rowlen = (colors * bpc * columns + 7) // 8
    out = b"".join(
        _tiff_row(data[i : i + rowlen], colors, bpc, columns) for i in range(0, len(data), rowlen)
    )
    return Decoded(out, _short_row(len(data), rowlen))


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
