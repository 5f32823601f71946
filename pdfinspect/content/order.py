"""Reading orders of a page's glyphs: ``content``, ``structure`` and ``columns``.

- ``content``: the order the content stream draws them (what ``text`` always gave).
- ``structure``: the structure tree's order (ISO 32000-1 14.7, 14.8.2.3): the glyphs of
  each marked-content reference of this page, as a depth-first walk of /K meets it; glyphs
  no element claims (artifacts, untagged content) follow in content order. A page of an
  untagged document keeps its content order.
- ``columns``: our own column-aware order, from geometry alone. The page's lines (found by
  the line heuristic of :mod:`.textlayout`) are measured; a *gutter* is a vertical strip at
  least :data:`GUTTER` font sizes wide that no line narrower than :data:`WIDE` of the text
  width crosses, with text on both sides. Going down the page, lines that cross a gutter
  (titles, full-width paragraphs) are read where they stand and close a *band*; within a
  band, each column is read top to bottom, left column first.

:func:`line_orders` gives the page's lines once (the line heuristic over the content order)
and each order as a permutation of them, so a front end can number the same lines in every
order (the app's preview, the Extractors screen).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..core.objects import Ref
from ..fonts.resolve import Resolver
from .textlayout import GlyphRecord, layout, layout_spans

if TYPE_CHECKING:  # imported where used: ``glyphs`` and the app import ORDERS, not the structure tree
    from ..core.structtree import StructTree
    from .structure import PageMarks

ORDERS = ("content", "structure", "columns")
GUTTER = 1.0  # minimum gutter width, in (median) font sizes
WIDE = 0.6  # lines wider than this share of the text width do not hide gutters


def ordered_records(doc, page: int, page_ref: Ref, order: str,
                    resolver: Resolver | None = None) -> list[GlyphRecord]:
    """The page's glyph records (page content, no annotations) in ``order``."""
    from ..core.structtree import read_structure
    from .structure import page_marks

    if order not in ORDERS:
        raise ValueError(f"unknown order {order!r}: one of {', '.join(ORDERS)}")
    marks = page_marks(doc, page, page_ref, resolver)
    if order == "content":
        return marks.records
    if order == "columns":
        return [r for line in column_order(marks.records) for r in line]
    tree = read_structure(doc)
    if tree is None:
        return marks.records
    claimed = _claimed(tree, marks)
    taken = {r.index for r in claimed}
    return claimed + [r for r in marks.records if r.index not in taken]


def _claimed(tree: StructTree, marks: PageMarks) -> list[GlyphRecord]:
    """The page's glyphs that structure elements claim, in the tree's order (each once)."""
    out: list[GlyphRecord] = []
    taken: set[int] = set()
    for item in tree.marked_refs():
        if item.page != marks.page:
            continue
        for r in marks.of(item):
            if r.index not in taken:
                taken.add(r.index)
                out.append(r)
    return out


def ordered_text(doc, page: int, page_ref: Ref, order: str, resolver: Resolver | None = None) -> str:
    """The page text in ``order``; in the ``columns`` order each line is laid out on its own
    (the next column's line may stand on the same baseline)."""
    from .structure import page_marks

    if order == "columns":
        lines = column_order(page_marks(doc, page, page_ref, resolver).records)
        return "".join(layout(line) for line in lines)
    return layout(ordered_records(doc, page, page_ref, order, resolver))


@dataclass(slots=True)
class _Line:
    records: list[GlyphRecord]
    x0: float
    x1: float
    y: float
    size: float


def _lines(records: list[GlyphRecord]) -> list[_Line]:
    from statistics import median

    text, owners = layout_spans(records)
    groups: list[list[GlyphRecord]] = [[]]
    for ch, owner in zip(text, owners):
        if ch == "\n":
            groups.append([])
        elif owner is not None and (not groups[-1] or groups[-1][-1] is not owner):
            groups[-1].append(owner)
    placed = {id(r) for g in groups for r in g}
    if len(placed) < len(records):  # glyphs layout left out (Type3 procedures' own text): keep them
        groups.append([r for r in records if id(r) not in placed])
    out = []
    for g in groups:
        if not g:
            continue
        lefts = [r.bbox.rect[0] if r.bbox else r.glyph.page_xy[0] for r in g]
        rights = [r.bbox.rect[2] if r.bbox else r.glyph.page_xy[0] for r in g]
        sizes = [abs(r.bbox.rect[3] - r.bbox.rect[1]) if r.bbox else 0.0 for r in g]
        out.append(_Line(g, min(lefts), max(rights), g[0].glyph.page_xy[1], median(sizes) or 1.0))
    return out


