"""Guesses judged before they become text (fonts/plausibility.py) and the Macintosh glyph order:
on Type0 fonts built in the test (pikepdf writes the files, fontTools the programs) whose CIDs are
glyph ids in the standard Macintosh order, code points, or neither."""
from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest
from conftest import ROOT, build_truetype
from fontTools.ttLib.standardGlyphOrder import standardGlyphOrder
from pdfminer.fontmetrics import FONT_METRICS

from pdfinspect.content.textlayout import page_glyphs
from pdfinspect.core.document import Document
from pdfinspect.fonts import plausibility as plaus
from pdfinspect.fonts.resolve import Resolver

pikepdf = pytest.importorskip("pikepdf")
HELVETICA = FONT_METRICS["Helvetica"][1]
TEXT = "Prende visione del messaggio"
MAC = {ch: standardGlyphOrder.index(name) for ch, name in
       (("P", "P"), ("r", "r"), ("e", "e"), ("n", "n"), ("d", "d"), (" ", "space"), ("v", "v"), ("i", "i"),
        ("s", "s"), ("o", "o"), ("l", "l"), ("m", "m"), ("a", "a"), ("g", "g"))}


def mac_order_truetype() -> bytes:
    """A TrueType program whose glyphs sit in the standard Macintosh order, with no cmap and a
    'post' table without names (format 3): nothing in it says which glyph is which letter."""
    def draw(pen, i: int, name: str) -> None:
        if name not in (".notdef", ".null", "nonmarkingreturn", "space"):
            pen.moveTo((50, 0))
            pen.lineTo((450, 0))
            pen.lineTo((450, 700))
            pen.closePath()

    return build_truetype(list(standardGlyphOrder[:100]), draw, names=False, metrics=(500, 50), family="MacOrder")


def identity_font(pdf, cids_widths: dict[int, float], program: bytes | None, base="ArialBlack",
                  tounicode: bytes | None = None):
    """A Type0 Identity-H font over a CIDFontType2 with /W for ``cids_widths`` and no ToUnicode."""
    w: list = []
    for cid in sorted(cids_widths):
        w += [cid, [cids_widths[cid]]]
    desc = pikepdf.Dictionary(Type=pikepdf.Name.FontDescriptor, FontName=pikepdf.Name("/" + base), Flags=32,
                              FontBBox=[0, -200, 1000, 800], ItalicAngle=0, Ascent=800, Descent=-200,
                              CapHeight=700, StemV=80)
    if program is not None:
        desc.FontFile2 = pdf.make_stream(program)
    cid = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.CIDFontType2, BaseFont=pikepdf.Name("/" + base),
                             CIDSystemInfo=pikepdf.Dictionary(Registry=pikepdf.String("Adobe"),
                                                              Ordering=pikepdf.String("Identity"), Supplement=0),
                             CIDToGIDMap=pikepdf.Name.Identity, DW=1000, W=w, FontDescriptor=pdf.make_indirect(desc))
    font = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type0, BaseFont=pikepdf.Name("/" + base),
                              Encoding=pikepdf.Name("/Identity-H"), DescendantFonts=[pdf.make_indirect(cid)])
    if tounicode is not None:
        font.ToUnicode = pdf.make_stream(tounicode)
    return font


def page_showing(cids: list[int], widths: dict[int, float], program: bytes | None,
                 tounicode: bytes | None = None) -> bytes:
    pdf = pikepdf.new()
    page = pdf.add_blank_page()
    font = identity_font(pdf, widths, program, tounicode=tounicode)
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=pdf.make_indirect(font)))
    shown = b"".join(c.to_bytes(2, "big") for c in cids)
    page.Contents = pdf.make_stream(b"BT /F1 10 Tf 10 10 Td <" + shown.hex().encode() + b"> Tj ET")
    buf = io.BytesIO()
    pdf.save(buf)
    return buf.getvalue()


def mac_page(embedded: bool) -> bytes:
    """``TEXT`` as Macintosh-order glyph ids; the font's widths are its letters' (Arial's, as Helvetica's)."""
    widths = {gid: HELVETICA[ch] for ch, gid in MAC.items()}
    return page_showing([MAC[ch] for ch in TEXT], widths, mac_order_truetype() if embedded else None)


