"""Signatures and what was written after them (ISO 32000-1 12.8, 7.5.6).

A signature signs the bytes its ``/ByteRange`` names: the file from offset 0 up to the end
of the revision that was saved when signing, less the ``/Contents`` hex string that holds
the signature itself. Whatever comes later is not signed. Incremental updates after the
signature (7.5.6) may be harmless (another signature, form data) or may change what is shown
("incremental saving attack"); objects appended after the last cross-reference section
without one of their own redefine objects for readers that scan the file (MuPDF, poppler)
while readers that follow the xref show the signed ones ("shadow" and "objects after the last
xref" attacks). :func:`signature_report` lists, per signature, its range, the revision it
covers and every object changed or added after it, plus the objects outside every xref
section after the last one, with a verdict code each.

The signature's cryptography (PKCS#7 / CMS) is not verified here.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from . import source
from .objects import Array, Dict, Ref, Stream, String, is_integer
from .xref import IN_FILE

_HEADER = re.compile(rb"(?<![0-9])(\d{1,10})[\x00\t\n\x0c\r ]+(\d{1,5})[\x00\t\n\x0c\r ]+obj\b")
_EOF = re.compile(rb"%%EOF[\r\n]{0,2}")
_NOT_WHITE = re.compile(rb"[^\x00\t\n\x0c\r ]")
MAX_FIELDS = 10_000  # form fields visited looking for signatures


class Verdict(str, Enum):
    """What a reviewer needs to know about one signature."""

    COVERS_FILE = "covers-file"  # the range ends where the file ends: nothing was written after it
    UPDATED_AFTER = "updated-after"  # later revisions change or add objects: look at them
    APPENDED_AFTER = "appended-after"  # objects outside every xref section follow the last one
    RANGE_NOT_REVISION = "range-not-revision"  # the range does not end where a revision ends
    RANGE_INVALID = "range-invalid"  # no /ByteRange, or one that is not [0 a b c] around /Contents
    UNSIGNED = "unsigned"  # a signature field without a value

    @property
    def ok(self) -> bool:
        return self is Verdict.COVERS_FILE


@dataclass(frozen=True, slots=True)
class AppendedObject:
    """An ``N G obj`` after the last xref section that no xref section lists."""

    num: int
    gen: int
    offset: int
    type: str | None  # its /Type (or /Subtype), if it is a dictionary with one
    redefines: str | None  # what object ``num`` is now (``"Catalog"``, ``"Page"``…), if it exists


@dataclass(frozen=True, slots=True)
class Signature:
    field: Ref | None
    name: str
    value: Ref | None  # the signature dictionary
    byte_range: tuple[int, ...] | None
    signed_end: int | None  # where the signed bytes end
    revision: int | None  # the revision that ends there
    changed_after: tuple[int, ...]  # objects later revisions change
    added_after: tuple[int, ...]  # objects later revisions add
    verdict: Verdict
    message: str


@dataclass(frozen=True, slots=True)
class SignatureReport:
    signatures: tuple[Signature, ...]
    appended: tuple[AppendedObject, ...]
    revision_ends: tuple[int | None, ...]

    @property
    def ok(self) -> bool:
        return not self.appended and all(s.verdict.ok for s in self.signatures)


def revision_ends(doc) -> tuple[int | None, ...]:
    """Where each revision's bytes end: after the ``%%EOF`` (and its EOL) that follows its
    xref section (``None`` for a revision rebuilt by scanning)."""
    out: list[int | None] = []
    for r in doc.revisions:
        m = source.search(doc.buf, _EOF, r.startxref) if r.startxref >= 0 else None
        out.append(m.end() if m else None)
    return tuple(out)


def appended_objects(doc) -> tuple[AppendedObject, ...]:
    """Objects after the last xref section that no xref section lists (7.5.6 says an update
    appends its own xref section and trailer)."""
    if not doc.revisions or doc.revisions[-1].startxref < 0:
        return ()
    last = max(r.startxref for r in doc.revisions)
    listed = {e.a for r in doc.revisions for e in r.entries.values() if e.kind == IN_FILE}
    current = doc.xref()
    found = []
    for m in source.finditer(doc.buf, _HEADER, last):
        if m.start() in listed:
            continue
        num, gen = int(m.group(1)), int(m.group(2))
        value = source.parse_object_at(doc.buf, m.end(), min(doc.size, m.end() + 65536))[0]
        found.append(AppendedObject(num, gen, m.start(), _type_of(value),
                                    _type_of(doc.resolve(Ref(num, current[num].gen))) or "object"
                                    if num in current else None))
        if len(found) >= 1000:
            break
    return tuple(found)


def _type_of(value) -> str | None:
    if isinstance(value, Stream):
        value = value.dict
    if isinstance(value, Dict):
        t = value.get("Type") or value.get("Subtype")
        return str(t) if t is not None else None
    return None


def signature_fields(doc) -> list[tuple[Ref | None, str, Dict]]:
    """Every signature field of the AcroForm (12.7.4.5): (field reference, full name, field)."""
    form = doc.resolve(doc.catalog.get("AcroForm"))
    fields = doc.resolve(form.get("Fields")) if isinstance(form, Dict) else None
    out: list[tuple[Ref | None, str, Dict]] = []
    seen: set[int] = set()
    todo = [(f, "") for f in fields] if isinstance(fields, Array) else []
    visited = 0
    while todo and visited < MAX_FIELDS:
        ref, parent = todo.pop(0)
        visited += 1
        if isinstance(ref, Ref):
            if ref.num in seen:
                continue
            seen.add(ref.num)
        node = doc.resolve(ref)
        if not isinstance(node, Dict):
            continue
        t = doc.resolve(node.get("T"))
        part = t.value.decode("latin-1", "replace") if isinstance(t, String) else ""
        name = ".".join(p for p in (parent, part) if p)
        kids = doc.resolve(node.get("Kids"))
        if isinstance(kids, Array):
            todo.extend((k, name) for k in kids)
        if doc.resolve(node.get("FT")) == "Sig":
            out.append((ref if isinstance(ref, Ref) else None, name, node))
    return out


def signature_report(doc) -> SignatureReport:
    """Every signature field with its range, the revision it covers and what came after."""
    ends = revision_ends(doc)
    appended = appended_objects(doc)
    sigs = [_signature(doc, ref, name, node, ends, appended) for ref, name, node in signature_fields(doc)]
    return SignatureReport(tuple(sigs), appended, ends)


def _signature(doc, ref, name: str, node: Dict, ends, appended) -> Signature:
    value_ref = node.get("V")
    value = doc.resolve(value_ref)
    vref = value_ref if isinstance(value_ref, Ref) else None

    def result(verdict: Verdict, message: str, br=None, end=None, rev=None, changed=(), added=()) -> Signature:
        return Signature(ref, name, vref, br, end, rev, tuple(changed), tuple(added), verdict, message)

    if not isinstance(value, Dict):
        return result(Verdict.UNSIGNED, "the field has no signature value (/V)")
    raw = doc.resolve(value.get("ByteRange"))
    br = tuple(doc.resolve(x) for x in raw) if isinstance(raw, Array) else ()
    if len(br) != 4 or not all(is_integer(x) and x >= 0 for x in br):
        return result(Verdict.RANGE_INVALID, "no /ByteRange of four non-negative integers")
    a, b, c, d = br
    end = c + d
    buf = doc.buf
    if a != 0 or b > c or end > doc.size or buf[b:b + 1] != b"<" or buf[c - 1:c] != b">":
        return result(Verdict.RANGE_INVALID, f"/ByteRange [{a} {b} {c} {d}] is not the file from offset 0 "
                      "with only the /Contents hex string left out", br)
    rev = next((i for i, e in enumerate(ends) if e is not None and (e == end or e - end in (1, 2)
                                                                    and buf[end:e].strip(b"\r\n") == b"")), None)
    if rev is None:
        return result(Verdict.RANGE_NOT_REVISION, f"the signed bytes end at offset {end}, where no revision "
                      "ends", br, end)
    changed: list[int] = []
    added: list[int] = []
    for k in range(rev + 1, len(doc.revisions)):
        changes = doc.revision_changes(k)
        changed += [n for n in changes.changed + changes.freed if n not in changed]
        added += [n for n in changes.added if n not in added]
    later = len(doc.revisions) - 1 - rev
    if appended:
        what = ", ".join(f"{o.num} {o.gen} obj" + (f" (redefines the {o.redefines})" if o.redefines else "")
                         for o in appended[:5])
        return result(Verdict.APPENDED_AFTER, f"signs revision {rev}; {len(appended)} object(s) after the last "
                      f"xref section are listed by none: {what}", br, end, rev, changed, added)
    if later:
        return result(Verdict.UPDATED_AFTER, f"signs revision {rev}; {later} later revision(s) change "
                      f"{len(changed)} and add {len(added)} object(s)", br, end, rev, changed, added)
    if end < doc.size and _NOT_WHITE.search(buf, end) is not None:
        return result(Verdict.RANGE_NOT_REVISION, f"signs revision {rev}; {doc.size - end} bytes follow "
                      "it outside any revision", br, end, rev)
    return result(Verdict.COVERS_FILE, f"signs revision {rev}, the whole file", br, end, rev)
