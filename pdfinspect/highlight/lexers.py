"""Pygments lexers for PDF object syntax, content streams and CMaps.

Registered under the ``pygments.lexers`` entry point (see ``pyproject.toml``), so
``pygments.lexers.get_lexer_by_name("pdf")`` and ``textual.highlight.highlight`` find them.
Every rule consumes at least one character or changes state, and no pattern backtracks
more than linearly, so any input (binary decoded as Latin-1 included) lexes in linear time;
what no rule accepts becomes an ``Error`` token.

Token choices, the same in all three lexers:

- object header ``N G obj`` / ``endobj``: ``Keyword.Declaration`` (the header is one token)
- reference ``N G R``: ``Name.Label``, one token
- names ``/Type`` (``#xx`` included): ``Name.Tag``; hex strings: ``Number.Hex``
- stream data and inline-image data: ``String.Other``, one opaque token
- content-stream operators: by Annex A category, see :data:`CATEGORY_TOKENS`

Besides Pygments, the lexers read only :mod:`pdfinspect.spec` (the operator table and the
rule for where inline image data ends), so highlighting pulls in no parser and no UI.
"""
from __future__ import annotations

from pygments.lexer import ExtendedRegexLexer, LexerContext, RegexLexer, bygroups, default, words
from pygments.token import (
    Comment, Error, Keyword, Name, Number, Operator, Punctuation, String, Whitespace,
)

from ..spec import operators as ops
from ..spec.inline_image import find_inline_image_end

OBJECT_HEADER = Keyword.Declaration
REFERENCE = Name.Label
PDF_NAME = Name.Tag
HEX_STRING = Number.Hex
BINARY_DATA = String.Other
UNKNOWN_OPERATOR = Name.Other

# Content-stream operator colouring by Table 51 category (ISO 32000-1 8.2).
CATEGORY_TOKENS = {
    ops.GENERAL_GRAPHICS_STATE: Name.Variable,
    ops.SPECIAL_GRAPHICS_STATE: Name.Variable,
    ops.PATH_CONSTRUCTION: Operator,
    ops.PATH_PAINTING: Operator,
    ops.CLIPPING_PATHS: Operator,
    ops.TEXT_OBJECTS: Keyword,
    ops.TEXT_STATE: Keyword,
    ops.TEXT_POSITIONING: Keyword,
    ops.TEXT_SHOWING: Keyword,
    ops.TYPE3_FONTS: Keyword,
    ops.COLOR: Name.Class,
    ops.SHADING_PATTERNS: Name.Function,
    ops.INLINE_IMAGES: Name.Function,
    ops.XOBJECTS: Name.Function,
    ops.MARKED_CONTENT: Keyword.Type,
    ops.COMPATIBILITY: Keyword.Pseudo,
}
OPERATOR_TOKENS = {info.name: CATEGORY_TOKENS[info.category] for info in ops.OPERATORS.values()}
INLINE_IMAGE = CATEGORY_TOKENS[ops.INLINE_IMAGES]

_WS = r"[\x00\t\n\x0c\r ]"
_REGULAR = r"[^\x00\t\n\x0c\r ()<>\[\]{}/%]"
_END = r"(?!" + _REGULAR + r")"  # a token of regular characters ends here (7.2.3)

_SPACE = [
    (_WS + "+", Whitespace),
    (r"%[^\r\n]*", Comment.Single),
]
# Objects without references (7.3): what content streams and CMaps share with files.
_OBJECTS = [
    (r"<<|>>|[\[\]]", Punctuation),
    (r"<[0-9A-Fa-f\x00\t\n\x0c\r ]*>", HEX_STRING),
    (r"\(", String, "string"),
    (r"/" + _REGULAR + "*", PDF_NAME),
    (r"(?:true|false|null)" + _END, Keyword.Constant),
    (r"[+-]?(?:\d+\.\d*|\.\d+)" + _END, Number.Float),
    (r"[+-]?\d+" + _END, Number.Integer),
]
# Inside a literal string: balanced parentheses nest, escapes per 7.3.4.2.
_STRING = [
    (r"[^()\\]+", String),
    (r"\\(?:[0-7]{1,3}|\r\n|[\s\S])?", String.Escape),
    (r"\(", String, "#push"),
    (r"\)", String, "#pop"),
]
_STRAY = [(r"[()<>{}]", Error)]


