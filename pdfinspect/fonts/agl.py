"""Glyph name → Unicode following the Adobe Glyph List Specification (ISO 32000-1 9.10.2).

The mapping itself is ``fontTools.agl.toUnicode``, which implements the specification:
drop everything from the first period, split at underscores, map each component through
the ITC Zapf Dingbats list (ZapfDingbats font only), the AGL, ``uniXXXX[XXXX…]`` or
``uXXXX[XX]``. This module only adds *which* rule produced the answer, for the resolution
path, and recognises names that carry no meaning at all.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from fontTools.agl import LEGACY_AGL2UV, toUnicode

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


def _component_rule(component: str, zapf_dingbats: bool) -> tuple[str, str]:
    if zapf_dingbats:
        dingbat = toUnicode(component, isZapfDingbats=True)
        if dingbat and dingbat != toUnicode(component):
            return dingbat, ZAPF_LIST
    text = toUnicode(component)
    if not text:
        return "", NONE
    if component in LEGACY_AGL2UV:
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
