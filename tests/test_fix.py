"""`pdfinspect fix`: the plan, the fixed file, and what extractors read from it.

The κ sample, our corpus files without ToUnicode and pdf.js files with broken ToUnicode
CMaps are fixed; the output must pass qpdf --check, open in pikepdf and MuPDF, keep the
original bytes as its prefix, and read better in pdftotext and mutool than the input did.
A hypothesis property builds fonts with partial and degenerate ToUnicode CMaps and checks
that after the fix every glyph resolves through ToUnicode to what it resolved to before.
"""
from __future__ import annotations

import importlib.util
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import CORPUS, ROOT, SAMPLES, corpus_file, sample
from pdfinspect.cli import main
from pdfinspect.content.textlayout import page_glyphs
from pdfinspect.core.document import Document
from pdfinspect.core.objects import Ref
from pdfinspect.fonts.fix import ADD, KEEP, REPLACE, UNRESOLVED, for_tounicode
from pdfinspect.fonts.resolve import HIT, TOUNICODE
from pdfinspect.present.fix import diffs, walk

PDFJS = ROOT.parent / "shared" / "corpus-pdfjs"
QPDF, PDFTOTEXT, MUTOOL = shutil.which("qpdf"), shutil.which("pdftotext"), shutil.which("mutool")


def _load_builder():
    spec = importlib.util.spec_from_file_location("make_samples", SAMPLES / "make_samples.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


make_samples = _load_builder()


def _run(cmd: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def extracted(tool: str, path: Path) -> str:
    if tool == "pdftotext":
        if PDFTOTEXT is None:
            pytest.skip("pdftotext not installed")
        return _run([PDFTOTEXT, str(path), "-"]).stdout
    if MUTOOL is None:
        pytest.skip("mutool not installed")
    return _run([MUTOOL, "draw", "-F", "txt", str(path)]).stdout


def check_output(original: Path, out: Path) -> Document:
    """The fixed file is an update readers accept: prefix, qpdf, pikepdf, MuPDF, us."""
    data = out.read_bytes()
    assert data.startswith(original.read_bytes())
    fixed = Document.open(out)
    assert not fixed.repaired and len(fixed.revisions) == len(Document.open(original).revisions) + 1
    if QPDF is not None:
        before = _run([QPDF, "--check", str(original)])
        after = _run([QPDF, "--check", str(out)])
        assert after.returncode == 0 or after.returncode == before.returncode, after.stdout + after.stderr
        assert after.stderr.count("WARNING") <= before.stderr.count("WARNING")
    pikepdf = pytest.importorskip("pikepdf")
    with pikepdf.open(out) as pdf:
        assert len(pdf.pages) == fixed.page_count()
    if MUTOOL is not None:
        assert _run([MUTOOL, "draw", "-F", "txt", str(out)]).returncode == 0
    return fixed


def fix(path: Path, out: Path, *extra: str) -> int:
    return main(["fix", str(path), "-o", str(out), *extra])


# -- the κ sample ------------------------------------------------------------------------------------
def test_kappa_plan_names_each_code_and_its_method():
    plan, _ = walk(Document.open(sample("kappa.pdf")))
    (font,) = plan.to_write
    assert font.ref == Ref(5) and font.reasons == ("tounicode_incomplete",)
    by_code = {c.code: c for c in font.codes}
    kappa = by_code[b"\x14"]
    assert (kappa.action, kappa.after, kappa.method, kappa.confidence) == (ADD, "κ", "FontProgram", "spec")
    assert kappa.extracted == "\x14" and kappa.changes_extraction  # a ToUnicode-only reader saw U+0014
    assert by_code[b"\x5d"].action == KEEP and by_code[b"\x5d"].after == "\u266f"
    assert font.mapping[b"\x14"] == "κ" and font.mapping[b"\x5d"] == "\u266f"
    assert set(font.mapping) == {c.code for c in font.codes if c.after}


def test_kappa_fixed_copy(tmp_path, capsys):
    src, out = sample("kappa.pdf"), tmp_path / "kappa-fixed.pdf"
    doc = Document.open(src)
    text = "".join(r.unicode for r in page_glyphs(doc, doc.page_ref(1)))
    assert fix(src, out) == 0
    shown = capsys.readouterr().out
    assert "<14> added" in shown and "\\x14 → κ" in shown and "incremental update" in shown
    fixed = check_output(src, out)
    for r in page_glyphs(fixed, fixed.page_ref(1)):
        assert r.method == TOUNICODE, r.path
    assert "".join(r.unicode for r in page_glyphs(fixed, fixed.page_ref(1))) == text
    assert text.startswith("κ ")
    for tool in ("pdftotext", "mutool"):
        assert "κ" in extracted(tool, out)
    assert main(["xref", str(out)]) == 0
    assert "revision 1" in capsys.readouterr().out


def test_dry_run_prints_the_cmap_and_writes_nothing(tmp_path, capsys):
    out = tmp_path / "never.pdf"
    assert main(["fix", str(sample("kappa.pdf")), "-o", str(out), "--dry-run"]) == 0
    shown = capsys.readouterr().out
    assert "begincodespacerange" in shown and "<14> <03ba>" in shown and "<5d> <266f>" in shown
    assert not out.exists()


def test_output_equal_to_input_is_refused(tmp_path, capsys):
    src = tmp_path / "k.pdf"
    src.write_bytes(sample("kappa.pdf").read_bytes())
    before = src.read_bytes()
    assert main(["fix", str(src), "-o", str(tmp_path / "." / "k.pdf")]) == 1
    assert "input is never written" in capsys.readouterr().err
    assert src.read_bytes() == before


def test_repaired_file_needs_rewrite(tmp_path, capsys):
    src, out = sample("damaged-no-xref.pdf"), tmp_path / "out.pdf"
    assert fix(src, out, "--font", "F1") == 1
    assert "use --rewrite" in capsys.readouterr().err and not out.exists()
    assert fix(src, out, "--font", "F1", "--rewrite") == 0
    fixed = Document.open(out)
    assert not fixed.repaired and fixed.get(5).value.get("ToUnicode") is not None


def test_fonts_whose_text_would_not_change_are_left_alone(tmp_path, capsys):
    src, out = sample("encrypted-rc4.pdf"), tmp_path / "out.pdf"
    assert fix(src, out) == 0  # Helvetica + WinAnsi: 9.10.2 already reads it
    assert "not fixed: no fixable reason" in capsys.readouterr().out and not out.exists()
    assert fix(src, out, "--font", "6 0 R") == 0  # named: written, and encrypted like the file
    fixed = check_output(src, out)
    assert all(r.method == TOUNICODE for r in page_glyphs(fixed, fixed.page_ref(1)))


# -- our corpus: fonts without ToUnicode ---------------------------------------------------------------
def _junk(text: str) -> int:
    return sum(ch == "\ufffd" or (ch < " " and ch not in "\n\t\f") or 0xE000 <= ord(ch) <= 0xF8FF for ch in text)


def assert_reads_better(src: Path, out: Path, wanted: set[str]) -> None:
    """Neither pdftotext nor mutool reads more U+FFFD, control or private-use characters than
    before, and one of them reads some of the fixed characters more often."""
    gains = []
    for tool in ("pdftotext", "mutool"):
        before, after = extracted(tool, src), extracted(tool, out)
        assert _junk(after) <= _junk(before), tool
        gains.append(any(after.count(ch) > before.count(ch) for ch in wanted))
    assert any(gains)


def changed_chars(plan) -> set[str]:
    return {ch for f in plan.to_write for c in f.codes if c.changes_extraction for ch in c.after if not ch.isspace()}


NEW_TEXT = {  # characters the fixed copy gives in both pdftotext and mutool, the input in neither
    "pdflatex-cm-builtin-notounicode.pdf": "√∑∏",
    "pdflatex-lm-t1-differences-notounicode.pdf": "√∑∏",
}


@pytest.mark.parametrize("name", ["latex-dvips-pk300-type3.pdf", *sorted(NEW_TEXT)])
def test_corpus_fix_reads_better_everywhere(name, tmp_path):
    src, out = corpus_file(name), tmp_path / name
    plan, _ = walk(Document.open(src))
    assert fix(src, out) == 0
    check_output(src, out)
    assert_reads_better(src, out, changed_chars(plan))
    for tool in ("pdftotext", "mutool"):
        before, after = extracted(tool, src), extracted(tool, out)
        for ch in NEW_TEXT.get(name, ""):
            assert ch in after and ch not in before, (tool, ch)
        assert "\ufb03" not in after  # ligatures are written as their letters


def test_from_spec_leaves_heuristic_names_out():
    doc = Document.open(corpus_file("pdflatex-cm-builtin-notounicode.pdf"))
    spec, _ = walk(doc, source="spec")
    heur, _ = walk(doc, source="heuristic")
    spec_codes = {(f.ref, c.code): c for f in spec.fonts for c in f.codes}
    moved = [c for f in heur.fonts for c in f.codes if c.action == ADD and c.confidence == "heuristic"]
    assert moved, "expected TeX glyph list mappings in the heuristic plan"
    for f in heur.fonts:
        for c in f.codes:
            if c.confidence == "heuristic":
                assert spec_codes[(f.ref, c.code)].action == UNRESOLVED


def test_page_diff_shows_what_changed(tmp_path):
    src, out = corpus_file("latex-dvips-pk300-type3.pdf"), tmp_path / "t3.pdf"
    doc = Document.open(src)
    plan, before = walk(doc)
    out.write_bytes(plan.write(doc))
    (page,) = diffs(before, Document.open(out))
    added = {c.after for f in plan.to_write for c in f.codes if c.changes_extraction}
    assert page.changes() and all(a == "" and b for a, b in page.changes())  # text where there was none
    assert set("".join(b for _, b in page.changes())) <= set("".join(added)) and page.full_unchanged


# -- pdf.js files with broken ToUnicode CMaps -------------------------------------------------------------
PDFJS_FILES = ("issue215.pdf", "issue1350.pdf", "issue2537r.pdf", "issue7696.pdf")


@pytest.mark.parametrize("name", PDFJS_FILES)
def test_pdfjs_tounicode_files(name, tmp_path):
    src = PDFJS / name
    if not src.exists():
        pytest.skip(f"{name} not in ../shared/corpus-pdfjs")
    doc = Document.open(src)
    plan, before = walk(doc, [1])
    assert plan.to_write and any(r.startswith("tounicode_") for f in plan.to_write for r in f.reasons)
    out = tmp_path / name
    assert fix(src, out, "--pages", "1") == 0
    fixed = check_output(src, out)
    changed = {(f.ref, c.code): c.after for f in plan.to_write for c in f.changed}
    for r in page_glyphs(fixed, fixed.page_ref(1)):
        key = (r.step.font.ref, r.glyph.code)
        if key in changed:
            assert r.resolution.path[0].result == HIT and r.resolution.path[0].unicode == changed[key]
    assert_reads_better(src, out, {ch for text in changed.values() for ch in text if not ch.isspace()})


# -- the property --------------------------------------------------------------------------------
NAMES = ["A", "b", "kappa", "Aring", "eacute", "fi", "ffl", "uni2603", "u1F600", "germandbls", "Omega",
         "musicsharp", "g123", "zero", "quotedblleft", "endash", "Zcaron", "alpha", "one", "space"]
ENTRY = st.sampled_from(["good", "missing", "control", "fffd"])


@st.composite
def font_cases(draw):
    codes = draw(st.lists(st.integers(1, 255), min_size=1, max_size=12, unique=True))
    names = draw(st.lists(st.sampled_from(NAMES), min_size=len(codes), max_size=len(codes)))
    entries = draw(st.lists(ENTRY, min_size=len(codes), max_size=len(codes)))
    with_tounicode = draw(st.booleans())
    return list(zip(codes, names, entries)), with_tounicode


def _case_pdf(case, with_tounicode: bool) -> bytes:
    from fontTools.agl import toUnicode

    b = make_samples.Builder()
    make_samples.skeleton(b, resources=b"/Font << /F1 5 0 R >>")
    shown = b"".join(b"\\%03o" % code for code, _, _ in case)
    b.obj(4, make_samples.stream(b"", b"BT /F1 12 Tf 72 700 Td (" + shown + b") Tj ET"))
    diffs_ = b" ".join(b"%d /%s" % (code, name.encode()) for code, name, _ in case)
    tu = b""
    if with_tounicode:
        lines = []
        for code, name, entry in case:
            text = {"good": toUnicode(name), "control": "\x01", "fffd": "\ufffd"}.get(entry)
            if text:
                lines.append(b"<%02x> <%s>" % (code, text.encode("utf-16-be").hex().encode()))
        body = b"%d beginbfchar\n%s\nendbfchar\n" % (len(lines), b"\n".join(lines)) if lines else b""
        b.obj(6, make_samples.stream(b"", make_samples.tounicode(b"<00> <FF>", body)))
        tu = b" /ToUnicode 6 0 R"
    b.obj(5, b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding << /Differences [%s] >>%s >>"
          % (diffs_, tu))
    b.xref_table(b"/Root 1 0 R")
    return b.getvalue()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(font_cases())
def test_fixed_tounicode_gives_what_the_other_methods_gave(case_and_flag):
    case, with_tounicode = case_and_flag
    doc = Document(_case_pdf(case, with_tounicode))
    page = doc.page_ref(1)
    before = {r.glyph.code: r.resolution for r in page_glyphs(doc, page)}
    plan, _ = walk(doc, only={Ref(5)})  # named, so written even where 9.10.2 already reads it
    fixed = Document(plan.write(doc)) if plan.to_write else doc
    fixes = {c.code: c for f in plan.fonts for c in f.codes}
    for r in page_glyphs(fixed, fixed.page_ref(1)):
        old, fix_ = before[r.glyph.code], fixes[r.glyph.code]
        tu = r.resolution.path[0]
        other = next((s.unicode for s in old.path[1:] if s.result == HIT), None)
        if fix_.action in (ADD, REPLACE) and plan.to_write:
            assert tu.result == HIT and tu.unicode == for_tounicode(other)
        elif fix_.action == KEEP:
            assert tu.result == HIT and tu.unicode == old.path[0].unicode
        elif fix_.action == UNRESOLVED:
            assert other is None and not (tu.result == HIT and tu.unicode)


def test_output_path_mistakes_are_refused_before_the_walk(tmp_path, capsys):
    """A missing folder or a folder as -o: one line, nothing created, the input untouched."""
    src = sample("kappa.pdf")
    for out, says in ((tmp_path / "no" / "fixed.pdf", "does not exist"), (tmp_path, "is a folder")):
        assert fix(src, out) == 1
        err = capsys.readouterr().err
        assert says in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []
