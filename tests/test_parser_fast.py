"""The parser's fast path for flat arrays and dictionaries gives what the token path gives."""
from __future__ import annotations

import re

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


def parse(data: bytes):
    p = Parser(data, 0)
    return p.parse_object(), p.pos, [d.code for d in p.diagnostics]


@settings(max_examples=600, deadline=None)
@given(values())
@example(b"<< /K [1 0 R] /L [0 null] /M [/N] >>")
@example(b"<</K[(a)]/L[true]>>")
@example(b"<< /Fields [ (form1[0].Field[0]) ] /V /1.2 >>")  # a string in a dictionary's array holds ]
@example(b"<< /A << /S /GoTo /D (sec>>1) >> /Rect [0 0 1 1] >>")  # a link: a flat dictionary inside, a string holding >>
@example(b"<</A<</K 1/K 2>>>>")  # a duplicate key inside: the token path reports it
@example(b"<< /A << /B << /C 1 >> >> >>")  # two levels: the token path
def test_fast_and_token_paths_agree(data):
    fast = parse(data)
    never = re.compile(rb"(?!)")
    saved = parser._FLAT_ARRAY, parser._FLAT_DICT
    parser._FLAT_ARRAY = parser._FLAT_DICT = never
    try:
        slow = parse(data)
    finally:
        parser._FLAT_ARRAY, parser._FLAT_DICT = saved
    assert fast == slow, data


def test_fast_path_reads_a_destination_and_a_page():
    v, _, diags = parse(b"<< /D [19982 0 R /XYZ 138.085 477.251 null] /T (a) /M [0 0 595.276 841.89] >>")
    assert v["D"][0].num == 19982 and v["D"][1] == "XYZ" and v["D"][4] is None and len(v["D"]) == 5
    assert v["T"].value == b"a" and v["M"][2] == 595.276 and not diags
