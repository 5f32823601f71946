"""Which strings each font shows in a content stream, found without running the interpreter:
the fast path of font reports over whole documents.

:func:`pdfinspect.content.interpreter.iter_steps` builds a graphics state, a text matrix and a
pen position for every operator, which a font report does not need: it needs only which font
is selected (``Tf``, restored by ``Q`` and at the end of a form) when each string is shown.
:func:`font_strings` finds exactly that with one regular expression that reads whole runs of
operators no font report cares about (path construction, colours, ``Td``, ``cm`` …) in one
match, so that Python code runs only for ``Tf``, the text-showing operators, ``q``/``Q`` and
``Do``.

It reads only the plain shapes of those operators: a name and a number before ``Tf``, one
string before ``Tj`` or ``'``, an array of strings and numbers before ``TJ``, a name before
``Do``. Anything else — ``"``, an inline image, a comment between operands, a string used as
another operator's operand, a nested array, an ExtGState that sets a font, a Type3 font, a
token the shapes do not cover — makes it give up (``None``), and the caller runs the
interpreter on that page instead, which then decides, with its diagnostics. A test checks
that both agree on every page of the corpora.
"""
from __future__ import annotations

import re

from ..core.budget import Budget
from ..core.lexer import NUMBER, decode_hex, decode_literal, decode_name
from ..core.objects import Dict, Ref, Stream
from ..fonts.font import Font, FontCache
from .interpreter import MAX_FORM_DEPTH, MAX_SAVED_STATES

_D = rb"\x00\t\n\x0c\r ()<>\[\]{}/%"
_END = rb"(?=[" + _D + rb"]|\Z)"  # a name, number or operator ends at a delimiter
_WS = rb"[\x00\t\n\x0c\r ]*"
_NUM = NUMBER + _END
_NAME = rb"/[^" + _D + rb"]*" + _END
# a literal string with one level of balanced parentheses, written as an unrolled loop
# (plain* (special plain*)*) so that a string that never closes fails in linear time
_PLAIN = rb"[^()\\]*"
_INNER = rb"\(" + _PLAIN + rb"(?:\\[\s\S]" + _PLAIN + rb")*\)"
_LIT = rb"\(" + _PLAIN + rb"(?:(?:\\[\s\S]|" + _INNER + rb")" + _PLAIN + rb")*\)"
_HEX = rb"<[0-9A-Fa-f\x00\t\n\x0c\r ]*>"
_SHOWN = rb"(?:" + _LIT + rb"|" + _HEX + rb")"
_WATCHED = rb"(?:Tf|Tj|TJ|'|\"|Do|gs|q|Q|BI|ID|EI)" + _END
# operands and operators no font report needs; a name that a watched shape uses is left out
_QUIET_NAME = _NAME + rb"(?!" + _WS + rb"(?:" + _NUM + _WS + rb")?(?:Tf|Do|gs)" + _END + rb")"
_QUIET_OP = rb"(?!" + _WATCHED + rb")[^" + _D + rb"0-9+.\-][^" + _D + rb"]*" + _END
_QUIET_ARRAY = rb"\[(?:" + _WS + rb"(?:" + _NUM + rb"|" + _NAME + rb"))*" + _WS + rb"\]"
_QUIET_DICT = (rb"<<(?:" + _WS + rb"(?:" + _NUM + rb"|" + _NAME + rb"|(?:true|false|null)" + _END
               + rb"))*" + _WS + rb">>")
_QUIET = rb"(?:" + _QUIET_NAME + rb"|" + _NUM + rb"|" + _QUIET_OP + rb"|" + _QUIET_ARRAY + rb"|" + _QUIET_DICT + rb")"

# White space and comments before each match, matched once: the look-ahead is never
# re-entered, so a long run of white space is not backtracked over (see tokenizer._FAST).
_SCAN = re.compile(
    rb"(?=([\x00\t\n\x0c\r ]*(?:%[^\r\n]*(?=[\r\n]|\Z)[\x00\t\n\x0c\r ]*)*))\1(?:"
    rb"/(?P<tf>[^" + _D + rb"]*)" + _END + _WS + rb"(?P<size>" + _NUM + rb")" + _WS + rb"Tf" + _END
    + rb"|(?P<shown>" + _SHOWN + rb")" + _WS + rb"(?:Tj|')" + _END
    + rb"|\[(?P<array>(?:" + _WS + rb"(?:" + _SHOWN + rb"|" + _NUM + rb"))*)" + _WS + rb"\]" + _WS + rb"TJ" + _END
    + rb"|/(?P<do>[^" + _D + rb"]*)" + _END + _WS + rb"Do" + _END
    + rb"|/(?P<gs>[^" + _D + rb"]*)" + _END + _WS + rb"gs" + _END
    + rb"|(?P<q>[qQ])" + _END
    + rb"|" + _QUIET + rb"(?:" + _WS + _QUIET + rb"){0,1000}"  # bounded: the matcher's memory grows with a run
    + rb"|(?P<eos>\Z)"
    + rb"|(?P<other>[\s\S]))")
_STRINGS = re.compile(rb"(?P<lit>" + _LIT + rb")|<(?P<hex>[^>]*)>")


