"""core/atomic.py: the one write policy and the atomic write every output goes through."""
from __future__ import annotations

import io
import os
import stat

import pytest

from conftest import sample
from pdfinspect.core import writer
from pdfinspect.core.atomic import atomic_path, atomic_write, check_target, write_bytes
from pdfinspect.core.diagnostics import PdfError
from pdfinspect.core.document import Document
from pdfinspect.core.objects import Dict, Name, Ref, String


def _code(call) -> str:
    with pytest.raises(PdfError) as e:
        call()
    assert "\n" not in str(e.value.diagnostic)
    return e.value.diagnostic.code


def test_refusals_have_codes_and_write_nothing(tmp_path):
    src = tmp_path / "in.pdf"
    src.write_bytes(b"%PDF-1.4\n")
    assert _code(lambda: check_target(tmp_path / "." / "in.pdf", [src])) == "output-is-input"
    assert _code(lambda: check_target(tmp_path, [src])) == "output-is-dir"
    assert _code(lambda: write_bytes(tmp_path / "no" / "out.bin", b"x")) == "output-dir-missing"
    assert not (tmp_path / "no").exists() and sorted(os.listdir(tmp_path)) == ["in.pdf"]
    assert check_target(tmp_path / "out.bin", [src, None]) == tmp_path / "out.bin"


def test_a_failed_write_leaves_the_old_target_and_no_temporary_file(tmp_path):
    target = tmp_path / "out.bin"
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError):
        with atomic_write(target) as f:
            f.write(b"half of the new")
            assert target.read_bytes() == b"old"  # nothing replaced before the end
            raise RuntimeError("writer crashed")
    assert target.read_bytes() == b"old" and os.listdir(tmp_path) == ["out.bin"]


def test_os_errors_become_one_line_errors(tmp_path):
    def fail():
        with atomic_path(tmp_path / "out.bin"):
            raise OSError(28, "No space left on device")

    assert _code(fail) == "output-unwritable" and os.listdir(tmp_path) == []


def test_replacing_keeps_the_mode_of_the_old_file(tmp_path):
    target = tmp_path / "out.bin"
    target.write_bytes(b"old")
    os.chmod(target, 0o640)
    write_bytes(target, b"new")
    assert target.read_bytes() == b"new" and stat.S_IMODE(target.stat().st_mode) == 0o640


def test_streamed_update_copies_the_original_in_chunks(monkeypatch):
    doc = Document.open(sample("incremental.pdf"))
    num = writer.next_free_number(doc)
    objects = {Ref(num): String(b"marker"), Ref(doc.trailer["Root"].num): Dict(doc.catalog)}
    monkeypatch.setattr(writer, "CHUNK", 7)  # many chunks, the last one short
    f = io.BytesIO()
    size = writer.write_update(doc, objects, f)
    data = f.getvalue()
    assert size == len(data) and data.startswith(bytes(doc.buf)) and len(data) > len(doc.buf)
    new = Document(data)
    assert len(new.revisions) == len(doc.revisions) + 1 and new.resolve(Ref(num)).value == b"marker"
    assert not new.repaired  # every offset the update wrote points where its object is


def test_fix_plan_save_refuses_before_writing(tmp_path):
    from pdfinspect.present.fix import walk

    doc = Document.open(sample("kappa.pdf"))
    plan, _ = walk(doc)
    assert _code(lambda: plan.save(doc, sample("kappa.pdf"))) == "output-is-input"
    size = plan.save(doc, tmp_path / "fixed.pdf")
    assert (tmp_path / "fixed.pdf").stat().st_size == size and os.listdir(tmp_path) == ["fixed.pdf"]
    fixed = Document.open(tmp_path / "fixed.pdf")
    assert bytes(fixed.buf).startswith(sample("kappa.pdf").read_bytes()) and not fixed.repaired
    assert len(fixed.revisions) == len(doc.revisions) + 1 and Name("ToUnicode") in fixed.get(5).value
