"""Content-stream tokeniser: byte-literal cases, robustness properties, corpus vs pikepdf."""
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from pdfinspect.content.tokenizer import (
    MAX_OPERANDS, MAX_STRAY_LOOKAHEAD, QUICK, Operation, _Pending, _Scanner, iter_operations, iter_quick, join_contents, part_at,
)
from pdfinspect.core.diagnostics import Severity
from pdfinspect.core.lexer import EOF, WHITESPACE, Lexer
from pdfinspect.core.objects import Array, Dict, Name, String

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"


def ops(data: bytes) -> list[Operation]:
    return list(iter_operations(data))


def codes(op: Operation) -> list[str]:
    return [d.code for d in op.diagnostics]


def test_operands_of_every_type():
    data = (b"/Tag <</MCID 3 /ActualText (fi) /K [1 2.5 /N <4142> true false null]>> BDC "
            b"[(a\\051b) -120 <00 1f>] TJ EMC")
    bdc, tj, emc = ops(data)
    assert bdc.op == b"BDC" and bdc.diagnostics == ()
    tag, props = bdc.operands
    assert tag == Name("Tag") and isinstance(tag, Name)
    assert isinstance(props, Dict)
    assert props == {"MCID": 3, "ActualText": String(b"fi"),
                     "K": [1, 2.5, Name("N"), String(b"AB", hex=True), True, False, None]}
    assert isinstance(props["K"], Array)
    assert tj.operands == (Array([String(b"a)b"), -120, String(b"\x00\x1f", hex=True)]),)
    assert emc.operands == () and emc.op == b"EMC"


def test_reals_without_leading_digit_in_cm():
    (cm,) = ops(b"0.9 0 0 -.24 4. -0.5 cm")
    assert cm.operands == (0.9, 0, 0, -0.24, 4.0, -0.5)
    assert cm.diagnostics == ()


def test_spans_point_at_the_bytes():
    data = b"  q\n1 0 0 1 72 -.24 cm BT /F1 12 Tf (Hi) Tj ET"
    result = ops(data)
    assert [data[o.start:o.end] for o in result] == [
        b"q", b"1 0 0 1 72 -.24 cm", b"BT", b"/F1 12 Tf", b"(Hi) Tj", b"ET"]
    cm = result[1]
    assert [data[s:e] for s, e in cm.operand_spans] == [b"1", b"0", b"0", b"1", b"72", b"-.24"]


def test_join_contents_split_between_operand_and_operator():
    parts = [b"q 1 0 0 1 10 -.24", b"cm BT /F1 9 Tf", b"(x) Tj ET Q"]
    data, starts = join_contents(parts)
    assert starts == [(0, 0), (1, len(parts[0]) + 1), (2, len(parts[0]) + len(parts[1]) + 2)]
    result = ops(data)
    assert [o.op for o in result] == [b"q", b"cm", b"BT", b"Tf", b"Tj", b"ET", b"Q"]
    assert result[1].operands == (1, 0, 0, 1, 10, -0.24)
    assert all(not o.diagnostics for o in result)
    assert part_at(starts, result[1].end - 1) == (1, 1)  # the "m" of "cm" in part 1
    assert part_at(starts, result[1].start) == (0, 2)


def test_join_contents_every_whitespace_split_gives_the_same_operations():
    data = b"q 1 0 0 1 10 -.24 cm BT /F1 9 Tf [(a) 5 (b)] TJ ET Q"
    whole = [(o.op, o.operands) for o in ops(data)]
    for i, byte in enumerate(data):
        if byte == 0x20:
            joined, _ = join_contents([data[:i], data[i + 1:]])
            assert [(o.op, o.operands) for o in ops(joined)] == whole


