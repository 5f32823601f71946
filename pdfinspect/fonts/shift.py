"""Is a font's ToUnicode shifted? The ``tounicode_shifted`` reason, judged against the font's own evidence.

A producer's off-by-N table keeps every letter, all moved: ``<0024> <0042>`` where the glyph is an
``A``. The ToUnicode's text for each code it maps is set beside the text the font's own evidence
gives the same code:

- the other methods of the code's resolution path that hit with another text (the /Encoding's
  glyph names, the CID collection, the embedded program's Unicode cmap or glyph names, a clear
  vote of the glyph's outline);
- what the path does not read: for a CIDFont, the TrueType program's (1,0) Macintosh cmap,
  inverted, at the glyph the CID selects (through /CIDToGIDMap or Identity), unless it is the
  identity table subsetters write; a CID-keyed CFF whose own ROS names a public Adobe collection
  (Adobe-Japan1, -GB1, -CNS1, -Korea1) its CIDSystemInfo does not, through that collection's UCS2
  table.

Where the font has no such evidence (a CJK subset whose program names no glyph), its text does: a
Japanese, Chinese or Korean text is almost all common characters — the first levels of JIS X 0208,
GB 2312 and Big5, the Hangul syllables of KS X 1001, read from Python's own codecs — and the
neighbours of common ideographs are mostly rare ones. A ToUnicode whose ideographs or syllables
are common only once moved by one offset is shifted (:func:`tounicode_rare_shift`). So is a table
whose combining marks (Thai vowels and tones, Arabic harakat) fall on the glyphs of zero width only
once moved (:func:`tounicode_mark_shift`): a mark has no advance, a letter has one. And a table of
kana, Thai letters, ideographs or Hangul with two rare letters or more (obsolete Thai ฃ ฅ ฦ, small
hiragana vowels, kana iteration marks, ideographs beyond the first levels, unassigned code points)
that one offset alone, up to three each way, clears of them all, its marks staying on the glyphs of
zero width (:func:`tounicode_rare_letter_shift`): moved by one, common kana and Thai letters land on
rare ones (い on ぃ, ข on ฃ), and a real text's common letters put a rare one under every other offset.

A shift is one offset ``k ≠ 0`` between the two for :data:`MIN_CODES` codes or more, four in five of
the codes whose evidence differs and half of those with any evidence (the codes whose evidence
gives the ToUnicode's own text count against it); three codes do when they are every code with
evidence, half the codes the font shows at least, and all are moved. The offset is read in the
evidence's form: ``𝑞`` is one above the ``p`` an outline reads (:func:`offset`). What is not a shift:
pairs that are one text under case folding or NFKC (fullwidth forms, mathematical alphanumerics,
subscripts, lowercase text drawn by capitals), pairs whose evidence is no text (a cmap to private use, a control character) or whose ToUnicode side is a
symbol font's U+F0xx, a single ToUnicode character against several, and a ToUnicode that reads
better than its evidence (a program's 8-bit table giving a code page's bytes as Latin-1 letters
where the ToUnicode has Cyrillic).
"""
from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from .embedded import FontProgram
from .font import PUBLIC_COLLECTIONS, Font
from .resolve import HIT, TOUNICODE, Resolution
from .shapevote import folded, letter_key

MIN_CODES = 4  # codes moved by one offset, with other codes of the font shown
MIN_ALONE = 3  # … when every code with evidence is moved, and they are half the codes the font shows
MAC_CMAP = "the program's (1,0) cmap"
LOOKS = "the outlines of other typefaces it looks like"
MIN_COMMON_TEST = 8  # distinct ideographs or Hangul syllables a text needs to be judged by how common they are
COMMON_SHARE = 0.9  # … the share of them that are common once moved, at least
COMMON_GAIN = 0.3  # … that far above the share as given (real text: 0.95-1.0 as given, 0.2-0.6 moved by one)
MAX_COMMON_OFFSET = 3  # offsets tried each way (of both signs from the text alone)
MIN_MARKS = 3  # glyphs of zero width a table needs to be judged by its marks
MIN_MARK_MISSES = 2  # … codes whose width and mark-ness disagree as given, at least, and none once moved
MIN_RARE = 2  # distinct rare letters a text needs as given to be judged by them
RARE_SHARE = 6  # … one in this many of its distinct letters at least (a real text has almost none)
# the first (common) level of each national standard, as its codec encodes it: (codec, low, high)
_COMMON_LEVELS = (("shift_jis", 0x889F, 0x9872), ("gb2312", 0xB0A1, 0xD7F9), ("big5", 0xA440, 0xC67E))


