"""Is a heuristic's text believable? Judged before it becomes text.

The heuristics of :mod:`.heuristics` recover what practical extractors recover, and sometimes
what no reader should believe: Identity CIDs read as code points give ``4VIRHE ZMWMSRI`` where the
font's glyphs spell "Prende visione" (the CIDs are glyph ids in the standard Macintosh order, 28
away), a Chinese subset gives ``̾ƓͩǋƂֻ뻭``, Bengali font codes read through a Latin base encoding
give Latin letters. A result judged implausible keeps its text in the resolution path (and in what
each extractor would output) but drops to the confidence ``guess``, which stays out of ``text`` and
``unicode`` unless asked for.

Three tests, each with a reason code:

- ``control_or_private_use``: the text holds a control, surrogate or private-use character, or
  U+FFFD (per code);
- ``mixed_scripts``: over the font's codes, the method's letters fall in three groups of scripts
  with a tenth of them each, or in five groups at all (Latin, Greek and Cyrillic count as one, as
  Han, kana and Hangul do), or a quarter of them are lone combining marks (a real font holds one or
  two groups; a wrong reading strews its letters over many);
- ``script_contradicts_font``: the spec's methods give this font's other codes letters of one set
  of scripts and the heuristic gives letters of none of them (per font);
- ``constant_offset``: another reading of the same codes (the Macintosh glyph order) gives letters
  that are one constant code-point offset away from the heuristic's for most codes (per font);
- ``no_evidence``: Identity CIDs read as code points, where nothing in the font backs that reading
  (per font): read so, its widths neither follow a standard font's widths (Helvetica's or Times's,
  :func:`east_asian_widths_fit` for CJK) — a font whose CIDs are glyph ids gives letters whose
  widths are unrelated to theirs. Where one width serves all CIDs, a font not embedded or with a
  /CIDToGIDMap stream is believed (the resolver decides).
- ``outlines_disagree``: a reading of codes as values (code points, CIDs, the Macintosh order, a base
  encoding) that the outlines of the font's other glyphs contradict: where a clear shape vote reads
  them, it reads other characters for most of them (per font; the resolver's GlyphShape step decides).

Pure functions over text; the resolver decides which codes make up "the font's codes".
"""
from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence

CONTROL_OR_PRIVATE_USE = "control_or_private_use"
MIXED_SCRIPTS = "mixed_scripts"
SCRIPT_CONTRADICTS_FONT = "script_contradicts_font"
CONSTANT_OFFSET = "constant_offset"
NO_EVIDENCE = "no_evidence"
OUTLINES_DISAGREE = "outlines_disagree"
VERDICTS = {
    CONTROL_OR_PRIVATE_USE: "a control, surrogate or private-use character, or U+FFFD",
    MIXED_SCRIPTS: "the font's codes read as letters of three or more scripts (or lone combining marks)",
    SCRIPT_CONTRADICTS_FONT: "the font's other codes are letters of another script",
    CONSTANT_OFFSET: "another reading of the same codes is one constant offset away and spells letters",
    NO_EVIDENCE: "read as code points, the font's CIDs (or codes) get widths unlike those letters' in any "
                 "standard font",
    OUTLINES_DISAGREE: "where the outlines of the font's glyphs vote clearly, they read other characters than "
                       "this reading gives most of them",
}

# unicodedata names start with the script for most letters; these words name one script each
_SCRIPT_WORDS = {
    "LATIN": "Latin", "GREEK": "Greek", "COPTIC": "Greek", "CYRILLIC": "Cyrillic", "ARMENIAN": "Armenian",
    "HEBREW": "Hebrew", "ARABIC": "Arabic", "SYRIAC": "Syriac", "THAANA": "Thaana", "DEVANAGARI": "Devanagari",
    "BENGALI": "Bengali", "GURMUKHI": "Gurmukhi", "GUJARATI": "Gujarati", "ORIYA": "Oriya", "TAMIL": "Tamil",
    "TELUGU": "Telugu", "KANNADA": "Kannada", "MALAYALAM": "Malayalam", "SINHALA": "Sinhala", "THAI": "Thai",
    "LAO": "Lao", "TIBETAN": "Tibetan", "MYANMAR": "Myanmar", "GEORGIAN": "Georgian", "HANGUL": "Hangul",
    "ETHIOPIC": "Ethiopic", "CHEROKEE": "Cherokee", "KHMER": "Khmer", "MONGOLIAN": "Mongolian",
    "HIRAGANA": "Han", "KATAKANA": "Han", "CJK": "Han", "BOPOMOFO": "Han", "HALFWIDTH": "Han",
    "FULLWIDTH": "Han", "YI": "Yi",
}


