"""The Type 1 reader (built-in encoding from the clear text, glyph names from the decrypted
CharStrings keys) against fontTools' PostScript interpreter, on built programs and on every
Type 1 program of the corpora."""
from __future__ import annotations

import os

import pytest
from fontTools.misc import eexec, psLib

from conftest import CORPUS, corpus_files, sample
from pdfinspect.core.document import Document
from pdfinspect.core.objects import Dict
from pdfinspect.fonts.type1 import Type1Error, decrypt, read_type1

PDFJS = CORPUS.parent / "corpus-pdfjs"
# psLib costs up to a second a program: those up to this size are checked (half of the
# programs), all of them with PDFINSPECT_TYPE1_ALL=1
SMALL_PROGRAM = 8_000
ALL = os.environ.get("PDFINSPECT_TYPE1_ALL") == "1"


def _fonttools(data: bytes):
    """(encoding, glyph names) as fontTools reads them."""
    font = psLib.suckfont(bytes(data))
    enc = font.get("Encoding")
    encoding = {i: n for i, n in enumerate(enc) if n and n != ".notdef"} if isinstance(enc, list) else {}
    return encoding, tuple(font["CharStrings"].keys())


def _number(v: int) -> bytes:
    """A Type 1 charstring number (6.2)."""
    if -107 <= v <= 107:
        return bytes([v + 139])
    if 108 <= v <= 1131:
        return bytes([247 + (v - 108) // 256, (v - 108) % 256])
    return b"\xff" + v.to_bytes(4, "big", signed=True)


def _charstring(*items) -> bytes:
    """Numbers and operators (an int of the operator byte, or a pair for the escaped ones), encrypted."""
    plain = b"".join(_number(x) if isinstance(x, int) else bytes(x) for x in items)
    cipher, _ = eexec.encrypt(b"\x00\x00\x00\x00" + plain, 4330)
    return cipher


def _program(encoding: bytes, names=("space", "kappa", "A"), rd=b"RD", nd=b"ND", hexed=False,
             charstrings: dict[str, bytes] | None = None, subrs: tuple[bytes, ...] = (b"\x0b\x0b\x0b",),
             np: bytes = b"NP") -> bytes:
    """A Type 1 program whose charstrings are placeholders (their keys are what is read), or
    ``charstrings`` (name → encrypted charstring) where given; ``subrs`` its subroutines, each
    ended by ``np``."""
    clear = (b"%!PS-AdobeFont-1.0: Test 001\n11 dict begin\n/FontName /Test def\n/PaintType 0 def\n"
             b"/FontMatrix [0.001 0 0 0.001 0 0] readonly def\n" + encoding +
             b"/FontBBox {0 0 1000 1000} readonly def\ncurrentdict end\ncurrentfile eexec\n")
    if charstrings is not None:
        names = tuple(charstrings)
    entries = []
    for i, name in enumerate(names):
        body = charstrings[name] if charstrings is not None else \
            bytes([(7 * i + k) % 256 for k in range(10 + i)])  # binary, may hold any byte
        entries.append(b"/%s %d %s %s %s" % (name.encode(), len(body), rd, body, nd))
    private = b"\n".join([
        b"dup /Private 8 dict dup begin", b"/RD {string currentfile exch readstring pop} executeonly def",
        b"/-| {string currentfile exch readstring pop} executeonly def",
        b"/ND {noaccess def} executeonly def", b"/|- {noaccess def} executeonly def",
        b"/NP {noaccess put} executeonly def", b"/| {noaccess put} executeonly def",
        b"/BlueValues [] ND", b"/password 5839 def",
        b"/Subrs %d array" % len(subrs),
        *(b"dup %d %d %s %s %s" % (i, len(body), rd, body, np) for i, body in enumerate(subrs)), b"ND",
        b"2 index /CharStrings %d dict dup begin" % len(names), *entries, b"end", b"end",
        b"readonly put", b"noaccess put", b"dup /FontName get exch definefont pop",
        b"mark currentfile closefile\n"])
    cipher, _ = eexec.encrypt(b"\x83\x84\x85\x86" + private, 55665)  # first bytes not hex digits
    if hexed:
        cipher = b"\n".join(cipher.hex().encode()[i:i + 64] for i in range(0, 2 * len(cipher), 64))
    return clear + cipher + b"\n" + (b"0" * 64 + b"\n") * 8 + b"cleartomark\n"


CUSTOM = (b"/Encoding 256 array\n0 1 255 {1 index exch /.notdef put} for\n"
          b"dup 32 /space put\ndup 20 /kappa put\ndup 65/A put\nreadonly def\n")
STANDARD = b"/Encoding StandardEncoding def\n"


@pytest.mark.parametrize("encoding", [CUSTOM, STANDARD], ids=["dup-put", "standard"])
@pytest.mark.parametrize("rd, nd", [(b"RD", b"ND"), (b"-|", b"|-")])
@pytest.mark.parametrize("hexed", [False, True], ids=["binary", "hex"])
def test_built_programs_read_as_fonttools_reads_them(encoding, rd, nd, hexed):
    data = _program(encoding, rd=rd, nd=nd, hexed=hexed)
    ours = read_type1(data)
    # psLib reads binary eexec only: the hex program is checked against its binary twin
    assert (ours.encoding, ours.glyph_names) == _fonttools(_program(encoding, rd=rd, nd=nd))
    assert ours.glyph_names == ("space", "kappa", "A") and ours.font_name == "Test"
    if encoding is CUSTOM:
        assert ours.encoding == {32: "space", 20: "kappa", 65: "A"}


def test_pfb_segments_are_unwrapped():
    data = _program(CUSTOM)
    cut = data.index(b"eexec") + 6
    pfb = b"".join(b"\x80" + bytes([kind]) + len(part).to_bytes(4, "little") + part
                   for kind, part in ((1, data[:cut]), (2, data[cut:]))) + b"\x80\x03"
    assert read_type1(pfb).glyph_names == ("space", "kappa", "A")


def test_decrypt_inverts_eexec_encryption():
    plain = bytes(range(256)) * 3
    cipher, _ = eexec.encrypt(b"abcd" + plain, 55665)
    assert decrypt(cipher) == plain
    assert decrypt(cipher.hex().upper().encode()) == plain


@pytest.mark.parametrize("damage", [lambda d: d[:d.index(b"eexec")], lambda d: d[:len(d) // 2],
                                    lambda d: d.replace(b"/CharStrings", b"/CharStrungs"),
                                    lambda d: b"\x00" * 40])
def test_damaged_programs_raise_type1error_only(damage):
    data = damage(_program(CUSTOM))
    try:
        read_type1(data)
    except Type1Error:
        pass


def _type1_programs(paths) -> list[tuple[str, bytes]]:
    """Every /FontFile program of the files, found and decoded by qpdf (fast, and not ours)."""
    pikepdf = pytest.importorskip("pikepdf")
    out = []
    for path in paths:
        try:
            with pikepdf.open(path) as pdf:
                seen = set()
                for obj in pdf.objects:
                    if not isinstance(obj, pikepdf.Dictionary) or "/FontFile" not in obj:
                        continue
                    stm = obj.FontFile
                    if not isinstance(stm, pikepdf.Stream) or stm.objgen in seen:
                        continue
                    seen.add(stm.objgen)
                    out.append((f"{path.name} {stm.objgen}", stm.read_bytes()))
        except Exception:  # damaged files and undecodable streams are other tests' business
            continue
    return out


def test_every_type1_program_of_the_corpora_reads_as_fonttools_reads_it():
    paths = corpus_files() + (sorted(PDFJS.glob("*.pdf")) if PDFJS.is_dir() else [])
    programs = [p for p in _type1_programs(paths) if ALL or len(p[1]) <= SMALL_PROGRAM]
    if not programs:
        pytest.skip("no corpus with Type 1 programs")
    compared = 0
    for name, data in programs:
        try:
            expected = _fonttools(data)
        except Exception:  # fontTools cannot read it: ours may do better, never worse than raising
            try:
                read_type1(data)
            except Type1Error:
                pass
            continue
        ours = read_type1(data)
        assert (ours.encoding, ours.glyph_names) == expected, name
        compared += 1
    assert compared >= len(programs) // 2


def test_kappa_sample_program():
    doc = Document.open(sample("kappa.pdf"))
    font = next(o.value for o in doc.iter_objects() if isinstance(o.value, Dict) and "FontFile" in o.value)
    data = doc.stream_data(doc.get(font["FontFile"].num)).data
    ours = read_type1(data)
    assert (ours.encoding, ours.glyph_names) == _fonttools(data)
    assert "kappa" in ours.glyph_names


def test_a_huge_encrypted_part_is_decrypted_only_up_to_the_limit(monkeypatch):
    from pdfinspect.fonts import type1

    monkeypatch.setattr(type1, "MAX_EEXEC", 1000)
    program = b"%!PS-AdobeFont-1.0: X\n/FontName /X def\ncurrentfile eexec\n" + bytes(range(256)) * 400
    with pytest.raises(Type1Error, match="only its first 1,000 bytes"):
        read_type1(program)
    assert len(type1.decrypt(bytes(5000), limit=1000)) == 996


HSBW, RMOVETO, RLINETO, CLOSEPATH, CALLSUBR, RETURN, ENDCHAR = ((op,) for op in (13, 21, 5, 9, 10, 11, 14))


@pytest.mark.parametrize("rd, nd, np", [(b"RD", b"ND", b"NP"), (b"-|", b"|-", b"|")])
def test_charstrings_and_their_subroutines_draw_as_fonttools_draws_them(rd, nd, np):
    """The outlines of a program whose glyphs call subroutines, read by ``read_charstrings`` (no
    PostScript interpreter), are those fontTools' interpreter reads."""
    from fontTools.t1Lib import T1Font

    from pdfinspect.fonts.shapes import _draw, program_outlines

    side = _charstring(400, 0, RLINETO, 0, 600, RLINETO, -400, 0, RLINETO, RETURN)
    charstrings = {"square": _charstring(0, 500, HSBW, 50, 0, RMOVETO, 0, CALLSUBR, CLOSEPATH, ENDCHAR),
                   "wedge": _charstring(0, 500, HSBW, 50, 0, RMOVETO, 1, CALLSUBR, CLOSEPATH, ENDCHAR)}
    wedge = _charstring(400, 0, RLINETO, -400, 600, RLINETO, RETURN)
    data = _program(STANDARD, rd=rd, nd=nd, np=np, charstrings=charstrings, subrs=(side, wedge))
    ours = program_outlines(data, "FontFile")
    font = T1Font.__new__(T1Font)
    font.data, font.encoding = data, "ascii"
    font.parse()
    glyphs = font.getGlyphSet()
    for name in charstrings:
        assert ours[name] == _draw(glyphs[name], glyphs, 1.0)
    assert ours["square"].bounds() == (50, 0, 450, 600) and len(ours["wedge"].contours[0]) == 3


def test_type1_outlines_are_fonttools_own_on_every_program_of_the_corpora_it_reads():
    """Against fontTools' interpreter on real programs (subroutines, flex, accents by seac, lenIV,
    FontMatrix): the same outlines wherever fontTools reads the program."""
    from fontTools.t1Lib import T1Font

    from pdfinspect.fonts.shapes import _draw, program_outlines
    from pdfinspect.fonts.type1 import _unwrap_pfb

    paths = corpus_files() + (sorted(PDFJS.glob("*.pdf")) if PDFJS.is_dir() else [])
    programs = [p for p in _type1_programs(paths) if len(p[1]) <= 40_000]
    if not programs:
        pytest.skip("no corpus with Type 1 programs")
    compared = 0
    for label, data in programs:
        font = T1Font.__new__(T1Font)
        font.data, font.encoding = _unwrap_pfb(data), "ascii"
        try:
            font.parse()
        except Exception:  # fontTools cannot read it: nothing to compare with
            continue
        glyphs, scale = font.getGlyphSet(), 1000 * ((font.font.get("FontMatrix") or [0.001])[0] or 0.001)
        ours = program_outlines(data, "FontFile")
        for name in glyphs.keys():
            try:
                theirs = _draw(glyphs[name], glyphs, scale)
            except Exception:  # a charstring fontTools cannot run
                continue
            assert ours[name] == theirs, (label, name)
            compared += 1
    assert compared > 500
