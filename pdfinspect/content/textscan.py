"""Page text without the full interpreter: a text-only reading of the content (9.2–9.4).

:func:`~.interpreter.iter_steps` builds a :class:`~.interpreter.Step` with its state
snapshots for every operator, and :mod:`.textlayout` a :class:`~.textlayout.GlyphRecord` and a
:class:`~.gaps.Gap` for every glyph: ten microseconds an operator, a hundred times what
``pdftotext`` spends on a page. Page text needs much less: the font, the text state, the text
and line matrices and the CTM when each string is shown. :class:`TextScanner` reads exactly
those, with one regular expression that matches an operator and its operands at a time (the
technique of :mod:`.usage`), keeps the state in plain attributes changed in place, and hands
each glyph's Unicode and page position to :class:`.textlines.TextLines` as plain numbers.
Each glyph code's Unicode and width are looked up once per font.

It reads the plain shapes of content: numbers, names, strings, arrays and dictionaries of
numbers and names, form XObjects run in place, inline images skipped as the content tokenizer
skips them. Anything else — an inline image the tokenizer finds odd, a comment
between operands, a nested array, operands an operator does not take, ``/ActualText``, an
ExtGState that sets a font, a Type3 glyph procedure that shows text, vertical writing, a page
near a budget limit — makes it give up (:meth:`TextScanner.page_text` returns ``None``) and
the caller runs the full interpreter on that page, which then decides, with its diagnostics.
Annotation appearances, when a page has any that may draw, are drawn by the full interpreter
and laid out after the content. ``tests/test_textscan.py`` checks that both paths give the
same text, byte for byte.
"""
from __future__ import annotations

import math
import re

from ..core.budget import DEFAULT_LIMITS, Budget
from ..core.lexer import decode_name
from ..core.objects import Array, Dict, Ref, Stream
from ..fonts.font import Font, FontCache
from ..fonts.resolve import Resolver
from .interpreter import (MAX_ANNOTATIONS, MAX_FORM_DEPTH, MAX_SAVED_STATES, _draws_nothing, _matrix,
                          _text_showing, iter_steps, page_content, page_resources)
from .state import IDENTITY, Matrix, multiply, translate
from .textlayout import step_records
from .textlines import Run, TextLines, add_records, make_run
from .tokenizer import _inline_image, _Pending, _Scanner
from .usage import _D, _END, _HEX, _LIT, _NAME, _SHOWN, _WS, GiveUp, _string

# a number the content tokenizer reads as float() does: an integer of at most 18 characters, a
# real of at most 38 (core.numbers.INT_DIGITS, REAL_CHARS)
_NUM = (rb"(?:[+-]?\d{1,17}" + _END + rb"|(?=[+\-.0-9]{1,38}" + _END + rb")[+-]?(?:\d+\.\d*|\.\d+)" + _END
        + rb")")
_ARRAY = rb"\[(?:" + _WS + rb"(?:" + _NUM + rb"|" + _NAME + rb"))*" + _WS + rb"\]"
# a marked-content property list written in place: numbers, names, strings and flat arrays
_DICT = (rb"<<(?:" + _WS + rb"(?:" + _NUM + rb"|" + _NAME + rb"|" + _SHOWN + rb"|" + _ARRAY
         + rb"|(?:true|false|null)" + _END + rb"))*" + _WS + rb">>")
_OPERAND = rb"(?:" + _NUM + rb"|" + _NAME + rb"|" + _ARRAY + rb"|" + _DICT + rb"|(?:true|false|null)" + _END + rb")"
# One operator and its operands a match, after white space and comments (matched once, as in
# usage._SCAN): a TJ array, a string shown by Tj or ', the numbers and string of ", or plain
# operands and any other operator.
_SCAN = re.compile(
    rb"(?=([\x00\t\n\x0c\r ]*(?:%[^\r\n]*(?=[\r\n]|\Z)[\x00\t\n\x0c\r ]*)*))\1(?:"
    rb"\[(?P<array>(?:" + _WS + rb"(?:" + _SHOWN + rb"|" + _NUM + rb"))*)" + _WS + rb"\]" + _WS + rb"TJ" + _END
    + rb"|(?P<shown>" + _SHOWN + rb")" + _WS + rb"(?P<show>Tj|')" + _END
    + rb"|(?P<aw>" + _NUM + rb")" + _WS + rb"(?P<ac>" + _NUM + rb")" + _WS + rb"(?P<dq>" + _SHOWN + rb")" + _WS + rb'"'
    + _END
    + rb"|(?P<operands>(?:" + _OPERAND + _WS + rb"){0,32})(?!(?:true|false|null)" + _END + rb")"
    rb"(?P<op>[^" + _D + rb"0-9+.\-][^" + _D + rb"]*)" + _END
    + rb"|(?P<eos>\Z)"
    + rb"|(?P<other>[\s\S]))")
