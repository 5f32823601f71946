"""RunLengthDecode (ISO 32000 7.4.5): length byte 0–127 copies the next n + 1 bytes,
129–255 repeats the next byte 257 − n times, 128 ends the data.

A missing end-of-data byte is a note; a run cut short by the end of the data is an error
(the bytes of the partial run that are there are kept).
"""
from __future__ import annotations

from pdfinspect.core.filters.base import Decoded, limit_error
from pdfinspect.core.objects import Dict

_EOD = 128


def decode_runlength(data: bytes, params: Dict | None, limit: int) -> Decoded:
    """Decode run-length ``data``; never more than ``limit`` bytes, never raises."""
    out = bytearray()
    i, n = 0, len(data)
    while i < n:
        length = data[i]
        if length == _EOD:
            return Decoded(bytes(out))
        start = i
        if length < _EOD:
            out += data[i + 1 : i + 2 + length]
            i += 2 + length
        else:
            out += data[i + 1 : i + 2] * (257 - length)
            i += 2
        if len(out) > limit:
            return Decoded(bytes(out[:limit]), f"RunLength: {limit_error(limit)}")
        if i > n:
            problem = f"run at input byte {start} (length byte {length}) cut short"
            return Decoded(bytes(out), f"RunLength: {problem} by the end of the data")
    return Decoded(bytes(out), None, "RunLength: no end-of-data byte (128)")
