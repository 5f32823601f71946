"""Objects and indirect objects (ISO 32000 7.3, 7.3.8, 7.3.10), including recovery."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pdfinspect.core.objects import Array, Dict, Ref, Stream, String
from pdfinspect.core.parser import Parser, parse_object_at


def parse(data: bytes):
    value, diags, _ = parse_object_at(data, 0)
    return value, [d.code for d in diags]


def test_nested_dict_array_and_references():
    value, diags = parse(b"<< /Kids [3 0 R 4 1 R] /Count 2 /N null /B true /S (x) /H <41> >>")
    assert diags == []
    assert value == {"Kids": [Ref(3, 0), Ref(4, 1)], "Count": 2, "N": None, "B": True,
                     "S": String(b"x"), "H": String(b"A", hex=True)}
    assert isinstance(value, Dict) and isinstance(value["Kids"], Array)


def test_two_integers_without_r_stay_integers():
    value, _ = parse(b"[1 2 3 4 R 5]")
    assert value == [1, 2, Ref(3, 4), 5]


def test_duplicate_key_last_wins_and_is_reported():
    value, diags = parse(b"<< /A 1 /A 2 >>")
    assert value == {"A": 2}
    assert diags == ["dict-duplicate-key"]


def test_unterminated_dict_returns_partial_value():
    value, diags = parse(b"<< /A 1 /B [2 3 endobj")
    assert value["A"] == 1 and value["B"] == [2, 3]
    assert "array-unterminated" in diags and "dict-unterminated" in diags


def test_missing_value_before_close():
    value, diags = parse(b"<< /A >>")
    assert value == {"A": None} and diags == ["dict-missing-value"]


def test_deep_nesting_is_cut_not_recursed_forever():
    value, diags = parse(b"[" * 5000 + b"]" * 5000)
    assert "nesting-too-deep" in diags


def test_indirect_object_with_stream_and_offsets():
    data = b"%junk\n7 0 obj\n<< /Length 5 >>\nstream\r\nHELLO\nendstream\nendobj\n"
    obj = Parser(data, 6).parse_indirect()
    assert (obj.num, obj.gen, obj.start) == (7, 0, 6)
    assert data[obj.start:obj.end].endswith(b"endobj")
    assert isinstance(obj.value, Stream) and obj.value.raw == b"HELLO"
    assert data[obj.value.data_offset:obj.value.data_offset + 5] == b"HELLO"
    assert obj.diagnostics == []


def test_wrong_length_is_repaired_by_finding_endstream():
    data = b"1 0 obj << /Length 3 >> stream\nHELLO WORLD\nendstream endobj"
    obj = Parser(data).parse_indirect()
    assert obj.value.raw == b"HELLO WORLD"
    (d,) = obj.diagnostics
    assert d.code == "stream-length-wrong" and d.repair and d.ref == (1, 0)


def test_indirect_length_resolved_through_callback():
    data = b"1 0 obj << /Length 9 0 R >> stream\nABCDE\nendstream endobj"
    obj = Parser(data).parse_indirect(length_of=lambda ref: 5 if ref == Ref(9, 0) else None)
    assert obj.value.raw == b"ABCDE" and obj.diagnostics == []


def test_stream_keyword_followed_by_cr_alone_is_reported():
    data = b"1 0 obj << /Length 2 >> stream\rAB\rendstream\rendobj"
    obj = Parser(data).parse_indirect()
    assert obj.value.raw == b"AB"
    assert [d.code for d in obj.diagnostics] == ["stream-cr-eol"]


def test_truncated_stream_stops_at_next_object_header():
    data = b"1 0 obj << /Length 999 >> stream\nABC\n2 0 obj (x) endobj"
    obj = Parser(data).parse_indirect()
    assert obj.value.raw.startswith(b"ABC") and b"obj" not in obj.value.raw
    assert "stream-unterminated" in [d.code for d in obj.diagnostics]


def test_missing_endobj_is_reported():
    obj = Parser(b"3 0 obj 42 4 0 obj 5 endobj").parse_indirect()
    assert obj.value == 42
    assert [d.code for d in obj.diagnostics] == ["endobj-missing"]


def test_no_header_returns_none():
    assert Parser(b"trailer << >>").parse_indirect() is None


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_parser_never_raises(data):
    p = Parser(b"1 0 obj " + data)
    obj = p.parse_indirect()
    assert obj is not None and obj.num == 1


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([b"<<", b">>", b"[", b"]", b"/N", b"1", b"0", b"R", b"(s)", b"<41>",
                                 b"stream\n", b"endstream", b"endobj", b"null", b"{", b"}"]), max_size=60))
def test_parser_on_token_soup_never_raises(parts):
    p = Parser(b"1 0 obj " + b" ".join(parts))
    assert p.parse_indirect() is not None


_number_text = st.one_of(st.integers(-10**12, 10**12).map(str),
                         st.tuples(st.integers(-999, 999), st.integers(0, 999)).map(lambda t: f"{t[0]}.{t[1]}"),
                         st.integers(0, 999).map(lambda n: f"-.{n}"), st.integers(0, 99).map(lambda n: f"{n}."))


@settings(max_examples=200, deadline=None)
@given(st.lists(_number_text, max_size=30), st.sampled_from([" ", "\n", "\r\n", "\x00", "  \t"]))
def test_fast_number_arrays_equal_the_token_path(numbers, sep):
    fast, _ = parse(("[" + sep.join(numbers) + "]").encode())
    slow, _ = parse(("[" + sep.join(numbers) + sep + "/X]").encode())  # a name forces the slow path
    assert fast == slow[:-1]
    assert [type(v) for v in fast] == [type(v) for v in slow[:-1]]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 65535)), max_size=30))
def test_fast_reference_arrays_equal_the_token_path(refs):
    text = " ".join(f"{n} {g} R" for n, g in refs)
    fast, _ = parse(f"[{text}]".encode())
    slow, _ = parse(f"[{text} /X]".encode())
    assert fast == slow[:-1] == [Ref(n, g) for n, g in refs]


def test_long_array_that_fails_at_its_end_does_not_backtrack_exponentially():
    value, _ = parse(b"[" + b"123456789 " * 60 + b"1 0 x]")
    assert len(value) == 62


def test_huge_numbers_in_fast_paths_are_bounded():
    from pdfinspect.core.numbers import MAX_INT
    huge = b"9" * 5000
    for data in (b"[0 0 " + huge + b" 792]", b"[1 0 R " + huge + b" 0 R]", b"[/A " + huge + b" (x)]",
                 b"<</Size " + huge + b"/Root 1 0 R>>", b"<</A [" + huge + b"]>>"):
        value, diags, _ = parse_object_at(data, 0)
        assert "number-out-of-range" in [d.code for d in diags], data[:12]
        assert MAX_INT in (list(value.values()) + [x for v in value.values() if isinstance(v, list) for x in v]
                           if isinstance(value, dict) else [getattr(x, "num", x) for x in value])


def test_deep_nesting_and_damaged_tokens_cost_bounded_diagnostics():
    for data in (b"[" * 1_000_000, b"<<" * 500_000, b"[" + b")" * 100_000 + b"]"):
        _, diags, end = parse_object_at(data, 0)
        assert len(diags) < 500 and end == len(data)
    _, diags, _ = parse_object_at(b"[" + b")" * 100_000 + b"]", 0)
    assert "diagnostics-repeated" in [d.code for d in diags]
    assert any("99900 more 'stray-delimiter'" in d.message for d in diags)


def test_stream_keyword_followed_by_a_space_then_crlf():
    import zlib
    data = zlib.compress(b"BT (Hello) Tj ET")
    buf = b"4 0 obj\n<</Length %d/Filter/FlateDecode>>\nstream \r\n%s\r\nendstream\nendobj\n" % (len(data), data)
    obj = Parser(buf, 0).parse_indirect()
    assert obj.value.raw == data
    assert "stream-space-before-eol" in [d.code for d in obj.diagnostics]
    assert zlib.decompress(obj.value.raw) == b"BT (Hello) Tj ET"


def test_a_deep_run_of_brackets_that_closes_is_skipped_in_one_pass():
    """The run ``[[[…]]]`` is read once to where the nesting cut closes (it used to give up on a
    run that closes inside it and read it token by token, each token matching the whole rest of
    the run again: 50,000 deep took minutes). What follows is read."""
    from pdfinspect.core.lexer import skip_bracket_run

    run = b"[[ [<< >>]] ]] /After"
    assert skip_bracket_run(run, 0, len(run), 1) == (0, run.index(b"] /After") + 1)
    assert skip_bracket_run(run, 0, len(run), 9) == (9 + 4 - 5, run.index(b" /After"))  # 4 opened, 5 closed
    value, diags = parse(b"<< /A " + b"[" * 50000 + b"]" * 50000 + b" /B 2 >>")
    assert value["B"] == 2 and "nesting-too-deep" in diags