_ITEMS = re.compile(rb"(?P<s>" + _LIT + rb"|" + _HEX + rb")|(?P<n>[+\-.0-9]+)")
# Operators without a handler (_HANDLERS) are read past with their operands (paths, colours,
# images by name, marked content …), except these: the text-showing ones in a shape _SCAN does
# not match, and inline images (BI without operands is skipped as the tokenizer skips it).
_UNREAD = frozenset({b"BI", b"ID", b"EI", b"Tj", b"TJ", b"'", b'"'})
_ACTUAL_TEXT = re.compile(rb"ActualText|#")


class TextScanner:
    """Page text of one document with one resolver, page after page (:meth:`page_text`); the
    Unicode and width of each font's codes are kept from page to page."""

    def __init__(self, doc, resolver: Resolver | None = None, fonts: FontCache | None = None):
        self.doc = doc
        self.resolver = resolver or Resolver.of(doc)
        self.fonts = fonts or FontCache.of(doc)
        self.limits = getattr(doc, "limits", DEFAULT_LIMITS)
        self.tables: dict[Font, dict] = {}  # font → code (an int for simple fonts) → (unicode, w0)
        self._reset(self.limits.budget())

    def _reset(self, budget: Budget, steps: bool = False) -> None:
        self.budget = budget
        # a page that comes within half of a limit is left to the full interpreter, which says where it stops
        self.max_ops, self.max_glyphs = budget.operators // 2, budget.glyphs // 2
        self.ops = self.drawn = self.invoked = self.text_object = 0
        self.lines = TextLines(steps)
        self.ctm: Matrix = IDENTITY
        self.font: Font | None = None
        self.size = self.tc = self.tw = self.leading = self.rise = 0.0
        self.scale = 100.0
        self.tm: Matrix | None = None
        self.tlm: Matrix | None = None
        self.stack: list[tuple] = []
        self.forms: list[int] = []
        self.source: Ref | None = None

    # -- a page ---------------------------------------------------------------------------
    def page_text(self, page_ref: Ref, annots: bool = True, budget: Budget | None = None) -> str | None:
        """The text of the page ``page_ref`` as :func:`.textlayout.page_text` gives it (as the
        full interpreter reads it within ``budget``, spent here; default: the document's
        limits), or ``None`` when the content has a shape this reading gives up on."""
        lines = self.read_page(page_ref, annots, budget, False)
        return None if lines is None else lines.text()

    def page_spans(self, page_ref: Ref, annots: bool = True,
                   budget: Budget | None = None) -> tuple[str, list[int]] | None:
        """:meth:`page_text`, and for each of its characters the index of the operator that
        drew it as :func:`.interpreter.iter_steps` numbers its steps (-1 for an inferred space
        or a line end), as :func:`.textlayout.layout_spans` gives them; or ``None``."""
        lines = self.read_page(page_ref, annots, budget, True)
        return None if lines is None else lines.spans()

    def read_page(self, page_ref: Ref, annots: bool, budget: Budget | None, steps: bool) -> TextLines | None:
        """The page's lines (with the steps of their characters if ``steps``), or ``None``."""
        doc = self.doc
        page = doc.resolve(page_ref)
        if not isinstance(page, Dict):
            return TextLines(steps)
        self._reset(budget or self.limits.budget(), steps)
        budget = self.budget
        data, _ = page_content(doc, page, budget)
        try:
            if budget.stopped is not None:
                raise GiveUp
            self.run(data, page_resources(doc, page), page_ref)
            if annots:
                self.annotations(page, page_ref)
        except (GiveUp, TypeError, ValueError, IndexError, ZeroDivisionError, OverflowError):
            return None
        return self.lines

    def annotations(self, page: Dict, page_ref: Ref) -> None:
        """The annotations' appearances: when one may draw, the full interpreter draws them all
        with what is left of the page's budget (a stop there: give up)."""
        doc = self.doc
        annots = doc.resolve(page.get("Annots"))
        if not isinstance(annots, Array):
            return
        if all(isinstance(v, Ref) and _draws_nothing(doc, v) for v in list(annots)[:MAX_ANNOTATIONS]):
            return
        b = self.budget
        rest = Budget(b.operators - self.ops, b.content_bytes, b.invocations - self.invoked, b.glyphs - self.drawn)
        used: set[int] = set()
        given = []  # keeps the ActualText sequences of ``used`` alive
        n = 0
        for step in iter_steps(doc, page_ref, self.fonts, rest, annots=True, content=False):
            records = step_records(step, self.resolver, used, n)
            if records:
                given.append(records[0].actual_text)
                n += len(records)
                add_records(self.lines, records, self.ops)  # numbered after the content's operators
        if rest.stopped is not None:
            raise GiveUp

    # -- the content ------------------------------------------------------------------------
    def run(self, data: bytes, resources: Dict, source: Ref | None) -> None:
        self.source = source
        pos: int | None = 0
        while pos is not None:
            pos = self.read(data, pos, resources)

    def read(self, data: bytes, pos: int, resources: Dict) -> int | None:
        """The operators of ``data`` from ``pos`` on; at an inline image, where to go on after it
        (``None`` at the end)."""
        handlers = _HANDLERS
        for m in _SCAN.finditer(data, pos):
            self.ops += 1
            if self.ops > self.max_ops:
                raise GiveUp
            kind = m.lastgroup
            if kind == "op":
                operands, op = m.group("operands", "op")
                handler = handlers.get(op)
                if handler is not None:
                    handler(self, operands.split() if operands else [], resources)
                elif op == b"BI" and not operands:
                    return _after_inline_image(data, m.start("op"), m.end())
                elif op in _UNREAD:
                    raise GiveUp
            elif kind == "array":
                self.show_array(m.group("array"))
            elif kind == "show":
                if m.group("show") == b"'":
                    self.next_line(0.0, -self.leading)
                self.show(_string(m.group("shown")), m.group("show") == b"'", None)
            elif kind == "dq":
                self.tw, self.tc = float(m.group("aw")), float(m.group("ac"))
                self.next_line(0.0, -self.leading)
                self.show(_string(m.group("dq")), True, None)
            elif kind == "eos":
                self.ops -= 1
            else:
                raise GiveUp
        return None

    def show_array(self, items: bytes) -> None:
        """TJ: strings shown, numbers moving the pen (9.4.3); one frame for the array's
        strings while the numbers keep the text matrix's linear part exactly."""
        run = None
        for item in _ITEMS.finditer(items):
            s = item.group("s")
            if s is not None:
                run = self.show(_string(s), False, run)
            elif self.tm is not None:
                if self.font is not None and self.font.vertical:
                    raise GiveUp
                d = -float(item.group("n")) / 1000.0 * self.size
                self.tm = multiply(translate(d * self.scale / 100.0, 0.0), self.tm)

    def show(self, data: bytes, quote: bool, run: tuple[Run, float, float] | None) -> tuple[Run, float, float] | None:
        """Draw the codes of ``data`` (9.4.3, 9.4.4) into the page's lines, in the frame ``run``
        (one the same TJ made) or a new one. Returns the frame for the TJ's next string: this
        one when moving the pen cannot change the text matrix's linear part, else ``None``."""
        if self.tm is None:
            self.tm = self.tlm = IDENTITY
        font = self.font
        if font is None:
            return run
        if font.vertical:
            raise GiveUp
        a, b, c, d, e, f = tm = self.tm
        fresh = run is None
        if run is None:
            run = make_run((None, self.source, self.text_object, self.tlm), self.ops - 1, quote, tm, self.ctm,
                           self.size, self.tc, self.scale, False)
        frame, ax, ay = run
        A, B, C, D, E, F = self.ctm
        size, tc, tw, th, rise = self.size, self.tc, self.tw, self.scale / 100.0, self.rise
        table = self.tables.get(font)
        if table is None:
            table = self.tables[font] = {}
        add = self.lines.add
        simple = font.cmap is None and not font.legacy_cjk
        codes: bytes | list[bytes] = data if simple else [p.code for p in font.split(data)]
        space: int | bytes = 32 if simple else b" "
        self.drawn += len(codes)
        if self.drawn > self.max_glyphs:
            raise GiveUp
        for code in codes:
            entry = table.get(code)
            if entry is None:
                entry = self.entry(font, bytes((code,)) if isinstance(code, int) else code, table)
            u, w0 = entry
            spacing = tc + (tw if code == space else 0.0)
            x, y = c * rise + e, d * rise + f
            advance = (w0 * size + spacing) * th
            e, f = advance * a + e, advance * b + f
            px, py = A * x + C * y + E, B * x + D * y + F
            width = advance - spacing * th
            add(frame, u, px, py, px + width * ax, py + width * ay)
        self.tm = (a, b, c, d, e, f)
        return run if not fresh or _steady(tm) else None

    def entry(self, font: Font, code: bytes, table: dict) -> tuple[str, float]:
        """A code's Unicode and width w0, kept in the font's ``table`` (a simple font's by the
        code's byte value)."""
        cid = font.cid(code) if font.cmap is not None else None
        if font.subtype == "Type3" and code:
            proc = font.charprocs.get(font.glyph_name(code[0]) or "")
            if proc is not None and _text_showing(self.doc, proc, self.fonts.charprocs) is not None:
                raise GiveUp  # the procedure's own text takes the glyph's place
        entry = table[code[0] if font.cmap is None and not font.legacy_cjk else code] = (self.resolver.resolve(font, code, cid).unicode, font.glyph_width(code, cid))
        return entry

    def next_line(self, tx: float, ty: float) -> None:
        self.tlm = self.tm = multiply(translate(tx, ty), self.tlm or IDENTITY)

    def resource(self, resources: Dict, category: str, raw: bytes):
        group = self.doc.resolve(resources.get(category))
        return group.get(decode_name(raw[1:])) if isinstance(group, Dict) else None

    def form(self, value, resources: Dict) -> None:
        """A form XObject run in place with its own resources, matrix and q stack; the state
        is restored after it (8.10.1)."""
        doc = self.doc
        stream = doc.resolve(value)
        if not isinstance(stream, Stream) or stream.dict.get("Subtype") != "Form" or not isinstance(value, Ref):
            return  # an image, or a form the interpreter does not run either
        if value.num in self.forms or len(self.forms) >= MAX_FORM_DEPTH:
            return
        obj = doc.get(value.num, value.gen)
        if obj is None:
            return
        budget = self.budget
        res = doc.stream_data(obj, limit=budget.take_bytes())
        budget.spend_bytes(len(res.data), res.error is not None, f"form {value}")
        self.invoked += 1
        if budget.stopped is not None or self.invoked > budget.invocations // 2:
            raise GiveUp
        own = doc.resolve(stream.dict.get("Resources"))
        saved = (self.ctm, self.font, self.size, self.tc, self.tw, self.scale, self.leading, self.rise,
                 self.stack, self.tm, self.tlm, self.source)
        self.ctm = multiply(_matrix(doc, stream.dict.get("Matrix")), self.ctm)
        self.stack = []
        self.forms.append(value.num)
        self.run(res.data, own if isinstance(own, Dict) else resources, value)
        self.forms.pop()
        (self.ctm, self.font, self.size, self.tc, self.tw, self.scale, self.leading, self.rise,
         self.stack, self.tm, self.tlm, self.source) = saved


