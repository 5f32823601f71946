"""ASCIIHexDecode (ISO 32000 7.4.2): pairs of hex digits, white space ignored, ``>`` ends.

An odd final digit is completed with 0 (as the clause says). A missing ``>`` is a note;
a character that is neither a hex digit nor white space is an error, and the bytes
before it are returned.
"""
from __future__ import annotations

import re

from pdfinspect.core.filters.base import Decoded, limit_error
from pdfinspect.core.lexer import WHITESPACE, decode_hex
from pdfinspect.core.objects import Dict

_BAD = re.compile(rb"[^0-9A-Fa-f" + re.escape(WHITESPACE) + rb"]")


def decode_asciihex(data: bytes, params: Dict | None, limit: int) -> Decoded:
    """Decode ASCII hex ``data``; never more than ``limit`` bytes, never raises."""
    end = data.find(b">")
    note = None
    if end < 0:
        end = len(data)
        note = "ASCIIHex: no '>' end marker"
    body = data[:end]
    error = None
    bad = _BAD.search(body)
    if bad:
        error = f"ASCIIHex: invalid character {bytes(bad[0])!r} at input byte {bad.start()}"
        body = body[: bad.start()]
    out = decode_hex(body)  # the rules of hexadecimal strings (7.3.4.3)
    if len(out) > limit:
        return Decoded(out[:limit], f"ASCIIHex: {limit_error(limit)}", note)
    return Decoded(out, error, note)
