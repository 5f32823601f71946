"""Run a page's content stream and report one :class:`Step` per operator (ISO 32000-1 8, 9).

The interpreter tracks what an inspector shows — graphics state, text state, the text and
line matrices, the marked-content stack — and, for text-showing operators, the glyphs
drawn: their codes, advances (``/Widths`` or ``/W`` ``/DW``) and pen positions. Form
XObjects are run in place with their own resources and matrix (cycle-guarded, ``depth``
counts the nesting); image XObjects and shadings are not run. A Type3 glyph procedure
(9.6.5) is run after the operator that shows the glyph when it draws text itself, and its
steps name it (``Step.charproc``). After the page content come the annotations' normal
appearance streams (12.5.5), unless ``annots=False``: each step drawn for an annotation
names it (``Step.annotation``); hidden ones (``/F`` Hidden or NoView, 12.5.3) are skipped
as MuPDF does for viewing, with a note. Nothing in the content raises: every oddity becomes
a diagnostic on the step where it happened (or on an operator-less step, ``op == ""``).
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Iterator

from ..core.budget import DEFAULT_LIMITS, Budget
from ..core.diagnostics import Diagnostic, info, warning
from ..core.objects import Array, Dict, Name, Ref, Stream, String, is_integer, is_number
from ..core.optional import optional_content
from ..core.textstrings import decode_text
from ..fonts.font import Font, FontCache
from ..spec.operators import OPERATORS, TEXT_SHOWING_OPERATORS
from .state import IDENTITY, GraphicsState, MarkedContent, Matrix, TextState, maker, multiply, replace, transform, translate
from .tokenizer import QUICK, QUICK_PATH_OP, Operation, iter_operations, iter_quick, join_contents

MAX_FORM_DEPTH = 12  # forms, appearance streams and Type3 glyph procedures nested in each other
MAX_SAVED_STATES = 1000  # q nesting beyond this is reported and ignored
MAX_ANNOTATIONS = 10_000  # per page; the rest are reported and not drawn
# Annotation flags (12.5.3, Table 165) that keep an annotation off the screen.
ANNOT_HIDDEN, ANNOT_NO_VIEW = 1 << 1, 1 << 5
_QUIET_WITHOUT_APPEARANCE = frozenset({"Link", "Popup"})  # no appearance is their normal state


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
    charproc: Ref | None = None  # Type3: the glyph procedure
    proc_text: bool = False  # the procedure shows text: it runs after this operator (Step.charproc)
    adjust: float = 0.0  # TJ numbers (thousandths of text space) that moved the pen just before it


Rect = tuple[float, float, float, float]  # left, bottom, right, top on the page


@dataclass(frozen=True, slots=True)
class Painted:
    """What a painting operator covered on the page: a fill (``f``, ``B``…, 8.5.3), a shading
    (``sh``, 8.7.4.2: the clip's area, never ``exact`` nor ``opaque`` here) or an image (``Do``, ``BI``, 8.9). ``rect`` bounds it on the page (within the clip's
    bounds); ``exact`` says the rectangle *is* the painted area (one ``re`` or an image
    under an axis-aligned CTM, inside an exact clip); ``opaque`` that nothing shows
    through (alpha 1; an image without /SMask, /Mask or /ImageMask); ``composited`` that it
    is painted inside a transparency group that reaches the page through a blend mode other
    than Normal, an alpha below 1 or a soft mask (11.4.7), whose effect on what lies under it
    is not modelled."""

    kind: str  # "fill", "shading" or "image"
    rect: Rect
    exact: bool
    opaque: bool
    composited: bool = False


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
    annotation: Ref | None = None  # the annotation whose appearance stream is being drawn
    charproc: Ref | None = None  # the Type3 glyph procedure being run (innermost)
    text_object: int = 0  # the number of BT operators run so far: which text object this is
    painted: Painted | None = None  # the area a painting operator covered
    # the decoded content ``span`` indexes: the page's joined /Contents, or the stream of the form,
    # appearance or glyph procedure (``source``) — the bytes the interpreter ran, not a copy
    content: bytes = b""


# constructors taking every field, faster than the frozen classes' own
_make_step, _make_glyph, _make_painted = maker(Step), maker(Glyph), maker(Painted)


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
            budget.spend_bytes(len(res.data), res.error is not None, f"content stream {item}")
        if res.error:
            diags.append(warning("contents-decode", f"content stream {item}: {res.error}; partial data used",
                                 ref=(item.num, item.gen), clause="7.8.2"))
        parts.append(res.data)
    return join_contents(parts)[0], diags


def page_resources(doc, page: Dict) -> Dict:
    """The page's /Resources, inherited through the page tree (7.7.3.4); empty if unusable."""
    resources = doc.resolve(doc.inherited(page, "Resources"))
    return resources if isinstance(resources, Dict) else Dict()