@dataclass(frozen=True)
class Shift:
    """``offset``: the ToUnicode's text minus the evidence's, in code points; ``codes``: the codes
    moved by it; ``sources``: what gave the evidence (methods, or the program's tables);
    ``given``/``evidence``: the lowest and highest character of each side over those codes."""

    offset: int
    codes: tuple[bytes, ...]
    sources: tuple[str, ...]
    given: tuple[str, str]
    evidence: tuple[str, str]

    def describe(self) -> str:
        k, n = self.offset, len(self.codes)
        low, high = self.codes[0].hex(), self.codes[-1].hex()
        return (f"{moved(k)} "
                f"what {' and '.join(self.sources)} give{'s' * (len(self.sources) == 1)} for {n} codes, "
                f"<{low}>–<{high}>: {_span(self.evidence)} given as {_span(self.given)} (offset {k:+d})")


def moved(k: int) -> str:
    """'ToUnicode's text is 1 code point above' (or ``k`` points below): how a shift's detail starts."""
    return f"ToUnicode's text is {abs(k)} code point{'s' * (abs(k) != 1)} {'above' if k > 0 else 'below'}"


def _span(pair: tuple[str, str]) -> str:
    return "–".join(dict.fromkeys(f"U+{ord(c):04X}" for c in pair))


def tounicode_shift(font: Font, resolutions: tuple[Resolution, ...], program: FontProgram | None,
                    looks: Callable[[Resolution], str | None] | None = None) -> Shift | None:
    """The constant offset between the font's ToUnicode and its own evidence, or ``None``.
    ``looks`` gives, for a code nothing else speaks for, what its outline looks like in other
    typefaces (:meth:`.resolve.Resolver.looks_like`)."""
    hits = [r for r in resolutions if _tounicode_hit(r)]
    mac = _mac_cmap(program) if program is not None and font.is_type0 else {}
    pairs: list[tuple[bytes, str, str, str, int]] = []  # (code, ToUnicode text, source, evidence text, offset)
    agree: set[bytes] = set()  # codes whose evidence gives the ToUnicode's text, in one form or another
    for r in hits:
        found = [(c.method, c.unicode) for c in r.conflicts] + program_evidence(font, program, r, mac)
        if not found and looks is not None and (seen := looks(r)):
            # look-alike letters of two scripts (Latin a, Cyrillic а) are one reading of an outline
            found = [(LOOKS, r.unicode if letter_key(seen) == letter_key(r.unicode) else seen)]
        pairs.extend((r.code, r.unicode, source, text, d) for source, text in found
                     if _comparable(r.unicode, text) and (d := offset(r.unicode, text)) is not None)
        if _confirmed(r, found):
            agree.add(r.code)
    by_code: dict[bytes, set[int]] = {}
    for code, _, _, _, d in pairs:
        by_code.setdefault(code, set()).add(d)
    if not by_code:
        return None
    votes = Counter(d for deltas in by_code.values() for d in deltas)
    k, count = votes.most_common(1)[0]
    if k == 0:
        return None
    alone = count == len(by_code) >= MIN_ALONE and not agree and count * 2 >= len(hits)
    if not alone and (count < MIN_CODES or count * 5 < len(by_code) * 4 or count * 2 < len(agree | set(by_code))):
        return None
    chosen = [p for p in pairs if p[4] == k]
    if sum(_readable(p[1]) for p in chosen) > sum(_readable(p[3]) for p in chosen):
        return None  # the ToUnicode is the better reading: the other table is a legacy code page's
    given_chars = sorted({p[1] for p in chosen})
    seen_chars = sorted({p[3] for p in chosen})
    return Shift(k, tuple(sorted({p[0] for p in chosen})), tuple(sorted({p[2] for p in chosen})),
                 (given_chars[0], given_chars[-1]), (seen_chars[0], seen_chars[-1]))


def tounicode_confirmed(font: Font, resolutions: tuple[Resolution, ...], program: FontProgram | None) -> bool:
    """Whether the font's own evidence gives the ToUnicode's text (in one form or another) for half
    the codes it maps, three at least: then no indirect sign (the widths) may call the table shifted."""
    hits = [r for r in resolutions if _tounicode_hit(r)]
    mac = _mac_cmap(program) if program is not None and font.is_type0 else {}
    same = sum(1 for r in hits if _confirmed(r, program_evidence(font, program, r, mac)))
    return same >= MIN_ALONE and same * 2 >= len(hits)


