"""Glyph code → Unicode, with the whole path of steps that led there (ISO 32000-1 9.10.2).

Every method is tried for every code, in the spec's order and then the fallbacks real
extractors use:

1. ``ToUnicode``: the font's /ToUnicode CMap (9.10.3);
2. ``Encoding``: simple fonts — code → glyph name (/Differences over the base encoding,
   9.6.6) → Adobe Glyph List (:mod:`.agl`);
3. ``CIDCollection``: Type0 fonts — code → CID (the CMap) → ``Registry-Ordering-UCS2``
   for the public collections Adobe-GB1/CNS1/Japan1/Korea1;
4. ``FontProgram``: the embedded program — a Type1/CFF built-in encoding, TrueType
   ``cmap`` subtables, ``post`` names, CFF charsets, ``/CIDToGIDMap``.

The first method that yields text wins; every other method that yields different text is
a conflict. Each step names the object it read, so a user can go there. Results are
cached per (font, code): a page resolves each distinct code of a font once.

When all four give nothing, the heuristics of :mod:`.heuristics` are tried in turn (TeX
glyph list, numeric glyph names, base-encoding and StandardEncoding fallbacks, code or
CID as Unicode), each its own step with confidence ``heuristic`` and the readers that use
it. The one heuristic that overrides the spec: an AGL name TeX fonts use for a Greek
letter (``/Delta`` in cmr10 is Δ, not the AGL's ∆), flagged as an ambiguity.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..core.objects import Ref
from . import codes
from . import heuristics as h
from . import pdfminerdata
from . import plausibility as plaus
from .agl import glyph_to_unicode, is_meaningless
from .codes import ACTUAL_TEXT, CID_COLLECTION, ENCODING, FONT_PROGRAM, HIT, MISS, NONE, SKIPPED, TOUNICODE
from .embedded import FontProgram, load_program
from .encodings import base_encoding
from .font import PUBLIC_COLLECTIONS, CIDFont, Font
from .heuristics import GUESS, HEURISTIC, NO_CONFIDENCE, SPEC, Heuristic
from .shapevote import (ASCENDERS, CAPITALS, EMPTY, LOOK_ALIKES, GlyphShapes, ShapeTable, Vote, folded,
                        letter_key, look_alike_forms, looks_alike)

if TYPE_CHECKING:
    from .likeness import Reading  # imported where likeness reads: most runs never need it

SPEC_METHODS = (TOUNICODE, ENCODING, CID_COLLECTION, FONT_PROGRAM)
HEURISTIC_METHODS = tuple(x.method for x in h.HEURISTICS)
METHODS = SPEC_METHODS + HEURISTIC_METHODS + (ACTUAL_TEXT, NONE)


@dataclass(frozen=True, slots=True)
class PathStep:
    """One step of a resolution: ``source`` read, what was ``looked_up``, the ``result``
    (hit / miss / skipped), ``code`` saying why (from :data:`.codes.STEPS`) and ``detail``
    saying the same for people."""

    method: str
    source: Ref | None
    source_desc: str
    looked_up: str
    result: str
    detail: str
    unicode: str | None = None
    confidence: str = SPEC  # "spec" for ISO 32000's methods, "heuristic" for the fallbacks, "guess" when judged implausible
    used_by: tuple[str, ...] = ()  # readers known to apply the heuristic
    code: str = ""  # why it hit, missed or was skipped: a code of .codes.STEPS

    def __str__(self) -> str:
        where = f" ({self.source})" if self.source is not None else ""
        who = f", used by {', '.join(self.used_by)}" if self.used_by else ""
        kind = f" [{self.confidence}{who}]" if self.confidence in (HEURISTIC, GUESS) else ""
        return f"{self.method}{kind}: {self.source_desc}{where}: {self.looked_up} → {self.result}: {self.detail}"


@dataclass(frozen=True, slots=True)
class Flag:
    """Something worth a look about a resolution: a ``code`` from :data:`.codes.FLAGS` and a
    ``message`` for people (what ``str()`` gives)."""

    code: str
    message: str

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True, slots=True)
class Conflict:
    """Another method's different answer."""

    method: str
    unicode: str


@dataclass(frozen=True, slots=True)
class Resolution:
    """How one code resolved. ``confidence`` is ``spec`` when one of ISO 32000's methods gave
    the text, ``heuristic`` when only a fallback did (``heuristic`` names it, ``used_by`` who
    uses it), ``guess`` when only a fallback did and its text was judged implausible
    (:mod:`.plausibility`: ``unicode`` is then empty unless the resolver keeps guesses, and the
    path's step keeps the text), ``none`` when nothing did. ``spec_unicode`` is what the spec's methods alone
    give; ``tounicode_only`` what an extractor that trusts only ToUnicode outputs (the
    ToUnicode text, else the code itself as a character)."""

    code: bytes
    unicode: str
    method: str
    cid: int | None
    gid: int | None
    glyph_name: str | None
    path: tuple[PathStep, ...]
    conflicts: tuple[Conflict, ...]
    flags: tuple[Flag, ...]
    confidence: str = SPEC
    heuristic: str | None = None
    used_by: tuple[str, ...] = ()
    spec_unicode: str = ""
    tounicode_only: str = ""

    def has_flag(self, code: str) -> bool:
        return any(f.code == code for f in self.flags)

    @property
    def flag_codes(self) -> tuple[str, ...]:
        return tuple(f.code for f in self.flags)


def format_unicode(text: str) -> str:
    """``U+03BA κ`` style; several code points joined by spaces; ``—`` for none."""
    if not text:
        return "—"
    points = " ".join(f"U+{ord(c):04X}" for c in text)
    return f"{points} {text}" if all(unicodedata.category(c)[0] != "C" for c in text) else points


def text_flags(text: str) -> list[Flag]:
    """Flags for suspicious results: private use, U+FFFD, control characters."""
    flags = []
    if any(0xE000 <= ord(ch) <= 0xF8FF or ord(ch) >= 0xF0000 for ch in text):
        flags.append(Flag(codes.PRIVATE_USE, "private-use text"))
    if "\ufffd" in text:
        flags.append(Flag(codes.REPLACEMENT_CHARACTER, "U+FFFD replacement character"))
    if any(unicodedata.category(ch) == "Cc" for ch in text):
        flags.append(Flag(codes.CONTROL_CHARACTER, "control character"))
    return flags


def no_text(text: str) -> bool:
    """A ToUnicode destination that is no text: nothing, NUL, control characters, U+FFFD."""
    return all(c == "\ufffd" or unicodedata.category(c) == "Cc" for c in text)


