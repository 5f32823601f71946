"""The ``fonts`` report of one font (its :class:`FontFacts`) as a JSON-ready record and as
terminal-safe lines: the CLI's ``fonts`` prints them, the app's Fonts screen shows them."""
from __future__ import annotations

from ..content.fontreports import FontFacts
from .text import safe_line


def report_record(facts: FontFacts) -> dict:
    """``fonts --json``'s record of ``facts``."""
    return {"ref": facts.ref, "names": list(facts.names), "subtype": facts.subtype,
            "base_font": facts.base_font, "missing": facts.missing, "encoding": facts.encoding,
            "tounicode": facts.tounicode, "embedded": facts.embedded, "descendant": facts.descendant,
            "pages": list(facts.pages), "codes": facts.codes, "methods": facts.methods,
            "confidence": facts.confidence, "conflicts": facts.conflicts,
            "reasons": [{"id": r.id, "codes": [c.hex() for c in r.codes], "detail": r.detail}
                        for r in facts.reasons],
            "diagnosis": facts.diagnosis, "diagnostics": list(facts.diagnostics)}


def report_title(facts: FontFacts) -> str:
    """The report's first line: where the font is, its resource names, subtype and base font."""
    where = "(not in the resources: a stand-in)" if facts.missing else facts.ref or "(direct)"
    return (f"{where}  {'/'.join(safe_line(n) for n in facts.names)}  "
            f"{safe_line(facts.subtype)}  {safe_line(facts.base_font)}")


def report_lines(facts: FontFacts) -> list[str]:
    """The report's lines under its title, as ``fonts`` prints them."""
    out = [f"    encoding:  {safe_line(facts.encoding)}"]
    if facts.descendant:
        out.append(f"    CIDFont:   {safe_line(facts.descendant)}")
    out.append(f"    ToUnicode: {facts.tounicode or 'none'}")
    out.append(f"    program:   {safe_line(facts.embedded or 'not embedded')}")
    methods = ", ".join(f"{m} {k}" for m, k in facts.methods.items()) or "no glyphs drawn"
    sure = ", ".join(f"{k} {c}" for c, k in facts.confidence.items() if k)
    out.append(f"    codes:     {facts.codes} distinct — {methods}" + (f" ({sure})" if sure else "")
               + (f"; {facts.conflicts} with conflicts" if facts.conflicts else ""))
    for r in facts.reasons:
        out.append(f"    reason:    {r.id}: {safe_line(r.detail)}")
    if facts.diagnosis:
        out.append(f"    diagnosis: {safe_line(facts.diagnosis)}")
    for d in facts.diagnostics:
        out.append(f"    ! {safe_line(d)}")
    return out
