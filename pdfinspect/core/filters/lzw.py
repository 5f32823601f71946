"""LZWDecode (ISO 32000 7.4.4.2): variable-width codes, 9 to 12 bits, MSB first.

Code 256 clears the table, 257 ends the data. /EarlyChange 1 (Table 8, the default)
widens the codes one code early, as TIFF LZW does; /EarlyChange 0 widens them when the
table is actually full. A missing end-of-data code is a note; a code that is not in the
table yet stops decoding with an error.
"""
from __future__ import annotations

from pdfinspect.core.filters.base import Decoded, int_param, join, limit_error
from pdfinspect.core.objects import Dict

_CLEAR, _EOD, _MAX_WIDTH = 256, 257, 12
_TABLE_SIZE = 1 << _MAX_WIDTH


def _fresh_table() -> list[bytes]:
    return [bytes((i,)) for i in range(256)] + [b"", b""]


def decode_lzw(data: bytes, params: Dict | None, limit: int) -> Decoded:
    """Decode LZW ``data``; never more than ``limit`` bytes, never raises."""
    early, bad = int_param(params, "EarlyChange", 1, lambda v: v in (0, 1))
    bad = bad and f"DecodeParms: {bad}"
    table = _fresh_table()
    width, buffer, held = 9, 0, 0
    prev: bytes | None = None
    out = bytearray()
    for pos, byte in enumerate(data):
        buffer, held = (buffer << 8) | byte, held + 8
        while held >= width:
            held -= width
            code = buffer >> held
            buffer &= (1 << held) - 1
            if code == _CLEAR:
                table, width, prev = _fresh_table(), 9, None
                continue
            if code == _EOD:
                return Decoded(bytes(out), bad)
            room = len(table) < _TABLE_SIZE
            if code < len(table):
                entry = table[code]
                if prev is not None and room:
                    table.append(prev + entry[:1])
            elif code == len(table) and prev is not None and room:
                entry = prev + prev[:1]
                table.append(entry)
            else:
                at = ((pos + 1) * 8 - held - width) // 8  # where the code starts
                problem = f"LZW: code {code} at input byte {at} is not in the table"
                return Decoded(bytes(out), join(bad, problem))
            out += entry
            if len(out) > limit:
                return Decoded(bytes(out[:limit]), join(bad, f"LZW: {limit_error(limit)}"))
            prev = entry
            if width < _MAX_WIDTH and len(table) + early >= 1 << width:
                width += 1
    return Decoded(bytes(out), bad, "LZW: no end-of-data code")
