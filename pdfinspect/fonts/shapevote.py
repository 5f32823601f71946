"""Shapes vote: glyphs that draw the same outline mean the same character.

A glyph whose code no method resolves (or only a guess does) can still be read when the same
outline (:mod:`.shapes` fingerprint) is drawn by a font whose mapping is spec-grade and
conflict-free: in the same document, or in any file of a corpus whose shapes were learned into a
:class:`ShapeTable` (``pdfinspect audit … --learn-shapes TABLE``). The vote also catches mappings
that lie: a ToUnicode or a glyph name that contradicts a clear vote.

The table file is JSON (optionally gzip-compressed when its name ends in ``.gz``)::

    {"format": "pdfinspect-shapes", "version": 2,
     "shapes": {"<fingerprint>": {"<text>": [fonts, files], …}, …}}

``fonts`` counts the distinct font programs and ``files`` the files that drew that outline with
that text. Keys that start with ``~`` are coarse keys (:meth:`.shapes.Outline.coarse_key`), asked
only when a glyph's exact fingerprint is in no entry, and only a vote of :data:`COARSE_SHARE` of two
fonts or more is clear on them. Glyphs that draw nothing share the fingerprint ``"empty"`` (:data:`EMPTY`), learned only
from white space: a glyph of an embedded program that draws nothing reads as what such glyphs are
mapped to (a space); it is never taken to contradict a mapping. Keys
that start with ``=`` are likeness keys (:meth:`.shapes.Outline.likeness_key`, new in version 2; a
version 1 table loads without them): a glyph whose outline is in no entry, exactly or nearly, is read
by the labelled outlines it looks like (:mod:`.likeness`). A vote is *clear* when one text holds :data:`CLEAR_SHARE` of the fonts; letters that
only differ by script (Latin A, Greek Α, Cyrillic А share outlines in most fonts) count as one.
"""
from __future__ import annotations

import json
import os
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..core.objects import Dict, Name, Ref
from . import plausibility as plaus

if TYPE_CHECKING:  # outlines are read (fontTools' pens) when a glyph's shape is asked for
    from .likeness import LikenessIndex
    from .shapes import Outline

FORMAT, VERSION = "pdfinspect-shapes", 2
READ_VERSIONS = (1, 2)  # a version 1 table has no likeness keys
CLEAR_SHARE = 0.9  # share of the fonts one text must hold for a vote to be clear
COARSE_SHARE = 0.97  # the same for a vote on the coarse key (Outline.coarse_key), which also needs two fonts
MAX_LEARN_FONTS = 500  # fonts of one document read to learn its shapes
MAX_LEARN_CODES = 4096  # codes of one font learned
EMPTY = "empty"  # the fingerprint of a glyph of an embedded program that draws nothing


@dataclass(frozen=True, slots=True)
class Vote:
    """What the fonts that draw one outline say it is."""

    text: str
    fonts: int  # fonts whose mapping gives ``text`` for this outline
    files: int
    total_fonts: int  # fonts that drew the outline at all
    runner_up: str = ""  # the text the next most fonts give (another letter), "" when none
    runner_up_fonts: int = 0
    coarse: bool = False  # a vote on the coarse key: the exact outline was nowhere
    texts: tuple[str, ...] = ()  # the texts that read alike with ``text`` (letter_key), most fonts first
    distance: float | None = None  # a vote by likeness (fonts.likeness): the distance to the nearest outline
    runner_up_distance: float = 0.0  # … and to the nearest outline of another character (inf: none near)
    by_height: str = ""  # a capital and a small letter decided by the glyph's height: "capitals" or "ascenders"
    by_script: str = ""  # letters of several scripts decided by the script of the font's other letters

    @property
    def clear(self) -> bool:
        """One text holds :data:`CLEAR_SHARE` of the fonts (a coarse vote: :data:`COARSE_SHARE`, two
        fonts at least): a fingerprint several characters vote for is no clear vote. A vote by
        likeness is clear by construction (:meth:`.likeness.LikenessIndex.nearest` gives no other)."""
        if self.distance is not None or self.by_height or self.by_script:
            return True
        if self.coarse:
            return self.fonts >= 2 and self.fonts >= COARSE_SHARE * self.total_fonts
        return self.fonts >= 1 and self.fonts >= CLEAR_SHARE * self.total_fonts

    @property
    def margin(self) -> int:
        """Fonts for the text minus fonts for the runner-up."""
        return self.fonts - self.runner_up_fonts

    def describe(self) -> str:
        if self.distance is not None:
            other = (f"; the nearest other, {_name(self.runner_up)}, at {self.runner_up_distance:.0f}"
                     if self.runner_up else "; no other character near")
            return (f"looks like {_name(self.text)}: the nearest outlines of other typefaces, in {self.fonts} "
                    f"font{'s' * (self.fonts != 1)} of {self.files} file{'s' * (self.files != 1)}, read so "
                    f"(distance {self.distance:.0f}{other})")
        return (f"{'nearly the same' if self.coarse else 'same'} outline as {_name(self.text)} in {self.fonts} "
                f"font{'s' * (self.fonts != 1)} of {self.files} file{'s' * (self.files != 1)}"
                + (f" (runner-up {_name(self.runner_up)} in {self.runner_up_fonts}, "
                   f"{self.total_fonts - self.fonts} other in all)" if self.total_fonts > self.fonts else "")
                + (f"; of the capital and the small letter it is drawn as, the one as tall as the font's "
                   f"{self.by_height}" if self.by_height else "")
                + (f"; of the letters of several scripts it is drawn as, the {self.by_script} one, the script of "
                   f"the font's other letters" if self.by_script else ""))


