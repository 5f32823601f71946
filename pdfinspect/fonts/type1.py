"""What glyph resolution and glyph shapes need from a Type 1 font program, read without a
PostScript interpreter (Adobe Type 1 Font Format, ch. 2 and 7; ISO 32000-1 9.9).

- The built-in ``/Encoding`` is in the clear-text part: either ``/Encoding StandardEncoding
  def`` or an array filled by ``dup <code> /<name> put`` lines.
- The glyph names are the keys of ``/CharStrings`` in the eexec-encrypted part: decrypt it
  (r = 55665, c1 = 52845, c2 = 22719, four random bytes first; binary or hexadecimal) and
  read the ``/<name> <length> RD <length bytes> ND`` entries, skipping the binary data.
- Which glyphs draw nothing: a charstring short enough to hold no more than a width
  (:data:`MAX_BLANK_CHARSTRING`) is decrypted in turn (r = 4330, ``/lenIV`` bytes first, 6.2)
  and read: only a width, hints and ``endchar`` (:func:`_draws_nothing`).
- What draws the outlines: every charstring and ``/Subrs`` entry decrypted, and the
  ``/FontMatrix`` (:func:`read_charstrings`; fontTools' charstring interpreter runs them).

A program embedded in a PDF (``/FontFile``) is the clear text (``/Length1``), the encrypted
part (``/Length2``) and the zeros of ``cleartomark`` (``/Length3``); a PFB wrapper (segments
introduced by 0x80) is unwrapped too. Damage raises :class:`Type1Error`, never anything else.
"""
from __future__ import annotations

import re
from binascii import Error as HexError, unhexlify
from dataclasses import dataclass

from .encodings import base_encoding

EEXEC_KEY, C1, C2 = 55665, 52845, 22719
CHARSTRING_KEY = 4330
MAX_BLANK_CHARSTRING = 24  # bytes: a longer charstring is not read (lenIV bytes, sb, width, hsbw, endchar fit)
# charstring operators that draw nothing: hstem vstem hsbw endchar, and after the escape 12
# dotsection vstem3 hstem3 sbw div
_QUIET = frozenset({1, 3, 13, 14})
_QUIET_ESCAPED = frozenset({0, 1, 2, 7, 12})
MAX_EEXEC = 4 * 1024 * 1024  # encrypted bytes decrypted (a byte at a time in Python): real programs are far smaller
_EEXEC = re.compile(rb"currentfile\s+eexec\s?")
_HEX = frozenset(b"0123456789abcdefABCDEF")
_NOT_HEX = re.compile(rb"[^0-9a-fA-F]")
_STANDARD = re.compile(rb"/Encoding\s+StandardEncoding\s+def\b")
_ARRAY = re.compile(rb"/Encoding\s+\d+\s+array\b")
_PUT = re.compile(rb"dup\s+(\d+)\s*/([^\s/\[\]{}()<>%]*)\s+put\b")
_ENCODING_END = re.compile(rb"\b(?:readonly\s+)?def\b")
_CHARSTRINGS = re.compile(rb"/CharStrings\s+\d+\s+dict\b[^/]*?\bbegin\b")
# one CharStrings entry up to its binary data: /name length RD-or-alias one space
_ENTRY = re.compile(rb"\s*/([^\s/\[\]{}()<>%]*)\s+(\d+)\s+\S+\s")
_LEN_IV = re.compile(rb"/lenIV\s+(-?\d{1,2})\b")  # -1: the charstrings are not encrypted
_SUBRS = re.compile(rb"/Subrs\s+(\d+)\s+array\b")
# one Subrs entry up to its binary data, after the NP (or its alias) that ends the one before
_SUBR = re.compile(rb"\s*(?:(?:NP|\||noaccess\s+put|put)\s+)?dup\s+(\d+)\s+(\d+)\s+\S+\s")
_FONT_MATRIX = re.compile(rb"/FontMatrix\s*[\[{]\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)")
MAX_SUBRS = 65536  # subroutines kept at most
_ENTRY_END = re.compile(rb"\s*(?:ND\b|\|-|noaccess\s+def\b|def\b)")


class Type1Error(ValueError):
    """The program is not a readable Type 1 font."""