class PdfLexer(RegexLexer):
    """PDF file syntax: objects, references, streams, xref tables and trailers (ISO 32000 7)."""

    name = "PDF"
    aliases = ["pdf"]
    filenames = ["*.pdf"]
    mimetypes = ["application/pdf"]
    url = "https://www.iso.org/standard/75839.html"

    tokens = {
        "root": [
            (r"%(?:PDF|FDF)-\d+\.\d+[^\r\n]*|%%EOF", Comment.Preproc),
            *_SPACE,
            (r"\d+" + _WS + r"+\d+" + _WS + r"+obj" + _END, OBJECT_HEADER),
            (r"endobj" + _END, OBJECT_HEADER),
            (r"\d+" + _WS + r"+\d+" + _WS + r"+R" + _END, REFERENCE),
            (r"(stream)(\r\n|\r|\n)", bygroups(Keyword, Whitespace), "stream"),
            (r"(?:stream|endstream)" + _END, Keyword),
            (r"(?:xref|trailer|startxref)" + _END, Keyword.Namespace),
            *_OBJECTS,
            (_REGULAR + "+", Keyword),
            *_STRAY,
        ],
        "stream": [
            (r"endstream" + _END, Keyword, "#pop"),
            (r"[\s\S]+?(?=endstream" + _END + r")|[\s\S]+", BINARY_DATA),
        ],
        "string": _STRING,
    }

    def analyse_text(text):
        return 1.0 if text[:1024].lstrip().startswith("%PDF-") else 0.0


def _content_operator(lexer, match, ctx):
    word = match.group()
    yield match.start(), OPERATOR_TOKENS.get(word, UNKNOWN_OPERATOR), word
    ctx.pos = match.end()


def _inline_image_data(lexer, match, ctx):
    """After ``ID``: the image bytes as one token, then ``EI``; found as the tokenizer does."""
    yield match.start(), INLINE_IMAGE, "ID"
    start = match.end()
    if start > match.start() + 2:
        yield match.start() + 2, Whitespace, ctx.text[match.start() + 2:start]
    data_end, ei_end, _ = find_inline_image_end(ctx.latin1, start)
    if data_end > start:
        yield start, BINARY_DATA, ctx.text[start:data_end]
    tail = ctx.text[data_end:ei_end]
    if tail.endswith("EI"):
        if len(tail) > 2:
            yield data_end, Whitespace, tail[:-2]
        yield ei_end - 2, INLINE_IMAGE, "EI"
    elif tail:
        yield data_end, BINARY_DATA, tail
    ctx.pos = ei_end
    ctx.stack.pop()


class PdfContentLexer(ExtendedRegexLexer):
    """Content streams (ISO 32000 8, 9; Annex A): operators coloured by category."""

    name = "PDF content stream"
    aliases = ["pdfcontent", "pdf-content"]
    filenames = []

    tokens = {
        "root": [
            *_SPACE,
            (r"BI" + _END, INLINE_IMAGE, "inline-image"),
            *_OBJECTS,
            (_REGULAR + "+", _content_operator),
            *_STRAY,
        ],
        # BI key value … ID: the abbreviated parameters, then the data (8.9.7).
        "inline-image": [
            *_SPACE,
            (r"ID" + _END + _WS + "?", _inline_image_data),
            *_OBJECTS,
            default("#pop"),
        ],
        "string": _STRING,
    }

    def get_tokens_unprocessed(self, text=None, context=None):
        ctx = context or LexerContext(text, 0)
        # The EI search works on bytes: one byte per character, offsets unchanged.
        ctx.latin1 = ctx.text.encode("latin-1", "replace")
        yield from super().get_tokens_unprocessed(context=ctx)


class CMapLexer(RegexLexer):
    """CMap files (ISO 32000 9.7.5, 9.10.3; Adobe TN 5014): PostScript-like syntax."""

    name = "PDF CMap"
    aliases = ["pdfcmap", "cmap"]
    filenames = []

    tokens = {
        "root": [
            *_SPACE,
            (words((
                "begincmap", "endcmap", "usecmap", "usefont",
                "begincodespacerange", "endcodespacerange",
                "beginbfchar", "endbfchar", "beginbfrange", "endbfrange",
                "begincidchar", "endcidchar", "begincidrange", "endcidrange",
                "beginnotdefchar", "endnotdefchar", "beginnotdefrange", "endnotdefrange",
            ), suffix=_END), Keyword),
            (words((
                "def", "dict", "begin", "end", "findresource", "defineresource", "pop",
                "currentdict", "exch", "dup", "known", "not", "if", "ifelse", "readonly",
                "put", "load", "where", "array", "index", "string",
            ), suffix=_END), Name.Builtin),
            (r"[{}]", Punctuation),
            *_OBJECTS,
            (_REGULAR + "+", Name.Other),
            (r"[()<>]", Error),
        ],
        "string": _STRING,
    }

    def analyse_text(text):
        return 0.6 if "begincmap" in text[:4096] else 0.0
