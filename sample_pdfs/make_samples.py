"""Write the hand-built sample PDFs of this folder (one line each in README.md).

Every file is assembled here byte by byte, so reading this script shows exactly what a
sample contains. Offsets are computed, never typed, so classic xref tables are right
unless a sample breaks them on purpose. The output is deterministic (no clocks, fixed
IDs): `python sample_pdfs/make_samples.py` rebuilds all samples in place, and
tests/test_samples.py checks that a rebuild matches the committed files byte for byte.
The one exception is encrypted-aes256.pdf: qpdf (through pikepdf) draws a random file
key and random AES IVs for R6, so that file differs on every run.
"""

from __future__ import annotations

import base64
import binascii
import io
import sys
import zlib
from collections.abc import Callable, Iterable
from pathlib import Path

from fontTools.misc import eexec
from fontTools.misc.psCharStrings import T1CharString

HERE = Path(__file__).resolve().parent
HELVETICA = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
TIMES = b"<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding /WinAnsiEncoding >>"


# --- writing helpers ---------------------------------------------------------------------


def stream(entries: bytes, data: bytes, length: bytes | None = None) -> bytes:
    """A stream object body (7.3.8); /Length is len(data) unless `length` is given."""
    if length is None:
        length = b"%d" % len(data)
    head = b"<< " + (entries + b" " if entries else b"") + b"/Length " + length + b" >>"
    return head + b"\nstream\n" + data + b"\nendstream"


def runs(nums: Iterable[int]) -> list[list[int]]:
    """Sorted object numbers grouped into runs of consecutive numbers (xref subsections)."""
    groups: list[list[int]] = []
    for num in sorted(nums):
        if groups and groups[-1][-1] == num - 1:
            groups[-1].append(num)
        else:
            groups.append([num])
    return groups


