"""Annex D encodings, /Differences and AGL glyph-name rules (ISO 32000-1 9.6.6, 9.10.2)."""
from __future__ import annotations

from pathlib import Path

import pytest
from fontTools.agl import toUnicode
from fontTools.cffLib import cffIExpertStrings
from fontTools.encodings.MacRoman import MacRoman as FONTTOOLS_MACROMAN
from fontTools.encodings.StandardEncoding import StandardEncoding as FONTTOOLS_STANDARD

from pdfinspect.core.objects import Name, String
from pdfinspect.core.textstrings import pdfdoc_table
from pdfinspect.fonts.agl import glyph_to_unicode, is_meaningless
from pdfinspect.fonts.encodings import (
    WINANSI_UNUSED_AS_BULLET,
    apply_differences,
    base_encoding,
)

# Spot values from Annex D (octal codes there, hex here), picked at known traps.
SPEC = {
    "StandardEncoding": {0x27: "quoteright", 0x60: "quoteleft", 0xA4: "fraction",
                         0xA9: "quotesingle", 0xC1: "grave", 0xE1: "AE", 0xF5: "dotlessi",
                         0x80: None},
    "WinAnsiEncoding": {0x80: "Euro", 0x8E: "Zcaron", 0x9E: "zcaron", 0x95: "bullet",
                        0x7F: "bullet", 0xA0: "space", 0xAD: "hyphen", 0x27: "quotesingle",
                        0x60: "grave"},
    "MacRomanEncoding": {0xDB: "currency", 0xCA: "space", 0xA5: "bullet", 0xDE: "fi",
                         0xDF: "fl", 0x27: "quotesingle", 0xAD: None, 0xF0: None},
    "PDFDocEncoding": {0x18: "breve", 0x80: "bullet", 0xA0: "Euro", 0x8A: "minus",
                       0xAD: None, 0x9F: None},
    "MacExpertEncoding": {0x24: "dollaroldstyle", 0x30: "zerooldstyle", 0x47: "onequarter",
                          0x56: "ff", 0x5A: "ffl", 0x61: "Asmall", 0xD6: "exclamdownsmall",
                          0xFB: "Ringsmall"},
    "SymbolEncoding": {0x6B: "kappa", 0x41: "Alpha", 0x6A: "phi1", 0x22: "universal",
                       0xA0: "Euro", 0xE5: "summation", 0xF0: None, 0x7F: None},
    "ZapfDingbatsEncoding": {0x21: "a1", 0x23: "a202", 0x41: "a10", 0x7E: "a100",
                             0x80: "a89", 0xFE: "a191", 0x7F: None, 0xF0: None},
}


@pytest.mark.parametrize("encoding, code, name",
                         [(e, c, n) for e, vals in SPEC.items() for c, n in vals.items()])
def test_annex_d_spot_values(encoding, code, name):
    assert base_encoding(encoding)[code] == name


def test_every_table_has_256_entries():
    assert all(len(base_encoding(name)) == 256 for name in SPEC)
    assert base_encoding("WinAnsiEncoding") is base_encoding("WinAnsiEncoding")  # built once
    assert base_encoding("Foo") is None


def test_standard_encoding_equals_fonttools():
    ours = base_encoding("StandardEncoding")
    assert [n or ".notdef" for n in ours] == list(FONTTOOLS_STANDARD)


def test_macroman_differs_from_fonttools_only_where_annex_d_says():
    # fontTools has the Mac OS Roman *font* encoding: control names, the 15 glyphs PDF's
    # MacRomanEncoding leaves out (not in the Adobe standard Latin set, Table D.2), and
    # nbspace at 0xCA where note 6 says "space".
    mac_os_only = {0xAD, 0xB0, 0xB2, 0xB3, 0xB6, 0xB7, 0xB8, 0xB9, 0xBA, 0xBD, 0xC3, 0xC5,
                   0xC6, 0xD7, 0xF0}
    ours = base_encoding("MacRomanEncoding")
    differing = {c for c in range(256) if (ours[c] or ".notdef") != FONTTOOLS_MACROMAN[c]}
    assert differing == set(range(0x20)) | {0x7F, 0xCA} | mac_os_only
    assert ours[0xDB] == FONTTOOLS_MACROMAN[0xDB] == "currency"


