"""Plan a corrected ToUnicode for fonts whose text extracts badly (ISO 32000-1 9.10.3).

For each font, every code shown on the chosen pages is looked at with its resolution path:

- ToUnicode maps it to usable text: **kept**;
- ToUnicode is absent, has no entry, or its entry can never match (a 2-byte CMap on a
  1-byte font): the text another method gives is **added**;
- ToUnicode maps it to nothing usable (a control character, U+FFFD, private use, empty)
  and another method gives text: **replaced**;
- ToUnicode and another method disagree on real text: the ToUnicode text is kept and the
  disagreement listed (``replace_conflicts`` takes the other method's text instead);
- no method gives text: **left out** and listed.

``source="spec"`` takes only the spec's methods (Encoding + AGL, CID collection, font
program); ``"heuristic"`` also what the heuristics give (numeric glyph names, TeX glyph
list, glyph shapes…), each marked as such; ``"shapes"`` the spec's methods and the shape vote
(``GlyphShape``: the mappings learned from the outlines). A guess (a heuristic's text judged
implausible) is never written. The new CMap keeps every mapping the old one had for codes in
the font's codespace, so nothing the file said is lost. :meth:`FixPlan.objects` gives the
new objects: one ToUnicode stream per font and a new revision of the font dictionary.
"""
from __future__ import annotations

import dataclasses
import unicodedata
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..core import writer
from ..core.atomic import atomic_write
from ..core.objects import Dict, Name, Ref, Stream
from .cmap import CodespaceRange
from .font import Font
from .heuristics import GLYPH_SHAPE
from .reasons import report
from .resolve import ACTUAL_TEXT, CID_COLLECTION, ENCODING, HIT, TOUNICODE, PathStep, Resolution, text_flags
from .tounicode_writer import ONE_BYTE, existing_mapping, in_codespace, tounicode_cmap

SOURCES = ("spec", "heuristic", "shapes")
FIXABLE = ("no_tounicode", "tounicode_incomplete", "tounicode_conflict", "tounicode_degenerate",
           "tounicode_multibyte_on_simple_font")
KEEP, ADD, REPLACE, CONFLICT, UNRESOLVED, UNUSABLE = \
    "kept", "added", "replaced", "conflict kept", "left out", "unusable kept"


@dataclass(frozen=True, slots=True)
class CodeFix:
    """What the new ToUnicode says for one shown code, and why.

    ``before`` is the old ToUnicode's text (``None``: no entry), ``after`` the new one
    (``None``: left out), ``method``/``confidence`` the method that gave ``after`` and
    ``detail`` that step's own words; ``other`` is a disagreeing method's text."""

    code: bytes
    action: str
    before: str | None
    after: str | None
    method: str
    confidence: str
    detail: str
    other: str | None = None
    extracted: str = ""  # what an extractor following 9.10.2 alone gave before

    @property
    def changes_extraction(self) -> bool:
        return self.action in (ADD, REPLACE) and not same_text(self.after or "", self.extracted)


@dataclass(slots=True)
class FontFix:
    font: Font
    names: tuple[str, ...]
    reasons: tuple[str, ...]
    codes: tuple[CodeFix, ...]
    codespace: tuple[CodespaceRange, ...]
    mapping: dict[bytes, str]
    dropped: tuple[bytes, ...] = ()  # old entries outside the font's codespace
    skipped: str = ""  # why this font is not written, if it is not

    @property
    def ref(self) -> Ref | None:
        return self.font.ref

    @property
    def changed(self) -> list[CodeFix]:
        return [c for c in self.codes if c.action in (ADD, REPLACE)]

    def count(self, action: str) -> int:
        return sum(c.action == action for c in self.codes)

    def cmap(self) -> bytes:
        return tounicode_cmap(self.mapping, self.codespace)


