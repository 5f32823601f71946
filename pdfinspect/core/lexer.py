"""Tokeniser for PDF syntax (ISO 32000 7.2 lexical conventions, 7.3 objects).

Every token carries its start and end byte offsets in the buffer, so the raw bytes behind
any value can always be shown (``buf[tok.start:tok.end]``). Problems are recorded as
:class:`Diagnostic` values in ``Lexer.diagnostics``; the lexer never raises on bad input.
"""
from __future__ import annotations

import re
import sys
from typing import Any, NamedTuple

from .diagnostics import Diagnostic, info, warning
from .numbers import INT_DIGITS, REAL_CHARS, read_int, read_real
from .objects import Name, String

WHITESPACE = b"\x00\t\n\x0c\r "
DELIMITERS = b"()<>[]{}/%"



def possessive(pattern: bytes) -> bytes:
    """``pattern`` with every quantifier possessive where Python has them (3.11+).

    The patterns given here are written so that each run matches one way only (lookaheads
    make numbers, names, white space and comments maximal), so the result matches exactly
    what ``pattern`` matches; possessive quantifiers only spare the regex engine the
    backtracking states, which makes the lexer's and parser's fast paths about twice as fast.
    """
    if sys.version_info < (3, 11):
        return pattern
    out = bytearray()
    i, in_class = 0, False
    while i < len(pattern):
        c = pattern[i]
        out.append(c)
        if c == 0x5C:  # backslash: the next byte is escaped
            out.append(pattern[i + 1])
            i += 2
            continue
        if in_class:
            in_class = c != 0x5D  # ']'
        elif c == 0x5B:  # '['
            in_class = True
            if pattern[i + 1:i + 2] in (b"^", b"]"):  # a leading ^ or ] belongs to the class
                out.append(pattern[i + 1])
                i += 1
        elif c in b"*+?" and pattern[i - 1:i] != b"(" and pattern[i + 1:i + 2] not in (b"+", b"?"):
            out.append(0x2B)  # '+'
        i += 1
    return bytes(out)


# Token kinds
INT = "int"
REAL = "real"
NAME = "name"
STRING = "string"
KEYWORD = "keyword"
DELIM = "delim"  # [ ] << >> { }
EOF = "eof"

_WS_CLASS = rb"\x00\t\n\x0c\r "
_REGULAR = rb"[^\x00\t\n\x0c\r ()<>\[\]{}/%]"
_SKIP = re.compile(rb"(?:[\x00\t\n\x0c\r ]+|%[^\r\n]*)*")
# A number (7.3.3), matched one way only: in a repeated group that fails, no number is split
# and tried again (``\d+\.?\d*`` could split ``4520`` at any digit: exponential).
NUMBER = rb"[+-]?(?:\d+(?:\.\d*)?|\.\d+)"
_NUMBER = re.compile(NUMBER)
_REGULAR_RUN = re.compile(_REGULAR + rb"*")
_NAME_BODY = re.compile(_REGULAR + rb"*")
_HEX_BODY = re.compile(rb"[0-9A-Fa-f\x00\t\n\x0c\r ]*")
_SIMPLE_LITERAL = re.compile(rb"\(([^()\\]*)\)")
_NAME_ESCAPE = re.compile(rb"#([0-9A-Fa-f]{2})")
_GT = re.compile(rb">")
# A run of array and dictionary delimiters (with white space): skipped in one match where
# nesting is too deep to read (parser, content tokenizer).
BRACKET_RUN = re.compile(rb"(?:[\x00\t\n\x0c\r ]*(?:<<|>>|[\[\]]))+")
_BRACKET = re.compile(rb"<<|>>|[\[\]]")


def skip_bracket_run(buf, pos: int, end: int, depth: int) -> tuple[int, int] | None:
    """A run of ``[ ] << >>`` at ``pos`` read while skipping a container nested too deep:
    ``(depth after it, where it ends)`` — or, when the nesting reaches zero inside it,
    ``(0, just after the delimiter that closes it)`` — or ``None`` when there is no run. The
    run is matched once (50,000 ``[`` and as many ``]`` were read token by token, each token
    matching the rest of the run again: minutes)."""
    m = BRACKET_RUN.match(buf, pos, end)
    if m is None:
        return None
    run = m.group()
    closes = run.count(b">>") + run.count(b"]")
    if closes < depth:
        return depth + run.count(b"<<") + run.count(b"[") - closes, m.end()
    for d in _BRACKET.finditer(run):
        depth += 1 if d.group() in (b"[", b"<<") else -1
        if depth == 0:
            return 0, pos + d.end()
    raise AssertionError("the nesting closes inside the run")  # closes >= depth: unreachable
