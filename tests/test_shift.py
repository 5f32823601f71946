"""A ToUnicode shifted by a constant against the font program's own evidence (fonts/shift.py): a
TrueType cmap reached through Identity, a (1,0) Macintosh cmap, a CID-keyed CFF's own public ROS;
and the legitimate differences that are no shift. Files built in the test: pikepdf writes them,
fontTools the programs."""
from __future__ import annotations

import io
import unicodedata

import pytest
from conftest import build_truetype
from fontTools.cffLib import FDArrayIndex, FDSelect, FontDict
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.t2CharStringPen import T2CharStringPen
from fontTools.ttLib.tables._c_m_a_p import cmap_format_6
from test_shapevote import cid_cmap, document, identity_font

from pdfinspect.content.fontreports import font_reports
from pdfinspect.core.document import Document

pikepdf = pytest.importorskip("pikepdf")

TEXT = "Quartz"  # six distinct letters, each a glyph


def truetype(glyphs: int, unicode: dict[int, int] | None = None, mac: dict[int, int] | None = None) -> bytes:
    """A TrueType program of ``glyphs`` glyphs (after .notdef), each a triangle, no glyph names (post
    format 3); ``unicode`` a (3,1) cmap (code point → GID), ``mac`` a (1,0) cmap (byte → GID)."""
    order = [".notdef"] + [f"g{i}" for i in range(1, glyphs + 1)]

    def draw(pen, i: int, name: str) -> None:
        if i:
            pen.moveTo((0, 0))
            pen.lineTo((100 + 10 * i, 0))
            pen.lineTo((50, 700))
            pen.closePath()

    def edit(font) -> None:
        if unicode is None:
            font["cmap"].tables = []
        if mac is not None:
            sub = cmap_format_6(6)
            sub.platformID, sub.platEncID, sub.language = 1, 0, 0
            sub.cmap = {c: order[g] for c, g in mac.items()}
            font["cmap"].tables.append(sub)

    return build_truetype(order, draw, cmap={u: order[g] for u, g in (unicode or {}).items()}, names=False,
                          metrics=(600, 0), family="Shift", edit=edit)


def cid_cff(cids: list[int], registry: str, ordering: str) -> bytes:
    """A bare CID-keyed CFF (/FontFile3 /CIDFontType0C) whose ROS is ``registry``-``ordering``, one
    glyph per CID of ``cids``."""
    names = [".notdef"] + [f"g{i}" for i in range(1, len(cids) + 1)]
    fb = FontBuilder(1000, isTTF=False)
    fb.setupGlyphOrder(names)
    charstrings = {}
    for i, name in enumerate(names):
        pen = T2CharStringPen(600, None)
        if i:
            pen.moveTo((0, 0))
            pen.lineTo((100 + 10 * i, 0))
            pen.lineTo((50, 700))
            pen.closePath()
        charstrings[name] = pen.getCharString()
    fb.setupCFF("Shift", {"FullName": "Shift"}, charstrings, {})
    cff = fb.font["CFF "].cff
    top = cff[cff.fontNames[0]]
    top.ROS = (registry, ordering, 0)
    fd = FontDict()
    fd.Private = top.Private
    top.FDArray = FDArrayIndex()
    top.FDArray.append(fd)
    top.FDSelect = FDSelect()
    top.FDSelect.format, top.FDSelect.gidArray = 3, [0] * len(names)
    top.CIDCount = max(cids) + 1
    cid_names = [".notdef"] + [f"cid{c:05d}" for c in cids]
    top.CharStrings.charStrings = {cid_names[i]: top.CharStrings.charStrings[n] for i, n in enumerate(names)}
    top.charset = cid_names
    del top.Private

    class _Font:
        recalcBBoxes = False

    out = io.BytesIO()
    cff.compile(out, _Font())
    return out.getvalue()


