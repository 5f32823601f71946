"""Recovery of damaged files (ISO 32000 7.5.4 gives no method; qpdf and MuPDF scan and merge)."""
from __future__ import annotations

import io
import re
import shutil
import subprocess
import zlib

import pytest

from pdfinspect.core.diagnostics import PdfError
from pdfinspect.core.document import Document
from pdfinspect.core.objects import Ref

from conftest import CORPUS, corpus_files, sample

PDFJS = CORPUS.parent / "corpus-pdfjs"


def codes(doc):
    return {d.code for d in doc.diagnostics}


def build(objects: list[bytes], trailer: bytes, xref: bool = True, header: bytes = b"%PDF-1.4\n") -> bytes:
    """A classic-xref file from object bodies (object i+1 is objects[i])."""
    out = bytearray(header)
    offsets = []
    for i, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (i, body)
    start = len(out)
    if xref:
        out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
        out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n" + trailer + b"\nstartxref\n%d\n%%%%EOF\n" % start
    return bytes(out)


PAGES = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
         b"<< /Type /Page /Parent 2 0 R >>", b"<< /Type /Page /Parent 2 0 R >>"]


def test_a_cut_xref_subsection_is_completed_by_scanning():
    data = build(PAGES, b"<< /Size 5 /Root 1 0 R >>")
    data = data.replace(b"0000000000 65535 f \n", b"0000000000 65535 f \nGARBAGE\n")  # cuts 1-4
    doc = Document(data)
    assert doc.page_count() == 2
    assert "xref-bad-entry" in codes(doc) and "xref-completed" in codes(doc)
    assert sorted(doc.recovered) == [1, 2, 3, 4]
    assert doc.lookup(3).ok and doc.lookup(3).revision is None


def test_a_trailer_whose_root_leads_to_pages_wins():
    # the xref's trailer names an empty catalog; an older trailer left in the file names the real one
    objs = PAGES + [b"<< /Type /Catalog >>"]
    data = build(objs, b"<< /Size 6 /Root 5 0 R >>")
    data = data.replace(b"xref\n", b"trailer << /Root 1 0 R >>\nxref\n", 1)
    doc = Document(data)
    assert doc.trailer["Root"].num == 1 and doc.page_count() == 2
    assert "trailer-replaced" in codes(doc)


def test_prev_as_a_reference_is_followed_and_garbage_reported():
    first = build(PAGES, b"<< /Size 5 /Root 1 0 R >>")
    start = int(re.search(rb"startxref\n(\d+)", first).group(1))
    update = b"5 0 obj\n(new)\nendobj\n"
    xref_at = len(first) + len(update)
    tail = (b"xref\n5 1\n%010d 00000 n \ntrailer\n<< /Size 6 /Root 1 0 R /Prev %d 0 R >>\nstartxref\n%d\n%%%%EOF\n"
            % (len(first), start, xref_at))
    doc = Document(first + update + tail)
    assert len(doc.revisions) == 2 and "xref-prev-reference" in codes(doc)
    assert doc.page_count() == 2
    bad = (first + update + tail).replace(b"/Prev %d 0 R" % start, b"/Prev (%d)" % start)
    doc = Document(bad)
    assert len(doc.revisions) == 1 and "xref-prev-bad" in codes(doc)
    assert doc.page_count() == 2  # the older revision's objects are found by scanning


@pytest.mark.parametrize("data", [
    b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n"
    b"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 9 9]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
    b"%PDF-1.1\r1 0 obj<</Pages 2 0 R>>endobj\r2 0 obj<</Kids[3 0 R]/Count 1>>endobj\r3 0 obj<<>>endobj\r"
    b"trailer<</Root 7 0 R>>\r%%EOF",
    b"%PDF-1.1\n1 0 obj<</Pages 2 0 R>>endobj\n2 0 obj<</Kids[3 0 R]/Count 1>>endobj\n3 0 obj<<>>endobj\n"
    b"trailer<</Root<</Pages 2 0 R>>>>\n%%EOF",
], ids=["no-xref", "root-dangling-untyped-catalog", "direct-root"])
def test_tiny_files_with_header_objects_and_trailer_open(data):
    assert len(data) < 200
    doc = Document(data)
    assert doc.page_count() == 1


