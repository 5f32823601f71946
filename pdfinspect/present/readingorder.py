"""Reading orders as line numbers: the page preview numbers a page's lines in each order, and
the Extractors screen sets each extractor's output order beside ours.

The lines and the orders are :mod:`pdfinspect.content.order`'s (``text --order``): the
page's lines come once from the line heuristic over the content order, and each order
(``content``, ``structure``, ``columns``) numbers the same lines, so switching the order
moves the numbers, not the lines. A line's number stands at its start, left of its first
glyph's box (or of its origin when the glyph has no box).

An emulated extractor (:mod:`pdfinspect.extractors`) outputs the glyphs in its own order
with its own line breaks; :func:`extractor_orders` gives, for each line it outputs, the
numbers (in our ``columns`` order) of our lines its glyphs come from: ``1 2 3 …`` is our
order, ``2 5`` one output line joining our lines 2 and 5 (two columns interleaved),
``4 … 2`` our columns read in another order. :func:`real_order` reads a real extractor's
output the same way, by its words: each word is found among our lines' words (compared
after NFKC and case folding, letters and digits only) not yet taken, within :data:`NEAR`
words after the last one found (one its neighbour in the output follows there too first),
else anywhere if a neighbour of it in the output line is its neighbour there too (a word
alone on its line needs no such proof); a word found nowhere (two halves of a hyphenated
word joined) is passed over.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..content.order import ORDERS, LineOrders, line_orders, page_line_orders
from ..content.textlayout import GlyphRecord, layout
from .text import safe_line

if TYPE_CHECKING:  # the emulations are for the Extractors screen; the preview imports this module
    from ..extractors.base import Emulation

OFF = ""  # no numbers
CYCLE = (OFF, *ORDERS)  # what the preview's key steps through
OURS = "columns"  # the order the Extractors screen numbers our lines in
NO_TREE, UNCLAIMED = "no-structure-tree", "structure-unclaims-page"
NOTES = {  # what a user should know about an order: code → the sentence
    NO_TREE: "the document has no structure tree: the structure order is skipped",
    UNCLAIMED: "no structure element claims this page's text: the structure order is the content order",
}
NEAR = 8  # words after the last one found where a real extractor's next word is looked for first


@dataclass(frozen=True, slots=True)
class NumberedLine:
    """One line of the page with its ``number`` (1-based) in an order; ``line`` its index in
    content order (the same line in every order); ``box`` its first glyph's page box (left,
    bottom, right, top), ``None`` without one; ``origin`` that glyph's origin; ``text`` the
    line laid out (safe to print); ``first`` that glyph's record."""

    number: int
    line: int
    box: tuple[float, float, float, float] | None
    origin: tuple[float, float]
    text: str
    first: GlyphRecord

    @property
    def start(self) -> tuple[float, float]:
        """Where the number goes (page space), just left of it: the middle of the first
        glyph's box's left side."""
        return (self.box[0], (self.box[1] + self.box[3]) / 2) if self.box is not None else self.origin


@dataclass(frozen=True, slots=True)
class Numbering:
    """The page's lines numbered in ``order``, listed in that order; ``note`` (a code of
    :data:`NOTES`) what the user should know (a structure order that claims nothing on the page)."""

    order: str
    lines: tuple[NumberedLine, ...]
    note: str = ""


@dataclass(frozen=True, slots=True)
class ReadingOrders:
    """Every order a page can be numbered in (``numberings``, by order name) and the orders
    it cannot, with the reason (``missing``: order → a code of :data:`NOTES`, ``structure``
    without a structure tree)."""

    page: int
    numberings: dict[str, Numbering]
    missing: dict[str, str]

    def next_order(self, current: str) -> str:
        """The order after ``current`` in :data:`CYCLE` (``OFF`` after the last), skipping
        the missing ones."""
        i = CYCLE.index(current) if current in CYCLE else 0
        for step in range(1, len(CYCLE) + 1):
            order = CYCLE[(i + step) % len(CYCLE)]
            if order == OFF or order in self.numberings:
                return order
        return OFF


def numbering(orders: LineOrders, order: str) -> Numbering:
    """``orders``' lines numbered in ``order`` (one of :data:`ORDERS` the page has)."""
    out = []
    for number, k in enumerate(orders.orders[order], 1):
        line = orders.lines[k]
        first = line[0]
        box = first.bbox.rect if first.bbox is not None else None
        out.append(NumberedLine(number, k, box, first.glyph.page_xy, safe_line(layout(line).strip()), first))
    note = UNCLAIMED if order == "structure" and not orders.claimed else ""
    return Numbering(order, tuple(out), note)


def numberings(orders: LineOrders, page: int) -> ReadingOrders:
    """:class:`ReadingOrders` of a page's :class:`~pdfinspect.content.order.LineOrders`."""
    found = {order: numbering(orders, order) for order in ORDERS if order in orders.orders}
    missing = {order: NO_TREE for order in ORDERS if order not in orders.orders}
    return ReadingOrders(page, found, missing)


def reading_orders(doc, page: int, page_ref, resolver=None) -> ReadingOrders:
    """Page ``page`` (1-based) numbered in every order it has (page content, no annotations)."""
    return numberings(page_line_orders(doc, page, page_ref, resolver), page)


