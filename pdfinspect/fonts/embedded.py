"""Embedded font programs read through fontTools (ISO 32000-1 9.9).

Only what glyph resolution needs is read: a Type1 program's built-in encoding
(``/FontFile``, via ``fontTools.misc.psLib``, which ``fontTools.t1Lib`` uses), a TrueType
program's ``cmap`` subtables and ``post`` glyph names (``/FontFile2``), a CFF program's
charset and encoding (``/FontFile3`` ``/Type1C`` or ``/CIDFontType0C``) and OpenType
(``/FontFile3`` ``/OpenType``). A program fontTools cannot read yields a
:class:`FontProgram` with diagnostics and empty tables, never an exception.
"""
from __future__ import annotations

import io
from dataclasses import dataclass, field

from ..core.diagnostics import Diagnostic, warning
from ..core.objects import Ref

# cmap subtables that map Unicode code points (OpenType spec, "cmap" platform/encoding IDs).
UNICODE_SUBTABLES = ((3, 10), (3, 1), (0, 6), (0, 4), (0, 3), (0, 2), (0, 1), (0, 0))


@dataclass(frozen=True, slots=True)
class FontProgram:
    """What an embedded font program says about its glyphs.

    ``builtin_encoding`` maps codes to glyph names (Type1, non-CID CFF); ``glyph_names``
    is indexed by GID (``post`` table or CFF charset); ``cmaps`` maps (platform, encoding)
    to code → GID; ``unicode_of_gid`` inverts the Unicode subtables; ``cid_to_gid`` is a
    CID-keyed CFF charset.
    """

    kind: str
    key: str
    ref: Ref | None
    builtin_encoding: dict[int, str] = field(default_factory=dict)
    glyph_names: tuple[str, ...] = ()
    cmaps: dict[tuple[int, int], dict[int, int]] = field(default_factory=dict)
    unicode_of_gid: dict[int, str] = field(default_factory=dict)
    cid_to_gid: dict[int, int] = field(default_factory=dict)
    diagnostics: tuple[Diagnostic, ...] = ()

    @property
    def describe(self) -> str:
        return f"/{self.key} {self.kind}"

    def gid_of_name(self, name: str) -> int | None:
        try:
            return self.glyph_names.index(name)
        except ValueError:
            return None

    def name_of_gid(self, gid: int | None) -> str | None:
        if gid is None or not 0 <= gid < len(self.glyph_names):
            return None
        return self.glyph_names[gid]


def load_program(doc, font) -> FontProgram | None:
    """Read the program embedded for ``font`` (a :class:`~.font.Font`), or ``None``."""
    if font.program_ref is None:
        return None
    kind = font.program_kind or "?"
    obj = doc.get(font.program_ref.num, font.program_ref.gen)
    if obj is None:
        return FontProgram(kind, font.program_key, font.program_ref,
                           diagnostics=(_bad(font, "font program object is missing"),))
    res = doc.stream_data(obj)
    diags: list[Diagnostic] = []
    if res.error:
        diags.append(_bad(font, f"font program stream: {res.error}"))
    try:
        if font.program_key == "FontFile":
            return _type1(font, kind, res.data, diags)
        if font.program_key == "FontFile2" or kind == "OpenType":
            return _sfnt(font, kind, res.data, diags)
        return _cff(font, kind, res.data, diags)
    except Exception as e:  # fontTools raises many kinds on damaged programs
        diags.append(_bad(font, f"fontTools could not read the {kind} program: {type(e).__name__}: {e}"))
        return FontProgram(kind, font.program_key, font.program_ref, diagnostics=tuple(diags))


def _bad(font, message: str) -> Diagnostic:
    ref = font.program_ref
    return warning("font-program-unreadable", message, ref=(ref.num, ref.gen) if ref else None,
                   clause="9.9")


def _type1(font, kind, data: bytes, diags) -> FontProgram:
    from fontTools.misc import psLib

    parsed = psLib.suckfont(bytes(data))
    name = parsed.get("FontName")
    if "CharStrings" not in parsed or name == "Helvetica" and "Helvetica" not in font.base_font:
        raise ValueError("no font dictionary was defined by the program")
    enc = parsed.get("Encoding")
    builtin = {i: n for i, n in enumerate(enc) if n and n != ".notdef"} if isinstance(enc, list) else {}
    names = tuple(parsed["CharStrings"].keys())
    return FontProgram(kind, font.program_key, font.program_ref, builtin, names,
                       diagnostics=tuple(diags))


def _sfnt(font, kind, data: bytes, diags) -> FontProgram:
    from fontTools.ttLib import TTFont

    tt = TTFont(io.BytesIO(bytes(data)), lazy=True, checkChecksums=0)
    names: tuple[str, ...] = ()
    try:
        if "post" in tt and tt["post"].formatType in (1.0, 2.0):
            names = tuple(tt.getGlyphOrder())
        elif "CFF " in tt:
            names = tuple(tt["CFF "].cff[0].charset)
    except Exception as e:  # a broken post table should not lose the cmap
        diags.append(_bad(font, f"glyph names unreadable: {type(e).__name__}: {e}"))
    tables: dict[tuple[int, int], dict[int, int]] = {}
    if "cmap" in tt:
        order = tt.getGlyphOrder()
        index = {n: i for i, n in enumerate(order)}
        for sub in tt["cmap"].tables:
            key = (sub.platformID, sub.platEncID)
            if key not in tables and sub.cmap:
                tables[key] = {c: index.get(g, 0) for c, g in sub.cmap.items()}
    unicode_of_gid: dict[int, str] = {}
    for key in UNICODE_SUBTABLES:
        for code, gid in sorted(tables.get(key, {}).items()):
            if gid and gid not in unicode_of_gid:
                unicode_of_gid[gid] = chr(code)
    return FontProgram(kind, font.program_key, font.program_ref, {}, names, tables, unicode_of_gid,
                       diagnostics=tuple(diags))


def _cff(font, kind, data: bytes, diags) -> FontProgram:
    from fontTools.cffLib import CFFFontSet

    cff = CFFFontSet()
    cff.decompile(io.BytesIO(bytes(data)), None)
    top = cff[cff.fontNames[0]]
    charset = tuple(top.charset or ())
    builtin: dict[int, str] = {}
    cid_to_gid: dict[int, int] = {}
    if hasattr(top, "ROS"):
        for gid, name in enumerate(charset):
            if name.startswith("cid") and name[3:].isdigit():
                cid_to_gid[int(name[3:])] = gid
            elif name == ".notdef":
                cid_to_gid[0] = gid
    else:
        enc = getattr(top, "Encoding", None)
        if isinstance(enc, str):
            from .encodings import base_encoding

            table = base_encoding(enc) or base_encoding("StandardEncoding") or ()
            present = set(charset)
            builtin = {i: n for i, n in enumerate(table) if n and n in present}
        elif enc:
            builtin = {i: n for i, n in enumerate(enc) if n and n != ".notdef"}
    return FontProgram(kind, font.program_key, font.program_ref, builtin, charset,
                       cid_to_gid=cid_to_gid, diagnostics=tuple(diags))
