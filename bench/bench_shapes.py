"""Shapes vote against known answers (issue 19): how many characters of fonts stripped of every
mapping the vote recovers, how often it is wrong, and whether shifted ToUnicode tables are caught.

    python bench/bench_shapes.py [DIR ...] [--limit N] [--work DIR]

From the PDFs in the folders (default ../shared/corpus-pdfjs and ../shared/corpus) it takes the
fonts page 1 draws whose mapping is clean (a ToUnicode, no reason in the `fonts` report) in two sets:

- *type0*: Type0 fonts over an embedded TrueType or CID-keyed CFF CIDFont of a non-public collection
  (the CFF's meaningless cid00042 names are no reason to leave one out);
- *simple*: Type1 fonts over a Type 1 (/FontFile) or CFF (/FontFile3 /Type1C) program and TrueType
  fonts (/FontFile2), their program drawn by no other font of the page.

It writes two copies of the file (pikepdf, fontTools):

- *stripped*: every font's ToUnicode removed, the outlines kept. A Type0 TrueType program loses its
  cmap and glyph names (post format 3); nothing maps its codes any more but the shapes, the widths and
  the glyph order (`--keep-cmap` keeps the cmap: only what the issue names is removed). A simple font
  loses its /Encoding and /CharSet and becomes symbolic; its codes draw the same glyphs through the
  program alone: a Type 1 program's glyphs renamed (decrypted, /CharStrings keys renamed, the
  built-in /Encoding rewritten, encrypted again), a CFF's charset renamed and its encoding rewritten,
  the names no name-reading method reads (`zzgh`); a TrueType program without glyph names, its codes
  selecting their glyphs through a symbolic (3,0) cmap only (`--keep-cmap` keeps the Unicode
  subtables beside it).
- *shifted*: the Type0 fonts' ToUnicode with every destination moved one code point up.

Shapes are learned from every file but the one under test (leave one out), and the stripped copy is
read with them (`Resolver(shapes=…)`); each glyph of page 1 is compared with the original's text.
Every shifted copy should get `tounicode_shifted` (read with the same table, and with the document's
own shapes only). Last, the clean fonts of all files are read with
the table learned from all files: none should get `mapping_contradicts_shape` or
`tounicode_shifted`. Prints the figures; writes the copies under --work (default a temp folder).
With --why it says why each glyph not read right is not (:data:`WHY`): the ceiling of issue 19.
"""
from __future__ import annotations

import argparse
import hashlib
import io
import logging
import os
import re
import sys
import tempfile
import unicodedata
from collections import Counter
from collections.abc import Callable
from types import SimpleNamespace
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from pdfinspect.content.fontreports import font_reports  # noqa: E402
from pdfinspect.content.textlayout import page_glyphs  # noqa: E402
from pdfinspect.core.document import Document  # noqa: E402
from pdfinspect.fonts.font import PUBLIC_COLLECTIONS  # noqa: E402
from pdfinspect.fonts.likeness import declined as likeness_declined  # noqa: E402
from pdfinspect.fonts.resolve import Resolver  # noqa: E402
from pdfinspect.fonts.shapevote import EMPTY, ShapeTable, learn, letter_key  # noqa: E402


Drawn = dict[int, tuple[int | None, str | None]]  # a simple font's code → (GID, glyph name) it draws
SIMPLE_PROGRAMS = {("Type1", "FontFile"), ("MMType1", "FontFile"), ("Type1", "FontFile3"), ("MMType1", "FontFile3"),
                   ("TrueType", "FontFile2")}


def candidates(path: Path) -> tuple[list[int], dict[int, tuple[Drawn, frozenset[str]]], dict[str, str]]:
    """The clean fonts with a ToUnicode drawn on page 1: the Type0 fonts' object numbers, the simple
    fonts' (object number → the glyphs its codes draw, its resource names), and the resource names
    with the set each belongs to, ``type0`` or ``simple`` (the copies are matched by name: pikepdf
    renumbers the objects it writes)."""
    try:
        doc = Document.open(path)
        if doc.page_count() == 0:
            return [], {}, {}
        resolver = Resolver(doc)
        reports = font_reports(doc, [1], resolver)
    except Exception:
        return [], {}, {}
    type0: list[int] = []
    simple: dict[int, tuple[Drawn, frozenset[str]]] = {}
    names: dict[str, str] = {}
    for rep in reports:
        f = rep.font
        if f.tounicode is None or f.ref is None or rep.codes < 3:
            continue
        reasons = {r.id for r in rep.reasons}
        if not f.is_type0:
            if (f.subtype, f.program_key) not in SIMPLE_PROGRAMS or reasons or \
                    (f.program_key == "FontFile3" and f.program_subtype != "Type1C"):
                continue
            drawn = glyphs_drawn(f, resolver)
            if drawn:
                simple[f.ref.num] = drawn, frozenset(rep.names)
                names.update((n, "simple") for n in rep.names)
            continue
        if f.cid_font is None or (f.cid_font.registry, f.cid_font.ordering) in PUBLIC_COLLECTIONS:
            continue  # the CID collection maps it by the spec: stripping would leave text behind
        truetype = f.cid_font.subtype == "CIDFontType2" and f.program_key == "FontFile2" and not reasons
        # CID-keyed CFF: its charset names are cid00042 (numeric names, no meaning) and stay
        cid_cff = f.cid_font.subtype == "CIDFontType0" and f.program_key == "FontFile3" \
            and reasons <= {"numeric_glyph_names"}
        if truetype or cid_cff:
            type0.append(f.ref.num)
            names.update((n, "type0") for n in rep.names)
    # a program is renamed for the font that draws with it: one another font of the page shares stays
    users: dict[object, int] = {}
    for rep in reports:
        if rep.font.program_ref is not None:
            users[rep.font.program_ref] = users.get(rep.font.program_ref, 0) + 1
    for rep in reports:
        f = rep.font
        if f.ref is not None and f.ref.num in simple and users[f.program_ref] > 1:
            del simple[f.ref.num]
            for n in rep.names:
                names.pop(n, None)
    return type0, simple, names


