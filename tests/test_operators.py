"""The Annex A operator table against ISO 32000-1 Table A.1 and Table 51."""
import pytest

from pdfinspect.content.operators import check_operands
from pdfinspect.spec.operators import CATEGORIES, OPERATORS, is_text_showing
from pdfinspect.core.objects import Array, Dict, Name, String

# ISO 32000-1:2008 Table A.1 "PDF content stream operators", in the table's order.
TABLE_A1 = (
    "b B b* B* BDC BI BMC BT BX c cm CS cs d d0 d1 Do DP EI EMC ET EX f F f* G g gs h i ID "
    "j J K k l m M MP n q Q re RG rg ri s S SC sc SCN scn sh T* Tc Td TD Tf Tj TJ TL Tm Tr "
    "Ts Tw Tz v w W W* y ' \""
).split()

# ISO 32000-1:2008 Table 51 "Operator categories": category, operators, defining table.
TABLE_51 = {
    "General graphics state": ("w J j M d ri i gs", 57),
    "Special graphics state": ("q Q cm", 57),
    "Path construction": ("m l c v y h re", 59),
    "Path painting": ("S s f F f* B B* b b* n", 60),
    "Clipping paths": ("W W*", 61),
    "Text objects": ("BT ET", 107),
    "Text state": ("Tc Tw Tz TL Tf Tr Ts", 105),
    "Text positioning": ("Td TD Tm T*", 108),
    "Text showing": ("Tj TJ ' \"", 109),
    "Type 3 fonts": ("d0 d1", 113),
    "Color": ("CS cs SC SCN sc scn G g RG rg K k", 74),
    "Shading patterns": ("sh", 77),
    "Inline images": ("BI ID EI", 92),
    "XObjects": ("Do", 87),
    "Marked content": ("MP DP BMC BDC EMC", 320),
    "Compatibility": ("BX EX", 32),
}


def test_table_has_exactly_the_operators_of_table_a1():
    assert len(TABLE_A1) == 73
    assert sorted(OPERATORS) == sorted(op.encode() for op in TABLE_A1)


def test_every_operator_is_in_its_table_51_category():
    assert list(CATEGORIES) == list(TABLE_51)
    for category, (ops, table) in TABLE_51.items():
        for op in ops.split():
            info = OPERATORS[op.encode()]
            assert info.category == category, op
            assert info.table == table, op
            assert info.name == op


@pytest.mark.parametrize("op, clause", [
    ("cm", "8.4.4"), ("gs", "8.4.4"), ("re", "8.5.2"), ("f*", "8.5.3"), ("W", "8.5.4"),
    ("BT", "9.4.1"), ("Tf", "9.3.1"), ("Td", "9.4.2"), ("TJ", "9.4.3"), ("d1", "9.6.5"),
    ("scn", "8.6.8"), ("sh", "8.7.4.2"), ("ID", "8.9.7"), ("Do", "8.8.1"), ("BDC", "14.6.1"),
    ("BX", "7.8.2"),
])
def test_clauses(op, clause):
    assert OPERATORS[op.encode()].clause == clause


@pytest.mark.parametrize("op, arity", [
    ("cm", 6), ("Tm", 6), ("c", 6), ("d1", 6), ("v", 4), ("y", 4), ("re", 4), ("k", 4),
    ("rg", 3), ('"', 3), ("Tf", 2), ("d", 2), ("BDC", 2), ("DP", 2), ("Td", 2), ("d0", 2),
    ("TJ", 1), ("Tj", 1), ("'", 1), ("Do", 1), ("g", 1), ("q", 0), ("n", 0), ("EMC", 0),
])
def test_fixed_arity(op, arity):
    info = OPERATORS[op.encode()]
    assert info.min_args == info.max_args == arity == len(info.operands)


def test_variadic_colour_operators():
    assert OPERATORS[b"SCN"].max_args is None and OPERATORS[b"scn"].max_args is None
    assert (OPERATORS[b"SC"].min_args, OPERATORS[b"SC"].max_args) == (1, 4)


def test_descriptions_are_single_lines():
    for info in OPERATORS.values():
        assert info.description and "\n" not in info.description


def test_is_text_showing():
    assert [op for op in TABLE_A1 if is_text_showing(op.encode())] == ["Tj", "TJ", "'", '"']
    assert [op for op in TABLE_A1 if OPERATORS[op.encode()].shows_text] == ["Tj", "TJ", "'", '"']


@pytest.mark.parametrize("op, operands", [
    (b"cm", [1, 0, 0, 1, -0.24, 3.5]),
    (b"Tf", [Name("F1"), 12]),
    (b"TJ", [Array([String(b"A"), -120, String(b"B", hex=True)])]),
    (b"d", [Array([3, 2]), 0]),
    (b"d", [Array(), 0]),
    (b"BDC", [Name("Span"), Dict({Name("ActualText"): String(b"x")})]),
    (b"BDC", [Name("OC"), Name("oc1")]),
    (b"sc", [0.5]),
    (b"scn", [0.1, 0.2, 0.3, 0.4, 0.5, Name("P1")]),
    (b"scn", [Name("P1")]),
    (b'"', [1, 2, String(b"x")]),
    (b"J", [1]),
    (b"q", []),
])
def test_check_operands_accepts(op, operands):
    assert check_operands(op, operands) == []


@pytest.mark.parametrize("op, operands, fragment", [
    (b"cm", [1, 0, 0, 1, 0], "takes 6 operands, got 5"),
    (b"q", [1], "takes 0 operands, got 1"),
    (b"Tf", [12, Name("F1")], "operand 1 should be name"),
    (b"Tj", [Name("x")], "should be string, got name"),
    (b"TJ", [Array([String(b"a"), Name("x")])], "only strings and numbers"),
    (b"J", [1.5], "should be integer"),
    (b"g", [True], "should be number, got boolean"),
    (b"SC", [], "takes 1 to 4 operands, got 0"),
    (b"SC", [1, 2, 3, 4, 5], "takes 1 to 4 operands, got 5"),
    (b"scn", [], "at least 1"),
    (b"BDC", [Name("P"), 3], "should be name-or-dict"),
    (b"d", [Array([Name("x")]), 0], "dash array"),
    (b"xyz", [], "unknown operator 'xyz'"),
])
def test_check_operands_reports(op, operands, fragment):
    messages = check_operands(op, operands)
    assert any(fragment in m for m in messages), messages


def test_check_operands_never_raises_on_odd_values():
    for op in list(OPERATORS) + [b"", b"\xff"]:
        for operands in ([], [None], [object()], [Array([None])] * 7):
            assert isinstance(check_operands(op, operands), list)