def _unicode_diffs(table, decode) -> dict[int, str]:
    return {c: n for c, n in enumerate(table) if n is not None and toUnicode(n) != decode(c)}


def test_winansi_through_agl_equals_cp1252_except_notes():
    diffs = _unicode_diffs(base_encoding("WinAnsiEncoding"),
                           lambda c: bytes([c]).decode("cp1252", errors="replace"))
    # Note 3 bullets where cp1252 has nothing (and 0x7F, DEL); notes 5 and 6 (hyphen, space).
    assert set(diffs) == WINANSI_UNUSED_AS_BULLET | {0xA0, 0xAD}


def test_macroman_through_agl_equals_mac_roman_codec_except_notes():
    diffs = _unicode_diffs(base_encoding("MacRomanEncoding"), lambda c: bytes([c]).decode("mac_roman"))
    # Note 1: Python follows Apple's change of 0xDB to the euro, PDF keeps currency; note 6.
    assert diffs == {0xCA: "space", 0xDB: "currency"}


def test_pdfdoc_names_match_text_string_table():
    table = pdfdoc_table()
    for code, name in enumerate(base_encoding("PDFDocEncoding")):
        if name is not None:
            assert toUnicode(name) == table[code]


def test_macexpert_names_are_exactly_the_expert_character_set():
    ours = {n for n in base_encoding("MacExpertEncoding") if n is not None}
    assert ours == set(cffIExpertStrings) - {".notdef"}


TCL = Path("/usr/share/tcltk/tcl8.6/encoding")


def _tcl_table(name: str) -> list[str]:
    path = TCL / f"{name}.enc"
    if not path.is_file():
        pytest.skip(f"{path} not installed")
    lines = path.read_text().splitlines()
    start = lines.index("00") + 1
    digits = "".join(lines[start:start + 16])
    return [chr(int(digits[i * 4:i * 4 + 4], 16)) for i in range(256)]


def test_symbol_encoding_against_tcl_symbol_table():
    tcl = _tcl_table("symbol")
    diffs = _unicode_diffs(base_encoding("SymbolEncoding"), lambda c: tcl[c])
    # Same glyph, different Unicode choice: the AGL vs Apple's SYMBOL.TXT (Tcl's source).
    # 0xA0 Euro was added to Symbol after that table was made.
    assert set(diffs) == {0x27, 0x44, 0x57, 0x6D, 0xA0, 0xD2, 0xD3, 0xD4, 0xE0}
    # Codes Tcl fills that Symbol leaves empty: C1 controls, DEL, and Apple's logo at 0xF0.
    extra = {c for c in range(0x20, 256) if base_encoding("SymbolEncoding")[c] is None
             and tcl[c] != "\x00" and not 0x7F <= c <= 0x9F}
    assert extra == {0xF0}


def test_zapfdingbats_encoding_against_tcl_dingbats_table():
    tcl = _tcl_table("dingbats")
    table = base_encoding("ZapfDingbatsEncoding")
    for code, name in enumerate(table):
        if name is not None and not 0x80 <= code <= 0x8D:  # a85–a206 ornaments postdate Tcl's table
            assert glyph_to_unicode(name, zapf_dingbats=True).unicode == tcl[code], hex(code)


def test_apply_differences():
    base = base_encoding("StandardEncoding")
    table, diags = apply_differences(base, [0x27, Name("quotesingle"), 0xA0, Name("Euro"),
                                            Name("uni20BD")])
    assert (table[0x27], table[0xA0], table[0xA1], table[0x41]) == (
        "quotesingle", "Euro", "uni20BD", "A")
    assert base[0x27] == "quoteright"  # the base table is untouched
    assert diags == []


