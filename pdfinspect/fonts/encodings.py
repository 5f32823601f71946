"""Built-in simple-font encodings: code → glyph name (ISO 32000-1 9.6.6, Annex D).

The four Latin encodings come from pdfminer.six's copy of Annex D.2 (``latin_enc``),
corrected where it departs from the notes to Table D.2 (each fix below names its note).
MacExpertEncoding (D.4) and the built-in encodings of the Symbol (D.5) and ZapfDingbats
(D.6) fonts are not packaged by any dependency, so they are written out here.
Every table has 256 entries; ``None`` means the code is not encoded.
"""
from __future__ import annotations

from functools import lru_cache

from ..core.diagnostics import Diagnostic, warning
from ..core.objects import Name
from . import pdfminerdata

Table = tuple[str | None, ...]

# Annex D.2 note 3: "In WinAnsiEncoding, all unused codes greater than 40 [octal] map to
# the bullet character. However, only code 225 is specifically assigned to the bullet
# character". pdfminer leaves these codes empty; they are filled with bullet here.
WINANSI_UNUSED_AS_BULLET = frozenset({0x7F, 0x81, 0x8D, 0x8F, 0x90, 0x9D})


def _latin(rows, column: int) -> list[str | None]:
    table: list[str | None] = [None] * 256
    for row in rows:
        code = row[column]
        # "nbspace" is pdfminer's addition: Table D.2 note 6 names the duplicate space at
        # MacRoman 0xCA / WinAnsi 0xA0 "space" (a non-breaking space, typographically the same).
        if code is not None and row[0] != "nbspace":
            table[code] = row[0]
    return table


@lru_cache(maxsize=1)
def _latin_tables() -> dict[str, Table]:
    """The four Latin tables, built on first use from pdfminer.six's (:mod:`.pdfminerdata`):
    a document whose fonts bring their own encodings never needs them."""
    rows = pdfminerdata.module("latin_enc").ENCODING  # (name, std, mac, win, pdf)
    std, mac, win, pdf = (_latin(rows, i) for i in (1, 2, 3, 4))
    # Annex D.2 note 5: WinAnsi 0xAD (octal 255) is "hyphen" (soft hyphen). pdfminer's
    # latin_enc lists it as a second "space" row, which is wrong.
    win[0xAD] = "hyphen"
    win[0xA0] = "space"  # note 6
    mac[0xCA] = "space"  # note 6
    for code in WINANSI_UNUSED_AS_BULLET:
        win[code] = "bullet"
    # MacRoman 0xDB stays "currency": note 1 says Apple's later change of that code to
    # the euro "has not been reflected in PDF's MacRomanEncoding".
    return {"StandardEncoding": tuple(std), "MacRomanEncoding": tuple(mac),
            "WinAnsiEncoding": tuple(win), "PDFDocEncoding": tuple(pdf)}


def _runs(*runs: tuple[int, str]) -> Table:
    """Build a table from (first code, space-separated names) runs; ``-`` is unencoded."""
    table: list[str | None] = [None] * 256
    for start, names in runs:
        for offset, name in enumerate(names.split()):
            table[start + offset] = None if name == "-" else name
    return tuple(table)


