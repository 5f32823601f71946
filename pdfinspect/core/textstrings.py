"""Text strings outside content streams (ISO 32000-2 7.9.2.2).

A text string is UTF-16BE when it starts with the byte order mark ``FE FF``, UTF-8 when it
starts with ``EF BB BF`` (PDF 2.0 only), and PDFDocEncoding (Annex D.3, Table D.2)
otherwise. A string that starts with ``FF FE`` is read as UTF-16LE, as qpdf, pdf.js and
MuPDF read it (no PDF version allows it; some producers write it), with a note. Bytes that cannot be decoded become U+FFFD and are reported as
:class:`Diagnostic` values appended to the caller's list; nothing raises.
"""
from __future__ import annotations

import re
from functools import lru_cache

from .diagnostics import Diagnostic, info, warning

UTF16_BOM = b"\xfe\xff"
UTF16LE_BOM = b"\xff\xfe"
UTF8_BOM = b"\xef\xbb\xbf"

# Annex D.3 Table D.2: the codes where PDFDocEncoding differs from ISO Latin-1.
# Cross-checked against pdfminer.latin_enc (PDF column through the AGL) and pikepdf's
# "pdfdoc" codec in tests/test_textstrings.py. pdfminer.utils.PDFDocEncoding maps 0x16 to
# U+0017 (a slip in its table); Table D.2 does not define 0x16 at all.
_PDFDOC_DIFFERENCES = {
    0x18: "\u02d8", 0x19: "\u02c7", 0x1A: "\u02c6", 0x1B: "\u02d9",  # breve caron circumflex dotaccent
    0x1C: "\u02dd", 0x1D: "\u02db", 0x1E: "\u02da", 0x1F: "\u02dc",  # hungarumlaut ogonek ring tilde
    0x80: "\u2022", 0x81: "\u2020", 0x82: "\u2021", 0x83: "\u2026",  # bullet dagger daggerdbl ellipsis
    0x84: "\u2014", 0x85: "\u2013", 0x86: "\u0192", 0x87: "\u2044",  # emdash endash florin fraction
    0x88: "\u2039", 0x89: "\u203a", 0x8A: "\u2212", 0x8B: "\u2030",  # guilsinglleft/right minus perthousand
    0x8C: "\u201e", 0x8D: "\u201c", 0x8E: "\u201d", 0x8F: "\u2018",  # quotedblbase quotedblleft/right quoteleft
    0x90: "\u2019", 0x91: "\u201a", 0x92: "\u2122", 0x93: "\ufb01",  # quoteright quotesinglbase trademark fi
    0x94: "\ufb02", 0x95: "\u0141", 0x96: "\u0152", 0x97: "\u0160",  # fl Lslash OE Scaron
    0x98: "\u0178", 0x99: "\u017d", 0x9A: "\u0131", 0x9B: "\u0142",  # Ydieresis Zcaron dotlessi lslash
    0x9C: "\u0153", 0x9D: "\u0161", 0x9E: "\u017e", 0xA0: "\u20ac",  # oe scaron zcaron Euro
}
# Table D.2 lists no character for these codes. Of the C0 controls it defines only
# HT, LF and CR (0x09, 0x0A, 0x0D); 0x7F, 0x9F and 0xAD are explicitly undefined.
_PDFDOC_UNDEFINED = frozenset(
    [c for c in range(0x18) if c not in (0x09, 0x0A, 0x0D)] + [0x7F, 0x9F, 0xAD])

# 7.9.2.2: an escape sequence U+001B, ISO 639 language code, optional ISO 3166 country
# code, U+001B may appear anywhere in a Unicode text string.
_LANGUAGE_ESCAPE = re.compile("\x1b([A-Za-z]{2})([A-Za-z]{2})?\x1b")


@lru_cache(maxsize=1)
def pdfdoc_table() -> tuple[str | None, ...]:
    """PDFDocEncoding as 256 entries code → character, ``None`` where undefined (Annex D.3)."""
    return tuple(
        None if code in _PDFDOC_UNDEFINED else _PDFDOC_DIFFERENCES.get(code, chr(code))
        for code in range(256))


def decode_text(data: bytes, diagnostics: list[Diagnostic] | None = None) -> str:
    """Decode a PDF text string (7.9.2.2); problems are appended to ``diagnostics``.

    Offsets in the diagnostics are relative to the start of ``data``.
    """
    report = diagnostics.append if diagnostics is not None else (lambda d: None)
    if data.startswith(UTF16_BOM):
        return _decode_utf16(data, report)
    if data.startswith(UTF16LE_BOM):
        report(info("textstring-utf16le", "text string in UTF-16LE (byte order mark FF FE), which "
                    "ISO 32000 does not allow; read as UTF-16LE as other readers do", clause="7.9.2.2"))
        return _decode_utf16(data, report, "utf-16-le")
    if data.startswith(UTF8_BOM):
        try:
            return data[3:].decode("utf-8")
        except UnicodeDecodeError as exc:
            report(warning("textstring-bad-utf8", "invalid UTF-8 in a text string with a UTF-8 "
                           "byte order mark; bad bytes shown as U+FFFD", offset=3 + exc.start,
                           clause="7.9.2.2"))
            return data[3:].decode("utf-8", errors="replace")
    return _decode_pdfdoc(data, report)


def _decode_pdfdoc(data: bytes, report) -> str:
    table = pdfdoc_table()
    out = []
    bad = []
    for i, byte in enumerate(data):
        ch = table[byte]
        if ch is None:
            bad.append(i)
            ch = "\ufffd"
        out.append(ch)
    if bad:
        codes = ", ".join(sorted({f"0x{data[i]:02X}" for i in bad}))
        report(warning("pdfdoc-undefined", f"{len(bad)} byte(s) undefined in PDFDocEncoding "
                       f"({codes}) shown as U+FFFD", offset=bad[0], clause="Annex D.3"))
    return "".join(out)


def _decode_utf16(data: bytes, report, codec: str = "utf-16-be") -> str:
    body = data[2:]
    if len(body) % 2:
        report(warning("textstring-odd-utf16", f"{codec.upper()} text string has an odd number of "
                       "bytes; the last byte is dropped", offset=len(data) - 1, clause="7.9.2.2"))
        body = body[:-1]
    try:
        text = body.decode(codec)
    except UnicodeDecodeError as exc:
        report(warning("textstring-bad-utf16", "unpaired UTF-16 surrogate in text string; "
                       "shown as U+FFFD", offset=2 + exc.start, clause="7.9.2.2"))
        text = body.decode(codec, errors="replace")
    if "\x1b" in text:
        for m in _LANGUAGE_ESCAPE.finditer(text):
            lang = m.group(1) + (f"-{m.group(2)}" if m.group(2) else "")
            report(info("textstring-language", f"language escape sequence {lang!r} removed",
                        clause="7.9.2.2"))
        text = _LANGUAGE_ESCAPE.sub("", text)
    return text
