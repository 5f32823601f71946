"""Glyph name → Unicode following the Adobe Glyph List Specification (ISO 32000-1 9.10.2).

The mapping is ``fontTools.agl.toUnicode``'s, which implements the specification: drop
everything from the first period, split at underscores, map each component through the
ITC Zapf Dingbats list (ZapfDingbats font only), the AGL, ``uniXXXX[XXXX…]`` or
``uXXXX[XX]``. The lists are read from ``data/agl.json`` (written from fontTools' by
``tools/make_agl_data.py``) when a name is first looked up: importing ``fontTools.agl`` parses
them on every start (a tenth of a ``glyphs`` run). This module also says *which* rule produced
the answer, for the resolution path, and recognises names that carry no meaning at all.
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from functools import lru_cache

# Rules, as shown in a resolution path.
AGL_LIST = "AGL list"
ZAPF_LIST = "ITC Zapf Dingbats list"
UNI = "uniXXXX"
U = "uXXXXX"
LIGATURE = "ligature components"
SUFFIX = "suffix stripped"
NONE = "none"


@dataclass(frozen=True, slots=True)
class GlyphNameResult:
    """``unicode`` is ``""`` when nothing maps. ``rule`` is the headline rule (ligature
    and suffix handling first); ``detail`` names the rule used for each component."""

    unicode: str
    rule: str
    detail: str = ""


@lru_cache(maxsize=1)
def _lists() -> tuple[dict[str, str], str]:
    """The AGL (name → characters) and the Zapf Dingbats list (``a<N>`` → its N-th character)."""
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "agl.json"), encoding="utf-8") as f:
        data = json.load(f)
    return data["names"], data["zapf_dingbats"]


# fontTools.agl's patterns, kept as they are (``$`` also matches before a final newline)
_UNI = re.compile("^uni([0-9A-F]+)$")
_U = re.compile("^u([0-9A-F]{4,6})$")


def _component(component: str, zapf_dingbats: bool) -> str:
    """One component's characters (fontTools.agl's ``_glyphComponentToUnicode``), or ``""``."""
    if zapf_dingbats and len(component) >= 2 and component[0] == "a":
        dingbats = _lists()[1]
        try:
            n = int(component[1:])
        except ValueError:
            n = -1
        if 0 <= n < len(dingbats) and dingbats[n] != " ":
            return dingbats[n]
    text = _lists()[0].get(component)
    if text:
        return text
    m = _UNI.match(component)
    if m is not None and len(m.group(1)) % 4 == 0:
        values = [int(m.group(1)[i:i + 4], 16) for i in range(0, len(m.group(1)), 4)]
        if not any(0xD800 <= v <= 0xDFFF for v in values):  # the specification excludes surrogates
            return "".join(map(chr, values))
    m = _U.match(component)
    if m is not None:
        value = int(m.group(1), 16)
        if value <= 0xD7FF or 0xE000 <= value <= 0x10FFFF:
            return chr(value)
    return ""


def to_unicode(name: str, zapf_dingbats: bool = False) -> str:
    """The characters ``name`` maps to by the AGL specification (``fontTools.agl.toUnicode``), or ``""``."""
    return "".join(_component(c, zapf_dingbats) for c in name.split(".", 1)[0].split("_"))


def _component_rule(component: str, zapf_dingbats: bool) -> tuple[str, str]:
    if zapf_dingbats:
        dingbat = _component(component, True)
        if dingbat and dingbat != _component(component, False):
            return dingbat, ZAPF_LIST
    text = _component(component, False)
    if not text:
        return "", NONE
    if component in _lists()[0]:
        return text, AGL_LIST
    return text, UNI if component.startswith("uni") else U


def glyph_to_unicode(name: str, zapf_dingbats: bool = False) -> GlyphNameResult:
    """Map a glyph name to Unicode; ``zapf_dingbats`` when the font is ZapfDingbats."""
    base, dot, _suffix = name.partition(".")
    components = base.split("_")
    parts = [_component_rule(c, zapf_dingbats) for c in components] if base else []
    text = "".join(p[0] for p in parts)
    if not text:
        return GlyphNameResult("", NONE, f"{name!r} matches no AGL rule")
    detail = ", ".join(f"{c} → {rule}" for c, (_t, rule) in zip(components, parts))
    if len(components) > 1:
        rule = LIGATURE
    elif dot:
        rule = SUFFIX
    else:
        rule = parts[0][1]
    return GlyphNameResult(text, rule, detail)


# Names producers generate from glyph indices or CIDs; they say nothing about the
# character (DOMAIN.md section 7). Matched case-insensitively against the whole name:
#   .notdef                         the undefined glyph
#   g123  gid123  glyph123  index123  (TrueType/CFF subsetters; also with "_" or "-")
#   cid123  cid00042                (CID-keyed fonts converted to simple fonts)
#   c12  C0012                      (TeX/dvips Type 3 and old subsetters)
#   Identity.123                    (Ghostscript)
#   #123  and bare numbers          (malformed subsets)
_MEANINGLESS = re.compile(
    r"\.notdef|(?:g|gid|glyph|index|cid|c)[_-]?\d+|identity\.\d+|#?\d+", re.IGNORECASE)


def is_meaningless(name: str) -> bool:
    """True for glyph names that are only a number in disguise (see ``_MEANINGLESS``)."""
    return _MEANINGLESS.fullmatch(name) is not None