def _name(text: str) -> str:
    return " ".join(f"U+{ord(c):04X}" for c in text) + f" {text}"


CAPITALS = "BDEFHKLMNPRTUZ"  # capitals whose top is flat: the font's capital height
ASCENDERS = "bdhk"  # small letters whose ascender's top is flat: the font's ascender height
HEIGHT_NEAR = 8  # 1/1000 em: a glyph's top this near the font's capital (ascender) height is as tall
HEIGHT_APART = 12  # … and this far from the other height, is not as tall as that
BARS = frozenset("|❘∣│ǀ")  # vertical lines drawn as a plain bar, most of them reaching below the baseline
ON_BASELINE = 10  # 1/1000 em: a glyph whose bottom is no lower than this below the baseline sits on it
PAIR = ("I", "l")  # the capital and the small letter a plain bar is in most sans serifs


def _by_letter(texts: Mapping[str, list[int]], skip: frozenset[str] = frozenset()) -> dict[str, list]:
    """A table entry's texts (text → fonts, files) by :func:`letter_key`, each group ``[text, fonts,
    files, texts]``: the text most fonts give (it speaks for the group), the fonts and files of the
    group, its texts most fonts first; texts in ``skip`` left out."""
    groups: dict[str, list] = {}
    for text, (fonts, files) in sorted(texts.items(), key=lambda kv: -kv[1][0]):
        if text not in skip:
            entry = groups.setdefault(letter_key(text), [text, 0, 0, []])
            entry[1] += fonts
            entry[2] += files
            entry[3].append(text)
    return groups


def by_height(vote: Vote, texts: dict[str, list[int]], top: float, capitals: float | None,
              ascenders: float | None, bottom: float | None = None) -> Vote | None:
    """An unclear vote between a capital and a small letter (``l`` and ``I`` of a sans serif, which
    many designs draw alike, save their height) decided by the glyph's top: the capital where it is
    as tall as the font's capitals (:data:`CAPITALS`, ``capitals`` their median top) and not as its
    ascenders (:data:`ASCENDERS`), the small letter the other way round. ``texts`` are the table's
    entry for the outline's key; the two letters must hold :data:`CLEAR_SHARE` of its fonts. A glyph
    that sits on the baseline (its ``bottom``, :data:`ON_BASELINE`) is no vertical line (:data:`BARS`:
    ``|`` reaches below it in most fonts), and a plain bar some fonts read as ``l`` or ``I`` alone is
    either (:data:`PAIR`). ``None`` when the heights do not tell."""
    if capitals is None or ascenders is None:
        return None
    on_baseline = bottom is not None and bottom >= -ON_BASELINE
    groups = _by_letter(texts, BARS if on_baseline else frozenset())
    total = sum(e[1] for e in groups.values())
    cases = {unicodedata.category(e[0]) if len(e[0]) == 1 else "": e for e in groups.values()}
    for case, (letter, partner) in (("Lu", PAIR), ("Ll", PAIR[::-1])):
        # the capital I and the small l of a plain bar: one read, the other drawn alike
        if case not in cases and on_baseline and (other := groups.get(letter_key(partner))) is not None \
                and other[0] == partner:
            cases[case] = [letter, 0, 0, [letter]]
    upper, lower = cases.get("Lu"), cases.get("Ll")
    if upper is None or lower is None or upper[1] + lower[1] < CLEAR_SHARE * total:
        return None
    for chosen, other, near, far, height in ((upper, lower, capitals, ascenders, "capitals"),
                                             (lower, upper, ascenders, capitals, "ascenders")):
        if abs(top - near) <= HEIGHT_NEAR and abs(top - far) >= HEIGHT_APART:
            return Vote(chosen[0], chosen[1], chosen[2], total, other[0], other[1], vote.coarse, tuple(chosen[3]),
                        by_height=height)
    return None


