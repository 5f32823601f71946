"""The text extractors pdfinspect emulates, and which of the fonts layer's heuristics each applies.

One claim in one place: :mod:`pdfinspect.fonts.heuristics` reads ``HEURISTIC_USERS`` for the
"used by" of its path steps, and :mod:`pdfinspect.extractors` reads it to decide which
characters each emulated extractor recovers. Every entry names the reader's source file
(and the version it was checked against); a reader is listed only where its source applies
the rule, never by hearsay.
"""
from __future__ import annotations

# id → (display name, version the rules were read from)
EXTRACTORS: dict[str, tuple[str, str]] = {
    "pdfminer": ("pdfminer.six", "20260107"),
    "pypdf": ("pypdf", "6.x/7.x"),
    "pdfium": ("pdfium", "chromium/pdfium 2024"),
    "poppler": ("poppler", "21.07–22.12"),
    "mupdf": ("MuPDF", "1.21.1"),
    "pdfjs": ("pdf.js", "4.x"),
    "pdfbox": ("PDFBox", "3.0"),
}
NAMES = tuple(EXTRACTORS)

# heuristic method (fonts.heuristics) → ((extractor id, how / where in its source), …)
HEURISTIC_USERS: dict[str, tuple[tuple[str, str], ...]] = {
    "TeXGlyphList": (
        ("mupdf", "source/fitz/encodings.c fz_unicode_from_glyph_name (TeX names in its glyph list)"),
        ("pypdf", "_codecs/adobe_glyphs.py (cmex names)"),
    ),
    "NumericGlyphName": (
        ("mupdf", "source/fitz/encodings.c: aNN, NN"),
        ("poppler", "poppler/GfxFont.cc parseNumericName: Axx, xx, Ann, ABnn, nn"),
        ("pdfjs", "src/core/evaluator.js: Gxx, gxxxx, Cdd"),
    ),
    "BaseEncodingFallback": (
        ("mupdf", "source/pdf/pdf-font.c pdf_load_simple_font: the base encoding's entry stays"),
        ("pdfminer", "pdffont.py PDFSimpleFont: EncodingDB.get_encoding keeps the base entry"),
    ),
    "StandardEncodingFallback": (
        ("mupdf", "source/pdf/pdf-font.c"),
        ("poppler", "poppler/GfxFont.cc Gfx8BitFont"),
        ("pdfminer", "pdffont.py PDFType1Font (StandardEncoding when the program is unreadable)"),
        ("pdfjs", "src/core/fonts.js"),
    ),
    "CodeAsUnicode": (
        ("pdfium", "core/fpdftext/cpdf_textpage.cpp ProcessTextObject: "
                   "an empty UnicodeFromCharCode gives the char code itself"),
        ("poppler", "poppler/GfxFont.cc Gfx8BitFont (symbolic fonts map codes to themselves)"),
        ("pdfminer", "pdffont.py PDFTrueTypeFont (3,0) cmap codes"),
    ),
    # MuPDF 1.21 writes U+FFFD here (source/pdf/pdf-font.c leaves cid_to_ucs empty for
    # Identity without ToUnicode), and pdfminer.six writes (cid:N) unless /ToUnicode names
    # Identity-H (pdffont.py PDFCIDFont.__init__, IdentityUnicodeMap)
    "CIDAsUnicode": (
        ("poppler", "poppler/GfxFont.cc GfxCIDFont: Adobe-Identity without ToUnicode maps CID → itself"),
        ("pypdf", "_cmap.py build_char_map: Identity-H decoded as UTF-16BE"),
        ("pdfium", "core/fpdftext/cpdf_textpage.cpp: no Unicode, the char code itself"),
    ),
    "LegacyCJKCodepage": (
        ("mupdf", "source/pdf/pdf-font.c: CJK family names decode GBK/Big5/Shift-JIS/EUC-KR"),
    ),
    "MissingFontSubstitute": (
        ("mupdf", "source/pdf/pdf-interpret.c: Times-Roman stands in"),
        ("pdfjs", "src/core/evaluator.js: fallback font, WinAnsiEncoding"),
    ),
}


def users(method: str) -> tuple[str, ...]:
    """The extractor ids that apply the heuristic ``method``."""
    return tuple(x for x, _ in HEURISTIC_USERS.get(method, ()))


def used_by(method: str) -> tuple[str, ...]:
    """The display names of the readers that apply ``method``, for path steps."""
    return tuple(EXTRACTORS[x][0] for x in users(method))
