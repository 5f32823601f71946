"""Where the data of an inline image ends (ISO 32000-1 8.9.7, ISO 32000-2 8.9.7).

``BI <key value>… ID <bytes> EI``: the bytes may contain ``EI`` by chance, so a PDF 2.0
``/L`` (or ``/Length``) is trusted when ``EI`` follows it; otherwise the first white-space
``EI`` whose following bytes read as operands and known operators wins, as in pdf.js and
pdfminer. The content tokenizer and the highlighter both ask :func:`find_inline_image_end`,
so what is highlighted as image data is what the interpreter skips. Imports nothing but
the operator table.
"""
from __future__ import annotations

import re

from .operators import OPERATORS

LOOKAHEAD = 128
"""Bytes after a candidate ``EI`` checked for plausible operators."""
TOKENS_CHECKED = 6

_WS = rb"[\x00\t\n\x0c\r ]"
_REGULAR = rb"[^\x00\t\n\x0c\r ()<>\[\]{}/%]"
_AFTER_EI = rb"(?=[\x00\t\n\x0c\r ()<>\[\]{}/%]|\Z)"
_EI_CANDIDATE = re.compile(_WS + rb"EI" + _AFTER_EI)
_EI_AT = re.compile(_WS + rb"*EI" + _AFTER_EI)
_SKIP = re.compile(rb"(?:[\x00\t\n\x0c\r ]+|%[^\r\n]*)*")
_TOKEN = re.compile(rb"(/" + _REGULAR + rb"*)|(<<|>>|[\[\]{}])|(<[^>]*>?)|(\()|(" + _REGULAR + rb"+)|([\s\S])")
_NUMBER = re.compile(rb"[+-]*(?:\d+(?:\.\d*)?|\.\d+)")  # with the doubled signs producers write (7.3.3)
_CONSTANTS = frozenset({b"true", b"false", b"null"})

Problem = tuple[str, str, int]
"""``(code, message, offset)`` of something odd about the image's end."""


def _literal_end(data: bytes, pos: int) -> int:
    """The end of the literal string opening at ``pos`` (balanced parentheses, escapes; 7.3.4.2)."""
    depth, i, n = 0, pos, len(data)
    while i < n:
        c = data[i]
        if c == 0x5C:  # backslash: the next byte is escaped
            i += 2
            continue
        if c == 0x28:
            depth += 1
        elif c == 0x29:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return n


def _looks_like_operators(data, pos: int) -> bool:
    """True if the few tokens after ``pos`` are operands and known operators (or the end);
    a word cut off by the end of the window is given the benefit of the doubt."""
    window = bytes(data[pos:pos + LOOKAHEAD])
    complete = pos + LOOKAHEAD >= len(data)
    i = 0
    for count in range(TOKENS_CHECKED):
        skipped = _SKIP.match(window, i)
        assert skipped is not None  # the pattern matches the empty string
        i = skipped.end()
        if i >= len(window):
            return True
        m = _TOKEN.match(window, i)
        assert m is not None  # one group takes any byte
        if m.lastindex == 4:
            i = _literal_end(window, i)
            continue
        i = m.end()
        word = m.group(5) or m.group(6)
        if word is None or word in _CONSTANTS or word in OPERATORS or _NUMBER.match(word):
            continue
        return not complete and i == len(window) and count > 0
    return True


def find_inline_image_end(data, start: int, length: int | None = None) -> tuple[int, int, list[Problem]]:
    """``(data_end, ei_end, problems)`` for image bytes starting at ``start``: the data is
    ``data[start:data_end]`` and ``EI`` ends at ``ei_end``."""
    n = len(data)
    problems: list[Problem] = []
    if length is not None:
        if 0 <= length <= n - start:
            m = _EI_AT.match(data, start + length)
            if m:
                return start + length, m.end(), problems
        problems.append(("inline-image-length-wrong",
                         f"inline image /L {length} is not followed by EI; searching for EI", start))
    first = None
    pos = max(start - 1, 0)  # "ID EI" with no data: the space after ID precedes EI
    while True:
        m = _EI_CANDIDATE.search(data, pos)
        if m is None:
            break
        if first is None:
            first = m
        if _looks_like_operators(data, m.end()):
            return max(m.start(), start), m.end(), problems
        pos = m.start() + 1
    if first is not None:
        problems.append(("inline-image-end-uncertain",
                         "no EI is followed by plausible operators; using the first one", first.start()))
        return max(first.start(), start), first.end(), problems
    problems.append(("inline-image-unterminated", "inline image data has no EI", start))
    return n, n, problems