def glyphs_drawn(font, resolver: Resolver) -> Drawn:
    """Code → (GID, glyph name) of the glyph each code of a simple font's /Widths draws in its
    program, by the spec's route (/Encoding, the built-in encoding, the TrueType cmap); codes that
    draw no glyph of the program are left out."""
    program = resolver.program(font)
    if program is None or program.diagnostics:
        return {}
    out: Drawn = {}
    for i, width in enumerate(font.widths):
        code = font.first_char + i
        if not width or not 0 <= code <= 255:
            continue
        res = resolver.judged(font, bytes([code]))
        if font.subtype == "TrueType":
            if res.gid:
                out[code] = (res.gid, None)
        elif res.glyph_name and res.glyph_name != ".notdef" and program.gid_of_name(res.glyph_name) is not None:
            out[code] = (None, res.glyph_name)
    return out


def strip_program(data: bytes, keep_cmap: bool = False) -> bytes:
    from fontTools.ttLib import TTFont

    tt = TTFont(io.BytesIO(data))
    if "cmap" in tt and not keep_cmap:
        del tt["cmap"]
    if "post" in tt:
        tt["post"].formatType = 3.0
    out = io.BytesIO()
    tt.save(out)
    return out.getvalue()


def shift_cmap(data: bytes) -> bytes:
    """Every destination of bfchar/bfrange one code point up: the second string of each bfchar pair,
    the third of each bfrange triple (each string of a destination array); each code point of it,
    a surrogate pair's (U+1D44E, U+1F334) and each of a ligature's letters too, unless the moved
    one would be a surrogate or past U+10FFFF (then the string stays as it is)."""
    def bump(token: bytes) -> bytes:
        m = re.fullmatch(rb"<([0-9A-Fa-f\s]*)>", token)
        digits = re.sub(rb"\s", b"", m.group(1)) if m is not None else b""
        if not digits or len(digits) % 4:
            return token
        try:
            text = bytes.fromhex(digits.decode()).decode("utf-16-be")
        except UnicodeDecodeError:
            return token
        if any(0xD7FF <= ord(c) <= 0xDFFF or ord(c) >= 0x10FFFF for c in text):
            return token
        return b"<" + "".join(chr(ord(c) + 1) for c in text).encode("utf-16-be").hex().upper().encode() + b">"

    def block(m: re.Match) -> bytes:
        kind, body = m.group(1), m.group(2)
        tokens = re.findall(rb"<[0-9A-Fa-f\s]*>|\[[^\]]*\]", body)
        out, step = [], 2 if kind == b"char" else 3
        for i, tok in enumerate(tokens):
            if i % step == step - 1:
                tok = re.sub(rb"<[0-9A-Fa-f\s]*>", lambda t: bump(t.group(0)), tok) if tok.startswith(b"[") \
                    else bump(tok)
            out.append(tok)
        lines = [b" ".join(out[i:i + step]) for i in range(0, len(out), step)]
        return b"beginbf" + kind + b"\n" + b"\n".join(lines) + b"\nendbf" + kind

    return re.sub(rb"beginbf(char|range)(.*?)endbf(?:char|range)", block, data, flags=re.S)


def blank_name(i: int) -> str:
    """The ``i``-th glyph name that says nothing: ``zz`` and letters that are no hexadecimal digits
    (no numeric-name reading, no AGL name, no TeX name)."""
    letters, out = "ghjkmnpqrstvwxyz", ""
    while True:
        out = letters[i % 16] + out
        i //= 16
        if not i:
            return "zz" + out


