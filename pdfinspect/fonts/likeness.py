"""Likeness: a glyph whose outline no font of the shape table draws, read by the glyphs it looks like.

The shapes vote (:mod:`.shapevote`) reads an outline that other fonts draw exactly (or nearly: the
coarse key). A typeface that no other file embeds draws outlines of its own; its ``A`` is still an
``A`` to the eye. Each outline is also kept as a :meth:`.shapes.Outline.likeness_key` — its contours,
where it sits against the baseline (bottom and top in 1/100 em), its width, whether it is drawn left
of the origin (a non-spacing mark), and a 16 × 16 fill stretched to its bounds — and a glyph is compared with every labelled outline of the table with the
same number of contours (:func:`distance`: the cells that differ, plus a penalty for another height,
depth or aspect). It reads as its nearest neighbours' character when they agree clearly
(:func:`nearest`): the nearest is close, two fonts or more agree before the first outline of another
character, and that one is clearly farther — or, when one is not, one character holds most of
the fonts within that margin (:func:`declined` names why a look reads as nothing). Within one font, two glyphs read as one character keep
that reading only for the clearly nearer, and none that the font already has (:func:`assign`); the
neighbours of characters the font draws with another glyph are then passed over, and a look that
lost its reading or had none is read again without them — and, where the font's letters tell its
scripts, without neighbours that are letters of other scripts, the nearest's character needing a
smaller share of the fonts within the margin (:func:`second_readings`).

Pure functions over keys and tables; the resolver (:mod:`.resolve`) applies the readings after every
exact and coarse vote, which always win over likeness.
"""
from __future__ import annotations

import bisect
import math
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from . import plausibility as plaus
from .shapevote import ShapeTable, letter_key, looks_alike

PLACE = 2.0  # distance per 1/100 em of another bottom or top
ASPECT = 24.0  # distance per unit of the log of the width-to-height ratio
MAX_DISTANCE = 40.0  # the nearest outline must be at most this far
MARGIN = 10.0  # the nearest outline of another character must be this much farther than the nearest
RATIO = 1.3  # … and this many times as far
MIN_FONTS = 2  # fonts whose outlines agree before the first outline of another character
WINDOW_SHARE = 0.8  # … or share of the fonts one character holds within MARGIN and RATIO of the nearest
FONT_WINDOW_SHARE = 0.6  # … the nearest's own character, in a font whose letters tell its scripts (SCRIPT_LETTERS)
CLEAR_SHARE = 0.9  # share of one table entry's fonts its text must hold to count for it
FONT_RATIO = 1.3  # two glyphs of one font read as one character: the nearer must be this much nearer
MIN_FONT_SHARE = 0.5  # of a font's outlines that no exact or coarse vote reads, the share likeness must read
ALPHABET = 30  # distinct characters a font's likeness readings name that stand though under MIN_FONT_SHARE read
CJK_READINGS = 3  # readings of Han or Hangul letters that make a font a CJK font
FULL_WIDTH = 900  # a CIDFont's default width (1/1000 em) from which its glyphs are a CJK font's full width
SCRIPT_LETTERS = 5  # letters a font has (by the spec, a clear vote or likeness) before other scripts' neighbours are passed over
CJK_START = 0x2E80  # the first code point of the CJK blocks (radicals, punctuation, kana, ideographs, forms)


@dataclass(frozen=True, slots=True)
class Look:
    """A parsed likeness key."""

    contours: int
    bottom: int  # 1/100 em
    top: int
    width: int
    mark: bool  # drawn left of the origin (its right edge at or before it): a non-spacing mark
    bits: int
    aspect: float  # log of width over height


def parse(key: str) -> Look | None:
    """The :class:`Look` of a ``"=…"`` key, ``None`` for anything else."""
    if not key.startswith("="):
        return None
    try:
        n, bottom, top, width, right, bits = key[1:].split(".")
        b, t, w = int(bottom), int(top), int(width)
        return Look(int(n), b, t, w, int(right) <= 0, int(bits, 16), math.log((w + 1) / (t - b + 1)))
    except ValueError:
        return None


def distance(a: Look, b: Look) -> float:
    """How unlike two looks are: the cells of their fills that differ, plus :data:`PLACE` per 1/100
    em of bottom and top apart, plus :data:`ASPECT` per unit of their log aspect ratios apart;
    infinite between a non-spacing mark and a spacing glyph."""
    return _apart(a, b) + (a.bits ^ b.bits).bit_count()