def test_inline_image_with_ei_inside_binary_data():
    image = b"\x00\x01 EI \xff\x80\x93\xfe\x00EI\n\x10\x11\x12"
    data = b"q BI /W 4 /H 4 /BPC 8 /CS /G /F /AHx ID " + image + b"\nEI Q"
    q, bi, big_q = ops(data)
    assert (q.op, big_q.op) == (b"q", b"Q")
    assert bi.op == b"BI"
    params, raw = bi.operands
    assert params == {"W": 4, "H": 4, "BPC": 8, "CS": Name("G"), "F": Name("AHx")}
    assert raw == image
    assert data[bi.start:bi.end].startswith(b"BI") and data[bi.start:bi.end].endswith(b"EI")
    assert bi.diagnostics == ()


def test_inline_image_length_is_preferred():
    image = b"ab\nEI Q\ncd"  # looks like an end, but /L says otherwise
    data = b"BI /W 10 /H 1 /L %d ID " % len(image) + image + b" EI BT"
    bi, bt = ops(data)
    assert bi.operands[1] == image and bt.op == b"BT"


def test_inline_image_wrong_length_falls_back_to_search():
    data = b"BI /W 3 /H 1 /L 99 ID abc EI Q"
    bi, q = ops(data)
    assert bi.operands[1] == b"abc" and "inline-image-length-wrong" in codes(bi)
    assert q.op == b"Q"


def test_inline_image_with_empty_data_and_unterminated():
    bi, q = ops(b"BI /W 0 ID EI Q")
    assert bi.operands[1] == b"" and q.op == b"Q"
    (bi,) = ops(b"BI /W 1 ID \x00\x01\x02")
    assert bi.operands[1] == b"\x00\x01\x02" and "inline-image-unterminated" in codes(bi)
    bi, q, big_q = ops(b"BI /W 1 q Q")
    assert "inline-image-no-id" in codes(bi) and (q.op, big_q.op) == (b"q", b"Q")


def test_unknown_operator_reported():
    (op,) = ops(b"1 2 frob")
    assert op.op == b"frob" and op.operands == (1, 2)
    (d,) = op.diagnostics
    assert d.code == "operator-unknown" and d.severity is Severity.WARNING and d.offset == 4


def test_unknown_operator_inside_bx_ex_is_info():
    bx, frob, ex, frob2 = ops(b"BX /a frob EX frob")
    assert [d.severity for d in frob.diagnostics] == [Severity.INFO]
    assert codes(frob) == ["operator-unknown-compat"]
    assert codes(frob2) == ["operator-unknown"]
    assert codes(ex) == []
    (ex,) = ops(b"EX")
    assert codes(ex) == ["compat-unbalanced"]


def test_wrong_operands_reported_with_clause():
    (cm,) = ops(b"1 2 3 cm")
    assert codes(cm) == ["operands-mismatch"] and cm.diagnostics[0].clause == "8.4.4"
    assert cm.operands == (1, 2, 3)


def test_stray_delimiters_and_leftovers():
    result = ops(b"] >> ) 1 g } 5 6")
    g, left = result
    assert g.op == b"g" and g.operands == (1,)
    assert codes(g) == ["stray-delimiter"] * 3
    assert [d.offset for d in g.diagnostics] == [0, 2, 5]
    assert left.op == b"" and left.operands == (5, 6)
    assert codes(left) == ["stray-delimiter", "operands-left"]


def test_operator_inside_array_closes_it():
    tj, q = ops(b"[(a) 1 TJ Q")
    assert tj.op == b"TJ" and tj.operands == (Array([String(b"a"), 1]),)
    assert "container-unterminated" in codes(tj)
    assert q.op == b"Q"


def test_operators_inside_an_array_that_closes_are_left_out_of_it():
    # poppler and pdf.js end an array only at ]: the operators in it are elements nobody runs
    tj, et = ops(b"[(Grandes) 0.0 Tc (Client\\350les,) 0.0 Tc] TJ ET")
    assert tj.op == b"TJ" and tj.operands == (Array([String(b"Grandes"), 0.0, String(b"Client\xe8les,"), 0.0]),)
    assert codes(tj) == ["operator-in-array", "operator-in-array"]
    assert [d.offset for d in tj.diagnostics] == [15, 39] and et.op == b"ET"


