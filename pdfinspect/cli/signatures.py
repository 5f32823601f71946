"""``pdfinspect signatures FILE``: each signature, the revision it signs and what came after
(see :mod:`pdfinspect.core.signatures`)."""
from __future__ import annotations

from ..core.signatures import SignatureReport, signature_report
from ..present.text import safe_line
from .common import add_common_options, dump_json, open_document

EXIT_FOUND = 3  # something was written after a signature, or a range is unusable


def register(subparsers) -> None:
    s = subparsers.add_parser(
        "signatures", help="each signature's /ByteRange, the revision it signs and what was written after it",
        description="For every signature field: its /ByteRange, whether it covers the file up to the end of a "
                    "revision, which one, and every object later revisions change or add; then every object "
                    "after the last xref section that no xref lists (incremental-saving and shadow attacks). "
                    "Each signature gets a verdict code: covers-file, updated-after, appended-after, "
                    "range-not-revision, range-invalid, unsigned. The signature's cryptography is not checked. "
                    "Exit status: 0 when every signature covers the file and nothing is appended, 3 otherwise.")
    s.add_argument("file")
    s.add_argument("--json", action="store_true", help="machine-readable records")
    add_common_options(s)


def report_json(report: SignatureReport) -> dict:
    return {
        "ok": report.ok,
        "revision_ends": list(report.revision_ends),
        "signatures": [{"field": str(s.field) if s.field else None, "name": s.name,
                        "value": str(s.value) if s.value else None,
                        "byte_range": list(s.byte_range) if s.byte_range else None,
                        "signed_end": s.signed_end, "revision": s.revision, "verdict": s.verdict.value,
                        "message": s.message, "changed_after": list(s.changed_after),
                        "added_after": list(s.added_after)} for s in report.signatures],
        "appended": [{"num": o.num, "gen": o.gen, "offset": o.offset, "type": o.type, "redefines": o.redefines}
                     for o in report.appended],
    }


def cmd_signatures(args, out) -> int:
    doc = open_document(args)
    report = signature_report(doc)
    if args.json:
        dump_json(report_json(report))
        return 0 if report.ok else EXIT_FOUND
    if not report.signatures:
        out.line("no signature fields")
    for s in report.signatures:
        br = " ".join(map(str, s.byte_range)) if s.byte_range else "none"
        out.line(f"{safe_line(s.name or '(unnamed)')} (field {s.field or 'direct'}, value {s.value or 'none'}): "
                 f"{s.verdict.value}")
        out.line(f"  /ByteRange [{br}]; {safe_line(s.message)}")
        if s.changed_after:
            out.line(f"  changed after it: {', '.join(map(str, s.changed_after[:50]))}")
        if s.added_after:
            out.line(f"  added after it: {', '.join(map(str, s.added_after[:50]))}")
    for o in report.appended:
        what = f"/{safe_line(o.type)} " if o.type else ""
        redefines = f"redefines object {o.num} (now the {safe_line(o.redefines)})" if o.redefines else "a new object"
        out.line(f"appended-outside-xref: {o.num} {o.gen} obj at offset {o.offset}: {what}{redefines}")
    return 0 if report.ok else EXIT_FOUND