def test_apply_differences_reports_bad_entries():
    table, diags = apply_differences(
        base_encoding("WinAnsiEncoding"),
        [Name("early"), 65, Name("alpha"), String(b"x"), 1.5, Name("beta"), 300, Name("lost"),
         255, Name("last"), Name("over"), Name("more"), -1, Name("neg"), 66, Name("ok")])
    assert (table[65], table[66], table[255]) == ("alpha", "ok", "last")
    # beta went to 66 after alpha, then 66 was redefined as ok; the rest fell outside 0–255.
    assert not {"early", "beta", "lost", "over", "more", "neg"} & set(table)
    assert [d.code for d in diags] == [
        "differences-no-code", "differences-bad-entry", "differences-bad-entry",
        "differences-code-range", "differences-code-range", "differences-code-range"]


# AGL specification, section 2: its own worked example.
def test_agl_spec_example():
    result = glyph_to_unicode("Lcommaaccent_uni20AC0308_u1040C.alternate")
    assert result.unicode == "\u013b\u20ac\u0308\U0001040c"
    assert result.rule == "ligature components"
    assert "uni20AC0308 → uniXXXX" in result.detail and "u1040C → uXXXXX" in result.detail


@pytest.mark.parametrize("name, text, rule", [
    ("kappa", "κ", "AGL list"),
    ("uni00A0", "\u00a0", "uniXXXX"),
    ("uni30A2", "ア", "uniXXXX"),
    ("u1F600", "😀", "uXXXXX"),
    ("f_f_i", "ffi", "ligature components"),
    ("a.sc", "a", "suffix stripped"),
    ("uniD800", "", "none"),   # surrogates excluded by the AGL spec
    ("uni20ac", "", "none"),   # lowercase hex is not allowed
    ("g123", "", "none"),
])
def test_agl_rules(name, text, rule):
    result = glyph_to_unicode(name)
    assert (result.unicode, result.rule) == (text, rule)
    assert result.unicode == toUnicode(name)


def test_the_shipped_glyph_lists_map_as_fonttools_does():
    """data/agl.json (tools/make_agl_data.py) is fontTools' AGL and Zapf Dingbats list: every
    name of the list, and every rule at its edges, maps as ``fontTools.agl.toUnicode`` maps it."""
    from fontTools.agl import LEGACY_AGL2UV

    from pdfinspect.fonts.agl import to_unicode

    edges = ["", "_", "a", "a0", "a1", "a12", "a206", "a207", "a-1", "a+1", "a 1", "a01", "a1.alt", "uni0041\n",
             "uni00410042", "uni004", "uniD7FF", "uniE000", "uniDFFF", "u0041", "u10FFFF", "u110000", "u00D800",
             "uD800", "u0041z", "f_f_i.sc", "uni0041_a3_bad", "Delta", "Omega.alt_mu", "é", "space"]
    for name in [*LEGACY_AGL2UV, *edges, *(f"a{n}" for n in range(220))]:
        for zapf in (False, True):
            assert to_unicode(name, zapf) == toUnicode(name, isZapfDingbats=zapf), (name, zapf)


def test_zapfdingbats_names_only_in_zapfdingbats_fonts():
    assert glyph_to_unicode("a1").rule == "none"
    dingbat = glyph_to_unicode("a1", zapf_dingbats=True)
    assert (dingbat.unicode, dingbat.rule) == ("\u2701", "ITC Zapf Dingbats list")
    assert glyph_to_unicode("A", zapf_dingbats=True).rule == "AGL list"


@pytest.mark.parametrize("name", [".notdef", "g123", "G7", "gid00042", "glyph7", "cid00042",
                                  "cid_12", "index123", "c12", "C0012", "Identity.123", "#12",
                                  "17"])
def test_meaningless_names(name):
    assert is_meaningless(name)
    assert glyph_to_unicode(name).unicode == ""


@pytest.mark.parametrize("name", ["a1", "g", "cent", "glyph", "uni0041", "c", "Gcircumflex",
                                  "ceilingright", "index"])
def test_meaningful_names(name):
    assert not is_meaningless(name)
