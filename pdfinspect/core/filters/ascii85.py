"""ASCII85Decode (ISO 32000 7.4.3): base-85 groups of five characters '!'..'u' to four bytes.

``z`` stands for a group of four zero bytes, white space is ignored, ``~>`` ends the data
and a final partial group of n characters gives n − 1 bytes. Tolerated with a note: a
missing ``~>``, a leading ``<~`` (PostScript's opening delimiter, which PDF does not use).
Reported as errors, with the bytes decoded before them: a character outside the alphabet,
``z`` inside a group, a group worth more than 2³² − 1, a final group of one character.
"""
from __future__ import annotations

import re

from pdfinspect.core.filters.base import Decoded, limit_error
from pdfinspect.core.lexer import WHITESPACE
from pdfinspect.core.objects import Dict

_BAD = re.compile(rb"[^!-uz" + re.escape(WHITESPACE) + rb"]")
_POWERS = (85**4, 85**3, 85**2, 85, 1)


def _group(chars: bytes) -> int:
    return sum((c - 33) * p for c, p in zip(chars, _POWERS))


def _locate(body: bytes, start: int, index: int) -> int:
    """Offset in the input of the ``index``-th non-white-space character of ``body``."""
    seen = -1
    for offset, c in enumerate(body):
        if c not in WHITESPACE:
            seen += 1
            if seen == index:
                return start + offset
    return start + len(body)


def _decode(chars: bytes, limit: int) -> tuple[bytearray, int, str | None]:
    """Decode white-space-free ``chars``; stop past ``limit`` bytes or at the first bad group.

    Returns the output, the index in ``chars`` where decoding stopped and why (or None).
    """
    out = bytearray()
    i = 0
    while i < len(chars) and len(out) <= limit:
        if chars[i] == 0x7A:  # z
            out += b"\0\0\0\0"
            i += 1
            continue
        group = chars[i : i + 5]
        if b"z" in group:
            return out, i + group.index(b"z"), "'z' inside a group"
        if len(group) == 1:
            return out, i, "final group of one character"
        value = _group(group.ljust(5, b"u"))
        if value > 0xFFFFFFFF:
            return out, i, "group value exceeds 2^32 - 1"
        out += value.to_bytes(4, "big")[: len(group) - 1]
        i += 5
    return out, i, None


def decode_ascii85(data: bytes, params: Dict | None, limit: int) -> Decoded:
    """Decode ASCII base-85 ``data``; never more than ``limit`` bytes, never raises."""
    start = 0
    stripped = data.lstrip(WHITESPACE)
    notes = []
    if stripped.startswith(b"<~"):
        start = len(data) - len(stripped) + 2
        notes.append("leading '<~' skipped")
    end = data.find(b"~", start)
    if end < 0:
        end = len(data)
        notes.append("no '~>' end marker")
    elif not data[end + 1 :].lstrip(WHITESPACE).startswith(b">"):
        notes.append(f"'~' at input byte {end} not followed by '>'")
    note = "ASCII85: " + "; ".join(notes) if notes else None
    body = data[start:end]
    bad = _BAD.search(body)
    if bad:
        body = body[: bad.start()]
    out, stop, problem = _decode(body.translate(None, WHITESPACE), limit)
    if len(out) > limit:
        return Decoded(bytes(out[:limit]), f"ASCII85: {limit_error(limit)}", note)
    if problem:
        at = _locate(body, start, stop)
        return Decoded(bytes(out), f"ASCII85: {problem} at input byte {at}", note)
    if bad:
        problem = f"invalid character {bytes(bad[0])!r} at input byte {start + bad.start()}"
        return Decoded(bytes(out), f"ASCII85: {problem}", note)
    return Decoded(bytes(out), None, note)
