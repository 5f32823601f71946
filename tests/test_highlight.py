"""Pygments lexers: registration, token choices on PDF snippets, never hanging on any input."""
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from pygments.lexers import get_lexer_by_name
from pygments.token import Comment, Error, Keyword, Name, Number, Operator, String, Whitespace

from pdfinspect.spec.operators import OPERATORS
from pdfinspect.highlight.lexers import (
    BINARY_DATA, CATEGORY_TOKENS, CMapLexer, HEX_STRING, OBJECT_HEADER, PDF_NAME, REFERENCE,
    PdfContentLexer, PdfLexer,
)

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
ALIASES = {"pdf": PdfLexer, "pdfcontent": PdfContentLexer, "pdf-content": PdfContentLexer,
           "pdfcmap": CMapLexer, "cmap": CMapLexer}


def tokens(lexer_name: str, text: str) -> list[tuple]:
    """Non-whitespace (token type, text) pairs."""
    lexer = get_lexer_by_name(lexer_name)
    return [(t, v) for _, t, v in lexer.get_tokens_unprocessed(text) if t is not Whitespace]


def kinds_of(lexer_name: str, text: str) -> dict[str, object]:
    return {v: t for t, v in tokens(lexer_name, text)}


@pytest.mark.parametrize("alias, cls", ALIASES.items())
def test_entry_points_register_our_lexers(alias, cls):
    assert type(get_lexer_by_name(alias)) is cls


def test_pdf_object_syntax():
    text = ("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n12 0 obj\n<< /Type /Page /Parent 2 0 R /A#20B "
            "[1 -.24 4. +5 (a(b)\\)c\\053) <41 42>] /X true /Y null >>\nendobj\n"
            "xref\n0 1\n0000000000 65535 f \ntrailer\n<< /Root 1 0 R >>\nstartxref\n9\n%%EOF\n")
    got = kinds_of("pdf", text)
    assert got["%PDF-1.7"] is Comment.Preproc and got["%%EOF"] is Comment.Preproc
    assert got["%\xe2\xe3\xcf\xd3"] is Comment.Single
    assert got["12 0 obj"] is OBJECT_HEADER and got["endobj"] is OBJECT_HEADER
    assert got["2 0 R"] is REFERENCE and got["1 0 R"] is REFERENCE
    assert got["/A#20B"] is PDF_NAME and got["/Type"] is PDF_NAME
    assert got["-.24"] is Number.Float and got["4."] is Number.Float
    assert got["+5"] is Number.Integer
    assert got["<41 42>"] is HEX_STRING
    assert got["true"] is Keyword.Constant and got["null"] is Keyword.Constant
    assert got["\\)"] is String.Escape and got["\\053"] is String.Escape
    assert got["xref"] == got["trailer"] == got["startxref"]
    assert Error not in got.values()


def test_nested_literal_string_does_not_end_early():
    toks = tokens("pdf", "(a(b)c) /N")
    assert [v for t, v in toks if t in String] == ["(", "a", "(", "b", ")", "c", ")"]
    assert toks[-1] == (PDF_NAME, "/N")


def test_stream_data_is_one_opaque_token():
    data = "x\x00\xff) endobj 1 0 R\n"
    toks = tokens("pdf", f"1 0 obj\n<< /Length {len(data)} >>\nstream\n{data}endstream\nendobj")
    assert (BINARY_DATA, data) in toks
    assert (Keyword, "endstream") in toks and toks[-1] == (OBJECT_HEADER, "endobj")


def test_content_operators_coloured_by_category():
    text = ("q 1 0 0 1 0 -.24 cm BT /F1 12 Tf [(a) -5] TJ ET 0 0 1 rg 1 1 m 2 2 l S "
            "/P <</MCID 0>> BDC EMC /Im1 Do BX frob EX")
    got = kinds_of("pdfcontent", text)
    for op in ("q", "cm", "BT", "Tf", "TJ", "ET", "rg", "m", "l", "S", "BDC", "EMC", "Do", "BX"):
        assert got[op] is CATEGORY_TOKENS[OPERATORS[op.encode()].category], op
    assert got["TJ"] is got["Tf"] is got["BT"]  # text operators share a token type
    assert got["m"] is got["S"] is Operator  # paths another
    assert len({got["q"], got["rg"], got["TJ"], got["m"], got["BDC"]}) == 5
    assert got["frob"] in Name and got["frob"] not in CATEGORY_TOKENS.values()
    assert got["-.24"] is Number.Float


