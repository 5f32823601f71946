"""The headless inspection layer: one answer, rendered the same by the CLI and the app."""
from __future__ import annotations

import json
import subprocess
import sys

import pikepdf
import pytest
from conftest import ROOT, sample, settle

from pdfinspect.content.interpreter import iter_steps
from pdfinspect.content.textlayout import page_glyphs
from pdfinspect.core.document import Document
from pdfinspect.core.objects import Array, Dict, Name, Ref
from pdfinspect.fonts.resolve import Resolver
from pdfinspect.present import goto
from pdfinspect.present.content import changes, state_rows
from pdfinspect.present.glyphs import code_rows, font_reports
from pdfinspect.present.goto import GoTo, parse_goto
from pdfinspect.present.objects import object_header, object_lines, object_row, revision_label, trailer_header
from pdfinspect.present.streams import StreamHeader, stream_kind
from pdfinspect.present.summary import diagnostic_parts, document_summary
from pdfinspect.tui.app import PdfInspectApp
from pdfinspect.tui.messages import Target
from pdfinspect.tui.widgets.object_list import object_row as list_row


def cli_show(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pdfinspect", "show", *map(str, args)], capture_output=True,
                          text=True, encoding="utf-8", cwd=ROOT)


def cli_object(*args) -> tuple[str, list[str]]:
    """(the header comment, the lines of the value) that ``pdfinspect show`` prints."""
    p = cli_show(*args)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.split("\n")
    assert lines[0].startswith("% ")
    end = next(i for i, line in enumerate(lines) if line in ("stream", "endobj"))
    return lines[1] + "  " + lines[0][2:], lines[2:end]


async def app_object(app, pilot, target: Target) -> tuple[str, list[str]]:
    """(the header, the lines of the object view) the browser shows for ``target``."""
    app.show_target(target)
    await settle(pilot)
    screen = app.screen
    view = screen.query_one("#object-view")
    return str(screen.query_one("#object-header").render()), [content.plain for content, _, _ in view.items]


# -- one object, two front ends ----------------------------------------------------------------
CASES = [  # (sample, object, generation, revision): a stream in a later revision, the same as of
    # revision 0, a member of an object stream, a font dictionary with references and a text string
    ("incremental.pdf", 4, 0, None), ("incremental.pdf", 4, 0, 0), ("xref-stream.pdf", 2, 0, None),
    ("kappa.pdf", 5, 0, None), ("hybrid.pdf", 1, 0, None),
]


@pytest.mark.parametrize("name", sorted({c[0] for c in CASES}))
async def test_cli_and_app_render_an_object_alike(name):
    path = sample(name)
    app = PdfInspectApp(Document.open(path), "", Target(None))
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        await pilot.press("b")
        await settle(pilot)
        for _, num, gen, revision in [c for c in CASES if c[0] == name]:
            extra = ["--revision", revision] if revision is not None else []
            cli_header, cli_lines = cli_object(path, num, gen, *extra)
            app_header, app_lines = await app_object(app, pilot, Target(Ref(num, gen), revision))
            assert app_header == cli_header
            assert app_lines == cli_lines
            assert f"{num} {gen} obj" in app_header


async def test_cli_and_app_render_a_trailer_alike():
    path = sample("incremental.pdf")
    app = PdfInspectApp(Document.open(path), "", Target(None))
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        await pilot.press("b")
        for revision in (None, 1):
            extra = ["--revision", revision] if revision is not None else []
            p = subprocess.run([sys.executable, "-m", "pdfinspect", "trailer", path, *map(str, extra)],
                               capture_output=True, text=True, encoding="utf-8", cwd=ROOT)
            lines = p.stdout.rstrip("\n").split("\n")
            header, body = await app_object(app, pilot, Target(None, revision))
            assert header == f"{lines[1]}  {lines[0][2:]}" and lines[1] == "trailer"
            assert body == lines[2:] and any(line.startswith("  /Root ") for line in body)


