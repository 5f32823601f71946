"""The shape vote (fonts/shapevote.py): glyphs read by their outline when nothing maps them, in one
document and through a learned table; mappings that the outlines or the font's names contradict.
Files built in the test: pikepdf writes them, fontTools the programs."""
from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest
from conftest import ROOT, build_truetype
from fontTools.ttLib import TTFont
from test_shapes import DRAW

from pdfinspect.content.fontreports import font_reports
from pdfinspect.content.textlayout import page_glyphs
from pdfinspect.core.document import Document
from pdfinspect.fonts.resolve import Resolver
from pdfinspect.fonts.shapevote import ShapeTable, learn

pikepdf = pytest.importorskip("pikepdf")


def program(order: list[str], unicode: dict[str, str] | None, extra: int = 0) -> bytes:
    """A TrueType program drawing ``order``'s designs; with ``unicode`` a (3,1) cmap and glyph names,
    without it neither (post format 3). ``extra`` empty glyphs make another program of one design."""
    names = order if unicode is not None else [f"g{i}" for i in range(len(order))]

    def draw(pen, i: int, name: str) -> None:
        design = order[names.index(name)] if name in names else None
        if design in DRAW:  # any other design ("space") draws nothing
            DRAW[design](pen, 1000)

    return build_truetype([".notdef", *names, *(f"pad{i}" for i in range(extra))], draw,
                          cmap={ord(unicode[n]): n for n in order} if unicode else None, names=unicode is not None,
                          family="Vote")


LETTERS = {"square": "A", "ring": "B", "arch": "C"}


def simple_font(pdf, data: bytes, tounicode: bytes | None = None):
    desc = pikepdf.Dictionary(Type=pikepdf.Name.FontDescriptor, FontName=pikepdf.Name("/Vote"), Flags=32,
                              FontBBox=[0, -200, 1000, 800], ItalicAngle=0, Ascent=800, Descent=-200, CapHeight=700,
                              StemV=80, FontFile2=pdf.make_stream(data))
    font = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.TrueType, BaseFont=pikepdf.Name("/Vote"),
                              FirstChar=65, LastChar=67, Widths=[600, 600, 600],
                              Encoding=pikepdf.Name.WinAnsiEncoding, FontDescriptor=pdf.make_indirect(desc))
    if tounicode is not None:
        font.ToUnicode = pdf.make_stream(tounicode)
    return font


def identity_font(pdf, data: bytes):
    desc = pikepdf.Dictionary(Type=pikepdf.Name.FontDescriptor, FontName=pikepdf.Name("/Stripped"), Flags=4,
                              FontBBox=[0, -200, 1000, 800], ItalicAngle=0, Ascent=800, Descent=-200, CapHeight=700,
                              StemV=80, FontFile2=pdf.make_stream(data))
    cid = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.CIDFontType2, BaseFont=pikepdf.Name("/Stripped"),
                             CIDSystemInfo=pikepdf.Dictionary(Registry=pikepdf.String("Adobe"),
                                                              Ordering=pikepdf.String("Identity"), Supplement=0),
                             CIDToGIDMap=pikepdf.Name.Identity, DW=600, FontDescriptor=pdf.make_indirect(desc))
    return pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type0, BaseFont=pikepdf.Name("/Stripped"),
                              Encoding=pikepdf.Name("/Identity-H"), DescendantFonts=[pdf.make_indirect(cid)])


def document(fonts: dict[str, object], content: bytes, pdf=None) -> bytes:
    pdf = pdf or pikepdf.new()
    page = pdf.add_blank_page()
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary({f"/{k}": pdf.make_indirect(v) for k, v in fonts.items()}))
    page.Contents = pdf.make_stream(content)
    buf = io.BytesIO()
    pdf.save(buf)
    return buf.getvalue()


NAMED = program(["square", "ring", "arch"], LETTERS)
STRIPPED = program(["arch", "square", "ring"], None)  # the same designs, renumbered, nothing named
SHOW_STRIPPED = b"BT /F2 12 Tf 10 40 Td <000100020003> Tj ET"