@pytest.mark.parametrize("after", [b" 1" * (MAX_STRAY_LOOKAHEAD + 1) + b" ] TJ",  # ] too far away
                                   b" [(b)] ] TJ",  # another array opens first
                                   b" (b)"])  # the stream ends
def test_an_array_whose_bracket_does_not_come_soon_ends_at_its_first_operator(after):
    first = ops(b"[(a) 5 Tc" + after)[0]
    assert first.op == b"Tc" and first.operands == (Array([String(b"a"), 5]),)
    # the look-ahead's own warnings are taken back
    assert "container-unterminated" in codes(first) and "operator-in-array" not in codes(first)


def test_operator_in_a_tj_array_on_pdfjs_file_reads_like_poppler():
    path = Path(__file__).resolve().parents[2] / "shared" / "corpus-pdfjs" / "operator-in-TJ-array.pdf"
    if not path.exists():
        pytest.skip("operator-in-TJ-array.pdf not in ../shared/corpus-pdfjs")
    from pdfinspect.content.textlayout import page_text
    from pdfinspect.core.document import Document

    doc = Document.open(path)
    assert "Grandes Clientèles, Financements et Marchés" in page_text(doc, doc.page_ref(1))


def test_dict_problems():
    (bdc,) = ops(b"/P <</A 1 2 3 /B>> BDC")
    assert bdc.operands[1] == {"A": 1}
    assert "dict-odd" in codes(bdc) and "dict-key-not-name" in codes(bdc)


def test_operand_stack_is_capped():
    data = b"1 " * (MAX_OPERANDS + 10) + b"g"
    (g,) = ops(data)
    assert len(g.operands) <= MAX_OPERANDS
    assert "operands-dropped" in codes(g)


def test_deep_nesting_is_bounded():
    (op,) = ops(b"[" * 5000 + b"]" * 5000 + b" TJ")
    assert op.op == b"TJ" and "container-too-deep" in codes(op)


def test_diagnostics_per_operation_are_capped():
    (op,) = ops(b"<zz> " * 10_000 + b" q")
    assert len(op.diagnostics) <= 51 and op.diagnostics[-1].code == "diagnostics-suppressed"


def test_a_run_of_stray_delimiters_is_one_diagnostic():
    (op,) = ops(b")" * 10_000 + b" q")
    assert op.op == b"q" and codes(op) == ["stray-delimiter", "stray-delimiter"]
    assert "9999 more stray" in op.diagnostics[1].message and op.diagnostics[1].offset == 1


def test_nesting_too_deep_is_skipped_in_one_pass():
    data = b"[" * 1_000_000 + b"1 0 0 1 0 0 cm"
    result = ops(data)
    assert result[-1].op == b"cm"
    assert len([d for op in result for d in op.diagnostics]) < 100


def _check_spans(data: bytes, result: list[Operation]) -> None:
    prev = 0
    for op in result:
        assert prev <= op.start <= op.end <= len(data)
        for s, e in op.operand_spans:
            assert op.start <= s <= e <= op.end
        prev = op.end


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_any_bytes_tokenise_with_spans_in_order(data):
    _check_spans(data, ops(data))


_CONTENTISH = st.lists(st.sampled_from([
    b" ", b"\n", b"\r", b"(", b")", b"<", b">", b"[", b"]", b"<<", b">>", b"{", b"/", b"%",
    b"#", b"\\", b"1", b"-.5", b"4.", b"BI", b"ID", b"EI", b"BX", b"EX", b"q", b"Tj", b"TJ",
    b"true", b"\x00", b"\xff", b"e", b"41",
]), max_size=80).map(b"".join)


@settings(max_examples=300, deadline=None)
@given(_CONTENTISH)
def test_content_like_bytes_tokenise_with_spans_in_order(data):
    _check_spans(data, ops(data))


@settings(max_examples=300, deadline=None)
@given(_CONTENTISH)
def test_fast_path_gives_the_same_tokens_as_the_lexer(data):
    expected = [(t.kind, t.value, t.start, t.end) for t in Lexer(data)]
    scan = _Scanner(data, _Pending())
    got = []
    while (tok := scan.next())[0] != EOF:
        got.append(tok)
    assert got == expected


