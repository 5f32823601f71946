"""Page text built glyph by glyph from plain numbers: the text layout of :mod:`.textlayout`
without a record, step or gap object per glyph.

:class:`TextLines` makes the decisions of :func:`.textlayout.layout` over
:func:`.gaps.glyph_layouts` — where a line starts, where a space goes, which accent is
composed with its letter — from what they read of each glyph: its Unicode, its origin and
its end on the page, and the frame of the string that drew it (:class:`Run`: the baseline's
unit vector, angle and em, and what links it to the glyph before for the letter-spacing
share of a gap). Each float is computed by the same expression, in the same order, as
there, so the text is the same byte for byte; ``tests/test_textscan.py`` checks it against
the full interpreter. :mod:`.textscan` feeds it from its own scan of the content;
:func:`add_records` feeds it glyph records of the full interpreter (annotation appearances).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable

from .gaps import ANGLE_TOLERANCE, BACKWARDS, LINE_JUMP
from .state import Matrix, multiply
from .textlayout import OVERLAP, SPACE_GAP, GlyphRecord, _compose

# A glyph's direction (gaps.DIRECTIONS) starts a line where it changes, except between
# ``ltr`` and ``rtl``: so only its class matters here, which is the run's.
HORIZONTAL, ROTATED, VERTICAL = "horizontal", "rotated", "vertical"


@dataclass(slots=True)
class Run:
    """The frame of one text-showing operator's glyphs (all share it).

    ``link`` is what ties a glyph to the one before for the letter-spacing share of their gap
    (annotation, form, text object and line matrix, as :func:`.gaps._causes` compares them);
    ``step`` numbers the operator and ``quote`` says it is ``'`` or ``"`` (a glyph of such an
    operator is tied only to glyphs of the same operator). Tc's share of the gap after a glyph
    is ``tc`` × ``th`` × ``unit`` / em × ``sign``.
    """

    link: object
    step: int
    quote: bool
    tc: float
    th: float  # Tz / 100 (1 in vertical writing)
    unit: float  # the text space unit's length on the page along the writing direction
    sign: float  # -1 in vertical writing
    ux: float  # the baseline's unit vector on the page
    uy: float
    angle: float  # the baseline's angle on the page, degrees
    em: float  # the font size on the page, points
    direction: str  # HORIZONTAL, ROTATED or VERTICAL
    straight: bool = True  # the angle is a number (a NaN angle starts a line at every glyph)
    own_spacing: float = 0.0  # max(Tc's share of a gap, 0) between two glyphs of this run, em

    def __post_init__(self) -> None:
        self.straight = abs(self.angle - self.angle) <= ANGLE_TOLERANCE
        if self.tc:
            self.own_spacing = max(self.spacing(self.em), 0.0)

    def spacing(self, em: float) -> float:
        """Tc's share of the gap after a glyph of this run, in ``em`` (as gaps.Gap.parts has it)."""
        return round(self.tc * self.th * (self.unit / em) * self.sign, 6)


def make_run(link: object, step: int, quote: bool, tm: Matrix, ctm: Matrix, size: float, tc: float,
             scale: float, vertical: bool) -> tuple[Run, float, float]:
    """The :class:`Run` of glyphs drawn with the text matrix ``tm`` under ``ctm`` (font size
    ``size``, Tc ``tc``, Tz ``scale``), computed as :func:`.gaps.glyph_layouts` does, and the
    text space unit vector along the writing direction on the page (where a glyph's width
    takes its end)."""
    m = multiply(tm, ctm)
    if vertical:
        ux, uy = _unit(-m[2], -m[3])
    else:
        ux, uy = _unit(m[0], m[1])
    angle = round(math.degrees(math.atan2(uy, ux)) + (90.0 if vertical else 0.0), 1)
    angle = 0.0 if angle == -0.0 else angle
    em = abs(size) * math.hypot(m[2], m[3]) if not vertical else abs(size) * math.hypot(m[0], m[1])
    if vertical:
        return Run(link, step, quote, tc, 1.0, math.hypot(m[2], m[3]), -1.0, ux, uy, angle, em or 1.0,
                   VERTICAL), m[2], m[3]
    direction = ROTATED if abs(angle) > ANGLE_TOLERANCE else HORIZONTAL
    return Run(link, step, quote, tc, scale / 100.0, math.hypot(m[0], m[1]), 1.0, ux, uy, angle, em or 1.0,
               direction), m[0], m[1]


def _unit(x: float, y: float) -> tuple[float, float]:
    n = math.hypot(x, y)
    return (x / n, y / n) if n else (1.0, 0.0)