def _seac_parts(program: list) -> tuple[str, ...]:
    """The StandardEncoding names an accented glyph's ``seac`` (Type 1) or four-argument ``endchar``
    (CFF) takes its base and accent from: they are found by those names, which must stay."""
    from fontTools.encodings.StandardEncoding import StandardEncoding

    for i, op in enumerate(program):
        if op == "seac" or (op == "endchar" and i >= 4 and all(isinstance(x, (int, float)) for x in program[i - 4:i])):
            return StandardEncoding[int(program[i - 2])], StandardEncoding[int(program[i - 1])]
    return ()


def eexec_encrypt(plain: bytes) -> bytes:
    """eexec encryption (Type 1 spec 7.1) behind four lead bytes chosen so that the cipher does not
    start with four hexadecimal digits (a reader would take it for the hexadecimal form)."""
    from pdfinspect.fonts.type1 import C1, C2, EEXEC_KEY

    for lead in range(256):
        r, out = EEXEC_KEY, bytearray()
        for p in bytes([lead, 0, 0, 0]) + plain:
            c = p ^ (r >> 8)
            r = ((c + r) * C1 + C2) & 0xFFFF
            out.append(c)
        if not all(chr(b) in "0123456789abcdefABCDEF" for b in out[:4]) and out[0] not in b" \t\r\n":
            return bytes(out)
    raise ValueError("no lead bytes give a binary eexec section")


def rename_type1(data: bytes, drawn: dict[int, str]) -> tuple[bytes, int, int, int]:
    """A Type 1 program whose glyphs (all but .notdef) are renamed by :func:`blank_name`, its built-in
    encoding naming ``drawn``'s glyphs (code → old name) by their new names; the glyphs an accented
    glyph's ``seac`` takes by their StandardEncoding names are also kept under those (no code selects
    them). Returns the program and its /Length1, /Length2, /Length3."""
    from fontTools.t1Lib import T1Font

    from pdfinspect.fonts import type1 as t1

    data = t1._unwrap_pfb(data)
    font = T1Font.__new__(T1Font)
    font.data, font.encoding = data, "ascii"
    parts: set[str] = set()
    try:
        font.parse()
        for glyph in font.font["CharStrings"].values():
            glyph.decompile()
            parts.update(_seac_parts(glyph.program))
    except Exception:  # a program fontTools cannot parse has no outlines to keep whole either
        pass
    m = t1._EEXEC.search(data)
    if m is None:
        raise ValueError("no eexec section")
    clear, private = data[:m.end()], t1.decrypt(data[m.end():])
    close = private.find(b"closefile")
    if close < 0:
        raise ValueError("no closefile")
    private = private[:close + len(b"closefile")] + b"\n"
    head = t1._CHARSTRINGS.search(private)
    if head is None:
        raise ValueError("no /CharStrings")
    renamed: dict[str, str] = {}
    out, pos, kept = [private[:head.end()]], head.end(), 0
    while (e := t1._ENTRY.match(private, pos)) is not None:
        end = e.end() + int(e.group(2))
        tail = t1._ENTRY_END.match(private, end)
        end = tail.end() if tail is not None else end
        name = e.group(1).decode("latin-1")
        new = renamed.setdefault(name, name if name == ".notdef" else blank_name(len(renamed)))
        chunk = private[e.start():end]
        out.append(chunk[:e.start(1) - e.start()] + new.encode() + chunk[e.end(1) - e.start():])
        if name in parts and new != name:
            out.append(chunk)
            kept += 1
        pos = end
    out.append(private[pos:])
    private = b"".join(out)
    count = re.search(rb"/CharStrings\s+(\d+)", private)
    if count is not None:
        private = private[:count.start(1)] + str(int(count.group(1)) + kept).encode() + private[count.end(1):]
    encoding = b"/Encoding 256 array\n0 1 255 {1 index exch /.notdef put} for\n" + b"".join(
        b"dup %d /%s put\n" % (code, renamed[name].encode()) for code, name in sorted(drawn.items())
        if name in renamed) + b"readonly def"
    std = t1._STANDARD.search(clear)
    arr = t1._ARRAY.search(clear)
    if std is not None:
        clear = clear[:std.start()] + encoding + clear[std.end():]
    elif arr is not None:
        end = t1._ENCODING_END.search(clear, arr.end())
        if end is None:
            raise ValueError("built-in encoding without its end")
        clear = clear[:arr.start()] + encoding + clear[end.end():]
    else:
        raise ValueError("no built-in encoding in the clear text")
    cipher = eexec_encrypt(private)
    trailer = (b"0" * 64 + b"\n") * 8 + b"cleartomark\n"
    return clear + cipher + trailer, len(clear), len(cipher), len(trailer)