@dataclass(frozen=True, slots=True)
class Type1Program:
    """``encoding`` maps codes to glyph names (``.notdef`` left out); ``glyph_names`` are
    the CharStrings keys in program order; ``blank`` the names of the glyphs that draw nothing."""

    font_name: str | None
    encoding: dict[int, str]
    glyph_names: tuple[str, ...]
    blank: frozenset[str] = frozenset()


def read_type1(data: bytes) -> Type1Program:
    """Read the built-in encoding and the glyph names of a Type 1 program."""
    clear, private, skip = _parts(data)
    entries = _charstrings(private)
    names = tuple(name for name, _ in entries)
    if not names:
        raise _no_charstrings(private)
    encoding = _encoding(clear)
    if encoding is None:  # rare: the encoding defined after eexec
        encoding = _encoding(private) or {}
    name = re.search(rb"/FontName\s*/([^\s/\[\]{}()<>%]*)", clear)
    blank = frozenset(n for n, short in entries if short is not None and _draws_nothing(short, skip))
    return Type1Program(name.group(1).decode("latin-1") if name else None, encoding, names, blank)


def _parts(data: bytes) -> tuple[bytes, bytes, int]:
    """A program's clear text, its eexec part decrypted (at most :data:`MAX_EEXEC` bytes), and the
    bytes each charstring starts with (``/lenIV``, 4 by default; -1: charstrings not encrypted)."""
    data = _unwrap_pfb(bytes(data))
    m = _EEXEC.search(data)
    if m is None:
        raise Type1Error("no 'currentfile eexec': not a Type 1 program")
    private = decrypt(data[m.end():], limit=MAX_EEXEC)
    iv = _LEN_IV.search(private)
    return data[:m.start()], private, int(iv.group(1)) if iv else 4


def _no_charstrings(private: bytes) -> Type1Error:
    cut = f" (only its first {MAX_EEXEC:,} bytes are decrypted)" if len(private) >= MAX_EEXEC - 4 else ""
    return Type1Error(f"no /CharStrings in the encrypted part{cut}")


def _plain(charstring: bytes, skip: int) -> bytes:
    """A charstring decrypted (r = 4330, binary: no hex form, unlike eexec's), its first ``skip``
    bytes dropped; as it is where ``skip`` is -1 (not encrypted)."""
    return charstring if skip < 0 else _decrypt_binary(charstring, CHARSTRING_KEY, skip)


def _unwrap_pfb(data: bytes) -> bytes:
    """The segments of a PFB file (0x80, type, 4-byte little-endian length) joined."""
    if not data.startswith(b"\x80"):
        return data
    out, pos = [], 0
    while pos + 6 <= len(data) and data[pos] == 0x80 and data[pos + 1] in (1, 2):
        n = int.from_bytes(data[pos + 2:pos + 6], "little")
        out.append(data[pos + 6:pos + 6 + n])
        pos += 6 + n
    return b"".join(out) if out else data


def decrypt(cipher: bytes, key: int = EEXEC_KEY, skip: int = 4, limit: int | None = None) -> bytes:
    """eexec decryption (Type 1 spec 7.1); hexadecimal input when its first four bytes are
    hex digits (7.2), binary otherwise. The first ``skip`` plain bytes are dropped; with a
    ``limit``, only that many encrypted bytes are decrypted."""
    head = cipher.lstrip(b"\r\n\t ")
    if len(head) >= 4 and all(b in _HEX for b in head[:4]):
        hexdigits = _NOT_HEX.sub(b"", head)
        try:
            cipher = unhexlify(hexdigits[:len(hexdigits) & ~1])
        except HexError as e:  # cannot happen after the filter; kept for the contract
            raise Type1Error(f"eexec hex data: {e}") from None
    if limit is not None:
        cipher = cipher[:limit]
    return _decrypt_binary(cipher, key, skip)


def _decrypt_binary(cipher: bytes, key: int, skip: int) -> bytes:
    """The cipher (7.1) of binary bytes decrypted, its first ``skip`` plain bytes dropped."""
    r = key
    out = bytearray(len(cipher))
    for i, c in enumerate(cipher):
        out[i] = c ^ (r >> 8)
        r = ((c + r) * C1 + C2) & 0xFFFF
    return bytes(out[skip:])


