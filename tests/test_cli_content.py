"""The ops / glyphs / fonts / text commands, run through their argparse registration."""
from __future__ import annotations

import argparse
import difflib
import json
import shutil
import subprocess

import pytest

from conftest import corpus_file, sample
from pdfinspect.cli import content as cli_content
from pdfinspect.core.document import Document

pikepdf = pytest.importorskip("pikepdf")


class _Out:
    def __init__(self):
        self.lines: list[str] = []

    def line(self, text: str = "") -> None:
        self.lines.append(text)


def _run(capsys, *argv) -> tuple[str, list[str]]:
    parser = argparse.ArgumentParser()
    cli_content.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args([str(a) for a in argv])
    out = _Out()
    assert getattr(cli_content, f"cmd_{args.command}")(args, out) == 0
    return capsys.readouterr().out, out.lines


def test_ops_json_offsets_point_at_the_operators(capsys):
    path = sample("content.pdf")
    stdout, _ = _run(capsys, "ops", path, "-p", "1", "--json")
    records = json.loads(stdout)
    with pikepdf.open(path) as pdf:
        data = pdf.pages[0].Contents.read_bytes()
        ops = [str(i.operator) for i in pikepdf.parse_content_stream(pdf.pages[0])]
    top = [r for r in records if r["depth"] == 0 and r["op"]]
    assert [r["op"] for r in top if r["op"] != "BI"] == [o for o in ops if o != "INLINE IMAGE"]
    for r in top:
        if r["op"] != "BI":
            assert data[r["offset"]:r["end"]].decode("latin-1").endswith(r["op"])
    assert {r["depth"] for r in records} == {0, 1}
    assert {"index", "op", "operands", "offset", "depth"} <= set(records[0])


def test_ops_text_indents_forms_and_shows_state_changes(capsys):
    _, lines = _run(capsys, "ops", sample("content.pdf"))
    assert any("Tf" in ln and "font /F1" in ln for ln in lines)
    do = next(i for i, ln in enumerate(lines) if ln.rstrip().endswith("/Fm1 Do"))
    assert lines[do + 1].index("BT") > lines[do].index("/Fm1")


def test_glyphs_json_records(capsys):
    stdout, _ = _run(capsys, "glyphs", sample("kappa.pdf"), "--json")
    records = json.loads(stdout)
    need = {"op", "font", "font_ref", "code", "cid", "gid", "glyph_name", "unicode", "method", "path", "conflicts"}
    assert all(need <= set(r) for r in records)
    kappa = next(r for r in records if r["code"] == "14")
    assert kappa["unicode"] == "\u03ba" and kappa["method"] == "FontProgram"
    assert [p["result"] for p in kappa["path"]][0] == "miss"


def test_glyphs_rows_escape_control_characters(capsys):
    _, lines = _run(capsys, "glyphs", sample("kappa.pdf"), "--path")
    text = "\n".join(lines)
    assert "U+03BA κ" in text and "ToUnicode-only extractor yields U+0014" in text
    assert not any(ch < " " for ch in text.replace("\n", ""))


def test_fonts_counts_and_diagnosis(capsys):
    stdout, lines = _run(capsys, "fonts", sample("kappa.pdf"), "--json")
    (font,) = json.loads(stdout)
    assert font["methods"] == {"ToUnicode": 1, "FontProgram": 2, "TeXGlyphList": 1}
    assert font["confidence"] == {"spec": 3, "heuristic": 1, "guess": 0, "none": 0}
    assert "ToUnicode misses 3 of 4 codes (7 0 R)" in font["diagnosis"] and "TeXGlyphList" in font["diagnosis"]
    missed = next(r for r in font["reasons"] if r["id"] == "tounicode_incomplete")
    assert sorted(missed["codes"]) == ["14", "20", "5b"]
    assert font["embedded"].startswith("/FontFile Type1")