def _gutters(lines: list[_Line]) -> list[tuple[float, float]]:
    from statistics import median

    left, right = min(ln.x0 for ln in lines), max(ln.x1 for ln in lines)
    size = median(ln.size for ln in lines)
    spans = sorted((ln.x0, ln.x1) for ln in lines if ln.x1 - ln.x0 < WIDE * (right - left))
    gutters, reach = [], None
    for x0, x1 in spans:
        if reach is not None and x0 - reach >= GUTTER * size:
            gutters.append((reach, x0))
        reach = x1 if reach is None else max(reach, x1)
    return gutters


def column_order(records: list[GlyphRecord]) -> list[list[GlyphRecord]]:
    """The lines of ``records`` (content order) in the ``columns`` reading order (module
    docstring), each line's records in content order."""
    lines = _lines(records)
    return [lines[k].records for k in _column_indices(lines)]


def _column_indices(lines: list[_Line]) -> list[int]:
    """The indices of ``lines`` (content order) in the ``columns`` order."""
    gutters = _gutters(lines) if len(lines) > 1 else []
    if not gutters:
        return list(range(len(lines)))
    out: list[int] = []
    band: list[int] = []

    def flush() -> None:
        def column(k: int) -> int:
            return sum(1 for g in gutters if lines[k].x0 >= g[1])
        out.extend(sorted(band, key=lambda k: (column(k), -lines[k].y)))
        band.clear()

    for k in sorted(range(len(lines)), key=lambda k: -lines[k].y):
        ln = lines[k]
        if any(ln.x0 < g[1] and ln.x1 > g[0] for g in gutters):
            flush()
            out.append(k)
        else:
            band.append(k)
    flush()
    return out


@dataclass(slots=True)
class LineOrders:
    """A page's lines (the line heuristic over the content order, each line's glyphs in
    content order) and each reading order as the indices of ``lines`` in that order:
    ``content`` and ``columns`` always, ``structure`` only when the document has a structure
    tree (a line takes the place of its first glyph in the tree's order; ``claimed`` counts
    the glyphs elements claim on this page: none means the page keeps its content order)."""

    lines: list[list[GlyphRecord]]
    orders: dict[str, list[int]]
    claimed: int = 0


def line_orders(records: list[GlyphRecord], structure: list[GlyphRecord] | None = None) -> LineOrders:
    """:class:`LineOrders` of ``records`` (a page's glyphs in content order); ``structure``:
    the glyphs structure elements claim, in the tree's order (``None``: no structure tree)."""
    lines = _lines(records)
    orders = {"content": list(range(len(lines))), "columns": _column_indices(lines)}
    claimed = 0
    if structure is not None:
        rank = {r.index: i for i, r in enumerate(structure)}
        claimed = len(rank)
        last = len(rank)  # unclaimed glyphs follow in content order, as in ordered_records
        first = [min(rank.get(r.index, last + r.index) for r in ln.records) for ln in lines]
        orders["structure"] = sorted(range(len(lines)), key=lambda k: first[k])
    return LineOrders([ln.records for ln in lines], orders, claimed)


def page_line_orders(doc, page: int, page_ref: Ref, resolver: Resolver | None = None) -> LineOrders:
    """:func:`line_orders` of page ``page`` (1-based; page content, no annotations)."""
    from ..core.structtree import read_structure
    from .structure import page_marks

    marks = page_marks(doc, page, page_ref, resolver)
    tree = read_structure(doc)
    return line_orders(marks.records, _claimed(tree, marks) if tree is not None else None)
