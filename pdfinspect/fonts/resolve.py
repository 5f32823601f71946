"""Glyph code → Unicode, with the whole path of steps that led there (ISO 32000-1 9.10.2).

Every method is tried for every code, in the spec's order and then the fallbacks real
extractors use:

1. ``ToUnicode``: the font's /ToUnicode CMap (9.10.3);
2. ``Encoding``: simple fonts — code → glyph name (/Differences over the base encoding,
   9.6.6) → Adobe Glyph List (``fontTools.agl``);
3. ``CIDCollection``: Type0 fonts — code → CID (the CMap) → ``Registry-Ordering-UCS2``
   for the public collections Adobe-GB1/CNS1/Japan1/Korea1;
4. ``FontProgram``: the embedded program — a Type1/CFF built-in encoding, TrueType
   ``cmap`` subtables, ``post`` names, CFF charsets, ``/CIDToGIDMap``.

The first method that yields text wins; every other method that yields different text is
a conflict. Each step names the object it read, so a user can go there. Results are
cached per (font, code): a page resolves each distinct code of a font once.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from ..core.objects import Ref
from .agl import glyph_to_unicode, is_meaningless
from .embedded import FontProgram, load_program
from .font import PUBLIC_COLLECTIONS, Font

TOUNICODE, ENCODING, CID_COLLECTION, FONT_PROGRAM = "ToUnicode", "Encoding", "CIDCollection", "FontProgram"
ACTUAL_TEXT, NONE = "ActualText", "None"
METHODS = (TOUNICODE, ENCODING, CID_COLLECTION, FONT_PROGRAM, ACTUAL_TEXT, NONE)
HIT, MISS, SKIPPED = "hit", "miss", "skipped"

# Glyph names of TeX fonts (Computer Modern, Latin Modern, AMS) that the AGL lacks, from
# lcdf-typetools' texglyphlist.txt, the list MuPDF and dvipdfmx read too. Only names met
# in real files (pdflatex-cm-builtin-notounicode.pdf, latex-dvips-pk300-type3.pdf).
TEX_GLYPH_NAMES = {
    "rho1": "\u03f1", "epsilon1": "\u03f5", "planckover2pi": "\u210f", "planckover2pi1": "\u210f",
    "negationslash": "\u0338", "visiblespace": "\u2423", "contintegral": "\u222e",
    "angbracketleft": "\u27e8", "angbracketright": "\u27e9", "mapsto": "\u21a6",
}
# Size variants of TeX math extension glyphs (cmex10): ``parenleftBig``, ``summationdisplay``…
_TEX_SIZE = re.compile(r"(.+?)(?:bigg|Bigg|big|Big|display|text)")


@dataclass(frozen=True, slots=True)
class PathStep:
    """One step of a resolution: ``source`` read, what was ``looked_up``, the ``result``
    (hit / miss / skipped) and ``detail`` saying what was found or why not."""

    method: str
    source: Ref | None
    source_desc: str
    looked_up: str
    result: str
    detail: str
    unicode: str | None = None

    def __str__(self) -> str:
        where = f" ({self.source})" if self.source is not None else ""
        return f"{self.method}: {self.source_desc}{where}: {self.looked_up} → {self.result}: {self.detail}"


@dataclass(frozen=True, slots=True)
class Conflict:
    """Another method's different answer."""

    method: str
    unicode: str


@dataclass(frozen=True, slots=True)
class Resolution:
    code: bytes
    unicode: str
    method: str
    cid: int | None
    gid: int | None
    glyph_name: str | None
    path: tuple[PathStep, ...]
    conflicts: tuple[Conflict, ...]
    flags: tuple[str, ...]


def format_unicode(text: str) -> str:
    """``U+03BA κ`` style; several code points joined by spaces; ``—`` for none."""
    if not text:
        return "—"
    points = " ".join(f"U+{ord(c):04X}" for c in text)
    return f"{points} {text}" if all(unicodedata.category(c)[0] != "C" for c in text) else points


def text_flags(text: str) -> list[str]:
    """Flags for suspicious results: private use, U+FFFD, control characters."""
    flags = []
    if any(0xE000 <= ord(c) <= 0xF8FF or ord(c) >= 0xF0000 for c in text):
        flags.append("private-use")
    if "\ufffd" in text:
        flags.append("replacement-character")
    if any(unicodedata.category(c) == "Cc" for c in text):
        flags.append("control-character")
    return flags


