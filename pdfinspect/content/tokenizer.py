"""Split a content stream into operations (ISO 32000-1 7.8.2, 8.9.7, Annex A).

A content stream is postfix: operands, then the operator. :func:`iter_operations` yields
one :class:`Operation` per operator with its operands as our objects (built from
:class:`pdfinspect.core.lexer.Lexer` tokens), byte spans in the stream, and diagnostics for
everything odd (unknown operators, wrong operands, stray delimiters, leftovers). Nothing
here raises on bad input, and work and memory stay bounded on garbage: the operand stack,
container nesting and size, and diagnostics per operation are capped.

An inline image ``BI <key value>… ID <bytes> EI`` becomes one ``BI`` operation whose
operands are ``(Dict of the abbreviated keys, raw image bytes)``.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import Iterator, cast

from ..core.diagnostics import Diagnostic, info, warning
from ..core.lexer import (DELIM, EOF, INT, KEYWORD, NAME, NUMBER, REAL, STRING, WHITESPACE, Lexer, decode_name,
                          skip_bracket_run)
from ..core.numbers import INT_DIGITS, REAL_CHARS, read_int, read_real
from ..core.objects import Array, Dict, Name, String
from ..spec.inline_image import find_inline_image_end
from ..spec.operators import OPERATORS
from .operators import _FIXED_NUMBERS, check_operands

MAX_OPERANDS = 10_000  # operands waiting for an operator; beyond this the oldest are dropped
MAX_DEPTH = 64  # nesting of arrays and dictionaries
MAX_ITEMS = 100_000  # elements in one array or dictionary
MAX_DIAGNOSTICS = 50  # per operation; the rest are counted in one summary diagnostic
STRAY_RUN = 8  # stray closing delimiters in a row reported as one run
MAX_STRAY_LOOKAHEAD = 256  # array elements read past an operator inside an array, looking for its ]

_CONSTANTS = {b"true": True, b"false": False, b"null": None}
_STRAY_KEYWORDS = (b")", b">")  # the Lexer already reported these
_OPENERS = {b"[": b"]", b"<<": b">>"}


@dataclass(frozen=True, slots=True)
class Operation:
    """One operator with its operands.

    ``start``/``end`` span the first operand through the operator; ``operand_spans`` give
    each operand's ``(start, end)``. ``op == b""`` marks operands (or diagnostics) left
    over at the end of the stream with no operator after them.
    """

    op: bytes
    operands: tuple
    start: int
    end: int
    operand_spans: tuple[tuple[int, int], ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()


def join_contents(parts: list[bytes]) -> tuple[bytes, list[tuple[int, int]]]:
    """Concatenate the decoded streams of a page's ``/Contents`` array (7.8.2).

    A single LF goes between parts, since a split may fall anywhere, even between an
    operand and its operator. Returns the data and ``(part_index, start_offset)`` per part.
    """
    starts = []
    pos = 0
    for index, part in enumerate(parts):
        starts.append((index, pos))
        pos += len(part) + 1
    return b"\n".join(parts), starts


def part_at(starts: list[tuple[int, int]], offset: int) -> tuple[int, int]:
    """Map an offset in joined data to ``(part_index, offset_in_part)``."""
    i = bisect_right([s for _, s in starts], offset) - 1
    index, start = starts[max(i, 0)]
    return index, offset - start


# Fast path for the tokens that make up almost every content stream: white space and
# comments, then an integer, a real, a name, an operator (each ending at a delimiter) or a
# literal string without escapes, line ends or nesting. Anything else goes to the Lexer,
# which gives the same values (7.2, 7.3); the fast path only skips building Tokens.
_D = rb"\x00\t\n\x0c\r ()<>\[\]{}/%"
# The white space is matched once, in a look-ahead the engine never re-enters (an atomic
# group before Python 3.11): backtracking over a long run of it (a content stream of 320 MiB
# of NUL bytes) took 0.15 s per MiB per attempt, holding the GIL.
_FAST = re.compile(
    rb"(?=([\x00\t\n\x0c\r ]*(?:%[^\r\n]*(?=[\r\n]|\Z)[\x00\t\n\x0c\r ]*)*))\1"
    rb"(?:(?:([+-]?\d+)|([+-]?(?:\d+\.\d*|\.\d+))|/([^" + _D + rb"]*)"
    rb"|([^" + _D + rb"0-9+.\-][^" + _D + rb"]*))(?=[" + _D + rb"]|\Z)"
    rb"|\(([^()\\\r]*)\))")


# Faster still, for the operations that make up vector art: up to 32 numbers and an operator
# (not a constant, not BI) in one match, separated by white space only. Each operand is then
# read by _NUMBER exactly as _FAST reads it; anything else takes the token path, and so does a
# number of more than 17 characters (the token path bounds what does not fit, INT_DIGITS).
_WS = rb"[\x00\t\n\x0c\r ]*"
_END = rb"(?=[" + _D + rb"]|\Z)"
_BULK = re.compile(
    _WS + rb"((?:(?=[+\-.0-9]{1,17}" + _END + rb")" + NUMBER + _END + _WS + rb"){0,32})"
    rb"(?!(?:true|false|null|BI)" + _END + rb")([^" + _D + rb"0-9+.\-][^" + _D + rb"]*)" + _END)
_NUMBER = re.compile(rb"[+-]?\d+(\.\d*)?|[+-]?\.\d+()")
# The interpreter's fast path (iter_quick): the operators of vector art whose operands are a
# fixed count of numbers (each read by _NUMBER as _BULK reads it), matched whole. The numbers
# are read once, the operators sorted by their count of numbers; the empty group ``s`` marks
# where the operands start, and the match's ``lastgroup`` says what was matched: ``q`` (q or
# Q), ``paint`` a painting or clipping operator, ``pe`` a run of path construction operators
# (m l c v y h re; ``pe`` is empty, at its end), ``pp`` the same and the painting operator after
# it (in ``pp``), ``o1``/``o3``/``o4`` an operator of 1, 3 or 4 numbers (``k``, ``K``),
# ``cm``, ``phase`` a dash ``[numbers] phase d`` (the numbers in ``dash``).
_N = rb"(?=[+\-.0-9]{1,17}" + _END + rb")" + NUMBER + _END
_W1 = rb"[\x00\t\n\x0c\r ]+"
_N2 = _N + _W1 + _N + _W1
_PATH_OP = rb"(?:h|" + _N2 + rb"(?:[ml]|" + _N2 + rb"(?:[vy]|re|" + _N2 + rb"c)))" + _END
QUICK = re.compile(
    _WS + rb"(?P<s>)(?:(?P<q>[qQ])" + _END
    + rb"|(?P<paint>f\*|B\*|b\*|W\*|[SsfFBbnW])" + _END
    + rb"|\[" + _WS + rb"(?P<dash>(?:" + _N + _WS + rb")*)\]" + _WS + rb"(?P<phase>" + _N + rb")" + _W1 + rb"d" + _END
    + rb"|(?:h|" + _N + _W1 + rb"(?:(?P<o1>w|J|j|M|i|g|G)|" + _N + _W1 + rb"(?:[ml]|" + _N + _W1
    + rb"(?:(?P<o3>rg|RG)|" + _N + _W1 + rb"(?:(?P<o4>k|K)|[vy]|re|" + _N2 + rb"(?:(?P<cm>cm)|c))))))" + _END
    # after a path construction operator (not cm), the ones that follow it and a painting operator
    + rb"(?:(?<=[hmlvyce])(?<!cm)(?:" + _WS + _PATH_OP + rb"){0,255}(?P<pe>)(?:" + _WS
    + rb"(?P<pp>f\*|B\*|b\*|[SsfFBbn])" + _END + rb")?)?)")
QUICK_BATCH = 1024  # matches yielded at once
QUICK_PATH_OP = re.compile(_WS + rb"(" + _PATH_OP + rb")")  # one operator of a path run, after white space

# Operators of a fixed number of numbers that check_operands passes when the count is right
# (BX/EX/ID/EI carry their own diagnostics).
_PLAIN_ARITY = {op: n for op, n in _FIXED_NUMBERS.items() if op not in (b"BX", b"EX", b"ID", b"EI")}


class _Scanner:
    """Tokens as ``(kind, value, start, end)`` tuples: the fast path, else the Lexer."""

    __slots__ = ("buf", "pos", "lex", "pending")

    def __init__(self, buf, pending: _Pending):
        self.buf = buf
        self.pos = 0
        self.lex = Lexer(buf)
        self.pending = pending

    def next(self) -> tuple:
        m = _FAST.match(self.buf, self.pos)
        if m is not None:
            i = m.lastindex  # group 1 is the white space before the token
            assert i is not None
            start = m.start(i)
            end = self.pos = m.end()
            raw = m.group(i)
            if i == 2:
                if len(raw) <= INT_DIGITS:
                    return INT, int(raw), start, end
                return INT, self._bounded(read_int, raw, start), start, end
            if i == 3:
                if len(raw) <= REAL_CHARS:
                    return REAL, float(raw), start, end
                return REAL, self._bounded(read_real, raw, start), start, end
            if i == 5:
                return KEYWORD, raw, start, end
            if i == 4:
                lex = self.lex
                value = decode_name(raw, lex.diagnostics, start)
                if lex.diagnostics:
                    self.pending.drain(lex)
                return NAME, value, start - 1, end
            return STRING, String(raw), start - 1, end
        lex = self.lex
        lex.pos = self.pos
        tok = lex.next()
        self.pos = lex.pos
        if lex.diagnostics:
            self.pending.drain(lex)
        return tok.kind, tok.value, tok.start, tok.end


    def _bounded(self, read, raw: bytes, start: int):
        """A number too long to convert directly, bounded by ``read`` (core.numbers)."""
        lex = self.lex
        value = read(raw, lex.diagnostics, start)
        if lex.diagnostics:
            self.pending.drain(lex)
        return value


class _Pending:
    """Diagnostics waiting for the next operation, capped at MAX_DIAGNOSTICS."""

    __slots__ = ("items", "dropped")

    def __init__(self):
        self.items: list[Diagnostic] = []
        self.dropped = 0

    def add(self, diagnostic: Diagnostic) -> None:
        if len(self.items) < MAX_DIAGNOSTICS:
            self.items.append(diagnostic)
        else:
            self.dropped += 1

    def drain(self, lex: Lexer) -> None:
        for d in lex.diagnostics:
            self.add(d)
        lex.diagnostics.clear()

    def take(self) -> tuple[Diagnostic, ...]:
        if self.dropped:
            self.items.append(info("diagnostics-suppressed",
                                   f"{self.dropped} more diagnostics not shown"))
        out = tuple(self.items)
        self.items = []
        self.dropped = 0
        return out


def iter_operations(data: bytes) -> Iterator[Operation]:
    """Yield the operations of a decoded content stream, in order."""
    return cast(Iterator[Operation], iter_quick(data, None))


def iter_quick(data: bytes, quick: re.Pattern[bytes] | None) -> Iterator[Operation | list[re.Match[bytes]]]:
    """:func:`iter_operations`, except that where an operation starts (no operand read yet, no
    diagnostic waiting) and ``quick`` matches, its matches there and after (up to
    :data:`QUICK_BATCH` of them) are yielded instead, as a list, unchecked, and the stream goes
    on after them: the caller runs what they matched (:data:`QUICK`)."""
    pending = _Pending()
    scan = _Scanner(data, pending)
    next_token = scan.next
    operands: list = []
    spans: list[tuple[int, int]] = []
    compat = 0  # BX/EX nesting (7.8.2)
    bulk = _BULK.match
    fast = quick.match if quick is not None else None
    while True:
        if not operands:
            if fast is not None and not pending.items:
                q = fast(data, scan.pos)
                if q is not None:
                    run = [q]
                    pos = q.end()
                    while len(run) < QUICK_BATCH and (q := fast(data, pos)) is not None:
                        run.append(q)
                        pos = q.end()
                    scan.pos = pos
                    yield run
                    continue
            m = bulk(data, scan.pos)
            if m is not None:
                op = m.group(2)
                start, end = m.start(1), m.end()
                for n in _NUMBER.finditer(data, start, m.end(1)):
                    raw = n.group()
                    operands.append(int(raw) if n.lastindex is None else float(raw))
                    spans.append(n.span())
                if _PLAIN_ARITY.get(op) != len(operands):
                    compat = _operator_diagnostics(op, operands, m.start(2), compat, pending)
                scan.pos = end
                yield Operation(op, tuple(operands), start if operands else m.start(2), end, tuple(spans),
                                pending.take() if pending.items else ())
                operands, spans = [], []
                continue
        kind, value, start, end = next_token()
        if kind is KEYWORD:
            if value in _CONSTANTS:
                value = _CONSTANTS[value]
            elif value in _STRAY_KEYWORDS:
                _skip_strays(scan, value, start)
                continue
            elif value == b"BI":
                yield _inline_image(scan, start, end, operands, spans)
                operands, spans = [], []
                continue
            else:
                compat = _operator_diagnostics(value, operands, start, compat, pending)
                yield Operation(value, tuple(operands), spans[0][0] if spans else start,
                                end, tuple(spans), pending.take())
                operands, spans = [], []
                continue
        elif kind is DELIM:
            if value not in _OPENERS:
                pending.add(_stray(value, start))
                _skip_strays(scan, value, start)
                continue
            value, end = _read_container(scan, value, start, end, 1)
        elif kind is EOF:
            break
        if len(operands) >= MAX_OPERANDS:
            half = MAX_OPERANDS // 2
            pending.add(warning("operands-dropped",
                                f"{half} operands with no operator dropped", offset=spans[0][0]))
            del operands[:half], spans[:half]
        operands.append(value)
        spans.append((start, end))
    if compat:
        pending.add(warning("compat-unclosed", f"{compat} BX without EX at end of stream",
                            offset=len(data), clause="7.8.2"))
    if operands:
        pending.add(warning("operands-left", f"{len(operands)} operands with no operator at end",
                            offset=spans[0][0], clause="7.8.2"))
    if operands or pending.items:
        start = spans[0][0] if spans else len(data)
        yield Operation(b"", tuple(operands), start, spans[-1][1] if spans else start,
                        tuple(spans), pending.take())


_STRAY_RUN = re.compile(rb"[\x00\t\n\x0c\r )>\]]+")


def _skip_strays(scan: _Scanner, first: bytes, offset: int) -> None:
    """After a stray ``)``, ``>``, ``>>`` or ``]`` outside any container, skip a run of
    :data:`STRAY_RUN` or more closing delimiters that follows it with one diagnostic for the
    run, not one per byte (a shorter run is reported delimiter by delimiter)."""
    m = _STRAY_RUN.match(scan.buf, scan.pos)
    if m is None:
        return
    count = len(m.group().translate(None, WHITESPACE))
    if count >= STRAY_RUN:
        scan.pos = m.end()
        scan.pending.add(warning("stray-delimiter", f"{count} more stray closing delimiters after "
                                 f"{first.decode()!r} ignored", offset=m.start(), clause="7.2.3"))


def _stray(delim: bytes, offset: int) -> Diagnostic:
    return warning("stray-delimiter", f"stray {delim.decode()!r} ignored",
                   offset=offset, clause="7.2.3")


def _operator_diagnostics(op: bytes, operands: list, offset: int, compat: int,
                          pending: _Pending) -> int:
    """Report problems with one operator; return the new BX/EX depth."""
    spec = OPERATORS.get(op)
    if spec is None:
        name = op.decode("latin-1")
        if compat:
            pending.add(info("operator-unknown-compat",
                             f"unknown operator {name!r} inside BX/EX, ignored",
                             offset=offset, clause="7.8.2"))
        else:
            pending.add(warning("operator-unknown", f"unknown operator {name!r}",
                                offset=offset, clause="7.8.2"))
        return compat
    for message in check_operands(op, operands):
        pending.add(warning("operands-mismatch", message, offset=offset, clause=spec.clause))
    if op == b"BX":
        return compat + 1
    if op == b"EX":
        if compat:
            return compat - 1
        pending.add(warning("compat-unbalanced", "EX without BX", offset=offset, clause="7.8.2"))
    elif op in (b"ID", b"EI"):
        pending.add(warning("inline-image-stray", f"{op.decode()} outside an inline image",
                            offset=offset, clause="8.9.7"))
    return compat


def _object_value(scan: _Scanner, kind: str, value, start: int, end: int, depth: int):
    """Complete an operand started by a token: (value, end), or None if the token is an
    operator (pushed back) or stray (reported)."""
    if kind is KEYWORD:
        if value in _CONSTANTS:
            return _CONSTANTS[value], end
        if value not in _STRAY_KEYWORDS:
            scan.pos = start
        return None
    if kind is DELIM:
        if value not in _OPENERS:
            scan.pending.add(_stray(value, start))
            return None
        if depth >= MAX_DEPTH:
            scan.pending.add(warning("container-too-deep", f"nesting deeper than {MAX_DEPTH} ignored",
                                     offset=start))
            _skip_container(scan)
            return None
        return _read_container(scan, value, start, end, depth + 1)
    return value, end


def _skip_container(scan: _Scanner) -> None:
    """Skip what a container nested too deep holds, through its closing delimiter (or up to an
    operator, or the end of data), building no values and no diagnostic per token: a run of
    ``[`` or ``<<`` is skipped by one match (the parser does the same)."""
    depth = 1
    buf = scan.buf
    while True:
        skipped = skip_bracket_run(buf, scan.pos, len(buf), depth)
        if skipped is not None:
            depth, scan.pos = skipped
            if depth == 0:
                return
            continue
        kind, value, start, _end = scan.next()
        if kind is DELIM:
            if value in _OPENERS:
                depth += 1
            else:
                depth -= 1
                if depth == 0:
                    return
        elif kind is EOF or (kind is KEYWORD and value not in _CONSTANTS and value not in _STRAY_KEYWORDS):
            scan.pos = start
            return


def _read_container(scan: _Scanner, opener: bytes, start: int, end: int, depth: int):
    """Read an array or dictionary after its opening delimiter; return (value, end).

    An operator inside (not ``true``/``false``/``null``) ends the container early: it is
    pushed back so the caller sees it, and the container is reported unterminated. Except in
    an array whose ``]`` comes within :data:`MAX_STRAY_LOOKAHEAD` more tokens: there the
    operators are dropped from it and reported, and the array goes on, as poppler and pdf.js
    read ``[(Grandes) 0.0 Tc (Clientèles,)] TJ`` (their arrays end only at ``]``).
    """
    closer = _OPENERS[opener]
    pending = scan.pending
    items: list = []
    stray: tuple | None = None  # at the first operator: (its offset, items, end, diagnostics, dropped) to go back to
    ahead = 0  # tokens read since the first operator
    while True:
        kind, value, tok_start, tok_end = scan.next()
        if kind is DELIM and value == closer:
            end = tok_end
            break
        operator = kind is KEYWORD and value not in _CONSTANTS and value not in _STRAY_KEYWORDS
        if stray is not None:
            ahead += 1
            if kind is EOF or ahead > MAX_STRAY_LOOKAHEAD or (kind is DELIM and value in _OPENERS):
                # no ] soon enough: the array ends at its first operator after all
                tok_start, items, end = stray[0], stray[1], stray[2]
                del pending.items[stray[3]:]
                pending.dropped = stray[4]
                operator = True
            elif operator:
                pending.add(_operator_in_array(value, tok_start))
                continue
        elif operator and closer == b"]":
            stray = (tok_start, list(items), end, len(pending.items), pending.dropped)
            pending.add(_operator_in_array(value, tok_start))
            continue
        if kind is EOF or operator:
            scan.pos = tok_start
            pending.add(warning("container-unterminated",
                                f"{opener.decode()} not closed by {closer.decode()}",
                                offset=start, clause="7.3"))
            break
        got = _object_value(scan, kind, value, tok_start, tok_end, depth)
        if got is None:
            continue
        end = got[1]
        if len(items) < MAX_ITEMS:
            items.append(got[0])
        elif len(items) == MAX_ITEMS:
            items.append(got[0])  # one past the cap marks that the warning was given
            pending.add(warning("container-too-long", f"elements after {MAX_ITEMS} dropped",
                                offset=tok_start))
    del items[MAX_ITEMS:]
    if closer == b"]":
        return Array(items), end
    return _make_dict(items, start, pending), end


def _operator_in_array(op: bytes, offset: int) -> Diagnostic:
    return warning("operator-in-array", f"operator {op.decode('latin-1')!r} inside an array: left out of it and "
                   "not run, as poppler and pdf.js read it", offset=offset, clause="7.8.2")


def _make_dict(items: list, offset: int, pending: _Pending) -> Dict:
    out = Dict()
    if len(items) % 2:
        pending.add(warning("dict-odd", "dictionary has a key without a value; key dropped",
                            offset=offset, clause="7.3.7"))
    for key, value in zip(items[0::2], items[1::2]):
        if isinstance(key, Name):
            out[key] = value
        else:
            pending.add(warning("dict-key-not-name", "dictionary key is not a name; entry dropped",
                                offset=offset, clause="7.3.7"))
    return out


def _inline_image(scan: _Scanner, bi_start: int, bi_end: int, operands: list,
                  spans: list) -> Operation:
    """Read ``BI … ID <data> EI`` after the BI keyword; leave ``scan`` after EI (8.9.7)."""
    data, pending = scan.buf, scan.pending
    if operands:
        pending.add(warning("operands-mismatch", f"BI takes no operands; {len(operands)} ignored",
                            offset=spans[0][0], clause="8.9.7"))
    items: list = []
    while True:
        kind, value, start, end = scan.next()
        if kind is KEYWORD and value == b"ID":
            break
        if kind is EOF:
            value = None
            break
        got = _object_value(scan, kind, value, start, end, 0)
        if got is not None:
            items.append(got[0])
        elif scan.pos == start:  # an operator other than ID
            break
    params = _make_dict(items, bi_start, pending)
    if value != b"ID":
        pending.add(warning("inline-image-no-id", "BI without ID", offset=bi_start, clause="8.9.7"))
        return Operation(b"BI", (params, b""), bi_start, max(scan.pos, bi_end), (), pending.take())
    id_start, id_end = start, end
    start = id_end
    if start < len(data) and data[start] in WHITESPACE:
        start += 1
    else:
        pending.add(warning("inline-image-no-space", "no white space after ID",
                            offset=id_end, clause="8.9.7"))
    length = params.get("L", params.get("Length"))
    if not isinstance(length, int) or isinstance(length, bool):
        length = None
    data_end, ei_end, problems = find_inline_image_end(data, start, length)
    for code, message, offset in problems:
        pending.add(warning(code, message, offset=offset, clause="8.9.7"))
    scan.pos = ei_end
    return Operation(b"BI", (params, bytes(data[start:data_end])), bi_start, ei_end,
                     ((bi_end, id_start), (start, data_end)), pending.take())


_BI = re.compile(rb"(?<![^\x00\t\n\x0c\r ()<>\[\]{}/%])BI(?![^\x00\t\n\x0c\r ()<>\[\]{}/%])")


def inline_images(data: bytes) -> Iterator[Operation]:
    """The ``BI`` operations of a content stream; a stream without the keyword is not
    tokenized at all (a ``BI`` in a string is no inline image: the tokenizer says which)."""
    if _BI.search(data) is None:
        return
    for op in iter_operations(data):
        if op.op == b"BI" and len(op.operands) == 2:
            yield op