def with_both() -> bytes:
    pdf = pikepdf.new()
    return document({"F1": simple_font(pdf, NAMED), "F2": identity_font(pdf, STRIPPED)},
                    b"BT /F1 12 Tf 10 10 Td (ABC) Tj ET " + SHOW_STRIPPED, pdf)


def stripped_only() -> bytes:
    pdf = pikepdf.new()
    return document({"F2": identity_font(pdf, STRIPPED)}, SHOW_STRIPPED, pdf)


def glyphs(data: bytes, resolver=None) -> list:
    doc = Document(data)
    return list(page_glyphs(doc, doc.page_ref(1), resolver(doc) if resolver else None))


def test_a_stripped_subset_reads_through_the_documents_own_shapes():
    records = [r for r in glyphs(with_both()) if r.step.gstate.text.font_name == "F2"]
    assert "".join(r.unicode for r in records) == "CAB"
    assert {r.method for r in records} == {"GlyphShape"}
    assert {r.resolution.confidence for r in records} == {"heuristic"}
    step = records[0].path[-1]
    assert step.method == "GlyphShape" and "same outline as U+0043 C in 1 font of 1 file" in step.detail


def test_a_program_whose_last_glyph_runs_past_glyf_still_votes_and_says_so():
    """A subset whose loca points past its glyf table (Aspose's padding): its outlines are read as
    pdf.js reads them, the stripped glyphs vote, and the font report names the damage."""
    from test_shapes import set_loca

    size = int(TTFont(io.BytesIO(STRIPPED))["loca"].locations[-1])
    assert size % 4  # so that padding it to four bytes runs past the table
    pdf = pikepdf.new()
    damaged = set_loca(STRIPPED, -1, (size + 3) & ~3)
    data = document({"F1": simple_font(pdf, NAMED), "F2": identity_font(pdf, damaged)},
                    b"BT /F1 12 Tf 10 10 Td (ABC) Tj ET " + SHOW_STRIPPED, pdf)
    records = [r for r in glyphs(data) if r.step.gstate.text.font_name == "F2"]
    assert "".join(r.unicode for r in records) == "CAB"
    doc = Document(data)
    resolver = Resolver(doc)
    report = next(r for r in font_reports(doc, [1], resolver) if r.names == ("F2",))
    (damage,) = resolver.program(report.font).diagnostics
    assert damage.code == "font-table-damaged" and "glyph 3 ending 2 bytes past it (padding) read to its end" in damage.message
    assert "font_program_unreadable" not in {r.id for r in report.reasons}


def test_a_cut_cmap_leaves_the_glyph_names_and_the_outlines():
    """A cmap table cut after its subtable records: fontTools refuses it, which refused the whole
    program; now only the cmap is left out, with a warning, and the program still names its glyphs."""
    from test_shapes import _directory

    record, _, _ = _directory(NAMED)[b"cmap"]
    cut = NAMED[:record + 12] + (12).to_bytes(4, "big") + NAMED[record + 16:]
    pdf = pikepdf.new()
    data = document({"F1": simple_font(pdf, cut)}, b"BT /F1 12 Tf 10 10 Td (ABC) Tj ET", pdf)
    doc = Document(data)
    resolver = Resolver(doc)
    (report,) = font_reports(doc, [1], resolver)
    program = resolver.program(report.font)
    assert program.glyph_names == (".notdef", "square", "ring", "arch") and program.cmaps == {}
    assert [d.code for d in program.diagnostics] == ["font-table-damaged"]
    assert "cmap table cannot be read" in program.diagnostics[0].message
    assert "".join(r.unicode for r in glyphs(data)) == "ABC"


def test_without_the_other_font_nothing_reads_it():
    assert "".join(r.unicode for r in glyphs(stripped_only())) == ""


