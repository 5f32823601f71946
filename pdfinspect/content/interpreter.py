"""Run a page's content stream and report one :class:`Step` per operator (ISO 32000-1 8, 9).

The interpreter tracks what an inspector shows — graphics state, text state, the text and
line matrices, the marked-content stack — and, for text-showing operators, the glyphs
drawn: their codes, advances (``/Widths`` or ``/W`` ``/DW``) and pen positions. Form
XObjects are run in place with their own resources and matrix (cycle-guarded, ``depth``
counts the nesting); image XObjects, shadings and Type3 CharProcs are not run. Nothing in
the content raises: every oddity becomes a diagnostic on the step where it happened.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterator

from ..core.diagnostics import Diagnostic, warning
from ..core.objects import Array, Dict, Name, Ref, Stream, String, is_integer, is_number
from ..core.textstrings import decode_text
from ..fonts.font import Font, FontCache
from .state import IDENTITY, GraphicsState, MarkedContent, Matrix, TextState, multiply, transform, translate
from .tokenizer import iter_operations, join_contents

MAX_FORM_DEPTH = 12
MAX_SAVED_STATES = 1000  # q nesting beyond this is reported and ignored


@dataclass(slots=True)
class Budget:
    """How much of a page an interactive caller lets the interpreter do: at most
    ``operators`` steps and ``content_bytes`` of decoded content (the page's and its forms'
    together). When either runs out the run ends; ``stopped`` then says where and why."""

    operators: int
    content_bytes: int
    stopped: str | None = None

    def take_bytes(self) -> int:
        """The decode limit for the next content stream: what is left of the byte budget."""
        return max(self.content_bytes, 0)


@dataclass(frozen=True, slots=True)
class Glyph:
    """One glyph drawn by a text-showing operator.

    ``width`` is w0 from the font's widths for a font size of 1 (9.2.4), ``advance`` the
    pen movement in text space after size, Tc, Tw and Tz (9.4.4). ``user_xy`` is the glyph
    origin in user space (the text matrix applied, before the CTM), ``page_xy`` the same
    point in the page's default coordinates (after the CTM).
    """

    code: bytes
    cid: int | None
    width: float
    advance: float
    user_xy: tuple[float, float]
    page_xy: tuple[float, float]
    charproc: Ref | None = None  # Type3: the glyph procedure (listed, not run)


@dataclass(frozen=True, slots=True)
class Step:
    """One operator as the interpreter saw it, with the state in force after it."""

    index: int
    op: str
    operands: tuple
    span: tuple[int, int]  # offsets in the (concatenated) content of ``source``
    depth: int
    source: Ref | None  # the page (depth 0) or the form XObject whose content this is
    gstate: GraphicsState
    tm: Matrix | None
    tlm: Matrix | None
    marked: tuple[MarkedContent, ...]
    font: Font | None = None
    glyphs: tuple[Glyph, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()


def page_content(doc, page: Dict, budget: Budget | None = None) -> tuple[bytes, list[Diagnostic]]:
    """The page's /Contents decoded and joined (7.8.2), with decoding problems; with a
    ``budget``, each stream is decoded only as far as its bytes last (and spends them)."""
    contents = page.get("Contents")
    refs = doc.resolve(contents)
    items = list(refs) if isinstance(refs, Array) else [contents]
    parts, diags = [], []
    for item in items:
        if item is None:
            continue
        obj = doc.get(item.num, item.gen) if isinstance(item, Ref) else None
        if obj is None or not isinstance(obj.value, Stream):
            diags.append(warning("contents-not-stream", f"/Contents entry {item} is not a stream; skipped",
                                 clause="7.7.3.3"))
            continue
        res = doc.stream_data(obj, limit=budget.take_bytes() if budget else None)
        if budget is not None:
            budget.content_bytes -= len(res.data)
            if res.error and budget.content_bytes <= 0:
                budget.stopped = budget.stopped or (f"content stream {item} decoded only to its first "
                                                    f"{len(res.data)} bytes: the content byte budget is spent")
        if res.error:
            diags.append(warning("contents-decode", f"content stream {item}: {res.error}; partial data used",
                                 ref=(item.num, item.gen), clause="7.8.2"))
        parts.append(res.data)
    return join_contents(parts)[0], diags


def iter_steps(doc, page_ref: Ref, fonts: FontCache | None = None, budget: Budget | None = None) -> Iterator[Step]:
    """Interpret the content of the page ``page_ref``; one :class:`Step` per operator.

    With a ``budget`` the run stops when it is spent and ``budget.stopped`` says where.
    """
    page = doc.resolve(page_ref)
    if not isinstance(page, Dict):
        return
    data, diags = page_content(doc, page, budget)
    resources = doc.resolve(doc.inherited(page, "Resources"))
    run = _Run(doc, fonts or FontCache(doc), budget)
    run.pending.extend(diags)
    yield from run.content(data, resources if isinstance(resources, Dict) else Dict(), 0, page_ref)


class _Run:
    """Mutable interpreter state for one page; snapshots handed out are immutable."""

    def __init__(self, doc, fonts: FontCache, budget: Budget | None = None):
        self.doc = doc
        self.fonts = fonts
        self.budget = budget
        self.gs = GraphicsState()
        self.stack: list[tuple[GraphicsState, Font | None]] = []
        self.tm: Matrix | None = None
        self.tlm: Matrix | None = None
        self.marked: tuple[MarkedContent, ...] = ()
        self.font: Font | None = None
        self.index = 0
        self.forms: list[int] = []
        self.pending: list[Diagnostic] = []

    # -- the loop ---------------------------------------------------------------------
    def content(self, data: bytes, resources: Dict, depth: int, source: Ref | None) -> Iterator[Step]:
        for operation in iter_operations(data):
            if self.budget is not None and self.index >= self.budget.operators:
                self.budget.stopped = self.budget.stopped or (f"stopped after {self.index} operators (the budget), at offset "
                                       f"{operation.start} of {'form ' + str(source) if depth else 'the page content'}")
                return
            op = operation.op.decode("latin-1")
            diags = self.pending + list(operation.diagnostics)
            self.pending = []
            glyphs: tuple[Glyph, ...] = ()
            shown_font = None
            form = None
            handler = _HANDLERS.get(op)
            if handler is not None:
                try:
                    result = handler(self, operation.operands, resources, diags)
                except (TypeError, ValueError, IndexError, ZeroDivisionError, OverflowError):
                    diags.append(warning("operands-unusable", f"operands of {op} could not be used; "
                                         "operator ignored", offset=operation.start))
                    result = None
                if op in _SHOWING:
                    glyphs, shown_font = result or (), self.font
                elif op == "Do" and result is not None:
                    form = self.enterable(result, diags, operation.start)
            step = Step(self.index, op, operation.operands, (operation.start, operation.end), depth,
                        source, self.gs, self.tm, self.tlm, self.marked, shown_font, glyphs, tuple(diags))
            self.index += 1
            yield step
            if form is not None:
                yield from self.run_form(form, resources, depth, operation.start)

    def run_form(self, form, parent_resources: Dict, depth: int, offset: int) -> Iterator[Step]:
        ref, stream = form
        obj = self.doc.get(ref.num, ref.gen)
        if obj is None:
            return
        budget = self.budget
        res = self.doc.stream_data(obj, limit=budget.take_bytes() if budget else None)
        if budget is not None:
            budget.content_bytes -= len(res.data)
            if res.error and budget.content_bytes <= 0:
                budget.stopped = budget.stopped or (f"form {ref} decoded only to its first {len(res.data)} "
                                                    "bytes: the content byte budget is spent")
        if res.error:
            self.pending.append(warning("form-decode", f"form {ref}: {res.error}", offset=offset))
        matrix = _matrix(self.doc, stream.dict.get("Matrix"))
        resources = self.doc.resolve(stream.dict.get("Resources"))
        saved = (self.gs, self.stack, self.tm, self.tlm, self.font, self.marked)
        self.gs = replace(self.gs, ctm=multiply(matrix, self.gs.ctm))
        self.stack = []
        self.forms.append(ref.num)
        try:
            yield from self.content(res.data, resources if isinstance(resources, Dict) else parent_resources,
                                    depth + 1, ref)
        finally:
            self.forms.pop()
            self.gs, self.stack, self.tm, self.tlm, self.font, self.marked = saved

    def enterable(self, form, diags: list, offset: int):
        """The form to run for a ``Do``, or ``None`` when running it would loop (8.10.1)."""
        ref = form[0]
        if ref is None:
            return None
        if ref.num in self.forms or len(self.forms) >= MAX_FORM_DEPTH:
            diags.append(warning("form-cycle", f"form {ref} is already being drawn (or forms nest deeper "
                                 f"than {MAX_FORM_DEPTH}); not run again", offset=offset, clause="8.10.1"))
            return None
        return form

    # -- helpers ------------------------------------------------------------------------
    def set_text(self, **changes) -> None:
        self.gs = replace(self.gs, text=replace(self.gs.text, **changes))

    def resource(self, resources: Dict, category: str, name, diags: list):
        group = self.doc.resolve(resources.get(category))
        value = group.get(name) if isinstance(group, Dict) else None
        if value is None:
            diags.append(warning("resource-missing", f"/{name} is not in the /{category} resources",
                                 clause="7.8.3"))
        return value

    def select_font(self, value, name: str, size) -> None:
        font = self.fonts.get(value) if value is not None else None
        self.font = font
        self.set_text(font_name=name, font_ref=value if isinstance(value, Ref) else None, size=float(size))

    def show(self, data: bytes, diags: list) -> list[Glyph]:
        """Draw the codes of ``data`` and move the pen (9.4.3, 9.4.4)."""
        out: list[Glyph] = []
        if self.tm is None:
            diags.append(warning("text-outside-bt", "text shown outside BT/ET", clause="9.4.1"))
            self.tm = self.tlm = IDENTITY
        font = self.font
        ts: TextState = self.gs.text
        if font is None:
            diags.append(warning("font-not-set", "text shown with no usable font selected (Tf)",
                                 clause="9.3.1"))
            return out
        size, tc, tw, th, rise = ts.size, ts.char_spacing, ts.word_spacing, ts.scale / 100.0, ts.rise
        ctm = self.gs.ctm
        vertical = font.vertical
        type3 = font.subtype == "Type3"
        for c in font.split(data, diags):
            code = c.code
            cid = font.cid(code) if font.cmap is not None else None
            w0 = font.glyph_width(code, cid)
            spacing = tc + (tw if code == b" " else 0.0)
            tm = self.tm
            user = transform(tm, 0.0, rise)
            if vertical:
                advance = font.cid_font.vertical_advance(cid) * size + spacing
                self.tm = multiply(translate(0.0, advance), tm)
            else:
                advance = (w0 * size + spacing) * th
                self.tm = multiply(translate(advance, 0.0), tm)
            proc = font.charprocs.get(font.glyph_name(code[0]) or "") if type3 and code else None
            out.append(Glyph(code, cid, w0, advance, user, transform(ctm, *user), proc))
        return out

    def move_pen(self, amount: float) -> None:
        """A TJ number: move by −amount/1000 × size (× Tz horizontally) (9.4.3)."""
        ts = self.gs.text
        d = -amount / 1000.0 * ts.size
        if self.font is not None and self.font.vertical:
            self.tm = multiply(translate(0.0, d), self.tm)
        else:
            self.tm = multiply(translate(d * ts.scale / 100.0, 0.0), self.tm)

    def next_line(self, tx: float, ty: float) -> None:
        self.tlm = multiply(translate(tx, ty), self.tlm or IDENTITY)
        self.tm = self.tlm


def _matrix(doc, value) -> Matrix:
    m = doc.resolve(value)
    if isinstance(m, Array) and len(m) == 6:
        nums = [doc.resolve(x) for x in m]
        if all(is_number(x) for x in nums):
            return tuple(float(x) for x in nums)
    return IDENTITY


def _nums(operands, n: int) -> list[float]:
    vals = [float(x) for x in operands[-n:]] if len(operands) >= n else []
    if len(vals) != n or any(isinstance(x, bool) for x in operands[-n:]):
        raise ValueError
    return vals


# -- operator handlers: (run, operands, resources, diagnostics) -> result ------------------
def _q(run, ops, res, diags):
    if len(run.stack) >= MAX_SAVED_STATES:
        diags.append(warning("q-too-deep", f"more than {MAX_SAVED_STATES} nested q; ignored", clause="8.4.2"))
        return
    run.stack.append((run.gs, run.font))


def _Q(run, ops, res, diags):
    if run.stack:
        run.gs, run.font = run.stack.pop()
    else:
        diags.append(warning("q-unbalanced", "Q without a matching q; ignored", clause="8.4.2"))


def _cm(run, ops, res, diags):
    run.gs = replace(run.gs, ctm=multiply(tuple(_nums(ops, 6)), run.gs.ctm))


def _gs(run, ops, res, diags):
    name = ops[-1]
    ext = run.doc.resolve(run.resource(res, "ExtGState", name, diags))
    changes = {"ext_gstate": str(name)}
    if isinstance(ext, Dict):
        for key, field_name in (("LW", "line_width"), ("LC", "line_cap"), ("LJ", "line_join"),
                                ("ML", "miter_limit")):
            v = run.doc.resolve(ext.get(key))
            if is_number(v):
                changes[field_name] = v
        font = run.doc.resolve(ext.get("Font"))
        if isinstance(font, Array) and len(font) == 2:
            run.select_font(font[0], "(ExtGState)", run.doc.resolve(font[1]) or 0)
    run.gs = replace(run.gs, **changes)


def _setter(field_name, cast=float):
    def handler(run, ops, res, diags):
        run.gs = replace(run.gs, **{field_name: cast(ops[-1])})
    return handler


def _dash(run, ops, res, diags):
    run.gs = replace(run.gs, dash=(tuple(ops[0]), ops[1]))


def _space(stroke: bool):
    def handler(run, ops, res, diags):
        name = str(ops[-1])
        initial = (0, 0, 0, 1) if name == "DeviceCMYK" else (0, 0, 0) if name == "DeviceRGB" else (0,)
        run.gs = replace(run.gs, **({"stroke_space": name, "stroke_color": initial} if stroke
                                    else {"fill_space": name, "fill_color": initial}))
    return handler


def _color(stroke: bool, space: str | None = None):
    def handler(run, ops, res, diags):
        values = tuple(str(x) if isinstance(x, Name) else x for x in ops)
        changes = {("stroke_color" if stroke else "fill_color"): values}
        if space:
            changes["stroke_space" if stroke else "fill_space"] = space
        run.gs = replace(run.gs, **changes)
    return handler


def _text_param(field_name, cast=float):
    def handler(run, ops, res, diags):
        run.set_text(**{field_name: cast(_nums(ops, 1)[0])})
    return handler


def _Tf(run, ops, res, diags):
    name, size = ops[-2], _nums(ops, 1)[0]
    run.select_font(run.resource(res, "Font", name, diags), str(name), size)


def _BT(run, ops, res, diags):
    if run.tm is not None:
        diags.append(warning("bt-nested", "BT inside a text object", clause="9.4.1"))
    run.tm = run.tlm = IDENTITY


def _ET(run, ops, res, diags):
    if run.tm is None:
        diags.append(warning("et-unbalanced", "ET without BT", clause="9.4.1"))
    run.tm = run.tlm = None


def _Td(run, ops, res, diags):
    tx, ty = _nums(ops, 2)
    run.next_line(tx, ty)


def _TD(run, ops, res, diags):
    tx, ty = _nums(ops, 2)
    run.set_text(leading=-ty)
    run.next_line(tx, ty)


def _Tm(run, ops, res, diags):
    run.tm = run.tlm = tuple(_nums(ops, 6))


def _Tstar(run, ops, res, diags):
    run.next_line(0.0, -run.gs.text.leading)


def _Tj(run, ops, res, diags):
    s = ops[-1] if ops else None
    return tuple(run.show(s.value, diags)) if isinstance(s, String) else ()


def _TJ(run, ops, res, diags):
    arr = ops[-1] if ops else None
    glyphs: list[Glyph] = []
    for item in arr if isinstance(arr, Array) else ():
        if isinstance(item, String):
            glyphs.extend(run.show(item.value, diags))
        elif is_number(item) and run.tm is not None:
            run.move_pen(float(item))
    return tuple(glyphs)


def _quote(run, ops, res, diags):
    _Tstar(run, ops, res, diags)
    return _Tj(run, ops, res, diags)


def _dquote(run, ops, res, diags):
    aw, ac = _nums(ops[:-1], 2)
    run.set_text(word_spacing=aw, char_spacing=ac)
    return _quote(run, ops, res, diags)


def _BMC(run, ops, res, diags):
    run.marked += (MarkedContent(str(ops[-1]) if ops else "?"),)


def _BDC(run, ops, res, diags):
    tag, props = (ops[-2], ops[-1]) if len(ops) >= 2 else ("?", None)
    name = None
    if isinstance(props, Name):
        name = str(props)
        props = run.doc.resolve(run.resource(res, "Properties", props, diags))
    mcid = actual = None
    if isinstance(props, Dict):
        m = run.doc.resolve(props.get("MCID"))
        mcid = m if is_integer(m) else None
        a = run.doc.resolve(props.get("ActualText"))
        actual = decode_text(a.value, diags) if isinstance(a, String) else None
    run.marked += (MarkedContent(str(tag), name, mcid, actual),)


def _EMC(run, ops, res, diags):
    if run.marked:
        run.marked = run.marked[:-1]
    else:
        diags.append(warning("emc-unbalanced", "EMC without BMC/BDC", clause="14.6"))


def _Do(run, ops, res, diags):
    name = ops[-1] if ops else None
    value = run.resource(res, "XObject", name, diags)
    xobj = run.doc.resolve(value)
    if isinstance(xobj, Stream) and xobj.dict.get("Subtype") == "Form":
        return (value if isinstance(value, Ref) else None, xobj)
    return None


_SHOWING = frozenset({"Tj", "TJ", "'", '"'})
_HANDLERS = {
    "q": _q, "Q": _Q, "cm": _cm, "gs": _gs, "d": _dash,
    "w": _setter("line_width"), "J": _setter("line_cap", int), "j": _setter("line_join", int),
    "M": _setter("miter_limit"), "ri": _setter("rendering_intent", str), "i": _setter("flatness"),
    "CS": _space(True), "cs": _space(False),
    "SC": _color(True), "SCN": _color(True), "sc": _color(False), "scn": _color(False),
    "G": _color(True, "DeviceGray"), "g": _color(False, "DeviceGray"),
    "RG": _color(True, "DeviceRGB"), "rg": _color(False, "DeviceRGB"),
    "K": _color(True, "DeviceCMYK"), "k": _color(False, "DeviceCMYK"),
    "BT": _BT, "ET": _ET,
    "Tc": _text_param("char_spacing"), "Tw": _text_param("word_spacing"), "Tz": _text_param("scale"),
    "TL": _text_param("leading"), "Ts": _text_param("rise"), "Tr": _text_param("render", int),
    "Tf": _Tf, "Td": _Td, "TD": _TD, "Tm": _Tm, "T*": _Tstar,
    "Tj": _Tj, "TJ": _TJ, "'": _quote, '"': _dquote,
    "BMC": _BMC, "BDC": _BDC, "EMC": _EMC, "Do": _Do,
}
