"""CLI command ``extractors``: the real text extractors on a page, aligned with their emulation.

Each real extractor runs in a subprocess with a timeout (:mod:`pdfinspect.extractors.oracle`);
its words are aligned with the words of its emulated rule table (``text --as NAME``), and
every difference is printed with the glyph, the rule and the constant that decided it. A
difference is a bug in our table. The real outputs are also compared with each other.
"""
from __future__ import annotations

from ..content.textlayout import page_glyphs
from ..present.text import safe_line
from .common import add_common_options, dump_json, open_document, page_of


def register(subparsers) -> None:
    """Add the ``extractors`` subcommand."""
    s = subparsers.add_parser("extractors", help="run the real text extractors on a page and explain where "
                                                 "they differ from each other and from their emulation")
    s.add_argument("file")
    s.add_argument("-p", "--page", type=int, default=1, help="page number, 1-based (default 1)")
    s.add_argument("--only", default=None, help="comma-separated extractors (default: pdfminer,pypdf,pdfium,"
                                                "poppler,mupdf)")
    s.add_argument("--limit", type=int, default=20, help="differences shown per extractor (default 20)")
    s.add_argument("--timeout", type=float, default=60.0, help="seconds each extractor may take (default 60)")
    s.add_argument("--json", action="store_true", help="machine-readable result")
    add_common_options(s)


def cmd_extractors(args, out) -> int:
    from ..extractors import emulate, page_frame
    from ..extractors import oracle

    names = [n.strip() for n in args.only.split(",")] if args.only else list(oracle.REAL)
    unknown = [n for n in names if n not in oracle.REAL]
    if unknown:
        out.line(f"error: no real extractor {', '.join(unknown)} (one of {', '.join(oracle.REAL)})")
        return 2
    doc = open_document(args)
    ref = page_of(doc, args.page)
    records = list(page_glyphs(doc, ref))
    box = page_frame(doc, ref)
    result: dict = {"page": args.page, "extractors": {}, "pairwise": {}}
    reals: dict[str, str] = {}
    emulations = {}
    shared: dict = {}
    for name in names:
        emulated = emulations[name] = emulate(name, records, box, shared)
        real = oracle.run(name, args.file, args.page, args.timeout)
        entry: dict = {"available": real.text is not None, "error": real.error, "emulated": emulated.text,
                       "real": real.text}
        if real.text is not None:
            reals[name] = real.text
            entry["agreement"] = round(oracle.agreement(emulated.text, real.text), 4)
            entry["differences"] = [
                {"kind": d.kind, "ours": d.ours, "theirs": d.theirs, "glyph": d.glyph, "rule": d.rule,
                 "detail": d.detail} for d in oracle.align(emulated, real.text, args.limit)]
        result["extractors"][name] = entry
    listed = sorted(reals)
    for i, a in enumerate(listed):
        for b in listed[i + 1:]:
            result["pairwise"][f"{a}/{b}"] = round(oracle.agreement(reals[a], reals[b]), 4)
    between = oracle.disagreements(emulations)[:args.limit]
    result["disagreements"] = [
        {"glyph": r.index, "unicode": r.unicode,
         "extractors": {n: {"text": d.text, "kept": d.kept, "before": d.before, "rule": d.rule, "detail": d.detail}
                        for n, d in ds.items()}} for r, ds in between]
    if args.json:
        dump_json(result)
        return 0
    for name, entry in result["extractors"].items():
        if not entry["available"]:
            out.line(f"{name}: {safe_line(entry['error'])}")
            continue
        diffs = entry["differences"]
        verdict = "emulation matches" if not diffs else f"{len(diffs)} difference(s): a bug in our {name} table"
        out.line(f"{name}: word agreement with its emulation {entry['agreement']:.4f}; {verdict}")
        for d in diffs:
            where = f"glyph #{d['glyph']}" if d["glyph"] is not None else "no glyph"
            out.line(f"  {d['kind']:<7} ours {safe_line(d['ours'][:60])!r} real {safe_line(d['theirs'][:60])!r} "
                     f"— {where}, {safe_line(d['rule'] or '?')}: {safe_line(d['detail'])}")
    if between:
        out.line("where the extractors differ from each other, by their tables:")
    for record, decisions in between:
        out.line(f"  glyph #{record.index} {safe_line(record.unicode)!r}:")
        for n, d in decisions.items():
            what = ("dropped" if not d.kept else {"": "nothing", " ": "a space", "\n": "a line break"}[d.before]
                    + " before " + repr(safe_line(d.text)))
            out.line(f"    {n:<9} {what} — {safe_line(d.rule)}: {safe_line(d.detail)}")
    if result["pairwise"]:
        out.line("real extractors against each other (word agreement):")
        for pair, f1 in result["pairwise"].items():
            out.line(f"  {pair}: {f1:.4f}")
    return 0