class Resolver:
    """Resolves codes for the fonts of one document, caching per (font, code)."""

    def __init__(self, doc):
        self.doc = doc
        self._cache: dict[tuple[Font, bytes], Resolution] = {}
        self._programs: dict[Font, FontProgram | None] = {}

    def program(self, font: Font) -> FontProgram | None:
        if font not in self._programs:
            self._programs[font] = load_program(self.doc, font)
        return self._programs[font]

    def resolve(self, font: Font, code: bytes, cid: int | None = None) -> Resolution:
        key = (font, code)
        hit = self._cache.get(key)
        if hit is None:
            hit = self._cache[key] = self._resolve(font, code, cid)
        return hit

    def _resolve(self, font: Font, code: bytes, cid: int | None) -> Resolution:
        flags: list[str] = []
        if font.is_type0 and cid is None:
            cid = font.cid(code)
        tu = _tounicode(font, code)
        enc, name = _encoding(font, code, flags)
        coll = _collection(font, code, cid)
        prog, gid, prog_name = self._program_step(font, code, cid, name, flags)
        path = (tu, enc, coll, prog)
        winner = next((s for s in path if s.result == HIT), None)
        text = winner.unicode if winner is not None else ""
        method = winner.method if winner is not None else NONE
        conflicts = tuple(Conflict(s.method, s.unicode) for s in path
                          if s.result == HIT and s is not winner and s.unicode != text)
        if winner is None:
            flags.append("unresolved")
        elif font.tounicode is not None and tu.result == MISS and _code_as_text(code) != text:
            as_code = int.from_bytes(code, "big")
            flags.append(f"ToUnicode {font.tounicode_ref or ''} has no entry for <{code.hex()}>: a "
                         f"ToUnicode-only extractor yields U+{as_code:04X} instead of {format_unicode(text)}")
        if conflicts:
            flags.append("methods-disagree")
        flags.extend(text_flags(text))
        return Resolution(code, text, method, cid, gid, name or prog_name, path, conflicts, tuple(flags))

    # -- 4. the embedded program -------------------------------------------------------------
    def _program_step(self, font: Font, code: bytes, cid: int | None, enc_name: str | None, flags: list):
        """The FontProgram step, plus the GID and glyph name it found."""
        if font.subtype == "Type3":
            name = font.glyph_name(code[0]) if code else None
            proc = font.charprocs.get(name or "")
            return (_step(FONT_PROGRAM, font.ref, "Type3 /CharProcs", f"/{name}", SKIPPED,
                          f"glyph procedure {proc or '(none)'}; procedures draw shapes, they carry no text"),
                    None, None)
        if not font.embedded:
            why = "standard 14 font, not embedded" if font.standard_name else "no font program embedded"
            return _step(FONT_PROGRAM, font.descriptor_ref, "FontDescriptor", "font program", SKIPPED, why), None, None
        prog = self.program(font)
        desc = f"FontDescriptor {font.descriptor_ref} → {prog.describe}" if font.descriptor_ref else prog.describe
        if prog.diagnostics and not prog.glyph_names and not prog.cmaps:
            return _step(FONT_PROGRAM, prog.ref, desc, "font program", MISS, prog.diagnostics[0].message), None, None
        if font.is_type0:
            return self._cid_program(font, prog, desc, cid, flags)
        kind = prog.kind
        if kind in ("Type1", "Type1C") or (kind == "OpenType" and prog.builtin_encoding):
            if enc_name:
                gid = prog.gid_of_name(enc_name)
                detail = f"has glyph /{enc_name} as GID {gid}" if gid is not None else \
                    f"has no glyph /{enc_name}: the glyph drawn is .notdef"
                return _step(FONT_PROGRAM, prog.ref, desc, f"/{enc_name}", SKIPPED,
                             f"glyph chosen by /Encoding; program {detail}"), gid, None
            name = prog.builtin_encoding.get(code[0]) if code else None
            looked = f"code 0x{code.hex().upper()} in built-in encoding"
            if name is None:
                return _step(FONT_PROGRAM, prog.ref, desc, looked, MISS, "code not in built-in encoding"), None, None
            step = _name_step(FONT_PROGRAM, prog.ref, desc, looked, name, font, flags)
            return step, prog.gid_of_name(name), name
        return self._sfnt_program(font, prog, desc, code, enc_name, flags)

    def _sfnt_program(self, font: Font, prog: FontProgram, desc: str, code: bytes, enc_name: str | None,
                      flags: list):
        """Simple TrueType (9.6.6.4): code → GID through cmap subtables, GID → Unicode."""
        c = code[0] if code else 0
        gid = table = None
        if enc_name and (3, 1) in prog.cmaps:
            u = glyph_to_unicode(enc_name).unicode
            if len(u) == 1 and ord(u) in prog.cmaps[(3, 1)]:
                gid, table = prog.cmaps[(3, 1)][ord(u)], f"(3,1) cmap via /{enc_name}"
        if gid is None and enc_name and prog.gid_of_name(enc_name) is not None:
            gid, table = prog.gid_of_name(enc_name), f"post name /{enc_name}"
        if gid is None:
            for key, candidates in (((3, 0), (c, 0xF000 + c, 0xF100 + c, 0xF200 + c)), ((1, 0), (c,)),
                                    ((3, 1), (c,))):
                sub = prog.cmaps.get(key)
                found = next((x for x in candidates if sub and x in sub), None)
                if found is not None:
                    gid, table = sub[found], f"({key[0]},{key[1]}) cmap code 0x{found:X}"
                    break
        looked = f"code 0x{c:02X}"
        if gid is None:
            return _step(FONT_PROGRAM, prog.ref, desc, looked, MISS, "no cmap subtable maps the code"), None, None
        return self._gid_to_text(font, prog, desc, f"{looked} → {table} → GID {gid}", gid, flags)

    def _cid_program(self, font: Font, prog: FontProgram, desc: str, cid: int | None, flags: list):
        if cid is None:
            return _step(FONT_PROGRAM, prog.ref, desc, "CID", SKIPPED, "code has no CID"), None, None
        cf = font.cid_font
        if prog.cid_to_gid:
            gid, how = prog.cid_to_gid.get(cid), "CFF charset"
        elif isinstance(cf.cid_to_gid, bytes):
            b = cf.cid_to_gid[2 * cid:2 * cid + 2]
            gid, how = (int.from_bytes(b, "big") if len(b) == 2 else None), f"/CIDToGIDMap {cf.cid_to_gid_ref}"
        else:
            gid, how = cid, "/CIDToGIDMap /Identity" if cf.cid_to_gid else "CID = GID (no /CIDToGIDMap)"
        looked = f"CID {cid} → {how} → GID {gid}"
        if gid is None:
            return _step(FONT_PROGRAM, prog.ref, desc, looked, MISS, "CID not in the program"), None, None
        return self._gid_to_text(font, prog, desc, looked, gid, flags)

    def _gid_to_text(self, font: Font, prog: FontProgram, desc: str, looked: str, gid: int, flags: list):
        text = prog.unicode_of_gid.get(gid)
        name = prog.name_of_gid(gid)
        if text is not None:
            return _step(FONT_PROGRAM, prog.ref, desc, looked, HIT,
                         f"Unicode cmap maps {format_unicode(text)} to this GID", text), gid, name
        if name:
            return _name_step(FONT_PROGRAM, prog.ref, desc, f"{looked} → glyph name", name, font, flags), gid, name
        return _step(FONT_PROGRAM, prog.ref, desc, looked, MISS,
                     "no Unicode cmap entry and no glyph name for this GID"), gid, None