MIN_SCRIPT_LETTERS = 3  # letters of one script a font must have for its script to decide a vote


def by_script(vote: Vote, texts: dict[str, list[int]], letters: Mapping[str, int]) -> Vote | None:
    """An unclear vote between letters of different scripts (a Cyrillic ``з`` another font labels
    Latin ``ɜ``) decided by the script of the font's other letters (``letters``: script → letters the
    font reads by the spec or a clear vote): the one letter in a script the font has
    :data:`MIN_SCRIPT_LETTERS` letters of, when the font has no letter of any other's script (counting
    the look-alikes of each, :func:`look_alike_forms`). ``texts`` are the table's entry for the
    outline's exact fingerprint (a coarse key also joins letters of one script drawn alike: ``l``,
    ``I``, Cyrillic ``Ӏ``); every text in it must be a letter. ``None`` when the font's letters do not tell."""
    if vote.coarse:
        return None
    groups = _by_letter(texts)
    if len(groups) < 2:
        return None
    scripts: dict[str, set[str]] = {}
    for key, entry in groups.items():
        forms = [f for t in entry[3] for f in (t, *look_alike_forms(t)) if len(f) == 1]
        scripts[key] = {s for f in forms if (s := plaus.script(f)) is not None}
        if not scripts[key]:  # no letter: a hyphen and a soft hyphen, a digit and a letter
            return None
    present = [key for key, found in scripts.items() if any(letters.get(s) for s in found)]
    if len(present) != 1 or sum(letters.get(s, 0) for s in scripts[present[0]]) < MIN_SCRIPT_LETTERS:
        return None
    chosen = groups[present[0]]
    other = max((e for k, e in groups.items() if k != present[0]), key=lambda e: e[1])
    found = sorted(scripts[present[0]] & {s for s, n in letters.items() if n})
    return Vote(chosen[0], chosen[1], chosen[2], sum(e[1] for e in groups.values()), other[0], other[1], vote.coarse,
                tuple(chosen[3]), by_script="/".join(found))


# Latin, Greek and Cyrillic letters that most fonts draw with one outline (a Greek capital Alpha is
# often the Latin A's glyph itself, or a composite of it): one letter to the vote, whose script the
# font's other letters choose (fonts.resolve).
LOOK_ALIKES = ("AΑА", "BΒВ", "CСϹ", "EΕЕ", "HΗН", "IΙІ", "JЈ", "KΚК", "MΜМ", "NΝ", "OΟО", "PΡР", "SЅ", "TΤТ",
               "XΧХ", "YΥҮ", "ZΖ", "aа", "cсϲ", "eе", "hһ", "iі", "jј", "oοо", "pр", "sѕ", "xх", "yу")
_LATIN_OF = {c: group[0] for group in LOOK_ALIKES for c in group[1:]}
_LOOKS_ALIKE = frozenset("".join(LOOK_ALIKES))


def looks_alike(char: str) -> bool:
    """A letter (with or without marks) that another script draws the same: its outline alone
    cannot tell its script."""
    base = unicodedata.normalize("NFD", char)[:1]
    return base in _LOOKS_ALIKE


