"""Recovery of damaged files, as qpdf and MuPDF do it (ISO 32000 7.5.4 gives no method).

Two levels, each reported as a Diagnostic with ``repair`` set:

- **merge**: the cross-reference data was read but is damaged (a cut subsection, a short or
  undecodable xref stream, a broken /Prev chain) or leaves the page tree unreachable. Every
  object a scan for ``N G obj`` finds that the xref does not list is added (with the members
  of the object streams found), below all revisions, so the xref still wins where it speaks.
- **rebuild**: no usable xref at all, or its /Root is not a dictionary: the scan is the xref.

In both, the trailer is chosen among the candidates the file offers (``trailer`` dictionaries,
xref stream dictionaries, catalogs), preferring one whose /Root leads to a /Pages node with a
/Count, then one whose /Root is a dictionary, as MuPDF's repair does.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from . import repair, source
from .diagnostics import PdfError, error, warning
from .objects import Array, Dict, is_integer
from .xref import IN_FILE, IN_OBJSTM, Revision, XrefEntry

if TYPE_CHECKING:
    from .document import Document

# Diagnostics of read_revisions that mean the xref lost entries or revisions.
XREF_DAMAGE = frozenset({
    "xref-bad-subsection", "xref-bad-entry", "xref-stream-decode", "xref-stream-short",
    "xref-stream-bad-w", "xref-not-found", "xref-offset-out-of-range", "xrefstm-not-found",
    "xref-prev-bad", "trailer-missing", "trailer-bad",
})

_ENCRYPT = re.compile(rb"/Encrypt(?![^\x00\t\n\x0c\r ()<>\[\]{}/%])")


def header_entries(doc: Document) -> dict[int, XrefEntry]:
    """Every ``N G obj`` header the scan finds, as in-file entries (the last one wins)."""
    return {num: XrefEntry(IN_FILE, off, gen) for num, (off, gen) in doc._scan_headers().items()}


def add_members(doc: Document, entries: dict[int, XrefEntry], known) -> None:
    """Add to ``entries`` the members of every object stream the scan finds, unless ``known``
    (a mapping) or ``entries`` already has them. The object streams must be readable through
    ``doc`` already: call after the headers are in its xref."""
    for num in repair.enclosing_objects(doc.buf, repair.OBJSTM_PATTERN, doc._scan_headers()):
        stm = doc._object_stream(num)
        for i, (member, _) in enumerate(stm.members if stm is not None else ()):
            if member > 0 and member not in known:
                entries.setdefault(member, XrefEntry(IN_OBJSTM, num, i))


def setup_security(doc: Document) -> None:
    """Know the file key before object streams are read (their members are encrypted): from
    the trailer in force, else from the first trailer candidate that has an /Encrypt."""
    if "Encrypt" in doc.trailer or source.search(doc.buf, _ENCRYPT) is None:
        doc.setup_security(doc.trailer)
        return
    for trailer, _ in repair.trailer_candidates(doc.buf, doc._scan_headers()):
        if "Encrypt" in trailer:
            doc.setup_security(trailer)
            return


def pages_score(doc: Document, trailer: Dict) -> int:
    """2: /Root → catalog → /Pages with a positive /Count and kids; 1: /Root is a dictionary."""
    catalog = doc.resolve(trailer.get("Root"))
    if not isinstance(catalog, Dict):
        return 0
    pages = doc.resolve(catalog.get("Pages"))
    if isinstance(pages, Dict):
        count = doc.resolve(pages.get("Count"))
        kids = doc.resolve(pages.get("Kids"))
        if is_integer(count) and count > 0 and isinstance(kids, Array) and kids \
                and isinstance(doc.resolve(kids[0]), Dict):
            return 2
    return 1


def best_trailer(doc: Document, current: Dict | None) -> tuple[Dict, str, int] | None:
    """The best-scoring trailer candidate, if it scores higher than ``current``."""
    floor = pages_score(doc, current) if current is not None else -1
    best = None
    for trailer, source in repair.trailer_candidates(doc.buf, doc._scan_headers()):
        score = pages_score(doc, trailer)
        if score > floor and (best is None or score > best[2]):
            best = (trailer, source, score)
            if score == 2:
                break
    return best


def rebuild(doc: Document) -> None:
    """The xref is unusable: the scan becomes the only revision."""
    if not doc._scan_headers():
        raise PdfError(error("no-objects", "not a PDF file: no xref and no 'N G obj' found", offset=0))
    entries = header_entries(doc)
    probe = Revision(0, -1, Dict(), [], entries)
    doc.revisions = [probe]
    doc._recovered = {}
    doc._trailer = None
    doc._reset_views()
    setup_security(doc)
    add_members(doc, entries, {})
    doc._reset_views()
    found = best_trailer(doc, None)
    if found is None:
        if doc.header_offset is None:  # a text that mentions "1 0 obj" (a README) is no PDF
            raise PdfError(error("not-a-pdf", f"not a PDF file: no %PDF- header, no xref, no trailer with a /Root "
                                 f"and no catalog (only {len(probe.entries)} 'N G obj' found)", offset=0))
        doc.note(error("trailer-none", f"no trailer with a /Root and no catalog among the {len(probe.entries)} "
                       "object(s) found by scanning: there is no page tree", offset=0, clause="7.5.5"))
        trailer, source = Dict(), "none found"
    else:
        trailer, source, _ = found
    probe.trailer = trailer
    doc._reset_views()
    doc.repaired = True
    doc.note(warning("xref-reconstructed", f"cross-reference rebuilt by scanning: {len(probe.entries)} "
                     f"objects found, trailer: {source}", offset=0, clause="7.5.4",
                     repair="objects located by scanning for 'N G obj'"))


def needs_merge(doc: Document) -> bool:
    """The xref was damaged while being read, or the page tree cannot be reached from it."""
    if any(d.code in XREF_DAMAGE for d in doc.diagnostics):
        return True
    return pages_score(doc, doc.trailer) < 2


def merge(doc: Document) -> None:
    """Add what the scan finds and the xref does not list; pick a better trailer if there is one."""
    listed = doc.xref()
    extra = {num: e for num, e in header_entries(doc).items() if num > 0 and num not in listed}
    doc._recovered = extra
    doc._reset_views()
    setup_security(doc)
    add_members(doc, extra, listed)
    if extra:
        doc._reset_views()
        doc.repaired = True
        doc.note(warning("xref-completed", f"{len(extra)} object(s) the cross-reference data does not list "
                         f"were found by scanning: {_span(extra)}", clause="7.5.4",
                         repair="added below every revision (the xref wins where it lists an object)"))
    better = best_trailer(doc, doc.trailer)
    if better is not None:
        trailer, source, score = better
        merged = Dict(doc.trailer)
        for key in ("Root", "Info", "ID", "Encrypt"):
            if key in trailer and (key == "Root" or key not in merged):
                merged[key] = trailer[key]
        doc._trailer = merged
        doc._reset_views()
        doc.repaired = True
        doc.note(warning("trailer-replaced", f"the trailer's /Root does not lead to a page tree; used /Root "
                         f"{trailer.get('Root')} from the {source}", clause="7.5.5",
                         repair=f"/Root taken from the {source}"))


def _span(entries: dict[int, XrefEntry]) -> str:
    nums = sorted(entries)
    text = ", ".join(map(str, nums[:12]))
    return text + (f" … ({len(nums) - 12} more)" if len(nums) > 12 else "")


