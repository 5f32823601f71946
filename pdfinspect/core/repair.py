"""Reconstruction of damaged files by scanning for ``N G obj`` (what qpdf, pdf.js and MuPDF do).

Every repair made here is reported by the Document as a Diagnostic with ``repair`` set.
"""
from __future__ import annotations

import bisect
import re

from . import source
from .objects import Dict, Name, Ref
from .parser import GAP

_HEADER = re.compile(rb"(?<![0-9])(\d{1,10})" + GAP + rb"+(\d{1,5})" + GAP + rb"+obj\b")
_TRAILER = re.compile(rb"trailer[\x00\t\n\x0c\r ]*<<")
_CATALOG = re.compile(rb"/Type[\x00\t\n\x0c\r ]*/Catalog\b")
_PAGES_REF = re.compile(rb"/Pages[\x00\t\n\x0c\r ]*\d+[\x00\t\n\x0c\r ]+\d+[\x00\t\n\x0c\r ]+R")
_OBJSTM = re.compile(rb"/Type[\x00\t\n\x0c\r ]*/ObjStm\b")
_XREFSTM = re.compile(rb"/Type[\x00\t\n\x0c\r ]*/XRef\b")


def scan_headers(buf) -> dict[int, tuple[int, int]]:
    """Every ``N G obj`` header in the file: number → (offset, generation); later ones win."""
    found: dict[int, tuple[int, int]] = {}
    for m in source.finditer(buf, _HEADER):
        found[int(m.group(1))] = (m.start(), int(m.group(2)))
    return found


def enclosing_objects(buf, pattern: re.Pattern, headers: dict[int, tuple[int, int]]) -> list[int]:
    """Numbers of objects whose bodies contain ``pattern`` (nearest preceding header)."""
    starts = sorted((off, num) for num, (off, _) in headers.items())
    offsets = [s[0] for s in starts]
    out = []
    for m in source.finditer(buf, pattern):
        i = bisect.bisect_right(offsets, m.start()) - 1
        if i >= 0:
            out.append(starts[i][1])
    return out


def trailer_candidates(buf, headers: dict[int, tuple[int, int]]):
    """Every trailer a damaged file offers, with where it came from: ``trailer`` dictionaries
    (last first), xref stream dictionaries (last first), then a /Root made from each catalog."""
    for m in reversed(list(source.finditer(buf, _TRAILER))):
        value = source.parse_object_at(buf, m.end() - 2)[0]
        if isinstance(value, Dict) and isinstance(value.get("Root"), (Ref, Dict)):
            yield value, f"trailer dictionary at offset {m.start()}"
    for num in reversed(enclosing_objects(buf, _XREFSTM, headers)):
        obj = source.parse_indirect_at(buf, headers[num][0])
        if obj is not None and hasattr(obj.value, "dict") and isinstance(obj.value.dict.get("Root"), Ref):
            d = Dict(obj.value.dict)
            for k in ("Type", "W", "Index", "Filter", "DecodeParms", "Length", "Prev"):
                d.pop(k, None)
            yield d, f"xref stream {num}"
    catalogs = enclosing_objects(buf, _CATALOG, headers)
    for num in catalogs:
        yield _root(num, headers), f"catalog found in object {num}"
    # a catalog without /Type: an object with a /Pages reference (MuPDF's repair misses these)
    for num in dict.fromkeys(enclosing_objects(buf, _PAGES_REF, headers)):
        if num not in catalogs:
            yield _root(num, headers), f"object {num}, which has /Pages but no /Type /Catalog"


def _root(num: int, headers: dict[int, tuple[int, int]]) -> Dict:
    d = Dict()
    d[Name("Root")] = Ref(num, headers[num][1])
    return d


OBJSTM_PATTERN = _OBJSTM