def _confirmed(r: Resolution, evidence: list[tuple[str, str]]) -> bool:
    """Whether a step of ``r``'s path other than ToUnicode, or other ``evidence``, gives its
    ToUnicode text, or the same text in another form."""
    texts = [s.unicode for s in r.path if s.result == HIT and s.method != TOUNICODE and s.unicode] + \
        [text for _, text in evidence]
    return any(_same_text(r.unicode, text) for text in texts)


@dataclass(frozen=True)
class RareShift:
    """A ToUnicode whose ideographs and Hangul syllables are common characters only once moved:
    ``offset`` is the ToUnicode's text minus the common text's; ``share``/``given_share`` the
    share of the ``codes``' characters that are common moved and as given."""

    offset: int
    codes: tuple[bytes, ...]
    share: float
    given_share: float

    def describe(self) -> str:
        k, n = self.offset, len(self.codes)
        return (f"{moved(k)} "
                f"common characters for {n} codes: moved by {-k:+d}, {self.share:.0%} of its ideographs and Hangul "
                f"syllables are common ones (JIS X 0208, GB 2312 or Big5 level 1, KS X 1001), as given "
                f"{self.given_share:.0%} (offset {k:+d}; judged by how common the characters are, a statistical sign)")


def tounicode_rare_shift(resolutions: tuple[Resolution, ...]) -> RareShift | None:
    """The offset that makes the ToUnicode's ideographs and Hangul syllables common characters where,
    as given, they are not (see the module doc), or ``None``."""
    chars: dict[str, list[bytes]] = {}
    for r in resolutions:
        if _tounicode_hit(r) and len(r.unicode) == 1 and common_character(r.unicode) is not None:
            chars.setdefault(r.unicode, []).append(r.code)
    if len(chars) < MIN_COMMON_TEST:
        return None
    shares = {k: sum(bool(common_character(chr(ord(c) + k))) for c in chars) / len(chars)
              for k in range(-MAX_COMMON_OFFSET, MAX_COMMON_OFFSET + 1)}
    best = max(shares, key=lambda k: shares[k])
    if best == 0 or shares[best] < COMMON_SHARE or shares[best] - shares[0] < COMMON_GAIN \
            or any(shares[k] > shares[best] - COMMON_GAIN for k in shares if k not in (0, best)):
        return None
    codes = tuple(sorted(code for found in chars.values() for code in found))
    return RareShift(-best, codes, shares[best], shares[0])


@dataclass(frozen=True)
class MarkShift:
    """A ToUnicode whose combining marks are the glyphs of zero width only once moved: ``offset``
    is the ToUnicode's text minus the moved text; ``misses`` the codes whose width and mark-ness
    disagree as given, of ``codes`` judged, ``marks`` of them of zero width."""

    offset: int
    codes: tuple[bytes, ...]
    misses: int
    marks: int

    def describe(self) -> str:
        k, n = self.offset, len(self.codes)
        return (f"{moved(k)} "
                f"what the font's widths say for {n} codes: moved by {-k:+d}, its combining marks are exactly its "
                f"{self.marks} glyphs of zero width, as given {self.misses} codes disagree (offset {k:+d})")


def tounicode_mark_shift(font: Font, resolutions: tuple[Resolution, ...]) -> MarkShift | None:
    """The offset that puts the ToUnicode's combining marks exactly on the font's glyphs of zero
    width where, as given, they miss (see the module doc), or ``None``."""
    pairs = _widths(font, resolutions)
    marks = sum(zero for _, _, zero in pairs)
    if marks < MIN_MARKS or len(pairs) < MIN_COMMON_TEST:
        return None

    def misses(k: int) -> int:
        return _mark_misses(pairs, k)

    given = misses(0)
    if given < MIN_MARK_MISSES:
        return None
    fits = [k for k in range(-MAX_COMMON_OFFSET, MAX_COMMON_OFFSET + 1) if k and misses(k) == 0]
    if len(fits) != 1:
        return None
    return MarkShift(-fits[0], tuple(sorted(code for code, _, _ in pairs)), given, marks)


def _widths(font: Font, resolutions: tuple[Resolution, ...]) -> list[tuple[bytes, int, bool]]:
    """(code, ToUnicode character, of zero width?) for each code the ToUnicode gives one character."""
    pairs = []
    for r in resolutions:
        if _tounicode_hit(r) and len(r.unicode) == 1:
            width = font.glyph_width(r.code, r.cid if font.is_type0 else None)
            pairs.append((r.code, ord(r.unicode), abs(width) < 0.001))
    return pairs