async def test_cli_and_app_say_the_same_about_a_missing_generation():
    path = sample("minimal.pdf")
    p = cli_show(path, 4, 3)
    assert p.returncode == 1
    reason = p.stderr.strip().removeprefix("pdfinspect: ")
    assert "in use at generation 0" in reason  # not "free": object 4 exists, at another generation
    app = PdfInspectApp(Document.open(path), "", Target(None))
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        await pilot.press("b")
        header, _ = await app_object(app, pilot, Target(Ref(4, 3)))
    assert header == f"4 3 obj  missing: {reason}"


# -- revisions are numbered from 0 everywhere -------------------------------------------------
def test_revisions_are_numbered_from_0_as_in_the_cli_and_the_api():
    doc = Document.open(sample("incremental.pdf"))
    with pikepdf.open(sample("incremental.pdf")) as pdf:
        assert len(doc.revisions) == 3 and pdf.get_object((4, 0)).read_bytes().endswith(b"changed) Tj ET")
    first, _ = object_header(doc, 4, revision=0)
    latest, _ = object_header(doc, 4)
    assert (first.revision, latest.revision) == (0, 1)  # revision 1 rewrote object 4
    assert "revision 0 of 0–2" in first.line and "revision 1 of 0–2" in latest.line
    assert "replaces the object as of revision 0" in latest.line
    assert "[as of revision 0]" in first.line and "[as of" not in latest.line
    assert Target(Ref(4, 0), 1).describe() == "4 0 obj (revision 1)"
    trailer, value = trailer_header(doc, 0)
    assert trailer.line == "trailer  revision 0 of 0–2  [as of revision 0]" and value is doc.revisions[0].trailer
    xref = subprocess.run([sys.executable, "-m", "pdfinspect", "xref", sample("incremental.pdf")],
                          capture_output=True, text=True, cwd=ROOT).stdout
    assert [line.split(":")[0] for line in xref.split("\n") if line.startswith("revision")] == \
        ["revision 0", "revision 1", "revision 2"]
    assert revision_label(0, 1) == "revision 0"


def test_object_row_is_what_the_cli_and_the_app_list(tmp_path):
    pdf = pikepdf.new()
    pdf.add_blank_page()
    action = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Action, S=pikepdf.Name.URI, URI="x"))
    pdf.pages[0].Annots = pdf.make_indirect(pikepdf.Array([pdf.make_indirect(pikepdf.Dictionary(
        Type=pikepdf.Name.Annot, Subtype=pikepdf.Name("/Li\x1bnk"), A=action))]))
    path = tmp_path / "a.pdf"
    pdf.save(path, object_stream_mode=pikepdf.ObjectStreamMode.disable)
    with Document.open(path) as doc:
        rows = {r.type: r for r in (object_row(doc.get(n), doc.xref()[n]) for n in doc.object_numbers())}
        act, annot = rows["Action"], rows["Annot"]
        assert (act.kind, act.subtype, act.s, act.in_objstm, act.damaged) == ("dictionary", None, "URI", False, False)
        assert annot.type_subtype == "/Annot /Li\\x1bnk" and act.type_subtype == "/Action"
        assert act.names == "/Action /URI" and act.where == f"offset {doc.xref()[act.num].a} gen 0"
        assert "/Action /URI" in list_row(doc, act.num).plain
    listed = subprocess.run([sys.executable, "-m", "pdfinspect", "objects", str(path)], capture_output=True,
                            text=True, encoding="utf-8", cwd=ROOT).stdout.splitlines()
    assert f"{act.num:>7} 0   dictionary {'/Action':<28} {act.where}" in listed
    assert any("/Annot /Li\\x1bnk" in line for line in listed)


def test_object_stream_member_says_where_it_really_is():
    doc = Document.open(sample("xref-stream.pdf"))
    header, obj = object_header(doc, 2)
    entry = doc.xref()[2]
    assert (header.stream, header.index) == (obj.container, obj.index) == (entry.a, entry.b)
    assert header.offset is None and header.start == obj.start
    assert f"object stream {entry.a} index {entry.b}" in header.line


