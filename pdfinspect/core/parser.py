"""Parser for PDF objects and indirect objects (ISO 32000 7.3, 7.3.10).

Recovery mode as in pdf.js: a malformed object yields the partial value read so far and a
Diagnostic naming the offset; the parser never raises on bad input and always advances.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from .diagnostics import Diagnostic, warning
from .lexer import (DELIM, EOF, INT, KEYWORD, NAME, NUMBER, REAL, STRING, Lexer, Token, possessive,
                    skip_bracket_run)
from .numbers import INT_DIGITS, REAL_CHARS, read_int
from .objects import Array, Dict, Name, Ref, Stream, String

MAX_DEPTH = 200
# Keywords that end the object being read: an array or dictionary still open there is unterminated.
_OBJECT_ENDS = frozenset({b"endobj", b"stream", b"obj", b"endstream"})

# Fast paths for the two commonest arrays (/Widths, /Rect, /Kids …): numbers only, or
# references only; anything else goes token by token. Every run matches one way only (a
# number or name is followed by a lookahead its last character cannot satisfy), or a long
# array that fails at its end would backtrack exponentially; ``possessive`` then spares the
# engine the backtracking states where Python has possessive quantifiers (3.11+).
_WS = rb"[\x00\t\n\x0c\r ]"
_END = rb"(?=[\x00\t\n\x0c\r \]])"
_NUMBER_ARRAY = re.compile(possessive(rb"(?:" + _WS + rb"*" + NUMBER + _END + rb")*" + _WS + rb"*\]"))
_NUMBERS = re.compile(possessive(NUMBER))
_REF_ARRAY = re.compile(possessive(rb"(?:" + _WS + rb"*\d+" + _WS + rb"+\d+" + _WS + rb"+R" + _END + rb")*"
                        + _WS + rb"*\]"))
_REFS = re.compile(possessive(rb"(\d+)" + _WS + rb"+(\d+)" + _WS + rb"+R"))

# Fast paths for flat values, which are most of a file's objects (a destination
# [12 0 R /XYZ 72 720 null], a page << /Type /Page /Parent 3 0 R /MediaBox [0 0 612 792] >>):
# a regex checks that an array or dictionary holds only references, numbers, names without
# '#', simple literal strings, true, false, null (and, in a dictionary, flat arrays of those),
# then the values are read from its matches. Anything else, duplicate keys included, takes
# the token-by-token path, which reports what it meets.
_LOOK = rb"(?=[\x00\t\n\x0c\r ()<>\[\]{}/%]|\Z)"
# a whole name: the lookahead keeps a key from giving back characters to the value after it
_NAME_CHARS = rb"[^\x00\t\n\x0c\r ()<>\[\]{}/%#]*(?![^\x00\t\n\x0c\r ()<>\[\]{}/%#])"


def _item(capture: bool) -> bytes:
    def g(x: bytes) -> bytes:
        return b"(" + x + b")" if capture else b"(?:" + x + b")"
    return (rb"(?:" + g(rb"\d+") + _WS + rb"+" + g(rb"\d+") + _WS + rb"+R" + _LOOK
            + rb"|" + g(rb"[+-]?\d+") + _LOOK
            + rb"|" + g(rb"[+-]?(?:\d+\.\d*|\.\d+)") + _LOOK
            + rb"|/" + g(_NAME_CHARS) + _LOOK
            + rb"|\(" + g(rb"[^()\\\r]*") + rb"\)"
            + rb"|" + g(rb"true|false|null") + _LOOK + rb")")


_FLAT_BODY = rb"(?:" + _WS + rb"*" + _item(False) + rb")*" + _WS + rb"*"  # an array's items, no ']'
_FLAT_ITEMS = _FLAT_BODY + rb"\]"
_FLAT_ARRAY = re.compile(possessive(_FLAT_ITEMS))
# a dictionary's entries, no '>>': the values items or flat arrays
_DICT_BODY = (rb"(?:" + _WS + rb"*/" + _NAME_CHARS + _WS + rb"*(?:" + _item(False) + rb"|\[" + _FLAT_ITEMS
              + rb"))*" + _WS + rb"*")
# one level of flat dictionaries inside too: a link's << /S /GoTo /D (x) >>, a font's descriptor entries
_FLAT_DICT = re.compile(possessive(rb"(?:" + _WS + rb"*/" + _NAME_CHARS + _WS + rb"*(?:" + _item(False) + rb"|\["
                        + _FLAT_ITEMS + rb"|<<" + _DICT_BODY + rb">>))*" + _WS + rb"*>>"))
_ITEM = re.compile(possessive(_item(True)))
_KEY_VALUE = re.compile(possessive(_WS + rb"*/(" + _NAME_CHARS + rb")" + _WS + rb"*(?:" + _item(True) + rb"|\[("
                        + _FLAT_BODY + rb")\]|<<(" + _DICT_BODY + rb")>>)"))  # the items again: a string may hold ']'
_CONSTANTS = {b"true": True, b"false": False, b"null": None}


class _TooLong(Exception):
    """A number too long to convert directly: the fast paths leave the value to the lexer,
    which bounds it and says so (core.numbers)."""


def _too_long() -> int:
    raise _TooLong


def _flat_value(m: re.Match[bytes], base: int = 0) -> object:
    """The value of one ``_item`` match whose groups start after group ``base``."""
    last = m.lastindex
    assert last is not None  # every alternative of an item captures
    k = last - base
    g = m.group(last)
    if k == 2:
        num = m.group(base + 1)
        if len(num) > INT_DIGITS or len(g) > INT_DIGITS:
            _too_long()
        return Ref(int(num), int(g))
    if k == 3:
        return int(g) if len(g) <= INT_DIGITS else _too_long()
    if k == 4:
        return float(g) if len(g) <= REAL_CHARS else _too_long()
    if k == 5:
        return Name(g.decode("latin-1"))
    if k == 6:
        return String(g)
    return _CONSTANTS[g]


def _flat_array(body: bytes) -> Array:
    return Array(_flat_value(m) for m in _ITEM.finditer(body))


def _flat_dict(body: bytes) -> Dict | None:
    d = Dict()
    n = 0
    for m in _KEY_VALUE.finditer(body):
        key = Name(m.group(1).decode("latin-1"))
        last = m.lastindex
        if last == 10:
            inner = _flat_dict(m.group(10))
            if inner is None:
                return None
            d[key] = inner
        else:
            d[key] = _flat_array(m.group(9)) if last == 9 else _flat_value(m, 1)
        n += 1
    return d if len(d) == n else None  # a duplicate key: the slow path reports it


_ENDSTREAM = re.compile(rb"endstream")
_NEXT_OBJ = re.compile(rb"(?<![0-9])\d{1,10}[ \t\r\n\f\x00]+\d{1,5}[ \t\r\n\f\x00]+obj\b")
_ENDSTREAM_AFTER = re.compile(rb"[\x00\t\n\x0c\r ]*endstream")
_SPACES_EOL = re.compile(rb"[ \t]+(?:\r\n|\n|\r)")
# white space in 'N G obj' may hold comments (MuPDF's and qpdf's lexers skip them: 1 0 %c⏎obj)
GAP = rb"(?:[\x00\t\n\x0c\r ]|%[^\r\n]*[\r\n])"
_OBJ_HEADER = re.compile(GAP + rb"*(\d+)" + GAP + rb"+(\d+)" + GAP + rb"+obj\b")


@dataclass(slots=True)
class IndirectObject:
    """An indirect object as found in the file: value plus where it came from.

    For an object stored in an object stream, ``container`` is the object stream's number
    and ``index`` its position in it; ``start``/``end`` are then offsets in the decoded
    object-stream data, not in the file.
    """

    num: int
    gen: int
    value: object
    start: int
    end: int
    container: int | None = None
    index: int | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def ref(self) -> Ref:
        return Ref(self.num, self.gen)

    @property
    def is_stream(self) -> bool:
        return isinstance(self.value, Stream)


class Parser:
    """Parse objects from ``buf`` starting at ``pos``."""

    __slots__ = ("lexer", "buf", "_pending", "diagnostics", "_ref")

    def __init__(self, buf, pos: int = 0, end: int | None = None, ref: tuple[int, int] | None = None):
        self.buf = buf
        self.lexer = Lexer(buf, pos, end)
        self.diagnostics = self.lexer.diagnostics
        self._pending: list[Token] = []
        self._ref = ref

    # -- token stream with push-back -------------------------------------------------
    def next_token(self) -> Token:
        if self._pending:
            return self._pending.pop()
        return self.lexer.next()

    def push(self, tok: Token) -> None:
        self._pending.append(tok)

    @property
    def pos(self) -> int:
        return self._pending[-1].start if self._pending else self.lexer.pos

    def _warn(self, code: str, message: str, offset: int, clause: str | None = None) -> None:
        self.diagnostics.append(warning(code, message, offset=offset, ref=self._ref, clause=clause))

    # -- direct objects --------------------------------------------------------------
    def parse_object(self, depth: int = 0):
        """Parse one direct object (or a reference ``N G R``)."""
        tok = self.next_token()
        return self._object_from(tok, depth)

    def _object_from(self, tok: Token, depth: int):
        kind = tok.kind
        if kind == INT:
            # possible reference: INT INT R
            t2 = self.next_token()
            if t2.kind == INT:
                t3 = self.next_token()
                if t3.kind == KEYWORD and t3.value == b"R":
                    if tok.value < 0 or t2.value < 0:
                        self._warn("ref-negative", "negative number in reference", tok.start, "7.3.10")
                    return Ref(tok.value, t2.value)
                self.push(t3)
            self.push(t2)
            return tok.value
        if kind == NAME or kind == STRING or kind == REAL:
            return tok.value
        if kind == DELIM:
            v = tok.value
            if v == b"<<":
                return self._parse_dict(tok, depth)
            if v == b"[":
                return self._parse_array(tok, depth)
            self._warn("unexpected-token", f"unexpected {v.decode()!r}", tok.start, "7.3")
            return None
        if kind == KEYWORD:
            v = tok.value
            if v == b"true":
                return True
            if v == b"false":
                return False
            if v == b"null":
                return None
            self.push(tok)
            self._warn("unexpected-keyword", f"expected an object, found {v[:40]!r}", tok.start, "7.3")
            return None
        self._warn("unexpected-eof", "expected an object, found end of data", tok.start, "7.3")
        return None

    def _parse_array(self, open_tok: Token, depth: int) -> Array:
        if not self._pending:
            lexer = self.lexer
            m = _NUMBER_ARRAY.match(self.buf, lexer.pos, lexer.end)
            if m is not None:
                numbers = _NUMBERS.findall(m.group())
                if max(map(len, numbers), default=0) <= INT_DIGITS:
                    lexer.pos = m.end()
                    return Array(float(n) if b"." in n else int(n) for n in numbers)
            m = _REF_ARRAY.match(self.buf, lexer.pos, lexer.end)
            if m is not None and max(map(len, m.group().split()), default=0) <= INT_DIGITS:
                lexer.pos = m.end()
                return Array(Ref(int(a), int(b)) for a, b in _REFS.findall(m.group()))
            m = _FLAT_ARRAY.match(self.buf, lexer.pos, lexer.end)
            if m is not None:
                try:
                    value = _flat_array(m.group())
                except _TooLong:
                    pass
                else:
                    lexer.pos = m.end()
                    return value
        arr = Array()
        if depth >= MAX_DEPTH:
            self._warn("nesting-too-deep", f"nesting deeper than {MAX_DEPTH}; array cut", open_tok.start)
            self._skip_nested()
            return arr
        while True:
            tok = self.next_token()
            if tok.kind == DELIM and tok.value == b"]":
                return arr
            if tok.kind == EOF or (tok.kind == KEYWORD and tok.value in _OBJECT_ENDS) \
                    or (tok.kind == DELIM and tok.value == b">>"):
                self._warn("array-unterminated", "array not closed with ']'", open_tok.start, "7.3.6")
                self.push(tok)
                return arr
            before = tok.start
            value = self._object_from(tok, depth + 1)
            if value is None and tok.kind == KEYWORD and tok.value not in (b"null",):
                # unknown keyword inside an array: consume it so we advance
                self.next_token()
                if self.pos <= before:
                    return arr
                continue
            arr.append(value)

    def _parse_dict(self, open_tok: Token, depth: int) -> Dict:
        if not self._pending:
            lexer = self.lexer
            m = _FLAT_DICT.match(self.buf, lexer.pos, lexer.end)
            if m is not None:
                try:
                    d = _flat_dict(m.group())
                except _TooLong:
                    d = None
                if d is not None:
                    lexer.pos = m.end()
                    return d
        d = Dict()
        if depth >= MAX_DEPTH:
            self._warn("nesting-too-deep", f"nesting deeper than {MAX_DEPTH}; dictionary cut", open_tok.start)
            self._skip_nested()
            return d
        while True:
            tok = self.next_token()
            if tok.kind == DELIM and tok.value == b">>":
                return d
            if tok.kind == NAME:
                vt = self.next_token()
                if vt.kind == DELIM and vt.value == b">>":
                    self._warn("dict-missing-value", f"key /{tok.value} has no value; set to null",
                               tok.start, "7.3.7")
                    d[tok.value] = None
                    return d
                if vt.kind == KEYWORD and vt.value in _OBJECT_ENDS:
                    self._warn("dict-unterminated", "dictionary not closed with '>>'", open_tok.start, "7.3.7")
                    self.push(vt)
                    return d
                value = self._object_from(vt, depth + 1)
                if value is None and vt.kind == KEYWORD and vt.value != b"null":
                    self.next_token()  # skip the bad keyword
                if tok.value in d:
                    self._warn("dict-duplicate-key", f"key /{tok.value} appears twice; the last wins",
                               tok.start, "7.3.7")
                d[tok.value] = value
                continue
            if tok.kind == EOF or (tok.kind == KEYWORD and tok.value in _OBJECT_ENDS):
                self._warn("dict-unterminated", "dictionary not closed with '>>'", open_tok.start, "7.3.7")
                self.push(tok)
                return d
            self._warn("dict-bad-key", "dictionary key is not a name; entry skipped", tok.start, "7.3.7")
            if tok.kind == DELIM and tok.value in (b"<<", b"["):
                self._object_from(tok, depth + 1)

    def _skip_nested(self) -> None:
        """Skip what a container nested too deep holds, through its closing delimiter (or up to
        the keyword that ends the object, or the end of data), without building values or one
        diagnostic per token: runs of ``[`` or ``<<`` are skipped by one match each, so 8 MB of
        them cost a few regex calls."""
        depth = 1
        lexer = self.lexer
        while True:
            if not self._pending:
                skipped = skip_bracket_run(self.buf, lexer.pos, lexer.end, depth)
                if skipped is not None:
                    depth, lexer.pos = skipped
                    if depth == 0:
                        return
                    continue
            tok = self.next_token()
            if tok.kind == DELIM:
                if tok.value in (b"[", b"<<"):
                    depth += 1
                elif tok.value in (b"]", b">>"):
                    depth -= 1
                    if depth == 0:
                        return
            elif tok.kind == EOF or (tok.kind == KEYWORD and tok.value in _OBJECT_ENDS):
                self.push(tok)
                return

    # -- indirect objects ------------------------------------------------------------
    def parse_indirect(self, length_of: Callable[[Ref], int | None] | None = None) -> IndirectObject | None:
        """Parse ``N G obj … endobj`` at the current position.

        Returns ``None`` when there is no object header here. ``length_of`` resolves an
        indirect ``/Length``.
        """
        start = self.lexer.skip_whitespace()
        m = _OBJ_HEADER.match(self.buf, start)
        if not m:
            return None
        num = read_int(m.group(1), self.diagnostics, m.start(1))
        gen = read_int(m.group(2), self.diagnostics, m.start(2))
        self._ref = (num, gen)
        first_diag = len(self.diagnostics)
        self.lexer.pos = m.end()
        value = self.parse_object()
        tok = self.next_token()
        diags = self.diagnostics
        if tok.kind == KEYWORD and tok.value == b"stream" and isinstance(value, Dict):
            value, end = self._read_stream(value, tok, length_of)
            tok = self.next_token()
        if tok.kind == KEYWORD and tok.value == b"endobj":
            end = tok.end
        else:
            self._warn("endobj-missing", "'endobj' missing after object", tok.start, "7.3.10")
            end = tok.start if tok.kind != EOF else self.lexer.pos
            self.push(tok)
        obj = IndirectObject(num, gen, value, start, end, diagnostics=diags[first_diag:])
        return obj

    def _read_stream(self, d: Dict, kw: Token, length_of) -> tuple[Stream, int]:
        buf = self.buf
        pos = kw.end
        n = self.lexer.end
        # 7.3.8.1: 'stream' is followed by CRLF or LF, not CR alone.
        if buf[pos:pos + 2] == b"\r\n":
            pos += 2
        elif buf[pos:pos + 1] == b"\n":
            pos += 1
        elif buf[pos:pos + 1] == b"\r":
            self._warn("stream-cr-eol", "'stream' followed by CR alone (must be CRLF or LF); accepted",
                       kw.end, "7.3.8.1")
            pos += 1
        elif (eol := _SPACES_EOL.match(buf, pos, n)) is not None:
            # 'stream', spaces, then the EOL: the data starts after the EOL, as MuPDF
            # (pdf-parse.c, pdf_parse_ind_obj) and pdf.js (skipToNextLine) read it
            self._warn("stream-space-before-eol", "'stream' followed by spaces before its end-of-line; "
                       "skipped", kw.end, "7.3.8.1")
            pos = eol.end()
        else:
            self._warn("stream-no-eol", "'stream' not followed by an end-of-line", kw.end, "7.3.8.1")
        data_start = pos
        length = d.get("Length")
        if isinstance(length, Ref):
            length = length_of(length) if length_of else None
            if length is None:
                self._warn("stream-length-unresolved", "indirect /Length could not be resolved; "
                           "data delimited by 'endstream'", kw.start, "7.3.8.2")
        if isinstance(length, bool) or not isinstance(length, int) or length < 0:
            length = None
        data_end = None
        if length is not None and data_start + length <= n:
            after = data_start + length
            m = _ENDSTREAM_AFTER.match(buf, after, min(n, after + 64))
            if m:
                data_end = after
                self.lexer.pos = m.end()
        if data_end is None:
            m = _ENDSTREAM.search(buf, data_start, n)
            h = _NEXT_OBJ.search(buf, data_start, m.start() if m else n)
            if h is not None:
                found = h.start()
                self.lexer.pos = found
                self._warn("stream-unterminated", "'endstream' missing before the next object header",
                           data_start, "7.3.8.1")
            elif m is None:
                found = n
                self.lexer.pos = n
                self._warn("stream-unterminated", "'endstream' not found; data runs to end of file",
                           data_start, "7.3.8.1")
            else:
                found = m.start()
                self.lexer.pos = m.end()
            data_end = found
            # strip the EOL that precedes endstream
            if data_end > data_start and buf[data_end - 1:data_end] == b"\n":
                data_end -= 1
                if data_end > data_start and buf[data_end - 1:data_end] == b"\r":
                    data_end -= 1
            elif data_end > data_start and buf[data_end - 1:data_end] == b"\r":
                data_end -= 1
            if length is not None:
                self.diagnostics.append(warning(
                    "stream-length-wrong",
                    f"/Length {length} does not end at 'endstream'; data is {data_end - data_start} bytes",
                    offset=data_start, ref=self._ref, clause="7.3.8.2",
                    repair="stream data delimited by searching for 'endstream'"))
        ref = Ref(*self._ref) if self._ref is not None else None
        return Stream.in_buffer(d, buf, data_start, data_end, ref), self.lexer.pos


def parse_object_at(buf, pos: int, end: int | None = None):
    """Parse a single direct object at ``pos``; return (value, diagnostics, end offset)."""
    p = Parser(buf, pos, end)
    value = p.parse_object()
    return value, p.diagnostics, p.pos