def text_of(data: bytes, guesses: bool = False) -> tuple[str, set]:
    doc = Document(data)
    records = list(page_glyphs(doc, doc.page_ref(1), Resolver(doc, guesses=guesses)))
    return "".join(r.unicode for r in records), {(r.method, r.resolution.confidence) for r in records}


@pytest.mark.parametrize("embedded", [True, False], ids=["embedded-post3", "not-embedded"])
def test_glyph_ids_in_the_macintosh_order_read_as_their_letters(embedded):
    text, methods = text_of(mac_page(embedded))
    assert text == TEXT
    assert methods == {("MacGlyphOrder", "heuristic")}


def test_a_tounicode_that_misses_every_code_does_not_stop_the_macintosh_order():
    # pdf.js issue5801: Identity-H, a ToUnicode missing every code shown, the font not embedded
    useless = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap 1 begincodespacerange <0000> <ffff> "
               b"endcodespacerange 1 beginbfchar <ffff> <0041> endbfchar endcmap end end")
    widths = {gid: HELVETICA[ch] for ch, gid in MAC.items()}
    text, methods = text_of(page_showing([MAC[ch] for ch in TEXT], widths, None, tounicode=useless))
    assert text == TEXT and methods == {("MacGlyphOrder", "heuristic")}


def test_the_path_says_why_the_macintosh_order_was_not_taken():
    text = "Hello world"
    widths = {ord(ch): HELVETICA[ch] for ch in set(text)}
    doc = Document(page_showing([ord(ch) for ch in text], widths, None))
    first = next(iter(page_glyphs(doc, doc.page_ref(1))))
    mac = next(s for s in first.path if s.method == "MacGlyphOrder")
    assert mac.result == "miss" and "do not follow the Macintosh order" in mac.detail
    assert first.method == "CIDAsUnicode"


def test_the_same_cids_read_as_code_points_would_be_shifted_garbage():
    # what every extractor that reads CIDs as code points outputs: letters 29 away
    shifted = "".join(chr(MAC[ch]) for ch in TEXT if MAC[ch] >= 0x20)
    assert shifted.startswith("3UHQGH")


def test_cids_that_are_code_points_stay_cid_as_unicode():
    text = "Hello world"
    widths = {ord(ch): HELVETICA[ch] for ch in set(text)}
    got, methods = text_of(page_showing([ord(ch) for ch in text], widths, None))
    assert got == text
    assert methods == {("CIDAsUnicode", "heuristic")}


def strewn_page() -> bytes:
    """CIDs that are neither code points of one script nor Macintosh glyph ids: read as code
    points they strew letters over many scripts (as a Chinese subset's glyph ids do)."""
    cids = [0x0B0B, 0x04A8, 0x01E5, 0x1010, 0x0D01, 0x0CB1, 0x0706, 0x09DE, 0x0A2E, 0x0E0F, 0x0565, 0x10D0]
    return page_showing(cids, {c: 600 for c in cids}, None)


def test_strewn_scripts_are_a_guess_kept_out_of_the_text():
    text, methods = text_of(strewn_page())
    assert text == ""
    assert methods == {("CIDAsUnicode", "guess")}
    kept, _ = text_of(strewn_page(), guesses=True)
    assert len(kept) == 12
    doc = Document(strewn_page())
    rec = next(iter(page_glyphs(doc, doc.page_ref(1))))
    step = rec.path[-1]
    assert step.method == "CIDAsUnicode" and step.confidence == "guess" and step.unicode
    assert "mixed_scripts" in step.detail
    assert rec.resolution.has_flag("implausible_guess")


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pdfinspect", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)


def test_text_and_fonts_keep_guesses_apart(tmp_path):
    path = tmp_path / "strewn.pdf"
    path.write_bytes(strewn_page())
    assert run("text", str(path), "-p", "1").stdout.strip() == ""
    assert len(run("text", str(path), "-p", "1", "--guesses").stdout.strip()) == 12
    fonts = json.loads(run("fonts", str(path), "--json").stdout)
    assert fonts[0]["confidence"]["guess"] == 12
    assert "implausible_guess" in {r["id"] for r in fonts[0]["reasons"]}
    glyphs = json.loads(run("glyphs", str(path), "-p", "1", "--json").stdout)
    assert {g["confidence"] for g in glyphs} == {"guess"}
    assert all(g["unicode"] == "" for g in glyphs)


