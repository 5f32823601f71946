"""Likeness (fonts/likeness.py): a glyph whose outline no font of the table draws is read by the
labelled outlines of other typefaces it looks like. Two fonts of one file teach A, B and C in two
designs; a third design, that neither draws exactly or nearly, reads by likeness. Files built in the
test: pikepdf writes them, fontTools the programs."""
from __future__ import annotations

import gzip
import json

import pytest
from conftest import build_truetype
from test_shapevote import document, glyphs, identity_font, simple_font

from pdfinspect.core.document import Document
from pdfinspect.fonts.likeness import ALPHABET, assign, distance, parse
from pdfinspect.fonts.resolve import Resolver
from pdfinspect.fonts.shapes import Outline
from pdfinspect.fonts.shapevote import ShapeTable, learn, letter_key

pikepdf = pytest.importorskip("pikepdf")


def delta(w: float, s: float, h: float = 700) -> list[list[tuple[float, float]]]:
    """A triangle with a triangular counter (the stroke ``s`` thick)."""
    return [[(0, 0), (w / 2, h), (w, 0)], [(1.8 * s, s), (w - 1.8 * s, s), (w / 2, h - 2.2 * s)]]


def box(w: float, s: float, h: float = 700) -> list[list[tuple[float, float]]]:
    return [[(0, 0), (0, h), (w, h), (w, 0)], [(s, s), (w - s, s), (w - s, h - s), (s, h - s)]]


def hbar(w: float, s: float, h: float = 700) -> list[list[tuple[float, float]]]:
    m = h / 2
    return [[(0, 0), (0, h), (s, h), (s, m + s / 2), (w - s, m + s / 2), (w - s, h), (w, h), (w, 0), (w - s, 0),
             (w - s, m - s / 2), (s, m - s / 2), (s, 0)]]


def comb(w: float, s: float, h: float = 700) -> list[list[tuple[float, float]]]:
    """Far off from every design above: a saw-toothed block."""
    teeth = [p for k in range(4) for p in ((w * (k + 0.5) / 4, h - 300), (w * (k + 1) / 4, h))]
    return [[(0, 0), (0, h), *teeth, (w, 0)]]


def outline(contours) -> Outline:
    return Outline(tuple(tuple((float(x), float(y)) for x, y in c) for c in contours))


def program(designs: list, names: list[str] | None) -> bytes:
    """A TrueType program drawing ``designs`` (contour lists); with ``names`` a (3,1) cmap and glyph
    names, without it neither."""
    order = names or [f"g{i}" for i in range(1, len(designs) + 1)]

    def draw(pen, i: int, name: str) -> None:
        if i == 0:
            return
        for contour in designs[i - 1]:
            pen.moveTo(tuple(round(v) for v in contour[0]))
            for p in contour[1:]:
                pen.lineTo(tuple(round(v) for v in p))
            pen.closePath()

    return build_truetype([".notdef", *order], draw, cmap={ord(n): n for n in names} if names else None,
                          names=names is not None, family="Like")


def taught() -> ShapeTable:
    """A, B and C learned from two fonts of two designs (strokes and proportions apart)."""
    pdf = pikepdf.new()
    fonts = {f"F{i}": simple_font(pdf, program([delta(w, s), box(w, s), hbar(w, s)], ["A", "B", "C"]))
             for i, (w, s) in enumerate(((560, 80), (600, 95)), 1)}
    data = document(fonts, b"BT /F1 12 Tf 10 10 Td (ABC) Tj /F2 12 Tf (ABC) Tj ET", pdf)
    doc = Document(data)
    return learn(doc, Resolver(doc))


def read(designs: list, table: ShapeTable) -> list:
    pdf = pikepdf.new()
    font = identity_font(pdf, program(designs, None))
    font.DescendantFonts[0].W = [1, [600] * len(designs)]  # the codes the font has: its glyphs' rivals
    shown = b"".join(i.to_bytes(2, "big") for i in range(1, len(designs) + 1))
    data = document({"F9": font}, b"BT /F9 12 Tf 10 40 Td <" + shown.hex().encode() + b"> Tj ET", pdf)
    return glyphs(data, lambda doc: Resolver(doc, shapes=table))


