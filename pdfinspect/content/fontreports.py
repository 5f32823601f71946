"""Font reports over pages: every glyph of the chosen pages resolved, then summed up per font
with the reasons of :mod:`pdfinspect.fonts.reasons` (which holds the types and the logic;
walking content streams belongs to this layer)."""
from __future__ import annotations

from collections.abc import Callable, Iterable

from ..fonts.font import Font, FontCache
from ..fonts.reasons import FontReport, report
from ..fonts.resolve import Resolution, Resolver
from .interpreter import iter_steps


def font_reports(doc, pages: Iterable[int] | None = None, resolver: Resolver | None = None, *,
                 annots: bool = True, progress: Callable[[int, int], object] | None = None) -> list[FontReport]:
    """One :class:`FontReport` per font used on ``pages`` (1-based numbers; ``None``: all),
    annotation appearances included unless ``annots`` is false; ``progress(done, total)`` after
    each page."""
    resolver = resolver or Resolver(doc)
    fonts = FontCache(doc)
    numbers = range(1, doc.page_count() + 1) if pages is None else list(pages)
    seen: dict[Font, dict[bytes, Resolution]] = {}
    names: dict[Font, set[str]] = {}
    used_on: dict[Font, set[int]] = {}
    for done, n in enumerate(numbers, 1):
        if progress is not None:
            progress(done - 1, len(numbers))
        ref = doc.page_ref(n)
        if ref is None:
            continue
        # the steps, not glyph records: each distinct code of a font is resolved once, and
        # nothing per glyph (boxes, ActualText) is built that a report does not use
        for step in iter_steps(doc, ref, fonts, annots=annots):
            font = step.font
            if font is None or not step.glyphs:
                continue
            codes = seen.setdefault(font, {})
            for g in step.glyphs:
                if g.code not in codes:
                    codes[g.code] = resolver.resolve(font, g.code, g.cid)
            names.setdefault(font, set()).add(step.gstate.text.font_name or "")
            used_on.setdefault(font, set()).add(n)
    if progress is not None:
        progress(len(numbers), len(numbers))
    return [report(font, tuple(seen.get(font, {}).values()), tuple(sorted(names.get(font, ()))),
                   tuple(sorted(used_on.get(font, ()))), resolver) for font in fonts]
