"""Why a font's text extracts badly: per-font reports with stable reason ids.

:func:`report` sums up, from the resolutions of the distinct codes a font shows, the
distinct codes each method won (``methods``), how sure those answers are (``confidence``:
``spec``, ``heuristic``, ``none``) and the *reasons* text from the font comes out wrong or
only by a guess. Each :class:`Reason` has a stable snake_case id from :data:`REASON_IDS`
(documented in :data:`REASON_DOCS`), the codes it affects and a one-line detail; the
diagnosis sentence is written from the reasons. Every reason is read off the same per-code
resolution paths ``glyphs`` shows, so the two never disagree.

Walking pages to collect those resolutions interprets content streams, a layer above this
one: :func:`pdfinspect.content.fontreports.font_reports` (``doc, pages=None, resolver=None``)
does it and returns these reports. Domain logic only: no Rich, no Textual.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

from ..core.objects import Ref
from ..spec.codes import Registry
from .agl import is_meaningless
from .codes import (AGL_NO_MAPPING, AGL_TEX_AMBIGUITY, CONTROL_CHARACTER, MAPPING_CONTRADICTS_SHAPE, PRIVATE_USE,
                    REPLACEMENT_CHARACTER)
from .font import Font
from .heuristics import (BY_METHOD, CODE_AS_UNICODE, CONFIDENCES, GUESS, HEURISTIC, NO_CONFIDENCE, NUMERIC_GLYPH_NAME,
                         is_lead_byte, legacy_cjk_codec)
from .resolve import (CID_COLLECTION, ENCODING, FONT_PROGRAM, HIT, MISS, NONE, TOUNICODE, Resolution, Resolver,
                      format_unicode, no_text, tounicode_cid_shift, tounicode_width_shift)
from .shift import (moved, tounicode_confirmed, tounicode_mark_shift, tounicode_rare_letter_shift, tounicode_rare_shift,
                    tounicode_shift)

NUMERIC_METHOD, CODE_AS_UNICODE_METHOD = NUMERIC_GLYPH_NAME.method, CODE_AS_UNICODE.method

REASON_DOCS: dict[str, str] = {
    "no_tounicode": "the font has no /ToUnicode CMap, and codes it shows get no text from its encoding or CID "
                    "collection (only the embedded program or a heuristic gives it, if anything)",
    "tounicode_incomplete": "a shown code has no entry in the font's /ToUnicode (extractors that trust only "
                            "ToUnicode output the raw code)",
    "tounicode_conflict": "/ToUnicode gives one text and the font's encoding, CID collection or program another "
                          "(ToUnicode wins)",
    "tounicode_degenerate": "/ToUnicode maps codes to nothing usable: empty, NUL or another control character, U+FFFD, or many distinct codes to "
                            "one character",
    "tounicode_multibyte_on_simple_font": "a simple font's /ToUnicode has only multi-byte codespace ranges, so its "
                                          "one-byte codes can never match",
    "numeric_glyph_names": "glyph names are numbers in disguise (a86, g12, cid00042, C65): no AGL meaning",
    "unknown_glyph_names": "glyph names that no glyph list (AGL, TeX) or naming rule maps",
    "identity_cid_no_tounicode": "Identity-H/V CMap and no /ToUnicode: the CIDs carry no meaning by the spec",
    "symbolic_truetype_no_mapping": "symbolic TrueType with no glyph names and no Unicode cmap: only the code itself "
                                    "is left",
    "font_program_unreadable": "the embedded font program cannot be read, so its encoding and glyph names are lost",
    "pua_output": "the text found is in a Private Use Area: it means nothing outside this font",
    "control_or_fffd_output": "the text found is a control character or U+FFFD",
    "legacy_cjk_bytes_in_simple_font": "a simple font named after a CJK family shows double-byte text in a legacy "
                                       "codepage (GBK, Big5, Shift-JIS, EUC-KR)",
    "font_missing": "Tf names a font the resources do not have: a default font stands in (the MissingFontSubstitute "
                    "heuristic), so every code's text is a guess",
    "heuristic_only": "codes whose text only a heuristic finds (named in the detail, with who uses it)",
    "agl_tex_ambiguity": "an AGL name a TeX font uses for another character (Delta, Omega, mu): the Greek letter "
                         "is taken",
    "implausible_guess": "codes whose only text, from a heuristic, was judged implausible (a control or private-use "
                         "character, a mix of scripts the font cannot hold, letters a constant offset away from "
                         "another reading): kept as a guess, out of the text",
    "tounicode_shifted": "the ToUnicode's text for a run of codes is one constant offset away from what the font's "
                         "names, program (cmaps, a CFF's own collection), CID collection, widths or glyph outlines "
                         "say, or from the common CJK characters or the text without rare letters it would give: a "
                         "shifted table",
    "mapping_contradicts_shape": "a ToUnicode or glyph name gives text that fonts drawing the same outline clearly "
                                 "say is another character",
    "unresolved": "codes that resolve to nothing by any method or heuristic",
}
REASON_IDS: tuple[str, ...] = tuple(REASON_DOCS)
_REASON_CLAUSES = {"no_tounicode": "9.10.2", "tounicode_incomplete": "9.10.3", "tounicode_conflict": "9.10.2",
                   "tounicode_degenerate": "9.10.3", "tounicode_multibyte_on_simple_font": "9.10.3",
                   "identity_cid_no_tounicode": "9.10.2", "font_program_unreadable": "9.9", "font_missing": "9.3.1"}
REASONS = Registry("reason", "Font reasons",
                   "Why a font's text extracts badly: the `reasons[].id` of `fonts --json`, audit records and the "
                   "app's font panel (`detail` says the same for people).")
for _rid, _doc in REASON_DOCS.items():
    REASONS.add(_rid, _doc, _REASON_CLAUSES.get(_rid))


@dataclass(frozen=True)
class Reason:
    """One cause: its ``id`` (from :data:`REASON_IDS`), the distinct ``codes`` it affects,
    and a ``detail`` line."""

    id: str
    codes: tuple[bytes, ...]
    detail: str


@dataclass(frozen=True)
class FontReport:
    """What one font does on the chosen pages.

    ``methods`` counts distinct codes per winning method (each distinct code once);
    ``confidence`` counts them per ``spec`` / ``heuristic`` / ``none``; ``diagnosis`` is
    written from ``reasons`` (``""`` when the text extracts cleanly)."""

    ref: Ref | None
    names: tuple[str, ...]
    subtype: str
    base_font: str
    pages: tuple[int, ...]
    methods: dict[str, int]
    confidence: dict[str, int]
    reasons: tuple[Reason, ...]
    diagnosis: str
    font: Font | None = field(default=None, compare=False, repr=False)
    resolutions: tuple[Resolution, ...] = field(default=(), compare=False, repr=False)

    @property
    def codes(self) -> int:
        return sum(self.confidence.values())

    def reason(self, reason_id: str) -> Reason | None:
        return next((r for r in self.reasons if r.id == reason_id), None)


def report(font: Font, resolutions: tuple[Resolution, ...], names: tuple[str, ...] = (),
           pages: tuple[int, ...] = (), resolver: Resolver | None = None) -> FontReport:
    """The report of ``font`` from the resolutions of its distinct codes."""
    methods: dict[str, int] = {}
    confidence = dict.fromkeys(CONFIDENCES, 0)
    for res in resolutions:
        methods[res.method] = methods.get(res.method, 0) + 1
        confidence[res.confidence] += 1
    program = resolver.program(font) if resolver is not None and font.embedded else None
    reasons = tuple(_reasons(font, resolutions, program, resolver))
    return FontReport(font.ref, names, font.subtype, font.base_font, pages, methods,
                      {k: v for k, v in confidence.items()}, reasons, diagnosis(reasons, len(resolutions)),
                      font, resolutions)


def _step(res: Resolution, method: str):
    return next((s for s in res.path if s.method == method), None)


def _codes(resolutions, test) -> tuple[bytes, ...]:
    return tuple(sorted(r.code for r in resolutions if test(r)))


def _reasons(font: Font, resolutions: tuple[Resolution, ...], program, resolver: Resolver | None = None):
    if not resolutions:
        return
    every = _codes(resolutions, lambda r: True)
    n = len(every)

    def out(reason_id: str, codes: tuple[bytes, ...], detail: str):
        return Reason(reason_id, codes, detail) if codes else None

    found = []
    if font.substitute_for is not None:
        found.append(out("font_missing", every, f"/{font.substitute_for} is not in the /Font resources of the pages "
                         f"that select it; a stand-in font ({font.base_font}'s widths, {font.encoding_desc}) reads its codes"))
    elif font.tounicode is None:
        # a cause only where the dictionaries' own methods (Encoding, CID collection) give nothing
        weak = [r for r in resolutions if r.method not in (ENCODING, CID_COLLECTION)]
        found.append(out("no_tounicode", _codes(weak, lambda r: True),
                         f"no /ToUnicode, and {len(weak)} of {n} codes get no text from the font's encoding or "
                         f"CID collection: " + _how_found(weak)))
    else:
        missed = _codes(resolutions, lambda r: (s := _step(r, TOUNICODE)) is not None and s.result == MISS)
        found.append(out("tounicode_incomplete", missed,
                         f"ToUnicode misses {len(missed)} of {n} codes ({font.tounicode_ref or 'direct'}): "
                         + _how_found([r for r in resolutions if r.code in set(missed)])))
        conflicts = [r for r in resolutions if r.method == TOUNICODE and r.conflicts]
        if conflicts:
            compat = sum(all(unicodedata.normalize("NFKC", c.unicode) == unicodedata.normalize("NFKC", r.unicode)
                             for c in r.conflicts) for r in conflicts)
            found.append(out("tounicode_conflict", _codes(conflicts, lambda r: True),
                             f"ToUnicode and {', '.join(sorted({c.method for r in conflicts for c in r.conflicts}))} "
                             f"disagree on {_count(len(conflicts), 'code')}"
                             + (f" ({compat} only as ligature or compatibility forms, e.g. ffi vs ﬃ)" if compat else "")))
        found.append(_degenerate(resolutions))
        found.append(_shifted(font, resolutions, program, resolver)
                     or (None if tounicode_confirmed(font, resolutions, program)
                         else _width_shifted(font) or _rare_shifted(font, resolutions)))
        if not font.is_type0 and font.tounicode.codespace and all(len(c.low) > 1 for c in font.tounicode.codespace):
            found.append(out("tounicode_multibyte_on_simple_font", missed,
                             f"the {font.subtype} font's codes are one byte; ToUnicode's codespace is "
                             f"{len(font.tounicode.codespace[0].low)}-byte only"))
    numeric = _codes(resolutions, lambda r: is_meaningless(r.glyph_name or "") or _step(r, NUMERIC_METHOD) is not None)
    if numeric:
        read = _codes(resolutions, lambda r: r.method == NUMERIC_METHOD)
        found.append(out("numeric_glyph_names", numeric,
                         f"{_count(len(numeric), 'code')} {_verb(len(numeric), 'has', 'have')} numeric glyph names "
                         f"(/{_first_name(resolutions, numeric)}…); "
                         + (f"{len(read)} read as codes by the NumericGlyphName heuristic" if read else
                            "none read as codes (the numbers are glyph indices, not codes)")))
    unknown = _codes(resolutions, lambda r: r.code not in numeric and any(
        s.method in (ENCODING, FONT_PROGRAM) and s.code == AGL_NO_MAPPING for s in r.path))
    found.append(out("unknown_glyph_names", unknown,
                     f"{len(unknown)} glyph names no AGL rule maps (/{_first_name(resolutions, unknown)}…): "
                     + _how_found([r for r in resolutions if r.code in set(unknown)])))
    if font.is_type0 and font.cid_font is not None and font.tounicode is None \
            and font.encoding_desc.startswith("Identity"):
        found.append(out("identity_cid_no_tounicode", every,
                         f"{font.encoding_desc} with no ToUnicode, {font.cid_font.registry}-{font.cid_font.ordering} "
                         f"CIDs: " + _how_found(resolutions)))
    found.append(out("symbolic_truetype_no_mapping",
                     _codes(resolutions, lambda r: not font.is_type0 and _step(r, CODE_AS_UNICODE_METHOD) is not None),
                     "symbolic TrueType: no glyph names, no Unicode cmap; the codes are output as characters"))
    if program is not None and program.unreadable \
            and not (program.glyph_names or program.cmaps or program.builtin_encoding):
        found.append(out("font_program_unreadable", every, program.unreadable[0].message))
    found.append(out("pua_output", _codes(resolutions, lambda r: r.has_flag(PRIVATE_USE)),
                     "text in a Private Use Area"))
    found.append(out("control_or_fffd_output",
                     _codes(resolutions, lambda r: r.has_flag(CONTROL_CHARACTER)
                            or r.has_flag(REPLACEMENT_CHARACTER)),
                     "text is a control character or U+FFFD"))
    found.append(out("mapping_contradicts_shape",
                     _codes(resolutions, lambda r: r.has_flag(MAPPING_CONTRADICTS_SHAPE)),
                     "the text given disagrees with what fonts drawing the same outline say it is"))
    codec = legacy_cjk_codec(font.base_font) if not font.is_type0 else None
    if codec:
        leads = _codes(resolutions, lambda r: bool(r.code) and is_lead_byte(codec, r.code[0]))
        found.append(out("legacy_cjk_bytes_in_simple_font", leads,
                         f"{font.base_font} names a CJK family: its bytes ≥ 0x81 read as {codec.upper()} double-byte text"))
    greek = _codes(resolutions, lambda r: r.has_flag(AGL_TEX_AMBIGUITY))
    found.append(out("agl_tex_ambiguity", greek, "AGL names TeX fonts use for Greek letters: the Greek letter is taken"))
    by_heuristic: dict[str, int] = {}
    for r in resolutions:
        if r.confidence == HEURISTIC:
            by_heuristic[r.method] = by_heuristic.get(r.method, 0) + 1
    found.append(out("heuristic_only", _codes(resolutions, lambda r: r.confidence == HEURISTIC),
                     "; ".join(f"{m} for {k} (used by {', '.join(BY_METHOD[m].used_by)})"
                               for m, k in by_heuristic.items())))
    by_guess: dict[str, int] = {}
    for r in resolutions:
        if r.confidence == GUESS:
            by_guess[r.method] = by_guess.get(r.method, 0) + 1
    found.append(out("implausible_guess", _codes(resolutions, lambda r: r.confidence == GUESS),
                     "; ".join(f"{m} for {k}" for m, k in by_guess.items())))
    found.append(out("unresolved", _codes(resolutions, lambda r: r.confidence == NO_CONFIDENCE),
                     "no method or heuristic gives text"))
    yield from (r for r in found if r is not None)


def _shifted(font: Font, resolutions: tuple[Resolution, ...], program, resolver: Resolver | None = None
             ) -> Reason | None:
    """A ToUnicode one constant offset away from the font's names, program, collection or outlines,
    exactly or by likeness (:func:`.shift.tounicode_shift`): a producer's off-by-N table."""
    looks = (lambda r: resolver.looks_like(font, r)) if resolver is not None else None
    found = tounicode_shift(font, resolutions, program, looks)
    return Reason("tounicode_shifted", found.codes, found.describe()) if found is not None else None


