"""``hidden``: the text of a page a reader cannot see, run by run, and why.

Each run is consecutive hidden glyphs of one line with the same reason ids
(:data:`pdfinspect.content.visibility.REASONS`), with the extractors whose emulation
(:mod:`pdfinspect.extractors`) outputs any of its glyphs. Every string from the PDF goes
through :mod:`pdfinspect.present.text` before it reaches the terminal.
"""
from __future__ import annotations

from ..content.visibility import REASONS, hidden_runs
from ..extractors import NAMES, emulate, page_frame
from ..present.glyphs import page_glyph_facts
from ..present.text import safe_line
from .common import add_common_options, dump_json, open_document, page_numbers, pages_arg, progress


def register(subparsers) -> None:
    s = subparsers.add_parser("hidden", help="text a reader cannot see (invisible, clipped, off the page, "
                                             "transparent, tiny, same colour as its background, covered, "
                                             "duplicated), run by run with its reasons",
                              description="List each run of hidden text: page, text, reason ids "
                                          f"({', '.join(REASONS)}), its box on the page and the "
                                          "extractors whose emulation outputs it.")
    s.add_argument("file")
    s.add_argument("-p", "--page", type=pages_arg, default=None,
                   help="page number or range (3, 3-7, 3-), 1-based (default: every page)")
    s.add_argument("--json", action="store_true", help="machine-readable records")
    s.add_argument("--no-annots", dest="annots", action="store_false",
                   help="leave out the annotations' appearance streams")
    add_common_options(s)


def cmd_hidden(args, out) -> int:
    doc = open_document(args)
    if not args.json:  # the runs are printed page by page as they are found
        return _hidden(doc, args, out, None)
    with progress("reading pages") as tick:  # the records come at the end: a bar meanwhile
        return _hidden(doc, args, out, tick)


def _hidden(doc, args, out, tick) -> int:
    records = []
    first, last = args.page or (1, None)
    total = min(last or doc.page_count(), doc.page_count()) - first + 1 if tick is not None else None
    for done, (n, ref) in enumerate(page_numbers(doc, args.page)):
        if tick is not None:
            tick(done, total)
        facts = page_glyph_facts(doc, ref, annots=args.annots)
        runs = hidden_runs(facts.records, facts.layouts, facts.visibility)
        kept = _kept(facts.records, page_frame(doc, ref)) if runs else {}
        for run in runs:
            rec = {"page": n, "text": run.text, "reasons": list(run.reasons),
                   "bbox": None if run.bbox is None else [round(v, 2) for v in run.bbox],
                   "glyphs": [run.first, run.last],
                   "extractors": [name for name in NAMES
                                  if not kept[name].isdisjoint(range(run.first, run.last + 1))]}
            if args.json:
                records.append(rec)
                continue
            box = " ".join(f"{v:g}" for v in rec["bbox"]) if rec["bbox"] else "?"
            out.line(f"p{n}  glyphs {run.first}–{run.last}  [{box}]  {', '.join(run.reasons)}")
            out.line(f"    {safe_line(run.text)}")
            out.line(f"    output by (emulated): {', '.join(rec['extractors']) or 'none'}")
    if args.json:
        dump_json(records)
    return 0


def _kept(records, page) -> dict[str, set[int]]:
    """For each emulated extractor, the indexes of the glyphs it outputs."""
    shared: dict = {}
    return {name: {d.record.index for d in emulate(name, records, page, shared).decisions if d.kept}
            for name in NAMES}
