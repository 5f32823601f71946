"""Glyphs of a page with their Unicode, and page text by a line heuristic.

:func:`page_glyphs` joins the interpreter and the resolver: one :class:`GlyphRecord` per
glyph in drawing order (forms included), with ``/ActualText`` (14.9.4) replacing the
text of the glyphs it covers — the first covered glyph carries the whole replacement, the
others none. :func:`page_text` lays the records out like hpdft, over the gap model of
:mod:`.gaps` (measured in each glyph's own frame, so rotated and vertical lines stay
whole): a new line starts when the pen moves back or its baseline jumps by more than a
fraction of the font size; a space goes where the gap from the end of the previous glyph
(its width, not its Tc or Tw) less any letter spacing Tc is wider than :data:`SPACE_GAP` em. A
spacing accent drawn over the next or previous letter (TeX's OT1 fonts build ö from ¨ and
o) is composed with it, as pdftotext does; ``glyphs`` still shows both glyphs. A Type3
glyph whose procedure shows text gives way to that text.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Iterator

from ..core.objects import Ref
from ..fonts.codes import ACTUAL_TEXT_REPLACES
from ..fonts.font import FontCache
from ..fonts.resolve import ACTUAL_TEXT, HIT, PathStep, Resolution, Resolver
from .gaps import glyph_layouts
from .geometry import Geometry, GlyphBox
from .interpreter import Budget, Glyph, Step, iter_steps
from .state import MarkedContent

SPACE_GAP = 0.15  # gap, in em, that reads as a space (lines: gaps.LINE_JUMP and gaps.BACKWARDS)
OVERLAP = 0.1  # move back, in em, that puts a glyph over the previous one
# Spacing accents and the combining marks they stand for (Unicode's compatibility mappings).
COMBINING = {"\u00a8": "\u0308", "\u00b4": "\u0301", "`": "\u0300", "\u02c6": "\u0302", "^": "\u0302",
             "\u02dc": "\u0303", "~": "\u0303", "\u00af": "\u0304", "\u02d8": "\u0306",
             "\u02d9": "\u0307", "\u02da": "\u030a", "\u00b8": "\u0327", "\u02db": "\u0328",
             "\u02c7": "\u030c", "\u02dd": "\u030b"}


def _compose(a: str, b: str) -> str | None:
    """``a`` and ``b`` drawn over each other as one precomposed letter, if they make one."""
    accent, letter = (a, b) if a in COMBINING else (b, a)
    if accent not in COMBINING or len(letter) != 1 or not letter.isalpha():
        return None
    composed = unicodedata.normalize("NFC", letter + COMBINING[accent])
    return composed if len(composed) == 1 else None


@dataclass(frozen=True, slots=True)
class GlyphRecord:
    """A glyph with its resolution; ``unicode``/``method`` are final (after ActualText)."""

    index: int
    step: Step
    glyph: Glyph
    resolution: Resolution
    unicode: str
    method: str
    actual_text: MarkedContent | None = None
    bbox: GlyphBox | None = None  # given when the records were made with a Geometry

    @property
    def path(self) -> tuple[PathStep, ...]:
        if self.actual_text is None:
            return self.resolution.path
        note = PathStep(ACTUAL_TEXT, None, f"marked content /{self.actual_text.tag}",
                        "/ActualText", HIT, "replaces the text of every glyph it covers"
                        + ("" if self.unicode else " (given with the first covered glyph)"),
                        self.unicode, code=ACTUAL_TEXT_REPLACES)
        return self.resolution.path + (note,)


def page_glyphs(doc, page_ref: Ref, resolver: Resolver | None = None,
                fonts: FontCache | None = None, budget: Budget | None = None, *,
                annots: bool = True, boxes: bool = True) -> Iterator[GlyphRecord]:
    """Every glyph drawn on the page, resolved, in drawing order: the page content, then
    (``annots``) the annotations' appearance streams (within ``budget``, see iter_steps);
    each with its ``bbox`` unless ``boxes`` is false."""
    for _, records in page_steps(doc, page_ref, resolver, fonts, budget, annots=annots, boxes=boxes):
        yield from records


def page_steps(doc, page_ref: Ref, resolver: Resolver | None = None, fonts: FontCache | None = None,
               budget: Budget | None = None, *, annots: bool = True, boxes: bool = True,
               paints: list | None = None) -> Iterator[tuple[Step, list[GlyphRecord]]]:
    """The steps of the page that draw (glyphs or a paint: ``iter_steps``'s ``drawn_only``) with
    the glyph records each draws (as :func:`page_glyphs`); with ``paints``, most paints are
    recorded there instead (``iter_steps``'s ``paints``)."""
    resolver = resolver or Resolver.of(doc)
    used: set[int] = set()
    given: list[MarkedContent | None] = []  # keeps the sequences in ``used`` alive, so no id is reused
    geometry = Geometry(doc) if boxes else None
    n = 0
    for step in iter_steps(doc, page_ref, fonts, budget, annots=annots, drawn_only=True, paints=paints):
        before = len(used)
        records = step_records(step, resolver, used, n, geometry)
        if len(used) > before:
            given.append(records[0].actual_text)
        n += len(records)
        yield step, records


def step_records(step: Step, resolver: Resolver, used: set[int], start: int,
                 geometry: Geometry | None = None) -> list[GlyphRecord]:
    """The glyph records of one step, numbered from ``start``; ``used`` holds the id() of
    the ActualText sequences whose text was already given (pass the same set for a page,
    and keep those sequences alive while it is in use: a freed one's id can be reused).
    With ``geometry``, each record has its ``bbox``."""
    if not step.glyphs:
        return []
    actual = next((m for m in step.marked if m.actual_text is not None), None)
    boxes = geometry.boxes(step) if geometry is not None else []
    if not boxes:
        boxes = [None] * len(step.glyphs)
    font, resolve = step.font, resolver.resolve
    assert font is not None  # a step that shows glyphs has its font
    out = []
    for n, g, box in zip(range(start, start + len(step.glyphs)), step.glyphs, boxes):
        res = resolve(font, g.code, g.cid)
        if actual is None:
            out.append(GlyphRecord(n, step, g, res, res.unicode, res.method, None, box))
        else:
            first = id(actual) not in used
            used.add(id(actual))
            out.append(GlyphRecord(n, step, g, res, (actual.actual_text or "") if first else "", ACTUAL_TEXT, actual,
                                   box))
    return out


def layout(records) -> str:
    """Text of glyph records with the line heuristic (see the module docstring)."""
    return layout_spans(records)[0]


def layout_spans(records) -> tuple[str, list[GlyphRecord | None]]:
    """:func:`layout`'s text, and for each of its characters the record that drew it (``None``
    for an inferred space or a line end); a composed accent belongs to its letter's record."""
    records = [r for r in records if not r.glyph.proc_text]  # its glyph procedure's own text follows
    lines: list[str] = []
    owners: list[GlyphRecord | None] = []
    line: list[str] = []
    line_owners: list[GlyphRecord | None] = []  # one a piece of ``line``
    shown = False  # the line has text (an unmapped glyph adds none)

    def end_line() -> None:
        text = "".join(line).rstrip()
        lines.append(text)
        if len(lines) > 1:
            owners.append(None)  # the line end before this line
        for piece, owner in zip(line, line_owners):
            owners.extend([owner] * len(piece))
        del owners[len(owners) - (sum(map(len, line)) - len(text)):]  # what rstrip removed

    for r, lay in zip(records, glyph_layouts(records)):
        gap = lay.gap
        if lay.starts_line:
            if line or lines:
                end_line()
            line, line_owners, shown = [], [], False
        elif gap is not None:
            # letter spacing (a positive Tc) is no word boundary; everything else counts, in
            # the larger em of the two glyphs (a subscript's small em makes no space)
            along = (gap.along_em - max(gap.part("char_spacing"), 0.0)) * gap.em_pt / max(gap.em_pt, lay.em_pt)
            if along > SPACE_GAP and shown and not line[-1].endswith(" ") and not r.unicode.startswith(" "):
                line.append(" ")
                line_owners.append(None)
            elif along < -OVERLAP and line and (composed := _compose(line[-1], r.unicode)):
                line[-1] = composed
                continue
        line.append(r.unicode)
        line_owners.append(r)
        shown = shown or bool(r.unicode)
    if line:
        end_line()
    text = "\n".join(lines) + ("\n" if lines else "")
    if lines:
        owners.append(None)
    return text, owners


def page_text(doc, page_ref: Ref, resolver: Resolver | None = None, annots: bool = True) -> str:
    return layout(page_glyphs(doc, page_ref, resolver, annots=annots, boxes=False))