def test_control_and_private_use_text_is_a_guess_per_code():
    assert plaus.judge_text("\x01") == plaus.CONTROL_OR_PRIVATE_USE
    assert plaus.judge_text("\ue000") == plaus.CONTROL_OR_PRIVATE_USE
    assert plaus.judge_text("\ufffd") == plaus.CONTROL_OR_PRIVATE_USE
    assert plaus.judge_text("κ") is None


def test_font_verdicts():
    assert plaus.judge_font(list("Hello world")) is None
    assert plaus.judge_font(list("Grüße Привет Γειά")) is None  # one group: Latin, Cyrillic, Greek
    assert plaus.judge_font(list("̽ଋҨǥƹୡဎഁࣧಱ܆৞ਮ")) == plaus.MIXED_SCRIPTS
    assert plaus.judge_font(list("abcdef"), evidence=list("অআইঈউ")) == plaus.SCRIPT_CONTRADICTS_FONT
    assert plaus.constant_offset(list("3UHQGH"), list("Prende")) == 29
    assert plaus.constant_offset(list("abcdef"), list("abcdef")) is None


def test_cids_read_as_code_points_need_the_fonts_widths_to_back_them():
    # the same CIDs, but the widths the font gives them are not those letters' (glyph ids of some
    # other order): nothing in the font backs the code-point reading, so it is a guess
    text = "Hello world"
    letters = sorted(set(text) - {" "})
    widths = {ord(ch): HELVETICA[letters[-1 - i]] for i, ch in enumerate(letters)}  # every width another letter's
    widths[ord(" ")] = 900
    got, methods = text_of(page_showing([ord(ch) for ch in text], widths, None))
    assert got == "" and methods == {("CIDAsUnicode", "guess")}
    doc = Document(page_showing([ord(ch) for ch in text], widths, None))
    step = next(iter(page_glyphs(doc, doc.page_ref(1)))).path[-1]
    assert "no_evidence" in step.detail


def test_cjk_cids_read_as_code_points_need_wide_widths():
    text = "日本語の文章です。"
    cids = [ord(ch) for ch in text]
    got, methods = text_of(page_showing(cids, {c: 1000 for c in cids}, None))
    assert got == text and methods == {("CIDAsUnicode", "heuristic")}
    got, methods = text_of(page_showing(cids, {c: 450 + 50 * (i % 2) for i, c in enumerate(cids)}, None))
    assert got == "" and methods == {("CIDAsUnicode", "guess")}  # narrow, as no CJK font draws them


def test_east_asian_widths():
    assert plaus.east_asian_widths_fit([(ch, 1000) for ch in "日本語の文章"] + [("a", 500)])
    assert not plaus.east_asian_widths_fit([(ch, 500) for ch in "日本語の文章"])
    # Adobe-Japan1 CIDs read as code points: Greek, Cyrillic, Latin Extended, all 1 em wide
    assert not plaus.east_asian_widths_fit([(chr(c), 1000) for c in range(0x3E8, 0x400)])


def test_a_font_that_keeps_only_ascii_in_the_macintosh_order_is_read_so_up_to_glyph_97():
    # Open Sans and many fonts since: glyphs 3–97 are ASCII in the Macintosh order, the rest their own
    widths = {gid: HELVETICA[ch] for ch, gid in MAC.items()}
    widths.update({98 + i: w for i, w in enumerate((1000, 200, 1000, 200, 1000, 200, 1000, 200, 1000, 200))})
    shown = [MAC[ch] for ch in TEXT] + [99]
    doc = Document(page_showing(shown, widths, None))
    records = list(page_glyphs(doc, doc.page_ref(1)))
    assert "".join(r.unicode for r in records[:-1]) == TEXT
    assert {r.method for r in records[:-1]} == {"MacGlyphOrder"}
    last = records[-1]
    assert last.method != "MacGlyphOrder" and last.unicode == ""
    mac = next(s for s in last.path if s.method == "MacGlyphOrder")
    assert mac.result == "miss" and "ASCII glyphs (3–97) only" in mac.detail


PANGRAM = "The quick brown fox jumps over the lazy dog"