def test_a_glyph_of_another_design_reads_by_likeness():
    table = taught()
    records = read([hbar(640, 70), delta(640, 70), comb(600, 90)], table)
    assert [r.unicode for r in records] == ["C", "A", ""]  # the far-off comb stays unread
    step = records[1].path[-1]
    assert step.method == "GlyphShape" and step.code == "shape_likeness" and step.confidence == "heuristic"
    assert "looks like U+0041 A" in step.detail and "in 2 fonts of 1 file" in step.detail
    assert records[1].resolution.confidence == "heuristic"


def test_two_glyphs_of_one_font_that_look_like_one_letter_read_as_neither():
    records = read([delta(640, 70), delta(660, 75), hbar(640, 70)], taught())  # distances 13 and 12
    assert [r.unicode for r in records] == ["", "", "C"]


def test_of_two_glyphs_of_one_font_the_clearly_nearer_keeps_the_letter():
    records = read([delta(640, 70), delta(520, 75)], taught())  # distances 13 and 2
    assert [r.unicode for r in records] == ["", "A"]


def test_the_clearly_nearer_of_two_rivals_keeps_the_letter():
    a = parse(outline(delta(600, 90)).likeness_key() or "")
    near = {"=near": _reading("A", 4.0), "=far": _reading("A", 30.0), "=b": _reading("B", 9.0)}
    assert a is not None and distance(a, a) == 0
    assert set(assign(near, set())) == {"=near", "=b"}
    assert set(assign({"=x": _reading("A", 10.0), "=y": _reading("A", 11.0)}, set())) == set()
    assert set(assign(near, {letter_key("B")})) == {"=near"}  # the font already has a B


def _reading(text: str, d: float):
    from pdfinspect.fonts.likeness import Reading

    return Reading(text, (text,), d, 2, 1, "", float("inf"))


def test_an_exact_vote_wins_over_likeness():
    records = read([delta(560, 80)], taught())
    assert records[0].unicode == "A" and records[0].path[-1].code == "shape_vote"


def test_the_table_keeps_the_likeness_keys(tmp_path):
    table = taught()
    path = tmp_path / "shapes.json.gz"
    table.save(path)
    loaded = ShapeTable.load(path)
    assert loaded.entries == table.entries
    assert sum(k.startswith("=") for k in loaded.entries) == 6  # three letters in two designs
    doc = json.loads(gzip.decompress(path.read_bytes()))
    assert doc["version"] == 2
    assert [r.unicode for r in read([delta(640, 70)], loaded)] == ["A"]


def test_a_version_1_table_loads_without_likeness_and_a_bad_one_is_refused(tmp_path):
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"format": "pdfinspect-shapes", "version": 1, "shapes": {"ab12": {"A": [2, 1]}}}))
    assert ShapeTable.load(old).entries == {"ab12": {"A": [2, 1]}}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "pdfinspect-shapes", "version": 9, "shapes": {}}))
    with pytest.raises(ValueError) as err:
        ShapeTable.load(bad)
    assert "\n" not in str(err.value) and "version 2" in str(err.value)


def test_a_font_of_which_likeness_reads_under_half_reads_none_by_it():
    readings = {"=a": _reading("A", 5.0), "=b": _reading("B", 5.0)}
    assert set(assign(readings, set(), 4)) == {"=a", "=b"}
    assert assign(readings, set(), 5) == {}  # a Thai font whose few Latin-looking glyphs are no Latin


def test_a_cjk_font_reads_no_greek_or_european_symbols_by_likeness():
    readings = {"=1": _reading("三", 5.0), "=2": _reading("中", 5.0), "=3": _reading("の", 5.0),
                "=4": _reading("Ξ", 5.0), "=5": _reading("•", 5.0), "=6": _reading("A", 5.0), "=7": _reading("、", 5.0)}
    assert set(assign(readings, set())) == {"=1", "=2", "=3", "=6", "=7"}
    assert "=4" in assign({k: readings[k] for k in ("=1", "=4")}, set())  # one Han reading makes no CJK font
    assert "=4" not in assign({k: readings[k] for k in ("=1", "=4")}, set(), cjk=True)  # a full-width font's glyph