def _after_inline_image(data: bytes, bi_start: int, bi_end: int) -> int:
    """Where the content tokenizer goes on after the inline image whose ``BI`` spans
    ``bi_start``–``bi_end`` (8.9.7); an image it finds anything odd in: give up."""
    scan = _Scanner(data, _Pending())
    scan.pos = bi_end
    if _inline_image(scan, bi_start, bi_end, [], []).diagnostics:
        raise GiveUp
    return scan.pos


def _steady(tm: Matrix) -> bool:
    """Whether moving by a TJ number keeps ``tm``'s linear part bit for bit: finite, and no
    negative zero (1 × a + 0 × c is ``a`` then)."""
    a, b, c, d = tm[0], tm[1], tm[2], tm[3]
    return (a - a == 0.0 and b - b == 0.0 and c - c == 0.0 and d - d == 0.0  # not infinite, not NaN
            and bool(a or math.copysign(1.0, a) > 0) and bool(b or math.copysign(1.0, b) > 0)
            and bool(c or math.copysign(1.0, c) > 0) and bool(d or math.copysign(1.0, d) > 0))


# -- operators (operands: their tokens, split at white space) ---------------------------------
def _numbers(operands: list[bytes], n: int) -> list[float]:
    if len(operands) != n:
        raise GiveUp
    return [float(x) for x in operands]  # a name, array or constant: ValueError, give up


