"""The ``fonts`` report of one font as a JSON-ready record and as terminal-safe lines: the
CLI's ``fonts`` prints them, the app's Fonts screen shows them."""
from __future__ import annotations

from ..fonts.reasons import FontReport
from ..fonts.resolve import Resolver
from .text import safe_line


def _ref(ref) -> str | None:
    return str(ref) if ref is not None else None


def report_record(rep: FontReport, resolver: Resolver) -> dict:
    """``fonts --json``'s record of ``rep``."""
    font = rep.font
    prog = resolver.program(font) if font.embedded else None
    return {"ref": _ref(rep.ref), "names": list(rep.names), "subtype": rep.subtype,
            "base_font": rep.base_font, "missing": font.substitute_for is not None, "encoding": font.encoding_desc,
            "tounicode": _ref(font.tounicode_ref) if font.tounicode else None,
            "embedded": (f"/{font.program_key} {font.program_kind} {font.program_ref}"
                         if font.embedded else None),
            "descendant": (f"{font.cid_font.subtype} {font.cid_font.registry}-{font.cid_font.ordering}"
                           if font.cid_font else None),
            "pages": list(rep.pages), "codes": rep.codes, "methods": rep.methods,
            "confidence": rep.confidence,
            "conflicts": sum(1 for r in rep.resolutions if r.conflicts),
            "reasons": [{"id": r.id, "codes": [c.hex() for c in r.codes], "detail": r.detail}
                        for r in rep.reasons],
            "diagnosis": rep.diagnosis,
            "diagnostics": [str(d) for d in font.diagnostics + (prog.diagnostics if prog else ())]}


def report_title(rec: dict) -> str:
    """The report's first line: where the font is, its resource names, subtype and base font."""
    where = "(not in the resources: a stand-in)" if rec["missing"] else rec["ref"] or "(direct)"
    return (f"{where}  {'/'.join(safe_line(n) for n in rec['names'])}  "
            f"{safe_line(rec['subtype'])}  {safe_line(rec['base_font'])}")


def report_lines(rec: dict) -> list[str]:
    """The report's lines under its title, as ``fonts`` prints them."""
    out = [f"    encoding:  {safe_line(rec['encoding'])}"]
    if rec["descendant"]:
        out.append(f"    CIDFont:   {safe_line(rec['descendant'])}")
    out.append(f"    ToUnicode: {rec['tounicode'] or 'none'}")
    out.append(f"    program:   {safe_line(rec['embedded'] or 'not embedded')}")
    methods = ", ".join(f"{m} {k}" for m, k in rec["methods"].items()) or "no glyphs drawn"
    sure = ", ".join(f"{k} {c}" for c, k in rec["confidence"].items() if k)
    out.append(f"    codes:     {rec['codes']} distinct — {methods}" + (f" ({sure})" if sure else "")
               + (f"; {rec['conflicts']} with conflicts" if rec["conflicts"] else ""))
    for r in rec["reasons"]:
        out.append(f"    reason:    {r['id']}: {safe_line(r['detail'])}")
    if rec["diagnosis"]:
        out.append(f"    diagnosis: {safe_line(rec['diagnosis'])}")
    for d in rec["diagnostics"]:
        out.append(f"    ! {safe_line(d)}")
    return out
