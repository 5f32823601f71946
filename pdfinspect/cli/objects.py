"""The core commands: ``show`` (``-r N``), ``trailer``, ``info``, ``xref``, ``refs``, ``pages``,
``objects``. They need the core and the inspection layer only."""
from __future__ import annotations

import argparse
import sys

from ..core.diagnostics import PdfError, error
from ..core.objects import Stream
from ..core.source import parse_indirect_at
from ..core.xref import FREE, IN_FILE
from ..present.objects import object_at, object_header, object_lines, object_row, trailer_header
from ..present.streams import LEXERS, StreamHeader, stream_kind
from ..present.text import bytes_as_text, hexdump, looks_like_text, safe_line
from .common import (EXIT_OK, EXIT_UNREADABLE, Output, add_common_options, dump_json, err, non_negative,
                     open_document, progress, report_repairs)


def cmd_show(args, out: Output) -> int:
    doc = open_document(args)
    header, obj = object_header(doc, args.num, args.gen, args.revision)
    if obj is None:
        err(header.missing)
        return EXIT_UNREADABLE
    if args.raw and not sys.stdout.isatty():  # into a pipe or a file: the bytes themselves
        sys.stdout.flush()
        sys.stdout.buffer.write(doc.raw_bytes(obj))
        return EXIT_OK
    out.line(f"% {header.detail}")
    if args.raw:
        raw = doc.raw_bytes(obj)
        if looks_like_text(raw):
            out.pdf(bytes_as_text(raw))
        else:
            out.line(hexdump(raw))
        return EXIT_OK
    out.pdf("\n".join([header.title] + [line.text for line in object_lines(obj.value, limit=None)]))
    if isinstance(obj.value, Stream):
        res = doc.stream_data(obj)
        kind = stream_kind(obj.value.dict, res.data)
        out.line("stream")
        out.line(f"% {StreamHeader(False, len(obj.value.raw), res, kind).line}")
        if res.error:
            err(f"object {obj.num} {obj.gen}: {res.error} (data offset {obj.value.data_offset}); "
                 "showing partial data")
        if kind == "hex":
            out.line(hexdump(res.data, limit=args.max_bytes))
        elif kind in LEXERS:
            out.pdf(bytes_as_text(res.data), LEXERS[kind])
        else:
            out.line(bytes_as_text(res.data))
        out.line("endstream")
    out.line("endobj")
    return EXIT_OK


def cmd_trailer(args, out: Output) -> int:
    doc = open_document(args)
    header, trailer = trailer_header(doc, args.revision)
    if header.detail:
        out.line(f"% {header.detail}")
    out.pdf("\n".join([header.title] + [line.text for line in object_lines(trailer, limit=None)]))
    report_repairs(doc)
    return EXIT_OK


def cmd_info(args, out: Output) -> int:
    from ..present.summary import document_summary  # (here: -r N needs no summary)

    doc = open_document(args, allow_locked=True)  # without the password: the declared encryption facts
    if not args.quick:
        total = len(doc.object_numbers())
        with progress("parsing objects") as tick:
            for done, _ in enumerate(doc.iter_objects(cache=False), 1):  # every repair gets listed
                if tick is not None and done % 500 == 0:
                    tick(done, total)
    summary = document_summary(doc, doc.object_numbers())
    follow = {"Encryption": summary.security, "Revisions": summary.revisions}
    for fact in summary.facts:
        out.line(f"{fact.label + ': ':<13}{fact.value}")
        for line in follow.get(fact.label, ()):
            out.line(f"  {line}")
    for label, found in (("Repairs", summary.repairs), ("Warnings", summary.warnings)):
        out.line(f"{label + ':':<13}{len(found) or 'none'}")
        for d in found:
            out.line(f"  {safe_line(str(d))}")
    report_repairs(doc, quiet=True)  # listed above: not again on stderr
    if doc.locked:
        err("the file is encrypted and the password does not open it: give it with --password")
        return EXIT_UNREADABLE
    return EXIT_OK


def cmd_xref(args, out: Output) -> int:
    doc = open_document(args)
    bad = 0
    for r in doc.revisions:
        ch = doc.revision_changes(r.index) if r.index > 0 else None
        out.line(f"revision {r.index}: startxref {r.startxref}, "
                 f"{'+'.join(s.kind for s in r.sections) or 'reconstructed'}")
        if ch:
            out.line(f"  added {len(ch.added)}, changed {len(ch.changed)}, freed {len(ch.freed)}, "
                     f"re-listed {len(ch.relisted)}")
        for num in sorted(r.entries):
            e = r.entries[num]
            note = ""
            if args.check and e.kind == IN_FILE:
                p = parse_indirect_at(doc.buf, e.a) if 0 <= e.a < doc.size else None
                if p is None or p.num != num:
                    found = doc.scan_offset(num)
                    note = f"  WRONG: object starts at {found}" if found is not None else "  WRONG: object not found"
                    bad += 1
                else:
                    note = "  ok"
            flag = "f" if e.kind == FREE else ("n" if e.kind == IN_FILE else "c")
            out.line(f"  {num:>7} {flag} {e.describe()}{note}")
    if args.check:
        out.line(f"checked: {bad} wrong offset(s)")
        from ..core.check import offset_shift

        shift = offset_shift(doc)
        if shift is not None:
            where = "after" if shift.delta > 0 else "before"
            out.line(f"shifted by {shift.delta}: all {shift.entries} wrong entries are off by the same amount, "
                     f"each object starting {abs(shift.delta)} bytes {where} the offset its entry gives"
                     + (" (and startxref too: its table is found only with the shift)" if shift.startxref else ""))
    report_repairs(doc)
    return EXIT_OK