def png_predict(data: bytes, columns: int, types: tuple[int, ...] = (2,)) -> bytes:
    """PNG-predict `data` in rows of `columns` bytes (7.4.4.4); row r uses types[r % len]."""
    if len(data) % columns:
        raise ValueError("data must fill whole rows")
    out = bytearray()
    prev = bytes(columns)
    for r in range(len(data) // columns):
        row = data[r * columns : (r + 1) * columns]
        kind = types[r % len(types)]
        out.append(kind)
        for i, x in enumerate(row):
            a = row[i - 1] if i else 0
            b = prev[i]
            c = prev[i - 1] if i else 0
            p = a + b - c
            paeth = min((abs(p - a), 0, a), (abs(p - b), 1, b), (abs(p - c), 2, c))[2]
            out.append((x - (0, a, b, (a + b) // 2, paeth)[kind]) & 0xFF)
        prev = row
    return bytes(out)


def lzw_encode(data: bytes) -> bytes:
    """LZWDecode data with /EarlyChange 1 (7.4.4.2): 9–12-bit codes, 256 clear, 257 EOD."""
    table = {bytes([i]): i for i in range(256)}
    acc = nbits = 0
    width = 9
    out = bytearray()

    def emit(code: int) -> None:
        nonlocal acc, nbits
        acc = (acc << width) | code
        nbits += width
        while nbits >= 8:
            nbits -= 8
            out.append((acc >> nbits) & 0xFF)
        acc &= (1 << nbits) - 1

    emit(256)
    word = b""
    for byte in data:
        grown = word + bytes([byte])
        if grown in table:
            word = grown
            continue
        emit(table[word])
        table[grown] = len(table) + 2  # codes 256 and 257 are not in the table
        if len(table) + 2 >= 4096:
            raise ValueError("sample too long for one LZW table")
        # The decoder adds each entry one code later than we do, and with EarlyChange 1
        # widens one code early: the two cancel, so widen when our next free code needs it.
        if len(table) + 2 >= (1 << width):
            width += 1
        word = bytes([byte])
    emit(table[word])
    emit(257)
    if nbits:
        out.append((acc << (8 - nbits)) & 0xFF)
    return bytes(out)


def runlength_encode(data: bytes) -> bytes:
    """RunLengthDecode data (7.4.5): runs of 2–128 equal bytes, literals of 1–128, EOD 128."""
    out = bytearray()
    i = 0
    literal = bytearray()
    while i < len(data):
        n = 1
        while i + n < len(data) and n < 128 and data[i + n] == data[i]:
            n += 1
        if n > 1 or len(literal) == 128:
            if literal:
                out += bytes([len(literal) - 1]) + literal
                literal = bytearray()
        if n > 1:
            out += bytes([257 - n, data[i]])
        else:
            literal.append(data[i])
        i += n
    if literal:
        out += bytes([len(literal) - 1]) + literal
    return bytes(out + b"\x80")


class Builder:
    """One growing PDF file: `N G obj` bodies, then xref sections that list them.

    Entries written since the last xref section are pending: ("n", offset, gen),
    ("f", next free object, gen) or ("c", object stream number, index).
    """

    def __init__(self, version: bytes = b"1.4") -> None:
        self.out = bytearray(b"%PDF-" + version + b"\n%\xe2\xe3\xcf\xd3\n")
        self.pending: dict[int, tuple[str, int, int]] = {}
        self.offsets: dict[int, int] = {}
        self.size = 1
        self.prev: int | None = None

    def obj(self, num: int, body: bytes, gen: int = 0) -> None:
        self.offsets[num] = len(self.out)
        self.pending[num] = ("n", len(self.out), gen)
        self.size = max(self.size, num + 1)
        self.out += b"%d %d obj\n" % (num, gen) + body + b"\nendobj\n"

    def free(self, num: int, next_free: int, gen: int) -> None:
        self.pending[num] = ("f", next_free, gen)
        self.size = max(self.size, num + 1)

    def objstm(self, num: int, members: list[tuple[int, bytes]], entries: bytes = b"") -> None:
        """Object stream `num` (7.5.7): pairs `objnum offset`, then the objects from /First."""
        pairs, bodies, offset = [], b"", 0
        for objnum, body in members:
            pairs.append(b"%d %d" % (objnum, offset))
            bodies += body + b"\n"
            offset += len(body) + 1
        header = b" ".join(pairs) + b"\n"
        head = b"/Type /ObjStm /N %d /First %d /Filter /FlateDecode" % (len(members), len(header))
        if entries:
            head += b" " + entries
        self.obj(num, stream(head, zlib.compress(header + bodies, 9)))
        for index, (objnum, _) in enumerate(members):
            self.pending[objnum] = ("c", num, index)
            self.size = max(self.size, objnum + 1)

    def xref_table(self, trailer: bytes, shift: int = 0) -> None:
        """Classic xref section (7.5.4) of the pending entries, trailer, startxref, %%EOF.

        `shift` moves every in-use offset by that many bytes (for damaged samples).
        """
        if self.prev is None:
            self.pending.setdefault(0, ("f", 0, 65535))
        start = len(self.out)
        self.out += b"xref\n"
        for group in runs(self.pending):
            self.out += b"%d %d\n" % (group[0], len(group))
            for num in group:
                kind, field, gen = self.pending[num]
                if kind == "c":
                    raise ValueError("a classic table cannot list compressed objects")
                self.out += b"%010d %05d %s \n" % (field + shift * (kind == "n"), gen, kind.encode())
        prev = b" /Prev %d" % self.prev if self.prev is not None else b""
        self.out += b"trailer\n<< /Size %d%s %s >>\n" % (self.size, prev, trailer)
        self.startxref(start)
        self.pending = {}
        self.prev = start

    def xref_stream(self, num: int, trailer: bytes, only: Iterable[int] | None = None) -> int:
        """Xref stream object `num` (7.5.8), /W [1 3 1], Flate + PNG Up; returns its offset.

        Lists the pending entries (or those in `only`) plus itself, and drops them from
        the pending set; call startxref() after it unless a classic table follows.
        """
        offset = len(self.out)
        self.size = max(self.size, num + 1)
        nums = sorted(set(self.pending if only is None else only) | {num})
        entries = {n: self.pending.pop(n, None) for n in nums}
        entries[num] = ("n", offset, 0)
        kinds = {"f": 0, "n": 1, "c": 2}
        rows = b"".join(
            bytes([kinds[kind]]) + field.to_bytes(3, "big") + bytes([gen])
            for kind, field, gen in (entries[n] for n in nums)
        )
        index = b" ".join(b"%d %d" % (g[0], len(g)) for g in runs(nums))
        head = (
            b"/Type /XRef /Size %d /W [1 3 1] /Index [%s] /Filter /FlateDecode"
            b" /DecodeParms << /Predictor 12 /Columns 5 >> %s" % (self.size, index, trailer)
        )
        self.offsets[num] = offset
        self.out += b"%d 0 obj\n" % num + stream(head.rstrip(), zlib.compress(png_predict(rows, 5), 9))
        self.out += b"\nendobj\n"
        if only is not None:  # hybrid file: the classic table lists the stream object too
            self.pending[num] = ("n", offset, 0)
        return offset

    def startxref(self, offset: int) -> None:
        self.out += b"startxref\n%d\n%%%%EOF\n" % offset

    def getvalue(self) -> bytes:
        return bytes(self.out)


def skeleton(
    b: Builder,
    *,
    catalog: bytes = b"",
    page: bytes = b"/Contents 4 0 R",
    resources: bytes = b"/Font << /F1 5 0 R >>",
) -> None:
    """Objects 1–3: Catalog, a one-leaf /Pages node, and its US Letter page."""
    b.obj(1, b"<< /Type /Catalog /Pages 2 0 R%s >>" % (b" " + catalog if catalog else b""))
    b.obj(2, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
    b.obj(
        3,
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << %s >> %s >>"
        % (resources, page),
    )


def text_page(b: Builder, text: bytes, info: bytes | None = None) -> None:
    """Objects 1–5 (+ 6 = Info if given): one page showing `text` in Helvetica, no xref."""
    skeleton(b)
    b.obj(4, stream(b"", b"BT /F1 24 Tf 72 720 Td (%s) Tj ET" % text))
    b.obj(5, HELVETICA)
    if info is not None:
        b.obj(6, info)


# --- sound samples -----------------------------------------------------------------------


def minimal() -> bytes:
    b = Builder()
    text_page(b, b"Hello, world")
    b.xref_table(b"/Root 1 0 R")
    return b.getvalue()


LEXICAL = (
    b"% ISO 32000 7.2-7.3, one rule per entry; this comment sits between tokens\n"
    b"<< /Octal [(\\5) (\\05) (\\005) (\\0053)] % byte 05 three times, then 05 '3'\n"
    b"/Escapes (\\n\\r\\t\\b\\f\\(\\)\\\\)\n"
    b"/Continuation (abc\\\ndef\\\r\nghi) % backslash-LF and backslash-CRLF vanish\n"
    b"/BareCR (one\rtwo) /CRLF (three\r\nfour) % each EOL reads as one LF\n"
    b"/Nested (a (b (c) b) a)\n"
    b"/OddHex <414> /SpacedHex < 48 65\n6c 6C\t6f >\n"
    b"/A#20B (key is A, space, B) /#41#42 (key is AB)\n"
    b"/Numbers [-.24 4. +17 .5 -98 0 34.5 -3.62 +123.6 -.002]\n"
    b"/Commented [1 % one\n2 % two, ended by a bare CR\r3]\r"
    b"/Empty () /EmptyHex <> /NotAComment (100% inside a string)\n>>"
)

HOSTILE_INFO = (
    b"<< /Title (Invoice \x1b[31mRED\x1b[0m \x07bell \x9b2J \x1b]0;pwned\x07 end)\n"
    b"/Subject (octal escapes: \\033[2J\\033[H and \\233J)\n"
    b"/Author ([bold red]rich markup[/] [/foo] [link=file:///etc/passwd]x[/link]) >>"
)


def lexical() -> bytes:
    b = Builder()
    skeleton(b, catalog=b"/Lexical 7 0 R")
    b.obj(4, stream(b"", b"BT /F1 18 Tf 72 720 Td (Lexical sample: see object 7 and Info) Tj ET"))
    b.obj(5, HELVETICA)
    b.obj(6, HOSTILE_INFO)
    b.obj(7, LEXICAL)
    b.xref_table(b"/Root 1 0 R /Info 6 0 R")
    return b.getvalue()


def xref_subsections() -> bytes:
    b = Builder()
    skeleton(b, resources=b"/Font << /F1 10 2 R >>")
    b.obj(4, stream(b"", b"BT /F1 18 Tf 72 720 Td (Font F1 is object 10, generation 2) Tj ET"))
    b.obj(10, HELVETICA, gen=2)
    # Free list 0 -> 6 -> 7 -> 9 -> 0; objects 5 and 8 appear in no subsection.
    b.free(0, 6, 65535)
    b.free(6, 7, 1)
    b.free(7, 9, 3)
    b.free(9, 0, 1)
    b.xref_table(b"/Root 1 0 R")
    return b.getvalue()


def incremental() -> bytes:
    b = Builder()
    text_page(b, b"Revision 1", info=b"<< /Title (Revision 1) >>")
    b.xref_table(b"/Root 1 0 R /Info 6 0 R")
    # Revision 2: object 4 changes, object 7 is added, page 3 lists both.
    b.obj(3, b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792]"
             b" /Resources << /Font << /F1 5 0 R >> >> /Contents [4 0 R 7 0 R] >>")
    b.obj(4, stream(b"", b"BT /F1 24 Tf 72 720 Td (Revision 2: object 4 changed) Tj ET"))
    b.obj(7, stream(b"", b"BT /F1 24 Tf 72 680 Td (Revision 2: object 7 added) Tj ET"))
    b.xref_table(b"/Root 1 0 R /Info 6 0 R")
    # Revision 3: object 7 is freed (next use gets generation 1), Info moves to object 8.
    b.obj(3, b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792]"
             b" /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>")
    b.obj(8, b"<< /Title (Revision 3) >>")
    b.free(0, 7, 65535)
    b.free(7, 0, 1)
    b.xref_table(b"/Root 1 0 R /Info 8 0 R")
    return b.getvalue()


def xref_stream() -> bytes:
    b = Builder(b"1.5")
    b.obj(4, stream(b"", b"BT /F1 18 Tf 72 720 Td (Objects 1 2 3 5 6 live in object streams) Tj ET"))
    b.objstm(10, [
        (1, b"<< /Type /Catalog /Pages 2 0 R >>"),
        (2, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
        (5, HELVETICA),
    ])
    b.objstm(11, [
        (3, b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792]"
            b" /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>"),
        (6, b"<< /Title (Xref stream sample) >>"),
    ], entries=b"/Extends 10 0 R")
    b.free(0, 0, 255)
    b.startxref(b.xref_stream(12, b"/Root 1 0 R /Info 6 0 R"))
    return b.getvalue()


def hybrid() -> bytes:
    b = Builder(b"1.5")
    skeleton(b)
    b.obj(4, stream(b"", b"BT /F1 18 Tf 72 720 Td (Font 5 is only in the /XRefStm stream) Tj ET"))
    b.objstm(6, [(5, HELVETICA)])
    xrefstm = b.xref_stream(7, b"", only=[5])
    # The classic table has no entry for object 5: pre-1.5 readers never see the font.
    b.xref_table(b"/Root 1 0 R /XRefStm %d" % xrefstm)
    return b.getvalue()


def indirect_length() -> bytes:
    b = Builder()
    skeleton(b, page=b"/Contents [4 0 R 6 0 R]", resources=b"/Font << /F1 8 0 R >>")
    first = b"BT /F1 18 Tf 72 720 Td (/Length 5 0 R, defined after the stream) Tj ET\n"
    second = zlib.compress(b"BT /F1 18 Tf 72 690 Td (Flate, /Length 7 0 R) Tj ET\n", 9)
    b.obj(4, stream(b"", first, length=b"5 0 R"))
    b.obj(5, b"%d" % len(first))
    b.obj(6, stream(b"/Filter /FlateDecode", second, length=b"7 0 R"))
    b.obj(7, b"%d" % len(second))
    b.obj(8, HELVETICA)
    b.xref_table(b"/Root 1 0 R")
    return b.getvalue()


def encrypted(encryption_args: dict[str, object]) -> bytes:
    """A hand-built page re-written encrypted by pikepdf (qpdf); IDs fixed by static_id."""
    import pikepdf

    b = Builder()
    text_page(b, b"Encrypted sample", info=b"<< /Title (Encrypted title string) >>")
    b.xref_table(b"/Root 1 0 R /Info 6 0 R")
    out = io.BytesIO()
    with pikepdf.open(io.BytesIO(b.getvalue())) as pdf:
        pdf.save(out, encryption=pikepdf.Encryption(**encryption_args), static_id=True)
    return out.getvalue()


def encrypted_rc4() -> bytes:
    return encrypted(dict(owner="owner", user="", R=3, aes=False, metadata=False))


def encrypted_aes256() -> bytes:
    return encrypted(dict(owner="owner", user="", R=6))


# --- fonts ---------------------------------------------------------------------------------

KAPPA_CLEARTEXT = b"""%!PS-AdobeFont-1.0: PDFInspectKappa 001.000
%%Title: PDFInspectKappa (hand-built by sample_pdfs/make_samples.py)
11 dict begin
/FontInfo 2 dict dup begin
/FullName (PDFInspect Kappa) readonly def
/FamilyName (PDFInspect) readonly def
end readonly def
/FontName /PDFInspectKappa def
/Encoding 256 array
0 1 255 {1 index exch /.notdef put} for
dup 20 /kappa put
dup 32 /space put
dup 91 /flat put
dup 93 /musicsharp put
readonly def
/PaintType 0 def
/FontType 1 def
/FontMatrix [0.001 0 0 0.001 0 0] readonly def
/FontBBox {0 0 600 700} readonly def
currentdict end
currentfile eexec
"""

# Type 1 charstring programs (Type 1 spec ch. 6): kappa is a box, musicsharp a triangle, flat
# (cmmi10's name for ♭, in no AGL: only the TeX glyph list knows it) a bar.
KAPPA_GLYPHS = {
    ".notdef": [0, 500, "hsbw", "endchar"],
    "space": [0, 250, "hsbw", "endchar"],
    "kappa": [50, 600, "hsbw", 0, 0, "rmoveto", 500, "hlineto", 500, "vlineto", -500, "hlineto",
              "closepath", "endchar"],
    "musicsharp": [50, 600, "hsbw", 0, 0, "rmoveto", 500, 0, "rlineto", -250, 600, "rlineto",
                   "closepath", "endchar"],
    "flat": [50, 600, "hsbw", 0, 0, "rmoveto", 100, "hlineto", 600, "vlineto", -100, "hlineto",
             "closepath", "endchar"],
}


def type1_font() -> tuple[bytes, int, int, int]:
    """The kappa Type 1 program as /FontFile data and its /Length1, /Length2, /Length3."""
    charstrings = []
    for name, program in KAPPA_GLYPHS.items():
        cs = T1CharString(program=program)
        cs.compile()
        code, _ = eexec.encrypt(b"\0\0\0\0" + cs.bytecode, 4330)  # lenIV 4
        charstrings.append(b"/%s %d RD %s ND" % (name.encode(), len(code), code))
    private = b"\n".join([
        b"dup /Private 8 dict dup begin",
        b"/RD {string currentfile exch readstring pop} executeonly def",
        b"/ND {noaccess def} executeonly def",
        b"/NP {noaccess put} executeonly def",
        b"/BlueValues [] ND",
        b"/MinFeature {16 16} ND",
        b"/password 5839 def",
        b"/Subrs 0 array ND",
        b"2 index /CharStrings %d dict dup begin" % len(charstrings),
        *charstrings,
        b"end",
        b"end",
        b"readonly put",
        b"noaccess put",
        b"dup /FontName get exch definefont pop",
        b"mark currentfile closefile\n",
    ])
    encrypted_part, _ = eexec.encrypt(b"cccc" + private, 55665)
    if all(chr(c) in "0123456789abcdefABCDEF" for c in encrypted_part[:4]):
        raise ValueError("eexec start looks like hex; readers would take it for PFA hex")
    trailer = (b"0" * 64 + b"\n") * 8 + b"cleartomark\n"
    data = KAPPA_CLEARTEXT + encrypted_part + trailer
    return data, len(KAPPA_CLEARTEXT), len(encrypted_part), len(trailer)


def tounicode(codespace: bytes, body: bytes) -> bytes:
    """A ToUnicode CMap (9.10.3) with the usual CIDInit wrapper around `body`."""
    return (
        b"/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
        b"/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
        b"/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n"
        b"1 begincodespacerange\n" + codespace + b"\nendcodespacerange\n" + body +
        b"endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n"
    )


def kappa() -> bytes:
    b = Builder()
    skeleton(b, resources=b"/Font << /F4 5 0 R >>")
    b.obj(4, stream(b"", b"BT /F4 12 Tf 72 700 Td [(\\024)]TJ ( ) Tj (\\133) Tj (\\135) Tj ET"))
    widths = b" ".join(b"%d" % {20: 600, 32: 250, 91: 600, 93: 600}.get(c, 0) for c in range(20, 94))
    b.obj(5, b"<< /Type /Font /Subtype /Type1 /BaseFont /PDFInspectKappa /FirstChar 20"
             b" /LastChar 93 /Widths [%s] /FontDescriptor 6 0 R /ToUnicode 7 0 R >>" % widths)
    b.obj(6, b"<< /Type /FontDescriptor /FontName /PDFInspectKappa /Flags 4"
             b" /FontBBox [0 0 600 700] /ItalicAngle 0 /Ascent 700 /Descent 0"
             b" /CapHeight 700 /StemV 80 /FontFile 8 0 R >>")
    b.obj(7, stream(b"", tounicode(b"<00> <FF>", b"1 beginbfchar\n<5D> <266F>\nendbfchar\n")))
    data, n1, n2, n3 = type1_font()
    b.obj(8, stream(b"/Length1 %d /Length2 %d /Length3 %d" % (n1, n2, n3), data))
    b.xref_table(b"/Root 1 0 R")
    return b.getvalue()


# CIDs in Adobe-Japan1 (Adobe-Japan1-UCS2): 日 3284, 本 3722, 語 1952, space 1, A 34, B 35, C 36.
JAPAN1_CIDS = [3284, 3722, 1952, 1, 34, 35, 36]
F2_TOUNICODE = (
    b"2 beginbfchar\n<0001> <D83DDE00>\n<0002> <006600660069>\nendbfchar\n"
    b"2 beginbfrange\n<0010> <0012> [<0048> <0069> <0021>]\n<0020> <0029> <0030>\nendbfrange\n"
)


def cid_identity() -> bytes:
    b = Builder()
    skeleton(b, resources=b"/Font << /F1 5 0 R /F2 8 0 R >>")
    japan = b"".join(b"%04X" % cid for cid in JAPAN1_CIDS)
    b.obj(4, stream(b"", b"BT /F1 24 Tf 72 720 Td <%s> Tj ET\n"
                         b"BT /F2 24 Tf 72 680 Td <001000110012000100020020002300290002> Tj ET" % japan))
    b.obj(5, b"<< /Type /Font /Subtype /Type0 /BaseFont /MS-Mincho /Encoding /Identity-H"
             b" /DescendantFonts [6 0 R] >>")
    b.obj(6, b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /MS-Mincho"
             b" /CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 6 >>"
             b" /FontDescriptor 7 0 R /DW 1000 /W [1 [250] 34 36 600] /CIDToGIDMap /Identity >>")
    b.obj(7, b"<< /Type /FontDescriptor /FontName /MS-Mincho /Flags 6"
             b" /FontBBox [0 -141 1000 859] /ItalicAngle 0 /Ascent 859 /Descent -141"
             b" /CapHeight 709 /StemV 80 >>")
    b.obj(8, b"<< /Type /Font /Subtype /Type0 /BaseFont /PDFInspectNoGlyphs /Encoding /Identity-H"
             b" /DescendantFonts [9 0 R] /ToUnicode 11 0 R >>")
    b.obj(9, b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /PDFInspectNoGlyphs"
             b" /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >>"
             b" /FontDescriptor 10 0 R /DW 500 /W [1 [1000 1500]] /CIDToGIDMap /Identity >>")
    b.obj(10, b"<< /Type /FontDescriptor /FontName /PDFInspectNoGlyphs /Flags 4"
              b" /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 1000 /Descent 0"
              b" /CapHeight 700 /StemV 80 >>")
    b.obj(11, stream(b"", tounicode(b"<0000> <FFFF>", F2_TOUNICODE)))
    b.xref_table(b"/Root 1 0 R")
    return b.getvalue()


# --- content streams and filters --------------------------------------------------------------

INLINE_IMAGE_DATA = b"\x00 EI Q \xff"  # 8 grey pixels; the bytes " EI " trap naive parsers
CONTENT = b"""% content.pdf: one operator family per line (ISO 32000 Annex A)
q 1 0 0 1 -.24 .5 cm /GS0 gs
1 0 0 rg 0 0 1 RG 2 w 72 600 200 50 re B
0 0 0 1 k 0.2 0.4 0.6 0.1 K
/CS0 cs 0.75 scn 300 600 100 50 re f
Q
/Span << /ActualText (Hello) /MCID 0 >> BDC
BT /F1 18 Tf 72 720 Td (H) Tj (ello) Tj ET
EMC
/P /MC0 BDC
BT /F1 12 Tf 14 TL 1 Tc 2 Tw 110 Tz 3 Ts 0 Tr 72 680 Td
[(W) 120 (A) -250.5 (VE)] TJ
(apostrophe: next line) '
5 1 (quote: Tw 5, Tc 1, next line) "
1 Tr (render mode 1, stroked) '
ET
EMC
q 1 0 0 1 72 400 cm /Fm1 Do Q
q /Loop Do Q
BX 1 2 unknownInsideBX EX
3 unknownOutside
q 80 0 0 10 72 300 cm
BI /W 8 /H 1 /BPC 8 /CS /G ID """ + INLINE_IMAGE_DATA + b"""
EI
Q
"""


def content() -> bytes:
    b = Builder()
    skeleton(b, resources=b"/Font << /F1 5 0 R >> /XObject << /Fm1 6 0 R /Loop 7 0 R >>"
                          b" /ColorSpace << /CS0 8 0 R >> /Properties << /MC0 << /MCID 1 >> >>"
                          b" /ExtGState << /GS0 << /Type /ExtGState /CA 0.5 /ca 0.5 >> >>")
    b.obj(4, stream(b"", CONTENT))
    b.obj(5, HELVETICA)
    b.obj(6, stream(b"/Type /XObject /Subtype /Form /BBox [0 0 400 100]"
                    b" /Resources << /Font << /F2 9 0 R >> >>",
                    b"BT /F2 14 Tf 0 10 Td (Inside form Fm1 with its own F2, Times-Roman) Tj ET"))
    b.obj(7, stream(b"/Type /XObject /Subtype /Form /BBox [0 0 10 10]"
                    b" /Resources << /XObject << /Self 7 0 R >> >>", b"/Self Do"))
    b.obj(8, b"[/Separation /Spot#20Red /DeviceCMYK << /FunctionType 2 /Domain [0 1]"
             b" /C0 [0 0 0 0] /C1 [0 1 1 0] /N 1 >>]")
    b.obj(9, TIMES)
    b.xref_table(b"/Root 1 0 R")
    return b.getvalue()


def tiny_jpeg() -> bytes:
    """A 16×16 RGB gradient as baseline JPEG (Pillow is only needed by this script)."""
    from PIL import Image

    image = Image.new("RGB", (16, 16))
    image.putdata([(x * 16, y * 16, 128) for y in range(16) for x in range(16)])
    out = io.BytesIO()
    image.save(out, "JPEG", quality=80, optimize=False)
    return out.getvalue()


# The page's /Contents array; streams 4 and 6 split the string "Hello, split across
# streams" (7.8.2 allows splits only between tokens), 6 and 7 split "0 -20 | Td".
LZW_BOXES = b"".join(b"%d %d 5 5 re\n" % (72 + 6 * i, 90 + (i * 7) % 20) for i in range(80))
FILTERS_PAGE = [
    (4, b"/Filter /ASCIIHexDecode",
     b"BT /F1 14 Tf 72 720 Td (ASCIIHexDecode) Tj 0 -20 Td (Hello, sp"),
    (6, b"/Filter /ASCII85Decode",
     b"lit across streams) Tj 0 -20 Td (ASCII85Decode) Tj 0 -20"),
    (7, b"/Filter /LZWDecode",
     b" Td (LZWDecode, codes widen to 10 bits) Tj ET\n" + LZW_BOXES + b"f\n"),
    (8, b"/Filter /RunLengthDecode",
     b"%" + b"=" * 60 + b"\nBT /F1 14 Tf 72 640 Td (RunLengthDecode) Tj ET\n"),
    (9, b"/Filter /FlateDecode /DecodeParms << /Predictor 15 /Columns 8 >>",
     b"BT /F1 14 Tf 72 620 Td (FlateDecode, PNG predictors 0-4 by row) Tj ET\n".ljust(72)),
    (10, b"/Filter [/ASCII85Decode /FlateDecode]",
     b"BT /F1 14 Tf 72 600 Td (ASCII85Decode + FlateDecode) Tj ET q 48 0 0 48 72 500 cm /Im1 Do Q\n"),
]
ENCODERS: dict[int, Callable[[bytes], bytes]] = {
    4: lambda d: binascii.hexlify(d) + b">",
    6: lambda d: base64.a85encode(d, wrapcol=72) + b"~>",
    7: lzw_encode,
    8: runlength_encode,
    9: lambda d: zlib.compress(png_predict(d, 8, (0, 1, 2, 3, 4)), 9),
    10: lambda d: base64.a85encode(zlib.compress(d, 9), wrapcol=72) + b"~>",
}


def filters() -> bytes:
    b = Builder()
    refs = b" ".join(b"%d 0 R" % num for num, _, _ in FILTERS_PAGE)
    skeleton(b, page=b"/Contents [%s]" % refs,
             resources=b"/Font << /F1 5 0 R >> /XObject << /Im1 11 0 R >>")
    for num, entries, data in FILTERS_PAGE:
        b.obj(num, stream(entries, ENCODERS[num](data)))
    b.obj(5, HELVETICA)
    b.obj(11, stream(b"/Type /XObject /Subtype /Image /Width 16 /Height 16 /ColorSpace /DeviceRGB"
                     b" /BitsPerComponent 8 /Filter /DCTDecode", tiny_jpeg()))
    b.xref_table(b"/Root 1 0 R")
    return b.getvalue()


def pages() -> bytes:
    """Five pages: root (Letter, Helvetica) > [p1, A (A4, Rotate 90) > [p2, B (Times) > [p3, p4]], p5]."""
    b = Builder()
    b.obj(1, b"<< /Type /Catalog /Pages 2 0 R >>")
    b.obj(2, b"<< /Type /Pages /Kids [3 0 R 4 0 R 9 0 R] /Count 5 /MediaBox [0 0 612 792]"
             b" /Resources << /Font << /F1 20 0 R >> >> >>")
    b.obj(3, b"<< /Type /Page /Parent 2 0 R /Contents 10 0 R >>")
    b.obj(4, b"<< /Type /Pages /Parent 2 0 R /Kids [5 0 R 6 0 R] /Count 3 /Rotate 90"
             b" /MediaBox [0 0 595 842] >>")
    b.obj(5, b"<< /Type /Page /Parent 4 0 R /Contents 11 0 R >>")
    b.obj(6, b"<< /Type /Pages /Parent 4 0 R /Kids [7 0 R 8 0 R] /Count 2"
             b" /Resources << /Font << /F1 21 0 R >> >> >>")
    b.obj(7, b"<< /Type /Page /Parent 6 0 R /Contents 12 0 R >>")
    b.obj(8, b"<< /Type /Page /Parent 6 0 R /Rotate 0 /CropBox [0 0 400 400] /Contents 13 0 R >>")
    b.obj(9, b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Rotate 180 /Contents 14 0 R >>")
    for page, num in enumerate(range(10, 15), start=1):
        b.obj(num, stream(b"", b"BT /F1 24 Tf 36 200 Td (Page %d) Tj ET" % page))
    b.obj(20, HELVETICA)
    b.obj(21, TIMES)
    b.xref_table(b"/Root 1 0 R")
    return b.getvalue()


# --- damaged and hostile samples ----------------------------------------------------------------


def damaged_no_xref() -> bytes:
    data = minimal()
    xref = data.rindex(b"\nxref\n") + 1
    trailer = data.index(b"trailer", xref)
    return data[:xref] + data[trailer : data.index(b"startxref", trailer)] + b"%%EOF\n"


def damaged_bad_offsets() -> bytes:
    b = Builder()
    text_page(b, b"Every xref offset is 7 bytes too far")
    b.xref_table(b"/Root 1 0 R", shift=7)
    return b.getvalue()


def damaged_bad_length() -> bytes:
    b = Builder()
    skeleton(b, page=b"/Contents [4 0 R 6 0 R]")
    short = b"BT /F1 18 Tf 72 720 Td (/Length 10 bytes too short) Tj ET"
    long = b"BT /F1 18 Tf 72 690 Td (/Length 25 bytes too long) Tj ET"
    b.obj(4, stream(b"", short, length=b"%d" % (len(short) - 10)))
    b.obj(5, HELVETICA)
    b.obj(6, stream(b"", long, length=b"%d" % (len(long) + 25)))
    b.xref_table(b"/Root 1 0 R")
    return b.getvalue()


def damaged_truncated() -> bytes:
    b = Builder()
    skeleton(b)
    b.obj(5, HELVETICA)
    lines = b"".join(b"0 -14 Td (Line %d of a long page) Tj\n" % i for i in range(40))
    data = zlib.compress(b"BT /F1 12 Tf 72 740 Td\n" + lines + b"ET\n", 9)
    b.obj(4, stream(b"/Filter /FlateDecode", data))
    start = b.out.index(b"stream\n", b.offsets[4]) + len(b"stream\n")
    return b.getvalue()[: start + len(data) // 2]


def damaged_garbage() -> bytes:
    junk = b"HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\n\r\n"
    tail = b"\n<html><body>trailing junk</body></html>\n\x00\xff\xfe garbage\n"
    return junk + minimal() + tail


def damaged_broken_object() -> bytes:
    b = Builder()
    text_page(b, b"Info (object 6) lacks its closing >>",
              info=b"<< /Title (Unterminated dictionary) /Producer (make_samples.py)")
    b.xref_table(b"/Root 1 0 R /Info 6 0 R")
    return b.getvalue()


def damaged_loop() -> bytes:
    b = Builder()
    b.obj(1, b"<< /Type /Catalog /Pages 2 0 R >>")
    b.obj(2, b"<< /Type /Pages /Kids [3 0 R 6 0 R] /Count 2 >>")
    b.obj(3, b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792]"
             b" /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>")
    b.obj(4, stream(b"", b"BT /F1 18 Tf 72 720 Td (/Length 4 0 R: this stream's own number) Tj ET",
                    length=b"4 0 R"))
    b.obj(5, HELVETICA)
    b.obj(6, b"<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >>")  # Kids holds its parent
    b.xref_table(b"/Root 1 0 R")
    return b.getvalue()


BOMB_MIB = 320


def damaged_bomb() -> bytes:
    """A page that draws form XObject 6, whose content inflates to 320 MiB of NUL bytes.

    NUL is white space, so the form is a valid (empty) content stream. Flate twice: the
    inner layer (zeros, ~1000:1) is ~320 KB, the outer layer shrinks that under 1 KB.
    """
    deflate = zlib.compressobj(9)
    zeros = bytes(1 << 20)
    inner = b"".join(deflate.compress(zeros) for _ in range(BOMB_MIB)) + deflate.flush()
    b = Builder()
    skeleton(b, resources=b"/Font << /F1 5 0 R >> /XObject << /Bomb 6 0 R >>")
    b.obj(4, stream(b"", b"BT /F1 18 Tf 72 720 Td (Form 6 inflates to %d MiB) Tj ET q /Bomb Do Q"
                         % BOMB_MIB))
    b.obj(5, HELVETICA)
    b.obj(6, stream(b"/Type /XObject /Subtype /Form /BBox [0 0 1 1] /Filter [/FlateDecode /FlateDecode]",
                    zlib.compress(inner, 9)))
    b.xref_table(b"/Root 1 0 R")
    return b.getvalue()


SAMPLES: dict[str, Callable[[], bytes]] = {
    "minimal.pdf": minimal,
    "lexical.pdf": lexical,
    "xref-subsections.pdf": xref_subsections,
    "incremental.pdf": incremental,
    "xref-stream.pdf": xref_stream,
    "hybrid.pdf": hybrid,
    "indirect-length.pdf": indirect_length,
    "encrypted-rc4.pdf": encrypted_rc4,
    "encrypted-aes256.pdf": encrypted_aes256,
    "kappa.pdf": kappa,
    "cid-identity.pdf": cid_identity,
    "content.pdf": content,
    "filters.pdf": filters,
    "pages.pdf": pages,
    "damaged-no-xref.pdf": damaged_no_xref,
    "damaged-bad-offsets.pdf": damaged_bad_offsets,
    "damaged-bad-length.pdf": damaged_bad_length,
    "damaged-truncated.pdf": damaged_truncated,
    "damaged-garbage.pdf": damaged_garbage,
    "damaged-broken-object.pdf": damaged_broken_object,
    "damaged-loop.pdf": damaged_loop,
    "damaged-bomb.pdf": damaged_bomb,
}
NONDETERMINISTIC = {"encrypted-aes256.pdf"}


def write_all(outdir: Path) -> list[Path]:
    """Write every sample into `outdir`; returns the paths written."""
    outdir.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, make in SAMPLES.items():
        path = outdir / name
        path.write_bytes(make())
        paths.append(path)
    return paths


if __name__ == "__main__":
    for written in write_all(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE):
        print(f"{written.stat().st_size:>8}  {written.name}")