def test_a_learned_table_reads_another_file(tmp_path):
    source = Document(with_both())
    table = learn(source, Resolver(source))
    path = tmp_path / "shapes.json.gz"
    table.save(path)
    loaded = ShapeTable.load(path)
    assert loaded.entries == table.entries and len([k for k in loaded.entries if k[:1] not in "~="]) == 3
    records = glyphs(stripped_only(), lambda doc: Resolver(doc, shapes=loaded))
    assert "".join(r.unicode for r in records) == "CAB"
    pdf = tmp_path / "stripped.pdf"
    pdf.write_bytes(stripped_only())
    run = lambda *a: subprocess.run([sys.executable, "-m", "pdfinspect", *a], capture_output=True, text=True,
                                    cwd=ROOT, timeout=120)
    assert run("text", str(pdf), "--shapes", str(path)).stdout.strip() == "CAB"
    bad = tmp_path / "not-a-table.json"
    bad.write_text("{}")
    p = run("text", str(pdf), "--shapes", str(bad))
    assert p.returncode == 1 and "not a shape table" in p.stderr and "Traceback" not in p.stderr


def test_a_tounicode_the_outlines_contradict_is_flagged():
    lying = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap 1 begincodespacerange <00> <ff> "
             b"endcodespacerange 1 beginbfchar <41> <005A> endbfchar endcmap end end")
    pdf = pikepdf.new()
    teach = document({"F1": simple_font(pdf, NAMED), "F3": simple_font(pdf, program(["square", "ring", "arch"], LETTERS, 1))},
                     b"BT /F1 12 Tf 10 10 Td (ABC) Tj /F3 12 Tf (ABC) Tj ET", pdf)
    source = Document(teach)
    table = learn(source, Resolver(source))
    pdf = pikepdf.new()
    liar = Document(document({"F4": simple_font(pdf, NAMED, lying)}, b"BT /F4 12 Tf 10 10 Td (A) Tj ET", pdf))
    resolver = Resolver(liar, shapes=table)
    (record,) = list(page_glyphs(liar, liar.page_ref(1), resolver))
    assert record.unicode == "Z"  # the ToUnicode stays the answer, as extractors give it
    assert record.resolution.has_flag("mapping_contradicts_shape")
    (report,) = font_reports(liar, [1], resolver)
    assert report.reason("mapping_contradicts_shape").codes == (b"A",)


def test_a_tounicode_shifted_by_a_constant_is_flagged(tmp_path):
    entries = b" ".join(b"<%02X> <00%02X>" % (c, c + 1) for c in range(0x41, 0x47))
    shifted = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap 1 begincodespacerange <00> <ff> "
               b"endcodespacerange 6 beginbfchar " + entries + b" endbfchar endcmap end end")
    pdf = pikepdf.new()
    font = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica,
                              Encoding=pikepdf.Name.WinAnsiEncoding, ToUnicode=pdf.make_stream(shifted))
    path = tmp_path / "shifted.pdf"
    path.write_bytes(document({"F1": font}, b"BT /F1 12 Tf 10 10 Td (ABCDEF) Tj ET", pdf))
    out = subprocess.run([sys.executable, "-m", "pdfinspect", "fonts", str(path), "--json"], capture_output=True,
                         text=True, cwd=ROOT, timeout=120).stdout
    reasons = {r["id"]: r for r in json.loads(out)[0]["reasons"]}
    assert reasons["tounicode_shifted"]["codes"] == ["41", "42", "43", "44", "45", "46"]
    assert "1 code point above what Encoding gives" in reasons["tounicode_shifted"]["detail"]


def test_an_unshifted_tounicode_is_not_flagged():
    from conftest import sample

    reports = font_reports(Document.open(sample("cid-identity.pdf")))
    assert not any(r.reason("tounicode_shifted") for r in reports)


