"""Text strings (ISO 32000-2 7.9.2.2) and the PDFDocEncoding table (Annex D.3, Table D.2)."""
from __future__ import annotations

import pytest
from fontTools.agl import toUnicode
from pdfminer.latin_enc import ENCODING as PDFMINER_LATIN

from pdfinspect.core.textstrings import decode_text, pdfdoc_table

# Values read off Table D.2 (code → Unicode), chosen where PDFDocEncoding and Latin-1 part.
SPEC_PDFDOC = {
    0x09: "\u0009", 0x0A: "\u000a", 0x0D: "\u000d",
    0x18: "\u02d8", 0x1F: "\u02dc", 0x80: "\u2022", 0x8A: "\u2212", 0x8D: "\u201c",
    0x92: "\u2122", 0x93: "\ufb01", 0x9E: "\u017e", 0xA0: "\u20ac", 0xA1: "\u00a1",
    0xAE: "\u00ae", 0xE9: "\u00e9", 0xFF: "\u00ff", 0x41: "A",
}


@pytest.mark.parametrize("code, char", SPEC_PDFDOC.items())
def test_pdfdoc_matches_table_d2(code, char):
    assert pdfdoc_table()[code] == char


def test_pdfdoc_undefined_codes_per_table_d2():
    undefined = {c for c, ch in enumerate(pdfdoc_table()) if ch is None}
    controls = {c for c in range(0x18) if c not in (0x09, 0x0A, 0x0D)}
    assert undefined == controls | {0x7F, 0x9F, 0xAD}


def test_pdfdoc_agrees_with_pdfminer_latin_enc_pdf_column():
    named = {row[4]: row[0] for row in PDFMINER_LATIN if row[4] is not None}
    table = pdfdoc_table()
    for code, name in named.items():
        assert table[code] == toUnicode(name), (hex(code), name)
    # Every defined printable code is named in the column (controls HT/LF/CR are not).
    assert {c for c, ch in enumerate(table) if ch is not None} - set(named) == {0x09, 0x0A, 0x0D}


def test_pdfdoc_agrees_with_pikepdf_codec():
    pytest.importorskip("pikepdf")  # importing it registers the "pdfdoc" codec
    theirs = bytes(range(256)).decode("pdfdoc", errors="replace")
    for code, ours in enumerate(pdfdoc_table()):
        if ours is not None:
            assert theirs[code] == ours, hex(code)
        else:  # qpdf passes undefined C0 controls through; 0x7F/0x9F/0xAD it rejects too
            assert theirs[code] in ("\ufffd", chr(code)), hex(code)


def test_pdfdoc_agrees_with_pdfminer_utils_except_its_0x16_slip():
    from pdfminer.utils import PDFDocEncoding

    table = pdfdoc_table()
    for code, ours in enumerate(table):
        if ours is not None:
            assert PDFDocEncoding[code] == ours, hex(code)
    assert PDFDocEncoding[0x16] == "\x17"  # the discrepancy noted in textstrings.py


def test_decode_pdfdoc_and_report_undefined():
    diags: list = []
    assert decode_text(b"Caf\xe9 \x93 \x80", diags) == "Café ﬁ •"
    assert diags == []
    assert decode_text(b"ab\xadc\x7f", diags) == "ab\ufffdc\ufffd"
    assert [(d.code, d.offset) for d in diags] == [("pdfdoc-undefined", 2)]
    assert "0xAD" in diags[0].message and "0x7F" in diags[0].message


def test_decode_utf16_with_surrogate_pair():
    data = b"\xfe\xff" + "Aκ😀".encode("utf-16-be")
    diags: list = []
    assert decode_text(data, diags) == "Aκ😀"
    assert diags == []


def test_decode_utf16_defects_reported():
    diags: list = []
    assert decode_text(b"\xfe\xff\x00A\xd8\x3d\x00B", diags) == "A\ufffdB"
    assert [(d.code, d.offset) for d in diags] == [("textstring-bad-utf16", 4)]
    diags.clear()
    assert decode_text(b"\xfe\xff\x00A\x00", diags) == "A"
    assert [(d.code, d.offset) for d in diags] == [("textstring-odd-utf16", 4)]


def test_decode_utf16_language_escape_removed():
    diags: list = []
    data = b"\xfe\xff\x00\x1b\x00e\x00n\x00U\x00S\x00\x1b\x00H\x00i"
    assert decode_text(data, diags) == "Hi"
    assert [d.code for d in diags] == ["textstring-language"]
    assert "en-US" in diags[0].message


def test_decode_utf8_bom_pdf20():
    assert decode_text(b"\xef\xbb\xbfcaf\xc3\xa9 \xe2\x82\xac") == "café €"
    diags: list = []
    assert decode_text(b"\xef\xbb\xbfa\xffb", diags) == "a\ufffdb"
    assert [(d.code, d.offset) for d in diags] == [("textstring-bad-utf8", 4)]


def test_bom_alone_and_empty():
    assert decode_text(b"") == ""
    assert decode_text(b"\xfe\xff") == ""
    # Without a full BOM the bytes are PDFDocEncoding: 0xFE 0x41 is "þA".
    assert decode_text(b"\xfeA") == "þA"
