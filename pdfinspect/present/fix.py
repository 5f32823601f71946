"""Fixing ToUnicode CMaps as both front ends show it: the plan from a walk over the pages,
the fixed file, and each page's extraction before and after.

The extraction compared is what an extractor that follows 9.10.2 alone outputs (Acrobat's
behaviour in the seeds' κ example): the ToUnicode text where the CMap has an entry, the
raw code where a ToUnicode exists but misses it, and Encoding/CID collection where the
font has no ToUnicode at all. That is the text a fix changes; pdfinspect's own text, which
falls back further, must come out the same before and after.
"""
from __future__ import annotations

import dataclasses
import difflib
import unicodedata
from collections import Counter
from dataclasses import dataclass

from ..content.textlayout import GlyphRecord, layout, page_glyphs
from ..core.document import Document
from ..fonts.font import FontCache
from ..fonts.fix import (ADD, CONFLICT, KEEP, REPLACE, UNRESOLVED, UNUSABLE, FixPlan, plan, same_text,
                         spec_extraction)
from ..fonts.resolve import ACTUAL_TEXT, Resolver, format_unicode
from .text import safe_line


@dataclass(frozen=True, slots=True)
class PageText:
    spec: str  # the 9.10.2-only extraction
    full: str  # pdfinspect's text (every method)


@dataclass(frozen=True, slots=True)
class PageDiff:
    page: int
    before: str
    after: str
    full_unchanged: bool

    def hunks(self) -> list[tuple[list[str], list[str]]]:
        """(lines before, lines after) for each run of lines that differs."""
        a, b = self.before.splitlines(), self.after.splitlines()
        m = difflib.SequenceMatcher(None, a, b, autojunk=False)
        return [(a[i1:i2], b[j1:j2]) for tag, i1, i2, j1, j2 in m.get_opcodes() if tag != "equal"]

    def changes(self) -> list[tuple[str, str]]:
        """(before, after) for each stretch of characters that differs, within the hunks."""
        out = []
        for old, new in self.hunks():
            a, b = "\n".join(old), "\n".join(new)
            m = difflib.SequenceMatcher(None, a, b, autojunk=False)
            out += [(a[i1:i2], b[j1:j2]) for tag, i1, i2, j1, j2 in m.get_opcodes() if tag != "equal"]
        return out


def spec_text(r: GlyphRecord) -> str:
    """The glyph's text from an extractor that follows 9.10.2 alone (ActualText wins)."""
    return r.unicode if r.method == ACTUAL_TEXT else spec_extraction(r.step.font, r.resolution)


def _records(doc: Document, pages: list[int] | None, shapes=None):
    """(page number, its glyph records) for ``pages`` (default: all); ``shapes`` a learned
    :class:`~pdfinspect.fonts.shapevote.ShapeTable` for the shape vote."""
    resolver, fonts = Resolver(doc, shapes=shapes), FontCache.of(doc)
    for n in pages if pages is not None else range(1, doc.page_count() + 1):
        ref = doc.page_ref(n)
        if ref is not None:
            yield n, list(page_glyphs(doc, ref, resolver, fonts))


def _text(records: list[GlyphRecord]) -> PageText:
    return PageText(layout(dataclasses.replace(r, unicode=spec_text(r)) for r in records), layout(records))


def walk(doc: Document, pages: list[int] | None = None, source: str = "heuristic",
         replace_conflicts: bool = False, only: set | None = None,
         shapes=None) -> tuple[FixPlan, dict[int, PageText]]:
    """The fix plan for the glyphs on ``pages`` (default: all), and those pages' text."""
    texts: dict[int, PageText] = {}
    observed = []
    for n, records in _records(doc, pages, shapes):
        seen = set()
        for r in records:
            key = (id(r.step.font), r.glyph.code)
            if key not in seen:
                seen.add(key)
                observed.append((r.step.font, r.step.gstate.text.font_name, r.resolution))
        texts[n] = _text(records)
    return plan(observed, source, replace_conflicts, only), texts


def diffs(before: dict[int, PageText], after_doc: Document) -> list[PageDiff]:
    """Pages whose 9.10.2 extraction changed between ``before`` and the fixed document."""
    after = {n: _text(records) for n, records in _records(after_doc, sorted(before))}
    out = []
    for n, old in before.items():
        new = after.get(n)
        if new is not None and new.spec != old.spec:
            out.append(PageDiff(n, old.spec, new.spec, same_text(new.full, old.full)))
    return out


