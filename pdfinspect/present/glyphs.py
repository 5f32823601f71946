"""Glyphs and fonts as both front ends show them.

:class:`GlyphRow` is one glyph's cells (code, CID, GID, glyph name, Unicode, method);
:func:`code_rows` groups a page's glyphs into distinct (font, code) rows with their counts,
and :data:`FILTERS` narrow them to the codes worth a look. :func:`font_reports` says why a
font's text extracts badly, through :mod:`pdfinspect.fonts.reasons` (as ``pdfinspect fonts``).
:func:`gap_text` and :func:`visibility_text` say, for people, what is between a glyph and the
one before (:mod:`pdfinspect.content.gaps`) and why it cannot be seen
(:mod:`pdfinspect.content.visibility`); :func:`gap_json` is the same for ``glyphs --json``.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..content.gaps import Gap, GlyphLayout, glyph_layouts
from ..content.textlayout import GlyphRecord
from ..content.visibility import REASONS, Visibility, page_visibility
from ..fonts.agl import is_meaningless
from ..fonts.font import Font
from ..fonts.resolve import ACTUAL_TEXT, FONT_PROGRAM, NONE, TOUNICODE, Resolver, format_unicode
from .text import safe_line

if TYPE_CHECKING:  # the font reports are for the app's code table, not for ``glyphs``
    from ..fonts.reasons import FontReport


@dataclass(frozen=True, slots=True)
class GlyphRow:
    """The terminal-safe cells of one glyph (``cid``/``gid`` are ``""`` when there is none)."""

    code: str
    cid: str
    gid: str
    name: str
    unicode: str
    method: str
    flagged: bool

    @classmethod
    def of(cls, record: GlyphRecord) -> "GlyphRow":
        res = record.resolution
        return cls(record.glyph.code.hex(), "" if record.glyph.cid is None else str(record.glyph.cid),
                   "" if res.gid is None else str(res.gid), safe_line(res.glyph_name or ""),
                   safe_line(format_unicode(record.unicode)), record.method, bool(res.flags))

    def ids(self, width: int) -> str:
        """``code CID GID glyph-name``, the name padded to ``width`` columns."""
        return f"{self.code:<6} {self.cid:>5} {self.gid:>5} {self.name:<{width}}"


def glyph_cells(record: GlyphRecord, width: int) -> tuple[str, str]:
    """The cells of a glyph's row: ``code CID GID glyph-name`` and its Unicode, the name and
    the Unicode padded to ``width`` columns."""
    row = GlyphRow.of(record)
    return row.ids(width), f"{row.unicode:<{width}}"


@dataclass(frozen=True, slots=True)
class CodeRow:
    """A distinct code of a font: its first glyph record and how often the page draws it."""

    font: Font
    record: GlyphRecord
    count: int

    @property
    def fallback(self) -> bool:
        """Text found only by a fallback: the font program, or anything but a ToUnicode the font has."""
        method = self.record.method
        return method == FONT_PROGRAM or (self.font.tounicode is not None and method not in (TOUNICODE, ACTUAL_TEXT, NONE))


# Filter id → (label, test on a row). A row is shown when any active filter accepts it.
FILTERS = {
    "unresolved": ("unresolved", lambda row: row.record.method == NONE),
    "conflicts": ("conflicts", lambda row: bool(row.record.resolution.conflicts)),
    "fallback": ("fallback used", lambda row: row.fallback),
    "meaningless": ("meaningless names", lambda row: is_meaningless(row.record.resolution.glyph_name or "")),
}


def code_rows(records) -> list[CodeRow]:
    """Distinct (font, code) rows in order of the font's first use, then by code."""
    first: dict[tuple[Font, bytes], GlyphRecord] = {}
    counts: Counter = Counter()
    for r in records:
        key = (r.step.font, r.glyph.code)
        first.setdefault(key, r)
        counts[key] += 1
    order = {f: k for k, f in enumerate(dict.fromkeys(f for f, _ in first))}
    keys = sorted(first, key=lambda k: (order[k[0]], k[1]))
    return [CodeRow(k[0], first[k], counts[k]) for k in keys]


def tounicode_line(font: Font, code: bytes) -> tuple[int, bool] | None:
    """(line, found) of the ToUnicode entry for ``code``; for a code without one, the line
    of the entry that sorts just before it (where it would go), else of the first entry.
    ``None`` when the CMap has no written entries of its own."""
    cmap = font.tounicode
    if cmap is None:
        return None
    entry = cmap.lookup_unicode(code)[1]
    if entry is not None and entry.line and any(e is entry for e in cmap.entries):
        return entry.line, True
    own = [e for e in cmap.entries if e.kind.startswith("bf") and e.line and len(e.low) == len(code)]
    before = [e for e in own if e.low <= code]
    near = max(before, key=lambda e: e.low) if before else min(own, key=lambda e: e.low, default=None)
    return (near.line, False) if near is not None else None