def test_text_without_header_or_objects_is_refused():
    with pytest.raises(PdfError):
        Document(b"just some text, no PDF here\n")


def test_an_empty_file_is_refused_as_empty(tmp_path):
    (tmp_path / "empty.pdf").write_bytes(b"")
    with pytest.raises(PdfError) as e:
        Document.open(tmp_path / "empty.pdf")
    assert e.value.diagnostic.code == "file-empty" and "empty" in e.value.diagnostic.message


def test_xref_stream_left_out_of_its_own_index_is_an_object():
    body = b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [] /Count 0 >>"
    out = bytearray(b"%PDF-1.5\n")
    offs = []
    for i, b in enumerate(body, 1):
        offs.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (i, b)
    rows = b"\x00\x00\x00\xff" + b"".join(b"\x01" + o.to_bytes(2, "big") + b"\x00" for o in offs)
    data = zlib.compress(rows)
    at = len(out)
    out += (b"3 0 obj\n<< /Type /XRef /Size 3 /W [1 2 1] /Index [0 3] /Root 1 0 R /Filter /FlateDecode "
            b"/Length %d >>\nstream\n%s\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n" % (len(data), data, at))
    doc = Document(bytes(out))
    found = doc.lookup(3)
    assert found.ok and found.object.value.dict["Type"] == "XRef" and found.object.start == at
    assert 3 in doc.object_numbers()


def test_page_tree_cycle_and_wrong_count_are_reported():
    doc = Document(sample("damaged-loop.pdf").read_bytes())
    assert doc.page_count() == len(doc.page_refs()) == 1
    assert {"pages-loop", "pages-count-wrong"} <= codes(doc)


@pytest.mark.parametrize("name,pages", [("filled-background.pdf", 3), ("PDFBOX-3148-2-fuzzed.pdf", 1)])
def test_pdfjs_files_damaged_in_the_xref_keep_their_pages(name, pages):
    path = PDFJS / name
    if not path.exists():
        pytest.skip(f"{name} not available")
    doc = Document.open(path)
    assert doc.page_count() == pages and "xref-completed" in codes(doc)


def _mupdf_pages(path) -> int:
    """Pages MuPDF loads (a page it lists but cannot load is not counted)."""
    out = subprocess.run(["mutool", "pages", str(path)], capture_output=True, timeout=60).stdout
    return sum(1 for block in out.split(b"<page ")[1:] if b"Failed" not in block)


def _repaired_or_pageless() -> list:
    """Files of both corpora where recovery matters: we repaired the xref or found no page."""
    out = []
    for path in corpus_files() + (sorted(PDFJS.glob("*.pdf")) if PDFJS.is_dir() else []):
        try:
            with Document.open(path, allow_locked=True) as doc:
                if doc.repaired or doc.page_count() == 0 \
                        or any(d.code.startswith(("xref", "trailer", "startxref")) for d in doc.diagnostics):
                    out.append(path)
        except PdfError:
            out.append(path)
    return out


@pytest.mark.skipif(shutil.which("mutool") is None, reason="mutool absent")
def test_pages_found_at_least_as_many_as_mupdf_where_recovery_matters():
    files = _repaired_or_pageless()
    if not files:
        pytest.skip("corpora not available")
    short = []
    for path in files:
        theirs = _mupdf_pages(path)
        try:
            with Document.open(path, allow_locked=True) as doc:
                ours = doc.page_count()
        except PdfError:
            ours = 0
        if ours < theirs:
            short.append(f"{path.name}: {ours} < MuPDF's {theirs}")
    assert not short, short


TINY = (b"1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj "
        b"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 10 10]>>endobj trailer<</Root 1 0 R>>")


@pytest.mark.parametrize("header", [b"%PDF-1.4\n", b"%PDF-1\n", b"%PDF-\n", b"", b"junk\x00\x01\n%PDF-2.0 "])
@pytest.mark.parametrize("body", [TINY, TINY.replace(b" ", b"\r").replace(b"\rR", b" R"),
                                  TINY.replace(b"endobj ", b"endobj\n").replace(b" trailer", b"\ntrailer\n")],
                         ids=["glued", "cr-only", "lines"])
