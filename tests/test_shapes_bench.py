"""bench/bench_shapes.py's stripped copies of simple fonts: the programs lose their glyph names and
keep their outlines, and their codes still reach the same glyphs (a Type 1 program renamed through
eexec, a CFF's charset, a TrueType's post names and cmap)."""
from __future__ import annotations

import io
import sys

from conftest import ROOT, sample
from test_shapes import cff, truetype

import pdfinspect
from pdfinspect.fonts.shapes import glyph_order, program_outlines
from pdfinspect.fonts.type1 import read_type1

sys.path.insert(0, str(ROOT / "bench"))
import bench_shapes  # noqa: E402


def test_a_type1_program_is_renamed_through_eexec_and_keeps_its_outlines():
    with pdfinspect.open(sample("kappa.pdf")) as doc:
        data = doc.stream_data(doc.get(8).value).data
    before = program_outlines(data, "FontFile")
    renamed, length1, length2, length3 = bench_shapes.rename_type1(data, {20: "kappa", 91: "flat"})
    assert length1 + length2 + length3 == len(renamed)
    program = read_type1(renamed)
    assert program.glyph_names[0] == ".notdef" and not {"kappa", "flat", "space"} & set(program.glyph_names)
    kappa, flat = program.encoding[20], program.encoding[91]
    assert set(program.encoding) == {20, 91} and kappa.startswith("zz") and flat.startswith("zz")
    after = program_outlines(renamed, "FontFile")
    assert after[kappa].fingerprint() == before["kappa"].fingerprint()
    assert after[flat].fingerprint() == before["flat"].fingerprint()


def test_a_cff_charset_is_renamed_and_its_encoding_names_the_new_glyphs():
    data = cff(["square", "ring"])
    renamed = bench_shapes.rename_cff(data, {0x41: "square", 0x42: "ring"})
    order = glyph_order(renamed, "FontFile3", "Type1C")
    assert order[0] == ".notdef" and not {"square", "ring"} & set(order)
    from fontTools.cffLib import CFFFontSet

    cffs = CFFFontSet()
    cffs.decompile(io.BytesIO(renamed), None)
    encoding = cffs[cffs.fontNames[0]].Encoding
    before, after = program_outlines(data, "FontFile3", "Type1C"), program_outlines(renamed, "FontFile3", "Type1C")
    assert after[encoding[0x41]].fingerprint() == before["square"].fingerprint()
    assert after[encoding[0x42]].fingerprint() == before["ring"].fingerprint()


def test_a_truetype_program_loses_its_names_and_keeps_a_symbolic_cmap_only():
    from fontTools.ttLib import TTFont

    data = truetype(["square", "ring"])
    stripped = TTFont(io.BytesIO(bench_shapes.strip_truetype(data, {0x41: 1, 0x42: 2})))
    assert stripped["post"].formatType == 3.0
    assert [(t.platformID, t.platEncID) for t in stripped["cmap"].tables] == [(3, 0)]
    assert sorted(stripped["cmap"].tables[0].cmap) == [0xF041, 0xF042]


def test_blank_names_say_nothing():
    from fontTools.agl import toUnicode

    from pdfinspect.fonts.heuristics import judge_numeric_names

    names = [bench_shapes.blank_name(i) for i in range(300)]
    assert len(set(names)) == 300 and not any(toUnicode(n) for n in names)
    assert judge_numeric_names(enumerate(names)) is None and not any(c.isdigit() for n in names for c in n)


def test_the_shifted_copy_moves_every_destination_one_code_point_up():
    cmap = (b"2 beginbfchar\n<0001> <D835DC4E>\n<0002> <00660069>\nendbfchar\n"
            b"2 beginbfrange\n<0010> <0020> <0041>\n<0030> <0031> [<D7FF> <D83CDF34>]\nendbfrange")
    shifted = bench_shapes.shift_cmap(cmap)
    # 𝑎 → 𝑏 (a surrogate pair), fi → gj, A → B; U+D7FF stays (one up is a surrogate)
    assert b"<0001> <D835DC4F>" in shifted and b"<0002> <0067006A>" in shifted
    assert b"<0010> <0020> <0042>" in shifted and b"[<D7FF> <D83CDF35>]" in shifted