def _apart(a: Look, b: Look) -> float:
    """The part of :func:`distance` that is not the fills (cheap: it prefilters the search)."""
    if a.mark != b.mark:
        return math.inf
    return PLACE * (abs(a.bottom - b.bottom) + abs(a.top - b.top)) + ASPECT * abs(a.aspect - b.aspect)


@dataclass(frozen=True, slots=True)
class Reading:
    """What the nearest labelled outlines read a look as."""

    text: str
    texts: tuple[str, ...]  # the texts that read alike (letter_key) among the agreeing outlines, most fonts first
    distance: float  # to the nearest outline
    fonts: int  # fonts of the agreeing outlines (before the first outline of another character)
    files: int  # of the agreeing outline drawn in the most files
    runner_up: str  # the nearest outline of another character ("" when none is near)
    runner_up_distance: float  # math.inf when none is near


class Neighbour(NamedTuple):
    """A labelled look near the one asked about."""

    distance: float
    label: str  # the letter key of its text, "" where its fonts disagree
    fonts: int  # of the label
    files: int
    texts: tuple[str, ...]  # of the label, most fonts first
    lean: str  # the label most of its fonts give (its label, where they agree)

    @property
    def text(self) -> str:
        """The text most of its fonts give, "" where they disagree."""
        return self.texts[0] if self.label and self.texts else ""


class LikenessIndex:
    """The labelled looks of a table, by number of contours, sorted by top."""

    def __init__(self, table: ShapeTable):
        groups: dict[int, list[tuple[int, Look, str, int, int, tuple[str, ...], str]]] = {}
        for key, texts in table.entries.items():
            look = parse(key)
            if look is None or not texts:
                continue
            ranked = sorted(texts.items(), key=lambda kv: -kv[1][0])
            by_key: dict[str, int] = {}
            for text, (fonts, _) in ranked:
                by_key[letter_key(text)] = by_key.get(letter_key(text), 0) + fonts
            lean, fonts = max(by_key.items(), key=lambda kv: kv[1])
            # the fonts drawing this look disagree: no reading of its own, and another character for
            # every reading but the one most of its fonts give (its lean)
            label = lean if fonts >= CLEAR_SHARE * sum(by_key.values()) else ""
            alike = tuple(t for t, _ in ranked if letter_key(t) == label)
            files = sum(c[1] for t, c in texts.items() if letter_key(t) == label)
            groups.setdefault(look.contours, []).append((look.top, look, label, fonts, files, alike, lean))
        self._groups = {n: sorted(rows, key=lambda r: r[0]) for n, rows in groups.items()}
        self._tops = {n: [r[0] for r in rows] for n, rows in self._groups.items()}

    def neighbours(self, key: str, limit: float | None = None, count: int | None = None) -> list[Neighbour]:
        """The labelled outlines near a look, nearest first, within ``limit`` (by default, those too
        far to matter — past the farthest a reading could stand — left out), the ``count`` nearest."""
        look = parse(key)
        rows = self._groups.get(look.contours) if look is not None else None
        if look is None or not rows:
            return []
        # an outline farther than this cannot matter: the nearest other character passes there
        limit = max(MAX_DISTANCE * RATIO, MAX_DISTANCE + MARGIN) if limit is None else limit
        tops = self._tops[look.contours]
        lo, hi = bisect.bisect_left(tops, look.top - limit / PLACE), bisect.bisect_right(tops, look.top + limit / PLACE)
        near = []
        for r in rows[lo:hi]:
            d = _apart(look, r[1])
            if d <= limit and (d := d + (look.bits ^ r[1].bits).bit_count()) <= limit:
                near.append(Neighbour(d, r[2], r[3], r[4], r[5], r[6]))
        near.sort(key=lambda n: n.distance)
        return near[:count]

    def nearest(self, key: str, exclude: Collection[str] = (), scripts: Collection[str] | None = None,
                share: float = WINDOW_SHARE) -> Reading | None:
        """The reading of a look (see the module doc), ``None`` when its neighbours do not agree
        clearly enough (:func:`declined` says why). Neighbours labelled with a letter key of
        ``exclude`` (characters the font draws with another glyph), and with ``scripts`` (those the
        font has letters of) neighbours that are letters of other scripts only, are passed over."""
        near = self.neighbours(key)
        if exclude or scripts is not None:
            near = [n for n in near if n.label not in exclude and not (scripts is not None and _foreign(n, scripts))]
        why, run, other = _verdict(near, share)
        if why is not None:
            return None
        alike: dict[str, int] = {}
        for n in run:
            for i, t in enumerate(n.texts):
                alike[t] = alike.get(t, 0) + (n.fonts if i == 0 else 0)
        texts = tuple(sorted(alike, key=lambda t: -alike[t]))
        return Reading(texts[0], texts, run[0].distance, sum(n.fonts for n in run), max(n.files for n in run),
                       (other.texts[0] if other.texts else "?") if other else "",
                       other.distance if other else math.inf)