def test_tiny_files_without_xref_open_with_their_page(header, body):
    """Header (or a cut one, or none), three objects and a trailer in under 200 bytes, no xref,
    no startxref: the scan finds the objects and the trailer, and says what it repaired."""
    data = header + body
    assert len(data) < 200
    doc = Document(data)
    assert doc.page_count() == 1 and "xref-reconstructed" in codes(doc)
    cut = header in (b"%PDF-1\n", b"%PDF-\n")
    assert ("header-version-missing" in codes(doc)) == cut and (doc.header_offset is None) == (header == b"")


def test_objects_without_trailer_or_catalog_still_open_and_say_so():
    doc = Document(b"%PDF-1\n1 0 obj<</A 1>>endobj 2 0 obj(text)endobj")
    assert doc.page_count() == 0 and doc.lookup(2).ok
    assert "trailer-none" in codes(doc) and doc.header_version is None
    with pytest.raises(PdfError, match="no %PDF- header"):  # without a header, it is no PDF
        Document(b"see 1 0 obj<</A 1>>endobj in the manual")


def test_a_scanned_object_at_another_generation_is_used_as_mupdf_does():
    doc = Document(b"%PDF-1.4\n" + TINY.replace(b"3 0 obj", b"3 7 obj"))
    assert doc.page_count() == 1 and "reference-generation" in codes(doc)
    pages = [PAGES[0], PAGES[1].replace(b"4 0 R", b"4 5 R"), *PAGES[2:]]
    doc = Document(build(pages, b"<< /Size 5 /Root 1 0 R >>"))  # a real xref lists 4 0: 4 5 R is null (7.3.10)
    assert doc.resolve(Ref(4, 5)) is None and "reference-generation" not in codes(doc)
    # but not in the page tree: MuPDF, qpdf and poppler all count the page
    assert doc.page_refs() == [Ref(3, 0), Ref(4, 0)] and "pages-kid-generation" in codes(doc)
    assert doc.page_ref(2) == Ref(4, 0)


def _pikepdf_file(text: bytes, **save) -> bytes:
    pikepdf = pytest.importorskip("pikepdf")
    pdf = pikepdf.new()
    pdf.add_blank_page()
    pdf.pages[0].Contents = pdf.make_stream(b"BT /F1 20 Tf 10 20 Td (" + text + b") Tj ET")
    out = io.BytesIO()
    pdf.save(out, **save)
    return out.getvalue()


def test_a_file_appended_to_another_is_read_with_its_own_offsets():
    """pdf.js issue15893: a second, encrypted file appended to a first; the second's offsets
    count from its own %PDF header, where the first file has objects of the same numbers."""
    pikepdf = pytest.importorskip("pikepdf")
    first = _pikepdf_file(b"first, in clear")
    second = _pikepdf_file(b"second, encrypted", encryption=pikepdf.Encryption(owner="o", user="test", R=4))
    doc = Document(first + second, password="test")
    assert "xref-shifted" in codes(doc)
    content = doc.resolve(doc.get(doc.page_ref(1).num).value["Contents"])
    assert b"(second, encrypted)" in doc.stream_data(content).data
    with pytest.raises(PdfError):  # the second file's encryption is the one in force
        Document(first + second)


def test_offsets_counted_from_a_header_after_junk_are_shifted():
    data = b"MIME junk before the file\r\n" * 4 + _pikepdf_file(b"after junk")
    doc = Document(data)
    assert "xref-shifted" in codes(doc) and doc.page_count() == 1
    assert not {"xref-offset-wrong", "xref-reconstructed"} & codes(doc)  # every entry found where it says
    assert all(doc.get(n) is not None for n in doc.object_numbers())