def test_fix_from_shapes_writes_what_the_outlines_say(tmp_path):
    source = tmp_path / "both.pdf"
    source.write_bytes(with_both())
    out = tmp_path / "fixed.pdf"
    p = subprocess.run([sys.executable, "-m", "pdfinspect", "fix", str(source), "-o", str(out), "--from", "shapes"],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "GlyphShape" in p.stdout
    fixed = Document.open(out)
    records = [r for r in page_glyphs(fixed, fixed.page_ref(1)) if r.step.gstate.text.font_name == "F2"]
    assert "".join(r.unicode for r in records) == "CAB" and {r.method for r in records} == {"ToUnicode"}
    spec_only = subprocess.run([sys.executable, "-m", "pdfinspect", "fix", str(source), "-o", str(tmp_path / "x.pdf"),
                                "--from", "spec", "--dry-run"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert "GlyphShape" not in spec_only.stdout


def test_a_guess_is_never_written_by_fix():
    from pdfinspect.fonts.fix import _from
    from pdfinspect.fonts.resolve import PathStep

    guess = PathStep("CIDAsUnicode", None, "", "", "hit", "", "x", "guess")
    shape = PathStep("GlyphShape", None, "", "", "hit", "", "x", "heuristic")
    assert not _from("heuristic", guess)
    assert _from("shapes", shape) and _from("heuristic", shape) and not _from("spec", shape)


def test_the_picture_of_a_glyph_is_its_outline_in_braille():
    from pdfinspect.fonts.shapevote import GlyphShapes
    from pdfinspect.present.shapes import braille, glyph_picture

    assert braille([[True, False], [False, False], [False, False], [False, True]]) == ["\u2881"]
    doc = Document(with_both())
    shapes = GlyphShapes(doc)
    records = list(page_glyphs(doc, doc.page_ref(1)))
    ring = next(r for r in records if r.unicode == "B" and r.step.gstate.text.font_name == "F1")
    picture = glyph_picture(shapes, ring, columns=8, lines=4)
    assert len(picture.rows) == 4 and all(len(row) == 8 for row in picture.rows)
    assert picture.rows[1][1] != "\u2800" and picture.rows[1][3] == "\u2800"  # a wall, then the hole
    assert picture.fingerprint == next(r for r in records if r.method == "GlyphShape" and r.unicode == "B") \
        .path[-1].looked_up.split()[-1]
    pdf = pikepdf.new()
    helv = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica)
    plain = Document(document({"F1": helv}, b"BT /F1 12 Tf (A) Tj ET", pdf))
    (record,) = list(page_glyphs(plain, plain.page_ref(1)))
    none = glyph_picture(GlyphShapes(plain), record)
    assert none.rows == () and "no font program is embedded" in none.why


FIVE = {"square": "A", "ring": "B", "arch": "C", "bar": "D", "wedge": "E"}


def five_table() -> ShapeTable:
    """Two fonts (two programs of one design) whose (3,1) cmaps name five outlines A–E."""
    order = list(FIVE)
    pdf = pikepdf.new()
    fonts = {}
    for i, extra in enumerate((0, 1)):
        font = simple_font(pdf, program(order, FIVE, extra))
        font.LastChar, font.Widths = 69, [600] * 5
        fonts[f"F{i}"] = font
    source = Document(document(fonts, b"BT /F0 12 Tf 10 10 Td (ABCDE) Tj /F1 12 Tf (ABCDE) Tj ET", pdf))
    return learn(source, Resolver(source))


def cid_cmap(pairs: dict[int, str]) -> bytes:
    entries = b" ".join(b"<%04X> <%04X>" % (c, ord(t)) for c, t in pairs.items())
    return (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap 1 begincodespacerange <0000> <ffff> "
            b"endcodespacerange %d beginbfchar " % len(pairs) + entries + b" endbfchar endcmap end end")


def test_a_shifted_tounicode_over_a_program_without_names_is_caught_by_the_outlines():
    # nothing in the font but the outlines says which glyph is which letter: the vote does
    order = ["wedge", "square", "bar", "ring", "arch"]
    truth = {i + 1: FIVE[d] for i, d in enumerate(order)}
    table = five_table()
    for shift, flagged in ((1, True), (0, False)):
        pdf = pikepdf.new()
        font = identity_font(pdf, program(order, None))
        font.ToUnicode = pdf.make_stream(cid_cmap({c: chr(ord(t) + shift) for c, t in truth.items()}))
        doc = Document(document({"F2": font}, b"BT /F2 12 Tf 10 40 Td <0001000200030004000500030001> Tj ET", pdf))
        (report,) = font_reports(doc, [1], Resolver(doc, shapes=table))
        shifted = report.reason("tounicode_shifted")
        assert (shifted is not None) == flagged
        if flagged:
            assert len(shifted.codes) == 5 and "1 code point above what GlyphShape gives" in shifted.detail


def test_a_glyph_that_draws_nothing_reads_as_a_space():
    order = ["square", "ring", "arch"]
    pdf = pikepdf.new()
    teacher = simple_font(pdf, program(order + ["space"], {**LETTERS, "space": " "}))
    teacher.FirstChar, teacher.LastChar, teacher.Widths = 32, 67, [250] + [0] * 32 + [600] * 3
    source = Document(document({"F1": teacher}, b"BT /F1 12 Tf 10 10 Td (A B) Tj ET", pdf))
    table = learn(source, Resolver(source))
    pdf = pikepdf.new()
    font = identity_font(pdf, program(["arch", "space", "square"], None))  # gid 2 draws nothing
    data = document({"F2": font}, b"BT /F2 12 Tf 10 40 Td <000300020001> Tj ET", pdf)
    records = glyphs(data, lambda doc: Resolver(doc, shapes=table))
    assert "".join(r.unicode for r in records) == "A C"
    assert records[1].method == "GlyphShape"


def test_another_version_of_an_outline_reads_through_the_coarse_key_when_two_fonts_agree():
    table = five_table()  # two programs draw the square as A
    pdf = pikepdf.new()
    font = identity_font(pdf, program(["square2", "ring"], None))  # the square a few units wider
    data = document({"F2": font}, b"BT /F2 12 Tf 10 40 Td <00010002> Tj ET", pdf)
    records = glyphs(data, lambda doc: Resolver(doc, shapes=table))
    assert "".join(r.unicode for r in records) == "AB"
    step = records[0].path[-1]
    assert step.method == "GlyphShape" and step.detail.startswith("nearly the same outline as U+0041 A in 2 fonts")
    assert step.code == "shape_vote_coarse" and records[1].path[-1].code == "shape_vote"
    assert records[1].path[-1].detail.startswith("same outline as U+0042 B")
    one = ShapeTable()
    for fp, texts in table.entries.items():
        for text in texts:
            one.add(fp, text)  # one font only: a coarse vote of one font is not clear
    assert "".join(r.unicode for r in glyphs(data, lambda doc: Resolver(doc, shapes=one))) == "B"


def test_a_fingerprint_several_characters_vote_for_is_no_clear_vote():
    table = ShapeTable()
    table.add("f", "l", 5, 3)
    table.add("f", "I", 4, 2)
    vote = table.vote("f")
    assert vote.text == "l" and not vote.clear
    assert (vote.runner_up, vote.runner_up_fonts, vote.margin) == ("I", 4, 1)
    assert "runner-up U+0049 I in 4" in vote.describe()
    table.add("g", "O", 30, 10)
    table.add("g", "0", 1, 1)
    assert table.vote("g").clear and table.vote("g").margin == 29


def test_document_fonts_skips_by_bytes_only_what_is_no_font():
    """The fonts found with the look at each object's bytes are those a parse of every object finds."""
    from conftest import SAMPLES, corpus_files
    from pdfinspect.core.document import Document
    from pdfinspect.core.objects import Dict, Name
    from pdfinspect.fonts.shapevote import document_fonts

    for path in [SAMPLES / "kappa.pdf", SAMPLES / "cid-identity.pdf", *corpus_files()[:6]]:
        doc = Document.open(path)
        every = [(o.num, o.gen) for o in doc.iter_objects(cache=False) if isinstance(o.value, Dict)
                 and o.value.get("Type") == Name("Font")
                 and o.value.get("Subtype") not in (Name("CIDFontType0"), Name("CIDFontType2"))]
        assert [(f.ref.num, f.ref.gen) for f in document_fonts(doc)] == every, path.name
    doc = Document.open(SAMPLES / "kappa.pdf")
    assert [o.num for o in doc.iter_objects(looks=lambda raw: False)] == \
        [n for n in doc.object_numbers() if doc.peek(n) is None]
