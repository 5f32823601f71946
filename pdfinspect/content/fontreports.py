"""Font reports over pages: every code each font shows on the chosen pages resolved once,
then summed up per font with the reasons of :mod:`pdfinspect.fonts.reasons` (which holds the
types and the logic; walking content streams belongs to this layer).

A page's content is read by :func:`pdfinspect.content.usage.font_strings` when it can (a
report needs which font shows which strings, not the graphics state of every operator), by
the interpreter otherwise; annotation appearances always go through the interpreter."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..core.budget import DEFAULT_LIMITS, pages_spent
from ..core.diagnostics import warning
from ..core.objects import Dict
from ..fonts.font import Font, FontCache
from ..fonts.reasons import FontReport, Reason, report
from ..fonts.resolve import Resolution, Resolver
from .interpreter import iter_steps, page_content, page_resources
from .usage import font_strings


class _Tally:
    """What the pages showed: each font's codes resolved in the order first shown, the
    resource names it was selected by, the pages it shows glyphs on."""

    def __init__(self, resolver: Resolver):
        self.resolver = resolver
        self.seen: dict[Font, dict[bytes, Resolution]] = {}
        self.names: dict[Font, set[str]] = {}
        self.used_on: dict[Font, set[int]] = {}
        self.strings: dict[Font, set[bytes]] = {}  # strings already cut into codes

    def code(self, font: Font, code: bytes, cid: int | None) -> None:
        codes = self.seen.setdefault(font, {})
        if code not in codes:
            codes[code] = self.resolver.resolve(font, code, cid)

    def used(self, font: Font, name: str, page: int) -> None:
        self.names.setdefault(font, set()).add(name)
        self.used_on.setdefault(font, set()).add(page)

    def steps(self, steps, page: int) -> None:
        # the steps, not glyph records: nothing per glyph (boxes, ActualText) is built
        for step in steps:
            font = step.font
            if font is None or not step.glyphs:
                continue
            for g in step.glyphs:
                self.code(font, g.code, g.cid)
            self.used(font, step.gstate.text.font_name or "", page)

    def strings_shown(self, shown: dict[Font, dict[bytes, None]], names: dict[Font, set[str]], page: int) -> None:
        for font, strings in shown.items():
            done = self.strings.setdefault(font, set())
            composite = font.cmap is not None
            for data in strings:
                if data in done:
                    continue
                done.add(data)
                for piece in font.split(data):
                    self.code(font, piece.code, font.cid(piece.code) if composite else None)
            for name in names[font]:
                self.used(font, name, page)


def font_reports(doc, pages: Iterable[int] | None = None, resolver: Resolver | None = None, *,
                 annots: bool = True, progress: Callable[[int, int], object] | None = None,
                 fonts: FontCache | None = None) -> list[FontReport]:
    """One :class:`FontReport` per font used on ``pages`` (1-based numbers; ``None``: all),
    annotation appearances included unless ``annots`` is false; ``progress(done, total)`` after
    each page. ``fonts`` (with ``resolver``): the document's shared caches, when the caller
    interprets its pages afterwards too (:meth:`FontCache.of`, :meth:`Resolver.of`)."""
    resolver = resolver or Resolver(doc)
    fonts = fonts or FontCache(doc)
    numbers = range(1, doc.page_count() + 1) if pages is None else list(pages)
    tally = _Tally(resolver)
    refs = doc.page_refs()  # walked once: page_ref(n) per page reads a flat /Kids of 10^5 pages n times
    limit = getattr(doc, "limits", DEFAULT_LIMITS).pages
    for done, n in enumerate(numbers, 1):
        if limit is not None and done > limit:
            doc.note(pages_spent(limit, n, len(numbers)))
            break
        if progress is not None:
            progress(done - 1, len(numbers))
        ref = refs[n - 1] if 0 < n <= len(refs) else None
        if ref is None:
            continue
        page = doc.resolve(ref)
        if not isinstance(page, Dict):
            continue
        budget = getattr(doc, "limits", DEFAULT_LIMITS).budget()
        found = font_strings(doc, page_content(doc, page, budget)[0], page_resources(doc, page), fonts, budget)
        if budget.stopped is not None:
            doc.note(warning("budget-spent", f"page {n}: {budget.stopped}", ref=(ref.num, ref.gen)))
        if found is None:
            tally.steps(iter_steps(doc, ref, fonts, annots=annots), n)
            continue
        tally.strings_shown(*found, n)
        if annots:
            tally.steps(iter_steps(doc, ref, fonts, content=False), n)
    if progress is not None:
        progress(len(numbers), len(numbers))
    # every font a Tf selected is reported, used or not; a stand-in for a missing font only where it shows glyphs
    return [report(font, tuple(tally.seen.get(font, {}).values()), tuple(sorted(tally.names.get(font, ()))),
                   tuple(sorted(tally.used_on.get(font, ()))), resolver) for font in fonts
            if font.substitute_for is None or font in tally.seen]


@dataclass(frozen=True)
class FontFacts:
    """What is said of one font, once: the CLI's ``fonts`` (text and ``--json``), the app's
    Fonts screen (both through :mod:`pdfinspect.present.fontreport`) and the audit's font
    records are written from it. ``ref``, ``tounicode`` are ``"N G R"`` strings or ``None``;
    ``missing``: a stand-in for a font not in the resources; ``embedded``: the program's key,
    kind and object; ``descendant``: the CIDFont's subtype and character collection;
    ``diagnostics``: the font's and its program's, as sentences."""

    ref: str | None
    names: tuple[str, ...]
    subtype: str
    base_font: str
    missing: bool
    encoding: str
    tounicode: str | None
    embedded: str | None
    descendant: str | None
    pages: tuple[int, ...]
    codes: int
    methods: dict[str, int]
    confidence: dict[str, int]
    conflicts: int
    reasons: tuple[Reason, ...]
    diagnosis: str
    diagnostics: tuple[str, ...]


def _ref(ref: object) -> str | None:
    return str(ref) if ref is not None else None


def font_facts(rep: FontReport, resolver: Resolver) -> FontFacts:
    """The facts of the font ``rep`` reports on (its embedded program read by ``resolver``)."""
    font = rep.font
    assert font is not None  # font_reports always keeps the font
    prog = resolver.program(font) if font.embedded else None
    cf = font.cid_font
    return FontFacts(
        ref=_ref(rep.ref), names=tuple(rep.names), subtype=rep.subtype, base_font=rep.base_font,
        missing=font.substitute_for is not None, encoding=font.encoding_desc,
        tounicode=_ref(font.tounicode_ref) if font.tounicode else None,
        embedded=f"/{font.program_key} {font.program_kind} {font.program_ref}" if font.embedded else None,
        descendant=f"{cf.subtype} {cf.registry}-{cf.ordering}" if cf else None,
        pages=tuple(rep.pages), codes=rep.codes, methods=rep.methods, confidence=rep.confidence,
        conflicts=sum(1 for r in rep.resolutions if r.conflicts), reasons=rep.reasons, diagnosis=rep.diagnosis,
        diagnostics=tuple(str(d) for d in font.diagnostics + (prog.diagnostics if prog else ())))