def test_fonts_rows_escape_control_characters(capsys, tmp_path):
    # a font /Subtype and a FontFile3 /Subtype whose names carry ESC [ … m (#1b in the file)
    pdf = pikepdf.new()
    pdf.add_blank_page()
    program = pikepdf.Stream(pdf, b"not a font")
    program.Subtype = pikepdf.Name("/OpenType\x1b[31m")
    descriptor = pikepdf.Dictionary(Type=pikepdf.Name.FontDescriptor, FontName=pikepdf.Name("/Foo"), Flags=32,
                                    FontFile3=program)
    font = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name("/Type1\x1b[32m"),
                                                BaseFont=pikepdf.Name("/Foo"), FontDescriptor=descriptor))
    pdf.pages[0].Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font))
    pdf.pages[0].Contents = pdf.make_stream(b"BT /F1 12 Tf 72 700 Td (A) Tj ET")
    path = tmp_path / "escape.pdf"
    pdf.save(path)
    _, lines = _run(capsys, "fonts", path)
    text = "\n".join(lines)
    assert "Type1\\x1b[32m" in text and "OpenType\\x1b[31m" in text
    assert not any(ch < " " for ch in text.replace("\n", ""))


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext absent")
@pytest.mark.parametrize("name, least", [
    ("gs-ps2pdf-base14-czech.pdf", 0.95), ("libreoffice-ru-el-ja-tagged-pdfa2b.pdf", 0.95),
    # pdftotext reorders this page's blocks; we keep drawing order
    ("pdflatex-cm-tounicode.pdf", 0.8)])
def test_text_is_close_to_pdftotext(capsys, name, least):
    path = corpus_file(name)
    _, lines = _run(capsys, "text", path, "-p", "1")
    ours = "\n".join(lines)
    theirs = subprocess.run(["pdftotext", "-f", "1", "-l", "1", str(path), "-"],
                            capture_output=True, text=True).stdout
    squash = lambda s: [ln.split() for ln in s.splitlines() if ln.strip()]  # noqa: E731
    ratio = difflib.SequenceMatcher(None, " ".join(map(" ".join, squash(ours))),
                                    " ".join(map(" ".join, squash(theirs))), autojunk=False).ratio()
    assert ratio > least


def test_missing_page_is_an_error_not_a_traceback(capsys):
    from pdfinspect.core.diagnostics import PdfError

    with pytest.raises(PdfError):
        _run(capsys, "glyphs", sample("kappa.pdf"), "-p", Document.open(sample("kappa.pdf")).page_count() + 1)


@pytest.mark.parametrize("name", ["pdflatex-cm-tounicode.pdf", "pdflatex-cm-builtin-notounicode.pdf"])
def test_text_composes_ot1_accents_drawn_over_letters(capsys, name):
    """OT1 draws ö as ¨ then o moved back over it: text composes them, glyphs keeps both."""
    path = corpus_file(name)
    _, lines = _run(capsys, "text", path, "-p", "1")
    text = "\n".join(lines)
    for word in ("Schrödinger", "Poincaré", "Löwdin", "Fréchet"):
        assert word in text
    stdout, _ = _run(capsys, "glyphs", path, "--json")
    chars = "".join(r["unicode"] for r in json.loads(stdout))
    assert "\u00a8o" in chars and "ö" not in chars


def test_ops_shows_the_text_each_operator_draws(capsys):
    f = corpus_file("platex-dvipdfmx-ja-ipa-cidtype2.pdf")
    _, lines = _run(capsys, "ops", f)
    assert any(ln.split("%")[0].rstrip().endswith("TJ") and 'text "雨ニモマケズ"' in ln for ln in lines)
    stdout, _ = _run(capsys, "ops", f, "--json")
    records = json.loads(stdout)
    tj = next(r for r in records if r["op"] == "TJ")
    assert tj["text"] == "雨ニモマケズ" and "6 glyphs" in tj["changes"]
    assert tj["state"]["font"] == "F1" and tj["state"]["size"] > 0 and len(tj["state"]["ctm"]) == 6
    assert all(r["text"] is None for r in records if r["op"] != "TJ" and r["op"] != "Tj")


PDFJS = corpus_file.__globals__["ROOT"].parent / "shared" / "corpus-pdfjs"


def test_text_separates_words_set_apart_by_word_spacing_only(capsys):
    # Type3WordSpacing.pdf: the space glyph is unmapped and 0 wide; Tw 50…10 sets the words apart
    path = PDFJS / "Type3WordSpacing.pdf"
    if not path.exists():
        pytest.skip("corpus-pdfjs absent")
    _, lines = _run(capsys, "text", path, "-p", "1")
    words = lines[0].split("\n")
    assert words[0] == "\u25a1\u25b3 \u25b3\u25a1 \u25a1\u25b3\u25b3\u25a1"
    assert words[-1] == "\u25a1\u25b3\u25b3\u25a1\u25a1\u25b3\u25b3\u25a1"  # Tw 0: no gap, no space