def look_alike_forms(char: str) -> tuple[str, ...]:
    """The letters of the other scripts drawn as ``char`` is, with its marks where such a letter
    takes them precomposed (Latin ò: Greek ὸ)."""
    parts = unicodedata.normalize("NFD", char)
    group = next((g for g in LOOK_ALIKES if parts[:1] and parts[0] in g), "")
    forms = (unicodedata.normalize("NFC", other + parts[1:]) for other in group if other != parts[0])
    return tuple(f for f in forms if len(f) == 1)


def folded(text: str) -> str:
    """A text in the form that compares one text written in other forms: NFKC (fullwidth,
    mathematical and ligature forms) and case folding."""
    return unicodedata.normalize("NFKC", text).casefold()


SOFT_HYPHEN = "\u00ad"  # where a line is broken, drawn as a hyphen (a producer may map a hyphen's glyph to it)


def letter_key(text: str) -> str:
    """Texts that read alike: a ligature and its letters (ﬁ and fi, compared in NFKC), and letters
    that differ only by script ('LATIN CAPITAL LETTER A', 'GREEK CAPITAL LETTER ALPHA' and 'CYRILLIC
    CAPITAL LETTER A' all give 'CAPITAL LETTER A': :data:`LOOK_ALIKES`, and letters whose names differ
    by the script alone), and a soft hyphen and the hyphen it is drawn as."""
    text = unicodedata.normalize("NFKC", text).replace(SOFT_HYPHEN, "-")
    if len(text) != 1:
        return text
    # a look-alike letter with its marks (Greek ὸ and Latin ò) reads as the Latin letter with them
    text = unicodedata.normalize("NFC", "".join(_LATIN_OF.get(c, c) for c in unicodedata.normalize("NFD", text)))
    if len(text) != 1:  # marks no Latin letter takes precomposed (Greek ὀ): the folded letters are the key
        return text
    name = unicodedata.name(text, "")
    for script in ("LATIN ", "GREEK ", "CYRILLIC "):
        if name.startswith(script):
            return name[len(script):]
    return text


class ShapeTable:
    """Fingerprint → text → distinct fonts and files that drew it so (see the module doc)."""

    def __init__(self) -> None:
        self.entries: dict[str, dict[str, list[int]]] = {}
        self._likeness: LikenessIndex | None = None

    def likeness(self) -> LikenessIndex:
        """The labelled likeness keys, indexed for :meth:`.likeness.LikenessIndex.nearest` (built
        once, again after an :meth:`add`)."""
        from .likeness import LikenessIndex

        if self._likeness is None:
            self._likeness = LikenessIndex(self)
        return self._likeness

    def __len__(self) -> int:
        return len(self.entries)

    def add(self, fingerprint: str, text: str, fonts: int = 1, files: int = 1) -> None:
        self._likeness = None
        counts = self.entries.setdefault(fingerprint, {}).setdefault(text, [0, 0])
        counts[0] += fonts
        counts[1] += files

    def merge(self, other: "ShapeTable") -> None:
        for fp, texts in other.entries.items():
            for text, (fonts, files) in texts.items():
                self.add(fp, text, fonts, files)

    def vote(self, fingerprint: str | None) -> Vote | None:
        texts = self.entries.get(fingerprint or "")
        if not texts:
            return None
        ranked = sorted(_by_letter(texts).values(), key=lambda e: (e[1], e[2]), reverse=True)
        text, fonts, files, alike = ranked[0]
        runner_up, runner_up_fonts = (str(ranked[1][0]), int(ranked[1][1])) if len(ranked) > 1 else ("", 0)
        return Vote(text, fonts, files, sum(f for f, _ in texts.values()), runner_up, runner_up_fonts,
                    (fingerprint or "").startswith("~"), tuple(alike))

    # -- the file ------------------------------------------------------------------------------
    def to_json(self) -> dict:
        return {"format": FORMAT, "version": VERSION,
                "shapes": {fp: {t: list(c) for t, c in sorted(texts.items())}
                           for fp, texts in sorted(self.entries.items())}}

    def save(self, path: str | os.PathLike) -> None:
        """Write the table atomically (:func:`pdfinspect.core.atomic.write_bytes`)."""
        import gzip  # the table's readers and writers alone need it: not imported at start-up

        from ..core.atomic import write_bytes

        data = json.dumps(self.to_json(), ensure_ascii=True, separators=(",", ":")).encode()
        if os.fspath(path).endswith(".gz"):
            data = gzip.compress(data, mtime=0)
        write_bytes(path, data)

    @classmethod
    def load(cls, path: str | os.PathLike) -> "ShapeTable":
        """Read a table; ``ValueError`` (one line) when the file is not one."""
        import gzip

        with open(path, "rb") as f:
            raw = f.read()
        try:
            if raw[:2] == b"\x1f\x8b":
                raw = gzip.decompress(raw)
            doc = json.loads(raw)
        except (OSError, ValueError) as e:
            raise ValueError(f"{path}: not a shape table ({type(e).__name__})") from None
        if not isinstance(doc, dict) or doc.get("format") != FORMAT or doc.get("version") not in READ_VERSIONS:
            raise ValueError(f"{path}: not a shape table of format {FORMAT} version {VERSION}")
        table = cls()
        for fp, texts in (doc.get("shapes") or {}).items():
            for text, counts in texts.items():
                if isinstance(counts, list) and len(counts) == 2 and all(isinstance(c, int) for c in counts):
                    table.add(str(fp), str(text), counts[0], counts[1])
        return table


