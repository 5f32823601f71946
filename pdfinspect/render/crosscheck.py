"""Our glyph boxes beside pdfium's loose character boxes, matched by order and character.

pdfium's text page (``FPDFText_*``) lists characters, not codes, and inserts spaces and
line breaks it generates; it has one entry per Unicode character (a ligature glyph that
maps to "fi" gives two, with one box). So the two lists are aligned as strings
(:class:`difflib.SequenceMatcher` over our glyphs' text and pdfium's non-generated
characters) and only the characters both list in the same order are compared: the
distance between the centres of our box and pdfium's, in points.
"""
from __future__ import annotations

import difflib
import math
from dataclasses import dataclass

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c


@dataclass(frozen=True, slots=True)
class Pair:
    """One glyph record and the pdfium character matched with it."""

    record: object  # content.textlayout.GlyphRecord
    char: str
    box: tuple[float, float, float, float]  # pdfium's loose box: left, bottom, right, top
    distance: float  # between the two centres, in points


@dataclass(frozen=True, slots=True)
class Comparison:
    pairs: tuple[Pair, ...]
    ours: int  # glyphs with text and a box
    theirs: int  # pdfium characters that are not generated

    def within(self, tolerance: float = 1.0) -> int:
        return sum(p.distance <= tolerance for p in self.pairs)


def pdfium_chars(pdf_page) -> list[tuple[str, tuple[float, float, float, float]]]:
    """pdfium's characters of a page with their loose boxes, generated ones left out."""
    text = pdf_page.get_textpage()
    try:
        out = []
        for i in range(text.count_chars()):
            if pdfium_c.FPDFText_IsGenerated(text.raw, i) == 1:
                continue
            ch = chr(pdfium_c.FPDFText_GetUnicode(text.raw, i))
            if ch.isspace() or not ch.isprintable():
                continue
            out.append((ch, text.get_charbox(i, loose=True)))
        return out
    finally:
        text.close()


def compare(records, pdf_page) -> Comparison:
    """Match ``records`` (glyph records with ``bbox``) with pdfium's characters of the page."""
    ours: list[tuple[str, object]] = []
    for r in records:
        if r.bbox is None:
            continue
        for ch in r.unicode:
            if not ch.isspace() and ch.isprintable():
                ours.append((ch, r))
    theirs = pdfium_chars(pdf_page)
    matcher = difflib.SequenceMatcher(None, [c for c, _ in ours], [c for c, _ in theirs], autojunk=False)
    pairs, seen = [], set()
    for a, b, n in matcher.get_matching_blocks():
        for k in range(n):
            ch, r = ours[a + k]
            if id(r) in seen:  # a glyph with several characters is compared once
                continue
            seen.add(id(r))
            box = theirs[b + k][1]
            cx, cy = r.bbox.center
            dist = math.hypot(cx - (box[0] + box[2]) / 2, cy - (box[1] + box[3]) / 2)
            pairs.append(Pair(r, ch, box, dist))
    return Comparison(tuple(pairs), len({id(r) for _, r in ours}), len(theirs))


def open_pdfium(path: str, password: str | None = None):
    return pdfium.PdfDocument(path, password=password)
