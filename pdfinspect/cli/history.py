"""``diff``: what an incremental update changed, streams compared as decoded text."""
from __future__ import annotations

from ..core.diagnostics import PdfError, error
from ..present.history import ObjectDiff, object_diff, revision_diff, trailer_diff
from .common import EXIT_OK, add_common_options, dump_json, open_document

MARKS = {"added": "+", "changed": "~", "freed": "-", "rewritten": "="}


def register(sub) -> None:
    s = sub.add_parser("diff", help="objects added, changed, freed between two revisions, with a unified diff "
                                    "of each object and of its decoded stream (content, CMap…)")
    s.add_argument("file")
    s.add_argument("num", type=int, nargs="?", help="only object N")
    s.add_argument("--revision", type=int, nargs="+", metavar="A B [N]",
                   help="the revisions to compare, 0 = oldest (default: the last two), and optionally the "
                        "object N")
    s.add_argument("--json", action="store_true", help="machine-readable records")
    add_common_options(s)


def _json(d: ObjectDiff) -> dict:
    rec: dict = {"num": d.num, "gen": d.gen, "change": d.change, "diff": list(d.lines)}
    if d.stream is not None:
        s = d.stream
        rec["stream"] = {"kind": s.kind, "before_bytes": s.before, "after_bytes": s.after, "text": s.text,
                         "diff" if s.text else "summary": list(s.lines)}
    rec["replaced"] = [{"key": r.key, "before": str(r.before), "after": str(r.after), "kind": r.stream.kind,
                        "text": r.stream.text, "diff" if r.stream.text else "summary": list(r.stream.lines)}
                       for r in d.replaced]
    return rec


def cmd_diff(args, out) -> int:
    args.revision, revisions = None, args.revision  # open_document checks a single --revision
    if revisions is not None and len(revisions) not in (2, 3):
        raise PdfError(error("usage", "--revision takes two revisions and optionally an object: A B [N]"))
    if revisions is not None and len(revisions) == 3:
        revisions, args.num = revisions[:2], revisions[2]
    doc = open_document(args)
    count = len(doc.revisions)
    a, b = revisions if revisions else (max(count - 2, 0), count - 1)
    for k in (a, b):
        if not 0 <= k < count:
            raise PdfError(error("revision-missing", f"no revision {k} (the document has {count}, numbered "
                                                     "from 0)"))
    diffs = [object_diff(doc, args.num, a, b)] if args.num is not None else revision_diff(doc, a, b)
    trailer = trailer_diff(doc, a, b) if args.num is None else ()
    if args.json:
        dump_json({"from": a, "to": b, "trailer": list(trailer), "objects": [_json(d) for d in diffs]})
        return EXIT_OK
    counts = {c: sum(d.change == c for d in diffs) for c in MARKS}
    out.line(f"revision {a} → {b}: " + ", ".join(f"{n} {c}" for c, n in counts.items()))
    for line in trailer:
        out.line(f"  {line}")
    for d in diffs:
        out.line(f"{MARKS[d.change]} {d.num} {d.gen} obj  {d.change}")
        for line in d.lines:
            out.line(f"  {line}")
        s = d.stream
        if s is not None and not s.same:
            out.line(f"  stream ({s.kind}, decoded): {s.before} → {s.after} bytes")
            for line in s.lines:
                out.line(f"  {line}")
        for r in d.replaced:
            out.line(f"  /{r.key} now {r.after} instead of {r.before}: {r.stream.kind} data {r.stream.before} → "
                     f"{r.stream.after} bytes")
            for line in r.stream.lines:
                out.line(f"  {line}")
    return EXIT_OK