def cff_font(pdf, data: bytes):
    """A Type0 font over a CIDFontType0 whose CIDSystemInfo is Adobe-Identity."""
    desc = pikepdf.Dictionary(Type=pikepdf.Name.FontDescriptor, FontName=pikepdf.Name("/Shift"), Flags=4,
                              FontBBox=[0, -200, 1000, 800], ItalicAngle=0, Ascent=800, Descent=-200, CapHeight=700,
                              StemV=80, FontFile3=pdf.make_stream(data, Subtype=pikepdf.Name.CIDFontType0C))
    cid = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.CIDFontType0, BaseFont=pikepdf.Name("/Shift"),
                             CIDSystemInfo=pikepdf.Dictionary(Registry=pikepdf.String("Adobe"),
                                                              Ordering=pikepdf.String("Identity"), Supplement=0),
                             DW=600, FontDescriptor=pdf.make_indirect(desc))
    return pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type0, BaseFont=pikepdf.Name("/Shift"),
                              Encoding=pikepdf.Name("/Identity-H"), DescendantFonts=[pdf.make_indirect(cid)])


def report(font, pdf, codes: list[int]):
    content = b"BT /F1 12 Tf 10 40 Td <" + b"".join(b"%04X" % c for c in codes) + b"> Tj ET"
    doc = Document(document({"F1": font}, content, pdf))
    (rep,) = font_reports(doc, [1])
    return rep


def letters_font(tounicode: dict[int, str], cmap: dict[int, int] | None = None, mac: dict[int, int] | None = None,
                 glyphs: int = 6):
    """An Identity-H TrueType CIDFont of ``glyphs`` glyphs (CID = GID) with this ToUnicode (CID →
    text) and program cmaps; its report over the CIDs the ToUnicode maps."""
    pdf = pikepdf.new()
    font = identity_font(pdf, truetype(glyphs, cmap, mac))
    font.ToUnicode = pdf.make_stream(utf16_cmap(tounicode))
    return report(font, pdf, list(tounicode))


def utf16_cmap(pairs: dict[int, str]) -> bytes:
    """test_shapevote's ToUnicode, its destinations in UTF-16 (a surrogate pair beyond the BMP)."""
    return cid_cmap({c: "\0" for c in pairs}).replace(
        b" ".join(b"<%04X> <0000>" % c for c in pairs),
        b" ".join(b"<%04X> <%s>" % (c, t.encode("utf-16-be").hex().upper().encode()) for c, t in pairs.items()))


def by_letters(text: str, shift: int = 0) -> tuple[dict[int, str], dict[int, int]]:
    """ToUnicode (CID → text moved by ``shift``) and (3,1) cmap (code point → GID) for ``text``, one
    glyph per distinct letter."""
    letters = list(dict.fromkeys(text))
    return ({i + 1: chr(ord(c) + shift) for i, c in enumerate(letters)},
            {ord(c): i + 1 for i, c in enumerate(letters)})


def test_a_tounicode_shifted_from_the_programs_cmap_is_flagged_with_its_offset_and_range():
    tounicode, cmap = by_letters(TEXT, 1)
    shifted = letters_font(tounicode, cmap).reason("tounicode_shifted")
    assert shifted is not None and shifted.codes == tuple(c.to_bytes(2, "big") for c in range(1, 7))
    assert "1 code point above what FontProgram gives for 6 codes, <0001>–<0006>" in shifted.detail
    assert "(offset +1)" in shifted.detail
    tounicode, cmap = by_letters(TEXT, -3)
    assert "3 code points below" in letters_font(tounicode, cmap).reason("tounicode_shifted").detail


def test_the_same_font_with_a_true_tounicode_is_clean():
    tounicode, cmap = by_letters(TEXT)
    rep = letters_font(tounicode, cmap)
    assert rep.reasons == ()