def pangram_page(shift: int) -> bytes:
    """CIDs that are the pangram's code points, the widths Helvetica's, and a ToUnicode whose text
    is ``shift`` code points above the letters: no program, no names, only the widths to judge by."""
    cids = sorted({ord(ch) for ch in PANGRAM})
    cmap = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap 1 begincodespacerange <0000> <ffff> "
            b"endcodespacerange %d beginbfchar " % len(cids)
            + b" ".join(b"<%04X> <%04X>" % (c, c + shift if c != 0x20 else c) for c in cids)
            + b" endbfchar endcmap end end")
    return page_showing([ord(ch) for ch in PANGRAM], {c: HELVETICA[chr(c)] for c in cids}, None, tounicode=cmap)


@pytest.mark.parametrize("shift", [1, -3, -29])
def test_a_tounicode_shifted_by_a_constant_is_caught_by_the_fonts_widths(shift):
    from pdfinspect.content.fontreports import font_reports

    (report,) = font_reports(Document(pangram_page(shift)), [1])
    found = report.reason("tounicode_shifted")
    assert found is not None
    assert f"{abs(shift)} code point" in found.detail and f"moved {shift:+d}" in found.detail
    assert len(found.codes) >= 20


def test_an_unshifted_tounicode_is_not_flagged_by_the_widths():
    from pdfinspect.content.fontreports import font_reports

    (report,) = font_reports(Document(pangram_page(0)), [1])
    assert report.reason("tounicode_shifted") is None


def test_a_tounicode_one_constant_away_from_cids_that_are_code_points_is_shifted():
    # Word-style CIDs (code points, the widths Helvetica's), ToUnicode moved by 1 for every CID
    from pdfinspect.fonts.resolve import tounicode_cid_shift

    doc = Document(pangram_page(1))
    font = next(iter(page_glyphs(doc, doc.page_ref(1)))).step.font
    found = tounicode_cid_shift(font)
    assert found is not None and found.offset == 1 and len(found.codes) >= 20
    doc = Document(pangram_page(0))
    assert tounicode_cid_shift(next(iter(page_glyphs(doc, doc.page_ref(1)))).step.font) is None


def private_cmap_page(widths_of) -> bytes:
    """A Type0 font whose embedded one-byte CMap maps codes 0x20–0x7E to CIDs 1–95, no ToUnicode,
    no program: only the code read as a code point (CodeAsUnicode) gives text."""
    pdf = pikepdf.new()
    page = pdf.add_blank_page()
    cmap = pdf.make_stream(b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Private-H def "
                           b"1 begincodespacerange <00> <ff> endcodespacerange "
                           b"1 begincidrange <20> <7e> 1 endcidrange endcmap end end")
    cmap.Type, cmap.CMapName = pikepdf.Name.CMap, pikepdf.Name("/Private-H")
    cmap.CIDSystemInfo = pikepdf.Dictionary(Registry=pikepdf.String("Prince"), Ordering=pikepdf.String("X"),
                                            Supplement=0)
    w = [1, [widths_of(chr(c)) for c in range(0x20, 0x7F)]]
    cid = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.CIDFontType2, BaseFont=pikepdf.Name("/X"),
                             CIDSystemInfo=cmap.CIDSystemInfo, DW=1000, W=w)
    font = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type0, BaseFont=pikepdf.Name("/X"),
                              Encoding=cmap, DescendantFonts=[pdf.make_indirect(cid)])
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=pdf.make_indirect(font)))
    page.Contents = pdf.make_stream(b"BT /F1 10 Tf 10 10 Td (" + PANGRAM.encode() + b") Tj ET")
    buf = io.BytesIO()
    pdf.save(buf)
    return buf.getvalue()


def test_codes_of_a_private_cmap_read_as_code_points_need_the_widths_too():
    got, methods = text_of(private_cmap_page(lambda ch: HELVETICA.get(ch, 500)))
    assert got == PANGRAM and methods == {("CodeAsUnicode", "heuristic")}
    # the codes 29 away from the letters the widths are (a Prince export read as code points)
    got, methods = text_of(private_cmap_page(lambda ch: HELVETICA.get(chr(ord(ch) + 29), 500)))
    assert got == "" and methods == {("CodeAsUnicode", "guess")}