def _code_as_text(code: bytes) -> str:
    """What an extractor that trusts only ToUnicode makes of an unmapped code."""
    n = int.from_bytes(code, "big")
    return chr(n) if n < 0x110000 else ""


def _step(method, source, source_desc, looked_up, result, detail, unicode=None) -> PathStep:
    return PathStep(method, source, source_desc, looked_up, result, detail, unicode)


def _name_step(method, source, desc, looked, name: str, font: Font, flags: list) -> PathStep:
    """A glyph name → AGL step (9.10.2 step 2; AGL specification)."""
    if is_meaningless(name):
        flags.append(f"meaningless glyph name /{name}")
        return _step(method, source, desc, f"{looked} → /{name}", MISS, "glyph name carries no meaning")
    res = glyph_to_unicode(name, zapf_dingbats=font.base_font.endswith("ZapfDingbats"))
    if not res.unicode:
        tex = _tex_name(name)
        if tex:
            return _step(method, source, desc, f"{looked} → /{name}", HIT,
                         f"not in the AGL; TeX glyph list → {format_unicode(tex)}", tex)
        return _step(method, source, desc, f"{looked} → /{name}", MISS, f"AGL: {res.detail}")
    return _step(method, source, desc, f"{looked} → /{name}", HIT,
                 f"AGL ({res.rule}) → {format_unicode(res.unicode)}", res.unicode)