# --- corpus: operator counts agree with qpdf (pikepdf.parse_content_stream) ---------------

def _corpus_files():
    if not CORPUS.is_dir():
        pytest.skip("corpus not available")
    return sorted(p for p in CORPUS.glob("*.pdf") if not p.name.startswith("damaged-"))


def _open(path):
    pikepdf = pytest.importorskip("pikepdf")
    password = "opensesame" if path.name == "qpdf-aes-256-userpw.pdf" else ""
    return pikepdf, pikepdf.open(path, password=password)


def _reference_ops(pikepdf, instructions):
    return [b"BI" if isinstance(i, pikepdf.ContentStreamInlineImage) else bytes(i.operator)
            for i in instructions]


def _theirs(pikepdf, obj):
    """A pikepdf operand as plain Python, to compare with ours."""
    if isinstance(obj, Decimal):
        return float(obj)
    if isinstance(obj, pikepdf.Name):
        return str(obj)[1:]
    if isinstance(obj, pikepdf.String):
        return bytes(obj)
    if isinstance(obj, pikepdf.Array):
        return [_theirs(pikepdf, x) for x in obj]
    if isinstance(obj, pikepdf.Dictionary):
        return {key[1:]: _theirs(pikepdf, value) for key, value in obj.items()}
    return obj


def _ours(obj):
    if isinstance(obj, String):
        return obj.value
    if isinstance(obj, Array):
        return [_ours(x) for x in obj]
    if isinstance(obj, Dict):
        return {str(key): _ours(value) for key, value in obj.items()}
    return obj


def test_corpus_page_operators_match_pikepdf():
    compared = 0
    for path in _corpus_files():
        pikepdf, pdf = _open(path)
        with pdf:
            for number, page in enumerate(pdf.pages, 1):
                contents = page.obj.get("/Contents")
                streams = contents if isinstance(contents, pikepdf.Array) else [contents]
                try:
                    parts = [s.read_bytes() for s in streams]
                    reference = pikepdf.parse_content_stream(page)
                except pikepdf.PdfError:  # a filter qpdf cannot decode (LZW EarlyChange 0)
                    continue
                data, _ = join_contents(parts)
                result = ops(data)
                where = f"{path.name} page {number}"
                assert [o.op for o in result] == _reference_ops(pikepdf, reference), where
                assert [d for o in result for d in o.diagnostics] == [], where
                for ours, theirs in zip(result, reference):
                    if ours.op != b"BI":
                        assert [_ours(x) for x in ours.operands] == [
                            _theirs(pikepdf, x) for x in theirs.operands], (where, ours)
                _check_spans(data, result)
                compared += 1
    assert compared >= 30


def test_corpus_type3_inline_images_match_pikepdf():
    path = CORPUS / "latex-dvips-pk300-type3.pdf"
    if not path.exists():
        pytest.skip("corpus not available")
    pikepdf, pdf = _open(path)
    if not hasattr(pikepdf.PdfInlineImage, "read_raw_bytes"):  # pikepdf 10.13, the last for Python 3.10
        pytest.skip(f"pikepdf {pikepdf.__version__} cannot read an inline image's raw bytes")
    images = 0
    with pdf:
        for obj in pdf.objects:
            if not (isinstance(obj, pikepdf.Dictionary) and obj.get("/Subtype") == "/Type3"):
                continue
            for _, proc in obj.CharProcs.items():
                reference = pikepdf.parse_content_stream(proc)
                result = ops(proc.read_bytes())
                assert [o.op for o in result] == _reference_ops(pikepdf, reference)
                theirs = [i.iimage for i in reference if isinstance(i, pikepdf.ContentStreamInlineImage)]
                ours = [o.operands[1] for o in result if o.op == b"BI"]
                for image, raw in zip(theirs, ours, strict=True):
                    # qpdf keeps the white space before EI in the data; we (like pdf.js) drop it.
                    qpdf_raw = image.read_raw_bytes()
                    assert qpdf_raw in (raw, raw + qpdf_raw[-1:]) and qpdf_raw[-1] in WHITESPACE
                    images += 1
    assert images > 50