def iter_steps(doc, page_ref: Ref, fonts: FontCache | None = None, budget: Budget | None = None, *,
               annots: bool = True, content: bool = True, drawn_only: bool = False) -> Iterator[Step]:
    """Interpret the content of the page ``page_ref`` (unless ``content`` is false), then
    (``annots``) its annotations' appearance streams; one :class:`Step` per operator.

    With ``drawn_only``, the operators of vector art that neither show glyphs nor paint
    (path construction, colours, ``cm``, ``q``/``Q``, line styles: the tokenizer's
    :data:`~.tokenizer.QUICK`) are run on a fast path that builds no step and checks no
    operands, and so are the painting operators that paint nothing; every step yielded is the
    one a full run yields (same index, state and diagnostics), and none that shows glyphs or
    paints (``Step.painted``) is left out.

    The run stops when the ``budget`` is spent and ``budget.stopped`` says where. Without
    one, the document's limits (:mod:`pdfinspect.core.budget`) bound the run, and a stop is
    reported as a ``budget-spent`` warning on the last step and in ``doc.diagnostics``.
    """
    page = doc.resolve(page_ref)
    if not isinstance(page, Dict):
        return
    own = budget is None
    if budget is None:
        budget = getattr(doc, "limits", DEFAULT_LIMITS).budget()
    resources = page_resources(doc, page)
    run = _Run(doc, fonts or FontCache.of(doc), budget, drawn_only)
    if content:
        data, diags = page_content(doc, page, budget)
        run.pending.extend(diags)
        yield from run.content(data, resources, 0, page_ref)
    if annots and not budget.halted:
        yield from run.annotations(page, page_ref, resources)
    if own and budget.stopped is not None:
        spent = warning("budget-spent", f"page {page_ref}: {budget.stopped}", ref=(page_ref.num, page_ref.gen))
        run.pending.append(spent)
        if hasattr(doc, "note"):
            doc.note(spent)
    if run.pending:
        yield run.note(page_ref, 0)


def annotation_matrix(bbox, matrix: Matrix, rect) -> Matrix:
    """The matrix A of 12.5.5 that maps the appearance's /BBox, transformed by its /Matrix,
    onto the annotation's /Rect (both normalised; a degenerate box is not scaled)."""
    corners = [transform(matrix, x, y) for x in (bbox[0], bbox[2]) for y in (bbox[1], bbox[3])]
    x0, x1 = min(c[0] for c in corners), max(c[0] for c in corners)
    y0, y1 = min(c[1] for c in corners), max(c[1] for c in corners)
    rx0, rx1 = sorted((rect[0], rect[2]))
    ry0, ry1 = sorted((rect[1], rect[3]))
    sx = (rx1 - rx0) / (x1 - x0) if x1 > x0 else 1.0
    sy = (ry1 - ry0) / (y1 - y0) if y1 > y0 else 1.0
    return (sx, 0.0, 0.0, sy, rx0 - x0 * sx, ry0 - y0 * sy)


