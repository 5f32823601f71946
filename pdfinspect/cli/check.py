"""``pdfinspect check FILE``: the whole-file check (see :mod:`pdfinspect.core.check`)."""
from __future__ import annotations

from .common import report_repairs, add_common_options, open_document, progress
from ..core.check import check
from ..present.summary import check_rows
from ..present.text import safe_line


def register(subparsers) -> None:
    s = subparsers.add_parser(
        "check", help="check the whole file, like qpdf --check (exit 0 clean, 3 warnings, 1 errors)",
        description="Parse every object, decode every stream, compare lengths and offsets with the data, "
                    "walk the page tree and read the encryption. Prints every problem found, then a "
                    "verdict. Exit status: 0 clean, 3 warnings only, 1 errors (as qpdf --check).")
    s.add_argument("file")
    s.add_argument("--quiet", action="store_true", help="print only the verdict")
    add_common_options(s)


def cmd_check(args, out) -> int:
    doc = open_document(args, allow_locked=True)
    with progress("checking objects") as tick:
        report = check(doc, tick)
    *counts, verdict = check_rows(report)
    if not args.quiet:
        out.line(f"checking {safe_line(args.file)}")
        for row in counts:
            out.line(f"{row.label + ': ':<13}{row.value}")
        for d in report.errors + report.warnings:
            out.line(safe_line(str(d)))
    out.line(verdict.value)
    report_repairs(doc, quiet=True)  # listed above: not again on stderr
    return report.status

