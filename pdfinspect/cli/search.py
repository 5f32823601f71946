"""``search``: the app's search from the shell, page text or objects (present/search.py)."""
from __future__ import annotations

import re

from ..core.diagnostics import PdfError, error
from ..present.search import compile_query, compile_text_query, search_object, search_page_text
from ..present.text import safe_line
from .common import EXIT_OK, add_common_options, dump_json, open_document, page_number, page_spec, progress


def register(sub) -> None:
    s = sub.add_parser("search", help="find text in the pages' extracted text (default) or bytes in the "
                                      "objects' strings and decoded streams, as the app's search does")
    s.add_argument("file")
    s.add_argument("pattern")
    what = s.add_mutually_exclusive_group()
    what.add_argument("--text", dest="objects", action="store_false",
                      help="search the text of the pages (default)")
    what.add_argument("--objects", action="store_true",
                      help="search strings and decoded streams (Latin-1, UTF-8 and UTF-16BE forms)")
    s.set_defaults(objects=False)
    s.add_argument("--regex", action="store_true", help="PATTERN is a regular expression")
    s.add_argument("-p", "--page", type=page_spec, help="only page N (number or label; with --text)")
    s.add_argument("--json", action="store_true", help="machine-readable hits")
    add_common_options(s)


def cmd_search(args, out) -> int:
    doc = open_document(args)
    try:
        pattern = (compile_query if args.objects else compile_text_query)(args.pattern, args.regex)
    except re.error as e:
        raise PdfError(error("pattern-bad", f"bad regular expression {args.pattern!r}: {e}")) from None
    records = []
    if args.objects:
        nums = doc.object_numbers()
        with progress("searching objects") as tick:
            for done, obj in enumerate(doc.iter_objects(cache=False), 1):
                if tick is not None and done % 500 == 0:
                    tick(done, len(nums))
                for h in search_object(doc, obj, pattern, doc.decode_limit):
                    records.append({"ref": str(h.ref), "where": h.where, "offset": h.offset, "line": h.line,
                                    "key": h.key, "context": h.context})
    else:
        pages = [page_number(doc, args.page)] if args.page is not None else range(1, doc.page_count() + 1)
        with progress("searching pages") as tick:
            for done, n in enumerate(pages, 1):
                if tick is not None:
                    tick(done, len(pages))
                for h in search_page_text(doc, n, pattern):
                    records.append({"page": h.page, "ref": str(h.ref), "op": h.step, "offset": h.offset,
                                    "context": h.context})
    if args.json:
        dump_json(records)
        return EXIT_OK
    for r in records:
        if args.objects:
            where = f"{r['where']} line {r['line']}" if r["line"] else r["where"]
            out.line(f"{r['ref']:>10}  {safe_line(where)} @{r['offset']}: {safe_line(r['context'])}")
        else:
            out.line(f"page {r['page']:>4}  op {r['op']:>5}: {safe_line(r['context'])}")
    return EXIT_OK if records else 1
