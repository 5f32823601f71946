"""ISO 32000 7.2/7.3 lexical rules, one test per rule of DOMAIN.md §1."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdfinspect.core.lexer import DELIM, EOF, INT, KEYWORD, NAME, REAL, STRING, Lexer
from pdfinspect.core.objects import Name, String


def tokens(data: bytes):
    return list(Lexer(data))


def values(data: bytes):
    return [t.value for t in tokens(data)]


def test_whitespace_includes_nul_and_form_feed():
    assert values(b"\x001\t2\n3\x0c4\r5 6") == [1, 2, 3, 4, 5, 6]


def test_comments_run_to_end_of_line_but_not_inside_strings():
    assert values(b"1 % comment ) ( [\r2 %x\n(a%b)") == [1, 2, String(b"a%b")]


@pytest.mark.parametrize("text,value", [
    (b"15", 15), (b"+17", 17), (b"-98", -98), (b"0", 0), (b"34.5", 34.5), (b"-3.62", -3.62),
    (b"+123.6", 123.6), (b"4.", 4.0), (b"-.002", -0.002), (b".5", 0.5), (b"-.24", -0.24),
])
def test_numbers(text, value):
    (tok,) = tokens(text)
    assert tok.kind == (REAL if b"." in text else INT)
    assert tok.value == value
    assert (tok.start, tok.end) == (0, len(text))


def test_minus_dot_in_cm_matrix_is_not_misread():
    assert values(b".96 0 0 -.24 -.5 .5 cm")[:6] == [0.96, 0, 0, -0.24, -0.5, 0.5]


def test_no_exponent_notation_is_reported():
    lx = Lexer(b"1e5")
    tok = lx.next()
    assert (tok.kind, tok.value) == (INT, 1)
    assert lx.diagnostics[0].code == "number-malformed"


@pytest.mark.parametrize("escape,expected", [
    (rb"\n", b"\n"), (rb"\r", b"\r"), (rb"\t", b"\t"), (rb"\b", b"\b"), (rb"\f", b"\x0c"),
    (rb"\(", b"("), (rb"\)", b")"), (rb"\\", b"\\"),
])
def test_literal_escapes(escape, expected):
    assert values(b"(" + escape + b")") == [String(expected)]


def test_octal_escapes_take_one_to_three_digits():
    assert values(rb"(\5)(\05)(\005)(\0053)") == [String(b"\x05"), String(b"\x05"), String(b"\x05"),
                                                  String(b"\x053")]


def test_octal_escape_high_order_overflow_ignored():
    assert values(rb"(\777)") == [String(b"\xff")]


def test_octal_escaped_cid_is_a_code_not_text():
    assert values(rb"[(\024)]")[1] == String(b"\x14")


def test_balanced_parentheses_need_no_escape():
    assert values(b"(a(b(c))d)") == [String(b"a(b(c))d")]


def test_backslash_eol_is_a_continuation():
    assert values(b"(ab\\\ncd\\\r\nef\\\rgh)") == [String(b"abcdefgh")]


def test_bare_eol_inside_string_is_one_lf():
    assert values(b"(a\rb\r\nc\nd)") == [String(b"a\nb\nc\nd")]


def test_unknown_escape_drops_backslash():
    assert values(rb"(\q)") == [String(b"q")]


def test_hex_strings_ignore_whitespace_and_pad_odd_digit():
    assert values(b"<41 42\n4>") == [String(b"AB@", hex=True)]
    assert values(b"<901FA>") == [String(b"\x90\x1f\xa0", hex=True)]


def test_hex_string_with_bad_character_is_reported():
    lx = Lexer(b"<41zz42>")
    tok = lx.next()
    assert tok.value == String(b"AB", hex=True)
    assert [d.code for d in lx.diagnostics] == ["hexstring-bad-char"]


def test_names_decode_hash_escapes_and_are_case_sensitive():
    assert values(b"/A#20B /a#2Fb /Name /name") == [Name("A B"), Name("a/b"), Name("Name"), Name("name")]
    assert Name("Name") != Name("name")


def test_bad_name_escape_is_reported_and_kept():
    lx = Lexer(b"/A#zz")
    assert lx.next().value == Name("A#zz")
    assert lx.diagnostics[0].code == "name-bad-escape"


def test_delimiters_and_keywords():
    toks = tokens(b"<<[]>>{}true null obj")
    assert [(t.kind, t.value) for t in toks] == [
        (DELIM, b"<<"), (DELIM, b"["), (DELIM, b"]"), (DELIM, b">>"), (DELIM, b"{"), (DELIM, b"}"),
        (KEYWORD, b"true"), (KEYWORD, b"null"), (KEYWORD, b"obj")]


def test_token_spans_give_raw_bytes():
    data = b"  /Fo#6F  (x\\)y) <4142>"
    for tok in tokens(data):
        raw = data[tok.start:tok.end]
        assert raw.startswith((b"/", b"(", b"<"))
    assert [data[t.start:t.end] for t in tokens(data)] == [b"/Fo#6F", b"(x\\)y)", b"<4142>"]


def test_unterminated_string_is_reported_not_raised():
    lx = Lexer(b"(abc")
    assert lx.next().value == String(b"abc")
    assert lx.next().kind == EOF
    assert lx.diagnostics[0].code == "string-unterminated"


def test_name_kind():
    assert tokens(b"/Type")[0].kind == NAME
    assert tokens(b"(s)")[0].kind == STRING


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_tokenise_without_exception_and_always_advance(data):
    lx = Lexer(data)
    last = -1
    for tok in lx:
        assert tok.end > last
        assert 0 <= tok.start <= tok.end <= len(data)
        last = tok.end


@pytest.mark.parametrize("text,value", [
    (b"9" * 5000, (1 << 63) - 1), (b"-" + b"9" * 5000, -((1 << 63) - 1)),
    (b"9" * 400 + b".5", 3.403e38), (b"-" + b"9" * 400 + b".5", -3.403e38),
    (b"--" + b"9" * 5000, (1 << 63) - 1),  # the lenient path too
])
def test_numbers_out_of_range_are_clamped_with_a_diagnostic(text, value):
    lex = Lexer(text + b" ")
    tok = lex.next()
    assert tok.value == value and tok.kind == (REAL if b"." in text else INT)
    assert "number-out-of-range" in [d.code for d in lex.diagnostics] or text.startswith(b"--")


def test_long_numbers_in_range_are_read_exactly():
    lex = Lexer(b"000000000000000000000000000042 0.00000000000000000000000000000000000000001")
    assert [t.value for t in lex] == [42, 1e-41] and not lex.diagnostics
