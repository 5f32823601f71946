"""objects --json: qpdf's JSON v2, streamed, with bytes kept as bytes."""
from __future__ import annotations

import base64
import io
import json
import shutil
import subprocess
import zlib

import pytest

from pdfinspect.core.document import Document
from pdfinspect.core.objects import String
from pdfinspect.core.qpdfjson import document_json, iter_document_json, json_string, write_document_json

from conftest import corpus_files, sample
from test_recovery import PAGES, build


@pytest.mark.parametrize("raw,expected", [
    (b"Hello", "u:Hello"),
    (b"caf\xe9 au lait", "u:café au lait"),
    (b"\xbd\xbat`'8\xbc\xa9\xc8\xefH\xd4jfI\xef", "b:bdba74602738bca9c8ef48d46a6649ef"),  # mostly high bytes
    (b"\xfe\xff\x00A\xd8\x00", "b:feff0041d800"),  # an unpaired surrogate: no U+FFFD, the bytes
    (b"\xfe\xff\x00A\x00B", "u:AB"),
    (b"a\x01b", "b:610162"),  # a control character
    (b"tab\there", "u:tab\there"),
    (b"soft\xadhyphen", "b:736f6674ad68797068656e"),  # 0xAD is undefined in PDFDocEncoding
    (b"\xff\xfeL\x00a\x00y\x00", "u:Lay"),  # UTF-16LE, which qpdf reads as text too
])
def test_strings_are_text_only_when_no_byte_is_lost(raw, expected):
    assert json_string(String(raw)) == expected


def test_output_starts_before_any_object_is_read():
    doc = Document.open(sample("xref-stream.pdf"))
    opened = set(doc._cache)  # what opening read (the catalog and the top of the page tree)
    pieces = iter_document_json(doc, decode=True)
    first = next(pieces)
    assert first.startswith('{\n "version": 2') and set(doc._cache) == opened
    value = json.loads(first + "".join(pieces))
    assert "obj:12 0 R" in value["qpdf"][1]  # the xref stream itself


class _Unbuffered(io.StringIO):
    """stdout under PYTHONUNBUFFERED: every write is a system call, counted here."""

    writes = 0

    def write(self, s):
        self.writes += 1
        return super().write(s)


def test_writing_batches_objects_whatever_the_buffering_of_the_output():
    # 500 small objects: far under one batch, far over what one write an object would allow
    filler = [b"<< /N %d /Name /Filler /Kids [%d 0 R] >>" % (i, i) for i in range(5, 505)]
    data = build(PAGES + filler, b"<< /Size 505 /Root 1 0 R >>")
    doc = Document(data)
    out = _Unbuffered()
    write_document_json(doc, out, decode=True)
    assert out.getvalue() == "".join(iter_document_json(Document(data), decode=True))
    assert len(doc.object_numbers(None)) == 504
    assert out.writes <= 3  # the opening alone, then batches, not one write an object


def _qpdf(path):  # (not lexical.pdf: qpdf writes its real "4." as 4., which is not JSON)
    out = subprocess.run(["qpdf", "--json=2", "--json-key=qpdf", "--decode-level=generalized",
                          "--json-stream-data=inline", str(path)], capture_output=True, check=False)
    return json.loads(out.stdout)["qpdf"][1]


@pytest.mark.skipif(shutil.which("qpdf") is None, reason="qpdf absent")
@pytest.mark.parametrize("path", [sample("xref-stream.pdf"), sample("hybrid.pdf")]
                         + [p for p in corpus_files() if p.name.startswith("pdflatex-")], ids=lambda p: p.name)
def test_json_agrees_with_qpdf_including_the_xref_streams(path):
    ours = document_json(Document.open(path), decode=True)["qpdf"][1]
    theirs = _qpdf(path)
    assert ours == theirs


NULLS = [b"<< /Type /Catalog /Pages 2 0 R /A null /B 9 0 R /C 5 0 R /D [9 0 R null] /E << /F null >> >>",
         b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>", b"<< /Type /Page /Parent 2 0 R /G 4 1 R >>",
         b"(kept)", b"null"]


def test_null_entries_are_left_out_and_dangling_references_listed_as_null():
    """7.3.7: an entry whose value is null (directly, or through a reference to a missing or
    null object) is as if absent; qpdf leaves it out and lists the missing objects as null."""
    written = document_json(Document(build(NULLS, b"<< /Size 6 /Root 1 0 R /Info 9 0 R >>")))["qpdf"][1]
    catalog = written["obj:1 0 R"]["value"]
    assert catalog == {"/Type": "/Catalog", "/Pages": "2 0 R", "/D": ["9 0 R", None], "/E": {}}
    assert "/G" not in written["obj:3 0 R"]["value"]  # 4 1 R: object 4 is at generation 0
    assert written["obj:5 0 R"] == {"value": None}
    assert written["obj:9 0 R"] == {"value": None} and written["obj:4 1 R"] == {"value": None}
    assert "/Info" not in written["trailer"]["value"]


@pytest.mark.skipif(shutil.which("qpdf") is None, reason="qpdf absent")
def test_null_entries_and_dangling_references_as_qpdf_writes_them(tmp_path):
    path = tmp_path / "nulls.pdf"
    path.write_bytes(build(NULLS, b"<< /Size 6 /Root 1 0 R /Info 9 0 R >>"))
    assert document_json(Document.open(path))["qpdf"][1] == _qpdf(path)


def test_a_stream_whose_only_fault_is_its_adler32_is_written_decoded():
    text = b"BT /F1 12 Tf (checksum) Tj ET\n" * 40
    packed = zlib.compress(text)
    packed = packed[:-1] + bytes([packed[-1] ^ 1])
    cut = zlib.compress(text)[:-9]  # ends inside the deflate data: written as stored
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [] /Count 0 >>"]
    for data in (packed, cut):
        objects.append(b"<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream" % (len(data), data))
    doc = Document(build(objects, b"<< /Size 5 /Root 1 0 R >>"))
    written = document_json(doc, decode=True)["qpdf"][1]
    whole, stored = written["obj:3 0 R"]["stream"], written["obj:4 0 R"]["stream"]
    assert base64.b64decode(whole["data"]) == text and "/Filter" not in whole["dict"]
    assert base64.b64decode(stored["data"]) == cut and stored["dict"]["/Filter"] == "/FlateDecode"
    found = [d.message for d in doc.diagnostics if d.code == "stream-decode"]
    assert len(found) == 2 and "Adler-32" in found[0] and found[0].endswith("written decoded")
