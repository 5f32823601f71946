"""Encrypted files with object streams, sound and damaged (ISO 32000 7.5.7, 7.5.8, 7.6)."""
from __future__ import annotations

import io
import re

import pytest

from pdfinspect.core.document import Document
from pdfinspect.core.xref import IN_OBJSTM

pikepdf = pytest.importorskip("pikepdf")


def codes(doc):
    return {d.code for d in doc.diagnostics}


@pytest.fixture(scope="module", params=[dict(R=4, aes=True), dict(R=6), dict(R=3, aes=False, metadata=False)],
                ids=["aes128", "aes256", "rc4"])
def encrypted(request) -> bytes:
    """Two pages, catalog, page tree and info in object streams, strings encrypted."""
    pdf = pikepdf.new()
    pdf.add_blank_page()
    pdf.add_blank_page()
    pdf.Root.Lang = pikepdf.String("en-GB")
    pdf.docinfo.Title = "Secret title"
    out = io.BytesIO()
    pdf.save(out, encryption=pikepdf.Encryption(owner="owner", user="", **request.param),
             object_stream_mode=pikepdf.ObjectStreamMode.generate)
    return out.getvalue()


def _startxref(data: bytes) -> int:
    return int(re.search(rb"startxref\s+(\d+)", data).group(1))


def _members(doc) -> set[int]:
    return {n for n, e in doc.xref().items() if e.kind == IN_OBJSTM}


def _read_as_sound(doc) -> None:
    assert doc.security is not None and not doc.locked
    assert doc.page_count() == 2
    assert doc.catalog.get("Lang").value == b"en-GB"
    assert doc.info.get("Title").value == b"Secret title"
    assert not {c for c in codes(doc) if c.startswith("objstm")}, doc.diagnostics


def test_a_sound_file_is_decrypted_before_its_object_streams_are_read(encrypted):
    doc = Document(encrypted)
    assert _members(doc) and not doc.repaired
    _read_as_sound(doc)
    assert not doc.diagnostics


def test_the_xref_stream_dictionary_is_not_decrypted(encrypted):
    doc = Document(encrypted)
    num = int(re.match(rb"(\d+)", encrypted[_startxref(encrypted):]).group(1))
    written = [bytes.fromhex(h.decode()) for h in re.findall(rb"<([0-9a-f]+)>", encrypted[_startxref(encrypted):])]
    xref_stream = doc.get(num).value
    assert xref_stream.dict["Type"] == "XRef"
    assert [s.value for s in xref_stream.dict["ID"]] == written[:2]


def test_a_rebuilt_encrypted_file_lists_the_members_of_its_object_streams(encrypted):
    sound = Document(encrypted)
    sx = _startxref(encrypted)
    damaged = encrypted.replace(b"startxref\n%d" % sx, b"startxref\n%d" % (sx + 7))  # into the xref stream
    doc = Document(damaged)
    assert "xref-reconstructed" in codes(doc)
    assert _members(doc) == _members(sound)
    _read_as_sound(doc)


def test_a_trailer_without_root_is_replaced_with_the_key_known(encrypted):
    damaged = encrypted.replace(b"/Root", b"/Roox")  # the xref stream's trailer has no /Root
    doc = Document(damaged)
    assert "trailer-replaced" in codes(doc)
    _read_as_sound(doc)


@pytest.mark.parametrize("merged", [False, True], ids=["signature", "merged-field"])
def test_a_signature_value_is_not_decrypted_and_its_other_strings_are(merged):
    """7.6.2: the hexadecimal /Contents of a signature dictionary is never encrypted."""
    pdf = pikepdf.new()
    pdf.add_blank_page()
    value = b"\x30\x82\x01\x02 DER signature"
    pdf.Root.Sig = pdf.make_indirect(pikepdf.Dictionary(
        Type=pikepdf.Name.Sig, ByteRange=pikepdf.Array([0, 10, 20, 30]), Contents=pikepdf.String(value),
        M=pikepdf.String("D:20230307092831Z")))
    out = io.BytesIO()
    pdf.save(out, encryption=pikepdf.Encryption(owner="owner", user="", R=4))
    data = out.getvalue()
    assert value.hex().encode() in data.lower() and b"D:2023" not in data  # as written: Contents in clear
    if merged:  # a signature field that is its own value dictionary, as some signers write it
        data = data.replace(b"/Type /Sig", b"/FT /Sig  ")
    doc = Document(data)
    read = doc.resolve(doc.catalog["Sig"])
    assert read["Contents"].value == value and read["M"].value == b"D:20230307092831Z"
    assert not doc.diagnostics