class GiveUp(Exception):
    """The content has a shape :func:`font_strings` does not read; run the interpreter."""


class _Spent(Exception):
    """The budget ran out (``Budget.stopped`` says which part)."""


def _string(token: bytes) -> bytes:
    if token[:1] == b"<":
        return decode_hex(token[1:-1])
    if b"\\" in token or b"\r" in token:
        return decode_literal(token, 0)[0]
    return token[1:-1]


class _Scan:
    """One page: the font in force, the q stack, the forms being run, and what was shown."""

    def __init__(self, doc, fonts: FontCache, budget: Budget | None = None):
        self.doc = doc
        self.fonts = fonts
        self.budget = budget
        self.matches = 0  # operators scanned (estimated), counted against the operator budget
        self.invoked = 0
        self.font: Font | None = None
        self.name = ""
        self.stack: list[tuple[Font | None, str]] = []
        self.forms: list[int] = []
        self.shown: dict[Font, dict[bytes, None]] = {}  # font → its strings, first shown first
        self.names: dict[Font, set[str]] = {}

    def show(self, data: bytes) -> None:
        font = self.font
        if font is None or not data:
            return
        if font.subtype == "Type3":
            raise GiveUp  # a glyph procedure may show text itself (9.6.5)
        self.shown.setdefault(font, {})[data] = None
        self.names.setdefault(font, set()).add(self.name)

    def resource(self, resources: Dict, category: str, raw: bytes):
        group = self.doc.resolve(resources.get(category))
        return group.get(decode_name(raw)) if isinstance(group, Dict) else None

    def run(self, data: bytes, resources: Dict) -> None:
        budget = self.budget
        for m in _SCAN.finditer(data):
            if budget is not None:  # a quiet run counts as the operators its bytes could hold
                self.matches += 1 + (m.end() - m.start()) // 12
                if self.matches > budget.operators:
                    budget.stop("operator", budget.operators, f"at offset {m.start()} of "
                                f"{'form ' + str(self.forms[-1]) if self.forms else 'the page content'}")
                    raise _Spent
            kind = m.lastgroup
            if kind is None or kind == "eos":
                continue
            if kind == "shown":
                self.show(_string(m.group("shown")))
            elif kind == "array":
                for s in _STRINGS.finditer(m.group("array")):
                    self.show(_string(s.group()))
            elif kind == "size":
                self.name = str(decode_name(m.group("tf")))
                self.font = self.fonts.select(self.resource(resources, "Font", m.group("tf")), self.name)
            elif kind == "q":
                if m.group("q") == b"q":
                    if len(self.stack) < MAX_SAVED_STATES:
                        self.stack.append((self.font, self.name))
                elif self.stack:
                    self.font, self.name = self.stack.pop()
            elif kind == "do":
                self.form(self.resource(resources, "XObject", m.group("do")), resources)
            elif kind == "gs":
                ext = self.doc.resolve(self.resource(resources, "ExtGState", m.group("gs")))
                if isinstance(ext, Dict) and "Font" in ext:
                    raise GiveUp
            else:
                raise GiveUp

    def form(self, value, resources: Dict) -> None:
        """Run a form XObject in place, with its own q stack; the font in force carries in
        and is restored after (8.10.1). A cycle or a direct stream is not run, as in the
        interpreter."""
        stream = self.doc.resolve(value)
        if not (isinstance(stream, Stream) and stream.dict.get("Subtype") == "Form" and isinstance(value, Ref)):
            return
        if value.num in self.forms or len(self.forms) >= MAX_FORM_DEPTH:
            return
        obj = self.doc.get(value.num, value.gen)
        if obj is None:
            return
        budget = self.budget
        if budget is None:
            data = self.doc.stream_data(obj).data
        else:
            self.invoked += 1
            if self.invoked > budget.invocations:
                budget.stop("form and glyph procedure invocation", budget.invocations, f"at {value}")
                raise _Spent
            res = self.doc.stream_data(obj, limit=budget.take_bytes())
            data = res.data
            budget.spend_bytes(len(data), res.error is not None, f"form {value}")
        own = self.doc.resolve(stream.dict.get("Resources"))
        saved = self.font, self.name, self.stack
        self.stack = []
        self.forms.append(value.num)
        try:
            self.run(data, own if isinstance(own, Dict) else resources)
        finally:
            self.forms.pop()
            self.font, self.name, self.stack = saved


def font_strings(doc, data: bytes, resources: Dict, fonts: FontCache, budget: Budget | None = None
                 ) -> tuple[dict[Font, dict[bytes, None]], dict[Font, set[str]]] | None:
    """For the decoded page content ``data``: each font's non-empty shown strings in the
    order they are first shown (form XObjects run in place), and the resource names it was
    selected by; ``None`` when the content has a shape this scan does not read. With a
    ``budget`` (operators are matches of the scan here), the scan stops when it runs out,
    ``budget.stopped`` says so, and what was found so far is returned."""
    scan = _Scan(doc, fonts, budget)
    try:
        scan.run(data, resources)
    except GiveUp:
        return None
    except _Spent:
        pass
    return scan.shown, scan.names