# -- object lines ------------------------------------------------------------------------------
def test_object_lines_put_each_reference_on_its_line_and_escape_the_file_s_bytes():
    value = Dict({"Type": Name("Font"), "A": Ref(7, 0), "K": Name("[/foo]\x1b[31m"),
                  "Kids": Array([Ref(8, 0), Ref(9, 1)])})
    lines = object_lines(value)
    refs = [(line.ref, line.key) for line in lines if line.ref is not None]
    assert refs == [(Ref(7, 0), "/A"), (Ref(8, 0), "/Kids"), (Ref(9, 1), "/Kids")]
    assert all("\x1b" not in line.text for line in lines)
    truncated = object_lines(Array(Ref(n, 0) for n in range(1, 50)), limit=10)
    assert truncated[-1].text == "% … truncated after 10 lines" and sum(line.ref is not None for line in truncated) == 9
    assert len(object_lines(Array(Ref(n, 0) for n in range(1, 50)), limit=None)) == 51


# -- streams -----------------------------------------------------------------------------------
@pytest.mark.parametrize("d, data, key, kind", [
    (Dict(), b"BT /F1 12 Tf (x) Tj ET", None, "content"),
    (Dict(), b"\x00\x01\x02garbage", None, "hex"),
    (Dict({"Subtype": Name("Form")}), b"q 1 0 0 1 0 0 cm Q", None, "content"),
    (Dict(), b"/CIDInit /ProcSet findresource begin begincmap", None, "cmap"),
    (Dict({"Type": Name("Metadata"), "Subtype": Name("XML")}), b"<x:xmpmeta/>", None, "xml"),
    (Dict(), b"app.alert(1)", "/JS", "javascript"),
    (Dict({"Type": Name("ObjStm")}), b"1 0 2 5 << >> [ ]", None, "pdf"),
    (Dict(), b"hello there", "/FontFile2", "hex"),
    (Dict(), b"just words", None, "text"),
])
def test_stream_kind(d, data, key, kind):
    assert stream_kind(d, data, key) == kind


def test_stream_header_names_each_filter_with_sizes_and_the_error():
    doc = Document.open(sample("filters.pdf"))
    obj = doc.get(4)
    result = doc.stream_data(obj)
    header = StreamHeader(False, len(obj.value.raw), result, "text")
    assert header.line.startswith(f"decoded  {len(obj.value.raw)} bytes in file")
    for step in result.steps:
        assert f"{step.name} {step.size_in}→{step.size_out}" in header.line
    assert header.line.endswith(f"{len(result.data)} bytes shown as text")
    assert StreamHeader(True, 9, None, "hex", "boom\x1b").line == \
        "raw (not decoded)  9 bytes in file  error: boom\\x1b  0 bytes shown as hex"
    # an encrypted file's raw data is shown decrypted: the header says so only there
    assert StreamHeader(True, 9, None, "hex", decrypted=True).line.startswith("raw (decrypted, not decoded)")


# -- summary -----------------------------------------------------------------------------------
def test_summary_lists_every_diagnostic_repairs_first():
    doc = Document.open(sample("damaged-bad-offsets.pdf"))
    for _ in doc.iter_objects():
        pass
    summary = document_summary(doc, doc.object_numbers())
    assert set(summary.diagnostics) == set(doc.diagnostics) and summary.repairs
    assert all(d.repair for d in summary.repairs) and not any(d.repair for d in summary.warnings)
    facts = {f.label: f.value for f in summary.facts}
    assert facts["Damage"].startswith(f"{len(summary.repairs)} repair")
    assert facts["Objects"].startswith(f"{len(doc.object_numbers())} in use")
    parts = diagnostic_parts(summary.repairs[0])
    assert ("repaired: " in "".join(t for t, _ in parts)) and parts[0][1] == summary.repairs[0].severity.value


@pytest.mark.parametrize("password, how", [("", "opened with the user password"), ("wrong", "locked: ")])
def test_summary_gives_the_security_facts_with_or_without_the_password(password, how):
    doc = Document.open(sample("encrypted-rc4.pdf"), password=password, allow_locked=True)
    summary = document_summary(doc)
    with pikepdf.open(sample("encrypted-rc4.pdf")) as pdf:
        allowed = pdf.allow
    assert f"permission: print: {'granted' if allowed.print_lowres else 'denied'}" in summary.security
    assert (f"permission: modify contents: {'granted' if allowed.modify_other else 'denied'}"
            in summary.security)
    encryption = {f.label: f.value for f in summary.facts}["Encryption"]
    assert encryption.startswith("/Standard security handler V2 R3, RC4 128-bit") and how in encryption


