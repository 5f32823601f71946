"""Embedded font programs read through fontTools (ISO 32000-1 9.9).

Only what glyph resolution needs is read: a Type1 program's built-in encoding and
CharStrings names (``/FontFile``, by :mod:`.type1`, without a PostScript interpreter), a TrueType
program's ``cmap`` subtables and ``post`` glyph names (``/FontFile2``), a CFF program's
charset and encoding (``/FontFile3`` ``/Type1C`` or ``/CIDFontType0C``) and OpenType
(``/FontFile3`` ``/OpenType``). A program is read by what its bytes are when they
contradict its key (a bare CFF or TrueType under ``/FontFile``), with a diagnostic. A program
that cannot be read yields a :class:`FontProgram` with diagnostics and empty tables, never
an exception.
"""
from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
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
    CID-keyed CFF charset, whose top dictionary's Registry and Ordering are ``ros``; ``blank``
    the GIDs of the glyphs that draw nothing (a space's: no contour, no accent), as far as the
    program tells (:func:`blank_sfnt`, :func:`blank_cff`, :func:`.type1.read_type1`).
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
    ros: tuple[str, str] | None = None  # a CID-keyed CFF's own Registry and Ordering
    blank: frozenset[int] = frozenset()
    _gids: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        gids: dict[str, int] = {}
        for gid, name in enumerate(self.glyph_names):
            gids.setdefault(name, gid)
        object.__setattr__(self, "_gids", gids)

    @property
    def describe(self) -> str:
        return f"/{self.key} {self.kind}"

    @property
    def unreadable(self) -> tuple[Diagnostic, ...]:
        """What of the program could not be read (``font-program-unreadable``); damage read past, as a
        glyph beyond its table (``font-table-damaged``), is not among them."""
        return tuple(d for d in self.diagnostics if d.code == "font-program-unreadable")

    def gid_of_name(self, name: str) -> int | None:
        return self._gids.get(name)

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
    data = res.data
    reader = "fontTools"
    try:
        if font.program_key == "FontFile2" or kind == "OpenType":
            return _sfnt(font, kind, data, diags)
        if font.program_key == "FontFile3":
            return _cff(font, kind, data, diags)
        sniffed = _sniff(data)
        if sniffed is not None:
            diags.append(warning("font-program-kind", f"/FontFile {font.program_ref} holds a {sniffed} "
                                 "program, not Type1; read as what it is", ref=_pair(font.program_ref),
                                 clause="9.9"))
            return (_cff if sniffed == "CFF" else _sfnt)(font, sniffed, data, diags)
        reader = "the Type1 reader"
        return _type1(font, kind, data, diags)
    except Exception as e:  # fontTools raises many kinds on damaged programs
        diags.append(_bad(font, f"{reader} could not read the {kind} program: {type(e).__name__}: {e}"))
        return FontProgram(kind, font.program_key, font.program_ref, diagnostics=tuple(diags))


@contextmanager
def quiet_fonttools() -> Iterator[None]:
    """fontTools logs what it repairs in a program (timestamps, padding, a short ``post`` table)
    as warnings, which would reach the terminal; a damaged program is reported by what it cannot
    give (diagnostics), not by log lines on stderr. (``logging`` comes with fontTools: a Type 1
    program, read without it, does not import it.)"""
    import logging

    log = logging.getLogger("fontTools")
    level = log.level
    log.setLevel(logging.ERROR)
    try:
        yield
    finally:
        log.setLevel(level)


def _sniff(data: bytes) -> str | None:
    """``CFF`` or ``TrueType`` when a /FontFile's bytes are one of those, else ``None``."""
    if data[:4] in (b"\x00\x01\x00\x00", b"true", b"OTTO"):
        return "TrueType"
    if len(data) > 4 and data[0] == 1 and data[2] == 4:
        return "CFF"
    return None


def _pair(ref: Ref | None):
    return (ref.num, ref.gen) if ref is not None else None


def _bad(font, message: str) -> Diagnostic:
    return warning("font-program-unreadable", message, ref=_pair(font.program_ref), clause="9.9")


def _damaged(font, message: str) -> Diagnostic:
    return warning("font-table-damaged", message, ref=_pair(font.program_ref), clause="9.9")


def _type1(font, kind, data: bytes, diags) -> FontProgram:
    from .type1 import read_type1

    program = read_type1(data)
    blank = frozenset(gid for gid, name in enumerate(program.glyph_names) if name in program.blank)
    return FontProgram(kind, font.program_key, font.program_ref, program.encoding, program.glyph_names,
                       diagnostics=tuple(diags), blank=blank)


def _sfnt(font, kind, data: bytes, diags) -> FontProgram:
    from fontTools.ttLib import TTFont

    with quiet_fonttools():
        tt = TTFont(io.BytesIO(bytes(data)), lazy=True, checkChecksums=0)
        names: tuple[str, ...] = ()
        try:
            if "post" in tt and tt["post"].formatType in (1.0, 2.0):
                names = tuple(tt.getGlyphOrder())
            elif "CFF " in tt:
                names = tuple(tt["CFF "].cff[0].charset)
        except Exception as e:  # a broken post table should not lose the cmap
            diags.append(_bad(font, f"glyph names unreadable: {type(e).__name__}: {e}"))
        order = sfnt_order(tt)
        try:
            mended = mend_sfnt(tt)
        except Exception as e:  # a loca fontTools cannot read: the outlines are lost, not the cmap
            mended = []
            diags.append(_bad(font, f"head, loca or glyf unreadable: {type(e).__name__}: {e}"))
        if mended:
            diags.append(_damaged(font, "; ".join(mended)))
        try:
            blank = blank_cff(tt["CFF "].cff[0]) if "CFF " in tt else blank_sfnt(tt)
        except Exception:  # fontTools raises many kinds on damaged tables: then nothing is known blank
            blank = frozenset()
        tables: dict[tuple[int, int], dict[int, int]] = {}
        index = {n: i for i, n in enumerate(order)}
        try:
            subtables = tt["cmap"].tables if "cmap" in tt else []
        except Exception as e:  # its header cut: the glyph names and outlines are still there
            subtables = []
            diags.append(_damaged(font, f"cmap table cannot be read, left out: {type(e).__name__}: {e}"))
        for sub in subtables:
            key = (sub.platformID, sub.platEncID)
            try:
                mapping = sub.cmap
            except Exception as e:  # a cut subtable: the others still map
                diags.append(_damaged(font, f"cmap subtable {key} cannot be read, left out: {type(e).__name__}: {e}"))
                continue
            if key not in tables and mapping:
                tables[key] = {c: index.get(g, 0) for c, g in mapping.items()}
        unicode_of_gid: dict[int, str] = {}
        for key in UNICODE_SUBTABLES:
            for code, gid in sorted(tables.get(key, {}).items()):
                if gid and gid not in unicode_of_gid:
                    unicode_of_gid[gid] = chr(code)
        return FontProgram(kind, font.program_key, font.program_ref, {}, names, tables, unicode_of_gid,
                           diagnostics=tuple(diags), blank=blank)


def cff_top(data: bytes):
    """The top DICT of a bare CFF program (its first font), as fontTools reads it; a top DICT
    without a ``charset`` has the ISOAdobe charset, offset 0 (CFF spec, table 10: its default),
    which fontTools leaves unset."""
    from fontTools.cffLib import CFFFontSet

    cff = CFFFontSet()
    cff.decompile(io.BytesIO(bytes(data)), None)
    top = cff[cff.fontNames[0]]
    top.rawDict.setdefault("charset", 0)
    return top


def _cff(font, kind, data: bytes, diags) -> FontProgram:
    with quiet_fonttools():
        top = cff_top(data)
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
        ros = (str(top.ROS[0]), str(top.ROS[1])) if hasattr(top, "ROS") else None
        try:
            blank = blank_cff(top)
        except Exception:  # fontTools raises many kinds on damaged charstrings: then nothing is known blank
            blank = frozenset()
        return FontProgram(kind, font.program_key, font.program_ref, builtin, charset,
                           cid_to_gid=cid_to_gid, diagnostics=tuple(diags), ros=ros, blank=blank)


MAX_BLANK_CHARSTRING = 12  # bytes of a Type 2 charstring read for blankness: a width and endchar fit
# Type 2 operators that draw nothing (hints, and endchar without the four numbers of an accent)
_QUIET_T2 = frozenset({"hstem", "vstem", "hstemhm", "vstemhm", "endchar"})


HEAD_SIZE = 54  # bytes of a head table (OpenType spec, head, version 1.0)
MAX_GLYPHS = 65536  # glyph ids a TrueType program can have


def sfnt_order(tt) -> tuple[str, ...]:
    """The program's glyph names by GID (``post``, else fontTools' names from the cmap); where those
    tables cannot be read (a ``post`` of an unknown format, a cut cmap subtable) ``glyph00001``… by
    GID, set as the font's order so that its other tables (``glyf``, the cmap) can be read by it."""
    try:
        return tuple(tt.getGlyphOrder())
    except Exception:  # fontTools raises many kinds on a damaged post or cmap
        count = tt["maxp"].numGlyphs if "maxp" in tt else 0
        order = [".notdef", *(f"glyph{gid:05d}" for gid in range(1, min(count, MAX_GLYPHS)))]
        tt.setGlyphOrder(order)
        return tuple(order)


def mend_sfnt(tt) -> list[str]:
    """Make the tables outlines are drawn from readable where fontTools refuses them, as pdf.js
    reads them: a ``head`` longer than its 54 bytes (fontTools allows two zero bytes more) is read
    as its first 54, a damaged ``loca`` as :func:`_mend_glyf` reads it. A sentence per table mended."""
    notes = []
    if "head" in tt and len(raw := tt.reader["head"]) > HEAD_SIZE and raw[HEAD_SIZE:] != b"\0\0":
        from fontTools.ttLib import newTable

        head = newTable("head")
        head.decompile(raw[:HEAD_SIZE], tt)
        tt.tables["head"] = head
        notes.append(f"head table of {len(raw)} bytes, read as its first {HEAD_SIZE}")
    if glyphs := _mend_glyf(tt):
        notes.append(f"glyf table of {len(tt.reader['glyf']):,} bytes: " + "; ".join(glyphs))
    return notes


def _mend_glyf(tt) -> list[str]:
    """Make a ``glyf`` table whose ``loca`` fontTools refuses readable, as pdf.js reads it
    (``sanitizeGlyphLocations``): an offset of 0 after the first marks a missing glyph (the glyph after
    it starts where the one before ended); a glyph that ends within the four bytes of padding the
    producer left out of the table's length (Aspose) is read to the table's end; a glyph that ends
    farther, or before it starts, is left empty. The table and ``loca`` are rebuilt in place. One
    sentence per way of mending, naming the first glyph so mended; none, and nothing touched, for a
    sound table or a program without ``glyf``."""
    if "loca" not in tt or "glyf" not in tt:
        return []
    data = tt.reader["glyf"]
    size = len(data)
    locations = [int(x) for x in tt["loca"].locations]
    if all(a <= b <= size for a, b in zip(locations, locations[1:])):
        return []
    from fontTools.ttLib import newTable

    pieces: list[bytes] = []
    mended: dict[str, list[str]] = {"marked missing by an offset of 0": [], "read to its end": [],
                                    "outside it, left empty": []}  # how → the glyphs so mended
    start = locations[0] if locations else 0
    for gid, end in enumerate(locations[1:]):
        if end == 0 and start:
            mended["marked missing by an offset of 0"].append(f"glyph {gid}")
            end = start
        if size < end == (size + 3) & ~3 and start <= size:
            mended["read to its end"].append(f"glyph {gid} ending {end - size} bytes past it (padding)")
            end = size
        if end > size or start > end:
            mended["outside it, left empty"].append(f"glyph {gid} at {start:,}–{end:,}")
            pieces.append(b"")
        else:
            pieces.append(data[start:end])
        start = end
    notes = [f"{glyphs[0]}{f' and {len(glyphs) - 1:,} more' if len(glyphs) > 1 else ''} {how}"
             for how, glyphs in mended.items() if glyphs]
    offsets = [0]
    for piece in pieces:
        offsets.append(offsets[-1] + len(piece))
    tt["loca"].locations = offsets
    glyf = newTable("glyf")
    glyf.decompile(b"".join(pieces), tt)
    tt.tables["glyf"] = glyf
    return notes


def blank_sfnt(tt) -> frozenset[int]:
    """The GIDs of a TrueType program whose ``glyf`` data is empty (``loca`` gives the same
    offset twice: no contour; 5.3 of the TrueType spec), ``frozenset()`` without those tables."""
    if "loca" not in tt or "glyf" not in tt:
        return frozenset()
    loca = tt["loca"].locations
    return frozenset(gid for gid in range(len(loca) - 1) if loca[gid] == loca[gid + 1])


def blank_cff(top) -> frozenset[int]:
    """The GIDs of a CFF font whose charstring is at most a width, hints and ``endchar`` (the
    Type 2 charstring format, 4): only the short ones are decompiled."""
    index = top.CharStrings.charStringsIndex
    offsets = getattr(index, "offsets", None)
    if not offsets:
        return frozenset()
    out = set()
    for gid in range(len(offsets) - 1):
        if offsets[gid + 1] - offsets[gid] > MAX_BLANK_CHARSTRING:
            continue
        cs = index[gid]
        cs.decompile()
        ops = [i for i, x in enumerate(cs.program) if isinstance(x, str)]
        if ops and all(cs.program[i] in _QUIET_T2 for i in ops) and cs.program[ops[-1]] == "endchar" \
                and ops[-1] - (ops[-2] + 1 if len(ops) > 1 else 0) <= 1:
            out.add(gid)
    return frozenset(out)