def test_text_keeps_rotated_and_vertical_glyph_by_glyph_lines_whole(capsys, tmp_path):
    from pdfminer.fontmetrics import FONT_METRICS

    widths = FONT_METRICS["Helvetica"][1]

    def placed(word: str, matrix: str, sign: int) -> bytes:  # one Tm per glyph, at its advance
        out, pos = b"", 500.0
        for ch in word:
            out += b"%s 300 %.2f Tm (%s) Tj " % (matrix.encode(), pos, ch.encode())
            pos += sign * widths[ch] / 100
        return out

    up, down = placed("Property", "0 1 -1 0", 1), placed("Value", "0 -1 1 0", -1)
    pdf = pikepdf.new()
    page = pdf.add_blank_page()
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=pikepdf.Dictionary(
        Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica)))
    page.Contents = pdf.make_stream(b"BT /F1 10 Tf " + up + down + b"ET")
    pdf.save(tmp_path / "rotated.pdf")
    _, lines = _run(capsys, "text", tmp_path / "rotated.pdf", "-p", "1")
    assert lines[0].split("\n") == ["Property", "Value"]


def test_text_of_a_page_range_and_of_every_page_ends_each_page_with_a_form_feed(capsys):
    path = sample("pages.pdf")
    every, _ = _run(capsys, "text", path)
    doc = Document.open(path)
    assert every.count("\f") == doc.page_count() and every.endswith("\f")
    some, _ = _run(capsys, "text", path, "-p", "2-3")
    assert some.count("\f") == 2 and some == "\f".join(every.split("\f")[1:3]) + "\f"
    _, one = _run(capsys, "text", path, "-p", "2")
    assert one[0] + "\n" == every.split("\f")[1] and "\f" not in one[0]


def test_glyphs_json_and_path_give_the_gap_before_each_glyph(capsys, tmp_path):
    pdf = pikepdf.new()
    page = pdf.add_blank_page()
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=pikepdf.Dictionary(
        Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica)))
    page.Contents = pdf.make_stream(b"BT /F1 10 Tf 72 700 Td [(A) -110 (B)] TJ 3 Tr (C) Tj ET")
    pdf.save(tmp_path / "gap.pdf")
    stdout, _ = _run(capsys, "glyphs", tmp_path / "gap.pdf", "--json")
    a, b, c = json.loads(stdout)
    assert a["gap"] is None and a["line"] == b["line"] == 0 and a["direction"] == "ltr"
    assert b["gap"]["causes"] == ["tj_adjust"] and b["gap"]["tj"] == -110 and b["gap"]["along_em"] == 0.11
    assert b["hidden"] == [] and c["hidden"] == ["invisible_mode"]
    _, lines = _run(capsys, "glyphs", tmp_path / "gap.pdf", "--path")
    assert any(line.strip() == "gap before: 0.11 em (1.1 pt) from TJ \u2212110; line 0" for line in lines)
    assert any(line.strip().startswith("hidden: invisible_mode") for line in lines)