def test_inline_images_are_the_bi_operations_and_a_bi_in_a_string_is_none():
    from pdfinspect.content.tokenizer import inline_images

    data = b"BT (a BI in a string) Tj ET\nq BI /W 1 /H 1 /BPC 8 /CS /G ID \x80 EI Q BI /W 2 /H 1 ID ab EI"
    found = list(inline_images(data))
    assert [op.start for op in found] == [data.index(b"BI /W 1"), data.index(b"BI /W 2")]
    assert found[0].operands[1] == b"\x80" and found[1].operands[1] == b"ab"
    assert found[0].operands[0]["W"] == 1 and data[found[0].start:found[0].end].endswith(b"EI")


_NUMERIC_OPS = st.lists(st.sampled_from([
    b" ", b"\n", b"\x00", b"%c\n", b"1", b"-2", b"+.5", b"4.", b"-.24", b"3.5", b"1.2.3", b"--1", b"/N",
    b"(s)", b"[", b"]", b"q", b"Q", b"cm", b"m", b"l", b"c", b"re", b"f", b"S", b"rg", b"w", b"d", b"BX",
    b"EX", b"true", b"null", b"BI", b"ID", b"EI", b"Tj", b"T*", b"'", b"x1", b"9" * 17, b"-" + b"9" * 17,
    b"9" * 30, b"1" * 20 + b".5", b"." + b"5" * 40,
]), max_size=60).map(b" ".join)


@settings(max_examples=400, deadline=None)
@given(_NUMERIC_OPS)
def test_bulk_numeric_operations_read_as_the_token_path_does(data):
    """Numbers then an operator are read in one match: same operations, spans and diagnostics
    as token by token."""
    import re

    from pdfinspect.content import tokenizer

    bulk = list(iter_operations(data))
    saved, tokenizer._BULK = tokenizer._BULK, re.compile(rb"(?!)")
    try:
        tokens = list(iter_operations(data))
    finally:
        tokenizer._BULK = saved
    assert [(o.op, o.operands, [type(x) for x in o.operands], o.start, o.end, o.operand_spans, o.diagnostics)
            for o in bulk] == [(o.op, o.operands, [type(x) for x in o.operands], o.start, o.end,
                                o.operand_spans, o.diagnostics) for o in tokens]


def test_huge_operands_are_bounded():
    got = ops(b"BT /F1 " + b"9" * 5000 + b" Tf " + b"9" * 400 + b".5 0 Td ET")
    tf, td = got[1], got[2]
    assert tf.operands[1] == (1 << 63) - 1 and td.operands[0] == 3.403e38
    assert "number-out-of-range" in codes(tf) and "number-out-of-range" in codes(td)


def test_a_deep_run_of_brackets_that_closes_is_skipped_in_one_pass():
    # 50,000 deep, closed: skipped to its end by one match, then the operators after it are read
    *_, tj, g = ops(b"[" * 50000 + b"]" * 50000 + b" TJ 0.5 g")
    assert tj.op == b"TJ" and "container-too-deep" in codes(tj) and g.op == b"g"


# Forty multi-digit numbers and no operator: before each number could be matched in as many ways
# as it has digits (``\d+\.?\d*`` splits "4520" anywhere), so a failed match of the batched
# operand patterns tried 4^32 splits — a damaged page's content stream hung every command.
RUN_OF_NUMBERS = b" ".join([b"4520", b"5269", b"531", b"12.5"] * 10)


def test_a_long_run_of_numbers_without_an_operator_is_read_once():
    (op,) = ops(RUN_OF_NUMBERS)
    assert len(op.operands) == 40 and codes(op) == ["operands-left"]


def test_a_long_run_of_numbers_without_an_operator_is_read_once_by_the_fast_path():
    *_, last = iter_quick(RUN_OF_NUMBERS + b" 1 0 0 1 0 0 cm", QUICK)
    assert isinstance(last, Operation) and last.op == b"cm" and len(last.operands) == 46