# -- font reports ------------------------------------------------------------------------------
def font_reports(rows: list[CodeRow], resolver: Resolver | None = None) -> dict[Font, FontReport]:
    """Per font of ``rows``: its :class:`~pdfinspect.fonts.reasons.FontReport` (why its text
    extracts badly, with reason ids), from the resolutions of its distinct codes — the same
    report ``pdfinspect fonts`` prints."""
    from ..fonts.reasons import report

    codes: dict[Font, list] = {}
    names: dict[Font, set[str]] = {}
    for r in rows:
        codes.setdefault(r.font, []).append(r.record.resolution)
        names.setdefault(r.font, set()).add(r.record.step.gstate.text.font_name or "")
    return {f: report(f, tuple(res), tuple(sorted(names[f])), resolver=resolver) for f, res in codes.items()}


def font_diagnoses(rows: list[CodeRow], resolver: Resolver | None = None) -> dict[Font, str]:
    """Per font of ``rows``: the diagnosis of its report (``""`` when it extracts cleanly)."""
    return {f: rep.diagnosis for f, rep in font_reports(rows, resolver).items()}


# -- gaps and visibility ---------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PageGlyphs:
    """A page's glyph records with each glyph's gap, direction and line, and its visibility."""

    records: list[GlyphRecord]
    layouts: list[GlyphLayout]
    visibility: list[Visibility]


def page_glyph_facts(doc, page_ref, resolver: Resolver | None = None, *, annots: bool = True,
                     budget=None) -> PageGlyphs:
    """Records (as :func:`~pdfinspect.content.textlayout.page_glyphs`), layouts and visibility of a page."""
    records, vis = page_visibility(doc, page_ref, resolver, budget=budget, annots=annots)
    return PageGlyphs(records, glyph_layouts(records), vis)


_MINUS = "\u2212"


def _num(v: float, digits: int = 2) -> str:
    text = f"{round(v, digits):g}"
    return _MINUS + text[1:] if text.startswith("-") else ("0" if text == "-0" else text)


# Cause id → its short label in gap_text (else the id with spaces)
_SHORT = {"char_spacing": "Tc", "word_spacing": "Tw", "horizontal_scaling": "Tz", "text_rise": "Ts",
          "text_move": "a text move (Td TD Tm T* ' \")", "new_bt": "a new BT", "advance": "the advance only"}


def _cause(gap: Gap, cause: str) -> str:
    if cause == "tj_adjust" and gap.tj is not None:
        return f"TJ {_num(gap.tj, 3)}"
    label = _SHORT.get(cause, cause.replace("_", " "))
    share = gap.part(cause)
    return f"{label} {_num(share)} em" if share and label in ("Tc", "Tw") else label


def gap_text(layout: GlyphLayout, line: bool = True) -> str:
    """``gap before: 0.11 em (1.1 pt) from TJ −110``, with the move across the baseline, the
    run's direction when it is not left to right and (``line``) the glyph's line."""
    gap = layout.gap
    if gap is None:
        text = "gap before: none (the page's first glyph)"
    else:
        text = (f"gap before: {_num(gap.along_em)} em ({_num(gap.along_pt)} pt)"
                + (f", {_num(gap.across_em)} em across" if abs(gap.across_em) >= 0.005 else "")
                + " from " + ", ".join(_cause(gap, c) for c in gap.causes))
    direction = layout.direction + (f" {_num(layout.angle, 1)}°" if layout.direction == "rotated" else "")
    where = f"; line {layout.line}" + (" (starts it)" if layout.starts_line else "") if line else ""
    return text + where + (f"; {direction}" if layout.direction != "ltr" else "")


def visibility_text(vis: Visibility) -> str:
    """``visible``, or ``hidden: clipped (outside …), tiny (…)``."""
    if vis.visible:
        return "visible"
    return "hidden: " + "; ".join(f"{r} ({REASONS.get(r, r)})" for r in vis.reasons)


def gap_json(layout: GlyphLayout) -> dict:
    """The additive ``glyphs --json`` fields of a glyph's layout: ``gap`` (points of the page
    and em; ``None`` for the first glyph), ``direction``, ``angle`` and ``line``."""
    gap = layout.gap
    return {"gap": None if gap is None else {
        "along_em": round(gap.along_em, 4), "across_em": round(gap.across_em, 4),
        "along_pt": round(gap.along_pt, 3), "across_pt": round(gap.across_pt, 3), "em_pt": round(gap.em_pt, 3),
        "causes": list(gap.causes), "tj": gap.tj, "parts": {c: round(v, 4) for c, v in gap.parts}},
        "direction": layout.direction, "angle": layout.angle, "line": layout.line, "starts_line": layout.starts_line}