def test_every_operator_lexes_as_one_token():
    for op, info in OPERATORS.items():
        word = op.decode()
        if word in ("BI", "ID", "EI"):
            continue
        assert tokens("pdfcontent", f"1 {word} 2")[1] == (CATEGORY_TOKENS[info.category], word)


def test_inline_image_data_is_one_opaque_token():
    image = "\x00\x01 EI \xff\x80\x93\xfe\x00EI\n\x10"
    toks = tokens("pdfcontent", f"q BI /W 4 /H 4 /CS /G ID {image}\nEI Q")
    inline = CATEGORY_TOKENS["Inline images"]
    assert toks == [
        (CATEGORY_TOKENS["Special graphics state"], "q"), (inline, "BI"),
        (PDF_NAME, "/W"), (Number.Integer, "4"), (PDF_NAME, "/H"), (Number.Integer, "4"),
        (PDF_NAME, "/CS"), (PDF_NAME, "/G"), (inline, "ID"), (BINARY_DATA, image),
        (inline, "EI"), (CATEGORY_TOKENS["Special graphics state"], "Q"),
    ]


def test_cmap_syntax():
    text = ("/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
            "/CMapName /Adobe-Identity-UCS def /Foo usecmap\n"
            "1 begincodespacerange <0000> <FFFF> endcodespacerange\n"
            "1 beginbfrange <0010> <0012> [<0041> <D835DC00>] endbfrange\n"
            "endcmap CMapName currentdict /CMap defineresource pop end end")
    got = kinds_of("cmap", text)
    for word in ("begincmap", "usecmap", "begincodespacerange", "endbfrange", "endcmap"):
        assert got[word] is Keyword, word
    for word in ("findresource", "dict", "def", "defineresource", "pop", "end"):
        assert got[word] is Name.Builtin, word
    assert got["<D835DC00>"] is HEX_STRING and got["/CMapName"] is PDF_NAME
    assert Error not in got.values()


def test_textual_highlight_finds_the_lexer():
    highlight = pytest.importorskip("textual.highlight")
    content = highlight.highlight("BT /F1 12 Tf (x) Tj ET", language="pdfcontent")
    assert content.plain == "BT /F1 12 Tf (x) Tj ET" and content.spans


def _covers(lexer_cls, text: str) -> None:
    parts = [v for _, _, v in lexer_cls().get_tokens_unprocessed(text)]
    assert "".join(parts) == text


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=600))
def test_any_bytes_lex_completely(data):
    text = data.decode("latin-1")
    for cls in (PdfLexer, PdfContentLexer, CMapLexer):
        _covers(cls, text)


_PDFISH = st.lists(st.sampled_from([
    " ", "\n", "\r", "(", ")", "\\", "<", ">", "<<", ">>", "[", "]", "{", "}", "/", "%", "#",
    "0", "12", "-.5", "obj", "endobj", "R", "stream\n", "endstream", "BI", "ID", "EI", "xref",
    "begincmap", "\x00", "\xff",
]), max_size=120).map("".join)


@settings(max_examples=300, deadline=None)
@given(_PDFISH)
def test_pdf_like_text_lexes_completely(text):
    for cls in (PdfLexer, PdfContentLexer, CMapLexer):
        _covers(cls, text)


def test_corpus_files_lex_completely():
    if not CORPUS.is_dir():
        pytest.skip("corpus not available")
    for path in sorted(CORPUS.glob("*.pdf")):
        text = path.read_bytes().decode("latin-1")
        toks = list(PdfLexer().get_tokens_unprocessed(text))
        assert "".join(v for _, _, v in toks) == text, path.name
        assert any(t is OBJECT_HEADER for _, t, _ in toks), path.name