@dataclass(slots=True)
class FixPlan:
    source: str
    fonts: list[FontFix] = field(default_factory=list)

    @property
    def to_write(self) -> list[FontFix]:
        return [f for f in self.fonts if not f.skipped]

    def objects(self, doc, first_number: int) -> dict[Ref, object]:
        """The new objects: a ToUnicode stream per font, numbered from ``first_number``,
        and the font dictionary's new revision pointing at it."""
        out: dict[Ref, object] = {}
        num = first_number
        for fix in self.to_write:
            assert fix.ref is not None  # a font without its own object is skipped
            holder = doc.get(fix.ref.num)
            stream_ref = Ref(num, 0)
            num += 1
            out[stream_ref] = Stream(Dict({Name("Filter"): Name("FlateDecode")}), zlib.compress(fix.cmap()))
            font_dict = Dict(holder.value)
            font_dict[Name("ToUnicode")] = stream_ref
            out[Ref(fix.ref.num, holder.gen)] = font_dict
        return out

    def write(self, doc, rewrite: bool = False, compress: bool = True) -> bytes:
        """The fixed file: an incremental update of ``doc`` (or, with ``rewrite``, a new file)."""
        objects = self.objects(doc, writer.next_free_number(doc))
        return writer.rewrite(doc, objects) if rewrite else writer.incremental_update(doc, objects, compress)

    def save(self, doc, target, rewrite: bool = False, compress: bool = True) -> int:
        """Write the fixed file to ``target`` atomically (never over ``doc``'s own file, see
        :func:`pdfinspect.core.atomic.check_target`); the number of bytes written."""
        objects = self.objects(doc, writer.next_free_number(doc))
        if rewrite:
            writer.check_encryptable(doc)
        else:
            writer.check_updatable(doc)  # refused before a temporary file exists
        with atomic_write(target, inputs=[doc.path]) as f:
            if rewrite:
                return writer.write_rewrite(doc, objects, f)
            return writer.write_update(doc, objects, f, compress)


def _from(source: str, step: PathStep) -> bool:
    """Whether a fix from ``source`` may write what ``step`` gives."""
    if step.confidence == "spec":
        return True
    if step.confidence != "heuristic":  # a guess, never
        return False
    return source == "heuristic" or (source == "shapes" and step.method == GLYPH_SHAPE.method)


def step_confidence(step: PathStep) -> str:
    """``spec`` or ``heuristic`` (the resolver marks each step)."""
    return step.confidence


def unusable(text: str | None) -> bool:
    """Text that is no text: empty, control characters, U+FFFD, private use."""
    return not text or bool(text_flags(text))


def same_text(a: str, b: str) -> bool:
    """Equal once compatibility forms are folded (``ﬁ`` and ``fi`` say the same)."""
    return unicodedata.normalize("NFKC", a) == unicodedata.normalize("NFKC", b)


def spec_extraction(font: Font | None, res: Resolution) -> str:
    """What an extractor following 9.10.2 alone outputs for the code: the ToUnicode text; the
    raw code where a ToUnicode exists but lacks it (Acrobat); else Encoding or CID collection."""
    steps = {s.method: s for s in res.path}
    tu = steps.get(TOUNICODE)
    if tu is not None and tu.result == HIT and tu.unicode is not None:  # a hit always has text
        return tu.unicode
    if font is not None and font.tounicode is not None:
        n = int.from_bytes(res.code, "big")
        return chr(n) if n < 0x110000 else ""
    for method in (ENCODING, CID_COLLECTION):
        s = steps.get(method)
        if s is not None and s.result == HIT and s.unicode is not None and step_confidence(s) == "spec":
            return s.unicode
    return ""


def for_tounicode(text: str) -> str:
    """Text as a ToUnicode destination: the Latin ligatures U+FB00–U+FB06 spelled out as the
    letters they join (what extractors output for /ffi and what searching needs)."""
    return "".join(unicodedata.normalize("NFKC", c) if 0xFB00 <= ord(c) <= 0xFB06 else c for c in text)


def decide(res: Resolution, source: str = "heuristic", replace_conflicts: bool = False,
           font: Font | None = None, degenerate: bool = False) -> CodeFix:
    """The new ToUnicode's answer for one code (see the module docstring); ``degenerate``
    when the font report lists the code under ``tounicode_degenerate`` (many codes mapped to
    one character count as no text)."""
    fix = _decide(res, source, replace_conflicts, degenerate)
    if fix.action in (ADD, REPLACE):
        assert fix.after is not None  # an added or replaced entry has text
        fix = dataclasses.replace(fix, after=for_tounicode(fix.after))
    return dataclasses.replace(fix, extracted=spec_extraction(font, res))


