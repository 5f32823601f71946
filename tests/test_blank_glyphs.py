"""Which glyphs of an embedded program draw nothing (``FontProgram.blank``): a Type 1 charstring of a
width and ``endchar`` (fonts/type1.py, against fontTools' own reading of every corpus program), a
TrueType glyph with no ``glyf`` data, a CFF charstring with no path; built programs and the corpora."""
from __future__ import annotations

import io

import pytest
from conftest import CORPUS, build_truetype, corpus_files
from fontTools.cffLib import CFFFontSet
from fontTools.fontBuilder import FontBuilder
from fontTools.misc import eexec
from fontTools.pens.boundsPen import ControlBoundsPen
from fontTools.pens.t2CharStringPen import T2CharStringPen
from fontTools.t1Lib import T1Font
from fontTools.ttLib import TTFont
from test_type1 import STANDARD, _charstring, _number, _program, _type1_programs

from pdfinspect.fonts.embedded import blank_cff, blank_sfnt
from pdfinspect.fonts.type1 import _unwrap_pfb, read_type1

PDFJS = CORPUS.parent / "corpus-pdfjs"


HSBW, ENDCHAR, RMOVETO, RLINETO, CLOSEPATH, CALLSUBR, HSTEM = (b"\x0d", b"\x0e", b"\x15", b"\x05", b"\x09",
                                                              b"\x0a", b"\x01")
SEAC, DOTSECTION = b"\x0c\x06", b"\x0c\x00"
GLYPHS = {
    "space": (0, 250, HSBW, ENDCHAR),
    "nbspace": (0, 250, HSBW, 0, 20, HSTEM, DOTSECTION, ENDCHAR),  # hints draw nothing
    "A": (0, 500, HSBW, 100, 0, RMOVETO, 50, 100, RLINETO, CLOSEPATH, ENDCHAR),
    "Aacute": (0, 500, HSBW, 0, 0, 0, 65, 194, SEAC),  # an accented letter of two others
    "bar": (0, 300, HSBW, 0, CALLSUBR, ENDCHAR),  # its path is in a subroutine
}


def test_a_type1_glyph_of_a_width_hints_and_endchar_draws_nothing_and_no_other():
    program = read_type1(_program(STANDARD, charstrings={n: _charstring(*items) for n, items in GLYPHS.items()}))
    assert program.glyph_names == tuple(GLYPHS)
    assert program.blank == {"space", "nbspace"}


def test_a_charstring_whose_cipher_starts_like_hex_digits_is_read_as_binary():
    """eexec's part may be written in hexadecimal (7.2), a charstring never is: one whose first four
    encrypted bytes happen to be hex digits is decrypted as the binary it is."""
    from pdfinspect.fonts.type1 import _draws_nothing

    _, key = eexec.decrypt(b"DFE2", 4330)  # the key after the four lenIV bytes that encrypt to DFE2
    body, _ = eexec.encrypt(_number(0) + _number(250) + HSBW + ENDCHAR, key)
    assert _draws_nothing(b"DFE2" + body, 4)


def test_a_truetype_glyph_without_contours_draws_nothing():
    def draw(pen, i, name):
        if name == "A":
            pen.moveTo((0, 0))
            pen.lineTo((300, 700))
            pen.lineTo((600, 0))
            pen.closePath()

    data = build_truetype([".notdef", "space", "A"], draw)
    assert blank_sfnt(TTFont(io.BytesIO(data))) == {0, 1}


def test_a_cff_charstring_of_a_width_and_endchar_draws_nothing():
    names = [".notdef", "space", "A"]
    fb = FontBuilder(1000, isTTF=False)
    fb.setupGlyphOrder(names)
    charstrings = {}
    for name in names:
        pen = T2CharStringPen(500, None)
        if name != "space":
            pen.moveTo((0, 0))
            pen.lineTo((250, 700))
            pen.lineTo((500, 0))
            pen.closePath()
        charstrings[name] = pen.getCharString()
    fb.setupCFF("Blank", {"FullName": "Blank"}, charstrings, {})
    out = io.BytesIO()
    fb.font["CFF "].cff.compile(out, fb.font)
    cff = CFFFontSet()
    cff.decompile(io.BytesIO(out.getvalue()), None)
    assert blank_cff(cff[cff.fontNames[0]]) == {1}