def _tex_name(name: str) -> str:
    if name in TEX_GLYPH_NAMES:
        return TEX_GLYPH_NAMES[name]
    m = _TEX_SIZE.fullmatch(name)
    if m is None:
        return ""
    return TEX_GLYPH_NAMES.get(m.group(1)) or glyph_to_unicode(m.group(1)).unicode


# -- 1. ToUnicode ------------------------------------------------------------------------------
def _tounicode(font: Font, code: bytes) -> PathStep:
    looked = f"code <{code.hex()}>"
    if font.tounicode is None:
        return _step(TOUNICODE, font.ref, "font dictionary", "/ToUnicode", SKIPPED, "no /ToUnicode CMap")
    text, entry = font.tounicode.lookup_unicode(code)
    if text is None:
        return _step(TOUNICODE, font.tounicode_ref, "ToUnicode CMap", looked, MISS, "no entry")
    span = f"<{entry.low.hex()}>" + (f"–<{entry.high.hex()}>" if entry.high != entry.low else "")
    return _step(TOUNICODE, font.tounicode_ref, "ToUnicode CMap", looked, HIT,
                 f"{entry.kind} {span} (line {entry.line}) → {format_unicode(text)}", text)


# -- 2. Encoding ---------------------------------------------------------------------------------
def _encoding(font: Font, code: bytes, flags: list) -> tuple[PathStep, str | None]:
    if font.is_type0:
        return _step(ENCODING, font.ref, "Type0 font", "/Encoding", SKIPPED,
                     "codes select CIDs through the CMap, not glyph names"), None
    c = code[0] if code else 0
    source = font.encoding_ref or font.ref
    looked = f"code 0x{c:02X}"
    if c in font.differences:
        name, desc = font.differences[c], "/Encoding /Differences"
    elif font.encoding_base is not None:
        name, desc = font.glyph_name(c), f"{font.encoding_base} ({font.encoding_base_source})"
    else:
        return _step(ENCODING, source, "font dictionary", looked, SKIPPED, font.encoding_base_source), None
    if name is None or name == ".notdef":
        return _step(ENCODING, source, desc, looked, MISS, "code not encoded"), None
    return _name_step(ENCODING, source, desc, looked, name, font, flags), name


# -- 3. CID collection ------------------------------------------------------------------------------
def _collection(font: Font, code: bytes, cid: int | None) -> PathStep:
    if not font.is_type0:
        return _step(CID_COLLECTION, font.ref, "simple font", "CID", SKIPPED, "only Type0 fonts have CIDs")
    cf = font.cid_font
    cmap_desc = f"CMap {font.encoding_desc}"
    if cid is None:
        return _step(CID_COLLECTION, font.encoding_ref or font.ref, cmap_desc, f"code <{code.hex()}>",
                     MISS, "code maps to no CID")
    registry, ordering = cf.registry, cf.ordering
    coll = f"{registry}-{ordering}"
    looked = f"code <{code.hex()}> → CID {cid}"
    if (registry, ordering) not in PUBLIC_COLLECTIONS:
        return _step(CID_COLLECTION, cf.ref, f"CIDSystemInfo {coll}", looked, SKIPPED,
                     f"{coll} is not a public character collection: CIDs carry no meaning")
    from .predefined import cid_to_unicode, ucs2_source_name

    table = cid_to_unicode(registry, ordering, font.vertical)
    ucs2 = ucs2_source_name(registry, ordering)
    text = table(cid) if table is not None else None
    if not text:
        return _step(CID_COLLECTION, cf.ref, f"CIDSystemInfo {coll}", looked, MISS, f"CID not in {ucs2}")
    return _step(CID_COLLECTION, cf.ref, f"CIDSystemInfo {coll}", looked, HIT,
                 f"{ucs2} → {format_unicode(text)}", text)