def cmd_bytes(args, out: Output) -> int:
    doc = open_document(args, allow_locked=True)  # the bytes need no key
    if args.offset >= doc.size:
        err(f"offset {args.offset} is past the end of the file ({doc.size} bytes)")
        return EXIT_UNREADABLE
    data = bytes(doc.buf[args.offset:args.offset + args.length])
    found = object_at(doc, args.offset)
    if found is not None:
        num, at = found
        out.line(f"% offset {args.offset} ({args.offset:#x}) is {args.offset - at} bytes into object {num} "
                 f"(its xref entry says it starts at {at})")
    out.line(hexdump(data, start=args.offset))
    return EXIT_OK


def _offset(text: str) -> int:
    """A byte offset, decimal or 0x-hexadecimal (diagnostics give decimal, hex dumps hex)."""
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an offset: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {text}")
    return value


def cmd_refs(args, out: Output) -> int:
    doc = open_document(args)
    header, obj = object_header(doc, args.num, None, None)
    if obj is None:
        raise PdfError(error("object-missing", header.missing))
    refs = 0
    with progress("looking for references") as tick:
        for b in doc.iter_backrefs(args.num, tick):  # printed as the scan finds them
            refs += 1
            out.line(safe_line(str(b)))
            sys.stdout.flush()
    if not refs:
        err(f"no object refers to object {args.num}")
    return EXIT_OK


def cmd_pages(args, out: Output) -> int:
    from ..core.pagelabels import page_labels

    doc = open_document(args)
    refs = doc.page_refs()
    labels = page_labels(doc) or [None] * len(refs)
    if args.json:
        dump_json([{"page": i, "label": label, "ref": str(ref)} for i, (ref, label) in enumerate(zip(refs, labels), 1)])
        report_repairs(doc)
        return EXIT_OK
    width = max((len(safe_line(x)) for x in labels if x), default=0)
    for i, (ref, label) in enumerate(zip(refs, labels), 1):
        out.line(f"{i:>5}  " + (f"{safe_line(label or ''):<{width}}  " if width else "") + str(ref))
    report_repairs(doc)
    return EXIT_OK


def cmd_objects(args, out: Output) -> int:
    doc = open_document(args)
    if args.json:
        from ..core.qpdfjson import write_document_json

        write_document_json(doc, sys.stdout, decode=args.decode, revision=args.revision)
    else:
        entries = doc.xref(args.revision)
        for obj in doc.iter_objects(args.revision, cache=False):
            row = object_row(obj, entries[obj.num])
            out.line(f"{row.num:>7} {row.gen:<3} {row.kind:<10} {row.type_subtype:<28} {row.where}")
    report_repairs(doc)
    return EXIT_OK


def register(sub) -> None:
    """Add the core commands."""
    s = sub.add_parser("show", help="show one object (with its stream decoded)")
    s.add_argument("file")
    s.add_argument("num", type=int)
    s.add_argument("gen", type=int, nargs="?")
    s.add_argument("--raw", action="store_true", help="the object's bytes as stored in the file (into a "
                   "pipe: the bytes themselves; on a terminal: text or a hex dump)")
    s.add_argument("--revision", type=int, help="as of revision K (0 = oldest)")
    s.add_argument("--max-bytes", type=non_negative(), default=4096, help="cap on hex-dumped bytes (default 4096)")
    add_common_options(s)

    for name, helptext in (("trailer", "show the trailer dictionary"),
                           ("pages", "list pages: page number, page label (/PageLabels) → page object")):
        s = sub.add_parser(name, help=helptext)
        s.add_argument("file")
        if name == "trailer":
            s.add_argument("--revision", type=int, help="trailer of revision K (0 = oldest)")
        else:
            s.add_argument("--json", action="store_true", help="[{page, label, ref}…]")
        add_common_options(s)

    s = sub.add_parser("info", help="version, producer, encryption, pages, revisions, repairs")
    s.add_argument("file")
    s.add_argument("--quick", action="store_true",
                   help="read only the xref and trailer (repairs inside objects are then not listed)")
    add_common_options(s)

    s = sub.add_parser("xref", help="every revision's cross-reference entries")
    s.add_argument("file")
    s.add_argument("--check", action="store_true", help="compare each offset with where the object starts")
    add_common_options(s)

    s = sub.add_parser("bytes", help="the file's bytes at an offset (a diagnostic's), as a hex dump")
    s.add_argument("file")
    s.add_argument("offset", type=_offset, help="byte offset in the file (decimal, or 0x… hexadecimal)")
    s.add_argument("length", type=non_negative(), nargs="?", default=256, help="how many bytes (default 256)")
    add_common_options(s)

    s = sub.add_parser("refs", help="every object that refers to object N, with key paths")
    s.add_argument("file")
    s.add_argument("num", type=int)
    add_common_options(s)

    s = sub.add_parser("objects", help="list every object; --json for qpdf's JSON v2 layout")
    s.add_argument("file")
    s.add_argument("--json", action="store_true", help="qpdf JSON v2 (qpdf --json=2 --json-key=qpdf)")
    s.add_argument("--decode", action="store_true", help="decode streams with generalized filters")
    s.add_argument("--revision", type=int, help="as of revision K (0 = oldest)")
    add_common_options(s)