def test_an_entry_into_a_missing_object_stream_falls_back_to_the_scanned_object():
    # the xref stream puts the catalog and the page tree in object stream 9, which does not
    # exist; the objects are in the file at real offsets (MuPDF repairs it, pdftotext reads it)
    out = bytearray(b"%PDF-1.5\n")
    offsets = {}
    for num, body in enumerate(PAGES[:3], 1):
        offsets[num] = len(out)
        out += b"%d 0 obj\n%s\nendobj\n" % (num, body.replace(b"[3 0 R 4 0 R] /Count 2", b"[3 0 R] /Count 1"))
    xref_at = len(out)
    rows = [(0, 0, 65535), (2, 9, 0), (2, 9, 1), (1, offsets[3], 0), (1, xref_at, 0)]
    data = b"".join(bytes([t]) + a.to_bytes(4, "big") + b.to_bytes(2, "big") for t, a, b in rows)
    out += b"4 0 obj\n<</Type/XRef/Size 5/W[1 4 2]/Root 1 0 R/Length %d>>\nstream\n%s\nendstream\nendobj\n" % (
        len(data), data)
    out += b"startxref\n%d\n%%%%EOF\n" % xref_at
    doc = Document(bytes(out))
    assert doc.page_count() == 1
    missing = [d for d in doc.diagnostics if d.code == "objstm-member-missing"]
    assert missing and "found at offset" in missing[0].repair


def test_a_tiny_file_without_xref_whose_catalog_holds_the_page_tree():
    # 150 bytes, no xref, no endobj spacing, a direct /Pages dictionary: MuPDF and qpdf find the page
    data = (b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages<</Type/Pages/Kids[3 0 R]/Count 1>>>>endobj\n"
            b"3 0 obj<</Type/Page>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF")
    doc = Document(data)
    assert doc.page_refs() == [Ref(3, 0)]
    assert {"pages-root-direct", "startxref-missing"} <= codes(doc)


# -- tiny one-page files in broken shapes (bench/tiny_pages.py): pages MuPDF and qpdf both find
@pytest.mark.parametrize("xref", [True, False], ids=["xref", "no-xref"])
@pytest.mark.parametrize("gap", [b" %a comment\n", b"\x00", b"%\r"], ids=["comment", "nul", "empty-comment"])
def test_obj_headers_with_a_comment_or_nul_in_their_white_space_are_objects(xref, gap):
    """``1 0 %c⏎obj``, ``1 0\\0obj``: the lexers of MuPDF and qpdf skip comments and NUL
    between the numbers and ``obj``; the parse and the scan did not."""
    data = build(PAGES, b"<< /Size 5 /Root 1 0 R >>", xref).replace(b" 0 obj", b" 0" + gap + b"obj")
    doc = Document(data)
    assert doc.page_count() == 2
    if xref and len(gap) == 1:  # the offsets stay right: the xref's objects are read where it says
        assert "xref-offset-wrong" not in codes(doc) and "xref-reconstructed" not in codes(doc)


@pytest.mark.parametrize("xref", [True, False], ids=["xref", "no-xref"])
def test_a_reference_with_r_joined_to_its_generation_is_a_reference(xref):
    """``[3 0R]``: MuPDF's and pdf.js's lexers end a number at the first other character."""
    pages = [PAGES[0], PAGES[1].replace(b"3 0 R 4 0 R", b"3 0R 4 0R"), *PAGES[2:]]
    doc = Document(build(pages, b"<< /Size 5 /Root 1 0R >>", xref))
    assert doc.page_refs() == [Ref(3, 0), Ref(4, 0)]
    assert "ref-r-joined" in codes(doc)


@pytest.mark.parametrize("xref", [True, False], ids=["xref", "no-xref"])
def test_a_page_written_directly_in_kids_is_a_page(xref):
    """``/Kids[<</Type/Page…>>]``: MuPDF walks the direct dictionary and qpdf makes it an
    indirect object; it is numbered past every listed object and read like any page."""
    pages = [PAGES[0], b"<< /Type /Pages /Kids [<< /Type /Page /MediaBox [0 0 3 3] >> 3 0 R] /Count 2 >>",
             PAGES[2]]
    doc = Document(build(pages, b"<< /Size 4 /Root 1 0 R >>", xref))
    direct = doc.page_ref(1)
    assert doc.page_refs() == [direct, Ref(3, 0)] and direct.num == 4
    assert doc.resolve(direct)["MediaBox"] == [0, 0, 3, 3] and 4 not in doc.object_numbers()
    assert "pages-kid-direct-page" in codes(doc)
    fresh = Document(build(pages, b"<< /Size 4 /Root 1 0 R >>", xref))
    assert fresh.lookup(4).ok  # asked for before the pages were listed