def _width_shifted(font: Font) -> Reason | None:
    """The shift the font's own widths show (:func:`.resolve.tounicode_width_shift`), or that of
    the ToUnicode from CIDs the widths say are code points (:func:`.resolve.tounicode_cid_shift`),
    where no other method or outline gives the letters to compare the ToUnicode with (the caller asks
    :func:`.shift.tounicode_confirmed` first). Not where the
    glyphs are wider than letters (:func:`_picture_widths`): the widths of pictures say nothing."""
    found = tounicode_width_shift(font)
    if found is None:
        cids = tounicode_cid_shift(font)
        if cids is None or _picture_widths(font, cids.codes):
            return None
        k = cids.offset
        return Reason("tounicode_shifted", cids.codes,
                      f"{moved(k)} "
                      f"the CIDs for {len(cids.codes)} codes, and the font's widths say its CIDs are code points")
    if _picture_widths(font, found.codes):
        return None
    k = found.offset
    return Reason("tounicode_shifted", found.codes,
                  f"{moved(k)} the "
                  f"letters the font's widths fit: moved {k:+d}, {len(found.codes)} letters' widths follow a standard "
                  f"font's with a rank correlation of {found.fit:.2f}, as given {found.unshifted:.2f}")


def _rare_shifted(font: Font, resolutions: tuple[Resolution, ...]) -> Reason | None:
    """A CJK text whose characters are common only once moved by one offset
    (:func:`.shift.tounicode_rare_shift`), or combining marks that fall on the glyphs of zero width
    only once moved (:func:`.shift.tounicode_mark_shift`), or kana, Thai, ideographs and Hangul whose
    rare letters all go at one offset alone (:func:`.shift.tounicode_rare_letter_shift`): the signs
    where nothing in the font names its glyphs."""
    found = tounicode_rare_shift(resolutions) or tounicode_mark_shift(font, resolutions) \
        or tounicode_rare_letter_shift(font, resolutions)
    return Reason("tounicode_shifted", found.codes, found.describe()) if found is not None else None


WIDEST_LETTER = 1100  # 1/1000 em: wider than any letter of Helvetica or Times (W 944, @ 1015)


def _picture_widths(font: Font, codes: tuple[bytes, ...]) -> bool:
    """Whether a fifth of these codes' glyphs are wider than any letter of a standard font: a picture
    font's (pdkids.pdf's DesignerStuff maps its pictures to the keys' letters, up to 3.5 em wide),
    whose widths follow no letters' however they are moved."""
    widths = [font.glyph_width(c, font.cid(c) if font.is_type0 else None) * 1000 for c in codes]
    return sum(w > WIDEST_LETTER for w in widths) * 5 >= len(widths) > 0


def _degenerate(resolutions) -> Reason | None:
    hits = [r for r in resolutions if (s := _step(r, TOUNICODE)) is not None and s.result == HIT]
    bad = {r.code for r in hits if no_text(_step(r, TOUNICODE).unicode)}
    by_text: dict[str, list[bytes]] = {}
    for r in hits:
        by_text.setdefault(_step(r, TOUNICODE).unicode, []).append(r.code)
    for text, codes in by_text.items():
        if len(codes) >= 3 and len(codes) * 2 > len(hits) and len(hits) >= 4:
            bad.update(codes)
    if not bad:
        return None
    texts = sorted({format_unicode(_step(r, TOUNICODE).unicode) for r in hits if r.code in bad})
    return Reason("tounicode_degenerate", tuple(sorted(bad)),
                  f"ToUnicode maps {len(bad)} of {len(hits)} codes it covers to {', '.join(texts[:3])}")