# Annex D.4, MacExpertEncoding column.
_MAC_EXPERT = _runs(
    (0x20, "space exclamsmall Hungarumlautsmall centoldstyle dollaroldstyle dollarsuperior "
           "ampersandsmall Acutesmall parenleftsuperior parenrightsuperior twodotenleader "
           "onedotenleader comma hyphen period fraction zerooldstyle oneoldstyle twooldstyle "
           "threeoldstyle fouroldstyle fiveoldstyle sixoldstyle sevenoldstyle eightoldstyle "
           "nineoldstyle colon semicolon - threequartersemdash - questionsmall"),
    (0x44, "Ethsmall - - onequarter onehalf threequarters oneeighth threeeighths fiveeighths "
           "seveneighths onethird twothirds"),
    (0x56, "ff fi fl ffi ffl parenleftinferior - parenrightinferior Circumflexsmall "
           "hypheninferior Gravesmall Asmall Bsmall Csmall Dsmall Esmall Fsmall Gsmall Hsmall "
           "Ismall Jsmall Ksmall Lsmall Msmall Nsmall Osmall Psmall Qsmall Rsmall Ssmall Tsmall "
           "Usmall Vsmall Wsmall Xsmall Ysmall Zsmall colonmonetary onefitted rupiah Tildesmall"),
    (0x81, "asuperior centsuperior"),
    (0x87, "Aacutesmall Agravesmall Acircumflexsmall Adieresissmall Atildesmall Aringsmall "
           "Ccedillasmall Eacutesmall Egravesmall Ecircumflexsmall Edieresissmall Iacutesmall "
           "Igravesmall Icircumflexsmall Idieresissmall Ntildesmall Oacutesmall Ogravesmall "
           "Ocircumflexsmall Odieresissmall Otildesmall Uacutesmall Ugravesmall "
           "Ucircumflexsmall Udieresissmall - eightsuperior fourinferior threeinferior "
           "sixinferior eightinferior seveninferior Scaronsmall - centinferior twoinferior - "
           "Dieresissmall - Caronsmall osuperior fiveinferior - commainferior periodinferior "
           "Yacutesmall - dollarinferior - - Thornsmall - nineinferior zeroinferior Zcaronsmall "
           "AEsmall Oslashsmall questiondownsmall oneinferior Lslashsmall"),
    (0xC9, "Cedillasmall"),
    (0xCF, "OEsmall figuredash hyphensuperior"),
    (0xD6, "exclamdownsmall - Ydieresissmall - onesuperior twosuperior threesuperior "
           "foursuperior fivesuperior sixsuperior sevensuperior ninesuperior zerosuperior - "
           "esuperior rsuperior tsuperior - - isuperior ssuperior dsuperior"),
    (0xF1, "lsuperior Ogoneksmall Brevesmall Macronsmall bsuperior nsuperior msuperior "
           "commasuperior periodsuperior Dotaccentsmall Ringsmall"),
)

# Annex D.5, the built-in encoding of the Symbol font.
_SYMBOL = _runs(
    (0x20, "space exclam universal numbersign existential percent ampersand suchthat "
           "parenleft parenright asteriskmath plus comma minus period slash zero one two three "
           "four five six seven eight nine colon semicolon less equal greater question "
           "congruent Alpha Beta Chi Delta Epsilon Phi Gamma Eta Iota theta1 Kappa Lambda Mu "
           "Nu Omicron Pi Theta Rho Sigma Tau Upsilon sigma1 Omega Xi Psi Zeta bracketleft "
           "therefore bracketright perpendicular underscore radicalex alpha beta chi delta "
           "epsilon phi gamma eta iota phi1 kappa lambda mu nu omicron pi theta rho sigma tau "
           "upsilon omega1 omega xi psi zeta braceleft bar braceright similar"),
    (0xA0, "Euro Upsilon1 minute lessequal fraction infinity florin club diamond heart spade "
           "arrowboth arrowleft arrowup arrowright arrowdown degree plusminus second "
           "greaterequal multiply proportional partialdiff bullet divide notequal equivalence "
           "approxequal ellipsis arrowvertex arrowhorizex carriagereturn aleph Ifraktur "
           "Rfraktur weierstrass circlemultiply circleplus emptyset intersection union "
           "propersuperset reflexsuperset notsubset propersubset reflexsubset element "
           "notelement angle gradient registerserif copyrightserif trademarkserif product "
           "radical dotmath logicalnot logicaland logicalor arrowdblboth arrowdblleft "
           "arrowdblup arrowdblright arrowdbldown lozenge angleleft registersans copyrightsans "
           "trademarksans summation parenlefttp parenleftex parenleftbt bracketlefttp "
           "bracketleftex bracketleftbt bracelefttp braceleftmid braceleftbt braceex - "
           "angleright integral integraltp integralex integralbt parenrighttp parenrightex "
           "parenrightbt bracketrighttp bracketrightex bracketrightbt bracerighttp "
           "bracerightmid bracerightbt"),
)