def rename_cff(data: bytes, drawn: dict[int, str]) -> bytes:
    """A CFF program whose charset names (all but .notdef) are :func:`blank_name`'s and whose
    encoding names ``drawn``'s glyphs by their new names (glyphs a four-argument ``endchar`` takes
    by StandardEncoding name are kept under that name too, as in :func:`rename_type1`; a glyph that
    several codes draw is copied, as the encoding gives each glyph one code)."""
    from fontTools.cffLib import CFFFontSet

    cff = CFFFontSet()
    cff.decompile(io.BytesIO(data), None)
    top = cff[cff.fontNames[0]]
    strings = top.CharStrings
    old = list(top.charset)
    parts: set[str] = set()
    for name in old:
        glyph = strings[name]
        glyph.decompile()
        parts.update(_seac_parts(glyph.program))
    renamed = {n: n if n == ".notdef" else blank_name(i) for i, n in enumerate(old)}
    index = {renamed[n]: i for i, n in enumerate(old)}
    charset = [renamed[n] for n in old]
    for name in old:
        if name in parts and renamed[name] != name:
            strings.charStringsIndex.append(strings[name])
            index[name] = len(charset)
            charset.append(name)
    strings.charStrings = index
    top.charset = charset
    encoding = [".notdef"] * 256
    taken: set[str] = set()
    for code, name in sorted(drawn.items()):
        if name not in renamed:
            continue
        new = renamed[name]
        if new in taken:  # a CFF encoding gives a glyph one code: another code draws a copy of it
            strings.charStringsIndex.append(strings[new])
            new = blank_name(len(charset))
            index[new] = len(charset)
            charset.append(new)
        taken.add(new)
        encoding[code] = new
    top.Encoding = encoding
    out = io.BytesIO()
    cff.compile(out, SimpleNamespace(recalcBBoxes=False))  # no TTFont around it: nothing to recompute
    return out.getvalue()


def strip_truetype(data: bytes, drawn: dict[int, int], keep_cmap: bool = False) -> bytes:
    """A simple TrueType program without glyph names (post format 3) whose codes select their glyphs
    through a symbolic (3,0) cmap only (F000 + code → ``drawn``'s GID); ``keep_cmap`` keeps its
    Unicode subtables beside it."""
    from fontTools.ttLib import TTFont, newTable
    from fontTools.ttLib.tables._c_m_a_p import CmapSubtable

    tt = TTFont(io.BytesIO(data))
    order = tt.getGlyphOrder()
    sub = CmapSubtable.newSubtable(4)
    sub.platformID, sub.platEncID, sub.language = 3, 0, 0
    sub.cmap = {0xF000 + code: order[gid] for code, gid in drawn.items() if gid < len(order)}
    kept = [t for t in tt["cmap"].tables if (t.platformID, t.platEncID) not in ((3, 0), (1, 0))] \
        if keep_cmap and "cmap" in tt else []
    if "cmap" not in tt:
        tt["cmap"] = newTable("cmap")
        tt["cmap"].tableVersion = 0
    tt["cmap"].tables = kept + [sub]
    if "post" in tt:
        tt["post"].formatType = 3.0
    out = io.BytesIO()
    tt.save(out)
    return out.getvalue()


def strip_simple(pdf, font, drawn: Drawn, keep_cmap: bool = False) -> None:
    """A simple font stripped: no ToUnicode, no /Encoding, no /CharSet, a symbolic descriptor, and its
    program's glyph names replaced by names that say nothing; the codes draw the same outlines."""
    import pikepdf

    desc = font.FontDescriptor
    if "/FontFile2" in desc:
        desc.FontFile2 = pdf.make_stream(strip_truetype(desc.FontFile2.read_bytes(),
                                                        {c: g for c, (g, _) in drawn.items() if g}, keep_cmap))
    elif "/FontFile3" in desc:
        stream = pdf.make_stream(rename_cff(desc.FontFile3.read_bytes(), {c: n for c, (_, n) in drawn.items() if n}))
        stream.Subtype = pikepdf.Name.Type1C
        desc.FontFile3 = stream
    else:
        program, length1, length2, length3 = rename_type1(desc.FontFile.read_bytes(),
                                                          {c: n for c, (_, n) in drawn.items() if n})
        desc.FontFile = pdf.make_stream(program)
        desc.FontFile.Length1, desc.FontFile.Length2, desc.FontFile.Length3 = length1, length2, length3
    for key in ("/ToUnicode", "/Encoding"):
        if key in font:
            del font[key]
    if "/CharSet" in desc:
        del desc["/CharSet"]
    desc.Flags = (int(desc.get("/Flags", 0)) | 4) & ~32  # symbolic: the program's own encoding applies