# Fast path: white space and comments, then a number, name, delimiter or keyword in one match.
# Each white-space run and comment is maximal (a lookahead, as Python 3.10 has no possessive
# quantifiers), so a failed match backtracks linearly, never into a comment's middle.
_FAST = re.compile(
    possessive(rb"(?:[\x00\t\n\x0c\r ]+(?![\x00\t\n\x0c\r ])|%[^\r\n]*(?![^\r\n]))*")
    +    rb"(?:(?P<int>[+-]?\d+)(?![^\x00\t\n\x0c\r ()<>\[\]{}/%])"
    rb"|(?P<real>[+-]?(?:\d+\.\d*|\.\d+))(?![^\x00\t\n\x0c\r ()<>\[\]{}/%])"
    rb"|/(?P<name>[^\x00\t\n\x0c\r ()<>\[\]{}/%#]*)(?![^\x00\t\n\x0c\r ()<>\[\]{}/%])"
    rb"|(?P<delim><<|>>|[\[\]{}])"
    rb"|(?P<kw>[A-Za-z'\"*][^\x00\t\n\x0c\r ()<>\[\]{}/%]*))")

_ESCAPES = {
    ord("n"): b"\n",
    ord("r"): b"\r",
    ord("t"): b"\t",
    ord("b"): b"\b",
    ord("f"): b"\x0c",
    ord("("): b"(",
    ord(")"): b")",
    ord("\\"): b"\\",
}


class Token(NamedTuple):
    """One token and its byte span (a NamedTuple: the lexer makes millions of them)."""

    kind: str
    value: Any
    start: int
    end: int


def decode_name(body: bytes, diagnostics: list | None = None, offset: int = 0) -> Name:
    """Decode the bytes after ``/``: ``#xx`` is one byte (7.3.5)."""
    if b"#" not in body:
        return Name(body.decode("latin-1"))
    out = bytearray()
    i = 0
    while i < len(body):
        c = body[i]
        if c == 0x23:  # '#'
            m = _NAME_ESCAPE.match(body, i)
            if m:
                out.append(int(m.group(1), 16))
                i += 3
                continue
            if diagnostics is not None:
                diagnostics.append(warning(
                    "name-bad-escape", "'#' in a name not followed by two hex digits; kept as is",
                    offset=offset + i, clause="7.3.5"))
        out.append(c)
        i += 1
    return Name(out.decode("latin-1"))


def decode_literal(buf, pos: int, diagnostics: list | None = None) -> tuple[bytes, int]:
    """Decode a literal string whose ``(`` is at ``pos``; return (bytes, end offset).

    Rules (7.3.4.2): balanced parentheses need no escape; ``\\ddd`` is one to three octal
    digits (high-order overflow ignored); backslash-EOL is a continuation; an unescaped
    EOL of any kind (CR, LF, CR LF) is one LF; an unknown escape drops the backslash.
    """
    n = len(buf)
    out = bytearray()
    depth = 1
    i = pos + 1
    while i < n:
        c = buf[i]
        if c == 0x5C:  # backslash
            i += 1
            if i >= n:
                break
            c = buf[i]
            esc = _ESCAPES.get(c)
            if esc is not None:
                out += esc
                i += 1
            elif 0x30 <= c <= 0x37:
                j = i
                val = 0
                while j < n and j < i + 3 and 0x30 <= buf[j] <= 0x37:
                    val = val * 8 + (buf[j] - 0x30)
                    j += 1
                out.append(val & 0xFF)
                i = j
            elif c == 0x0D:
                i += 1
                if i < n and buf[i] == 0x0A:
                    i += 1
            elif c == 0x0A:
                i += 1
            else:
                out.append(c)  # unknown escape: the backslash is ignored
                i += 1
        elif c == 0x28:
            depth += 1
            out.append(c)
            i += 1
        elif c == 0x29:
            depth -= 1
            i += 1
            if depth == 0:
                return bytes(out), i
            out.append(c)
        elif c == 0x0D:
            out.append(0x0A)
            i += 1
            if i < n and buf[i] == 0x0A:
                i += 1
        else:
            out.append(c)
            i += 1
    if diagnostics is not None:
        diagnostics.append(warning(
            "string-unterminated", "literal string not closed before end of data",
            offset=pos, clause="7.3.4.2"))
    return bytes(out), n