EXACT, COARSE, LIKENESS = range(3)  # the keys of an outline a vote reads: its fingerprint, coarse key, likeness key


class _Program:
    """One embedded program's glyphs: their names by GID, their outlines (each drawn when first
    asked for) and each outline's keys, worked out once when first asked for."""

    def __init__(self, outlines: Mapping[str, Outline], order: tuple[str, ...]):
        self.outlines = outlines
        self.order = order
        self._keys: dict[tuple[str, int], str | None] = {}

    def name(self, gid: int | None, glyph_name: str | None) -> str:
        """The name of the glyph a code selects: by GID where the program numbers its glyphs, else by name."""
        return self.order[gid] if gid is not None and 0 <= gid < len(self.order) else glyph_name or ""

    def key(self, name: str, kind: int) -> str | None:
        """The glyph's fingerprint (:data:`EMPTY` for a glyph that draws nothing), coarse key or
        likeness key; ``None`` for a glyph the program does not draw."""
        if (name, kind) not in self._keys:
            outline = self.outlines.get(name)
            if outline is None:
                found = None
            elif kind == EXACT:
                found = outline.fingerprint() or EMPTY
            else:
                found = (outline.coarse_key() if kind == COARSE else outline.likeness_key()) or None
            self._keys[name, kind] = found
        return self._keys[name, kind]


class GlyphShapes:
    """The fingerprints of one document's glyphs, read from each font's program once."""

    def __init__(self, doc):
        self.doc = doc
        self._programs: dict[tuple[int, int], _Program | None] = {}
        self._procs: dict[tuple[int, int], str | None] = {}

    def fingerprint(self, font, gid: int | None, glyph_name: str | None, code: bytes = b"",
                    coarse: bool = False, likeness: bool = False) -> str | None:
        """The fingerprint of the glyph a code selects: by GID (TrueType, CID-keyed CFF) or by
        glyph name (Type 1, CFF, a Type3 procedure); ``None`` when nothing is embedded or readable.
        With ``coarse``, its :meth:`.shapes.Outline.coarse_key`, with ``likeness`` its
        :meth:`.shapes.Outline.likeness_key` (neither for Type3 procedures)."""
        if font.subtype == "Type3":
            name = glyph_name or (font.glyph_name(code[0]) if code else None)
            ref = font.charprocs.get(name or "")
            return self._proc(ref) if ref is not None and not (coarse or likeness) else None
        if font.program_ref is None:
            return None
        program = self._program(font)
        if program is None:
            return None
        return program.key(program.name(gid, glyph_name), LIKENESS if likeness else COARSE if coarse else EXACT)

    def outline(self, font, gid: int | None, glyph_name: str | None) -> Outline | None:
        """The outline of the glyph (by GID, else by name) of an embedded program, or ``None``."""
        program = self._program(font) if font.program_ref is not None else None
        return program.outlines.get(program.name(gid, glyph_name)) if program is not None else None

    def program_key(self, font) -> str | None:
        """A hash of the font program's bytes: one font design however often it is embedded
        (subsets of one font differ, and are different keys)."""
        if font.program_ref is None:
            return None
        obj = self.doc.get(font.program_ref.num, font.program_ref.gen)
        if obj is None:
            return None
        import hashlib

        return hashlib.sha1(self.doc.stream_data(obj).data).hexdigest()[:16]

    def _program(self, font) -> _Program | None:
        from .shapes import ShapeError, glyph_order, program_outlines

        key = (font.program_ref.num, font.program_ref.gen)
        if key not in self._programs:
            self._programs[key] = None
            obj = self.doc.get(*key)
            if obj is not None:
                data = self.doc.stream_data(obj).data
                try:
                    outlines = program_outlines(data, font.program_key or "", font.program_kind)
                    order = glyph_order(data, font.program_key or "", font.program_kind)
                except ShapeError:
                    return None
                self._programs[key] = _Program(outlines, order)
        return self._programs[key]

    def _proc(self, ref: Ref) -> str | None:
        from .shapes import type3_fingerprint

        key = (ref.num, ref.gen)
        if key not in self._procs:
            obj = self.doc.get(*key)
            self._procs[key] = type3_fingerprint(self.doc.stream_data(obj).data) if obj is not None else None
        return self._procs[key]