def _foreign(n: Neighbour, scripts: Collection[str]) -> bool:
    """Whether a labelled neighbour's texts are all letters of scripts not among ``scripts`` (a Greek
    ``υ`` or a Thai ``น`` near a Latin font's ``u``)."""
    found = {plaus.script(t) if len(t) == 1 else None for t in n.texts}
    return bool(n.label) and bool(found) and None not in found and not found & set(scripts)


def _against(n: Neighbour, label: str) -> bool:
    """Whether a neighbour speaks for another character than ``label``: a look whose fonts disagree
    but lean to that label (an ``h`` some font labels Armenian ``հ``) does not."""
    return n.label != label and (bool(n.label) or n.lean != label)


def _verdict(near: list[Neighbour], share: float = WINDOW_SHARE) -> tuple[str | None, list[Neighbour], Neighbour | None]:
    """Why the neighbours read as nothing (:func:`declined`'s reasons), else ``None``, the neighbours
    that read as the reading's character and the nearest of another (``None`` when none is near).

    The nearest outlines are read as their character when those of no other character come within
    :data:`MARGIN` and :data:`RATIO` of the nearest, and :data:`MIN_FONTS` fonts agree before the
    first that does; else, within that window, when one character holds :data:`WINDOW_SHARE` of the
    fonts and :data:`MIN_FONTS` at least (one font's odd outline — a Thai zero among the ``o`` of
    twelve fonts — does not hide the others); ``share`` below that (a font's second reading,
    :func:`second_readings`) for the nearest's own character alone."""
    if not near:
        return "none_near", [], None
    best = near[0].distance
    if best > MAX_DISTANCE:
        return "too_far", [], None
    window = max(best + MARGIN, best * RATIO)
    label = near[0].label
    if label:
        run: list[Neighbour] = []
        other = None
        for n in near:
            if n.label == label:
                run.append(n)
            elif _against(n, label):
                other = n
                break
        if other is None or other.distance >= window:
            return ("too_few_fonts" if sum(n.fonts for n in run) < MIN_FONTS else None), run, other
    inside = [n for n in near if n.distance <= window]
    votes: dict[str, int] = {}
    for n in inside:
        if n.label:
            votes[n.label] = votes.get(n.label, 0) + n.fonts
    if not votes:
        return "nearest_disputed", [], None
    label = max(votes, key=lambda k: votes[k])
    against = sum(n.fonts for n in inside if _against(n, label))
    # a looser share (a font's second reading) only for the nearest's own character
    need = min(share, WINDOW_SHARE) if label == near[0].label else WINDOW_SHARE
    if votes[label] < MIN_FONTS or votes[label] < need * (votes[label] + against):
        return ("nearest_disputed" if not near[0].label else "other_too_near"), [], None
    return None, [n for n in inside if n.label == label], next((n for n in near if _against(n, label)), None)


def declined(near: list[Neighbour]) -> str | None:
    """Why :meth:`LikenessIndex.nearest` reads nothing from these neighbours, ``None`` when it reads:
    ``none_near`` (no outline of as many contours within reach), ``too_far`` (the nearest farther than
    :data:`MAX_DISTANCE`), ``nearest_disputed`` (its fonts disagree, and no character holds the
    window), ``too_few_fonts`` (fewer than :data:`MIN_FONTS` agree before another character),
    ``other_too_near`` (another character within :data:`MARGIN` or :data:`RATIO` of the nearest, and
    none holds :data:`WINDOW_SHARE` of the fonts there)."""
    return _verdict(near)[0]


