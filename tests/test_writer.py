"""The incremental writer (core/writer.py) and the ToUnicode CMap writer, on real bytes.

Each update is checked the way a reader sees it: our Document reopens it with one more
revision, qpdf --check and pikepdf accept it (skipped when absent), the original is a
byte-for-byte prefix, /Prev names the old startxref and /ID[0] is kept.
"""
from __future__ import annotations

import shutil
import subprocess
import zlib

import pytest

from conftest import corpus_file, sample
from pdfinspect.core.diagnostics import PdfError
from pdfinspect.core.document import Document
from pdfinspect.core.objects import Array, Dict, Name, Ref, Stream, String
from pdfinspect.core.writer import check_updatable, incremental_update, next_free_number, rewrite
from pdfinspect.fonts.cmap import CodespaceRange, parse_cmap
from pdfinspect.fonts.tounicode_writer import BLOCK, existing_mapping, tounicode_cmap

QPDF = shutil.which("qpdf")


def qpdf_check(data: bytes, tmp_path) -> str:
    if QPDF is None:
        pytest.skip("qpdf not installed")
    path = tmp_path / "out.pdf"
    path.write_bytes(data)
    run = subprocess.run([QPDF, "--check", str(path)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout + run.stderr


def _update(path, objects_for):
    doc = Document.open(path)
    data = incremental_update(doc, objects_for(doc))
    return doc, data, Document(data)


def _new_marker(doc):
    """A new string object and a new revision of the catalog that points at it."""
    num = next_free_number(doc)
    catalog = Dict(doc.catalog)
    catalog[Name("PdfinspectTest")] = Ref(num)
    root = doc.trailer["Root"]
    return {Ref(num): String("κ marker".encode()), Ref(root.num, root.gen): catalog}


@pytest.mark.parametrize("name", ["kappa.pdf", "xref-stream.pdf", "hybrid.pdf", "incremental.pdf",
                                  "encrypted-rc4.pdf", "encrypted-aes256.pdf"])
def test_update_appends_a_revision_readers_accept(name, tmp_path):
    path = sample(name)
    doc, data, new = _update(path, _new_marker)
    original = path.read_bytes()
    assert data.startswith(original)
    assert len(new.revisions) == len(doc.revisions) + 1 and not new.repaired
    last = new.revisions[-1]
    assert last.trailer["Prev"] == doc.startxref
    assert last.sections[0].kind == doc.revisions[-1].sections[0].kind
    marker = new.resolve(new.catalog["PdfinspectTest"])
    assert marker.value == "κ marker".encode()  # decrypted again when the file is encrypted
    old_id, new_id = doc.trailer.get("ID"), last.trailer["ID"]
    if old_id is not None:
        assert new_id[0] == old_id[0] and new_id[1] != old_id[1]
    for key in ("Root", "Info", "Encrypt"):
        assert last.trailer.get(key) == doc.trailer.get(key)
    qpdf_check(data, tmp_path)


def test_xref_stream_section_has_the_spec_keys():
    doc, data, new = _update(sample("xref-stream.pdf"), _new_marker)
    section = new.revisions[-1].sections[0]
    d = section.trailer
    assert d["Type"] == "XRef" and d["Filter"] == "FlateDecode" and list(d["W"])[0] == 1
    assert section.stream_num in section.entries  # the stream lists itself
    assert d["Size"] == section.stream_num + 1 > max(doc.xref())
    index = list(d["Index"])
    listed = [n for first, count in zip(index[0::2], index[1::2]) for n in range(first, first + count)]
    assert sorted(section.entries) == listed


def test_update_without_compression_writes_raw_rows():
    doc = Document.open(sample("xref-stream.pdf"))
    data = incremental_update(doc, _new_marker(doc), compress=False)
    new = Document(data)
    assert new.revisions[-1].trailer.get("Filter") is None
    assert len(new.revisions) == 2 and new.resolve(new.catalog["PdfinspectTest"]) is not None


@pytest.mark.parametrize("name", ["qpdf-aes-256.pdf", "qpdf-aes-128.pdf", "qpdf-rc4-40.pdf", "qpdf-rc4-128.pdf",
                                  "qpdf-objstm.pdf", "qpdf-linearized.pdf"])
def test_update_corpus_files(name, tmp_path):
    path = corpus_file(name)
    doc, data, new = _update(path, _new_marker)
    assert data.startswith(path.read_bytes())
    assert new.resolve(new.catalog["PdfinspectTest"]).value == "κ marker".encode()
    qpdf_check(data, tmp_path)


def test_new_stream_is_encrypted_in_the_file_and_decrypts(tmp_path):
    doc = Document.open(sample("encrypted-rc4.pdf"))
    num = next_free_number(doc)
    plain = b"BT /F1 12 Tf (secret words) Tj ET"
    data = incremental_update(doc, {Ref(num): Stream(Dict(), plain)})
    assert plain not in data
    new = Document(data)
    assert new.stream_data(new.get(num)).data == plain
    pikepdf = pytest.importorskip("pikepdf")
    path = tmp_path / "enc.pdf"
    path.write_bytes(data)
    with pikepdf.open(path) as pdf:
        assert pdf.get_object((num, 0)).read_bytes() == plain


def test_repaired_file_is_refused_and_rewritten(tmp_path):
    doc = Document.open(sample("damaged-no-xref.pdf"))
    assert doc.repaired
    with pytest.raises(PdfError) as e:
        check_updatable(doc)
    assert e.value.diagnostic.code == "update-refused" and "--rewrite" in str(e.value)
    data = rewrite(doc, _new_marker(doc))
    new = Document(data)
    assert not new.repaired and not new.diagnostics
    assert new.resolve(new.catalog["PdfinspectTest"]).value == "κ marker".encode()
    assert new.page_count() == doc.page_count()
    out = qpdf_check(data, tmp_path)
    assert "WARNING" not in out


@pytest.mark.parametrize("name", ["encrypted-aes256.pdf", "encrypted-rc4.pdf"])
def test_rewrite_keeps_encrypted_objects_readable(name, tmp_path):
    doc = Document.open(sample(name))
    data = rewrite(doc, {})
    new = Document(data)
    for num in doc.object_numbers():
        before, after = doc.get(num), new.get(num)
        assert after is not None and type(after.value) is type(before.value)
        if isinstance(before.value, Stream) and before.value.dict.get("Type") != "XRef":
            assert new.stream_data(after).data == doc.stream_data(before).data
    qpdf_check(data, tmp_path)


def test_rewrite_unpacks_object_streams(tmp_path):
    doc = Document.open(corpus_file("qpdf-objstm.pdf"))
    new = Document(rewrite(doc, {}))
    assert new.revisions[0].sections[0].kind == "table"
    assert all(new.get(n) is not None for n in doc.object_numbers()
               if not (isinstance(doc.get(n).value, Stream) and doc.get(n).value.dict.get("Type") in ("ObjStm", "XRef")))


# -- the CMap writer ------------------------------------------------------------------------------
def test_cmap_round_trips_through_our_parser():
    mapping = {b"\x14": "κ", b"A": "A", b"B": "B", b"C": "C", b"\x60": "ffl", b"\x61": "\U0001F600",
               b"\x62": "\U0001F601", b"\xfe": "\u00fe", b"\xff": "\u00ff"}
    cmap = parse_cmap(tounicode_cmap(mapping))
    assert not cmap.diagnostics
    assert {c: cmap.lookup_unicode(c)[0] for c in mapping} == mapping
    assert existing_mapping(cmap) == mapping
    kinds = {cmap.lookup_unicode(c)[1].kind for c in (b"A", b"\x61", b"\x14")}
    assert kinds == {"bfrange", "bfchar"}


def test_cmap_ranges_never_carry_and_blocks_hold_100():
    # destinations U+00FE, U+00FF, U+0100: a range over all three would carry out of the last byte
    mapping = {bytes([0x10 + i]): chr(0xFE + i) for i in range(3)}
    mapping.update({bytes([0x80 + i]): chr(0x4E00 + 2 * i) for i in range(120)})  # no runs: 120 bfchar
    text = tounicode_cmap(mapping).decode()
    assert "<10> <11> <00fe>" in text and "<12> <0100>" in text
    assert f"{BLOCK} beginbfchar" in text and "21 beginbfchar" in text
    cmap = parse_cmap(text.encode())
    assert all(cmap.lookup_unicode(c)[0] == t for c, t in mapping.items())


def test_cmap_two_byte_codespace_and_codes_outside_it():
    space = [CodespaceRange(b"\x00\x00", b"\xff\xff")]
    mapping = {b"\x0b\x45": "代", b"\x0b\x46": "以", b"\x20": "x"}
    text = tounicode_cmap(mapping, space)
    assert b"<0000> <ffff>" in text and b"<20>" not in text
    cmap = parse_cmap(text)
    assert cmap.lookup_unicode(b"\x0b\x46")[0] == "以"


def test_existing_mapping_reads_ranges_and_arrays():
    data = (b"1 begincodespacerange <00> <ff> endcodespacerange\n"
            b"1 beginbfrange <41> <43> <0061> endbfrange\n"
            b"1 beginbfrange <50> <51> [<0078> <00790079>] endbfrange\n")
    assert existing_mapping(parse_cmap(data)) == {b"A": "a", b"B": "b", b"C": "c", b"P": "x", b"Q": "yy"}


def test_compressed_cmap_stream_in_update_decodes(tmp_path):
    doc = Document.open(sample("kappa.pdf"))
    num = next_free_number(doc)
    cmap = tounicode_cmap({b"\x14": "κ"})
    data = incremental_update(doc, {Ref(num): Stream(Dict({Name("Filter"): Name("FlateDecode")}),
                                                     zlib.compress(cmap))})
    new = Document(data)
    assert new.stream_data(new.get(num)).data == cmap
    assert isinstance(new.revisions[-1].trailer["ID"], Array)


@pytest.mark.parametrize("method", ["aes256", "rc4"])
def test_encrypted_file_with_xref_streams(method, tmp_path):
    """An encrypted file whose last section is an xref stream (made by qpdf through pikepdf):
    the new xref stream stays clear, the new objects are encrypted."""
    pikepdf = pytest.importorskip("pikepdf")
    src = tmp_path / "src.pdf"
    enc = pikepdf.Encryption(owner="o", user="", R=6) if method == "aes256" else \
        pikepdf.Encryption(owner="o", user="", R=4, aes=False, metadata=False)
    with pikepdf.open(sample("kappa.pdf")) as pdf:
        pdf.save(src, encryption=enc, object_stream_mode=pikepdf.ObjectStreamMode.generate)
    doc, data, new = _update(src, _new_marker)
    assert doc.revisions[-1].sections[0].kind == "stream" and doc.security is not None
    assert new.revisions[-1].sections[0].kind == "stream"
    assert new.resolve(new.catalog["PdfinspectTest"]).value == "κ marker".encode()
    qpdf_check(data, tmp_path)
    out = tmp_path / "out.pdf"
    out.write_bytes(data)
    with pikepdf.open(out) as pdf:
        assert bytes(pdf.Root.PdfinspectTest) == "κ marker".encode()


def test_an_encrypted_file_without_id_keeps_an_empty_first_id_element():
    """The file key of an encrypted file with no /ID was made from an empty first element
    (7.6.3.3): an update must not give it another one, or no reader could decrypt the copy."""
    from pdfinspect.core.objects import Array, Dict, Name, Ref, String
    from pdfinspect.core.writer import _trailer

    old = Dict({Name("Root"): Ref(1, 0), Name("Encrypt"): Ref(9, 0), Name("Size"): 10})
    ids = _trailer(None, old, b"appended")[Name("ID")]
    assert isinstance(ids, Array) and ids[0] == String(b"", True) and len(ids[1].value) == 16
    plain = _trailer(None, Dict({Name("Root"): Ref(1, 0)}), b"appended")[Name("ID")]
    assert plain[0] == plain[1] and len(plain[0].value) == 16  # an unencrypted file gets a fresh pair
    kept = _trailer(None, Dict({Name("Encrypt"): Ref(9, 0), Name("ID"): Array([String(b"abc", True),
                                                                              String(b"abc", True)])}), b"x")
    assert kept[Name("ID")][0] == String(b"abc", True)
