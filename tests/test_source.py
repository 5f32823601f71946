"""Big files read on demand (core/source.py): the same objects as a file read whole, and a
file truncated while open is a clear error, never SIGBUS (issue 21)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pdfinspect.core import document, source
from pdfinspect.core.diagnostics import PdfError
from pdfinspect.core.document import Document

SAMPLES = sorted((Path(__file__).parent.parent / "sample_pdfs").glob("*.pdf"))
ROOT = Path(__file__).parent.parent


@pytest.fixture
def on_demand(monkeypatch):
    """Every file read on demand, through windows small enough that each sample needs many."""
    monkeypatch.setattr(document, "READ_WHOLE", 0)
    monkeypatch.setattr(source, "CHUNK", __import__("mmap").PAGESIZE)
    monkeypatch.setattr(source, "CACHED", 1)
    monkeypatch.setattr(source, "SCAN", 512)
    monkeypatch.setattr(source, "OVERLAP", 128)
    monkeypatch.setattr(source, "PARSE_WINDOW", 16)


def _everything(doc: Document):
    objects = [(o.num, o.gen, repr(o.value), o.start, o.end, getattr(o.value, "raw", None))
               for o in doc.iter_objects()]
    return (objects, [str(d) for d in doc.diagnostics], doc.page_count(), [r.entries for r in doc.revisions],
            doc.trailer, doc._scan_headers())


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_a_file_read_on_demand_gives_what_the_file_read_whole_gives(path, on_demand):
    whole = Document(path.read_bytes(), str(path))
    with Document.open(path) as big:
        assert isinstance(big.buf, source.FileSource)
        assert _everything(big) == _everything(whole)


def test_windowed_search_find_and_rfind_match_the_plain_ones(tmp_path, on_demand):
    data = bytearray(b"x" * 20000)
    for at in (0, 509, 510, 511, 4094, 4095, 8191, 12000, 19991):  # across window and chunk edges
        data[at:at + 9] = b"12 0 obj "
    path = tmp_path / "f.bin"
    path.write_bytes(bytes(data))
    fd = os.open(path, os.O_RDONLY)
    buf = source.FileSource.open(fd, str(path), os.fstat(fd))
    try:
        pattern = re.compile(rb"(?<![0-9])(\d+) (\d+) obj")
        plain = bytes(data)
        assert [m.span() for m in source.finditer(buf, pattern)] == [m.span() for m in pattern.finditer(plain)]
        assert [m.span() for m in source.finditer(buf, pattern, 600, 12005)] \
            == [m.span() for m in pattern.finditer(plain, 600, 12005)]
        for sub in (b"12 0 obj", b"obj 12", b"absent"):
            assert buf.find(sub) == plain.find(sub)
            assert buf.find(sub, 4000, 9000) == plain.find(sub, 4000, 9000)
            assert buf.rfind(sub) == plain.rfind(sub)
            assert buf.rfind(sub, 0, 12004) == plain.rfind(sub, 0, 12004)
        assert buf[4090:4100] == plain[4090:4100] and buf[-3:] == plain[-3:] and buf[8191] == plain[8191]
    finally:
        buf.close()
    with pytest.raises(OSError):  # the source owned the descriptor
        os.fstat(fd)


_VICTIM = """
import mmap, sys
from pdfinspect.core import document, source
from pdfinspect.core.diagnostics import PdfError
document.READ_WHOLE = 0
source.CHUNK, source.CACHED = mmap.PAGESIZE, 1
path = sys.argv[1]
doc = document.Document.open(path)
page = doc.resolve(doc.page_refs()[0])
contents = doc.get(page["Contents"].num)
open(path, "r+b").truncate(1000)  # as pdflatex does: a mapped file would SIGBUS below
try:
    doc.stream_data(contents)
except PdfError as e:
    print(e.diagnostic.code, e.diagnostic.message)
"""


def test_a_big_file_truncated_while_open_is_a_clear_error_not_sigbus(tmp_path):
    import pikepdf

    pdf = pikepdf.new()
    pdf.add_blank_page()
    pdf.pages[0].Contents = pdf.make_stream(b"0 0 m 10 10 l S\n" * 20000)  # 320 KB, stored unfiltered
    path = tmp_path / "latex.pdf"
    pdf.save(path, compress_streams=False)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    run = subprocess.run([sys.executable, "-c", _VICTIM, str(path)], capture_output=True, text=True, env=env,
                         timeout=120)
    assert run.returncode == 0, run.stderr  # SIGBUS would be -7
    code, _, message = run.stdout.strip().partition(" ")
    assert code == "file-changed"
    assert "changed on disk while open" in message and "\n" not in message


def test_a_big_file_rewritten_with_other_bytes_is_refused_not_mixed(tmp_path, on_demand):
    path = tmp_path / "f.pdf"
    path.write_bytes(SAMPLES[0].read_bytes())
    doc = Document.open(path)
    with open(path, "r+b") as f:  # same size, new bytes, new modification time
        f.write(b"%PDF-1.7")
        os.utime(f.fileno(), ns=(1, 1))
    doc.buf._filled.clear()  # as if the chunks had been evicted
    with pytest.raises(PdfError) as e:
        doc.buf[0:8]
    assert e.value.diagnostic.code == "file-changed"
    doc.close()