def test_glyphs_json_lines_are_the_records_encoded_whole(tmp_path):
    """``glyphs --json`` encodes the parts a step or a resolution shares once and splices them in:
    each line is still the JSON text of glyph_json + gap_json + hidden (ActualText, two fonts,
    repeated codes, an annotation's appearance)."""
    from pdfinspect.core.numbers import json_encoder
    from pdfinspect.present.glyphs import gap_json, page_glyph_facts

    pdf = pikepdf.new()
    font = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica)
    courier = pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Courier)
    page = pdf.add_blank_page(page_size=(612, 792))
    page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=pdf.make_indirect(font),
                                                                F2=pdf.make_indirect(courier)))
    page.Contents = pdf.make_stream(
        b"BT /F1 12 Tf 72 700 Td (aba) Tj /F2 9 Tf [(ab) -300 (\"c\")] TJ ET "
        b"/Span << /ActualText (fi) >> BDC BT /F1 12 Tf 72 650 Td (f) Tj (i) Tj ET EMC "
        b"BT 3 Tr /F1 12 Tf 72 600 Td (x) Tj ET")
    appearance = pdf.make_stream(b"BT /F1 8 Tf 2 2 Td (ann) Tj ET", Type=pikepdf.Name.XObject,
                                 Subtype=pikepdf.Name.Form, BBox=[0, 0, 50, 20],
                                 Resources=pikepdf.Dictionary(Font=page.Resources.Font))
    page.Annots = pdf.make_indirect(pikepdf.Array([pdf.make_indirect(pikepdf.Dictionary(
        Type=pikepdf.Name.Annot, Subtype=pikepdf.Name.FreeText, Rect=[300, 300, 350, 320],
        AP=pikepdf.Dictionary(N=appearance)))]))
    path = tmp_path / "parts.pdf"
    pdf.save(path)
    doc = Document.open(str(path))
    facts = page_glyph_facts(doc, doc.page_ref(1))
    dumps, encode = json_encoder(ensure_ascii=True), cli_content._glyph_dumps()
    lines = [encode(item) for item in zip(facts.records, facts.layouts, facts.visibility)]
    whole = [dumps({**cli_content.glyph_json(r), **gap_json(lay), "hidden": list(v.reasons)})
             for r, lay, v in zip(facts.records, facts.layouts, facts.visibility)]
    assert lines == whole
    records = [json.loads(line) for line in lines]
    assert {r["font"] for r in records} >= {"F1", "F2"} and any(r["annotation"] for r in records)
    assert any(r["method"] == "ActualText" for r in records) and any(r["hidden"] for r in records)


@pytest.mark.parametrize("gap", [
    None,
    dict(along_pt=1.23456, across_pt=-0.0, along_em=0.123456, across_em=-0.0, em_pt=10.0, causes=("tj_adjust",),
         tj=-110.0, parts=(("tj_adjust", 0.11),)),
    dict(along_pt=2.0005, across_pt=0.0, along_em=-1e-05, across_em=3.0, em_pt=1.0,
         causes=("char_spacing", "word_spacing", "horizontal_scaling"), tj=None,
         parts=(("char_spacing", 0.123456), ("word_spacing", -2.5e-05))),
    dict(along_pt=float("inf"), across_pt=float("nan"), along_em=float("inf"), across_em=float("-inf"),
         em_pt=1e308 * 10, causes=("text_move",), tj=float("nan"), parts=(("tj_adjust", float("inf")),)),
    dict(along_pt=1e300, across_pt=1e300, along_em=1e300, across_em=1e300, em_pt=1e300, causes=("advance",)),
])
def test_layout_keys_are_written_as_json_writes_them(gap):
    """The gap, direction, line and ``hidden`` keys written by hand are what json writes for
    gap_json (rounded values, ``null`` for what is not finite, values remembered or not)."""
    from pdfinspect.content.gaps import Gap, GlyphLayout
    from pdfinspect.core.numbers import json_encoder
    from pdfinspect.present.glyphs import gap_json

    dumps = json_encoder(ensure_ascii=True)
    encoded, texts = cli_content._Encoded(dumps), cli_content._Coordinates()
    for direction, angle, hidden in (("ltr", 0.0, ()), ("rotated", -45.5, ("tiny", "duplicate")),
                                     ("ltr", float("nan"), ()), ("vertical", 90.0, ("tiny", "duplicate"))):
        lay = GlyphLayout(7, None if gap is None else Gap(**gap), direction, angle, 3, angle == 0.0, 12.0)
        for _ in range(2):  # and again, from what was remembered
            assert (cli_content._layout_text(lay, hidden, encoded, texts)
                    == dumps({**gap_json(lay), "hidden": list(hidden)})[1:])


def test_coordinates_are_written_as_json_writes_them_rounded_whatever_came_before():
    from pdfinspect.core.numbers import json_encoder

    texts, dumps = cli_content._Coordinates(), json_encoder(ensure_ascii=True)
    for v in (0.0, -0.0, -0.0001, 0.0001, 1.23456, -1.23456, 1.23456, 2.0005, 1e300 * 1e10, -0.0, 0.0):
        assert texts[v] == dumps(round(v, 3)), v
    assert 0.0 not in texts
