"""``pdfinspect fix``: write a corrected ToUnicode as an incremental update (ISO 32000-1
9.10.3, 7.5.6), and show each page's extraction before and after.

The plan comes from :mod:`pdfinspect.present.fix` (the same the app shows), the bytes from
:mod:`pdfinspect.core.writer`. The input file is never written.
"""
from __future__ import annotations

import argparse
import re

from .common import err, add_common_options, open_document
from ..core.atomic import check_target
from ..core.diagnostics import PdfError, error
from ..core.document import Document
from ..core.objects import Ref
from ..core.writer import check_encryptable, check_updatable
from ..fonts.fix import SOURCES
from ..present.fix import diff_lines, diffs, plan_lines, walk
from ..present.text import safe

_REF = re.compile(r"(\d+)(?:\s+(\d+))?(?:\s*R)?")
_PAGES = re.compile(r"(\d+)(?:-(\d+))?")


def register(subparsers) -> None:
    s = subparsers.add_parser(
        "fix", help="write a copy whose fonts carry a corrected ToUnicode CMap (incremental update)",
        description="For each font whose ToUnicode is missing, incomplete, degenerate or unusable, write "
                    "a ToUnicode CMap built from what the other methods resolve, as an incremental update "
                    "(original bytes kept as the prefix). Codes no method resolves are left out and listed.")
    s.add_argument("file")
    s.add_argument("-o", "--output", help="the fixed copy (never the input file)")
    s.add_argument("--font", action="append", metavar="REF",
                   help="only this font: object number ('5', '5 0 R') or resource name ('F4'); repeatable")
    s.add_argument("--pages", metavar="N-M", type=_page_range,
                   help="look at the glyphs of these pages only ('3', '2-5', '1,4-6'; default: every page)")
    s.add_argument("--from", dest="source", choices=SOURCES, default="heuristic",
                   help="'spec': only the spec's methods (Encoding + AGL, CID collection, font program); "
                        "'heuristic' (default): also the named heuristics, each marked in the plan; 'shapes': the "
                        "spec's methods and the glyph shapes (the document's own, or --shapes TABLE)")
    s.add_argument("--shapes", metavar="TABLE", help="a shape table learned by 'audit --learn-shapes'")
    s.add_argument("--replace-conflicts", action="store_true",
                   help="where ToUnicode and another method disagree on real text, take the other "
                        "method's text (default: keep the ToUnicode text and list the conflict)")
    s.add_argument("--dry-run", action="store_true", help="print the plan and the CMaps, write nothing")
    s.add_argument("--rewrite", action="store_true",
                   help="write a whole new file instead of an update (for files that needed repair)")
    s.add_argument("--no-compress", action="store_true", help="leave a new xref stream uncompressed")
    add_common_options(s)


def _page_range(text: str) -> list[int]:
    pages: list[int] = []
    for part in text.split(","):
        m = _PAGES.fullmatch(part.strip())
        if not m or int(m.group(1)) < 1 or (m.group(2) and int(m.group(2)) < int(m.group(1))):
            raise argparse.ArgumentTypeError(f"not a page range: {text!r} (use N, N-M or N,M-K)")
        pages.extend(range(int(m.group(1)), int(m.group(2) or m.group(1)) + 1))
    return sorted(set(pages))


def _font_choice(values: list[str] | None) -> set | None:
    if not values:
        return None
    chosen: set = set()
    for v in values:
        m = _REF.fullmatch(v.strip())
        chosen.add(Ref(int(m.group(1)), int(m.group(2) or 0)) if m else v.strip().lstrip("/"))
    return chosen


def cmd_fix(args, out) -> int:
    if not args.dry_run and not args.output:
        raise PdfError(error("usage", "fix needs -o OUT (or --dry-run)"))
    if args.output:
        check_target(args.output, inputs=[args.file])  # before the (long) walk over the pages
    doc = open_document(args)
    if args.pages and args.pages[-1] > doc.page_count():
        raise PdfError(error("page-missing", f"no page {args.pages[-1]} (the document has {doc.page_count()})"))
    if args.rewrite:
        check_encryptable(doc)
    elif not args.dry_run:
        check_updatable(doc)  # before the (long) walk over the pages
    chosen = _font_choice(args.font)
    from .content import resolver_for

    plan, before = walk(doc, args.pages, args.source, args.replace_conflicts, chosen,
                        shapes=resolver_for(args, doc).shapes)
    for line in plan_lines(plan):
        out.line(line)
    found = {f.ref for f in plan.fonts} | {n for f in plan.fonts for n in f.names}
    for missing in sorted(map(str, (chosen or set()) - found)):
        err(f"--font {missing}: no such font is shown on the chosen pages")
    if args.dry_run:
        for f in plan.to_write:
            out.line(f"% ToUnicode for {f.ref}")
            out.pdf(safe(f.cmap().decode("latin-1")).rstrip("\n"), "cmap")
        return 0
    if not plan.to_write:
        err(f"nothing to fix; {args.output} not written")
        return 0
    size = plan.save(doc, args.output, rewrite=args.rewrite, compress=not args.no_compress)
    with Document.open(args.output, password=args.password or b"") as fixed:
        how = "new file" if args.rewrite else \
            f"incremental update at offset {len(doc.buf)}: revision {len(fixed.revisions) - 1}, " \
            f"xref {fixed.revisions[-1].sections[0].kind}"
        out.line(f"wrote {safe(args.output)} ({size} bytes; {how})")
        changed = diffs(before, fixed)
    for line in diff_lines(changed) or ["no page's 9.10.2 extraction changed"]:
        out.line(line)
    return 0