def write_copies(path: Path, nums: list[int], simple: dict[int, tuple[Drawn, frozenset[str]]], work: Path,
                 keep_cmap: bool = False) -> tuple[Path, Path, list[str]]:
    """The stripped copy (the Type0 and the simple fonts) and the shifted one (the Type0 fonts), and
    the resource names of the simple fonts left as they were, their program not rewritable (fontTools
    cannot read it: the shapes cannot either)."""
    import pikepdf

    stripped, shifted = work / f"{path.stem}.stripped.pdf", work / f"{path.stem}.shifted.pdf"
    left: list[str] = []
    with pikepdf.open(path) as pdf:
        for num in nums:
            font = pdf.get_object((num, 0))
            del font["/ToUnicode"]
            desc = font.DescendantFonts[0].FontDescriptor
            if "/FontFile2" in desc:
                desc.FontFile2 = pdf.make_stream(strip_program(desc.FontFile2.read_bytes(), keep_cmap))
        for num, (drawn, names) in simple.items():
            try:
                strip_simple(pdf, pdf.get_object((num, 0)), drawn, keep_cmap)
            except Exception as e:  # fontTools raises many kinds on damaged programs
                print(f"  {path.name}: {', '.join(sorted(names))} left out ({type(e).__name__}: {e})", file=sys.stderr)
                left.extend(names)
        pdf.save(stripped)
    with pikepdf.open(path) as pdf:
        for num in nums:
            font = pdf.get_object((num, 0))
            font.ToUnicode = pdf.make_stream(shift_cmap(font.ToUnicode.read_bytes()))
        pdf.save(shifted)
    return stripped, shifted, left


def page_texts(path: Path, names: dict[str, str], resolver_factory) -> list[tuple[str, str, str, str, object]]:
    """(text, winning method, set, why it is unread, (resolver, record)) of each glyph page 1 draws in
    the fonts named (``names``: resource name → the set its font is in); why is "" for a glyph that
    reads; the resolver and the glyph's record are what :func:`why_not` looks into."""
    doc = Document.open(path)
    resolver = resolver_factory(doc)
    return [(r.unicode, r.method + (" by likeness" if r.path and r.path[-1].code == "shape_likeness" else ""),
             names[r.step.gstate.text.font_name], "" if r.unicode else unread(resolver, r), (resolver, r))
            for r in page_glyphs(doc, doc.page_ref(1), resolver, annots=False)
            if r.step.gstate.text.font_name in names]


def unread(resolver: Resolver, record) -> str:
    """Why the shape vote left a glyph unread: its program gives no outline, no other file draws the
    outline (exactly, or nearly with two fonts: the coarse key), the fonts that draw it disagree, the
    vote is for letters alike in several scripts the font mixes, or the outline draws nothing in a
    font of many such glyphs."""
    res, font = record.resolution, record.step.font
    table = resolver.shapes
    shapes = resolver.glyph_shapes()
    fp = shapes.fingerprint(font, res.gid, res.glyph_name, res.code)
    if fp is None or table is None:
        return "no outline (program unreadable, or no glyph for the code)"
    if fp == EMPTY:
        return "draws nothing, in a font of many such glyphs"
    vote = table.vote(fp)
    if vote is None:
        key = shapes.fingerprint(font, res.gid, res.glyph_name, res.code, coarse=True)
        vote = table.vote(key) if key is not None else None
        if vote is None or (vote.fonts < 2 and vote.fonts == vote.total_fonts):
            return "outline in no other file"
    if not vote.clear:
        return "fonts drawing the outline disagree"
    if len({t for t in vote.texts if len(t) == 1}) > 1:
        return "letters alike in several scripts, the font mixes them"
    return "other"


SETS = ("type0", "simple")

# why a stripped glyph is not read right (--why), in the classes of the ceiling of issue 19
ABSENT, UNLIKE, WITHHELD, OTHER = "a", "b", "c", "d"
WHY = {ABSENT: "its character is drawn by no labelled glyph of another file",
       UNLIKE: "its character is known elsewhere, its outline is not (likeness territory)",
       WITHHELD: "its outline is known elsewhere as its character: the vote withheld it or went wrong",
       OTHER: "other"}


MANY_TEXTS = 4  # an outline one file labels with more characters than this teaches none of them


def known_characters(tables: dict[Path, ShapeTable]) -> tuple[dict[Path, Counter], Counter]:
    """The characters (letter keys) each file's table labels some outline with, each with the fonts
    that draw it (counted once per outline they draw it with), and those summed over the files. An
    outline a file labels with more than :data:`MANY_TEXTS` characters counts for none (a font whose
    ToUnicode gives 3,848 characters to one box outline knows none of them)."""
    per: dict[Path, Counter] = {}
    for p, table in tables.items():
        fonts: Counter = Counter()
        for fp, texts in table.entries.items():
            if fp[:1] not in ("~", "=") and len({letter_key(t) for t in texts}) <= MANY_TEXTS:  # exact keys
                for t, (n, _) in texts.items():
                    fonts[letter_key(t)] += n
        per[p] = fonts
    total: Counter = Counter()
    for fonts in per.values():
        total.update(fonts)
    return per, total