def _first_name(resolutions, codes) -> str:
    wanted = set(codes)
    return next((r.glyph_name for r in sorted(resolutions, key=lambda r: r.code)
                 if r.code in wanted and r.glyph_name), "?")


def _how_found(resolutions) -> str:
    """'3 by FontProgram (spec), 2 by TeXGlyphList (heuristic), 1 by nothing'."""
    counts: dict[tuple[str, str], int] = {}
    for r in resolutions:
        counts[(r.method, r.confidence)] = counts.get((r.method, r.confidence), 0) + 1
    parts = [f"{k} by nothing" if m == NONE else f"{k} by {m} ({c})" for (m, c), k in counts.items()]
    return "found " + ", ".join(parts) if parts else "nothing to find"


def diagnosis(reasons: tuple[Reason, ...], total: int) -> str:
    """One or two sentences on why the font's text extracts badly, from its reasons;
    ``""`` when it extracts cleanly by the spec."""
    ids = {r.id: r for r in reasons}
    parts: list[str] = []
    if "font_missing" in ids:
        parts.append(ids["font_missing"].detail)
    if "font_program_unreadable" in ids:
        parts.append(f"the embedded program cannot be read ({ids['font_program_unreadable'].detail})")
    if "tounicode_incomplete" in ids:
        parts.append(f"{ids['tounicode_incomplete'].detail}; extractors that trust only ToUnicode (Acrobat) "
                     "output the raw codes for them")
    if "tounicode_multibyte_on_simple_font" in ids:
        parts.append(ids["tounicode_multibyte_on_simple_font"].detail)
    if "tounicode_degenerate" in ids:
        parts.append(ids["tounicode_degenerate"].detail)
    if "tounicode_shifted" in ids:
        parts.append(f"{ids['tounicode_shifted'].detail}: a shifted table, and every extractor that trusts it "
                     "outputs the wrong letters")
    if "mapping_contradicts_shape" in ids:
        n = len(ids["mapping_contradicts_shape"].codes)
        parts.append(f"{_count(n, 'code')} {_verb(n, 'is', 'are')} mapped to text their glyph outlines contradict")
    if "identity_cid_no_tounicode" in ids and ("heuristic_only" in ids or "unresolved" in ids):
        parts.append(ids["identity_cid_no_tounicode"].detail)
    if "legacy_cjk_bytes_in_simple_font" in ids:
        parts.append(ids["legacy_cjk_bytes_in_simple_font"].detail)
    if "heuristic_only" in ids:
        k = len(ids["heuristic_only"].codes)
        parts.append(f"{k} of {total} codes are recovered only by heuristics, guesses the spec does not back: "
                     f"{ids['heuristic_only'].detail}")
    if "implausible_guess" in ids:
        k = len(ids["implausible_guess"].codes)
        parts.append(f"{k} of {total} codes have only a heuristic's text that does not hold up "
                     f"({ids['implausible_guess'].detail}): kept as guesses, out of the text")
    if "agl_tex_ambiguity" in ids:
        parts.append(f"{len(ids['agl_tex_ambiguity'].codes)} AGL names read as the Greek letters TeX fonts mean")
    if "unresolved" in ids:
        k = len(ids["unresolved"].codes)
        why = "numeric names that are glyph indices" if "numeric_glyph_names" in ids else \
            "no ToUnicode entry, no usable glyph name" if "unknown_glyph_names" not in ids else \
            "glyph names no list maps"
        parts.append(f"{k} of {total} codes resolve to nothing ({why}): their text cannot be recovered from this font")
    if "tounicode_conflict" in ids and not parts:
        parts.append(f"{ids['tounicode_conflict'].detail}: check which one the glyphs show")
    for rid, what in (("pua_output", "private-use"), ("control_or_fffd_output", "control or U+FFFD")):
        if rid in ids:
            n = len(ids[rid].codes)
            parts.append(f"{_count(n, 'code')} {_verb(n, 'gives', 'give')} {what} text")
    text = "; ".join(parts)
    return text[:1].upper() + text[1:] if text else ""


def _count(n: int, noun: str) -> str:
    """``1 code``, ``2 codes``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _verb(n: int, one: str, many: str) -> str:
    return one if n == 1 else many