def _mark_misses(pairs: list[tuple[bytes, int, bool]], k: int) -> int:
    """The codes whose zero width and whose character moved by ``k`` being a combining mark disagree."""
    return sum(zero != (0 <= c + k < 0x110000 and unicodedata.category(chr(c + k)) in ("Mn", "Me"))
               for _, c, zero in pairs)


@dataclass(frozen=True)
class RareLetterShift:
    """A ToUnicode whose text has letters a text all but never uses only as given: ``offset`` is the
    ToUnicode's text minus the moved text; ``rare`` the distinct such characters as given, of
    ``judged`` distinct characters of ``codes``."""

    offset: int
    codes: tuple[bytes, ...]
    rare: int
    judged: int

    def describe(self) -> str:
        k = self.offset
        return (f"{moved(k)} "
                f"a text without rare letters: moved by {-k:+d}, none of its {self.judged} kana, Thai letters, "
                f"ideographs and Hangul syllables is a letter texts all but never use (an obsolete Thai letter, a rare "
                f"kana, an ideograph or syllable beyond the first levels, an unassigned code point) and its combining "
                f"marks are its glyphs of zero width; as given {self.rare} are, and every other offset up to "
                f"{MAX_COMMON_OFFSET} leaves some (offset {k:+d}; judged by how rare the letters are, a statistical sign)")


def tounicode_rare_letter_shift(font: Font, resolutions: tuple[Resolution, ...]) -> RareLetterShift | None:
    """The one offset (up to :data:`MAX_COMMON_OFFSET` each way) that leaves no rare letter in the
    ToUnicode's kana, Thai, ideographs and Hangul (:func:`rare_letter`) and keeps its combining marks on
    the glyphs of zero width, where as given :data:`MIN_RARE` distinct ones are rare, one in
    :data:`RARE_SHARE` at least; ``None`` when no offset or several do, or the text has fewer than
    :data:`MIN_COMMON_TEST` such characters."""
    chars: dict[str, list[bytes]] = {}
    for r in resolutions:
        if _tounicode_hit(r) and len(r.unicode) == 1 and rare_letter(r.unicode) is not None:
            chars.setdefault(r.unicode, []).append(r.code)
    if len(chars) < MIN_COMMON_TEST:
        return None
    given = sum(bool(rare_letter(c)) for c in chars)
    if given < MIN_RARE or given * RARE_SHARE < len(chars):
        return None
    pairs = _widths(font, resolutions)
    fits = [k for k in range(-MAX_COMMON_OFFSET, MAX_COMMON_OFFSET + 1)
            if k and all(0 <= ord(c) - k < 0x110000 and rare_letter(chr(ord(c) - k)) is False for c in chars)
            and _mark_misses(pairs, -k) == 0]
    if len(fits) != 1:
        return None
    codes = tuple(sorted(code for found in chars.values() for code in found))
    return RareLetterShift(fits[0], codes, given, len(chars))


# letters that texts of their script all but never use: Thai ฃ ฅ ฦ (obsolete) and ฤ ฌ (in few words);
# the small hiragana vowels, ゎ ゐ ゑ ゔ ゕ ゖ, the kana iteration marks, ヮ ヰ ヱ ヷ–ヺ and the digraphs ゟ ヿ
RARE_LETTERS = frozenset("ฃฅฦฤฌ" "ぁぃぅぇぉゎゐゑゔゕゖゝゞゟ" "ヮヰヱヷヸヹヺヽヾヿ")


def rare_letter(ch: str) -> bool | None:
    """Whether a kana, Thai letter, CJK unified ideograph or Hangul syllable is one texts all but never
    use (:data:`RARE_LETTERS`; an ideograph or syllable that :func:`common_character` does not find
    common; an unassigned code point of the Thai or kana blocks); ``None`` for any other character
    (their digits, signs and punctuation too: ゛ ・ ๏ are no letters)."""
    o = ord(ch)
    if 0x0E00 <= o <= 0x0E7F or 0x3040 <= o <= 0x30FF:
        category = unicodedata.category(ch)
        if category == "Cn":
            return True
        return ch in RARE_LETTERS if category[0] in "LM" else None  # not the digits, signs and punctuation
    common = common_character(ch)
    return None if common is None else not common


