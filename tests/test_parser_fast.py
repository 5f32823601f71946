"""The parser's fast path for flat arrays and dictionaries gives what the token path gives."""
from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from pdfinspect.core import parser
from pdfinspect.core.parser import Parser

WS = st.sampled_from([b" ", b"", b"\n", b"\r\n", b"  ", b"\t"])
ITEM = st.one_of(
    st.tuples(st.integers(0, 99999), st.integers(0, 9)).map(lambda t: b"%d %d R" % t),
    st.integers(-10**6, 10**6).map(lambda i: b"%d" % i),
    st.sampled_from([b"-.24", b"4.", b"+17", b"0.5", b"138.085", b"1.2.3", b"--1", b"-1 0 R"]),
    st.sampled_from([b"/Type", b"/XYZ", b"/A#20B", b"/", b"/a.b-c", b"/R"]),
    st.sampled_from([b"(text)", b"()", b"(a\\)b)", b"(a(b)c)", b"(x\ry)", b"(f[0])", b"<41>"]),
    st.sampled_from([b"true", b"false", b"null", b"R", b"obj", b"%c\n"]),
)


@st.composite
def values(draw, depth=0):
    kind = draw(st.sampled_from(["item", "array", "dict"] if depth < 2 else ["item"]))
    if kind == "item":
        return draw(ITEM)
    parts = []
    for _ in range(draw(st.integers(0, 6))):
        if kind == "dict":
            parts.append(draw(st.sampled_from([b"/K", b"/L", b"/Type", b"/K"])) + draw(WS))
        parts.append(draw(values(depth + 1)) + draw(WS))
    open_, close = (b"[", b"]") if kind == "array" else (b"<<", b">>")
    return open_ + draw(WS) + b"".join(parts) + close


def typed(value):
    """``value`` with the type of every leaf beside it: 4 and 4.0 are equal, but not the same read."""
    if isinstance(value, dict):
        return type(value).__name__, sorted((k, typed(v)) for k, v in value.items())
    if isinstance(value, list):
        return type(value).__name__, [typed(v) for v in value]
    return type(value).__name__, value


def parse(data: bytes):
    p = Parser(data, 0)
    return p.parse_object(), p.pos, [d.code for d in p.diagnostics]


FAST_PATHS = ("_NUMBER_ARRAY", "_REF_ARRAY", "_FLAT_ARRAY", "_FLAT_DICT")


def parse_token_by_token(data: bytes):
    """What the parser reads with every fast path switched off."""
    never = re.compile(rb"(?!)")
    saved = {name: getattr(parser, name) for name in FAST_PATHS}
    try:
        for name in FAST_PATHS:
            setattr(parser, name, never)
        return parse(data)
    finally:
        for name, pattern in saved.items():
            setattr(parser, name, pattern)


def same_read(data: bytes) -> bool:
    (fast, fast_end, fast_codes), (slow, slow_end, slow_codes) = parse(data), parse_token_by_token(data)
    return (typed(fast), fast_end, fast_codes) == (typed(slow), slow_end, slow_codes)


@settings(max_examples=600, deadline=None)
@given(values())
@example(b"<< /K [1 0 R] /L [0 null] /M [/N] >>")
@example(b"<</K[(a)]/L[true]>>")
@example(b"<< /Fields [ (form1[0].Field[0]) ] /V /1.2 >>")  # a string in a dictionary's array holds ]
@example(b"<< /A << /S /GoTo /D (sec>>1) >> /Rect [0 0 1 1] >>")  # a link: a flat dictionary inside, a string holding >>
@example(b"<</A<</K 1/K 2>>>>")  # a duplicate key inside: the token path reports it
@example(b"<< /A << /B << /C 1 >> >> >>")  # two levels: the token path
def test_fast_and_token_paths_agree(data):
    assert same_read(data), data


# Arrays of numbers only or references only, the two fastest paths, with the numbers that are
# easy to misread (-.24, 4., +17) and the near misses that must fall back (1.2.3, --1, 1 0 obj).
NUMBER = st.one_of(
    st.integers(-10**9, 10**9).map(lambda i: b"%d" % i),
    st.floats(-1e6, 1e6, allow_nan=False).map(lambda f: b"%.3f" % f),
    st.sampled_from([b"-.24", b"4.", b"+17", b"-0", b".5", b"00012", b"+.0"]),
)
NEAR_MISS = st.sampled_from([b"1.2.3", b"--1", b"+-1", b".", b"-", b"1e5", b"12R", b"0 R", b"1 0 obj", b"%c\n",
                             b"1 -0 R", b"1 0 RR", b"/R", b"(1)"])
REF = st.tuples(st.integers(0, 10**7), st.integers(0, 70000)).map(lambda t: b"%d %d R" % t)


@st.composite
def uniform_arrays(draw):
    kind = draw(st.sampled_from([NUMBER, REF]))
    items = draw(st.lists(st.one_of(kind, NEAR_MISS) if draw(st.booleans()) else kind, max_size=12))
    seps = draw(st.lists(WS.filter(bool), min_size=len(items) + 1, max_size=len(items) + 1))
    body = b"".join(sep + item for sep, item in zip(seps, items)) + seps[-1]
    return b"[" + body + b"]" + draw(st.sampled_from([b"", b" ", b"/Next", b"]"]))


@settings(max_examples=600, deadline=None)
@given(uniform_arrays())
@example(b"[0 0 612 792]")
@example(b"[-.24 4. +17]")
@example(b"[1.2.3]")  # not a number: the token path reports it
@example(b"[12 0 R 13 0 R]")
@example(b"[12 0 R 13 0]")  # a reference cut short
@example(b"[1 0 R\n2 0 R ]")
def test_number_and_reference_arrays_read_as_token_by_token(data):
    assert same_read(data), data


@pytest.mark.parametrize("data, path", [(b"[0 0 612.5 -.24 4. +17 ]", "_NUMBER_ARRAY"),
                                        (b"[ 12 0 R\r\n13 1 R]", "_REF_ARRAY")])
def test_the_uniform_arrays_take_their_fast_path(data, path):
    assert getattr(parser, path).match(data, 1) is not None


def test_fast_path_reads_a_destination_and_a_page():
    v, _, diags = parse(b"<< /D [19982 0 R /XYZ 138.085 477.251 null] /T (a) /M [0 0 595.276 841.89] >>")
    assert v["D"][0].num == 19982 and v["D"][1] == "XYZ" and v["D"][4] is None and len(v["D"]) == 5
    assert v["T"].value == b"a" and v["M"][2] == 595.276 and not diags