def decode_hex(body: bytes) -> bytes:
    digits = bytes(b for b in body if b not in WHITESPACE)
    if len(digits) % 2:
        digits += b"0"  # odd count: final digit followed by 0 (7.3.4.3)
    return bytes.fromhex(digits.decode("ascii"))


_token = tuple.__new__  # builds a Token without the NamedTuple constructor's extra call

MAX_REPEATS = 100
"""Diagnostics of one code a :class:`DiagnosticList` keeps; the rest are counted."""


class DiagnosticList(list):
    """The diagnostics of one lexer (and the parser or tokenizer reading from it): at most
    :data:`MAX_REPEATS` of each code are kept; past that, one ``diagnostics-repeated`` entry
    counts the rest, so a megabyte of damaged tokens costs a few hundred diagnostics, not a
    million (one per ``<`` made 8 MB of them cost 2.3 GB)."""

    __slots__ = ("counts", "summaries")
    counts: dict[str, int]
    summaries: dict[str, tuple[int, Diagnostic]]  # code → (index, first one not listed)

    def append(self, d: Diagnostic) -> None:
        try:
            counts = self.counts
        except AttributeError:  # set on the first diagnostic: a lexer is made per object read
            counts = self.counts = {}
            self.summaries = {}
        n = counts[d.code] = counts.get(d.code, 0) + 1
        if n <= MAX_REPEATS:
            super().append(d)
            return
        at = self.summaries.get(d.code)
        if at is None or at[0] >= len(self) or self[at[0]].code != "diagnostics-repeated":
            at = self.summaries[d.code] = (len(self), d)
            super().append(d)
        first = at[1]
        self[at[0]] = info("diagnostics-repeated", f"{n - MAX_REPEATS} more '{d.code}' diagnostics "
                           "not listed (the first at this offset)", offset=first.offset, ref=first.ref,
                           clause=first.clause)

    def clear(self) -> None:
        super().clear()
        self.counts = {}
        self.summaries = {}