def why_not(truth: str, read: str, resolver: Resolver, record, others: ShapeTable,
            elsewhere: Callable[[str], bool]) -> tuple[str, str]:
    """The class (:data:`WHY`) of a glyph whose original text is ``truth`` and whose stripped copy
    reads ``read`` (another text, or nothing), and the finer reason; ``elsewhere(letter key)`` says
    whether another file labels an outline with that character."""
    if not truth:
        return OTHER, "the original gives no text"
    key = letter_key(truth)
    if not elsewhere(key):
        return ABSENT, ""
    res, font = record.resolution, record.step.font
    shapes = resolver.glyph_shapes()
    fp = shapes.fingerprint(font, res.gid, res.glyph_name, res.code)
    wrong = f"read wrong by {res.method}: " if read else ""
    if read and letter_key(read) == key:
        return OTHER, f"read by {res.method} as a character that reads alike (NFKC, a look-alike letter)"
    if fp is None:
        return OTHER, "no outline (program unreadable, or no glyph for the code)"
    if fp == EMPTY:
        return OTHER, f"{wrong}draws nothing" + ("" if truth.isspace() else ", its original text is no space")
    coarse = shapes.fingerprint(font, res.gid, res.glyph_name, res.code, coarse=True)
    for how, k in (("same outline", fp), ("nearly the same outline (coarse key)", coarse)):
        texts = others.entries.get(k or "", {})
        if any(letter_key(t) == key for t in texts):
            vote = others.vote(k)
            assert vote is not None
            if read:
                why = "read wrong"
            elif not vote.clear:
                why = "the fonts drawing it disagree"
            elif letter_key(vote.text) != key:
                why = "most fonts drawing it read another character"
            else:
                why = "a clear vote, withheld (the script of a look-alike letter, or the font's rules)"
            return WITHHELD, f"{how}: {why}" if not read else f"{how}: {wrong}{why}"
        if texts and k == fp:
            return OTHER, f"{wrong}its outline is known elsewhere as other characters only"
    look = shapes.fingerprint(font, res.gid, res.glyph_name, res.code, likeness=True)
    near = others.likeness().neighbours(look) if look is not None else []
    if (declined := likeness_declined(near)) is not None:
        right = [n.distance for n in near if key in {letter_key(t) for t in n.texts}]
        where = ("its character nowhere near" if not right else "the nearest reads it" if right[0] == near[0].distance
                 else "another character nearer")
        return UNLIKE, f"{wrong}likeness declined ({declined}): {where}"
    reading = others.likeness().nearest(look) if look is not None else None
    assert reading is not None
    if key not in {letter_key(t) for t in reading.texts}:
        return UNLIKE, f"{wrong}likeness: the nearest outlines read another character"
    return UNLIKE, f"{wrong}likeness: read so, withheld by the font's rules"


def unicode_place(char: str) -> tuple[str, str]:
    """The script (its name) and the Unicode block of a character's first code point."""
    from fontTools import unicodedata as ucd

    c = unicodedata.normalize("NFC", char)[:1]
    return ucd.script_name(ucd.script(c), default=ucd.script(c)), ucd.block(c)



def without(total: ShapeTable, table: ShapeTable | None) -> ShapeTable:
    """``total`` less what ``table`` (one file's, merged into it) counted."""
    out = ShapeTable()
    out.entries = {fp: {t: list(c) for t, c in texts.items()} for fp, texts in total.entries.items()}
    for fp, texts in (table.entries.items() if table is not None else ()):
        for text, (fonts, files) in texts.items():
            counts = out.entries[fp][text]
            counts[0] -= fonts
            counts[1] -= files
            if counts[0] <= 0:
                del out.entries[fp][text]
        if not out.entries[fp]:
            del out.entries[fp]
    return out