# Annex D.6, the built-in encoding of the ZapfDingbats font (names a1…a206 are the
# ITC Zapf Dingbats glyph list's, mapped to Unicode by fonts.agl).
_ZAPF_DINGBATS = _runs(
    (0x20, "space a1 a2 a202 a3 a4 a5 a119 a118 a117 a11 a12 a13 a14 a15 a16 a105 a17 a18 a19 "
           "a20 a21 a22 a23 a24 a25 a26 a27 a28 a6 a7 a8 a9 a10 a29 a30 a31 a32 a33 a34 a35 a36 "
           "a37 a38 a39 a40 a41 a42 a43 a44 a45 a46 a47 a48 a49 a50 a51 a52 a53 a54 a55 a56 a57 "
           "a58 a59 a60 a61 a62 a63 a64 a65 a66 a67 a68 a69 a70 a71 a72 a73 a74 a203 a75 a204 "
           "a76 a77 a78 a79 a81 a82 a83 a84 a97 a98 a99 a100"),
    (0x80, "a89 a90 a93 a94 a91 a92 a205 a85 a206 a86 a87 a88 a95 a96"),
    (0xA1, "a101 a102 a103 a104 a106 a107 a108 a112 a111 a110 a109 a120 a121 a122 a123 a124 "
           "a125 a126 a127 a128 a129 a130 a131 a132 a133 a134 a135 a136 a137 a138 a139 a140 "
           "a141 a142 a143 a144 a145 a146 a147 a148 a149 a150 a151 a152 a153 a154 a155 a156 "
           "a157 a158 a159 a160 a161 a163 a164 a196 a165 a192 a166 a167 a168 a169 a170 a171 "
           "a172 a173 a162 a174 a175 a176 a177 a178 a179 a193 a180 a199 a181 a200 a182 - a201 "
           "a183 a184 a197 a185 a194 a198 a186 a195 a187 a188 a189 a190 a191"),
)

_WRITTEN_OUT: dict[str, Table] = {
    "MacExpertEncoding": _MAC_EXPERT,
    "SymbolEncoding": _SYMBOL,
    "ZapfDingbatsEncoding": _ZAPF_DINGBATS,
}
_LATIN_NAMES = frozenset({"StandardEncoding", "MacRomanEncoding", "WinAnsiEncoding", "PDFDocEncoding"})

# Names a font dictionary's /Encoding (or /BaseEncoding) may use (Table 114 / 9.6.6.1).
# PDFDocEncoding, SymbolEncoding and ZapfDingbatsEncoding are not among them: the first is
# for text strings, the other two are font built-in encodings, reachable by font name.
BASE_ENCODING_NAMES = frozenset({"StandardEncoding", "MacRomanEncoding", "WinAnsiEncoding",
                                 "MacExpertEncoding"})

# The built-in encoding of the two standard 14 symbolic fonts (9.6.2.2, Annex D.5/D.6).
BUILTIN_FONT_ENCODINGS = {"Symbol": "SymbolEncoding", "ZapfDingbats": "ZapfDingbatsEncoding"}


def base_encoding(name: str) -> Table | None:
    """The table for an encoding name as written in a PDF, or ``None`` if unknown."""
    if name in _LATIN_NAMES:
        return _latin_tables()[name]
    return _WRITTEN_OUT.get(name)


def apply_differences(base: Table, differences: list) -> tuple[list[str | None], list[Diagnostic]]:
    """Apply a /Differences array (9.6.6.1, Table 114) to ``base``.

    The array is a sequence of a code followed by names for that code and the ones after
    it, then another code, and so on. Entries that are neither an integer nor a name, names
    before the first code, and codes outside 0–255 are skipped and reported.
    """
    table = list(base)
    diagnostics: list[Diagnostic] = []
    code: int | None = None
    for index, item in enumerate(differences):
        if isinstance(item, bool) or not isinstance(item, (int, Name, str)):
            diagnostics.append(warning(
                "differences-bad-entry", f"/Differences entry {index} is {item!r}, "
                "neither a code nor a glyph name; skipped", clause="9.6.6.1"))
        elif isinstance(item, int):
            code = item
            if not 0 <= code <= 255:
                diagnostics.append(warning(
                    "differences-code-range", f"/Differences code {code} (entry {index}) is "
                    "outside 0–255; names after it are skipped", clause="9.6.6.1"))
                code = _SKIP_NAMES
        elif code is None:
            diagnostics.append(warning(
                "differences-no-code", f"/Differences name /{item} (entry {index}) comes "
                "before any code; skipped", clause="9.6.6.1"))
        else:
            if 0 <= code <= 255:
                table[code] = str(item)
            elif code == 256:
                diagnostics.append(warning(
                    "differences-code-range", f"/Differences name /{item} (entry {index}) "
                    "falls past code 255; skipped", clause="9.6.6.1"))
            code += 1
    return table, diagnostics


_SKIP_NAMES = 257  # past the table and past the "falls past code 255" report
