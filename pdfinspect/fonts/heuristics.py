"""What practical extractors do once ISO 32000-1 9.10.2 gives no Unicode: the heuristics.

The spec's methods (ToUnicode, Encoding + AGL, CID collection, and the font program)
live in :mod:`.resolve`; this module holds the rules real readers apply after them, each
named as a :class:`Heuristic` with the readers known to use it (checked against their
sources: MuPDF ``source/fitz/encodings.c`` and ``source/pdf/pdf-font.c``, poppler
``poppler/GfxFont.cc``, pdf.js ``src/core/evaluator.js`` and ``fonts.js``, pdfminer.six
``pdffont.py`` and ``encodingdb.py``, pypdf ``_cmap.py``). A result found this way is a
guess: :mod:`.resolve` marks it ``heuristic``, never ``spec``, and keeps what the spec gave.

Only facts and pure functions here (glyph names, codes, font names in; text out); the
resolver turns them into path steps.
"""
from __future__ import annotations

import codecs
import json
import os
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from ..spec import extractors as extractor_facts
from .agl import to_unicode

# spec: one of ISO 32000's methods; heuristic: a fallback real readers apply; guess: a fallback's
# text judged implausible (fonts.plausibility), kept in the path but out of the text; none: nothing
SPEC, HEURISTIC, GUESS, NO_CONFIDENCE = "spec", "heuristic", "guess", "none"
CONFIDENCES = (SPEC, HEURISTIC, GUESS, NO_CONFIDENCE)


@dataclass(frozen=True, slots=True)
class Heuristic:
    """A named fallback: ``method`` as shown in paths and counts, and what it does; who uses it
    comes from :data:`pdfinspect.spec.extractors.HEURISTIC_USERS` (one claim in one place)."""

    method: str
    summary: str

    @property
    def used_by(self) -> tuple[str, ...]:
        return extractor_facts.used_by(self.method)


TEX_GLYPH_LIST = Heuristic(
    "TeXGlyphList", "glyph names of TeX fonts outside the AGL (the Computer Modern, AMS and cmex names, "
    "as pdfTeX's glyphtounicode.tex reads them); cmex size variants reduced to their symbol; "
    "Delta/Omega/mu read as Greek in TeX fonts")
NUMERIC_GLYPH_NAME = Heuristic(
    "NumericGlyphName", "a glyph name that is a number in disguise (a86, g3A, C65, cid00042, 65, "
    "uni00e9) read as the character code, hex or decimal judged once per font")
BASE_ENCODING_FALLBACK = Heuristic(
    "BaseEncodingFallback", "a /Differences name nothing maps: the base encoding's character for the code "
    "(the named base, else StandardEncoding)")
STANDARD_ENCODING_FALLBACK = Heuristic(
    "StandardEncodingFallback", "the embedded program cannot be read, so its built-in encoding is "
    "unknown: StandardEncoding stands in for it")
CODE_AS_UNICODE = Heuristic(
    "CodeAsUnicode", "no glyph name and no Unicode table: the code itself is output as the character (symbolic "
    "TrueType, whose (3,0) cmap has it at U+F000+code; a Type0 font with a private CMap and no ToUnicode)")
CID_AS_UNICODE = Heuristic(
    "CIDAsUnicode", "Identity-H/V CIDs with no ToUnicode and no Unicode from the program: the CID "
    "read as a Unicode code point")
LEGACY_CJK_CODEPAGE = Heuristic(
    "LegacyCJKCodepage", "a simple font named after a CJK family (SimSun, MingLiU, MS-Mincho, Batang…) "
    "showing double-byte text: the bytes decoded as GBK, Big5, Shift-JIS or EUC-KR")
MISSING_FONT_SUBSTITUTE = Heuristic(
    "MissingFontSubstitute", "Tf names a font the page's /Font resources do not have: a default font stands in "
    "(Times-Roman's widths, WinAnsiEncoding) and the codes are read through its encoding")
MAC_GLYPH_ORDER = Heuristic(
    "MacGlyphOrder", "Identity-H/V CIDs of a TrueType font with no ToUnicode and no Unicode from the program, "
    "read as glyph ids in the standard Macintosh order (the 258 names of a 'post' format 1 table) and the "
    "names through the AGL; taken only when the font's CIDs read that way spell letters")
GLYPH_SHAPE = Heuristic(
    "GlyphShape", "the glyph's outline (fonts.shapes fingerprint) is drawn by fonts whose spec-grade, "
    "conflict-free mapping gives one character: in this document, or in a learned shape table (--shapes)")
HEURISTICS = (TEX_GLYPH_LIST, NUMERIC_GLYPH_NAME, BASE_ENCODING_FALLBACK, STANDARD_ENCODING_FALLBACK,
              CODE_AS_UNICODE, MAC_GLYPH_ORDER, CID_AS_UNICODE, LEGACY_CJK_CODEPAGE, MISSING_FONT_SUBSTITUTE,
              GLYPH_SHAPE)