def _shift_report(shift: int):
    """The report of a font of a third design of A, B and C, nothing in it naming a glyph, whose
    ToUnicode gives each letter ``shift`` code points on, read with the table of the other two."""
    from test_shapevote import cid_cmap

    from pdfinspect.content.fontreports import font_reports

    pdf = pikepdf.new()
    font = identity_font(pdf, program([delta(640, 70), box(640, 70), hbar(640, 70)], None))
    font.DescendantFonts[0].W = [1, [600] * 3]
    font.ToUnicode = pdf.make_stream(cid_cmap({i + 1: chr(ord(c) + shift) for i, c in enumerate("ABC")}))
    doc = Document(document({"F9": font}, b"BT /F9 12 Tf 10 40 Td <000100020003> Tj ET", pdf))
    table = taught()
    (rep,) = font_reports(doc, [1], Resolver(doc, shapes=table))
    return rep


def test_what_its_outlines_look_like_tells_a_shifted_tounicode():
    shifted = _shift_report(1).reason("tounicode_shifted")
    assert shifted is not None and "the outlines of other typefaces it looks like" in shifted.detail
    assert "(offset +1)" in shifted.detail
    assert _shift_report(0).reason("tounicode_shifted") is None


def _index(rows) -> "LikenessIndex":
    """A likeness index over outlines (contour lists) labelled ``{text: fonts}``."""
    from pdfinspect.fonts.likeness import LikenessIndex

    table = ShapeTable()
    for design, texts in rows:
        for text, fonts in texts.items():
            table.add(outline(design).likeness_key() or "", text, fonts, fonts)
    return LikenessIndex(table)


def test_one_odd_outline_of_another_character_does_not_hide_many_fonts_agreeing():
    from pdfinspect.fonts.likeness import declined

    look = outline(delta(640, 70)).likeness_key() or ""
    # five fonts' A at distance 13.5, one font's Δ at 16.8: within the margin of the nearest
    index = _index([(delta(600, 90), {"A": 5}), (delta(620, 60), {"Δ": 1})])
    reading = index.nearest(look)
    assert reading is not None and reading.text == "A" and reading.fonts == 5 and reading.runner_up == "Δ"
    # two fonts' Δ there: A holds under 80% of the fonts near, no reading
    index = _index([(delta(600, 90), {"A": 5}), (delta(620, 60), {"Δ": 2})])
    assert index.nearest(look) is None and declined(index.neighbours(look)) == "other_too_near"


def test_an_outline_whose_fonts_disagree_but_lean_to_the_letter_does_not_stand_against_it():
    look = outline(delta(640, 70)).likeness_key() or ""
    near = [(delta(560, 80), {"A": 1}), (delta(600, 90), {"A": 1})]  # distances 13.2 and 13.5
    # at 16: four fonts read A, one Δ — no reading of its own (under 90%), but no other character either
    reading = _index([*near, (delta(640, 100), {"A": 4, "Δ": 1})]).nearest(look)
    assert reading is not None and reading.text == "A" and reading.fonts == 2
    assert _index([*near, (delta(640, 100), {"Δ": 4, "A": 1})]).nearest(look) is None


def bar(h: float, bottom: float = 0) -> list[list[tuple[float, float]]]:
    return [[(0, bottom), (0, h), (90, h), (90, bottom)]]


def test_a_bar_some_fonts_call_l_and_others_i_reads_by_the_fonts_heights():
    """l and I drawn alike (a sans serif's bar) are no clear vote; a font whose capitals stand at 700
    and whose ascenders at 750 has the bar as tall as its ascenders drawn for l, as its capitals for I."""
    pdf = pikepdf.new()
    fonts, shown = {}, []
    for i, (h, letter) in enumerate(((750, "l"), (750, "I"), (700, "l"), (700, "I"))):
        names = ["H", "b", letter]
        font = simple_font(pdf, program([hbar(600, 80), box(500, 80, 750), bar(h)], names))
        font.FirstChar, font.LastChar = 72, 108
        font.Widths = [600 if chr(c) in names else 0 for c in range(72, 109)]
        fonts[f"F{i}"] = font
        shown.append(b"/F%d 12 Tf (Hb%s) Tj" % (i, letter.encode()))
    doc = Document(document(fonts, b"BT 10 10 Td " + b" ".join(shown) + b" ET", pdf))
    table = learn(doc, Resolver(doc))
    assert table.entries[outline(bar(750)).fingerprint() or ""] == {"l": [1, 1], "I": [1, 1]}  # no clear vote
    assert [r.unicode for r in read([hbar(600, 80), box(500, 80, 750), bar(750)], table)] == ["H", "b", "l"]
    records = read([hbar(600, 80), box(500, 80, 750), bar(700)], table)
    assert [r.unicode for r in records] == ["H", "b", "I"]
    assert "the one as tall as the font's capitals" in records[2].path[-1].detail
    assert [r.unicode for r in read([box(500, 80, 750), bar(700)], table)] == ["b", ""]  # no capital: no height


