"""Structure elements joined to the glyphs their marked content draws (ISO 32000-1 14.7.4).

A glyph belongs to the innermost open marked-content sequence that has an /MCID: in the
page content, or in a form XObject's own content (an /MCR with /Stm names that stream).
:func:`page_marks` runs a page once and keeps, per (stream, MCID), its glyph records and
whether the content has the MCID at all (a figure's marked content may draw no glyph).
:func:`content_diagnostics` compares those with the tree: an MCID the tree claims that no
content has (``struct-mcid-no-content``), marked content with an MCID no element claims
(``struct-content-unclaimed``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..core.diagnostics import Diagnostic, warning
from ..core.objects import Ref
from ..core.structtree import MarkedRef, StructElement, StructTree
from ..fonts.resolve import Resolver
from .geometry import Geometry
from .interpreter import Step, iter_steps
from .textlayout import GlyphRecord, layout, step_records

Key = tuple[int | None, int]  # (form stream object number or None for the page content, MCID)


def mcid_key(step: Step) -> Key | None:
    """The (stream, MCID) the step's drawing belongs to, or ``None`` outside any MCID."""
    for m in reversed(step.marked):
        if m.mcid is None:
            continue
        if m.depth == 0:
            return (None, m.mcid)
        if m.depth == step.depth and step.source is not None:
            return (step.source.num, m.mcid)
        return None  # an MCID of an enclosing form: its stream is not on the step
    return None


@dataclass(slots=True)
class PageMarks:
    """The glyphs of one page (content order) and the marked content with MCIDs it holds."""

    page: int
    page_ref: Ref
    records: list[GlyphRecord]
    glyphs: dict[Key, list[GlyphRecord]] = field(default_factory=dict)
    present: set[Key] = field(default_factory=set)  # every (stream, MCID) the content opens

    def of(self, item: MarkedRef) -> list[GlyphRecord]:
        return self.glyphs.get((item.stream.num if item.stream else None, item.mcid), [])

    def has(self, item: MarkedRef) -> bool:
        return (item.stream.num if item.stream else None, item.mcid) in self.present


def page_marks(doc, page: int, page_ref: Ref, resolver: Resolver | None = None) -> PageMarks:
    """Run the page content once (not the annotations: their structure goes through /OBJR)."""
    resolver = resolver or Resolver(doc)
    marks = PageMarks(page, page_ref, [])
    used: set[int] = set()
    geometry = Geometry(doc)
    for step in iter_steps(doc, page_ref, annots=False):
        key = mcid_key(step)
        if key is not None:
            marks.present.add(key)
        if not step.glyphs:
            continue
        records = step_records(step, resolver, used, len(marks.records), geometry)
        marks.records.extend(records)  # keeps ActualText sequences alive while ``used`` is
        if key is not None:
            marks.glyphs.setdefault(key, []).extend(records)
    return marks


def all_page_marks(doc, pages: list[int], resolver: Resolver | None = None) -> dict[int, PageMarks]:
    """:func:`page_marks` for each 1-based page number given that exists."""
    resolver = resolver or Resolver(doc)
    refs = doc.page_refs()
    return {n: page_marks(doc, n, refs[n - 1], resolver) for n in pages if 0 < n <= len(refs)}


def element_records(element: StructElement, marks: dict[int, PageMarks]) -> list[GlyphRecord]:
    """The glyphs of the element's own marked content (not its children's), in /K order."""
    out: list[GlyphRecord] = []
    for item in element.mcids:
        if item.page in marks:
            out.extend(marks[item.page].of(item))
    return out


def element_text(element: StructElement, marks: dict[int, PageMarks]) -> str:
    """The element's own text: its ActualText, else its marked content's glyphs laid out."""
    if element.actual_text is not None:
        return element.actual_text
    return layout(element_records(element, marks)).strip("\n")


def content_diagnostics(tree: StructTree, marks: dict[int, PageMarks]) -> list[Diagnostic]:
    """The tree's MCIDs against the content of the pages in ``marks``."""
    out: list[Diagnostic] = []
    claimed: dict[int, set[Key]] = {}
    for item in tree.marked_refs():
        if item.page not in marks:
            continue
        claimed.setdefault(item.page, set()).add((item.stream.num if item.stream else None, item.mcid))
        if not marks[item.page].has(item):
            out.append(warning("struct-mcid-no-content", f"the structure tree claims MCID {item.mcid} of page "
                               f"{item.page}" + (f" (stream {item.stream})" if item.stream else "") +
                               ", but no marked content there has it", clause="14.7.4.2"))
    for page, m in sorted(marks.items()):
        for stream, mcid in sorted(m.present - claimed.get(page, set()), key=lambda k: (k[0] or 0, k[1])):
            out.append(warning("struct-content-unclaimed", f"marked content MCID {mcid} of page {page}" +
                               (f" (form {stream})" if stream is not None else "") +
                               " belongs to no structure element", clause="14.7.4.2"))
    return out