def _show(text: str) -> str:
    """One terminal-safe line, private-use and unassigned characters written as \\uXXXX."""
    return "".join(f"\\u{ord(c):04x}" if unicodedata.category(c) in ("Co", "Cn") else c for c in safe_line(text))


def _short(text: str, width: int = 40) -> str:
    text = _show(text)
    return text if len(text) <= width else text[:width - 1] + "…"


def _cell(text: str | None) -> str:
    return safe_line(format_unicode(text)) if text is not None else "—"


def plan_lines(fix_plan: FixPlan, verbose: bool = True) -> list[str]:
    """The plan as terminal-safe lines: per font, its reasons and what happens to each code."""
    writing = fix_plan.to_write
    lines = [f"{len(writing)} of {len(fix_plan.fonts)} font{'s' if len(fix_plan.fonts) != 1 else ''} "
             f"to fix (mappings from {fix_plan.source} methods)"]
    for f in fix_plan.fonts:
        font = f.font
        lines.append(f"{f.ref or '(direct)'}  {'/'.join(safe_line(n) for n in f.names)}  {font.subtype}  "
                     f"{safe_line(font.base_font)}  reasons: {', '.join(f.reasons) or 'none'}")
        if f.skipped:
            lines.append(f"    not fixed: {f.skipped}")
            continue
        counts = ", ".join(f"{f.count(a)} {a}" for a in (ADD, REPLACE, KEEP, CONFLICT, UNUSABLE, UNRESOLVED)
                           if f.count(a))
        lines.append(f"    shown codes: {len(f.codes)} — {counts}; new ToUnicode: {len(f.mapping)} "
                     f"mappings, codespace {' '.join(f'<{r.low.hex()}>–<{r.high.hex()}>' for r in f.codespace)}")
        if f.dropped:
            lines.append(f"    dropped: {len(f.dropped)} old entries outside the codespace "
                         f"(<{f.dropped[0].hex()}>…)")
        for c in f.codes:
            if c.action == KEEP and not verbose:
                continue
            what = f"{c.method} ({c.confidence})" if c.action in (ADD, REPLACE) else c.method
            extra = f"; was {_cell(c.before)}" if c.action == REPLACE else \
                f"; other method says {_cell(c.other)}" if c.other is not None else ""
            lines.append(f"    <{c.code.hex()}> {c.action:<13} {_cell(c.after):<18} {what}: "
                         f"{safe_line(c.detail)}{extra}")
        missing = [c.code.hex() for c in f.codes if c.action == UNRESOLVED]
        if missing:
            lines.append(f"    left out (no method resolves them): {' '.join(f'<{m}>' for m in missing)}")
    return lines


def diff_lines(page_diffs: list[PageDiff], max_lines: int = 40, max_pairs: int = 24) -> list[str]:
    """Each changed page: its changed lines before (-) and after (+), blank ones left out,
    then the characters that changed, most frequent first."""
    out = []
    for d in page_diffs:
        out.append(f"page {d.page}: 9.10.2 extraction changed"
                   + ("" if d.full_unchanged else " (pdfinspect's own text too: the old ToUnicode won there)"))
        body = []
        for old, new in d.hunks():
            old, new = [a for a in old if a.strip()], [b for b in new if b.strip()]
            body += [f"  - {_show(a)}" for a in old or ["(no text)"] if new or old]
            body += [f"  + {_show(b)}" for b in new or ["(no text)"] if new or old]
        out += body[:max_lines]
        if len(body) > max_lines:
            out.append(f"  … {len(body) - max_lines} more lines")
        pairs = Counter((a, b) for a, b in d.changes() if a.strip() or b.strip()).most_common()
        shown = ", ".join(f"{_short(a) or '∅'} → {_short(b) or '∅'}" + (f" ×{k}" if k > 1 else "")
                          for (a, b), k in pairs[:max_pairs])
        out.append(f"    changed: {shown}" + (f", … {len(pairs) - max_pairs} more" if len(pairs) > max_pairs else ""))
    return out