def font_scripts(letters: Mapping[str, int], readings: Iterable[Reading]) -> set[str] | None:
    """The scripts a font has letters of — ``letters`` counted by script (the spec's text and clear
    votes), and its likeness readings of one letter of one script that no other script draws alike (a
    Cyrillic font's ``е`` and ``о`` read by likeness as the Latin letters other fonts label them:
    they tell no script) — ``None`` when it has fewer than :data:`SCRIPT_LETTERS` letters (too few to
    say a script is not the font's)."""
    counts = dict(letters)
    for r in readings:
        found = {plaus.script(t) if len(t) == 1 and not looks_alike(t) else None for t in r.texts}
        if len(found) == 1 and (s := found.pop()) is not None:
            counts[s] = counts.get(s, 0) + 1
    return {s for s, c in counts.items() if c > 0} if sum(counts.values()) >= SCRIPT_LETTERS else None


def second_readings(index: LikenessIndex, looks: Collection[str], readings: dict[str, Reading], claimed: set[str],
                    standing: dict[str, Reading], scripts: Collection[str] | None = None) -> dict[str, Reading]:
    """The readings of a font's ``looks`` once the neighbours of characters the font draws with another
    glyph — one it has (``claimed``), or one a look clearly nearer to it reads (:func:`assign`'s
    ``standing``) — are passed over: a look that lost its character so, or that no character held
    clearly against one of them, is read again without them, where that reading is clear and of no
    such character; the others as they were (a look read again to nothing keeps its reading, which
    :func:`assign` again leaves out). Where the font's letters tell its ``scripts``
    (:func:`font_scripts`), neighbours that are letters of other scripts are passed over too, and the
    nearest's own character needs only :data:`FONT_WINDOW_SHARE` of the fonts within the margin."""
    taken = claimed | {letter_key(r.text) for r in standing.values()}
    out = dict(readings)
    for key in looks:
        r = readings.get(key)
        if key in standing or (r is not None and letter_key(r.text) not in taken):
            continue
        again = index.nearest(key, taken, scripts, WINDOW_SHARE if scripts is None else FONT_WINDOW_SHARE)
        if again is not None and letter_key(again.text) not in taken:
            out[key] = again
    return out


def assign(readings: dict[str, Reading], claimed: set[str], looks: int = 0,
           cjk: bool = False) -> dict[str, Reading]:
    """The readings of one font's looks (key → reading) that stand: none when fewer than
    :data:`MIN_FONT_SHARE` of the font's ``looks`` (those no exact or coarse vote reads) find one (a
    Thai or CJK font whose few glyphs that look like Latin letters are not Latin letters), unless they
    name :data:`ALPHABET` characters or more (a large font whose many other glyphs no font draws); none of a
    character the font already has (``claimed``: letter keys of its glyphs read by the spec or an
    exact vote); in a CJK font (``cjk``, or :data:`CJK_READINGS` readings), none of a character
    outside ASCII and the CJK blocks; and of several looks read as one character only the nearest, when it is
    :data:`FONT_RATIO` times nearer than the next (else none of them)."""
    if len(readings) < MIN_FONT_SHARE * looks and len({letter_key(r.text) for r in readings.values()}) < ALPHABET:
        return {}
    # a CJK font draws many symbols alike with Greek letters and European punctuation (三 Ξ, ・ •):
    # of characters outside the CJK blocks it reads by likeness only ASCII (the Latin such fonts hold)
    cjk = cjk or sum(1 for r in readings.values() if plaus.script(r.text[:1]) in ("Han", "Hangul")) >= CJK_READINGS
    by_label: dict[str, list[tuple[float, str]]] = {}
    for key, r in readings.items():
        label = letter_key(r.text)
        if cjk and not all(ord(c) < 0x80 or ord(c) >= CJK_START for c in r.text):
            continue
        if label not in claimed:
            by_label.setdefault(label, []).append((r.distance, key))
    out: dict[str, Reading] = {}
    for rivals in by_label.values():
        rivals.sort()
        if len(rivals) == 1 or rivals[0][0] * FONT_RATIO + 1 <= rivals[1][0]:
            out[rivals[0][1]] = readings[rivals[0][1]]
    return out