BY_METHOD = {h.method: h for h in HEURISTICS}


# -- the standard Macintosh glyph order ------------------------------------------------------------
def mac_glyph_name(gid: int) -> str | None:
    """The name of glyph ``gid`` in the standard Macintosh order (TrueType 'post' format 1), or None."""
    from fontTools.ttLib.standardGlyphOrder import standardGlyphOrder

    return standardGlyphOrder[gid] if 0 <= gid < len(standardGlyphOrder) else None


# -- TeX glyph names -----------------------------------------------------------------------------
_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
# AGL names TeX fonts use for another character (cmr's Delta and Omega are the Greek letters,
# the AGL's are INCREMENT and OHM SIGN; cmmi's mu is the Greek letter, the AGL's is MICRO SIGN).
TEX_GREEK = {"Delta": "\u0394", "Omega": "\u03a9", "mu": "\u03bc"}
# Computer Modern, Latin Modern, AMS, Euler, tx/px fonts: CMR10, cmmi7, LMRoman10-Regular, MSBM10…
_TEX_FONT = re.compile(r"(?:(?:cm|lm|eu|ms|rtx|rpx|tx|px)[a-z]*\d+[a-z]*|lm(?:roman|math|sans|mono)\S*|"
                       r"(?:cm|lm)(?:r|mi|sy|ex|bx|ti|sl|tt|ss|csc|mib|bsy)\b\S*)", re.IGNORECASE)
# cmex size variants: parenleftbig, summationdisplay, integraltext, radicalbigg…
_TEX_SIZE = re.compile(r"(.+?)(?:bigg|Bigg|big|Big|display|text)")


@lru_cache(maxsize=1)
def _tex_table() -> dict:
    with open(os.path.join(_DATA, "texglyphs.json"), encoding="utf-8") as f:  # made by tools/make_tex_glyphs.py
        return json.load(f)


def is_tex_font(base_font: str) -> bool:
    """A Computer/Latin Modern, AMS, Euler or tx/px font name (subset prefix ignored)."""
    return _TEX_FONT.fullmatch(base_font.split("+", 1)[-1]) is not None


def tex_glyph(name: str) -> tuple[str, str] | None:
    """(text, how) for a TeX glyph name the AGL lacks, or None."""
    names = _tex_table()["names"]
    if name in names:
        return names[name], "TeX glyph names"
    m = _TEX_SIZE.fullmatch(name)
    if m is None:
        return None
    base = m.group(1)
    text = names.get(base) or to_unicode(base)
    return (text, f"size variant of /{base}") if text else None


def tex_greek(name: str) -> str | None:
    """The Greek letter TeX fonts mean by an AGL name that maps elsewhere (Delta → Δ, not ∆)."""
    return TEX_GREEK.get(name)


# -- numeric glyph names ----------------------------------------------------------------------------
# prefix (letters, or none) + digits; hex digits allowed, judged per font.
_NUMERIC = re.compile(r"(cid|gid|glyph|index|[A-Za-z]{0,2})[_-]?([0-9A-Fa-f]+)")
_UNI = re.compile(r"(?:uni|u)([0-9A-Fa-f]{4,6})")


@dataclass(frozen=True, slots=True)
class NumericNames:
    """How one font's numeric glyph names read: ``base`` 10 or 16, and the evidence."""

    base: int
    matching: int  # names whose number equals their code in that base
    total: int
    dingbats: bool  # a1…a191 names whose numbers are not their codes: ZapfDingbats-like

    @property
    def plausible(self) -> bool:
        """Most numbers equal their code: the names carry codes, not glyph indices."""
        return self.matching * 2 > self.total

    def describe(self) -> str:
        kind = "decimal" if self.base == 10 else "hexadecimal"
        return f"{kind} for this font: {self.matching} of {self.total} numeric names equal their code"


def _split_numeric(name: str) -> tuple[str, str] | None:
    m = _NUMERIC.fullmatch(name)
    if m is None or not any(ch.isdigit() for ch in m.group(2)) or to_unicode(name):
        return None
    return m.group(1), m.group(2)


def judge_numeric_names(pairs) -> NumericNames | None:
    """Judge a font's numeric glyph names from its (code, name) pairs, as pdf.js and poppler do
    once per font: hexadecimal if any number has a hex letter or more numbers equal their code
    read as hex; else decimal. ``None`` when the font has no numeric names."""
    parsed = [(code, p) for code, name in pairs if (p := _split_numeric(name)) is not None]
    if not parsed:
        return None
    dec = sum(1 for code, (_, n) in parsed if n.isdigit() and int(n) == code)
    hexa = sum(1 for code, (_, n) in parsed if int(n, 16) == code)
    hex_letters = any(not n.isdigit() for _, (_, n) in parsed)
    base = 16 if hex_letters or hexa > dec else 10
    a_names = [(code, n) for code, (prefix, n) in parsed if prefix in ("a", "A") and n.isdigit()]
    dingbats = bool(a_names) and sum(int(n) == code for code, n in a_names) * 2 < len(a_names) \
        and all(1 <= int(n) <= 206 for _, n in a_names)
    return NumericNames(base, hexa if base == 16 else dec, len(parsed), dingbats)