class TextLines:
    """The lines of one page's text, glyph by glyph (:meth:`add`); :meth:`text` at the end, or
    (made with ``steps``) :meth:`spans`: the text and, for each of its characters, the operator
    that drew it (its run's ``step``), as :func:`.textlayout.layout_spans` gives them."""

    __slots__ = ("lines", "line", "marks", "shown", "run", "ex", "ey", "steps")

    def __init__(self, steps: bool = False) -> None:
        self.lines: list[str] = []
        self.line: list[str] = []
        self.marks: list[Run | None] = []  # for each piece of ``line``, its glyph's run (None: an inferred space)
        self.shown = False  # the line has text (an unmapped glyph adds none)
        self.run: Run | None = None  # the previous glyph's, and where it ended
        self.ex = self.ey = 0.0
        # with ``steps``: the step of each character of ``lines`` and of the line ends between them
        self.steps: list[int] | None = [] if steps else None

    def add(self, run: Run, text: str, x: float, y: float, ex: float, ey: float) -> None:
        """A glyph of ``run`` whose text is ``text``, drawn at ``(x, y)`` and ending at
        ``(ex, ey)`` on the page (its origin moved by its own width, without Tc or Tw)."""
        pr, dx, dy = self.run, x - self.ex, y - self.ey
        self.run, self.ex, self.ey = run, ex, ey
        if pr is None:
            self.line.append(text)
            self.marks.append(run)
            self.shown = bool(text)
            return
        em = run.em
        if pr is run:  # the same frame: the same em, direction and angle, linked
            along, across = dx * run.ux + dy * run.uy, -dx * run.uy + dy * run.ux
            if not run.straight or abs(across) > LINE_JUMP * em or along < -BACKWARDS * em:
                self.new_line(text, run)
                return
            gap = (along / em - run.own_spacing) * em / em
        else:
            pem = pr.em
            along, across = dx * pr.ux + dy * pr.uy, -dx * pr.uy + dy * pr.ux
            big = max(pem, em)
            if pr.direction != run.direction or not abs(pr.angle - run.angle) <= ANGLE_TOLERANCE \
                    or abs(across) > LINE_JUMP * big or along < -BACKWARDS * big:
                self.new_line(text, run)
                return
            spacing = 0.0
            if pr.tc and pr.link == run.link and (pr.step == run.step or not run.quote):
                spacing = pr.spacing(pem)
            gap = (along / pem - max(spacing, 0.0)) * pem / big
        line = self.line
        if gap > SPACE_GAP and self.shown and not line[-1].endswith(" ") and not text.startswith(" "):
            line.append(" ")
            self.marks.append(None)
        elif gap < -OVERLAP and line and (composed := _compose(line[-1], text)):
            line[-1] = composed  # the first of the two glyphs keeps it
            return
        line.append(text)
        self.marks.append(run)
        self.shown = self.shown or bool(text)

    def new_line(self, text: str, run: Run) -> None:
        joined = "".join(self.line)
        line = joined.rstrip()
        if self.steps is not None:
            if self.lines:
                self.steps.append(-1)  # the line end before this line
            self.steps.extend(_line_steps(self.line, self.marks, len(joined), len(line)))
        self.lines.append(line)
        self.line, self.marks = [text], [run]
        self.shown = bool(text)

    def text(self) -> str:
        """The page's text: its lines, each ended by a line feed (empty with no glyph)."""
        if self.run is None:
            return ""
        return "\n".join(self.lines + ["".join(self.line).rstrip()]) + "\n"

    def spans(self) -> tuple[str, list[int]]:
        """:meth:`text`, and for each of its characters the step of the operator that drew it
        (-1 for an inferred space or a line end; a composed accent is its first glyph's); the
        lines must have been made with ``steps``."""
        assert self.steps is not None
        text = self.text()
        if not text:
            return text, []
        joined = "".join(self.line)
        last = _line_steps(self.line, self.marks, len(joined), len(joined.rstrip()))
        steps = self.steps + ([-1] if self.lines else []) + last + [-1]
        return text, steps


def _line_steps(pieces: list[str], marks: list[Run | None], length: int, n: int) -> list[int]:
    """The step of each of the first ``n`` characters of a line made of ``pieces`` (each
    glyph's text, or an inferred space; ``length`` characters in all), drawn by the runs ``marks``."""
    if length == len(pieces) and "" not in pieces:  # every piece one character
        return [-1 if m is None else m.step for m in marks[:n]]
    steps: list[int] = []
    for piece, m in zip(pieces, marks):
        steps.extend([-1 if m is None else m.step] * len(piece))
    return steps[:n]


def add_records(lines: TextLines, records: Iterable[GlyphRecord], offset: int = 0) -> None:
    """Add the glyph records of the full interpreter to ``lines``, as :func:`.textlayout.layout`
    lays them out (a Type3 glyph whose procedure shows text gives way to that text); their
    steps' indices are counted from ``offset`` (the operators run before them)."""
    run: Run | None = None
    last = None
    for r in records:
        g, step = r.glyph, r.step
        if g.proc_text:
            continue
        ts = step.gstate.text
        vertical = step.font is not None and step.font.vertical
        if step is not last:
            assert step.tm is not None  # a step that shows glyphs has its text matrix
            last = step
            run, ax, ay = make_run((step.annotation, step.source, step.text_object, step.tlm), step.index + offset,
                                   step.op in ("'", '"'), step.tm, step.gstate.ctm, ts.size, ts.char_spacing,
                                   ts.scale, vertical)
        assert run is not None
        spacing = ts.char_spacing + (ts.word_spacing if g.code == b" " else 0.0)
        width = g.advance - spacing if vertical else g.advance - spacing * (ts.scale / 100.0)
        x, y = g.page_xy
        lines.add(run, r.unicode, x, y, x + width * ax, y + width * ay)
