"""``pdfinspect codes``: the catalogue of every stable code (see :mod:`pdfinspect.present.codes`)."""
from __future__ import annotations

import json

from ..present.codes import catalogue_json, catalogue_markdown


def register(subparsers) -> None:
    s = subparsers.add_parser(
        "codes", help="list every diagnostic code, glyph flag, path step code, font reason and method",
        description="Print the catalogue of every stable code pdfinspect reports, with its meaning and "
                    "ISO 32000 clause, as Markdown (docs/codes.md is this output) or JSON.")
    s.add_argument("--json", action="store_true", help="one JSON object: kind → list of codes")


def cmd_codes(args, out) -> int:
    if args.json:
        out.line(json.dumps(catalogue_json(), ensure_ascii=False, indent=1))
    else:
        out.line(catalogue_markdown().rstrip("\n"))
    return 0
