"""Pygments tokens → Textual ``Content`` with theme-aware styles.

Textual's own :func:`textual.highlight.highlight` looks lexers up by name only; ours are
instances, and big streams are highlighted a window at a time, so the conversion lives
here. Text given to these functions must already be terminal-safe (``present.text``).
"""
from __future__ import annotations

from functools import lru_cache

from pygments.lexer import Lexer
from textual.content import Content, Span
from textual.highlight import HighlightTheme

KINDS = ("pdf", "content", "cmap", "xml", "javascript", "text")


@lru_cache(maxsize=None)
def lexer_for(kind: str) -> Lexer | None:
    """The lexer for a stream kind (see :data:`KINDS`); ``None`` for plain text."""
    from pygments.lexers import JavascriptLexer, XmlLexer

    from pdfinspect.highlight.lexers import CMapLexer, PdfContentLexer, PdfLexer

    classes = {"pdf": PdfLexer, "content": PdfContentLexer, "cmap": CMapLexer, "xml": XmlLexer,
               "javascript": JavascriptLexer}
    cls = classes.get(kind)
    return cls(stripnl=False, ensurenl=False) if cls else None


def highlight_lines(text: str, kind: str) -> list[Content]:
    """Highlight ``text`` as ``kind`` and split it into one Content per line."""
    lexer = lexer_for(kind)
    if lexer is None:
        return [Content(line) for line in text.split("\n")]
    spans: list[Span] = []
    styles = HighlightTheme.STYLES
    start = 0
    for token_type, token in lexer.get_tokens(text):
        end = start + len(token)
        while token_type is not None:
            style = styles.get(token_type)
            if style:
                spans.append(Span(start, end, style))
                break
            token_type = token_type.parent
        start = end
    content = Content(text, spans=spans) if start == len(text) else Content(text)
    return content.split("\n", allow_blank=True)