def test_three_codes_are_enough_when_they_are_all_the_font_shows():
    tounicode, cmap = by_letters("Abc", 1)
    assert letters_font(tounicode, cmap, glyphs=3).reason("tounicode_shifted") is not None
    tounicode, cmap = by_letters("Ab", 1)  # two codes say nothing
    assert letters_font(tounicode, cmap, glyphs=2).reason("tounicode_shifted") is None


def test_a_few_codes_off_by_one_among_many_are_no_shift():
    # the cmap covers two of six codes and names their neighbours: not a shifted table
    tounicode, _ = by_letters(TEXT)
    assert letters_font(tounicode, {ord("R"): 1, ord("v"): 2}).reason("tounicode_shifted") is None


def test_codes_without_evidence_neither_make_nor_hide_a_shift():
    # ten codes; the cmap knows four of them, each one letter below the ToUnicode's: shifted
    letters = "abcdefghij"
    tounicode = {i + 1: chr(ord(c) + 1) for i, c in enumerate(letters)}
    known = {ord(c): i + 1 for i, c in enumerate(letters[:4])}
    shifted = letters_font(tounicode, known, glyphs=10).reason("tounicode_shifted")
    assert shifted is not None and len(shifted.codes) == 4
    # the same four among ten the cmap gives as the ToUnicode does: four odd codes, no shift
    tounicode = {i + 1: c for i, c in enumerate(letters)}
    tounicode.update({i + 1: chr(ord(c) + 1) for i, c in enumerate(letters[:4])})
    every = {ord(c): i + 1 for i, c in enumerate(letters)}
    assert letters_font(tounicode, every, glyphs=10).reason("tounicode_shifted") is None


@pytest.mark.parametrize("evidence, given", [
    (lambda c: 0xF000 + ord(c), lambda c: c),  # a cmap to private use (a symbol font's U+F0xx)
    (lambda c: ord(c), lambda c: chr(0xF000 + ord(c))),  # ToUnicode to a symbol font's U+F0xx
    (lambda c: ord(c) + 0xFEE0, lambda c: c),  # the cmap's fullwidth forms, the ToUnicode's ASCII
    (lambda c: ord(c.upper()), lambda c: c.lower()),  # lowercase text drawn by capitals
    (lambda c: 0x1D44E + ord(c) - ord("a"), lambda c: c),  # mathematical italic letters
], ids=["cmap-to-pua", "tounicode-to-f0xx", "fullwidth", "case", "math-italic"])
def test_legitimate_differences_from_the_cmap_are_no_shift(evidence, given):
    letters = "bcdefg"
    tounicode = {i + 1: given(c) for i, c in enumerate(letters)}
    cmap = {evidence(c): i + 1 for i, c in enumerate(letters)}
    rep = letters_font(tounicode, cmap)
    assert rep.reason("tounicode_shifted") is None


def test_a_macintosh_cmap_is_evidence_unless_it_is_a_placeholder():
    tounicode, cmap = by_letters(TEXT, 1)
    mac = dict(cmap)  # ASCII: the same bytes in Mac Roman
    shifted = letters_font(tounicode, mac=mac).reason("tounicode_shifted")
    assert shifted is not None and "the program's (1,0) cmap" in shifted.detail
    identity = {c: c for c in range(1, 7)}  # code n → glyph n: a subsetter's table, no characters
    assert letters_font(tounicode, mac=identity).reason("tounicode_shifted") is None


def test_a_cff_whose_own_ros_is_a_public_collection_gives_its_letters():
    # Adobe-Japan1 CIDs 34–39 are A–F; the CIDFont says Adobe-Identity, so only the CFF's ROS tells
    cids = list(range(34, 40))
    for shift, flagged in ((1, True), (0, False)):
        pdf = pikepdf.new()
        font = cff_font(pdf, cid_cff(cids, "Adobe", "Japan1"))
        font.ToUnicode = pdf.make_stream(cid_cmap({c: chr(ord("A") + c - 34 + shift) for c in cids}))
        shifted = report(font, pdf, cids).reason("tounicode_shifted")
        assert (shifted is not None) == flagged
        if flagged:
            assert "the CFF's own Adobe-Japan1 CIDs" in shifted.detail and "U+0041–U+0046 given as U+0042–U+0047" \
                in shifted.detail
    pdf = pikepdf.new()
    font = cff_font(pdf, cid_cff(cids, "Adobe", "Identity"))  # no collection: no evidence
    font.ToUnicode = pdf.make_stream(cid_cmap({c: chr(ord("A") + c - 33) for c in cids}))
    assert report(font, pdf, cids).reason("tounicode_shifted") is None