def _bar_table(bars: list[tuple[str, float, float]]):
    """A table taught by fonts that each draw H (700 high), b (750) and one bar (text, top, bottom)."""
    pdf = pikepdf.new()
    fonts, shown = {}, []
    for i, (text, h, bottom) in enumerate(bars):
        name = {"|": "bar", "l": "l", "I": "I"}[text]
        designs = {"H": hbar(600, 80), "b": box(500, 80, 750), name: bar(h, bottom)}

        def draw(pen, _i: int, glyph: str, designs=designs) -> None:
            for contour in designs.get(glyph, []):
                pen.moveTo(tuple(round(v) for v in contour[0]))
                for p in contour[1:]:
                    pen.lineTo(tuple(round(v) for v in p))
                pen.closePath()

        data = build_truetype([".notdef", "H", "b", name], draw, cmap={72: "H", 98: "b", ord(text): name})
        font = simple_font(pdf, data)
        font.FirstChar, font.LastChar = 72, 124
        font.Widths = [600 if chr(c) in "Hb" + text else 0 for c in range(72, 125)]
        fonts[f"F{i}"] = font
        shown.append(b"/F%d 12 Tf (Hb%s) Tj" % (i, text.encode()))
    doc = Document(document(fonts, b"BT 10 10 Td " + b" ".join(shown) + b" ET", pdf))
    return learn(doc, Resolver(doc))


def test_a_bar_on_the_baseline_is_no_vertical_line():
    """A bar one font reads | and another l (Century Gothic's l) is no clear vote; one that sits on
    the baseline is no | (most fonts' | reaches below it), and its height tells l from I — even where
    no font read it I."""
    table = _bar_table([("|", 750, 0), ("l", 750, 0), ("|", 700, 0), ("l", 700, 0), ("|", 750, -200),
                        ("l", 750, -200)])
    assert table.entries[outline(bar(750)).fingerprint() or ""] == {"|": [1, 1], "l": [1, 1]}
    records = read([hbar(600, 80), box(500, 80, 750), bar(750)], table)
    assert [r.unicode for r in records] == ["H", "b", "l"]
    assert "the one as tall as the font's ascenders" in records[2].path[-1].detail
    assert [r.unicode for r in read([hbar(600, 80), box(500, 80, 750), bar(700)], table)] == ["H", "b", "I"]
    # a bar reaching below the baseline may be the |: the height does not decide
    assert [r.unicode for r in read([hbar(600, 80), box(500, 80, 750), bar(750, -200)], table)] == ["H", "b", ""]


def _labelled(fonts: list[tuple[list, str]]) -> ShapeTable:
    """A table taught by fonts of the designs given, each glyph labelled by a ToUnicode (the program
    names nothing)."""
    from test_shapevote import cid_cmap

    pdf = pikepdf.new()
    shown, resources = [], {}
    for i, (designs, text) in enumerate(fonts):
        font = identity_font(pdf, program(designs, None))
        font.DescendantFonts[0].W = [1, [600] * len(designs)]
        font.ToUnicode = pdf.make_stream(cid_cmap({k + 1: t for k, t in enumerate(text)}))
        resources[f"F{i}"] = font
        codes = b"".join(k.to_bytes(2, "big") for k in range(1, len(designs) + 1))
        shown.append(b"/F%d 12 Tf <%s> Tj" % (i, codes.hex().encode()))
    doc = Document(document(resources, b"BT 10 10 Td " + b" ".join(shown) + b" ET", pdf))
    return learn(doc, Resolver(doc))


