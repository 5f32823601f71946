"""What every emulated extractor shares: glyph records seen as positioned items, and the decisions.

An emulation is a pure function over the glyph records of a page
(:func:`pdfinspect.content.textlayout.page_glyphs`). It never runs the real extractor. For
each glyph it decides a :class:`Decision`: the text the extractor outputs for it (its own
fallback chain for a code with no Unicode), whether it keeps the glyph, and what comes
before it — nothing, a space or a line break — with the rule and the constant that decided.
Each extractor module states its constants with the source file they come from.

Distances are measured as the extractors measure them: along and across the baseline of
the previous glyph, in page space, divided by a font size (:class:`Item`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

from ..content.state import multiply
from ..content.textlayout import GlyphRecord
from ..fonts.agl import glyph_to_unicode
from ..fonts.encodings import base_encoding
from ..fonts.resolve import ACTUAL_TEXT, HIT, NONE, SPEC_METHODS, TOUNICODE
from ..spec import extractors as facts

NOTHING, SPACE, LINE = "", " ", "\n"
Box = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class Page:
    """What emulations need of the page: its MediaBox and CropBox (left, bottom, right, top)
    and its /Rotate (0, 90, 180, 270)."""

    media: Box | None = None
    crop: Box | None = None
    rotate: int = 0

    def upright(self, x: float, y: float) -> tuple[float, float]:
        """(x, y) in the page turned by /Rotate, as pdfminer.six's interpreter sets its CTM
        (``pdfinterp.py`` ``process_page``)."""
        x0, y0, x1, y1 = self.media or (0.0, 0.0, 0.0, 0.0)
        if self.rotate == 90:
            return y - y0, x1 - x
        if self.rotate == 180:
            return x1 - x, y1 - y
        if self.rotate == 270:
            return y1 - y, x - x0
        return x, y


@dataclass(frozen=True, slots=True)
class Item:
    """A glyph record placed as extractors place it: ``origin`` and ``end`` (the pen after
    its advance) on the page, the unit ``direction`` of its baseline, ``size`` the font size on
    the page (the text rendering matrix's expansion), ``width`` its w0 advance on the page
    (no Tc, Tw), ``rect`` its box (left, bottom, right, top)."""

    record: GlyphRecord
    origin: tuple[float, float]
    end: tuple[float, float]
    direction: tuple[float, float]
    size: float
    width: float
    rect: tuple[float, float, float, float]
    vertical: bool
    unit: float = 1.0  # one text space unit along the baseline, on the page (Tz included)

    def gap(self, prev: "Item") -> tuple[float, float]:
        """(along, across) from the end of ``prev`` to this glyph's origin, along ``prev``'s
        baseline (positive: forward) and across it (positive: up), in points."""
        dx, dy = self.origin[0] - prev.end[0], self.origin[1] - prev.end[1]
        ux, uy = prev.direction
        return dx * ux + dy * uy, -dx * uy + dy * ux


def items(recs: Iterable, shared: "dict[int, Item] | None" = None) -> list[Item]:
    """:func:`make_item` of each record; with ``shared`` (a page's items so far, by the id of
    their record), each made once for all the emulations of the page."""
    if shared is None:
        return [make_item(r) for r in recs]
    out = []
    for r in recs:
        item = shared.get(id(r))
        if item is None:
            item = shared[id(r)] = make_item(r)
        out.append(item)
    return out


def make_item(record) -> Item:
    step, glyph = record.step, record.glyph
    ts = step.gstate.text
    m = multiply(step.tm, step.gstate.ctm) if step.tm is not None else step.gstate.ctm
    th = ts.scale / 100.0
    fs = ts.size or 1.0
    sign = -1.0 if fs * th < 0 else 1.0  # a negative size or Tz draws backwards
    size = math.sqrt(abs(fs * th * fs * (m[0] * m[3] - m[1] * m[2]))) or abs(fs)
    vertical = step.font is not None and step.font.vertical
    if vertical:
        vx, vy = -m[2] * sign, -m[3] * sign
    else:
        vx, vy = m[0] * sign, m[1] * sign
    norm = math.hypot(vx, vy) or 1.0
    ux, uy = vx / norm, vy / norm
    ox, oy = glyph.page_xy
    adv = abs(glyph.advance) * (math.hypot(m[2], m[3]) if vertical else norm)
    width = abs(glyph.width * fs * th) * norm
    rect = record.bbox.rect if record.bbox is not None else (ox, oy, ox + adv * ux, oy + size)
    return Item(record, (ox, oy), (ox + adv * ux, oy + adv * uy), (ux, uy), size or 1.0, width, rect, vertical,
                th * norm)


@dataclass(frozen=True, slots=True)
class Decision:
    """What one extractor does with one glyph: ``text`` it outputs (empty when dropped),
    ``kept``, ``before`` (``""``, ``" "`` or ``"\\n"``), and the ``rule`` (an id) with
    ``detail`` (the sentence: measure, constant, source) that decided ``before`` or the drop."""

    record: GlyphRecord
    text: str
    kept: bool
    before: str = NOTHING
    rule: str = ""
    detail: str = ""
    text_rule: str = ""  # how the text was found when it is not our Unicode (e.g. "cid-placeholder")


@dataclass(frozen=True, slots=True)
class Emulation:
    """An extractor's emulated output for a page: one decision per glyph in output order."""

    name: str
    decisions: tuple[Decision, ...] = field(default_factory=tuple)

    @property
    def text(self) -> str:
        out: list[str] = []
        for d in self.decisions:
            if d.kept:
                if out or d.before != LINE:
                    out.append(d.before)
                out.append(d.text)
        return "".join(out) + ("\n" if out else "")

    def spans(self) -> list[tuple[str, Decision | None, bool]]:
        """The text in pieces: (piece, decision, inferred) — a separator piece is inferred and
        belongs to the decision of the glyph after it."""
        out: list[tuple[str, Decision | None, bool]] = []
        for d in self.decisions:
            if not d.kept:
                continue
            if d.before and (out or d.before != LINE):
                out.append((d.before, d, True))
            out.append((d.text, d, False))
        return out


def spec_text(record, name: str, actual_text: bool) -> str | None:
    """Our Unicode for ``record`` as extractor ``name`` finds it: the spec's methods, or a
    heuristic that ``name`` applies (:data:`pdfinspect.spec.extractors.HEURISTIC_USERS`);
    ``None`` when it finds nothing. ``actual_text``: the extractor honours /ActualText."""
    if record.method == ACTUAL_TEXT:
        if actual_text:
            return record.unicode
        res = record.resolution
    else:
        res = record.resolution
    font = record.step.font
    if font is not None and font.is_type0 and font.tounicode is not None and res.path \
            and res.path[0].method == TOUNICODE and res.path[0].result != HIT:
        return None  # a composite font's ToUnicode is the only table read: a miss is unmapped
    if res.method in SPEC_METHODS:
        return res.unicode
    if res.method == NONE:
        return None
    if name in facts.users(res.method):  # a guess keeps its text in its path step only
        return res.unicode or next((s.unicode for s in res.path if s.method == res.method and s.result == HIT
                                    and s.unicode), None)
    if res.spec_unicode:
        return res.spec_unicode
    if name in facts.users("BaseEncodingFallback") and font is not None and not font.is_type0:
        return base_encoding_text(font, record.glyph.code) or None
    return None


def base_encoding_text(font, code: bytes) -> str:
    """The character the font's base encoding (else StandardEncoding) gives ``code``: what a
    reader keeps for a /Differences name it cannot map (``BaseEncodingFallback``)."""
    table = base_encoding(font.encoding_base or "StandardEncoding")
    if table is None or len(code) != 1:
        return ""
    name = table[code[0]]
    return glyph_to_unicode(name).unicode if name else ""


def code_of(record) -> int:
    return record.glyph.cid if record.glyph.cid is not None else int.from_bytes(record.glyph.code, "big")


def source_records(records: Iterable, annots: bool, type3_text: bool = True) -> list:
    """The records an extractor sees: without annotation appearances unless ``annots``;
    a Type3 glyph whose procedure shows text gives way to that text (``type3_text``)."""
    out = []
    for r in records:
        if not annots and r.step.annotation is not None:
            continue
        if type3_text and r.glyph.proc_text:
            continue
        out.append(r)
    return out


Decide = Callable[[Item, Item, str, str], tuple[str, str, str]]


def flow(name: str, items: Sequence[Item], texts: Sequence[tuple[str, str]], decide: Decide,
         drops: Sequence[tuple[str, str]] | None = None) -> Emulation:
    """Decisions in the items' order: ``texts`` (text, text rule) per item; ``drops`` (rule,
    detail) per item, empty rule when kept; ``decide(prev, cur, prev_text, text)`` gives
    (separator, rule, detail) between consecutive kept glyphs."""
    out: list[Decision] = []
    prev: Item | None = None
    prev_text = ""
    for i, (item, (text, text_rule)) in enumerate(zip(items, texts)):
        drop = drops[i] if drops is not None else ("", "")
        if drop[0] or not text:
            out.append(Decision(item.record, "", False, NOTHING, drop[0] or "no-text",
                                drop[1] or "no text for this glyph", text_rule))
            continue
        sep, rule, detail = (NOTHING, "first", "") if prev is None else decide(prev, item, prev_text, text)
        out.append(Decision(item.record, text, True, sep, rule, detail, text_rule))
        prev, prev_text = item, text
    return Emulation(name, tuple(out))


def em(value: float, size: float) -> str:
    return f"{value / size:.3f} em" if size else f"{value:.2f} pt"


def space_widths(records: Iterable) -> dict:
    """Font → the width of its space glyph (w0, em fraction), or 0.0 when it has none: a
    glyph on the page that reads " " gives it, else code 32 of a simple font."""
    out: dict = {}
    for r in records:
        font = r.step.font
        if font is None:
            continue
        if r.unicode == " " and r.glyph.width > 0 and out.get(font, 0.0) == 0.0:
            out[font] = r.glyph.width
        elif font not in out:
            out[font] = 0.0 if font.is_type0 else font.glyph_width(b" ")
    return out


def optional_content(item: Item) -> tuple[tuple[str, bool], ...]:
    """The optional content the glyph is drawn in, innermost last: for each ``/OC`` marked
    content, form or annotation, the kind of rule it was judged by
    (:data:`pdfinspect.core.optional.KINDS`) and whether the default view hides it by the
    spec. Readers that honour optional content differ on the kinds."""
    return tuple((m.oc, m.oc_hidden) for m in item.record.step.marked if m.oc is not None)


def off_page(item: Item, page_box: Box | None, slack: float = 1.0) -> bool:
    """The glyph's origin lies outside the page box (by more than ``slack`` points)."""
    if page_box is None:
        return False
    x, y = item.origin
    return not (page_box[0] - slack <= x <= page_box[2] + slack and page_box[1] - slack <= y <= page_box[3] + slack)