def number_ranges(numbers: list[int]) -> str:
    """``[2, 3, 4, 7]`` as ``2-4,7``: the numbers of lines that share one place on a small
    picture."""
    out: list[str] = []
    start = prev = None
    for n in [*numbers, None]:
        if start is not None and (n is None or n != prev + 1):
            out.append(str(start) if start == prev else f"{start}-{prev}")
            start = None
        if n is not None:
            start = n if start is None else start
            prev = n
    return ",".join(out)


@dataclass(frozen=True, slots=True)
class ExtractorOrder:
    """One extractor's output order: per line it outputs, the numbers of our lines (in
    :data:`OURS` order) its glyphs come from, as it meets them (``0``: a glyph that is on no
    line of ours, an annotation's); ``first`` the first glyph of each output line; ``same``:
    it reads our lines in our order, one output line for each."""

    name: str
    lines: tuple[tuple[int, ...], ...]
    first: tuple[GlyphRecord | None, ...]
    same: bool

    def cell(self, row: int) -> str:
        """Output line ``row`` (0-based) as numbers, ``2 5`` when it joins two of our lines."""
        if row >= len(self.lines):
            return ""
        return " ".join(str(n) if n else "·" for n in self.lines[row])


@dataclass(frozen=True, slots=True)
class OrderTable:
    """Our lines in :data:`OURS` order beside each extractor's output order."""

    ours: Numbering
    extractors: tuple[ExtractorOrder, ...]

    @property
    def rows(self) -> int:
        return max([len(self.ours.lines), *(len(e.lines) for e in self.extractors)], default=0)

    def target(self, row: int) -> GlyphRecord | None:
        """The glyph ``row`` leads to: the first of our line on it, else of an extractor's line."""
        if row < len(self.ours.lines):
            return self.ours.lines[row].first
        return next((e.first[row] for e in self.extractors if row < len(e.first) and e.first[row] is not None), None)


def extractor_orders(records: list[GlyphRecord], emulations: dict[str, Emulation]) -> OrderTable:
    """The :class:`OrderTable` of a page's glyph ``records`` (content order, annotations
    included as an extractor sees them) and each extractor's ``emulations`` of them."""
    from ..extractors.base import LINE

    content = [r for r in records if r.step.annotation is None]
    orders = line_orders(content)
    ours = numbering(orders, OURS)
    number = {id(r): ln.number for ln in ours.lines for r in orders.lines[ln.line]}
    table = []
    for name, emulation in emulations.items():
        lines: list[list[int]] = []
        first: list[GlyphRecord | None] = []
        for d in emulation.decisions:
            if not d.kept:
                continue
            if not lines or d.before == LINE:
                lines.append([])
                first.append(d.record)
            n = number.get(id(d.record), 0)
            if not lines[-1] or lines[-1][-1] != n:
                lines[-1].append(n)
        same = lines == [[n] for n in range(1, len(ours.lines) + 1)]
        table.append(ExtractorOrder(name, tuple(tuple(ln) for ln in lines), tuple(first), same))
    return OrderTable(ours, tuple(table))


def _word(text: str) -> str:
    return "".join(ch for ch in unicodedata.normalize("NFKC", text).casefold() if ch.isalnum())


def real_order(ours: Numbering, name: str, text: str) -> ExtractorOrder:
    """A real extractor's output ``text`` as the numbers of our lines (``ours``) its lines'
    words are found on (module docstring); a line none of whose words is ours is ``0``,
    an empty line is left out."""
    words: list[str] = []  # our words, in our order
    owner: list[NumberedLine] = []  # …and the line of each
    places: dict[str, list[int]] = {}  # word → its positions in ``words``
    for line in ours.lines:
        for word in filter(None, map(_word, line.text.split())):
            places.setdefault(word, []).append(len(words))
            words.append(word)
            owner.append(line)
    taken: set[int] = set()
    cursor = 0

    def place(out: list[str], i: int) -> int | None:
        def followed(p: int) -> bool:  # its neighbour in the output line is its neighbour here too
            return (i + 1 < len(out) and p + 1 < len(words) and words[p + 1] == out[i + 1]) or \
                (i > 0 and p > 0 and words[p - 1] == out[i - 1])

        free = [p for p in places.get(out[i], ()) if p not in taken]
        near = [p for p in free if cursor <= p < cursor + NEAR]
        if near or len(out) == 1:
            return ([p for p in near if followed(p)] or near or [p for p in free if p >= cursor] or free or [None])[0]
        return next((p for p in free if followed(p)), None)

    lines: list[list[int]] = []
    first: list[GlyphRecord | None] = []
    for text_line in text.splitlines():
        out = [w for w in map(_word, text_line.split()) if w]
        if not out:
            continue
        numbers: list[int] = []
        start: GlyphRecord | None = None
        for i in range(len(out)):
            at = place(out, i)
            if at is None:
                continue
            taken.add(at)
            cursor = at + 1
            if not numbers or numbers[-1] != owner[at].number:
                numbers.append(owner[at].number)
            start = start or owner[at].first
        lines.append(numbers or [0])
        first.append(start)
    same = lines == [[n] for n in range(1, len(ours.lines) + 1)]
    return ExtractorOrder(name, tuple(tuple(ln) for ln in lines), tuple(first), same)