def report_why(tally: dict[str, list[int]], why_count: Counter, absent: Counter) -> None:
    """The glyphs not read right by class (:data:`WHY`) and reason, per set and together, the ceiling
    that class (a) leaves, and where the characters of class (a) are (scripts, blocks, files)."""
    for label, kinds in (("Type0 fonts", ("type0",)), ("simple fonts", ("simple",)), ("together", SETS)):
        n = sum(tally[k][i] for k in kinds for i in range(3))
        if not n:
            continue
        missed = sum(tally[k][1] + tally[k][2] for k in kinds)
        print(f"why not read right, {label}: {missed} of {n} glyphs")
        for cls, text in WHY.items():
            k = sum(c for (kind, c2, _), c in why_count.items() if kind in kinds and c2 == cls)
            print(f"  ({cls}) {text}: {k} ({100 * k / n:.2f}%)"
                  + (f"; the ceiling it leaves: {n - k} of {n} ({100 * (n - k) / n:.2f}%)" if cls == ABSENT else ""))
            reasons: Counter = Counter()
            for (kind, c2, reason), c in why_count.items():
                if kind in kinds and c2 == cls and reason:
                    reasons[reason] += c
            for reason, c in reasons.most_common():
                print(f"      {c:6d}  {reason}")
            if cls == UNLIKE:
                k = sum(c for (kind, c2, _), c in why_count.items() if kind in kinds and c2 == "one font")
                print(f"      {k:6d}  (of all but (a)) its character drawn by one outline of one font elsewhere")
            if cls == ABSENT:
                for what in ("script", "block", "file"):
                    places: Counter = Counter()
                    for (kind, w, name), c in absent.items():
                        if kind in kinds and w == what:
                            places[name] += c
                    print(f"      by {what}: " + ", ".join(f"{name} {c}" for name, c in places.most_common(12)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dirs", nargs="*", default=[str(HERE.parent.parent / "shared" / "corpus-pdfjs"),
                                                  str(HERE.parent.parent / "shared" / "corpus")])
    ap.add_argument("--limit", type=int, default=0, help="files at most (0: all)")
    ap.add_argument("--work", help="folder for the copies (default: a temporary one)")
    ap.add_argument("--cache", default=os.path.expanduser("~/.cache/pdfinspect-bench-shapes"),
                    help="where each file's learned table is kept between runs")
    ap.add_argument("--learn-from", nargs="+", metavar="DIR",
                    help="learn the shapes from these folders' files only (a held-out check: test on DIRs, "
                         "learn on others; or a folder of chosen files tested, learning from the corpora); default: every file "
                         "tested; the file under test is always left out")
    ap.add_argument("--keep-cmap", action="store_true",
                    help="strip only what the issue names (ToUnicode and glyph names), keeping a TrueType "
                         "program's cmap: its FontProgram step then reads the glyphs by the spec")
    ap.add_argument("--no-flagged", action="store_true", help="skip the check of the clean fonts")
    ap.add_argument("--no-shifted", action="store_true", help="skip the shifted copies")
    ap.add_argument("--why", action="store_true",
                    help="say why each glyph not read right is not: (a) its character is drawn by no labelled "
                         "glyph of another file, by script and Unicode block; (b) known elsewhere with another "
                         "outline; (c) its outline is known as its character, the vote withheld; (d) other")
    ap.add_argument("--confusions", type=int, default=20, help="most frequent wrong readings listed")
    ap.add_argument("--worst", type=int, default=12, help="files with the most glyphs missed listed")
    args = ap.parse_args()
    logging.getLogger("fontTools").setLevel(logging.ERROR)  # its notes on the programs it rewrites
    # resolved: a folder of chosen files (links) tested with --learn-from the corpora leaves each out
    files = sorted(p.resolve() for d in args.dirs for p in Path(d).glob("*.pdf"))
    if args.limit:
        files = files[:args.limit]
    learn_files = sorted(p.resolve() for d in args.learn_from for p in Path(d).glob("*.pdf")) if args.learn_from \
        else files
    work = Path(args.work or tempfile.mkdtemp(prefix="bench-shapes-"))
    work.mkdir(parents=True, exist_ok=True)
    tables: dict[Path, ShapeTable] = {}
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    # a table learned by other code (another fingerprint, another judgement) is not reused
    code = hashlib.sha1(b"".join(p.read_bytes() for p in sorted((HERE.parent / "pdfinspect" / "fonts").glob("*.py"))))\
        .hexdigest()[:8]
    for i, path in enumerate(learn_files, 1):
        key = cache / (hashlib.sha1(path.read_bytes()).hexdigest()[:16] + f"-{code}.json")
        try:
            if key.exists():
                tables[path] = ShapeTable.load(key)
                continue
            doc = Document.open(path)
            tables[path] = learn(doc, Resolver(doc))
            tables[path].save(key)
        except Exception:
            continue
        if i % 50 == 0:
            print(f"learned {i}/{len(learn_files)}", file=sys.stderr)
    total = ShapeTable()
    for t in tables.values():
        total.merge(t)
    print(f"{len(files)} files tested, {len(tables)} of {len(learn_files)} learned, {len(total)} outlines in the table")

    tally = {k: [0, 0, 0] for k in SETS}  # set → characters right, wrong, left unread
    by_method: dict[tuple[str, str], list[int]] = {}  # (set, method) → [right, wrong] characters
    confusions: dict[tuple[str, str, str], int] = {}  # (truth, read, method) → characters
    shifted_flagged = shifted_own = shifted_total = left_out = 0
    unread_why: dict[tuple[str, str], int] = {}  # (set, why) → characters left unread
    fonts = dict.fromkeys(SETS, 0)  # fonts stripped per set
    worst = []
    per_file, in_files = known_characters(tables)
    why_count: Counter = Counter()  # (set, class, reason) → glyphs not read right
    absent: Counter = Counter()  # (set, "script"|"block"|"file", its name) → glyphs of class (a)
    for path in files:
        nums, simple, names = candidates(path)
        if not names:
            continue
        try:
            stripped, shifted, left = write_copies(path, nums, simple, work, args.keep_cmap)
        except Exception as e:
            print(f"  {path.name}: copies not written ({type(e).__name__}: {e})", file=sys.stderr)
            continue
        for name in left:
            names.pop(name, None)
            left_out += 1
        fonts["type0"] += len(nums)
        fonts["simple"] += sum(1 for _, owners in simple.values() if not owners & set(left))
        others = ShapeTable()
        for p, t in tables.items():
            if p != path:
                others.merge(t)
        truth = page_texts(path, names, lambda doc: Resolver(doc))
        got = page_texts(stripped, names, lambda doc: Resolver(doc, shapes=others))
        counts = {k: [0, 0, 0] for k in SETS}
        own = per_file.get(path, Counter())
        for (a, _, kind, _, _), (b, method, _, why, (resolver, record)) in zip(truth, got):
            counts[kind][2 if not b else a != b] += 1
            if args.why and a != b:
                cls, reason = why_not(a, b, resolver, record, others, lambda k: in_files[k] - own[k] > 0)
                why_count[(kind, cls, reason)] += 1
                if cls != ABSENT and in_files[letter_key(a)] - own[letter_key(a)] < 2:
                    why_count[(kind, "one font", "")] += 1
                if cls == ABSENT:
                    script, block = unicode_place(a)
                    absent.update(((kind, "script", script), (kind, "block", block), (kind, "file", path.name)))
            if not b:
                unread_why[(kind, why)] = unread_why.get((kind, why), 0) + 1
                continue
            by_method.setdefault((kind, method), [0, 0])[a != b] += 1
            if a != b:
                confusions[(a, b, method)] = confusions.get((a, b, method), 0) + 1
        for kind in SETS:
            for i in range(3):
                tally[kind][i] += counts[kind][i]
            ok, bad, unread = counts[kind]
            worst.append((bad + unread, path.name, kind, ok, bad, ok + bad + unread))
        type0 = {n for n, kind in names.items() if kind == "type0"}  # only the Type0 fonts are shifted
        if not type0 or args.no_shifted:
            continue
        doc = Document.open(shifted)
        # by name and ToUnicode: another font of the page may have a candidate's resource name
        own = {rep.ref: rep.reason("tounicode_shifted") is not None for rep in font_reports(doc, [1])
               if set(rep.names) & type0 and rep.font.tounicode is not None}
        doc = Document.open(shifted)
        for rep in font_reports(doc, [1], Resolver(doc, shapes=others)):
            if set(rep.names) & type0 and rep.font.tounicode is not None:
                shifted_total += 1
                shifted_flagged += rep.reason("tounicode_shifted") is not None
                shifted_own += own.get(rep.ref, False)
                if rep.reason("tounicode_shifted") is None:
                    print(f"  not flagged: {path.name} {rep.base_font} ({rep.codes} codes)", file=sys.stderr)
    for label, kinds in (("Type0 fonts", ("type0",)), ("simple fonts", ("simple",)), ("together", SETS)):
        ok, bad, unread = (sum(tally[k][i] for k in kinds) for i in range(3))
        n = ok + bad + unread
        if n:
            print(f"stripped {label} ({sum(fonts[k] for k in kinds)} fonts): {ok} of {n} characters recovered "
                  f"({100 * ok / n:.2f}%), "
                  f"{bad} wrong ({100 * bad / n:.2f}%), {unread} left unread")
        for (kind, method), (right, wrong) in sorted(by_method.items(), key=lambda kv: -sum(kv[1])):
            if len(kinds) == 1 and kind in kinds:
                print(f"  {method}: {right} right, {wrong} wrong")
        for (kind, why), k in sorted(unread_why.items(), key=lambda kv: -kv[1]):
            if len(kinds) == 1 and kind in kinds:
                print(f"  unread: {k} {why}")
    if args.why:
        report_why(tally, why_count, absent)
    if left_out:
        print(f"simple fonts left out, their program not rewritable: {left_out} (resource names)")
    for (a, b, method), k in sorted(confusions.items(), key=lambda kv: -kv[1])[:args.confusions]:
        print(f"    {k:5d}  {a!r} read as {b!r} by {method}")
    if not args.no_shifted:
        print(f"shifted copies: {shifted_flagged} of {shifted_total} fonts flagged tounicode_shifted with the learned "
          f"shapes, {shifted_own} with the document's own")
    for missed, name, kind, ok, bad, count in sorted(worst, reverse=True)[:args.worst]:
        if missed:
            print(f"  {name} ({kind}): {ok} of {count} recovered, {bad} wrong")
    flagged = []
    for path in [] if args.no_flagged else files:
        try:
            doc = Document.open(path)
            if doc.page_count() == 0:
                continue
            # leave one out here too: with the file's own outlines in the table, likeness (which
            # reads only outlines no font of the table draws) would never be asked about its fonts
            for rep in font_reports(doc, [1], Resolver(doc, shapes=without(total, tables.get(path)))):
                for rid in ("mapping_contradicts_shape", "tounicode_shifted"):
                    if rep.reason(rid):
                        flagged.append((path.name, rep.base_font, rid, rep.reason(rid).detail))
        except Exception:
            continue
    print(f"fonts of the corpora flagged: {len(flagged)}")
    for row in flagged:
        print("  " + "  ".join(row))
    if not args.work:
        for p in work.iterdir():
            os.unlink(p)
        os.rmdir(work)


if __name__ == "__main__":
    main()