def test_letters_of_two_scripts_drawn_alike_read_as_the_one_in_the_fonts_script():
    """An outline two fonts label Cyrillic з and one Latin ɜ is no clear vote; in a font whose other
    letters are Cyrillic it is the з, in a font with Latin letters too it stays unread."""
    cyrillic = [delta(640, 70), box(640, 70), hbar(640, 70)]  # д ж л
    table = _labelled([([*cyrillic, comb(600, 90)], "джлз"), ([comb(600, 90)], "з"),
                       ([comb(600, 90), box(640, 70)], "ɜж"), ([box(400, 60)], "G")])
    assert table.entries[outline(comb(600, 90)).fingerprint() or ""] == {"з": [2, 1], "ɜ": [1, 1]}
    records = read([*cyrillic, comb(600, 90)], table)
    assert [r.unicode for r in records] == ["д", "ж", "л", "з"]
    assert "the Cyrillic one, the script of the font's other letters" in records[3].path[-1].detail
    assert [r.unicode for r in read([box(400, 60), *cyrillic, comb(600, 90)], table)] == ["G", "д", "ж", "л", ""]
    assert [r.unicode for r in read([comb(600, 90)], table)] == [""]  # no other letter: nothing tells


def test_a_soft_hyphen_and_the_hyphen_it_is_drawn_as_are_one_vote():
    """Three fonts label a bar - and one the soft hyphen (U+00AD) that a line break draws with it: one
    vote, read as the hyphen most fonts give."""
    dash = [[(0, 250), (0, 310), (300, 310), (300, 250)]]
    table = _labelled([([dash], "-"), ([dash, box(640, 70)], "-B"), ([dash, hbar(640, 70)], "-H"),
                       ([dash, delta(640, 70)], "\u00adA")])
    assert table.entries[outline(dash).fingerprint() or ""] == {"-": [3, 1], "\u00ad": [1, 1]}
    assert letter_key("\u00ad") == letter_key("-")
    assert [r.unicode for r in read([dash], table)] == ["-"]


def test_a_character_the_font_draws_with_another_glyph_is_passed_over_among_the_neighbours():
    """Two fonts' A and, within the margin, two fonts' ∆ (increment): no reading — unless the font
    draws its ∆ with another glyph (read by an exact vote), when the A stands clear of the others."""
    table = _labelled([([delta(600, 90)], "A"), ([delta(600, 90), box(640, 70)], "AB"),
                       ([delta(620, 60)], "∆"), ([delta(620, 60), hbar(640, 70)], "∆H")])
    assert [r.unicode for r in read([delta(640, 70), box(400, 60)], table)] == ["", ""]
    records = read([delta(640, 70), delta(620, 60)], table)
    assert [r.unicode for r in records] == ["A", "∆"]
    assert records[0].path[-1].code == "shape_likeness" and records[1].path[-1].code == "shape_vote"


def test_a_neighbour_that_is_a_letter_of_a_script_the_font_has_none_of_is_passed_over():
    """Two fonts' A and, within the margin, two fonts' Greek Λ: no reading in a font that shows too few
    letters to tell its script; in a font whose other letters are all Latin the Λ is passed over and
    the glyph reads A; in a font that has a Greek letter too, the Λ stands against it."""
    latin = [box(640, 70), hbar(640, 70), box(400, 60), comb(600, 90), box(500, 120)]  # letters only Latin draws
    table = _labelled([([delta(600, 90)], "A"), ([delta(600, 90), *latin], "ADRGFL"),
                       ([delta(620, 60), *latin], "ΛDRGFL"), ([delta(620, 60), box(300, 50)], "ΛΩ"),
                       ([box(300, 50)], "Ω")])
    assert [r.unicode for r in read([delta(640, 70), box(400, 60)], table)] == ["", "G"]
    records = read([delta(640, 70), *latin], table)
    assert [r.unicode for r in records] == list("ADRGFL")
    assert records[0].path[-1].code == "shape_likeness"
    assert [r.unicode for r in read([delta(640, 70), *latin, box(300, 50)], table)] == ["", *"DRGFLΩ"]