def _encoding(text: bytes) -> dict[int, str] | None:
    """The encoding a clear-text part defines, or ``None`` when it defines none."""
    if _STANDARD.search(text):
        table = base_encoding("StandardEncoding") or ()
        return {i: n for i, n in enumerate(table) if n and n != ".notdef"}
    m = _ARRAY.search(text)
    if m is None:
        return None
    end = _ENCODING_END.search(text, m.end())
    body = text[m.end():end.start() if end else len(text)]
    out: dict[int, str] = {}
    for code, name in _PUT.findall(body):
        n = int(code)
        if n < 256 and name != b".notdef":
            out[n] = name.decode("latin-1")
    return out


def _charstrings(private: bytes, keep: int | None = MAX_BLANK_CHARSTRING) -> list[tuple[str, bytes | None]]:
    """The CharStrings entries in program order: each name, with its (still encrypted) charstring
    when it is no longer than ``keep`` bytes (``None``: every one)."""
    m = _CHARSTRINGS.search(private)
    if m is None:
        return []
    entries: list[tuple[str, bytes | None]] = []
    pos, size = m.end(), len(private)
    while True:
        e = _ENTRY.match(private, pos)
        if e is None:
            break
        n = int(e.group(2))
        pos = e.end() + n
        if pos > size:
            break
        entries.append((e.group(1).decode("latin-1"), private[e.end():pos] if keep is None or n <= keep else None))
        end = _ENTRY_END.match(private, pos)
        if end is not None:
            pos = end.end()
    return entries


@dataclass(frozen=True, slots=True)
class Charstrings:
    """What drawing a Type 1 program's glyphs takes: each glyph's charstring and each subroutine
    (``/Subrs``, by index; ``None`` where the array has no entry) as decrypted bytes (6.2), and the
    first number of its ``/FontMatrix`` (``None`` without one)."""

    glyphs: dict[str, bytes]
    subrs: tuple[bytes | None, ...]
    scale: float | None


def read_charstrings(data: bytes) -> Charstrings:
    """The charstrings and subroutines of a Type 1 program (PFB, or as a /FontFile holds it),
    decrypted, read without a PostScript interpreter: ``/Subrs`` entries are ``dup <i> <length> RD
    <bytes> NP`` and ``/CharStrings`` entries ``/<name> <length> RD <bytes> ND`` whatever the
    aliases of RD, NP and ND are called (2.3, 2.4). :class:`Type1Error` where there is no eexec
    part or no CharStrings in it."""
    clear, private, skip = _parts(data)
    glyphs = {name: _plain(cs, skip) for name, cs in _charstrings(private, keep=None) if cs is not None}
    if not glyphs:
        raise _no_charstrings(private)
    subrs: list[bytes | None] = []
    if (a := _SUBRS.search(private)) is not None:
        subrs = [None] * min(int(a.group(1)), MAX_SUBRS)
        pos = a.end()
        while (e := _SUBR.match(private, pos)) is not None:
            index, n = int(e.group(1)), int(e.group(2))
            pos = e.end() + n
            if pos > len(private):
                break
            if index < len(subrs):
                subrs[index] = _plain(private[e.end():pos], skip)
    matrix = _FONT_MATRIX.search(clear) or _FONT_MATRIX.search(private)
    return Charstrings(glyphs, tuple(subrs), float(matrix.group(1)) if matrix else None)


def _draws_nothing(charstring: bytes, skip: int) -> bool:
    """Whether an encrypted Type 1 charstring holds only numbers, hints, its width and ``endchar``
    (a space's): no path, no subroutine, no accent (Type 1 spec 6.2, 6.4)."""
    plain = _plain(charstring, skip)
    i, size, ended = 0, len(plain), False
    while i < size:
        v = plain[i]
        if v >= 32:
            i += 1 if v <= 246 else 2 if v <= 254 else 5
            continue
        if v == 12:
            if i + 1 >= size or plain[i + 1] not in _QUIET_ESCAPED:
                return False
            i += 2
            continue
        if v not in _QUIET:
            return False
        ended = ended or v == 14
        i += 1
    return ended