class Lexer:
    """Pull tokens from ``buf`` (bytes, bytearray, memoryview or mmap) starting at ``pos``."""

    __slots__ = ("buf", "pos", "end", "diagnostics")

    def __init__(self, buf, pos: int = 0, end: int | None = None):
        self.buf = buf
        self.pos = pos
        self.end = len(buf) if end is None else end
        self.diagnostics: list[Diagnostic] = DiagnosticList()

    def skip_whitespace(self) -> int:
        m = _SKIP.match(self.buf, self.pos, self.end)
        assert m is not None  # the pattern matches the empty string
        self.pos = m.end()
        return self.pos

    def next(self) -> Token:
        buf = self.buf
        end = self.end
        m = _FAST.match(buf, self.pos, end)
        if m is not None:
            g = m.lastindex  # groups: 1 int, 2 real, 3 name, 4 delim, 5 keyword
            if g is not None:
                start = m.start(g)
                self.pos = stop = m.end()
                if g == 1:
                    raw = m.group(1)
                    value = int(raw) if len(raw) <= INT_DIGITS else read_int(raw, self.diagnostics, start)
                    return _token(Token, (INT, value, start, stop))
                if g == 3:
                    return _token(Token, (NAME, Name(m.group(3).decode("latin-1")), start - 1, stop))
                if g == 4:
                    return _token(Token, (DELIM, m.group(4), start, stop))
                if g == 5:
                    return _token(Token, (KEYWORD, m.group(5), start, stop))
                raw = m.group(2)
                real = float(raw) if len(raw) <= REAL_CHARS else read_real(raw, self.diagnostics, start)
                return _token(Token, (REAL, real, start, stop))
        pos = self.skip_whitespace()
        if pos >= end:
            return Token(EOF, None, pos, pos)
        c = buf[pos]
        if c == 0x2F:  # '/'
            m = _NAME_BODY.match(buf, pos + 1, end)
            assert m is not None  # the pattern matches the empty string
            self.pos = m.end()
            return Token(NAME, decode_name(m.group(), self.diagnostics, pos + 1), pos, self.pos)
        if c == 0x28:  # '('
            m = _SIMPLE_LITERAL.match(buf, pos, end)
            if m and b"\r" not in m.group(1):
                self.pos = m.end()
                return Token(STRING, String(m.group(1)), pos, self.pos)
            literal, self.pos = decode_literal(buf, pos, self.diagnostics)
            if self.pos > end:
                self.pos = end
            return Token(STRING, String(literal), pos, self.pos)
        if c == 0x3C:  # '<'
            if pos + 1 < end and buf[pos + 1] == 0x3C:
                self.pos = pos + 2
                return Token(DELIM, b"<<", pos, pos + 2)
            m = _HEX_BODY.match(buf, pos + 1, end)
            assert m is not None  # the pattern matches the empty string
            close = m.end()
            if close < end and buf[close] == 0x3E:
                self.pos = close + 1
                return Token(STRING, String(decode_hex(m.group()), hex=True), pos, self.pos)
            # Bad character inside a hex string: skip to '>' keeping the hex digits.
            gt = _GT.search(buf, pos + 1, end)  # a search, not a copy: garbage stays linear
            stop = end if gt is None else gt.start()
            body = bytes(buf[pos + 1:stop])
            self.diagnostics.append(warning(
                "hexstring-bad-char", "non-hex character in hex string; ignored",
                offset=close, clause="7.3.4.3"))
            self.pos = min(stop + 1, end)
            digits = bytes(b for b in body if b in b"0123456789abcdefABCDEF")
            return Token(STRING, String(decode_hex(digits), hex=True), pos, self.pos)
        if c == 0x3E:  # '>'
            if pos + 1 < end and buf[pos + 1] == 0x3E:
                self.pos = pos + 2
                return Token(DELIM, b">>", pos, pos + 2)
            self.pos = pos + 1
            self.diagnostics.append(warning("stray-delimiter", "stray '>'", offset=pos, clause="7.2.3"))
            return Token(KEYWORD, b">", pos, pos + 1)
        if c in b"[]{}":
            self.pos = pos + 1
            return Token(DELIM, bytes((c,)), pos, pos + 1)
        if c == 0x29:  # ')'
            self.pos = pos + 1
            self.diagnostics.append(warning("stray-delimiter", "stray ')'", offset=pos, clause="7.2.3"))
            return Token(KEYWORD, b")", pos, pos + 1)
        m = _REGULAR_RUN.match(buf, pos, end)
        assert m is not None  # the pattern matches the empty string
        word = m.group()
        self.pos = m.end()
        if not word:  # cannot happen: every non-delimiter is regular
            self.pos = pos + 1
            return Token(KEYWORD, bytes((c,)), pos, pos + 1)
        first = word[0]
        if first in b"0123456789+-.":
            nm = _NUMBER.fullmatch(word)
            if nm:
                if b"." in word:
                    return Token(REAL, read_real(word, self.diagnostics, pos), pos, self.pos)
                return Token(INT, read_int(word, self.diagnostics, pos), pos, self.pos)
            if word[-1:] == b"R" and word[:-1].isdigit():
                # '3 0R': MuPDF's and pdf.js's lexers end a number at the first other character
                self.pos -= 1
                self.diagnostics.append(warning(
                    "ref-r-joined", f"{word.decode()!r} read as '{word[:-1].decode()} R'", offset=pos,
                    clause="7.3.10"))
                return Token(INT, read_int(word[:-1], self.diagnostics, pos), pos, self.pos)
            lenient = _lenient_number(word)
            if lenient is not None:
                self.diagnostics.append(warning(
                    "number-malformed", f"malformed number {word!r} read as {lenient}",
                    offset=pos, clause="7.3.3"))
                return Token(REAL if isinstance(lenient, float) else INT, lenient, pos, self.pos)
        return Token(KEYWORD, word, pos, self.pos)

    def __iter__(self):
        while True:
            tok = self.next()
            if tok.kind == EOF:
                return
            yield tok


_LENIENT = re.compile(rb"[+-]*(" + NUMBER + rb")")


def _lenient_number(word: bytes):
    """Numbers real producers get wrong: ``--5``, ``1.2.3``, ``-``. pdf.js reads them too."""
    m = _LENIENT.match(word)
    if not m:
        return None
    sign = -1 if word.count(b"-") % 2 else 1
    body = m.group(1).lstrip(b"+-")
    return sign * (read_real(body) if b"." in body else read_int(body))