def _q(scan: TextScanner, operands: list[bytes], resources: Dict) -> None:
    _numbers(operands, 0)
    if len(scan.stack) < MAX_SAVED_STATES:
        scan.stack.append((scan.ctm, scan.font, scan.size, scan.tc, scan.tw, scan.scale, scan.leading, scan.rise))


def _Q(scan: TextScanner, operands: list[bytes], resources: Dict) -> None:
    _numbers(operands, 0)
    if scan.stack:
        scan.ctm, scan.font, scan.size, scan.tc, scan.tw, scan.scale, scan.leading, scan.rise = scan.stack.pop()


def _cm(scan: TextScanner, operands: list[bytes], resources: Dict) -> None:
    a, b, c, d, e, f = _numbers(operands, 6)
    scan.ctm = multiply((a, b, c, d, e, f), scan.ctm)


def _BT(scan: TextScanner, operands: list[bytes], resources: Dict) -> None:
    _numbers(operands, 0)
    scan.tm = scan.tlm = IDENTITY
    scan.text_object += 1


def _ET(scan: TextScanner, operands: list[bytes], resources: Dict) -> None:
    _numbers(operands, 0)
    scan.tm = scan.tlm = None


def _Td(scan: TextScanner, operands: list[bytes], resources: Dict) -> None:
    tx, ty = _numbers(operands, 2)
    scan.next_line(tx, ty)