class _Run:
    """Mutable interpreter state for one page; snapshots handed out are immutable."""

    def __init__(self, doc, fonts: FontCache, budget: Budget | None = None, drawn_only: bool = False):
        self.doc = doc
        self.fonts = fonts
        self.budget = budget
        self.quick = QUICK if drawn_only else None
        self.gs = GraphicsState()
        # fields of ``gs`` the fast path changed since its last snapshot (see settle)
        self.changes: dict[str, object] = {}
        self.styles: dict[bytes, dict[str, object]] = {}  # a style operator's text → the fields it sets
        self.shapes: dict[bytes, tuple[_Shape, bool]] = {}  # path text → its points, and whether a rectangle
        self.stack: list[tuple[GraphicsState, Font | None]] = []
        self.tm: Matrix | None = None
        self.tlm: Matrix | None = None
        self.marked: tuple[MarkedContent, ...] = ()
        self.bt_marked = 0  # len(marked) at the last BT
        self.font: Font | None = None
        self.index = 0
        self.forms: list[int] = []  # forms and glyph procedures being run, by object number
        self.type3: list[Font] = []  # Type3 fonts whose glyph procedures are being run
        self.pending: list[Diagnostic] = []
        self.annotation: Ref | None = None
        self.charproc: Ref | None = None
        self.procs: list[tuple[Ref, bytes, Matrix, Font]] = []  # glyph procedures to run next
        self.invoked = 0  # forms, appearances and glyph procedures run (fan-out counts)
        self.composited = 0  # transparency groups being run that are composited, not painted (11.4.7)
        self.drawn = 0  # glyphs shown
        self.text_object = 0
        self.adjust = 0.0  # TJ numbers not yet followed by a glyph
        self.path: list[float] | None = None  # bounds of the current path on the page
        self.path_exact = False  # the path is one rectangle, axis-aligned on the page
        self.clipping = False  # W or W* seen: the next painting operator clips
        self.painted: Painted | None = None

    # -- the loop ---------------------------------------------------------------------
    def content(self, data: bytes, resources: Dict, depth: int, source: Ref | None) -> Iterator[Step]:
        budget = self.budget
        for operation in iter_quick(data, self.quick):
            if isinstance(operation, list):  # a run of operators of the fast path (drawn_only)
                if budget is not None and budget.halted:  # (nothing in the run can halt it)
                    self.quick_to_budget(operation[0], depth, source)
                    return
                limit = budget.operators if budget is not None else _NO_LIMIT
                for m in operation:
                    kind = m.lastgroup
                    if kind == "pe" or kind == "pp":
                        text = data[m.start("s"):m.end("pe")]
                        count = len(text.translate(None, _NOT_PATH_OPS))
                        if self.index + count + (kind == "pp") > limit:
                            self.quick_to_budget(m, depth, source)
                            return
                        self.quick_path(text)
                        self.index += count
                        if self.pending:
                            self.pending = []
                        if kind == "pe":
                            continue
                        op = m.group("pp")
                    elif self.index >= limit:
                        self.quick_to_budget(m, depth, source)
                        return
                    elif kind == "paint":
                        op = m.group("paint")
                        if op == b"W" or op == b"W*":
                            self.clipping = True
                            self.index += 1
                            self.pending = []
                            continue
                    else:
                        _QUICK_RUN[kind](self, m)  # type: ignore[index]
                        self.index += 1
                        if self.pending:
                            self.pending = []
                        continue
                    self.painted = None
                    self.paint(op not in _STROKES)
                    if self.painted is None:
                        self.index += 1
                        if self.pending:
                            self.pending = []
                        continue
                    self.settle()
                    diags, self.pending = self.pending, []
                    yield _make_step(self.index, _OP_NAMES[op], (), (m.start(kind), m.end()), depth, source,
                                     self.gs, self.tm, self.tlm, self.marked, None, (), tuple(diags), self.annotation,
                                     self.charproc, self.text_object, self.painted, data)
                    self.index += 1
                continue
            if budget is not None and (budget.halted or self.index >= budget.operators):
                self.stop_at(operation.start, depth, source)
                return
            if self.changes:
                self.settle()
            op = _OP_NAMES.get(operation.op) or operation.op.decode("latin-1")
            if self.pending:
                diags, self.pending = self.pending + list(operation.diagnostics), []
            else:
                diags = list(operation.diagnostics)
            glyphs: tuple[Glyph, ...] = ()
            shown_font = None
            form = None
            self.painted = None
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
            step = _make_step(self.index, op, operation.operands, (operation.start, operation.end), depth,
                              source, self.gs, self.tm, self.tlm, self.marked, shown_font, glyphs, tuple(diags),
                              self.annotation, self.charproc, self.text_object, self.painted, data)
            self.index += 1
            yield step
            if form is not None:
                yield from self.run_form(form, resources, depth, operation.start)
            if self.procs:
                procs, self.procs = self.procs, []
                for proc in procs:
                    yield from self.run_charproc(proc, resources, depth)

    def stop_at(self, offset: int, depth: int, source: Ref | None) -> None:
        """The operator budget is spent (or the run halted) at ``offset``."""
        budget = self.budget
        assert budget is not None
        budget.stop("operator", budget.operators, f"at offset {offset} of "
                    f"{'form ' + str(source) if depth else 'the page content'}")

    def quick_to_budget(self, m: re.Match[bytes], depth: int, source: Ref | None) -> None:
        """A fast-path match that the budget stops in: its operators up to the budget, then the stop."""
        budget = self.budget
        assert budget is not None
        if m.lastgroup in ("pe", "pp"):  # a path: its operators one by one
            for op in QUICK_PATH_OP.finditer(m.string, m.start("s"), m.end("pe")):
                if budget.halted or self.index >= budget.operators:
                    self.stop_at(op.start(1), depth, source)
                    return
                self.quick_path(op.group(1))
                self.index += 1
            self.stop_at(m.start("pp"), depth, source)  # (the budget stops before the paint, if any)
            return
        self.stop_at(m.start("s"), depth, source)

    def settle(self) -> None:
        """Apply the fast path's changes to the graphics state: a snapshot of it is wanted."""
        if self.changes:
            self.gs = replace(self.gs, **self.changes)
            self.changes = {}

    def note(self, source: Ref | None, depth: int) -> Step:
        """An operator-less step carrying the pending diagnostics."""
        self.settle()
        step = Step(self.index, "", (), (0, 0), depth, source, self.gs, self.tm, self.tlm, self.marked,
                    diagnostics=tuple(self.pending), annotation=self.annotation, charproc=self.charproc)
        self.index += 1
        self.pending = []
        return step

    def run_form(self, form, parent_resources: Dict, depth: int, offset: int) -> Iterator[Step]:
        ref, stream = form
        obj = self.doc.get(ref.num, ref.gen)
        if obj is None:
            return
        self.settle()
        data = self.decode(obj, f"form {ref}", offset)
        matrix = _matrix(self.doc, stream.dict.get("Matrix"))
        resources = self.doc.resolve(stream.dict.get("Resources"))
        resources = resources if isinstance(resources, Dict) else parent_resources
        ctm = multiply(matrix, self.gs.ctm)
        group = self.doc.resolve(stream.dict.get("Group"))
        composited = (isinstance(group, Dict) and self.doc.resolve(group.get("S")) == "Transparency"
                      and not self.opaque_paint())
        self.composited += composited
        try:
            yield from self.nested(ref, data, ctm, resources, depth + 1, _rect(self.doc, stream.dict.get("BBox")),
                                   self.optional(stream.dict))
        finally:
            self.composited -= composited

    def decode(self, obj, what: str, offset: int = 0) -> bytes:
        """A form's or appearance's content, within the byte budget; problems noted."""
        budget = self.budget
        res = self.doc.stream_data(obj, limit=budget.take_bytes() if budget else None)
        if budget is not None:
            budget.spend_bytes(len(res.data), res.error is not None, what)
        if res.error:
            self.pending.append(warning("form-decode", f"{what}: {res.error}", offset=offset))
        return res.data

    def optional(self, owner: Dict) -> MarkedContent | None:
        """The optional content a form's or annotation's ``/OC`` entry puts it in (8.11.3.3)."""
        value = owner.get("OC")
        if value is None:
            return None
        verdict = optional_content(self.doc).judge(value)
        return MarkedContent("OC", depth=len(self.forms), oc=verdict.kind, oc_hidden=verdict.hidden)

    def nested(self, ref: Ref, data: bytes, ctm: Matrix, resources: Dict, depth: int,
               bbox: Rect | None = None, mark: MarkedContent | None = None) -> Iterator[Step]:
        """Run a form, appearance stream or glyph procedure with its own state stack, clipped
        to its ``bbox`` (form space, 8.10.1), inside the optional content ``mark`` when it has one."""
        budget = self.budget
        self.invoked += 1
        if budget is not None and self.invoked > budget.invocations:
            budget.stop("form and glyph procedure invocation", budget.invocations, f"at {ref}")
            return
        self.settle()
        saved = (self.gs, self.stack, self.tm, self.tlm, self.font, self.marked, self.bt_marked)
        self.gs = replace(self.gs, ctm=ctm)
        if bbox is not None:
            x0, y0, x1, y1 = bbox
            corners = [transform(ctm, x, y) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
            self.clip_to([min(c[0] for c in corners), min(c[1] for c in corners),
                          max(c[0] for c in corners), max(c[1] for c in corners)], _axis_aligned(ctm))
        self.stack = []
        if mark is not None:
            self.marked += (mark,)
        self.forms.append(ref.num)
        try:
            yield from self.content(data, resources, depth, ref)
        finally:
            self.forms.pop()
            self.gs, self.stack, self.tm, self.tlm, self.font, self.marked, self.bt_marked = saved
            self.changes = {}

    def run_charproc(self, proc, resources: Dict, depth: int) -> Iterator[Step]:
        """A Type3 glyph procedure that draws text, in the glyph's space (9.6.5)."""
        ref, data, ctm, font = proc
        own = self.doc.resolve(font.resources)
        saved = self.charproc, self.tm, self.tlm
        self.charproc = ref
        self.tm = self.tlm = None  # the procedure starts outside a text object
        self.type3.append(font)
        try:
            yield from self.nested(ref, data, ctm, own if isinstance(own, Dict) else resources, depth + 1)
        finally:
            self.type3.pop()
            self.charproc, self.tm, self.tlm = saved

    def annotations(self, page: Dict, page_ref: Ref, resources: Dict) -> Iterator[Step]:
        """The normal appearances of the page's annotations, in /Annots order (12.5.5)."""
        doc = self.doc
        annots = doc.resolve(page.get("Annots"))
        if not isinstance(annots, Array):
            return
        if len(annots) > MAX_ANNOTATIONS:
            self.pending.append(warning("annots-too-many", f"{len(annots)} annotations; only the first "
                                        f"{MAX_ANNOTATIONS} are drawn", clause="12.5.2"))
        for value in list(annots)[:MAX_ANNOTATIONS]:
            ref = value if isinstance(value, Ref) else None
            if ref is not None and _draws_nothing(doc, ref):
                continue
            annot = doc.resolve(value)
            self.annotation = ref
            self.gs, self.stack, self.tm, self.tlm, self.font, self.marked = GraphicsState(), [], None, None, \
                None, ()
            self.changes = {}
            form, why = (self.appearance(annot) if isinstance(annot, Dict)
                         else (None, warning("annot-not-dict", f"/Annots entry {value} is not a dictionary",
                                             clause="12.5.2")))
            if form is None:
                if why is not None:
                    self.pending.append(why)
                    yield self.note(page_ref, 0)
                continue
            form_ref, stream, data = form
            matrix = _matrix(doc, stream.dict.get("Matrix"))
            bbox, rect = _rect(doc, stream.dict.get("BBox")), _rect(doc, annot.get("Rect"))
            if bbox is None or rect is None:
                self.pending.append(warning("annot-rect", f"annotation {ref or '(direct)'}: no usable "
                                            f"/{'BBox' if bbox is None else 'Rect'}; drawn unscaled",
                                            clause="12.5.5"))
            ctm = multiply(matrix, annotation_matrix(bbox, matrix, rect)) if bbox and rect else matrix
            own = doc.resolve(stream.dict.get("Resources"))
            yield from self.nested(form_ref, data, ctm, own if isinstance(own, Dict) else resources, 1,
                                   _rect(doc, stream.dict.get("BBox")), self.optional(annot))
        self.annotation = None

    def appearance(self, annot: Dict):
        """``((ref, stream, data), None)`` for the annotation's normal appearance, or
        ``(None, why)`` when it is not drawn (``why`` is ``None`` when that is unremarkable)."""
        doc, ref = self.doc, self.annotation
        what = f"annotation {ref or '(direct)'} /{doc.resolve(annot.get('Subtype')) or '?'}"
        flags = doc.resolve(annot.get("F"))
        if is_integer(flags) and flags & (ANNOT_HIDDEN | ANNOT_NO_VIEW):
            kind = "Hidden" if flags & ANNOT_HIDDEN else "NoView"
            return None, info("annot-hidden", f"{what} has the {kind} flag (/F {flags}): not drawn",
                              clause="12.5.3")
        ap = doc.resolve(annot.get("AP"))
        normal = ap.get("N") if isinstance(ap, Dict) else None
        value = doc.resolve(normal)
        if isinstance(value, Dict) and not isinstance(value, Stream):
            state = doc.resolve(annot.get("AS"))
            normal = value.get(state) if isinstance(state, Name) else None
            value = doc.resolve(normal)
            if not isinstance(value, Stream):
                return None, info("annot-state", f"{what}: appearance state /AS {state or '(none)'} is not "
                                  "in /AP /N; nothing drawn", clause="12.5.5")
        if not isinstance(value, Stream) or not isinstance(normal, Ref):
            quiet = str(doc.resolve(annot.get("Subtype"))) in _QUIET_WITHOUT_APPEARANCE
            return None, None if quiet else info("annot-no-appearance", f"{what} has no normal appearance "
                                                 "stream (/AP /N): nothing drawn", clause="12.5.5")
        if normal.num in self.forms:
            return None, warning("form-cycle", f"{what}: appearance {normal} is already being drawn",
                                 clause="8.10.1")
        return (normal, value, self.decode(doc.get(normal.num, normal.gen), f"appearance {normal}")), None

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
    def clip_to(self, bounds: list[float], exact: bool) -> None:
        """Intersect the clip in force with ``bounds`` (page space; ``exact``: they are the
        clipping area itself, not only a box around it)."""
        clip = self.gs.clip
        if clip is not None:
            bounds = [max(bounds[0], clip[0]), max(bounds[1], clip[1]),
                      min(bounds[2], clip[2]), min(bounds[3], clip[3])]
        x0, y0 = bounds[0], bounds[1]
        self.gs = replace(self.gs, clip=(x0, y0, max(bounds[2], x0), max(bounds[3], y0)),
                          clip_exact=self.gs.clip_exact and exact)

    def add_points(self, ops, exact_rect: bool = False) -> None:
        """Extend the current path's page bounds by the points of ``ops`` (x y pairs)."""
        nums = [float(x) for x in ops if isinstance(x, (int, float)) and not isinstance(x, bool)]
        if len(nums) < 2:
            return
        first = self.path is None
        self.extend_path(_shape(nums[:len(nums) // 2 * 2]), self.gs.ctm)
        self.path_exact = first and exact_rect and _axis_aligned(self.gs.ctm)

    def extend_path(self, shape: _Shape, ctm: Matrix) -> None:
        """Extend the current path's page bounds by the points of ``shape`` (:func:`_shape`) under ``ctm``."""
        nums, xlo, xhi, ylo, yhi = shape
        a, b, c, d, e, f = ctm
        if b == 0 and c == 0 and _finite(a) and _finite(d) and _finite(e) and _finite(f):
            # a scale and a move: the bounds of the points, mapped (rounding keeps the order)
            x0, x1 = (a * xlo + e, a * xhi + e) if a >= 0 else (a * xhi + e, a * xlo + e)
            y0, y1 = (d * ylo + f, d * yhi + f) if d >= 0 else (d * yhi + f, d * ylo + f)
        else:
            x0 = y0 = float("inf")
            x1 = y1 = float("-inf")
            for k in range(0, len(nums), 2):
                x, y = nums[k], nums[k + 1]
                px, py = a * x + c * y + e, b * x + d * y + f
                x0, x1 = min(x0, px), max(x1, px)
                y0, y1 = min(y0, py), max(y1, py)
        bounds = self.path
        self.path = [x0, y0, x1, y1] if bounds is None else \
            [min(bounds[0], x0), min(bounds[1], y0), max(bounds[2], x1), max(bounds[3], y1)]

    def quick_path(self, text: bytes) -> None:
        """Path construction operators (m l c v y h re) on the fast path: their points extend the
        path. Their numbers are read once per run for each way a path is written (a page that
        places one shape many times with ``cm`` repeats it)."""
        known = self.shapes.get(text)
        if known is None:
            rect = b"r" in text
            if rect and text.translate(None, _NOT_PATH_OPS) != b"r":  # a rectangle and more: one by one
                for op in QUICK_PATH_OP.finditer(text):
                    self.quick_path(op.group(1))
                return
            raw = _NUMBERS.findall(text)
            if not raw:  # h alone adds no point
                return
            if rect:
                x, y, w, h = map(float, raw)
                shape = _shape([x, y, x + w, y + h, x, y + h, x + w, y])
            else:
                shape = _shape(list(map(float, raw)))
            if len(self.shapes) >= MAX_STYLES:
                self.shapes.clear()
            known = self.shapes[text] = (shape, rect)
        ctm: Matrix = self.changes.get("ctm") or self.gs.ctm  # type: ignore[assignment]
        first = self.path is None
        self.extend_path(known[0], ctm)
        self.path_exact = known[1] and first and _axis_aligned(ctm)

    def paint(self, fill: bool) -> None:
        """A path-painting operator: note the filled area, apply a pending clip, end the path."""
        bounds = self.path
        if bounds is not None and fill:
            rect = bounds
            clip = self.gs.clip
            if clip is not None:
                rect = [max(rect[0], clip[0]), max(rect[1], clip[1]), min(rect[2], clip[2]), min(rect[3], clip[3])]
            if rect[2] > rect[0] and rect[3] > rect[1]:
                self.painted = _make_painted("fill", (rect[0], rect[1], rect[2], rect[3]),
                                             self.path_exact and self.gs.clip_exact, self.opaque_paint(),
                                             self.composited > 0)
        if self.clipping:
            self.clip_to(bounds if bounds is not None else [0.0, 0.0, 0.0, 0.0], self.path_exact)
        self.path, self.path_exact, self.clipping = None, False, False

    def opaque_paint(self) -> bool:
        """Whether a fill now hides what is under it: alpha 1, a separable blend mode that
        replaces (Normal, Compatible), no soft mask (11.3.5, 11.6.4.4), and not inside a
        transparency group that is composited (:attr:`Painted.composited`)."""
        gs = self.gs
        return (gs.fill_alpha >= 1.0 and gs.blend_mode in ("Normal", "Compatible") and not gs.soft_mask
                and not self.composited)

    def paint_image(self, opaque: bool) -> None:
        """An image: the unit square under the CTM (8.9.4)."""
        self.path = None
        self.add_points((0, 0, 1, 0, 1, 1, 0, 1))
        bounds, exact = self.path, _axis_aligned(self.gs.ctm)
        self.path = None
        clip = self.gs.clip
        if bounds is None:
            return
        if clip is not None:
            bounds = [max(bounds[0], clip[0]), max(bounds[1], clip[1]), min(bounds[2], clip[2]), min(bounds[3], clip[3])]
        if bounds[2] > bounds[0] and bounds[3] > bounds[1]:
            self.painted = Painted("image", (bounds[0], bounds[1], bounds[2], bounds[3]),
                                   exact and self.gs.clip_exact, opaque and self.opaque_paint(), self.composited > 0)

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
        self.font = self.fonts.select(value, name)
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
        if type3 and font in self.type3:
            diags.append(warning("type3-recursive", f"Type3 font {font.ref or '(direct)'} shows text with "
                                 "itself from one of its glyph procedures; not drawn", clause="9.6.5"))
            return out
        composite = font.cmap is not None
        adjust, self.adjust = self.adjust, 0.0
        a, b, c, d, e, f = self.tm
        budget = self.budget
        left = budget.glyphs - self.drawn if budget is not None else -1
        for piece in font.split(data, diags):
            if left == 0 and budget is not None:  # (no budget: left is -1, never 0)
                budget.stop("glyph", budget.glyphs, f"in a string of {len(data)} bytes")
                break
            left -= 1
            code = piece.code
            cid = font.cid(code) if composite else None
            w0 = font.glyph_width(code, cid)
            spacing = tc + (tw if code == b" " else 0.0)
            user = (c * rise + e, d * rise + f)  # (0, rise) through Tm
            tm = (a, b, c, d, e, f)
            if vertical:  # Tm = translate(0, advance) × Tm
                assert font.cid_font is not None  # only a Type0 font writes vertically
                advance = font.cid_font.vertical_advance(cid) * size + spacing
                e, f = advance * c + e, advance * d + f
            else:  # Tm = translate(advance, 0) × Tm
                advance = (w0 * size + spacing) * th
                e, f = advance * a + e, advance * b + f
            proc = font.charprocs.get(font.glyph_name(code[0]) or "") if type3 and code else None
            queued = proc is not None and self.queue_charproc(proc, font, tm, diags)
            out.append(_make_glyph(code, cid, w0, advance, user, transform(ctm, *user), proc, queued, adjust))
            adjust = 0.0
        self.tm = (a, b, c, d, e, f)
        self.drawn += len(out)
        return out

    def queue_charproc(self, proc: Ref, font: Font, tm: Matrix, diags: list) -> bool:
        """Run ``proc`` after this operator if it shows text (9.6.5: in glyph space, the font
        matrix then the text rendering matrix); whether it was queued."""
        data = _text_showing(self.doc, proc, self.fonts.charprocs)
        if data is None:
            return False
        if proc.num in self.forms or len(self.forms) >= MAX_FORM_DEPTH:
            diags.append(warning("form-cycle", f"glyph procedure {proc} is already being run (or procedures "
                                 f"nest deeper than {MAX_FORM_DEPTH}); not run again", clause="9.6.5"))
            return False
        ts = self.gs.text
        trm = multiply((ts.size * ts.scale / 100.0, 0.0, 0.0, ts.size, 0.0, ts.rise), multiply(tm, self.gs.ctm))
        self.procs.append((proc, data, multiply(font.font_matrix, trm), font))
        return True

    def move_pen(self, amount: float) -> None:
        """A TJ number: move by −amount/1000 × size (× Tz horizontally) (9.4.3)."""
        ts = self.gs.text
        self.adjust += amount
        d = -amount / 1000.0 * ts.size
        assert self.tm is not None  # TJ runs inside a text object
        if self.font is not None and self.font.vertical:
            self.tm = multiply(translate(0.0, d), self.tm)
        else:
            self.tm = multiply(translate(d * ts.scale / 100.0, 0.0), self.tm)

    def next_line(self, tx: float, ty: float) -> None:
        self.tlm = multiply(translate(tx, ty), self.tlm or IDENTITY)
        self.tm = self.tlm
        self.adjust = 0.0


_SHOWS_TEXT = re.compile(rb"(?:Tj|TJ|'|\")(?![^\x00\t\n\x0c\r ()<>\[\]{}/%])")


def _text_showing(doc, ref: Ref, cache: dict) -> bytes | None:
    """The content of the glyph procedure ``ref`` if it shows text, else ``None``; each
    procedure is decoded and scanned once per ``cache``."""
    key = (ref.num, ref.gen)
    if key in cache:
        return cache[key]
    obj = doc.get(ref.num, ref.gen)
    data = doc.stream_data(obj).data if obj is not None and isinstance(obj.value, Stream) else b""
    # a cheap test first: most procedures draw paths or images
    shows = _SHOWS_TEXT.search(data) and any(op.op in TEXT_SHOWING_OPERATORS for op in iter_operations(data))
    cache[key] = data if shows else None
    return cache[key]


_LINK_OR_POPUP = re.compile(rb"/Subtype[\x00\t\n\x0c\r ]*/(?:Link|Popup)(?![^\x00\t\n\x0c\r ()<>\[\]{}/%])")
_MAY_DRAW = re.compile(rb"/(?:AP|F)(?![^\x00\t\n\x0c\r ()<>\[\]{}/%])|#|stream")


def _draws_nothing(doc, ref: Ref) -> bool:
    """Whether the annotation ``ref`` is, by its bytes, a link or pop-up without /AP or /F:
    nothing to draw and nothing to say (:meth:`_Run.appearance`), known without parsing it (a
    document may have tens of thousands of links). False whenever unsure."""
    raw = doc.peek(ref.num, ref.gen)
    return (raw is not None and raw.lstrip().startswith(b"<<") and raw.count(b"/Subtype") == 1
            and _LINK_OR_POPUP.search(raw) is not None and _MAY_DRAW.search(raw) is None)


_Shape = tuple[list[float], float, float, float, float]  # x y pairs, their least and greatest x and y


def _shape(nums: list[float]) -> _Shape:
    xs, ys = nums[0::2], nums[1::2]
    return nums, min(xs), max(xs), min(ys), max(ys)


def _axis_aligned(m: Matrix) -> bool:
    return (m[1] == 0 and m[2] == 0) or (m[0] == 0 and m[3] == 0)


def _rect(doc, value) -> tuple[float, float, float, float] | None:
    r = doc.resolve(value)
    if isinstance(r, Array) and len(r) == 4:
        nums = [doc.resolve(x) for x in r]
        if all(is_number(x) and not isinstance(x, bool) for x in nums):
            x0, y0, x1, y1 = (float(x) for x in nums)
            return x0, y0, x1, y1
    return None


def _matrix(doc, value) -> Matrix:
    m = doc.resolve(value)
    if isinstance(m, Array) and len(m) == 6:
        nums = [doc.resolve(x) for x in m]
        if all(is_number(x) for x in nums):
            a, b, c, d, e, f = (float(x) for x in nums)
            return a, b, c, d, e, f
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
    a, b, c, d, e, f = _nums(ops, 6)
    run.gs = replace(run.gs, ctm=multiply((a, b, c, d, e, f), run.gs.ctm))


def _gs(run, ops, res, diags):
    name = ops[-1]
    ext = run.doc.resolve(run.resource(res, "ExtGState", name, diags))
    changes: dict[str, object] = {"ext_gstate": str(name)}
    if isinstance(ext, Dict):
        for key, field_name in (("LW", "line_width"), ("LC", "line_cap"), ("LJ", "line_join"),
                                ("ML", "miter_limit"), ("ca", "fill_alpha"), ("CA", "stroke_alpha")):
            v = run.doc.resolve(ext.get(key))
            if is_number(v):
                changes[field_name] = v
        bm = run.doc.resolve(ext.get("BM"))
        bm = run.doc.resolve(bm[0]) if isinstance(bm, Array) and len(bm) else bm
        if isinstance(bm, Name):
            changes["blend_mode"] = str(bm)
        smask = run.doc.resolve(ext.get("SMask"))
        if smask is not None:
            changes["soft_mask"] = not (isinstance(smask, Name) and str(smask) == "None")
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
        changes: dict[str, object] = {("stroke_color" if stroke else "fill_color"): values}
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
    value = run.resource(res, "Font", name, diags)
    run.select_font(value, str(name), size)
    if value is None:
        font = run.font
        diags.append(info("font-substituted", f"a default font ({font.base_font}'s widths, {font.encoding_desc}) stands "
                          f"in for /{name}, as MuPDF and pdf.js draw it; the text of its glyphs is a guess", clause="9.3.1"))


def _BT(run, ops, res, diags):
    if run.tm is not None:
        diags.append(warning("bt-nested", "BT inside a text object", clause="9.4.1"))
    run.tm = run.tlm = IDENTITY
    run.text_object += 1
    run.adjust = 0.0
    run.bt_marked = len(run.marked)


def _ET(run, ops, res, diags):
    if run.tm is None:
        diags.append(warning("et-unbalanced", "ET without BT", clause="9.4.1"))
    elif len(run.marked) > run.bt_marked:
        # An ActualText span begun in this text object and left open (its EMC missing) ends
        # here: it replaces the glyphs it was written for, not every word after it (14.6:
        # marked content nests with text objects).
        inner = run.marked[run.bt_marked:]
        if any(m.actual_text is not None for m in inner):
            run.marked = run.marked[:run.bt_marked] + tuple(m for m in inner if m.actual_text is None)
            diags.append(warning("actualtext-unclosed", "a span with /ActualText begun in this text object "
                                 "is still open at ET; ended here", clause="14.6"))
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
    run.adjust = 0.0


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
    raw = props
    if isinstance(props, Name):
        name = str(props)
        raw = run.resource(res, "Properties", props, diags)
        props = run.doc.resolve(raw)
    mcid = actual = None
    if isinstance(props, Dict):
        m = run.doc.resolve(props.get("MCID"))
        mcid = m if is_integer(m) else None
        a = run.doc.resolve(props.get("ActualText"))
        actual = decode_text(a.value, diags) if isinstance(a, String) else None
    oc, hidden = None, False
    if tag == "OC":
        verdict = optional_content(run.doc).judge(raw, named=name is not None)
        oc, hidden = verdict.kind, verdict.hidden
    run.marked += (MarkedContent(str(tag), name, mcid, actual, depth=len(run.forms), oc=oc, oc_hidden=hidden),)


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
    if isinstance(xobj, Stream) and xobj.dict.get("Subtype") == "Image":
        run.paint_image(_opaque(run.doc, xobj.dict, ("ImageMask", "SMask", "Mask")))
    return None


def _opaque(doc, params: Dict, keys) -> bool:
    """An image that hides what is under it: no stencil mask, soft mask or colour key (8.9.6)."""
    return not any(doc.resolve(params.get(k)) not in (None, False) for k in keys)


def _BI(run, ops, res, diags):
    params = ops[0] if ops and isinstance(ops[0], Dict) else Dict()
    run.paint_image(_opaque(run.doc, params, ("IM", "ImageMask", "SMask", "Mask")))


def _path(exact_rect: bool = False):
    def handler(run, ops, res, diags):
        if exact_rect:  # x y w h: its four corners
            x, y, w, h = _nums(ops, 4)
            run.add_points((x, y, x + w, y + h, x, y + h, x + w, y), run.path is None)
        else:
            run.add_points(ops)
    return handler


def _painter(fill: bool):
    def handler(run, ops, res, diags):
        run.paint(fill)
    return handler


def _clip(run, ops, res, diags):
    run.clipping = True


def _sh(run, ops, res, diags):
    clip = run.gs.clip or (-1e9, -1e9, 1e9, 1e9)  # no clip: the whole page
    if clip[2] > clip[0] and clip[3] > clip[1]:
        run.painted = Painted("shading", clip, False, False, run.composited > 0)




# -- the fast path (drawn_only): handlers of the tokenizer's QUICK groups, (run, match) -> None ---
def _number(raw: bytes) -> int | float:
    """A number as the tokenizer reads it: a real when it has a point."""
    return float(raw) if b"." in raw else int(raw)


def _quick_q(run, m):
    if m.group("q") == b"q":
        if len(run.stack) < MAX_SAVED_STATES:
            run.settle()
            run.stack.append((run.gs, run.font))
    elif run.stack:
        run.changes = {}
        run.gs, run.font = run.stack.pop()


def _quick_style(run, m):
    """The operators of a colour, a line width, cap, join, miter limit, flatness or dash: the
    fields they set, read once per run for each way they are written (a page repeats its styles)."""
    key = m.string[m.start("s"):m.end()]
    fields = run.styles.get(key)
    if fields is None:
        if len(run.styles) >= MAX_STYLES:
            run.styles.clear()
        fields = run.styles[key] = _style(m)
    run.changes.update(fields)


def _style(m) -> dict[str, object]:
    """The fields of the graphics state an operator of :func:`_quick_style` sets."""
    kind = m.lastgroup
    if kind == "phase":  # [numbers] phase d
        return {"dash": (tuple(_number(x) for x in _NUMBERS.findall(m.group("dash"))), _number(m.group("phase")))}
    assert kind is not None
    op = m.group(kind)
    values = tuple([_number(x) for x in _NUMBERS.findall(m.string, m.start("s"), m.start(kind))])
    if op in _SPACES:  # g G rg RG k K
        stroke, space = _SPACES[op]
        return {"stroke_space": space, "stroke_color": values} if stroke else {"fill_space": space, "fill_color": values}
    if op == b"J" or op == b"j":
        return {"line_cap" if op == b"J" else "line_join": int(values[0])}
    return {_FLOAT_FIELDS[op]: float(values[0])}


def _quick_cm(run, m):
    a, b, c, d, e, f = map(float, _NUMBERS.findall(m.string, m.start("s"), m.start("cm")))
    run.changes["ctm"] = multiply((a, b, c, d, e, f), run.changes.get("ctm") or run.gs.ctm)


_QUICK_RUN = {"q": _quick_q, "o1": _quick_style, "o3": _quick_style, "o4": _quick_style, "cm": _quick_cm,
              "phase": _quick_style}
_SPACES = {b"g": (False, "DeviceGray"), b"G": (True, "DeviceGray"), b"rg": (False, "DeviceRGB"),
           b"RG": (True, "DeviceRGB"), b"k": (False, "DeviceCMYK"), b"K": (True, "DeviceCMYK")}  # stroke?, space
MAX_STYLES = 4096  # ways of writing a style (or a path) remembered per page run
_NUMBERS = re.compile(rb"[-+.0-9]+")  # the numbers of a QUICK group (nothing else is in it)
_NOT_PATH_OPS = bytes(b for b in range(256) if b not in b"mlcvyhr")  # deleted, leaves a letter an operator
_NO_LIMIT = 1 << 62  # operators, when there is no budget
_STROKES = frozenset((b"S", b"s", b"n"))  # painting operators that fill nothing
_FLOAT_FIELDS = {b"w": "line_width", b"M": "miter_limit", b"i": "flatness"}
_finite = math.isfinite


_SHOWING = frozenset(info.name for info in OPERATORS.values() if info.shows_text)
_OP_NAMES = {op: op.decode("latin-1") for op in OPERATORS}  # the operators' names, decoded once
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
    "BMC": _BMC, "BDC": _BDC, "EMC": _EMC, "Do": _Do, "BI": _BI, "sh": _sh,
    "m": _path(), "l": _path(), "c": _path(), "v": _path(), "y": _path(), "h": _path(),
    "re": _path(True), "W": _clip, "W*": _clip,
    "S": _painter(False), "s": _painter(False), "n": _painter(False),
    "f": _painter(True), "F": _painter(True), "f*": _painter(True), "B": _painter(True),
    "B*": _painter(True), "b": _painter(True), "b*": _painter(True),
}