def _decide(res: Resolution, source: str, replace_conflicts: bool, degenerate: bool) -> CodeFix:
    tu = next((s for s in res.path if s.method == TOUNICODE), None)
    before = tu.unicode if tu is not None and tu.result == HIT else None
    alt = next((s for s in res.path if s.method not in (TOUNICODE, ACTUAL_TEXT) and s.result == HIT
                and not unusable(s.unicode) and _from(source, s)), None)
    if before is not None and tu is not None:
        kept = CodeFix(res.code, KEEP, before, before, TOUNICODE, "spec", tu.detail)
        if alt is None:
            return kept if not (degenerate or unusable(before)) else CodeFix(res.code, UNUSABLE, before, before, TOUNICODE,
                                                             "spec", "no other method gives text")
        if degenerate or unusable(before):
            return CodeFix(res.code, REPLACE, before, alt.unicode, alt.method, step_confidence(alt), _why(alt))
        assert alt.unicode is not None  # unusable(None) is true
        if same_text(before, alt.unicode):
            return kept
        if replace_conflicts:
            return CodeFix(res.code, REPLACE, before, alt.unicode, alt.method, step_confidence(alt),
                           alt.detail, before)
        return CodeFix(res.code, CONFLICT, before, before, TOUNICODE, "spec", tu.detail, alt.unicode)
    if alt is None:
        why = {"heuristic": "no method gives text", "spec": "no spec method gives text"}.get(
            source, "neither a spec method nor the glyph shapes give text")
        return CodeFix(res.code, UNRESOLVED, None, None, "None", "none", why)
    return CodeFix(res.code, ADD, None, alt.unicode, alt.method, step_confidence(alt), _why(alt))


def _why(step: PathStep) -> str:
    return f"{step.looked_up} → {step.detail}"


def codespace_of(font: Font) -> tuple[CodespaceRange, ...]:
    """1 byte for simple fonts; the Type0 CMap's codespace ranges otherwise (9.7.6.2)."""
    if font.is_type0 and font.cmap is not None:
        return tuple(font.cmap.effective_codespace()) or (CodespaceRange(b"\x00\x00", b"\xff\xff"),)
    return ONE_BYTE


def plan_font(font: Font, names: Iterable[str], resolutions: Iterable[Resolution],
              source: str = "heuristic", replace_conflicts: bool = False,
              chosen: bool = False) -> FontFix:
    """The fix for one font from the resolutions of the codes it shows, for the reasons its
    font report (:func:`.reasons.report`) gives. A font without ToUnicode whose encoding
    already reads, and a fix that would change no extraction, are written only when ``chosen``."""
    resolutions = tuple(sorted(resolutions, key=lambda r: r.code))
    found = report(font, resolutions, tuple(names)).reasons
    degenerate = {c for r in found if r.id == "tounicode_degenerate" for c in r.codes}
    codes = tuple(decide(r, source, replace_conflicts, font, r.code in degenerate) for r in resolutions)
    fixable = tuple(r.id for r in found if r.id in FIXABLE)
    if chosen and font.tounicode is None and "no_tounicode" not in fixable:
        fixable = ("no_tounicode",) + fixable
    space = codespace_of(font)
    old = existing_mapping(font.tounicode)
    mapping = {code: text for code, text in old.items() if in_codespace(code, space)}
    dropped = tuple(sorted(code for code in old if code not in mapping))
    for c in codes:
        if c.action in (ADD, REPLACE):
            assert c.after is not None  # an added or replaced entry has text
            mapping[c.code] = c.after
    fix = FontFix(font, tuple(sorted(set(names))), fixable, codes, space, mapping, dropped)
    outside = [c.code for c in fix.changed if not in_codespace(c.code, space)]
    if font.ref is None:
        fix.skipped = "direct font dictionary (not an indirect object): no object to give a new revision"
    elif not fixable:
        fix.skipped = "no fixable reason"
    elif not fix.changed and not dropped:
        fix.skipped = "no method gives text the ToUnicode lacks"
    elif outside:
        fix.skipped = f"code <{outside[0].hex()}> is outside the font's codespace"
    elif not chosen and not dropped and not any(c.changes_extraction for c in codes):
        fix.skipped = ("the spec's methods already extract every shown code as the fix would: no "
                       "extractor's output changes (name the font with --font to write it anyway)")
    return fix


def plan(observed: Iterable[tuple[Font, str | None, Resolution]], source: str = "heuristic",
         replace_conflicts: bool = False, only: set | None = None) -> FixPlan:
    """A plan from the glyphs seen: (font, resource name, resolution) per glyph. ``only``
    keeps fonts whose reference or a resource name is in it."""
    if source not in SOURCES:
        raise ValueError(f"source must be one of {SOURCES}, not {source!r}")
    by_font: dict[Font, dict[bytes, Resolution]] = {}
    names: dict[Font, set[str]] = {}
    for font, name, res in observed:
        if font is None:
            continue
        by_font.setdefault(font, {}).setdefault(res.code, res)
        if name:
            names.setdefault(font, set()).add(name)
    out = FixPlan(source)
    for font, codes in by_font.items():
        if only is not None and font.ref not in only and not (names.get(font, set()) & only):
            continue
        out.fonts.append(plan_font(font, names.get(font, ()), codes.values(), source, replace_conflicts,
                                   chosen=only is not None))
    return out
