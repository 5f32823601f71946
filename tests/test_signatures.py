"""Signatures and what was written after them: `pdfinspect signatures` and the overview line,
on a clean signed file, one updated after signing and one with objects appended without an
xref section (the incremental-saving and shadow attacks)."""
from __future__ import annotations

import importlib.util
import json
import re

from conftest import SAMPLES
from pdfinspect.cli.main import main
from pdfinspect.core.document import Document
from pdfinspect.core.signatures import Verdict, signature_report
from pdfinspect.present.summary import document_summary

_spec = importlib.util.spec_from_file_location("make_samples", SAMPLES / "make_samples.py")
make_samples = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_samples)


def signed_builder():
    """A one-page file with a signature field whose /ByteRange is right for the file as saved."""
    b = make_samples.Builder()
    make_samples.skeleton(b, catalog=b"/AcroForm << /Fields [6 0 R] /SigFlags 3 >>")
    b.obj(4, make_samples.stream(b"", b"BT /F1 24 Tf 72 720 Td (Signed page) Tj ET"))
    b.obj(5, make_samples.HELVETICA)
    b.obj(6, b"<< /FT /Sig /T (Signature1) /V 7 0 R /Rect [0 0 0 0] /Subtype /Widget /P 3 0 R >>")
    b.obj(7, b"<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /adbe.pkcs7.detached "
             b"/ByteRange [0000000000 0000000000 0000000000 0000000000] /Contents <" + b"0" * 64 + b"> >>")
    b.xref_table(b"/Root 1 0 R")
    out = b.out
    start = out.index(b"/Contents <") + len(b"/Contents ")
    stop = out.index(b">", start) + 1
    numbers = b"[%010d %010d %010d %010d]" % (0, start, stop, len(out) - stop)
    at = out.index(b"[0000000000 0000000000")
    out[at:at + len(numbers)] = numbers
    return b


def verdicts(data: bytes):
    report = signature_report(Document(data))
    return report, [s.verdict for s in report.signatures]


def test_a_clean_signed_file_is_covered_whole():
    report, found = verdicts(signed_builder().getvalue())
    assert found == [Verdict.COVERS_FILE] and report.ok
    sig = report.signatures[0]
    assert sig.name == "Signature1" and sig.revision == 0 and sig.byte_range[0] == 0


def test_an_incremental_update_after_signing_is_listed():
    b = signed_builder()
    b.obj(4, make_samples.stream(b"", b"BT /F1 24 Tf 72 720 Td (Changed page) Tj ET"))
    b.obj(8, b"<< /Note (added) >>")
    b.xref_table(b"/Root 1 0 R")
    report, found = verdicts(b.getvalue())
    assert found == [Verdict.UPDATED_AFTER] and not report.ok
    sig = report.signatures[0]
    assert sig.revision == 0 and sig.changed_after == (4,) and sig.added_after == (8,)


def attacked() -> bytes:
    signed = signed_builder().getvalue()
    forged = (b"4 0 obj\n" + make_samples.stream(b"", b"BT /F1 24 Tf 72 720 Td (Manipulated now Page!) Tj ET")
              + b"\nendobj\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n")
    return signed + forged


def test_objects_appended_without_an_xref_are_reported_with_what_they_redefine(tmp_path, capsys):
    report, found = verdicts(attacked())
    assert found == [Verdict.APPENDED_AFTER]
    assert [(o.num, o.redefines) for o in report.appended] == [(4, "object"), (1, "Catalog")]
    path = tmp_path / "attacked.pdf"
    path.write_bytes(attacked())
    assert main(["signatures", str(path), "--json"]) == 3
    data = json.loads(capsys.readouterr().out)
    assert data["signatures"][0]["verdict"] == "appended-after" and len(data["appended"]) == 2
    assert main(["signatures", str(path)]) == 3
    text = capsys.readouterr().out
    assert "appended-outside-xref: 1 0 obj" in text and "redefines object 1 (now the Catalog)" in text


def test_the_overview_says_something_is_wrong_for_each_file_but_the_clean_one():
    def row(data):
        summary = document_summary(Document(data))
        return next(r for r in summary.facts if r.label == "Signatures")

    clean = row(signed_builder().getvalue())
    assert clean.role == "" and "covers-file" in clean.value
    forged = row(attacked())
    assert forged.role == "warning" and "appended-after" in forged.value and "2 objects" in forged.value
    plain = document_summary(Document(SAMPLES.joinpath("minimal.pdf").read_bytes()))
    assert "Signatures" not in [r.label for r in plain.facts]
    assert re.search(r"outside any xref", row(attacked()).value)