def script(ch: str) -> str | None:
    """The script of a letter (Han for Chinese, Japanese kana and ideographs), ``None`` for what is
    no letter (digits, punctuation, symbols, space) or a letter of a script not listed."""
    if not unicodedata.category(ch).startswith("L"):
        return None
    name = unicodedata.name(ch, "")
    return _SCRIPT_WORDS.get(name.split(" ", 1)[0])


# Scripts one font commonly holds together (WGL4: Latin, Greek, Cyrillic; CJK fonts: Han with kana
# and Hangul) count as one group when judging a mix.
_GROUPS = {"Latin": "European", "Greek": "European", "Cyrillic": "European", "Armenian": "European",
           "Georgian": "European", "Hangul": "Han"}


def scripts(texts: Iterable[str]) -> Counter:
    """How many letters of each script the texts hold."""
    return Counter(s for t in texts for c in t if (s := script(c)) is not None)


def judge_text(text: str) -> str | None:
    """The per-code verdict: :data:`CONTROL_OR_PRIVATE_USE` or ``None``."""
    for c in text:
        cat = unicodedata.category(c)
        if cat in ("Cc", "Cs", "Co") or c == "\ufffd" or ord(c) >= 0xF0000:
            return CONTROL_OR_PRIVATE_USE
    return None


def judge_font(outputs: Sequence[str], evidence: Sequence[str] = ()) -> str | None:
    """The per-font verdict over one heuristic's ``outputs`` for the font's codes, given the text
    the spec's methods give the font's other codes (``evidence``); ``None`` when believable."""
    found = scripts(outputs)
    letters = sum(found.values())
    if not letters:
        return None
    lone_marks = sum(1 for t in outputs if t and unicodedata.category(t[0]) == "Mn")
    if lone_marks * 4 >= len(outputs) > 0:
        return MIXED_SCRIPTS
    groups: Counter = Counter()
    for name, n in found.items():
        groups[_GROUPS.get(name, name)] += n
    # three groups holding a tenth of the letters each, or letters strewn over five groups
    if sum(1 for n in groups.values() if n * 10 >= letters) >= 3 or len(groups) >= 5:
        return MIXED_SCRIPTS
    known = scripts(evidence)
    if sum(known.values()) >= 3 and not set(found) & set(known):
        return SCRIPT_CONTRADICTS_FONT
    return None


def constant_offset(outputs: Sequence[str], alternatives: Sequence[str]) -> int | None:
    """The offset ``k`` such that for most codes (four in five, at least four) the alternative
    reading is the output's single character moved by ``k`` code points and is a letter; ``None``
    when there is no such offset."""
    deltas = Counter(ord(b) - ord(a) for a, b in zip(outputs, alternatives)
                     if len(a) == 1 and len(b) == 1 and a != b and b.isalpha())
    if not deltas:
        return None
    k, n = deltas.most_common(1)[0]
    pairs = sum(1 for a, b in zip(outputs, alternatives) if len(a) == 1 and len(b) == 1)
    return k if n >= 4 and n * 5 >= pairs * 4 else None


def plausible_letters(texts: Sequence[str]) -> bool:
    """Text that reads as letters of one or two scripts, mostly letters and digits: what a reading
    that is right looks like (used to accept the Macintosh glyph order)."""
    chars = [c for t in texts for c in t if not c.isspace()]
    if len(chars) < 3:
        return False
    if any(judge_text(c) for c in chars):
        return False
    alnum = sum(1 for c in chars if c.isalnum())
    found = scripts(texts)
    return alnum * 10 >= len(chars) * 6 and 0 < len(found) <= 2


def east_asian_widths_fit(pairs: Sequence[tuple[str, float]]) -> bool:
    """Whether characters and the widths a font gives them (1/1000 em) look like a CJK font's: at
    least five wide or full-width characters (East Asian Width W or F), which take 0.8 em or more,
    making up four in five of the characters, the narrow ones (Na or H) taking under 0.8 em. A font
    whose CIDs are glyph ids, read as code points, strews them over Latin, Greek, Cyrillic and other
    blocks of neutral width instead."""
    wide = narrow = fit = 0
    for ch, width in pairs:
        eaw = unicodedata.east_asian_width(ch) if len(ch) == 1 else "N"
        if eaw in ("W", "F"):
            wide += 1
            fit += width >= 800
        elif eaw in ("Na", "H"):
            narrow += 1
            fit += 0 < width < 800
    return wide >= 5 and (wide + narrow) * 5 >= len(pairs) * 4 and fit * 10 >= (wide + narrow) * 9