def test_a_code_read_as_a_value_that_the_outlines_refute_is_read_by_likeness():
    """A symbolic TrueType whose codes 0x21–0x24 (read as themselves: !"#$) draw A, B and C as other
    fonts do, and a D of a design no font draws: the votes on the three refute the codes as text, and
    the fourth glyph, its code's reading a guess now, reads by likeness."""
    from test_shapes_simple import simple

    table = _labelled([([delta(560, 80), box(560, 80), hbar(560, 80), comb(560, 80)], "ABCD"),
                       ([delta(600, 95), box(600, 95), hbar(600, 95), comb(600, 95)], "ABCD")])
    designs = [delta(560, 80), box(560, 80), hbar(560, 80), comb(640, 70)]
    order = [".notdef", "g1", "g2", "g3", "g4"]

    def draw(pen, i: int, name: str) -> None:
        for contour in designs[i - 1] if i else []:
            pen.moveTo(tuple(round(v) for v in contour[0]))
            for p in contour[1:]:
                pen.lineTo(tuple(round(v) for v in p))
            pen.closePath()

    def symbolic(font) -> None:  # a (3,0) subtable alone, the codes at F000 + code
        sub = font["cmap"].tables[0]
        sub.platformID, sub.platEncID = 3, 0
        font["cmap"].tables = [sub]

    data = build_truetype(order, draw, cmap={0xF021 + i: order[i + 1] for i in range(4)}, names=False,
                          family="Like", edit=symbolic)
    pdf = pikepdf.new()
    font = simple(pdf, "FontFile2", data, 0x21, 4)
    records = glyphs(document({"F1": font}, b'BT /F1 12 Tf 10 10 Td (!"#$) Tj ET', pdf),
                     lambda doc: Resolver(doc, shapes=table))
    assert [r.unicode for r in records] == list("ABCD")
    assert records[3].path[-1].code == "shape_likeness" and records[3].resolution.conflicts[-1].unicode == "$"


def test_in_a_font_whose_letters_tell_its_script_the_nearest_needs_a_smaller_share_of_the_window():
    """Two fonts' A nearest and, within the margin, one font's ∆ (increment, no letter): A holds 2 of
    the 3 fonts there, under four fifths — no reading in a font of too few letters; in one whose five
    other letters tell its script, three fifths suffice for the nearest's own character."""
    latin = [box(640, 70), hbar(640, 70), box(400, 60), comb(600, 90), box(500, 120)]  # letters only Latin draws
    table = _labelled([([delta(600, 90)], "A"), ([delta(600, 90), *latin], "ADRGFL"),
                       ([delta(620, 60), *latin], "∆DRGFL")])
    assert [r.unicode for r in read([delta(640, 70), box(400, 60)], table)] == ["", "G"]
    assert [r.unicode for r in read([delta(640, 70), *latin], table)] == list("ADRGFL")


def test_a_font_whose_likeness_readings_name_an_alphabet_keeps_them_though_under_half_read():
    readings = {f"={i}": _reading(chr(0x41 + i), 5.0) for i in range(ALPHABET)}
    assert len(assign(readings, set(), 3 * ALPHABET)) == ALPHABET  # a large font, a third of it read
    del readings["=0"]
    assert assign(readings, set(), 3 * ALPHABET) == {}  # too few characters: under half reads none


def test_letters_other_scripts_draw_alike_tell_no_script_of_a_font():
    """A font's likeness readings tell its scripts only by letters no other script draws alike: a
    Cyrillic font whose а, е, о, р, с read as the Latin letters other fonts label them is not a Latin
    font (its Cyrillic neighbours must not be passed over), while G, R, D, F, L are Latin."""
    from pdfinspect.fonts.likeness import font_scripts

    assert font_scripts({}, [_reading(c, 5.0) for c in "aeopc"]) is None
    assert font_scripts({}, [_reading(c, 5.0) for c in "GRDFL"]) == {"Latin"}
    assert font_scripts({"Cyrillic": 4}, [_reading("G", 5.0)]) == {"Cyrillic", "Latin"}