def _may_be_font(raw: bytes) -> bool:
    """Whether bytes of an object may be a font dictionary (a name with ``#`` may spell /Font)."""
    return b"Font" in raw or b"#" in raw


def document_fonts(doc, limit: int = MAX_LEARN_FONTS) -> Iterable:
    """Every font dictionary of the document (``/Type /Font`` objects; descendant CIDFonts are read
    through their Type0 font), each loaded once, at most ``limit``."""
    from .font import FontCache

    cache = FontCache(doc)
    n = 0
    for obj in doc.iter_objects(cache=False, looks=_may_be_font):
        value = obj.value
        if not isinstance(value, Dict) or value.get("Type") != Name("Font") \
                or value.get("Subtype") in (Name("CIDFontType0"), Name("CIDFontType2")):
            continue
        try:
            yield cache.get(Ref(obj.num, obj.gen))
        except Exception:  # a font that cannot be loaded teaches nothing
            continue
        n += 1
        if n >= limit:
            return


def font_codes(font) -> list[tuple[bytes, int | None]]:
    """The codes to learn a font's shapes from: those its ToUnicode maps, else those its widths name."""
    from .resolve import _font_codes
    from .tounicode_writer import existing_mapping

    if font.tounicode is not None:
        codes = list(existing_mapping(font.tounicode))[:MAX_LEARN_CODES]
        if codes:
            return [(c, font.cid(c) if font.is_type0 else None) for c in codes]
    return _font_codes(font)[:MAX_LEARN_CODES]


def learn(doc, resolver, shapes: GlyphShapes | None = None) -> ShapeTable:
    """The shapes of one document: every outline a spec-grade, conflict-free mapping names."""
    from .heuristics import SPEC

    shapes = shapes or GlyphShapes(doc)
    table = ShapeTable()
    seen: set[tuple[str, str, str]] = set()
    for font in document_fonts(doc):
        if font.program_ref is None and font.subtype != "Type3":
            continue
        key = shapes.program_key(font) or repr(font.ref)
        for code, cid in font_codes(font):
            res = resolver.judged(font, code, cid)
            if res.confidence != SPEC or res.conflicts or not res.unicode or plaus.judge_text(res.unicode):
                continue
            fp = shapes.fingerprint(font, res.gid, res.glyph_name, code)
            if fp is None or (fp, res.unicode, key) in seen or res.unicode.isspace() != (fp == EMPTY):
                continue
            seen.add((fp, res.unicode, key))
            table.add(fp, res.unicode, 1, 0)
            for other in (shapes.fingerprint(font, res.gid, res.glyph_name, code, coarse=True),
                          shapes.fingerprint(font, res.gid, res.glyph_name, code, likeness=True)):
                if other is not None:
                    table.add(other, res.unicode, 1, 0)
    for texts in table.entries.values():  # this document is one file for every outline it drew
        for counts in texts.values():
            counts[1] = 1
    return table