def numeric_glyph(name: str, judged: NumericNames | None) -> tuple[str, str] | None:
    """(text, how) for a numeric glyph name under the font's judgement, or None; ``text`` is
    empty when the font's numbers are glyph indices rather than codes (``how`` says so)."""
    m = _UNI.fullmatch(name)
    if m is not None and not to_unicode(name):
        value = int(m.group(1), 16)
        return (_char(value), "hex digits after uni/u read as a code point (not upper-case AGL form)") \
            if _char(value) else None
    parts = _split_numeric(name)
    if parts is None or judged is None:
        return None
    prefix, digits = parts
    if judged.dingbats and prefix in ("a", "A"):
        return None
    if judged.base == 10 and not digits.isdigit():
        return None
    value = int(digits, judged.base)
    if not judged.plausible:
        return "", f"the numbers are not the codes ({judged.describe()}): glyph indices, not characters"
    text = _char(value)
    return (text, f"{value} ({judged.describe()})") if text else None


def _char(value: int) -> str:
    if 0 < value < 0x110000 and not 0xD800 <= value <= 0xDFFF:
        return chr(value)
    return ""


# -- CJK family names in simple fonts ---------------------------------------------------------------
# Family names (and their GBK/Big5/Shift-JIS spellings as Latin-1 mojibake are decoded first) →
# the codepage their double-byte text uses.
_CJK_FAMILIES = (
    ("gbk", ("simsun", "simhei", "simkai", "simfang", "kaiti", "fangsong", "nsimsun", "stsong", "stheiti",
             "stkaiti", "stfangsong", "microsoftyahei", "yahei", "dengxian", "宋体", "黑体", "楷体", "仿宋",
             "新宋体", "微软雅黑", "等线")),
    ("big5", ("mingliu", "pmingliu", "dfkai", "細明體", "新細明體", "標楷體")),
    ("cp932", ("msmincho", "mspmincho", "msgothic", "mspgothic", "msuigothic", "meiryo", "mincho",
               "gothic", "ｍｓ明朝", "ｍｓゴシック", "ｍｓｐ明朝", "ｍｓｐゴシック", "ms明朝", "msゴシック")),
    ("euc-kr", ("batang", "batangche", "gulim", "gulimche", "dotum", "dotumche", "gungsuh", "malgun",
                "바탕", "굴림", "돋움", "궁서")),
)


def legacy_cjk_codec(base_font: str) -> str | None:
    """The legacy codepage of a simple font whose BaseFont names a CJK family, or None.

    BaseFont names are bytes; producers write GBK, Big5 or Shift-JIS names (黑体 as
    ``/#BA#DA#CC#E5``), read here by trying each codepage on the Latin-1 round trip."""
    raw = base_font.split("+", 1)[-1]
    candidates = [raw]
    try:
        data = raw.encode("latin-1")
    except UnicodeEncodeError:
        data = b""
    if data and not data.isascii():
        for codec in ("gbk", "big5", "cp932", "euc-kr"):
            try:
                candidates.append(data.decode(codec))
            except UnicodeDecodeError:
                continue
    for text in candidates:
        key = re.sub(r"[\s,\-_]|(?:bold|italic|regular|light)$", "", unicodedata.normalize("NFKC", text).lower())
        for codec, families in _CJK_FAMILIES:
            if any(key.startswith(unicodedata.normalize("NFKC", f).lower()) for f in families):
                return codec
    return None


def is_lead_byte(codec: str, byte: int) -> bool:
    """True when ``byte`` starts a double-byte character in ``codec``."""
    if codec == "cp932":
        return 0x81 <= byte <= 0x9F or 0xE0 <= byte <= 0xFC
    return 0x81 <= byte <= 0xFE


def decode_cjk(codec: str, code: bytes) -> tuple[str, bool]:
    """(text, clean): the code decoded in ``codec``; ``clean`` when it decodes without error
    to letters (not a private-use or replacement character)."""
    try:
        text = codecs.decode(code, codec)
    except UnicodeDecodeError:
        return codecs.decode(code, codec, errors="replace"), False
    clean = bool(text) and all(unicodedata.category(c)[0] in "LNPS" and not 0xE000 <= ord(c) <= 0xF8FF
                               for c in text)
    return text, clean