def test_no_type1_glyph_of_the_corpora_called_blank_draws_anything_in_fonttools():
    """Every glyph our reader calls blank draws no point when fontTools runs its charstring (with
    the program's subroutines); and short charstrings fontTools finds empty are ours too."""
    paths = corpus_files() + (sorted(PDFJS.glob("*.pdf")) if PDFJS.is_dir() else [])
    programs = [p for p in _type1_programs(paths) if len(p[1]) <= 40_000]
    if not programs:
        pytest.skip("no corpus with Type 1 programs")
    checked = blank = 0
    for name, data in programs:
        font = T1Font.__new__(T1Font)  # fontTools' own reading, not ours
        font.data, font.encoding = _unwrap_pfb(bytes(data)), "ascii"
        try:
            font.parse()
        except Exception:  # fontTools cannot read it: nothing to compare with
            continue
        ours = read_type1(data).blank
        for glyph, cs in font.font["CharStrings"].items():
            pen = ControlBoundsPen(None)
            try:
                cs.draw(pen)
            except Exception:  # a charstring fontTools cannot run says nothing either way
                continue
            empty = pen.bounds is None
            if glyph in ours:
                assert empty, (name, glyph)
                blank += 1
            elif empty and len(cs.bytecode or b"") <= 20:
                assert glyph not in ours and "seac" in str(cs.program), (name, glyph)
            checked += 1
    assert checked and blank


def _blank_glyph_page() -> bytes:
    """An Identity-H TrueType font of a glyph with no contour (GID 1) and a square (GID 2), its
    ToUnicode giving '#' and then ' ' to the empty glyph (CIDs 1 and 3) and 'A' to the square."""
    pikepdf = pytest.importorskip("pikepdf")
    from test_shapevote import cid_cmap, document, identity_font

    def draw(pen, i, name):
        if name == "square":
            pen.moveTo((100, 0))
            pen.lineTo((100, 700))
            pen.lineTo((500, 700))
            pen.lineTo((500, 0))
            pen.closePath()

    pdf = pikepdf.new()
    font = identity_font(pdf, build_truetype([".notdef", "empty", "square", "empty2"], draw))
    font.ToUnicode = pdf.make_stream(cid_cmap({1: "#", 2: "A", 3: " "}))
    return document({"F1": font}, b"BT /F1 40 Tf 50 50 Td <000100020003> Tj ET", pdf)


def test_a_glyph_that_draws_nothing_is_hidden_text_unless_its_text_is_white_space():
    from pdfinspect.core.document import Document
    from pdfinspect.present.glyphs import page_glyph_facts

    doc = Document(_blank_glyph_page())
    facts = page_glyph_facts(doc, doc.page_ref(1))
    assert [(r.unicode, v.reasons) for r, v in zip(facts.records, facts.visibility)] == [
        ("#", ("draws_nothing",)), ("A", ()), (" ", ())]


def test_pdfium_leaves_no_ink_where_a_glyph_is_said_to_draw_nothing():
    """The claim checked against a renderer: pdfium paints the square and nothing in the box of
    the glyph that draws nothing."""
    pdfium = pytest.importorskip("pypdfium2")
    from pdfinspect.core.document import Document
    from pdfinspect.present.glyphs import page_glyph_facts

    data = _blank_glyph_page()
    doc = Document(data)
    facts = page_glyph_facts(doc, doc.page_ref(1))
    page = pdfium.PdfDocument(data)[0]
    scale, height = 2, page.get_height()
    image = page.render(scale=scale).to_pil().convert("L")
    ink = {}
    for r in facts.records:
        x0, y0, x1, y1 = r.bbox.rect
        box = (int(x0 * scale), int((height - y1) * scale), int(x1 * scale), int((height - y0) * scale))
        ink[r.unicode] = sum(image.crop(box).histogram()[:128])
    assert ink["#"] == 0 and ink["A"] > 100