class Resolver:
    """Resolves codes for the fonts of one document, caching per (font, code)."""

    def __init__(self, doc, guesses: bool = False, shapes: ShapeTable | None = None):
        self.doc = doc
        self.guesses = guesses  # keep the text of results judged implausible (confidence "guess")
        # the shape vote (fonts.shapevote): a table learned from a corpus, else this document's own,
        # learned the first time a glyph of an embedded or Type3 font finds no text
        self.shapes = shapes
        self._glyph_shapes: GlyphShapes | None = None
        self._own_shapes: ShapeTable | None = None
        self._cache: dict[tuple[Font, bytes], Resolution] = {}
        self._raw: dict[tuple[Font, bytes], Resolution] = {}  # before the plausibility judgement
        self._programs: dict[Font, FontProgram | None] = {}
        self._numeric: dict[tuple[Font, bool], h.NumericNames | None] = {}
        self._verdicts: dict[tuple[Font, str], str | None] = {}
        self._mac: dict[Font, tuple[int, str]] = {}
        self._blanks: dict[Font, int] = {}
        self._evidence: dict[Font, Evidence] = {}
        self._heights: dict[Font, tuple[float | None, float | None]] = {}  # median tops of capitals, ascenders
        # per font: the looks of its sampled codes, the characters it has, their likeness readings, those that stand
        self._looks: dict[Font, tuple[set[str], set[str], dict[str, Reading], dict[str, Reading]]] = {}

    @classmethod
    def of(cls, doc) -> "Resolver":
        """The document's shared resolver (its caches are keyed by the fonts of
        :meth:`FontCache.of`, so the two are used together)."""
        resolver: Resolver = doc.derived("fonts.Resolver", lambda: cls(doc))
        return resolver

    def program(self, font: Font) -> FontProgram | None:
        """The font's embedded program, read once per document: every fork of it (the app's
        workers) shares the programs read (:meth:`Document.shared`)."""
        if font not in self._programs:
            ref = font.program_ref
            shared = getattr(self.doc, "shared", None)
            if ref is None or shared is None:
                self._programs[font] = load_program(self.doc, font)
            else:
                programs = shared("font-programs", dict)
                key = (ref.num, ref.gen, font.program_key, font.program_kind)
                if key not in programs:
                    programs[key] = load_program(self.doc, font)
                self._programs[font] = programs[key]
        return self._programs[font]

    def resolve(self, font: Font, code: bytes, cid: int | None = None) -> Resolution:
        key = (font, code)
        hit = self._cache.get(key)
        if hit is None:
            hit = self._judge(font, self._raw_resolve(font, code, cid))
            if hit.confidence in (GUESS, NO_CONFIDENCE) or \
                    (hit.confidence == HEURISTIC and hit.heuristic in SHAPE_OUTRANKS):
                hit = self._by_shape(font, hit)
            elif hit.confidence == SPEC and hit.unicode:
                hit = self._against_shape(font, hit)
            self._cache[key] = hit
        return hit

    # -- the shape vote (fonts.shapevote) --------------------------------------------------------
    def glyph_shapes(self) -> GlyphShapes:
        if self._glyph_shapes is None:
            self._glyph_shapes = GlyphShapes(self.doc)
        return self._glyph_shapes

    def _table(self, learn: bool) -> ShapeTable | None:
        if self.shapes is not None:
            return self.shapes
        if self._own_shapes is None and learn:
            from .shapevote import learn as learn_shapes

            self._own_shapes = ShapeTable()  # resolving the document's fonts below must not learn again
            self._own_shapes = learn_shapes(self.doc, self, self.glyph_shapes())
        return self._own_shapes

    def _by_shape(self, font: Font, res: Resolution) -> Resolution:
        """A glyph no method resolves, or only a guess or a code read as a value does, read by what
        its outline is elsewhere; the value reading stays as a conflict where it differs. Without a
        clear vote, a value reading the outlines of the font's other glyphs contradict drops to a
        guess (``outlines_disagree``), and the glyph is read by likeness as one no method resolves."""
        if font.program_ref is None and font.subtype != "Type3":
            return res
        vote, key = self._vote(font, res, likeness=res.confidence in (GUESS, NO_CONFIDENCE))
        if vote is not None and not vote.clear:
            table = self._table(learn=False)
            texts = table.entries.get(key or "") if table is not None else None
            if texts:  # the table's entry for the key voted on
                vote = self._by_height(font, res, vote, texts) or self._by_script(font, vote, texts) or vote
        if vote is None or not vote.clear:
            refuted = self._refuted(font, res)
            if refuted is res:
                return res
            # a value reading the outlines refute is read by likeness as a glyph no method reads
            vote, key = self._vote(font, refuted, likeness=True)
            if vote is None or not vote.clear:
                return refuted
            res = refuted
        if res.confidence == HEURISTIC and letter_key(vote.text) == letter_key(res.unicode):
            return res
        text = self._in_font_script(font, vote)
        if text is None:
            return self._refuted(font, res)
        how = "" if text == vote.text else f", {format_unicode(text)} in the script of the font's other letters"
        step = _heuristic_step(h.GLYPH_SHAPE, font.program_ref or font.ref, "glyph outline", f"outline {key}",
                               HIT, codes.SHAPE_LIKENESS if vote.distance is not None else
                               codes.SHAPE_VOTE_COARSE if vote.coarse else codes.SHAPE_VOTE,
                               f"{vote.describe()}{how} → {format_unicode(text)}", text)
        given = res.unicode or (res.path[-1].unicode if res.confidence == GUESS else "")
        conflicts = res.conflicts + ((Conflict(res.method, given),) if given else ())
        flags = tuple(f for f in res.flags if f.code != codes.UNRESOLVED)
        return replace(res, unicode=text, method=step.method, path=res.path + (step,), conflicts=conflicts,
                       flags=flags, confidence=HEURISTIC, heuristic=step.method, used_by=())

    def _vote(self, font: Font, res: Resolution, likeness: bool = False) -> tuple[Vote | None, str | None]:
        """The vote on the glyph's outline (its exact fingerprint, else its coarse key, else with
        ``likeness`` the outlines it looks like) and the key voted on; ``(None, key)`` when no table
        or no entry speaks for it."""
        shapes = self.glyph_shapes()
        gid = self._shape_gid(font, res)
        fp = shapes.fingerprint(font, gid, res.glyph_name, res.code)
        if fp == EMPTY and self._blank_glyphs(font) > 2:
            return None, fp  # a font of many glyphs that draw nothing (an OCR text layer's): they are not spaces
        table = self._table(learn=fp is not None)
        if table is None or fp is None:
            return None, fp
        vote = table.vote(fp)
        if vote is None and fp != EMPTY:
            key = shapes.fingerprint(font, gid, res.glyph_name, res.code, coarse=True)
            vote = table.vote(key) if key is not None else None
            # likeness where no font draws the outline, or one font alone nearly does
            if likeness and (vote is None or (not vote.clear and vote.fonts == vote.total_fonts)):
                look = shapes.fingerprint(font, gid, res.glyph_name, res.code, likeness=True)
                reading = self._likeness(font, table, look) if look is not None else None
                if reading is not None:
                    return Vote(reading.text, reading.fonts, reading.files, reading.fonts, reading.runner_up,
                                texts=reading.texts, distance=reading.distance,
                                runner_up_distance=reading.runner_up_distance), look
            return vote, key
        return vote, fp

    def _by_height(self, font: Font, res: Resolution, vote: Vote, texts: dict[str, list[int]]) -> Vote | None:
        """An unclear vote between a capital and a small letter decided by the glyph's height against
        the font's capitals and ascenders (:func:`.shapevote.by_height`; ``texts`` the table's entry
        voted on), ``None`` when it is not."""
        from .shapevote import by_height

        outline = self.glyph_shapes().outline(font, self._shape_gid(font, res), res.glyph_name)
        box = outline.bounds() if outline is not None else None
        if box is None:
            return None
        if font not in self._heights:
            self._heights[font] = (None, None)  # the votes below must not ask again
            tops: dict[bool, list[float]] = {True: [], False: []}  # capital? → tops of the font's letters
            for code, cid in _font_codes(font)[:MAX_SAMPLE]:
                raw = self.judged(font, code, cid)
                other = self._vote(font, raw, likeness=raw.confidence in (GUESS, NO_CONFIDENCE))[0] \
                    if raw.confidence != SPEC else None
                text = raw.unicode if raw.confidence == SPEC else \
                    other.text if other is not None and other.clear else ""
                if len(text) == 1 and text in CAPITALS + ASCENDERS:
                    glyph = self.glyph_shapes().outline(font, self._shape_gid(font, raw), raw.glyph_name)
                    if glyph is not None and (b := glyph.bounds()) is not None:
                        tops[text in CAPITALS].append(b[3])
            median = [sorted(t)[len(t) // 2] if t else None for t in (tops[True], tops[False])]
            self._heights[font] = (median[0], median[1])
        capitals, ascenders = self._heights[font]
        return by_height(vote, texts, box[3], capitals, ascenders, box[1])

    def _by_script(self, font: Font, vote: Vote, texts: dict[str, list[int]]) -> Vote | None:
        """An unclear vote between letters of several scripts decided by the script of the font's other
        letters (:func:`.shapevote.by_script`; ``texts`` the table's entry voted on), ``None`` when it
        is not."""
        from .shapevote import by_script

        return by_script(vote, texts, self._shape_evidence(font)[1])

    def _likeness(self, font: Font, table: ShapeTable, look: str) -> Reading | None:
        """The likeness reading of an outline that no font of the table draws (:mod:`.likeness`),
        with the font's constraint, over the outlines of the codes its widths name: no character the
        font already has (by the spec, or by a clear vote), one outline per character."""
        from .likeness import FULL_WIDTH, assign, font_scripts, second_readings

        if font not in self._looks:
            self._looks[font] = (set(), set(), {}, {})
            shapes, index = self.glyph_shapes(), table.likeness()
            claimed: set[str] = set()
            readings: dict[str, Reading] = {}
            sampled: set[str] = set()
            for code, cid in _font_codes(font)[:MAX_SAMPLE]:
                raw = self.judged(font, code, cid)
                if raw.confidence == SPEC:
                    claimed.update((letter_key(raw.unicode),) if raw.unicode else ())
                    continue
                vote, _ = self._vote(font, raw)
                if vote is not None and vote.clear:
                    claimed.add(letter_key(vote.text))
                    continue
                if vote is not None and vote.fonts != vote.total_fonts:
                    continue
                gid = self._shape_gid(font, raw)
                key = shapes.fingerprint(font, gid, raw.glyph_name, code, likeness=True)
                if key is not None and key not in sampled:
                    sampled.add(key)
                    if (r := index.nearest(key)) is not None:
                        readings[key] = r
            standing = assign(readings, claimed, len(sampled))
            scripts = font_scripts(self._shape_evidence(font)[1], readings.values())
            readings = second_readings(index, sampled, readings, claimed, standing, scripts)
            self._looks[font] = (sampled, claimed, readings, assign(readings, claimed, len(sampled)))
        sampled, claimed, readings, standing = self._looks[font]
        if look in sampled:
            return standing.get(look)
        # a code the widths do not name: the font's constraint with this outline beside the sampled ones;
        # a CIDFont's glyph of the default width, when that is full width, is a CJK font's
        reading = table.likeness().nearest(look)
        full = font.cid_font is not None and font.cid_font.default_width >= FULL_WIDTH
        return assign({**readings, look: reading}, claimed, len(sampled) + 1, full).get(look) if reading else None

    def looks_like(self, font: Font, res: Resolution) -> str | None:
        """What other typefaces read the glyph of ``res`` as: a clear vote on its outline, even of one
        font (too few to flag a contradiction, :meth:`_against_shape`), else, where no font of the
        shape table draws the outline, its likeness reading without the font's constraint, else the
        letter its :data:`LOOSE_COUNT` nearest outlines within :data:`LOOSE_DISTANCE` all draw (in
        one case or another: Courier's capitals are nearest small letters of other typefaces as often
        as capitals); ``None`` without a table, an outline, or such a reading. Evidence for a shifted
        ToUnicode (:func:`.shift.tounicode_shift`, which asks four codes or more moved by one offset),
        never text."""
        if font.program_ref is None or font.subtype == "Type3":
            return None
        table = self._table(learn=False)
        if table is None:
            return None
        shapes = self.glyph_shapes()
        gid = self._shape_gid(font, res)
        fp = shapes.fingerprint(font, gid, res.glyph_name, res.code)
        if fp is None or fp == EMPTY:
            return None
        if (vote := table.vote(fp)) is not None:
            return vote.text if vote.clear else None
        look = shapes.fingerprint(font, gid, res.glyph_name, res.code, likeness=True)
        if look is None:
            return None
        reading = table.likeness().nearest(look)
        if reading is not None:
            return reading.text
        # looser: the nearest few outlines, a little farther off, all of one letter in one case or another
        near = table.likeness().neighbours(look, LOOSE_DISTANCE, LOOSE_COUNT)
        texts = {folded(n.text) for n in near}
        return near[0].text if len(near) == LOOSE_COUNT and len(texts) == 1 and near[0].text else None

    def _shape_gid(self, font: Font, res: Resolution) -> int | None:
        """The glyph id whose outline a code draws: the resolution's, else, for a simple TrueType
        program without a cmap, the code; else None (a glyph found by name)."""
        if res.gid is not None:
            return res.gid
        if font.subtype == "TrueType" and res.code:
            prog = self.program(font)
            if prog is not None and not prog.cmaps and not prog.unreadable:
                return res.code[0]
        return None

    def _in_font_script(self, font: Font, vote: Vote) -> str | None:
        """Of letters that read alike (Latin o, Greek ο, Cyrillic о: the vote's texts, and the
        look-alikes of its letter in the other scripts, :func:`look_alike_forms`), the one in the
        script of the font's other letters; ``None`` when the font has letters of several of their
        scripts (the outline cannot tell which is meant) or letters of another of the look-alike
        scripts alone. A font without such letters keeps the vote's own reading when the vote names
        one letter."""
        by_script: dict[str, str] = {}
        # most fonts first, a character that is its own NFKC form (μ before the micro sign µ) first
        candidates = [*vote.texts, *(f for t in vote.texts for f in look_alike_forms(t))]
        for t in sorted(candidates, key=lambda t: unicodedata.normalize("NFKC", t) != t):
            nfkc = unicodedata.normalize("NFKC", t)
            if len(nfkc) == 1 and (s := plaus.script(nfkc)) is not None:
                by_script.setdefault(s, t)
        if not by_script:  # no letters (a space and a no-break space, a ligature and its letters)
            return str(vote.text)
        letters = self._shape_evidence(font)[1]
        present = [s for s in by_script if letters.get(s)]
        if len(present) == 1:
            return by_script[present[0]]
        if present:  # the font has letters of two of the scripts: e and е alike in a Russian text set in Latin
            return None
        if any(letters.get(s) for s in LOOK_ALIKE_SCRIPTS):  # a Greek font's е: Latin or Cyrillic, none says
            return None
        return str(vote.text) if len(vote.texts) < 2 or len(by_script) == 1 else None

    def _refuted(self, font: Font, res: Resolution) -> Resolution:
        """A code read as a value (SHAPE_OUTRANKS) in a font where the clear votes on the other
        glyphs' outlines mostly read other characters than that reading: a guess."""
        if res.confidence != HEURISTIC or res.heuristic not in SHAPE_OUTRANKS or not res.unicode:
            return res
        agree, disagree = self._shape_evidence(font)[0].get(res.heuristic, (0, 0))
        if disagree >= OUTLINES_REFUTE and disagree > agree:
            return self._as_guess(res, plaus.OUTLINES_DISAGREE)
        return res

    def _shape_evidence(self, font: Font) -> Evidence:
        """What the outlines of the font's codes (those its widths name) say beside the methods: for
        each heuristic reading codes as values, how many of its readings a clear vote agrees with and
        how many it contradicts; and the font's letters counted by script (the spec's text, else a
        clear vote of one script's letters that no other script draws alike). Cached per font."""
        if font not in self._evidence:
            self._evidence[font] = ({}, {})  # the votes below must not ask again
            scripts: dict[str, int] = {}
            readings: dict[str, list[int]] = {}
            for code, cid in _font_codes(font)[:MAX_SAMPLE]:
                raw = self.judged(font, code, cid)
                vote = self._vote(font, raw)[0] if raw.confidence != SPEC else None
                if vote is not None and not vote.clear:
                    vote = None
                text = raw.unicode if raw.confidence == SPEC else ""
                if not text and vote is not None and len({plaus.script(t) for t in vote.texts if len(t) == 1}) <= 1:
                    # an outline known as Latin y alone may be the font's Cyrillic у: only letters no
                    # other script draws alike tell the font's script
                    text = "".join(c for c in vote.text if not looks_alike(c))
                for c in text:
                    if (s := plaus.script(c)) is not None:
                        scripts[s] = scripts.get(s, 0) + 1
                if vote is not None and raw.confidence == HEURISTIC and raw.heuristic in SHAPE_OUTRANKS \
                        and raw.unicode:
                    tally = readings.setdefault(raw.heuristic, [0, 0])
                    tally[letter_key(vote.text) != letter_key(raw.unicode)] += 1
            self._evidence[font] = ({k: (v[0], v[1]) for k, v in readings.items()}, scripts)
        return self._evidence[font]

    def _blank_glyphs(self, font: Font) -> int:
        """How many distinct glyphs that draw nothing the font's codes (those its widths name) select."""
        if font not in self._blanks:
            shapes = self.glyph_shapes()
            self._blanks[font] = len({(r.gid, r.glyph_name) for code, cid in _font_codes(font)
                                      if shapes.fingerprint(font, (r := self._raw_resolve(font, code, cid)).gid,
                                                            r.glyph_name, code) == EMPTY})
        return self._blanks[font]

    def _against_shape(self, font: Font, res: Resolution) -> Resolution:
        """A spec-grade text that a clear shape vote of other fonts contradicts is flagged."""
        table = self._table(learn=False)
        if table is None or (font.program_ref is None and font.subtype != "Type3"):
            return res
        fp = self.glyph_shapes().fingerprint(font, res.gid, res.glyph_name, res.code)
        vote = table.vote(fp) if fp not in (None, EMPTY) else None
        if vote is None or not vote.clear or vote.fonts < 2 or letter_key(vote.text) == letter_key(res.unicode):
            return res
        return replace(res, conflicts=res.conflicts + (Conflict(h.GLYPH_SHAPE.method, vote.text),), flags=res.flags + (Flag(
            codes.MAPPING_CONTRADICTS_SHAPE, f"mapping contradicts shape: {res.method} gives "
            f"{format_unicode(res.unicode)}, but the glyph's outline is {format_unicode(vote.text)} "
            f"({vote.describe()})"),))

    def judged(self, font: Font, code: bytes, cid: int | None = None) -> Resolution:
        """The resolution before the shape vote (what the vote learns from)."""
        return self._judge(font, self._raw_resolve(font, code, cid))

    def _raw_resolve(self, font: Font, code: bytes, cid: int | None) -> Resolution:
        key = (font, code)
        hit = self._raw.get(key)
        if hit is None:
            hit = self._raw[key] = self._resolve(font, code, cid)
        return hit

    # -- is a heuristic's text believable? (fonts.plausibility) ----------------------------------
    def _judge(self, font: Font, res: Resolution) -> Resolution:
        """A heuristic result whose text is implausible for this code or this font drops to
        ``guess``: its step keeps the text, the resolution keeps it only with ``guesses``."""
        if res.confidence != HEURISTIC or res.heuristic is None:
            return res
        verdict = plaus.judge_text(res.unicode) or \
            (self.font_verdict(font, res.heuristic) if res.heuristic in JUDGED_PER_FONT else None)
        if verdict is None:
            return res
        return self._as_guess(res, verdict)

    def _as_guess(self, res: Resolution, verdict: str) -> Resolution:
        """``res`` judged a guess for ``verdict`` (a :data:`.plausibility.VERDICTS` key)."""
        assert res.heuristic is not None  # only a heuristic's text is judged
        why = f"judged a guess ({verdict}): {plaus.VERDICTS[verdict]}"
        winner = next(s for s in reversed(res.path) if s.method == res.heuristic and s.result == HIT)
        path = tuple(replace(s, confidence=GUESS, detail=f"{s.detail}; {why}") if s is winner else s
                     for s in res.path)
        return replace(res, unicode=res.unicode if self.guesses else "", path=path, confidence=GUESS,
                       flags=res.flags + (Flag(codes.IMPLAUSIBLE_GUESS, f"implausible guess: {res.heuristic} {why}"),))

    def font_verdict(self, font: Font, method: str) -> str | None:
        """The per-font plausibility verdict on ``method``'s text over the font's codes (those
        its widths name), with the spec's text for its other codes as evidence; cached."""
        key = (font, method)
        if key not in self._verdicts:
            self._verdicts[key] = None  # the sample below resolves codes of this font too
            outputs, evidence, alternatives = [], [], []
            for code, cid in _font_codes(font):
                raw = self._raw_resolve(font, code, cid)
                if raw.heuristic == method and raw.unicode:
                    outputs.append(raw.unicode)
                    if method == h.CID_AS_UNICODE.method and cid is not None:
                        alternatives.append(_mac_text(cid))
                elif raw.confidence == SPEC and raw.unicode:
                    evidence.append(raw.unicode)
            verdict = plaus.judge_font(outputs, evidence)
            if verdict is None and alternatives and plaus.constant_offset(outputs, alternatives) is not None:
                verdict = plaus.CONSTANT_OFFSET
            if verdict is None and method == h.CID_AS_UNICODE.method and not _cid_values_fit(font):
                verdict = plaus.NO_EVIDENCE
            if verdict is None and method == h.CODE_AS_UNICODE.method \
                    and not (_code_values_fit(font) if font.is_type0 else _simple_code_values_fit(font)):
                verdict = plaus.NO_EVIDENCE
            self._verdicts[key] = verdict
        return self._verdicts[key]

    def mac_glyph_order(self, font: Font) -> tuple[int, str]:
        """Up to which CID this Identity-mapped TrueType CIDFont's CIDs are glyph ids in the standard
        Macintosh order (0: none), and why: read that way, the widths the font gives its CIDs follow
        the widths of the same letters in Helvetica or Times (Arial's and Times New Roman's metrics)
        far better than the CIDs read as code points do, and the letters pass
        :func:`.plausibility.plausible_letters`. Fonts that keep only ASCII in the Macintosh
        positions (glyphs 3–97) are read so up to glyph 97."""
        if font not in self._mac:
            self._mac[font] = _mac_order_fits(font)
        return self._mac[font]

    def _resolve(self, font: Font, code: bytes, cid: int | None) -> Resolution:
        flags: list[Flag] = []
        if font.is_type0 and cid is None:
            cid = font.cid(code)
        tu = _tounicode(font, code)
        enc, name = _encoding(font, code, flags)
        coll = _collection(font, code, cid)
        prog, gid, prog_name = self._program_step(font, code, cid, name, flags)
        path: tuple[PathStep, ...] = (tu, enc, coll, prog)
        spec = next((s for s in path if s.result == HIT), None)
        winner = spec
        greek = self._tex_greek(font, spec, name, prog_name) if spec is not None and spec in (enc, prog) else None
        if font.substitute_for is not None:
            # the dictionaries that were read are the stand-in's, not the document's: the spec says nothing
            stand_in = _substitute_step(font, enc)
            path, spec, winner = (stand_in,), None, stand_in if stand_in.result == HIT else None
        elif greek is not None:
            assert spec is not None  # a Greek reading is only looked for when the spec hit
            path, winner = path + (greek,), greek
            flags.append(Flag(codes.AGL_TEX_AMBIGUITY, f"AGL/TeX ambiguity: the AGL reads /{name or prog_name} as "
                              f"{format_unicode(_text(spec))}, TeX fonts mean {format_unicode(_text(greek))}; "
                              "the Greek letter is taken"))
        elif spec is None:
            tried = self._heuristics(font, code, cid, name, prog_name, enc, prog)
            path += tried
            winner = next((s for s in tried if s.result == HIT), None)
        elif spec is tu and no_text(_text(tu)) and all(s.result != HIT for s in (enc, coll, prog)):
            # the ToUnicode entry stays the answer (what extractors output), and the heuristics
            # say what the glyph would read instead: a fix replaces the entry with that
            path += self._heuristics(font, code, cid, name, prog_name, enc, prog)
        text = _text(winner) if winner is not None else ""
        method = winner.method if winner is not None else NONE
        conflicts = tuple(Conflict(s.method, _text(s)) for s in path
                          if s.result == HIT and s is not winner and s.unicode != text)
        tounicode_only = _text(tu) if tu.result == HIT else _code_as_text(code)
        if winner is None:
            flags.append(Flag(codes.UNRESOLVED, "unresolved: no method gives text"))
        elif font.tounicode is not None and tu.result == MISS and _code_as_text(code) != text:
            as_code = int.from_bytes(code, "big")
            flags.append(Flag(codes.TOUNICODE_MISS, f"ToUnicode {font.tounicode_ref or ''} has no entry for "
                              f"<{code.hex()}>: a ToUnicode-only extractor yields U+{as_code:04X} instead of "
                              f"{format_unicode(text)}"))
        if winner is not None and winner.confidence == HEURISTIC and spec is None:
            flags.append(Flag(codes.HEURISTIC_ONLY, f"found only by the heuristic {winner.method} (used by "
                              f"{', '.join(winner.used_by)}): the spec's methods give nothing"))
        if conflicts:
            flags.append(Flag(codes.METHODS_DISAGREE, "methods disagree: "
                              + ", ".join(f"{x.method} gives {format_unicode(x.unicode)}" for x in conflicts)))
        flags.extend(text_flags(text))
        confidence = NO_CONFIDENCE if winner is None else winner.confidence
        heuristic = winner.method if winner is not None and confidence == HEURISTIC else None
        return Resolution(code, text, method, cid, gid, name or prog_name, path, conflicts, tuple(flags),
                          confidence, heuristic, winner.used_by if winner is not None and heuristic else (),
                          _text(spec) if spec is not None else "", tounicode_only)

    # -- heuristics (after the spec) -----------------------------------------------------------
    def _tex_greek(self, font: Font, spec: PathStep, name: str | None, prog_name: str | None) -> PathStep | None:
        """The TeX reading of an AGL name that TeX fonts use for a Greek letter, if it applies."""
        glyph = name if spec.method == ENCODING else prog_name or name
        greek = h.tex_greek(glyph or "")
        if greek is None or not h.is_tex_font(font.base_font) or greek == spec.unicode:
            return None
        return _heuristic_step(h.TEX_GLYPH_LIST, font.ref, f"TeX font {font.base_font}", f"/{glyph}", HIT,
                               codes.TEX_GREEK,
                               f"in TeX fonts /{glyph} is the Greek letter {format_unicode(greek)}; "
                               f"the AGL's {format_unicode(_text(spec))} is another character", greek)

    def _heuristics(self, font: Font, code: bytes, cid: int | None, name: str | None, prog_name: str | None,
                    enc: PathStep, prog: PathStep) -> tuple[PathStep, ...]:
        """The heuristics that apply to this code, in order, up to the first that yields text."""
        steps: list[PathStep] = []
        c = code[0] if code else 0
        if font.legacy_cjk and len(code) > 1:
            text, clean = h.decode_cjk(font.legacy_cjk, code)
            return (_heuristic_step(
                h.LEGACY_CJK_CODEPAGE, font.ref, f"BaseFont {font.base_font} (a CJK family)",
                f"bytes <{code.hex()}> as {font.legacy_cjk.upper()}", HIT if clean else MISS,
                codes.CJK_DECODED if clean else codes.CJK_UNDECODABLE,
                f"decode cleanly → {format_unicode(text)}" if clean else
                f"do not decode to a character ({format_unicode(text)}): not {font.legacy_cjk.upper()} text",
                text if clean else None),)
        names = [n for n in dict.fromkeys((name, prog_name)) if n]
        for glyph in names:
            found = h.tex_glyph(glyph)
            if found is not None:
                steps.append(_heuristic_step(h.TEX_GLYPH_LIST, font.ref, "TeX glyph list", f"/{glyph}", HIT,
                                             codes.TEX_GLYPH, f"{found[1]} → {format_unicode(found[0])}", found[0]))
                return tuple(steps)
        for glyph in names:
            judged = self.numeric_names(font, from_program=glyph != name)
            found = h.numeric_glyph(glyph, judged)
            if found is not None:
                text, how = found
                steps.append(_heuristic_step(h.NUMERIC_GLYPH_NAME, font.encoding_ref or font.ref, "glyph name",
                                             f"/{glyph}", HIT if text else MISS,
                                             codes.NUMERIC_CODE if text else codes.NUMERIC_GLYPH_INDICES,
                                             f"{how} → {format_unicode(text)}" if text else how, text or None))
                if text:
                    return tuple(steps)
        if font.is_type0:
            return self._cid_as_unicode(font, code, cid)
        prog_obj = self.program(font) if font.embedded else None
        readable = prog_obj is not None and bool(prog_obj.glyph_names or prog_obj.cmaps or prog_obj.builtin_encoding)
        if name and c in font.differences and not h.is_tex_font(font.base_font):
            base, base_name = self._base_name(font, prog_obj, c)
            text = glyph_to_unicode(base_name).unicode if base_name else ""
            steps.append(_heuristic_step(
                h.BASE_ENCODING_FALLBACK, font.encoding_ref or font.ref, f"{base} (base of /Differences)",
                f"code 0x{c:02X}", HIT if text else MISS,
                codes.BASE_ENCODING_CHAR if text else codes.BASE_ENCODING_EMPTY,
                f"/Differences names /{name}, which nothing maps; the base encoding has "
                + (f"/{base_name} → {format_unicode(text)}" if text else "nothing for the code"), text or None))
            if text:
                return tuple(steps)
        if font.subtype == "Type3":
            return tuple(steps)
        if name is None and not readable and font.encoding_base is None:
            std = base_encoding("StandardEncoding")
            std_name = std[c] if std is not None else None
            text = glyph_to_unicode(std_name).unicode if std_name else ""
            why = "the embedded program cannot be read" if font.embedded else "no program is embedded"
            steps.append(_heuristic_step(
                h.STANDARD_ENCODING_FALLBACK, font.program_ref or font.descriptor_ref or font.ref,
                "StandardEncoding", f"code 0x{c:02X}", HIT if text else MISS,
                codes.STANDARD_ENCODING_CHAR if text else codes.STANDARD_ENCODING_EMPTY,
                f"{why}, so its built-in encoding is unknown; StandardEncoding has "
                + (f"/{std_name} → {format_unicode(text)}" if text else "nothing for the code"), text or None))
            if text:
                return tuple(steps)
        if font.subtype == "TrueType" and prog_obj is not None and (font.symbolic or (3, 0) in prog_obj.cmaps):
            text = h._char(c) if c >= 0x20 else ""
            steps.append(_heuristic_step(
                h.CODE_AS_UNICODE, prog_obj.ref, f"{prog_obj.describe} (symbolic TrueType)", f"code 0x{c:02X}",
                HIT if text else MISS, codes.CODE_AS_CHAR if text else codes.CONTROL_CODE,
                "no glyph name and no Unicode cmap: the code itself is output as the "
                f"character {format_unicode(text)}" if text else "a control code: nothing to output", text or None))
        return tuple(steps)

    def _cid_as_unicode(self, font: Font, code: bytes, cid: int | None) -> tuple[PathStep, ...]:
        """Type0 where the spec gives nothing: Identity CIDs of a TrueType font whose widths say they
        are glyph ids in the Macintosh order read by that order (also under a ToUnicode that lacks the
        code); else, with no ToUnicode, Identity CIDs (= codes) read as code points, and with another
        CMap of a private collection, the code itself."""
        source = font.cid_font.ref if font.cid_font else font.ref
        if font.encoding_desc.startswith("Identity"):
            if cid is None:
                return ()
            steps: tuple[PathStep, ...] = ()
            if font.cid_font is not None and font.cid_font.subtype == "CIDFontType2":
                last, why = self.mac_glyph_order(font)
                fits = cid <= last
                name = h.mac_glyph_name(cid) if fits else None
                text = glyph_to_unicode(name).unicode if name else ""
                mac = _heuristic_step(
                    h.MAC_GLYPH_ORDER, source, f"{font.encoding_desc}, TrueType", f"CID {cid}", HIT if text else MISS,
                    codes.MAC_GLYPH_NAMED if text else codes.MAC_GLYPH_UNNAMED if fits else codes.MAC_ORDER_UNFIT,
                    f"glyph {cid} of the standard Macintosh order is /{name} → {format_unicode(text)} ({why})" if text
                    else f"glyph {cid} has no name in the standard Macintosh order (258 names)" if fits
                    else f"glyph {cid} is past the part of the order the font follows ({why})" if last else why,
                    text or None)
                if text:
                    return (mac,)
                steps = (mac,)
            if font.tounicode is not None:
                return steps
            text = h._char(cid) if cid >= 0x20 else ""
            return steps + (_heuristic_step(
                h.CID_AS_UNICODE, source, f"{font.encoding_desc}, no ToUnicode", f"CID {cid}", HIT if text else MISS,
                codes.CODE_AS_CHAR if text else codes.CONTROL_CODE,
                f"the CID read as a code point → {format_unicode(text)}; right only where the producer wrote "
                "Unicode values as CIDs" if text else "CID is a control code or not a code point", text or None),)
        if font.tounicode is not None:
            return ()
        value = int.from_bytes(code, "big")
        text = h._char(value) if value >= 0x20 else ""
        return (_heuristic_step(
            h.CODE_AS_UNICODE, source, f"CMap {font.encoding_desc}, no ToUnicode", f"code <{code.hex()}>",
            HIT if text else MISS, codes.CODE_AS_CHAR if text else codes.CONTROL_CODE,
            f"the code read as a code point → {format_unicode(text)}"
            if text else "code is a control code or not a code point", text or None),)

    def _base_name(self, font: Font, prog: FontProgram | None, c: int) -> tuple[str, str | None]:
        """The base encoding under /Differences and its name for ``c``: the named base, else the
        program's built-in encoding, else StandardEncoding."""
        if font.encoding_base is not None:
            table = base_encoding(font.encoding_base)
            return font.encoding_base, table[c] if table else None
        if prog is not None and prog.builtin_encoding:
            return "the program's built-in encoding", prog.builtin_encoding.get(c)
        table = base_encoding("StandardEncoding")
        return "StandardEncoding", table[c] if table else None

    def numeric_names(self, font: Font, from_program: bool = False) -> h.NumericNames | None:
        """The font's numeric glyph names judged once (its /Differences, or for names from the
        program, its built-in encoding)."""
        key = (font, from_program)
        if key not in self._numeric:
            if from_program:
                prog = self.program(font) if font.embedded else None
                pairs = prog.builtin_encoding.items() if prog is not None else ()
            else:
                pairs = font.differences.items()
            self._numeric[key] = h.judge_numeric_names(pairs)
        return self._numeric[key]

    # -- 4. the embedded program -------------------------------------------------------------
    def _program_step(self, font: Font, code: bytes, cid: int | None, enc_name: str | None, flags: list):
        """The FontProgram step, plus the GID and glyph name it found."""
        if font.subtype == "Type3":
            name = font.glyph_name(code[0]) if code else None
            proc = font.charprocs.get(name or "")
            return (_step(FONT_PROGRAM, font.ref, "Type3 /CharProcs", f"/{name}", SKIPPED, codes.TYPE3_PROCEDURES,
                          f"glyph procedure {proc or '(none)'}; procedures draw shapes, they carry no text"),
                    None, None)
        if not font.is_type0 and len(code) > 1:
            return _step(FONT_PROGRAM, font.ref, "simple font", f"code <{code.hex()}>", SKIPPED,
                         codes.DOUBLE_BYTE_CODE,
                         "double-byte code (legacy CJK codepage): simple-font tables take one byte"), None, None
        if not font.embedded:
            why = "standard 14 font, not embedded" if font.standard_name else "no font program embedded"
            return _step(FONT_PROGRAM, font.descriptor_ref, "FontDescriptor", "font program", SKIPPED,
                         codes.PROGRAM_NOT_EMBEDDED, why), None, None
        prog = self.program(font)
        assert prog is not None  # embedded: load_program reads it
        desc = f"FontDescriptor {font.descriptor_ref} → {prog.describe}" if font.descriptor_ref else prog.describe
        if prog.unreadable and not prog.glyph_names and not prog.cmaps:
            return _step(FONT_PROGRAM, prog.ref, desc, "font program", MISS, codes.PROGRAM_UNREADABLE,
                         prog.unreadable[0].message), None, None
        if font.is_type0:
            return self._cid_program(font, prog, desc, cid, flags)
        kind = prog.kind
        if kind in ("Type1", "Type1C") or (kind == "OpenType" and prog.builtin_encoding):
            if enc_name:
                gid = prog.gid_of_name(enc_name)
                detail = f"has glyph /{enc_name} as GID {gid}" if gid is not None else \
                    f"has no glyph /{enc_name}: the glyph drawn is .notdef"
                return _step(FONT_PROGRAM, prog.ref, desc, f"/{enc_name}", SKIPPED, codes.GLYPH_CHOSEN_BY_ENCODING,
                             f"glyph chosen by /Encoding; program {detail}"), gid, None
            name = prog.builtin_encoding.get(code[0]) if code else None
            looked = f"code 0x{code.hex().upper()} in built-in encoding"
            if name is None:
                return _step(FONT_PROGRAM, prog.ref, desc, looked, MISS, codes.NOT_IN_BUILTIN_ENCODING,
                             "code not in built-in encoding"), None, None
            step = _name_step(FONT_PROGRAM, prog.ref, desc, looked, name, font, flags)
            return step, prog.gid_of_name(name), name
        return self._sfnt_program(font, prog, desc, code, enc_name, flags)

    def _sfnt_program(self, font: Font, prog: FontProgram, desc: str, code: bytes, enc_name: str | None,
                      flags: list):
        """Simple TrueType (9.6.6.4): code → GID through cmap subtables, GID → Unicode."""
        c = code[0] if code else 0
        gid = table = None
        if enc_name and (3, 1) in prog.cmaps:
            u = glyph_to_unicode(enc_name).unicode
            if len(u) == 1 and ord(u) in prog.cmaps[(3, 1)]:
                gid, table = prog.cmaps[(3, 1)][ord(u)], f"(3,1) cmap via /{enc_name}"
        if gid is None and enc_name and prog.gid_of_name(enc_name) is not None:
            gid, table = prog.gid_of_name(enc_name), f"post name /{enc_name}"
        if gid is None:
            for key, candidates in (((3, 0), (c, 0xF000 + c, 0xF100 + c, 0xF200 + c)), ((1, 0), (c,)),
                                    ((3, 1), (c,))):
                sub = prog.cmaps.get(key)
                found = next((x for x in candidates if sub and x in sub), None)
                if found is not None and sub:
                    gid, table = sub[found], f"({key[0]},{key[1]}) cmap code 0x{found:X}"
                    break
        looked = f"code 0x{c:02X}"
        if gid is None:
            return _step(FONT_PROGRAM, prog.ref, desc, looked, MISS, codes.NO_CMAP_SUBTABLE,
                         "no cmap subtable maps the code"), None, None
        return self._gid_to_text(font, prog, desc, f"{looked} → {table} → GID {gid}", gid, flags)

    def _cid_program(self, font: Font, prog: FontProgram, desc: str, cid: int | None, flags: list):
        if cid is None:
            return _step(FONT_PROGRAM, prog.ref, desc, "CID", SKIPPED, codes.NO_CID, "code has no CID"), None, None
        cf = font.cid_font
        assert cf is not None  # every Type0 font has one
        if prog.cid_to_gid:
            gid, how = prog.cid_to_gid.get(cid), "CFF charset"
        elif isinstance(cf.cid_to_gid, bytes):
            b = cf.cid_to_gid[2 * cid:2 * cid + 2]
            gid, how = (int.from_bytes(b, "big") if len(b) == 2 else None), f"/CIDToGIDMap {cf.cid_to_gid_ref}"
        else:
            gid, how = cid, "/CIDToGIDMap /Identity" if cf.cid_to_gid else "CID = GID (no /CIDToGIDMap)"
        looked = f"CID {cid} → {how} → GID {gid}"
        if gid is None:
            return _step(FONT_PROGRAM, prog.ref, desc, looked, MISS, codes.CID_NOT_IN_PROGRAM,
                         "CID not in the program"), None, None
        return self._gid_to_text(font, prog, desc, looked, gid, flags)

    def _gid_to_text(self, font: Font, prog: FontProgram, desc: str, looked: str, gid: int, flags: list):
        text = prog.unicode_of_gid.get(gid)
        name = prog.name_of_gid(gid)
        if text is not None:
            return _step(FONT_PROGRAM, prog.ref, desc, looked, HIT, codes.UNICODE_CMAP,
                         f"Unicode cmap maps {format_unicode(text)} to this GID", text), gid, name
        if name:
            return _name_step(FONT_PROGRAM, prog.ref, desc, f"{looked} → glyph name", name, font, flags), gid, name
        return _step(FONT_PROGRAM, prog.ref, desc, looked, MISS, codes.GID_NO_TEXT,
                     "no Unicode cmap entry and no glyph name for this GID"), gid, None


MAX_SAMPLE = 2048  # codes of one font resolved to judge a heuristic or the Macintosh order
LOOSE_DISTANCE = 60.0  # likeness: how far the outlines of a loose reading may be (a clear reading: 40)
LOOSE_COUNT = 3  # … the nearest outlines that must all draw one letter
LOOK_ALIKE_SCRIPTS = frozenset(s for group in LOOK_ALIKES for c in group if (s := plaus.script(c)) is not None)
# what a font's outlines say (Resolver._shape_evidence): the clear votes for and against each
# heuristic reading codes as values, and the font's letters counted by script
Evidence = tuple[dict[str, tuple[int, int]], dict[str, int]]
# clear votes against a value reading of a font's codes that make it a guess (outnumbering those for it)
OUTLINES_REFUTE = 3
# The heuristics that read a code or a CID as a value: a clear vote of the glyph's outline (fonts
# whose mapping the spec backs) outranks them.
SHAPE_OUTRANKS = frozenset(x.method for x in (h.CID_AS_UNICODE, h.CODE_AS_UNICODE, h.MAC_GLYPH_ORDER,
                                               h.BASE_ENCODING_FALLBACK, h.STANDARD_ENCODING_FALLBACK))
# The heuristics that read a code or a CID as a value (and so can read a whole font wrong) are
# judged over the font's codes too; the TeX list (a math font mixes Latin and Greek), the CJK code
# pages (their bytes must decode cleanly) and the stand-in font (no evidence) per code only.
JUDGED_PER_FONT = frozenset(x.method for x in (h.CID_AS_UNICODE, h.CODE_AS_UNICODE, h.BASE_ENCODING_FALLBACK,
                                                 h.STANDARD_ENCODING_FALLBACK, h.NUMERIC_GLYPH_NAME))


def _font_codes(font: Font) -> list[tuple[bytes, int | None]]:
    """The codes a font says it has, ``(code, CID)``: an Identity CIDFont's CIDs in /W, a simple
    font's codes with a non-zero /Widths entry. A font without them (a standard 14 font, a Type0
    font with another CMap) gives none: nothing lists its codes."""
    if font.is_type0:
        cf = font.cid_font
        if cf is None:
            return []
        if not font.encoding_desc.startswith("Identity"):
            return _cmap_codes(font)
        return [(c.to_bytes(2, "big"), c) for c, _ in _cid_widths(cf) if 0 <= c <= 0xFFFF]
    return [(bytes([font.first_char + i]), None) for i, w in enumerate(font.widths)
            if w and 0 <= font.first_char + i <= 255]


def _cmap_codes(font: Font) -> list[tuple[bytes, int | None]]:
    """``(code, CID)`` for the codes an embedded CMap maps (its cidchar and cidrange entries) to
    CIDs the font's /W lists, the first :data:`MAX_SAMPLE`."""
    cmap = font.cmap
    out: list[tuple[bytes, int | None]] = []
    if cmap is None or cmap.identity or font.cid_font is None:
        return out
    listed = {cid for cid, _ in _cid_widths(font.cid_font)}  # the CIDs its /W names, as for Identity
    for entry in cmap.entries:
        if entry.kind not in ("cidchar", "cidrange") or len(entry.low) != len(entry.high):
            continue
        low, high = int.from_bytes(entry.low, "big"), int.from_bytes(entry.high, "big")
        for n in range(low, min(high, low + MAX_SAMPLE) + 1):
            code = n.to_bytes(len(entry.low), "big")
            cid = font.cid(code)
            if cid in listed:
                out.append((code, cid))
                if len(out) == MAX_SAMPLE:
                    return out
    return out


def _cid_widths(cf: CIDFont) -> Iterator[tuple[int, float]]:
    """``(CID, width)`` for the CIDs a CIDFont's /W lists, the first :data:`MAX_SAMPLE` of them."""
    n = 0
    for first, last, width in cf.widths:
        for cid in range(first, min(last, first + MAX_SAMPLE) + 1):
            if n == MAX_SAMPLE:
                return
            n += 1
            yield cid, width


def _mac_text(cid: int) -> str:
    name = h.mac_glyph_name(cid)
    return glyph_to_unicode(name).unicode if name else ""


def _rank_correlation(pairs: list[tuple[float, float]]) -> float:
    """Spearman's rank correlation of the pairs (0 when either side is constant)."""
    def ranks(values: list[float]) -> list[float]:
        order = sorted(range(len(values)), key=values.__getitem__)
        out = [0.0] * len(values)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
                j += 1
            for k in range(i, j + 1):
                out[order[k]] = (i + j) / 2
            i = j + 1
        return out

    if len(pairs) < 2:
        return 0.0
    a, b = ranks([p[0] for p in pairs]), ranks([p[1] for p in pairs])
    ma, mb = sum(a) / len(a), sum(b) / len(b)
    cov = sum((x - ma) * (y - mb) for x, y in zip(a, b))
    va, vb = sum((x - ma) ** 2 for x in a), sum((y - mb) ** 2 for y in b)
    return cov / (va * vb) ** 0.5 if va and vb else 0.0


MAC_ASCII_LAST = 97  # glyphs 3–97 of the standard Macintosh order are ASCII's space to tilde, in order
WIDTHS_FOLLOW = 0.6  # rank correlation with a standard font's widths that makes a reading believable


def _standard_widths() -> tuple[dict[str, int], ...]:
    metrics = pdfminerdata.module("fontmetrics").FONT_METRICS
    return metrics["Helvetica"][1], metrics["Times-Roman"][1]


def widths_follow(pairs: list[tuple[str, float]]) -> tuple[float, int]:
    """How well the widths a font gives characters follow the same characters' widths in Helvetica
    or in Times (Arial's and Times New Roman's metrics): the better rank correlation of the two and
    the number of characters both know."""
    best, n = 0.0, 0
    for metrics in _standard_widths():
        known = [(w, float(metrics[t])) for t, w in pairs if t in metrics]
        fit = _rank_correlation(known)
        if fit > best or not n:
            best, n = max(best, fit), len(known)
    return best, n


def _mac_order_fits(font: Font) -> tuple[int, str]:
    """The highest CID read in the Macintosh order (0: the order does not fit; 257: the whole order;
    :data:`MAC_ASCII_LAST`: its ASCII part only, as in fonts that keep ASCII in the Macintosh
    positions and order the rest their own way), and why."""
    cf = font.cid_font
    if cf is None or not cf.widths:
        return 0, "no /W widths to judge whether the CIDs are glyph ids in the Macintosh order"
    widths = list(_cid_widths(cf))
    mac = [(t, w) for cid, w in widths if (t := _mac_text(cid))]
    as_unicode = [(chr(cid), w) for cid, w in widths if 0x20 <= cid < 0x110000]
    other, _ = widths_follow(as_unicode)
    known = _standard_widths()
    letters = [t for t, _ in mac if any(t in m for m in known)]
    if not plaus.plausible_letters(letters):
        return 0, "read as glyph ids in the Macintosh order, the font's CIDs are not letters"
    fit, n = widths_follow(mac)
    how = f"rank correlation of the widths with a standard font's {fit:.2f}; as code points {other:.2f}"
    if n >= 5 and fit >= WIDTHS_FOLLOW and fit > other + 0.2:
        return 257, f"the font's widths follow that order: {how}"
    ascii_part = [(t, w) for cid, w in widths if cid <= MAC_ASCII_LAST and (t := _mac_text(cid)) and t.isalnum()]
    part, k = widths_follow(ascii_part)
    if k >= 8 and part >= WIDTHS_FOLLOW + 0.1 and part > other + 0.2:
        return MAC_ASCII_LAST, (f"the font's widths follow that order for its ASCII glyphs (3–{MAC_ASCII_LAST}) only: "
                                f"rank correlation of their widths {part:.2f}; {how}")
    return 0, f"the font's widths do not follow the Macintosh order: {how}"


MAX_SHIFT = 32  # the largest constant shift of a ToUnicode looked for in the widths
SHIFT_LETTERS = 12  # distinct letters of a ToUnicode the standard fonts must know to judge it by widths


@dataclass(frozen=True)
class WidthShift:
    """A ToUnicode whose letters' widths follow a standard font's once moved by ``offset`` code
    points (the table's text is ``offset`` above the glyphs'), far better than as they are."""

    offset: int
    fit: float  # rank correlation of the widths with the moved letters'
    unshifted: float  # the same for the table's letters as they are
    codes: tuple[bytes, ...]  # the codes whose ToUnicode text is one letter the metrics know once moved


def tounicode_width_shift(font: Font) -> WidthShift | None:
    """Whether the font's ToUnicode is shifted by a constant, judged by the font's own widths (/W
    or /Widths) alone: read through the table, the widths of :data:`SHIFT_LETTERS` distinct letters
    or more (Latin, known to the standard fonts) follow
    Helvetica's or Times's (:func:`widths_follow`) poorly, and read ``k`` code points lower
    (|k| ≤ :data:`MAX_SHIFT`) closely. ``None`` when the widths say nothing (no widths, a
    monospaced font, letters the standard fonts lack) or the table reads best as it is."""
    if font.tounicode is None or not (font.cid_font.widths if font.cid_font is not None else font.widths):
        return None
    given: list[tuple[bytes, str, float]] = []
    for code, cid in _font_codes(font):
        text, _ = font.tounicode.lookup_unicode(code)
        if text is not None and len(text) == 1 and text.isalpha() and ord(text) < 0x300:
            given.append((code, text, font.glyph_width(code, cid) * 1000))
    if len({t for _, t, _ in given}) < SHIFT_LETTERS:
        return None  # (digits are left out: their widths are one in every standard font, so say nothing)
    unshifted, n0 = widths_follow([(t, w) for _, t, w in given])
    if n0 < SHIFT_LETTERS or unshifted >= WIDTHS_FOLLOW:
        return None
    best: WidthShift | None = None
    for k in range(-MAX_SHIFT, MAX_SHIFT + 1):
        moved = [(c, chr(ord(t) - k), w) for c, t, w in given if k and 0x20 <= ord(t) - k]
        fit, n = widths_follow([(t, w) for _, t, w in moved])
        if n >= SHIFT_LETTERS and fit >= WIDTHS_FOLLOW + 0.15 and fit >= unshifted + 0.35 and (best is None or fit > best.fit):
            known = _standard_widths()
            best = WidthShift(k, fit, unshifted, tuple(sorted(c for c, t, _ in moved
                                                               if any(t in m for m in known))))
    return best


def tounicode_cid_shift(font: Font) -> WidthShift | None:
    """Whether an Identity CIDFont's CIDs are code points (its widths say so: :func:`_cid_values_fit`)
    and its ToUnicode gives, for four in five of them and ten at least, the CID moved by one constant."""
    if font.tounicode is None or not font.is_type0 or not _cid_values_fit(font):
        return None
    deltas: dict[bytes, int] = {}
    for code, cid in _font_codes(font):
        text, _ = font.tounicode.lookup_unicode(code)
        if cid is not None and text is not None and len(text) == 1 and cid >= 0x20:
            deltas[code] = ord(text) - cid
    if not deltas:
        return None
    k = max(set(deltas.values()), key=list(deltas.values()).count)
    moved = tuple(sorted(c for c, d in deltas.items() if d == k))
    if k == 0 or len(moved) < 10 or len(moved) * 5 < len(deltas) * 4:
        return None
    fit, _ = widths_follow([(chr(ord(font.tounicode.lookup_unicode(c)[0] or " ") - k), font.glyph_width(c) * 1000)
                            for c in moved])
    return WidthShift(k, fit, 0.0, moved)


def _code_values_fit(font: Font) -> bool:
    """Whether the widths a Type0 font with a private CMap gives its codes (through their CIDs),
    read as code points, are those characters' widths (as :func:`_cid_values_fit`)."""
    pairs = [(chr(n), font.glyph_width(code, cid) * 1000) for code, cid in _cmap_codes(font)
             if 0x20 <= (n := int.from_bytes(code, "big")) < 0x110000]
    if len({w for _, w in pairs}) <= 1:
        return not font.embedded
    fit, n = widths_follow(pairs)
    return (n >= 5 and fit >= WIDTHS_FOLLOW) or (n == 4 and fit >= 0.9) or plaus.east_asian_widths_fit(pairs)


def _simple_code_values_fit(font: Font) -> bool:
    """Whether the widths a simple font's /Widths give its codes, read as characters (a symbolic
    TrueType's codes, as MuPDF reads them), are those characters' widths (as :func:`_cid_values_fit`).
    One width for all, or fewer than four characters a standard font knows, cannot tell: the codes
    are taken at their word."""
    pairs = [(chr(code[0]), w * 1000) for code, _ in _font_codes(font)
             if code[0] >= 0x20 and (w := font.glyph_width(code, None))]
    if len({w for _, w in pairs}) <= 1:
        return True
    fit, n = widths_follow(pairs)
    return n < 4 or (n >= 5 and fit >= WIDTHS_FOLLOW) or (n == 4 and fit >= 0.9)


def _cid_values_fit(font: Font) -> bool:
    """Whether the widths an Identity CIDFont gives its CIDs, read as code points, are those
    characters' widths: they follow Helvetica's or Times's (Latin text), or a CJK font's wide and
    narrow characters (:func:`.plausibility.east_asian_widths_fit`)."""
    cf = font.cid_font
    if cf is None:
        return False
    pairs = [(chr(cid), w) for cid, w in _cid_widths(cf) if 0x20 <= cid < 0x110000]
    if len({w for _, w in pairs}) <= 1:
        # one width for all (a monospaced font, or /DW alone): the widths cannot tell. An embedded
        # program whose CIDs are its GIDs (/CIDToGIDMap /Identity) then needs its GIDs in Unicode
        # order, which nothing shows; a font not embedded, or one mapping chosen CIDs to GIDs by a
        # /CIDToGIDMap stream, is taken at its producer's word, as every extractor takes it
        return not font.embedded or isinstance(cf.cid_to_gid, bytes)
    fit, n = widths_follow(pairs)
    return (n >= 5 and fit >= WIDTHS_FOLLOW) or (n == 4 and fit >= 0.9) or plaus.east_asian_widths_fit(pairs)


def _code_as_text(code: bytes) -> str:
    """What an extractor that trusts only ToUnicode makes of an unmapped code."""
    n = int.from_bytes(code, "big")
    return chr(n) if n < 0x110000 else ""


def _text(step: PathStep) -> str:
    """The text of a step that hit (a hit always carries its text)."""
    assert step.unicode is not None
    return step.unicode


def _step(method, source, source_desc, looked_up, result, code, detail, unicode=None) -> PathStep:
    return PathStep(method, source, source_desc, looked_up, result, detail, unicode, code=code)


def _heuristic_step(heuristic: Heuristic, source, desc, looked, result, code, detail, unicode=None) -> PathStep:
    return PathStep(heuristic.method, source, desc, looked, result, detail, unicode, HEURISTIC, heuristic.used_by,
                    code)


def _substitute_step(font: Font, enc: PathStep) -> PathStep:
    return _heuristic_step(h.MISSING_FONT_SUBSTITUTE, None, f"stand-in for /{font.substitute_for}", enc.looked_up,
                           enc.result, enc.code, f"/{font.substitute_for} is not in the /Font resources; the "
                           f"stand-in font's {font.encoding_desc}: {enc.detail}", enc.unicode)


def _dingbats_names(font: Font) -> bool:
    """Whether the font's glyph names are the ITC Zapf Dingbats list's (a1…a206): the ZapfDingbats
    font by name, or any font whose /Differences name glyphs that way and whose numbers are not
    its codes (a subset named otherwise, a Dingbats clone)."""
    if "Dingbats" in font.base_font.split("+", 1)[-1]:
        return True
    if not font.differences:
        return False
    judged = h.judge_numeric_names(font.differences.items())
    return judged is not None and judged.dingbats


def _name_step(method, source, desc, looked, name: str, font: Font, flags: list) -> PathStep:
    """A glyph name → AGL step (9.10.2 step 2; AGL specification)."""
    if is_meaningless(name):
        flags.append(Flag(codes.MEANINGLESS_GLYPH_NAME, f"meaningless glyph name /{name}"))
        return _step(method, source, desc, f"{looked} → /{name}", MISS, codes.GLYPH_NAME_MEANINGLESS,
                     "glyph name carries no meaning")
    res = glyph_to_unicode(name, zapf_dingbats=_dingbats_names(font))
    if not res.unicode:
        return _step(method, source, desc, f"{looked} → /{name}", MISS, codes.AGL_NO_MAPPING,
                     f"AGL: {res.detail}")
    return _step(method, source, desc, f"{looked} → /{name}", HIT, codes.AGL_MAPPED,
                 f"AGL ({res.rule}) → {format_unicode(res.unicode)}", res.unicode)


# -- 1. ToUnicode ------------------------------------------------------------------------------
def _tounicode(font: Font, code: bytes) -> PathStep:
    looked = f"code <{code.hex()}>"
    if font.tounicode is None:
        return _step(TOUNICODE, font.ref, "font dictionary", "/ToUnicode", SKIPPED, codes.TOUNICODE_ABSENT,
                     "no /ToUnicode CMap")
    text, entry = font.tounicode.lookup_unicode(code)
    if text is None:
        return _step(TOUNICODE, font.tounicode_ref, "ToUnicode CMap", looked, MISS, codes.TOUNICODE_NO_ENTRY,
                     "no entry")
    assert entry is not None  # text comes from an entry
    span = f"<{entry.low.hex()}>" + (f"–<{entry.high.hex()}>" if entry.high != entry.low else "")
    return _step(TOUNICODE, font.tounicode_ref, "ToUnicode CMap", looked, HIT, codes.TOUNICODE_ENTRY,
                 f"{entry.kind} {span} (line {entry.line}) → {format_unicode(text)}", text)


# -- 2. Encoding ---------------------------------------------------------------------------------
def _encoding(font: Font, code: bytes, flags: list) -> tuple[PathStep, str | None]:
    if font.is_type0:
        return _step(ENCODING, font.ref, "Type0 font", "/Encoding", SKIPPED, codes.ENCODING_TYPE0,
                     "codes select CIDs through the CMap, not glyph names"), None
    c = code[0] if code else 0
    source = font.encoding_ref or font.ref
    if len(code) > 1:
        return _step(ENCODING, source, "simple font", f"code <{code.hex()}>", SKIPPED,
                     codes.DOUBLE_BYTE_CODE,
                     "a simple font's codes are one byte; this double-byte code comes from the legacy CJK "
                     "codepage heuristic"), None
    looked = f"code 0x{c:02X}"
    name: str | None
    if c in font.differences:
        name, desc = font.differences[c], "/Encoding /Differences"
    elif font.encoding_base is not None:
        name, desc = font.glyph_name(c), f"{font.encoding_base} ({font.encoding_base_source})"
    else:
        return _step(ENCODING, source, "font dictionary", looked, SKIPPED, codes.ENCODING_ABSENT,
                     font.encoding_base_source), None
    if name is None or name == ".notdef":
        return _step(ENCODING, source, desc, looked, MISS, codes.CODE_NOT_ENCODED, "code not encoded"), None
    return _name_step(ENCODING, source, desc, looked, name, font, flags), name


# -- 3. CID collection ------------------------------------------------------------------------------
def _collection(font: Font, code: bytes, cid: int | None) -> PathStep:
    if not font.is_type0:
        return _step(CID_COLLECTION, font.ref, "simple font", "CID", SKIPPED, codes.NOT_TYPE0,
                     "only Type0 fonts have CIDs")
    cf = font.cid_font
    assert cf is not None  # every Type0 font has one
    cmap_desc = f"CMap {font.encoding_desc}"
    if cid is None:
        return _step(CID_COLLECTION, font.encoding_ref or font.ref, cmap_desc, f"code <{code.hex()}>",
                     MISS, codes.NO_CID, "code maps to no CID")
    registry, ordering = cf.registry, cf.ordering
    coll = f"{registry}-{ordering}"
    looked = f"code <{code.hex()}> → CID {cid}"
    if (registry, ordering) not in PUBLIC_COLLECTIONS:
        return _step(CID_COLLECTION, cf.ref, f"CIDSystemInfo {coll}", looked, SKIPPED, codes.COLLECTION_PRIVATE,
                     f"{coll} is not a public character collection: CIDs carry no meaning")
    from .predefined import cid_to_unicode, ucs2_source_name

    table = cid_to_unicode(registry, ordering, font.vertical)
    ucs2 = ucs2_source_name(registry, ordering)
    text = table(cid) if table is not None else None
    if not text:
        return _step(CID_COLLECTION, cf.ref, f"CIDSystemInfo {coll}", looked, MISS, codes.CID_NOT_IN_UCS2,
                     f"CID not in {ucs2}")
    return _step(CID_COLLECTION, cf.ref, f"CIDSystemInfo {coll}", looked, HIT, codes.UCS2_MAPPED,
                 f"{ucs2} → {format_unicode(text)}", text)