def pangram(shift: int, scale: int = 1, program: bytes | None = None):
    """The report of a font whose CIDs are the pangram's code points and whose widths are Helvetica's
    (times ``scale``), its ToUnicode ``shift`` code points above the letters."""
    from test_plausibility import HELVETICA, PANGRAM, page_showing

    cids = sorted({ord(ch) for ch in PANGRAM})
    tounicode = cid_cmap({c: chr(c + shift) for c in cids if c != 0x20})
    data = page_showing([ord(ch) for ch in PANGRAM], {c: HELVETICA[chr(c)] * scale for c in cids}, program,
                        tounicode=tounicode)
    (rep,) = font_reports(Document(data), [1])
    return rep


def test_the_widths_of_pictures_say_nothing_of_a_shift():
    # shifted, the pangram is caught by its widths; the same widths three times over are a picture
    # font's (wider than any letter): no judgement
    assert pangram(1).reason("tounicode_shifted") is not None
    assert pangram(1, scale=3).reason("tounicode_shifted") is None


def test_the_widths_say_nothing_where_the_program_gives_the_tounicodes_own_text():
    # the widths fit the letters one code point below the ToUnicode's, but the program's cmap maps
    # the ToUnicode's letters to the glyphs: the program's word outranks the widths'
    from test_plausibility import PANGRAM

    cids = sorted({ord(ch) for ch in PANGRAM} - {0x20})
    program = truetype(max(cids), {c + 1: c for c in cids})
    rep = pangram(1, program=program)
    assert rep.reason("tounicode_shifted") is None


# A Japanese and a Korean text whose font names no glyph: only how common the characters are tells
# a shifted ToUnicode (13 distinct ideographs of JIS X 0208 level 1; 12 syllables of KS X 1001)
JAPANESE = "日本語の文章を書いて東京の大学で研究する人"
KOREAN = "대한민국의 수도는 서울이다"


def cjk_font(text: str, shift: int):
    chars = [c for c in dict.fromkeys(text) if c != " "]
    tounicode = {i + 1: chr(ord(c) + shift) for i, c in enumerate(chars)}
    return letters_font(tounicode, None, glyphs=len(chars))


@pytest.mark.parametrize("text, shift", [(JAPANESE, 1), (KOREAN, -2)])
def test_a_cjk_tounicode_is_shifted_where_its_characters_are_common_only_once_moved(text, shift):
    found = cjk_font(text, shift).reason("tounicode_shifted")
    assert found is not None and f"(offset {shift:+d};" in found.detail
    assert "moved by" in found.detail and "as given" in found.detail
    assert cjk_font(text, 0).reason("tounicode_shifted") is None


def test_too_few_cjk_characters_are_not_judged_by_how_common_they_are():
    assert cjk_font("日本語の文章", 1).reason("tounicode_shifted") is None  # five ideographs


THAI = "กขคงจฉชซดตะาัิีุ่้"  # ten consonants, two vowels with an advance, six marks without one


def thai_font(shift: int):
    """An Identity font with no glyph names whose marks (Mn) have zero width, its ToUnicode moved."""
    pdf = pikepdf.new()
    font = identity_font(pdf, truetype(len(THAI)))
    widths = [0 if unicodedata.category(c) == "Mn" else 600 for c in THAI]
    font.DescendantFonts[0].W = [1, widths]
    font.ToUnicode = pdf.make_stream(cid_cmap({i + 1: chr(ord(c) + shift) for i, c in enumerate(THAI)}))
    return report(font, pdf, list(range(1, len(THAI) + 1)))