def common_character(ch: str) -> bool | None:
    """Whether a CJK unified ideograph is in the first level of JIS X 0208, GB 2312 or Big5, or a
    Hangul syllable in KS X 1001; ``None`` for any other character."""
    o = ord(ch)
    if 0xAC00 <= o <= 0xD7A3:
        try:  # two bytes: the codec writes any other syllable as an 8-byte jamo sequence
            return len(ch.encode("euc_kr")) == 2
        except UnicodeEncodeError:
            return False
    if not 0x4E00 <= o <= 0x9FFF:
        return None
    for codec, low, high in _COMMON_LEVELS:
        try:
            b = ch.encode(codec)
        except UnicodeEncodeError:
            continue
        if len(b) == 2 and low <= int.from_bytes(b, "big") <= high:
            return True
    return False


def _tounicode_hit(r: Resolution) -> bool:
    step = next((s for s in r.path if s.method == TOUNICODE), None)
    return step is not None and step.result == HIT and r.method == TOUNICODE


def _comparable(given: str, seen: str) -> bool:
    """Whether a ToUnicode character and the evidence's can show a shift: one character each, not
    the same text in another form, the evidence text (not a cmap or name to private use), the
    ToUnicode's not a symbol font's code as U+F0xx."""
    if len(given) != 1 or len(seen) != 1 or _same_text(given, seen):
        return False
    return _readable(seen) > 0 and not 0xF000 <= ord(given) <= 0xF0FF


def offset(given: str, seen: str) -> int | None:
    """The offset in code points that moves the ToUnicode character ``given`` back onto the evidence's
    ``seen``, in the form the evidence reads it: a mathematical or fullwidth letter moved back by
    ``k`` is ``seen`` under NFKC and case folding (``𝑞`` is one above the ``p`` an outline reads, ``Y``
    one above a small ``x``); else the plain difference. ``None`` when they are one text."""
    if _same_text(given, seen):
        return None
    g, s = folded(given), folded(seen)
    if len(g) == len(s) == 1 and (k := ord(g) - ord(s)) and 0 <= ord(given) - k < 0x110000 \
            and folded(chr(ord(given) - k)) == s:
        return k
    return ord(given) - ord(seen)


def _same_text(given: str, seen: str) -> bool:
    """One text, in one form or another: under case folding and NFKC (fullwidth forms, mathematical
    letters, ligatures, lowercase text drawn by capitals)."""
    return given == seen or folded(given) == folded(seen)


def _readable(ch: str) -> int:
    """How much a character reads as text: 0 private use or control, 1 a Latin-1 letter (what bytes of
    a legacy 8-bit code page become when taken for Latin-1), 2 anything else."""
    if unicodedata.category(ch) in ("Co", "Cc", "Cs"):
        return 0
    return 1 if 0xA0 <= ord(ch) <= 0xFF else 2


def program_evidence(font: Font, program: FontProgram | None, res: Resolution,
                     mac: dict[int, str]) -> list[tuple[str, str]]:
    """``(source, text)`` the embedded program of a CIDFont gives ``res``'s glyph beyond what the
    resolution path reads: its (1,0) Macintosh cmap, inverted (``mac``, from :func:`_mac_cmap`);
    its CFF's own public collection."""
    if program is None or not font.is_type0 or font.cid_font is None:
        return []
    out = []
    if res.gid is not None and res.gid in mac:
        out.append((MAC_CMAP, mac[res.gid]))
    ros = program.ros
    if ros is not None and ros in PUBLIC_COLLECTIONS and res.cid is not None \
            and (font.cid_font.registry, font.cid_font.ordering) != ros:
        from .predefined import cid_to_unicode

        table = cid_to_unicode(ros[0], ros[1], font.vertical)
        text = table(res.cid) if table is not None else None
        if text:
            out.append((f"the CFF's own {ros[0]}-{ros[1]} CIDs", text))
    return out


def _mac_cmap(program: FontProgram) -> dict[int, str]:
    """GID → character of a (1,0) Macintosh Roman cmap, the lowest code first; empty when it maps
    most codes to the glyph of the same number (a subsetter's placeholder, not a character map)."""
    table = program.cmaps.get((1, 0), {})
    out: dict[int, str] = {}
    if table and sum(1 for c, g in table.items() if c == g) * 2 < len(table):
        for code, gid in sorted(table.items()):
            if gid and 0x20 <= code <= 0xFF and gid not in out:
                out[gid] = bytes([code]).decode("mac_roman")
    return out