# -- content steps -----------------------------------------------------------------------------
def test_state_rows_and_changes_of_a_step():
    doc = Document.open(sample("kappa.pdf"))
    steps = list(iter_steps(doc, doc.page_ref(1)))
    tf = next(k for k, s in enumerate(steps) if s.op == "Tf")
    rows = {r.label: r.value for r in state_rows(steps[tf])}
    font = steps[tf].gstate.text
    assert rows["font"] == f"/{font.font_name} {font.font_ref.num} {font.font_ref.gen} R"
    assert rows["step"].startswith(f"{steps[tf].index}  Tf  offset {steps[tf].span[0]}")
    assert any(c.startswith(f"font /{font.font_name} ") for c in changes(steps[tf - 1], steps[tf]))
    assert changes(steps[tf], steps[tf]) == []  # nothing changes from a step to itself
    with_prev = {r.label: r.value for r in state_rows(steps[tf], steps[tf - 1])}
    assert with_prev["changed"] == "; ".join(changes(steps[tf - 1], steps[tf])) and "changed" not in rows
    shows = next(s for s in steps if s.glyphs)
    assert rows != {r.label: r.value for r in state_rows(shows)}


# -- font reports ----------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["kappa.pdf", "cid-identity.pdf"])
def test_glyph_inspector_and_fonts_command_give_the_same_reasons(name):
    path = sample(name)
    doc = Document.open(path)
    resolver = Resolver(doc)
    reports = font_reports(code_rows(page_glyphs(doc, doc.page_ref(1), resolver)), resolver)
    p = subprocess.run([sys.executable, "-m", "pdfinspect", "fonts", path, "-p", "1", "--json"],
                       capture_output=True, text=True, cwd=ROOT)
    cli = {rec["ref"]: rec for rec in json.loads(p.stdout)}
    assert reports and {str(f.ref) for f in reports} == set(cli)
    for font, rep in reports.items():
        assert rep.diagnosis == cli[str(font.ref)]["diagnosis"]
        assert [r.id for r in rep.reasons] == [r["id"] for r in cli[str(font.ref)]["reasons"]]
    assert any(rep.reasons for rep in reports.values())


# -- go-to targets -----------------------------------------------------------------------------
@pytest.mark.parametrize("text, target", [
    ("12", GoTo(goto.OBJECT, 12)), ("12 0", GoTo(goto.OBJECT, 12, 0)), (" 12 3 R ", GoTo(goto.OBJECT, 12, 3)),
    ("g 12", GoTo(goto.OBJECT, 12)), ("obj 7", GoTo(goto.OBJECT, 7)),
    ("p 3", GoTo(goto.PAGE, 3)), ("page3", GoTo(goto.PAGE, 3)),
    ("fonts of page 2", GoTo(goto.FONTS, 2)), ("s 4", GoTo(goto.STEP, 4)),
    ("step through page 4", GoTo(goto.STEP, 4)), ("glyphs of page 5", GoTo(goto.GLYPHS, 5)),
    ("gl 5", GoTo(goto.GLYPHS, 5)), ("@336", GoTo(goto.OFFSET, 336)), ("@0x150", GoTo(goto.OFFSET, 336)),
    ("offset 336", GoTo(goto.OFFSET, 336)), ("p 03", GoTo(goto.PAGE, 3)),
    ("p xiv", GoTo(goto.PAGE, 0, label="xiv")), ("page A-3", GoTo(goto.PAGE, 0, label="A-3")),
    ("p label:3", GoTo(goto.PAGE, 0, label="label:3")), ("pxiv", None),
    ("twelve", None), ("12 x", None), ("p", None), ("", None),
])
def test_parse_goto(text, target):
    assert parse_goto(text) == target


async def test_the_g_prompt_reads_go_to_targets_as_the_palette_does():
    app = PdfInspectApp(Document.open(sample("pages.pdf")), "", Target(None))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        for key in ("g", "s", "space", "2", "enter"):
            await pilot.press(key)
        await settle(pilot)
        assert app.current_mode == "stepper" and app.screen.page == 2