def test_a_tounicode_is_shifted_where_its_marks_fall_on_the_glyphs_of_zero_width_only_once_moved():
    found = thai_font(1).reason("tounicode_shifted")
    assert found is not None and "(offset +1)" in found.detail and "6 glyphs of zero width" in found.detail
    assert thai_font(0).reason("tounicode_shifted") is None


@pytest.mark.parametrize("given, evidence", [
    (lambda c: chr(0x1D44E + ord(c) - ord("a") + 1), lambda c: c),  # 𝑞 given where the cmap has p
    (lambda c: chr(ord(c.upper()) + 1), lambda c: c),  # capitals one above the cmap's small letters
], ids=["math-italic", "case"])
def test_a_shift_is_read_in_the_form_the_evidence_gives(given, evidence):
    # the ToUnicode's letters moved back by one are the evidence's in another form (NFKC, case)
    letters = "bcdefm"  # (not g: one above 𝑔 is a hole of the block, ℎ being U+210E)
    tounicode = {i + 1: given(c) for i, c in enumerate(letters)}
    cmap = {ord(evidence(c)): i + 1 for i, c in enumerate(letters)}
    shifted = letters_font(tounicode, cmap).reason("tounicode_shifted")
    assert shifted is not None and "(offset +1)" in shifted.detail and len(shifted.codes) == 6


def test_three_moved_codes_suffice_when_they_are_every_code_with_evidence_and_half_the_font():
    # five codes shown, the cmap knows three, each one letter below the ToUnicode's: shifted
    letters = "bcdef"
    tounicode = {i + 1: chr(ord(c) + 1) for i, c in enumerate(letters)}
    known = {ord(c): i + 1 for i, c in enumerate(letters[:3])}
    shifted = letters_font(tounicode, known, glyphs=5).reason("tounicode_shifted")
    assert shifted is not None and len(shifted.codes) == 3
    # three of seven: too few of the font to say
    letters = "bcdefgh"
    tounicode = {i + 1: chr(ord(c) + 1) for i, c in enumerate(letters)}
    assert letters_font(tounicode, known, glyphs=7).reason("tounicode_shifted") is None
    # three moved and one code the cmap gives as the ToUnicode does: no shift
    tounicode = {i + 1: chr(ord(c) + 1) for i, c in enumerate("bcdef")}
    tounicode[4] = "e"
    known[ord("e")] = 4
    assert letters_font(tounicode, known, glyphs=5).reason("tounicode_shifted") is None


def test_one_font_drawing_the_outline_is_evidence_of_a_shift_though_too_few_to_contradict():
    from test_shapevote import FIVE, program, simple_font

    from pdfinspect.fonts.resolve import Resolver
    from pdfinspect.fonts.shapevote import learn

    order = list(FIVE)
    pdf = pikepdf.new()
    font = simple_font(pdf, program(order, FIVE))
    font.LastChar, font.Widths = 69, [600] * 5
    source = Document(document({"F0": font}, b"BT /F0 12 Tf 10 10 Td (ABCDE) Tj ET", pdf))
    table = learn(source, Resolver(source))  # one font draws each outline
    for shift, flagged in ((1, True), (0, False)):
        pdf = pikepdf.new()
        font = identity_font(pdf, truetype_of(order))
        font.ToUnicode = pdf.make_stream(cid_cmap({i + 1: chr(ord(FIVE[d]) + shift) for i, d in enumerate(order)}))
        doc = Document(document({"F2": font}, b"BT /F2 12 Tf 10 40 Td <00010002000300040005> Tj ET", pdf))
        (rep,) = font_reports(doc, [1], Resolver(doc, shapes=table))
        assert (rep.reason("tounicode_shifted") is not None) == flagged
        assert rep.reason("mapping_contradicts_shape") is None  # one font: no contradiction flagged


def truetype_of(order: list[str]) -> bytes:
    """test_shapevote's program of these designs, nothing named."""
    from test_shapevote import program

    return program(order, None)


def letters_in(text: str, shift: int, zero: str = "") -> object:
    """The report of an Identity font of no glyph names showing ``text``'s distinct letters, its
    ToUnicode ``shift`` code points above them, the glyphs of ``zero``'s letters of zero width."""
    letters = [c for c in dict.fromkeys(text) if c != " "]
    pdf = pikepdf.new()
    font = identity_font(pdf, truetype(len(letters)))
    font.DescendantFonts[0].W = [1, [0 if c in zero else 600 for c in letters]]
    font.ToUnicode = pdf.make_stream(utf16_cmap({i + 1: chr(ord(c) + shift) for i, c in enumerate(letters)}))
    return report(font, pdf, list(range(1, len(letters) + 1)))


# moved up by one, ร ข ล become ฤ ฃ ฦ (rare and obsolete Thai letters); い ウ ヴ become ぃ ゥ ヵ
THAI_WORDS = "เรียน ขล พ่ว"
JAPANESE_KANA = "あのウーハトヴォすきとおった風"


@pytest.mark.parametrize("text, zero", [(THAI_WORDS, "ี่"), (JAPANESE_KANA, "")], ids=["thai", "kana"])
def test_a_tounicode_is_shifted_where_one_offset_alone_clears_its_rare_letters(text, zero):
    found = letters_in(text, 1, zero).reason("tounicode_shifted")
    assert found is not None and "(offset +1;" in found.detail and "a text without rare letters" in found.detail
    assert letters_in(text, 0, zero).reason("tounicode_shifted") is None


def test_rare_letters_of_a_real_text_are_no_shift():
    # ฤ and ฌ in real words: every offset that clears them puts other letters on rare ones
    assert letters_in("อังกฤษ ฌาน เรียน", 0, "ั").reason("tounicode_shifted") is None
    assert letters_in("いすゞ ヽ ひらがな", 0).reason("tounicode_shifted") is None


def test_a_loose_likeness_is_evidence_where_three_nearest_outlines_draw_one_letter():
    # an A of thin strokes: 51-56 from the taught A's (a clear likeness reading asks 40 at most), and
    # nearer no other letter; three fonts teaching it make a loose reading, two do not
    from test_likeness import box, delta, hbar, program, simple_font

    from pdfinspect.fonts.resolve import Resolver
    from pdfinspect.fonts.shapevote import learn

    def table(designs: tuple[tuple[int, int], ...]):
        pdf = pikepdf.new()
        fonts = {f"F{i}": simple_font(pdf, program([delta(w, s), box(w, s), hbar(w, s)], ["A", "B", "C"]))
                 for i, (w, s) in enumerate(designs, 1)}
        shown = b" ".join(b"/F%d 12 Tf (ABC) Tj" % i for i in range(1, len(designs) + 1))
        source = Document(document(fonts, b"BT 10 10 Td " + shown + b" ET", pdf))
        return learn(source, Resolver(source))

    pdf = pikepdf.new()
    font = identity_font(pdf, program([delta(700, 40)], None))
    font.ToUnicode = pdf.make_stream(utf16_cmap({1: "B"}))
    data = document({"F9": font}, b"BT /F9 12 Tf 10 40 Td <0001> Tj ET", pdf)
    for designs, seen in ((((560, 80), (600, 95), (580, 88)), "A"), (((560, 80), (600, 95)), None)):
        doc = Document(data)
        resolver = Resolver(doc, shapes=table(designs))
        (rep,) = font_reports(doc, [1], resolver)
        assert resolver.looks_like(rep.font, rep.resolutions[0]) == seen