def _TD(scan: TextScanner, operands: list[bytes], resources: Dict) -> None:
    tx, ty = _numbers(operands, 2)
    scan.leading = -ty
    scan.next_line(tx, ty)


def _Tm(scan: TextScanner, operands: list[bytes], resources: Dict) -> None:
    a, b, c, d, e, f = _numbers(operands, 6)
    scan.tm = scan.tlm = (a, b, c, d, e, f)


def _Tstar(scan: TextScanner, operands: list[bytes], resources: Dict) -> None:
    _numbers(operands, 0)
    scan.next_line(0.0, -scan.leading)


def _text_param(name: str):
    def handler(scan: TextScanner, operands: list[bytes], resources: Dict) -> None:
        setattr(scan, name, _numbers(operands, 1)[0])
    return handler


def _Tr(scan: TextScanner, operands: list[bytes], resources: Dict) -> None:
    int(_numbers(operands, 1)[0])  # the render mode does not change the text; a bad one is an error there too


def _Tf(scan: TextScanner, operands: list[bytes], resources: Dict) -> None:
    if len(operands) != 2 or operands[0][:1] != b"/":
        raise GiveUp
    size = _numbers(operands[1:], 1)[0]
    value = scan.resource(resources, "Font", operands[0])
    scan.font = scan.fonts.select(value, str(decode_name(operands[0][1:])))
    scan.size = size


def _Do(scan: TextScanner, operands: list[bytes], resources: Dict) -> None:
    if len(operands) != 1 or operands[0][:1] != b"/":
        raise GiveUp
    scan.form(scan.resource(resources, "XObject", operands[0]), resources)


def _gs(scan: TextScanner, operands: list[bytes], resources: Dict) -> None:
    if len(operands) != 1 or operands[0][:1] != b"/":
        raise GiveUp
    ext = scan.doc.resolve(scan.resource(resources, "ExtGState", operands[0]))
    if isinstance(ext, Dict) and "Font" in ext:
        raise GiveUp


def _BDC(scan: TextScanner, operands: list[bytes], resources: Dict) -> None:
    """Marked content changes the text only by /ActualText (14.9.4): give up where it may be."""
    raw = b" ".join(operands)
    if _ACTUAL_TEXT.search(raw):
        raise GiveUp
    props = operands[-1] if operands else b""
    if b"<<" not in raw and props[:1] == b"/":
        value = scan.doc.resolve(scan.resource(resources, "Properties", props))
        if isinstance(value, Dict) and "ActualText" in value:
            raise GiveUp


_HANDLERS = {
    b"q": _q, b"Q": _Q, b"cm": _cm, b"BT": _BT, b"ET": _ET, b"Td": _Td, b"TD": _TD, b"Tm": _Tm, b"T*": _Tstar,
    b"Tc": _text_param("tc"), b"Tw": _text_param("tw"), b"Tz": _text_param("scale"),
    b"TL": _text_param("leading"), b"Ts": _text_param("rise"), b"Tr": _Tr, b"Tf": _Tf,
    b"Do": _Do, b"gs": _gs, b"BDC": _BDC,
}
