"""File structure: xref forms, revisions, repairs, laziness, encryption (ISO 32000 7.5, 7.6)."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdfinspect.core.diagnostics import PasswordError, PdfError
from pdfinspect.core.document import Document
from pdfinspect.core.objects import Dict, Ref, Stream, String
from pdfinspect.core.xref import FREE, IN_FILE, IN_OBJSTM

from conftest import corpus_file, corpus_files, sample


def codes(doc):
    return {d.code for d in doc.diagnostics}


def test_opening_reads_no_object_but_the_root_check():
    doc = Document.open(sample("pages.pdf"))
    # the catalog, the page tree root and its first kid are read to check that the trailer's
    # /Root leads to pages (else recovery would look for a better one); nothing else is parsed yet
    assert len(doc._cache) == 3
    doc.page_ref(5)
    assert len(doc._cache) < len(doc.object_numbers())


def test_classic_xref_subsections_free_list_and_generations():
    doc = Document.open(sample("xref-subsections.pdf"))
    entries = doc.xref()
    assert entries[0].kind == FREE and entries[0].a == 6
    assert entries[6] == entries[6].__class__(FREE, 7, 1)
    assert 5 not in entries and 8 not in entries
    assert entries[10].kind == IN_FILE and entries[10].b == 2
    assert doc.get(10).gen == 2
    assert doc.get(10, 0) is None  # wrong generation: a null reference
    assert doc.get(6) is None


def test_xref_stream_with_index_and_object_streams():
    doc = Document.open(sample("xref-stream.pdf"))
    (rev,) = doc.revisions
    assert rev.sections[0].kind == "stream"
    e = doc.xref()
    assert e[1].kind == IN_OBJSTM and e[1].a == 10
    assert e[3].kind == IN_OBJSTM and e[3].a == 11
    obj = doc.get(3)
    assert obj.container == 11 and obj.index is not None
    assert isinstance(doc.catalog.get("Pages"), Ref)
    assert doc.page_count() == 1


def test_hybrid_file_reads_objects_only_the_xref_stream_lists():
    doc = Document.open(sample("hybrid.pdf"))
    kinds = [s.kind for s in doc.revisions[0].sections]
    assert kinds == ["table", "stream"]
    assert doc.xref()[5].kind == IN_OBJSTM
    font = doc.get(5).value
    assert font.get("Type") == "Font"


def test_indirect_length():
    doc = Document.open(sample("indirect-length.pdf"))
    for num in doc.object_numbers():
        obj = doc.get(num)
        if isinstance(obj.value, Stream):
            assert isinstance(obj.value.dict["Length"], Ref)
            assert len(obj.value.raw) == doc.resolve(obj.value.dict["Length"])
    assert not doc.diagnostics


def test_incremental_revisions_changes_and_reading_as_of_a_revision():
    doc = Document.open(sample("incremental.pdf"))
    assert len(doc.revisions) == 3
    assert [r.trailer["Size"] for r in doc.revisions] == [7, 8, 9]
    ch1, ch2 = doc.revision_changes(1), doc.revision_changes(2)
    assert 4 in ch1.changed and 7 in ch1.added
    assert ch2.freed == (7,) and 8 in ch2.added
    old = doc.stream_data(doc.get(4, revision=0)).data
    new = doc.stream_data(doc.get(4)).data
    assert old != new and b"Revision 2" in new
    assert doc.get(7) is None and doc.get(7, revision=1) is not None
    assert doc.revision_of(4) == 1 and doc.revision_of(1) == 0


def test_linearized_file_is_one_revision_of_two_sections():
    doc = Document.open(corpus_file("qpdf-linearized.pdf"))
    assert doc.linearized
    (rev,) = doc.revisions
    assert len(rev.sections) == 2 and rev.trailer.get("Root")
    assert not Document.open(corpus_file("qpdf-qdf.pdf")).linearized


def test_mupdf_incremental_update_has_two_revisions():
    doc = Document.open(corpus_file("mupdf-incremental-update.pdf"))
    assert len(doc.revisions) == 2
    assert doc.revision_changes(1).changed


@pytest.mark.parametrize("name,code", [
    ("damaged-no-xref.pdf", "xref-reconstructed"),
    ("damaged-bad-offsets.pdf", "xref-offset-wrong"),
    ("damaged-truncated.pdf", "xref-reconstructed"),
    ("damaged-garbage.pdf", "header-offset"),
])
def test_damaged_samples_open_and_say_what_was_repaired(name, code):
    doc = Document.open(sample(name))
    for obj in doc.iter_objects():
        pass
    assert code in codes(doc)
    assert doc.page_count() >= 1 and doc.page_refs()
    assert any(d.repair for d in doc.diagnostics) or code == "header-offset"


def test_wrong_stream_lengths_are_repaired():
    doc = Document.open(sample("damaged-bad-length.pdf"))
    texts = [doc.stream_data(o) for o in doc.iter_objects() if isinstance(o.value, Stream)]
    assert sum(d.code == "stream-length-wrong" for d in doc.diagnostics) == 2
    assert all(r.error is None for r in texts)


def test_broken_object_does_not_stop_the_rest():
    doc = Document.open(sample("damaged-broken-object.pdf"))
    info = doc.get(6)
    assert isinstance(info.value, Dict) and info.diagnostics
    assert doc.page_count() == 1


def test_loops_in_page_tree_and_length_are_stopped():
    doc = Document.open(sample("damaged-loop.pdf"))
    refs = doc.page_refs()
    assert len(refs) == len(set(refs))
    doc.get(4)
    assert {"pages-loop", "reference-loop"} <= codes(doc)


def test_decompression_bomb_is_bounded():
    doc = Document.open(sample("damaged-bomb.pdf"), decode_limit=1 << 20)
    streams = [o for o in doc.iter_objects() if isinstance(o.value, Stream)]
    results = [doc.stream_data(o) for o in streams]
    assert any(r.error and "limit" in r.error for r in results)
    assert all(len(r.data) <= 1 << 20 for r in results)


@pytest.mark.parametrize("name", ["damaged-no-startxref.pdf", "damaged-xref-offsets-shifted.pdf",
                                  "damaged-truncated-70pct-qdf.pdf", "damaged-wrong-stream-length.pdf",
                                  "damaged-cr-only-eol.pdf", "damaged-trailing-garbage.pdf"])
def test_damaged_corpus_files_open_with_pages_and_reports(name):
    doc = Document.open(corpus_file(name))
    for _ in doc.iter_objects():
        pass
    assert doc.page_count() >= 1
    first = doc.get(doc.page_ref(1).num)
    assert first.value.get("Type") == "Page"
    assert doc.diagnostics, "damage must be reported"


def test_truncated_corpus_file_still_opens():
    doc = Document.open(corpus_file("damaged-truncated-70pct.pdf"))
    assert doc.object_numbers() and "xref-reconstructed" in codes(doc)


@pytest.mark.parametrize("name,password,method", [
    ("qpdf-rc4-40.pdf", "", "RC4-40"), ("qpdf-rc4-128.pdf", "", "RC4-128"),
    ("qpdf-aes-128.pdf", "", "AESV2"), ("qpdf-aes-256.pdf", "", "AESV3"),
    ("qpdf-aes-256-userpw.pdf", "opensesame", "AESV3"), ("qpdf-aes-256.pdf", "dev-owner", "AESV3"),
])
def test_encrypted_corpus_files_decrypt(name, password, method):
    doc = Document.open(corpus_file(name), password=password)
    assert doc.security.method == method
    title = doc.info.get("Title")
    assert isinstance(title, String) and b"Czech" in title.value
    page = doc.get(doc.page_ref(1).num).value
    contents = doc.get(page["Contents"].num)
    assert b"Tf" in doc.stream_data(contents).data


def test_wrong_password_is_refused():
    with pytest.raises(PasswordError):
        Document.open(corpus_file("qpdf-aes-256-userpw.pdf"))


def test_encrypted_samples():
    for name in ("encrypted-rc4.pdf", "encrypted-aes256.pdf"):
        doc = Document.open(sample(name))
        assert doc.info["Title"].value == b"Encrypted title string"


def test_not_a_pdf_raises_pdf_error(tmp_path):
    p = tmp_path / "x.pdf"
    p.write_bytes(b"hello world, no pdf here")
    with pytest.raises(PdfError):
        Document.open(p)
    empty = tmp_path / "empty.pdf"
    empty.write_bytes(b"")
    with pytest.raises(PdfError):
        Document.open(empty)


def test_backrefs_with_key_paths():
    doc = Document.open(sample("minimal.pdf"))
    page = doc.page_ref(1)
    font_ref = doc.get(page.num).value["Resources"]["Font"]["F1"]
    refs = doc.backrefs(font_ref.num)
    assert [str(b) for b in refs] == [f"{page.num} 0 R /Resources /Font /F1"]


def test_backref_index_reports_progress():
    doc = Document.open(corpus_file("latex-dvips-pk300-type3.pdf"))
    seen = []
    doc.build_backrefs(lambda done, total: seen.append((done, total)))
    total = len(doc.object_numbers())
    assert seen[0] == (1000, total) if total >= 1000 else seen == [(total, total)]
    assert seen[-1] == (total, total)
    assert doc.backrefs(doc.trailer["Root"].num) == []  # only the trailer points at the catalog


def _exercise(doc):
    for obj in doc.iter_objects(cache=False):
        if isinstance(obj.value, Stream):
            doc.stream_data(obj, limit=1 << 20)
    doc.page_refs()
    doc.page_count()
    doc.page_ref(1)


SMALL = [p for p in corpus_files() if p.stat().st_size < 60_000 and "aes-256-userpw" not in p.name]


@pytest.mark.skipif(not SMALL, reason="corpus not available")
@settings(max_examples=60, deadline=20_000, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_corpus_files_never_raise_anything_but_pdf_error(data):
    path = data.draw(st.sampled_from(SMALL))
    buf = bytearray(path.read_bytes())
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    for _ in range(data.draw(st.integers(1, 20))):
        op = rng.choice(["flip", "delete", "insert", "truncate"])
        pos = rng.randrange(len(buf)) if buf else 0
        if op == "flip" and buf:
            buf[pos] = rng.randrange(256)
        elif op == "delete":
            del buf[pos:pos + rng.randrange(1, 200)]
        elif op == "insert":
            buf[pos:pos] = rng.choice([b"obj", b"endstream", b"<<", b"[", b"(", b"9 0 R", b"xref\n", b"\x00" * 7])
        elif op == "truncate":
            del buf[pos:]
    try:
        doc = Document(bytes(buf), str(path))
    except PdfError:
        return
    _exercise(doc)


@pytest.mark.parametrize("count", [b"-3", b"true"])
def test_unusable_page_count_falls_back_to_the_page_tree(count):
    # /Count must be a non-negative integer (ISO 32000 7.7.3.2, Table 29); otherwise count the leaves
    buf = (b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n"
           b"2 0 obj\n<< /Type /Pages /Kids [3 0 R 4 0 R] /Count " + count + b" >>\nendobj\n"
           b"3 0 obj\n<< /Type /Page /Parent 2 0 R >>\nendobj\n"
           b"4 0 obj\n<< /Type /Page /Parent 2 0 R >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n")
    doc = Document(buf)
    assert doc.page_count() == 2 == len(doc.page_refs())


def test_page_tree_problems_are_reported_not_skipped_silently(tmp_path):
    import pikepdf

    pdf = pikepdf.new()
    pdf.add_blank_page()
    pages = pdf.Root.Pages
    pages.Kids.append(pikepdf.Dictionary(Type=pikepdf.Name.Page))  # direct, not a reference
    pages.Kids.append(pdf.make_indirect(pikepdf.Array([7])))       # not a dictionary
    path = tmp_path / "odd-kids.pdf"
    pdf.save(path)
    doc = Document.open(path)
    refs = doc.page_refs()  # the direct page is read, as MuPDF and qpdf read it, under a number of its own
    assert len(refs) == 2 and doc.page_ref(2) == refs[1]
    assert refs[1].num not in doc.object_numbers() and doc.resolve(refs[1]).get("Type") == "Page"
    assert doc.lookup(refs[1].num).ok and "written directly" in doc.lookup(refs[1].num).reason
    assert {"pages-kid-direct-page", "pages-kid-missing"} <= codes(doc)


def test_deep_page_tree_is_cut_with_a_warning(tmp_path):
    import pikepdf

    pdf = pikepdf.new()
    pdf.add_blank_page()
    node = pdf.Root.Pages
    for _ in range(70):  # wrap the tree in 70 single-child levels
        parent = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Pages, Kids=[node], Count=1))
        node.Parent = parent
        node = parent
    pdf.Root.Pages = node
    path = tmp_path / "deep.pdf"
    pdf.save(path)
    doc = Document.open(path)
    assert doc.page_refs() == []
    assert "pages-too-deep" in codes(doc)


# -- the input read safely (issue 21) ------------------------------------------------------
def test_a_file_rewritten_while_open_keeps_what_was_read_and_says_it_changed(tmp_path):
    path = tmp_path / "latex.pdf"
    path.write_bytes(sample("content.pdf").read_bytes())
    doc = Document.open(path)
    assert not doc.changed()
    path.write_bytes(b"")  # pdflatex truncates the file it rewrites: a mapping would SIGBUS below
    assert doc.changed()
    pages = doc.page_refs()
    page = doc.resolve(pages[0])
    contents = doc.get(page["Contents"].num)
    assert doc.stream_data(contents).data


@pytest.mark.parametrize("kind", ["fifo", "device-link", "directory"])
def test_fifos_devices_and_directories_are_refused_without_blocking(tmp_path, kind):
    import os

    path = tmp_path / "x.pdf"
    if kind == "fifo":
        os.mkfifo(path)  # opening it for reading would block until a writer comes
    elif kind == "device-link":
        path.symlink_to("/dev/zero")  # reading it never ends
    else:
        path.mkdir()
    with pytest.raises(PdfError) as e:
        Document.open(path)
    assert e.value.diagnostic.code == "file-not-regular"
    assert "\n" not in str(e.value.diagnostic)


def test_trailing_zeros_are_judged_without_copying_them():
    data = sample("minimal.pdf").read_bytes() + b"\r\n" + b"\0" * 3_000_000
    doc = Document(data)
    garbage = [d for d in doc.diagnostics if d.code == "trailing-garbage"]
    assert garbage and "3000000 bytes of white space" in garbage[0].message


def test_a_document_shared_by_threads_waits_for_an_object_another_thread_is_loading():
    import threading

    doc = Document.open(sample("pages.pdf"))
    num = doc.object_numbers()[-1]
    seen = []
    load_at = doc._load_at

    def slow_load(n, entry):
        if n == num and not seen:
            other = threading.Thread(target=lambda: seen.append(doc.get(num)))
            seen.append("started")
            other.start()
            other.join(0.2)  # without the lock the other thread finds the object "loading": None
            assert len(seen) == 1, "the other thread did not wait for this one's load"
            seen.append(other)
        return load_at(n, entry)

    doc._load_at = slow_load
    mine = doc.get(num)
    seen[1].join()
    assert mine is not None and seen[2] is mine
    assert "reference-loop" not in codes(doc)


def test_four_threads_over_one_document_read_every_object():
    import threading

    doc = Document.open(sample("pages.pdf"))
    nums = doc.object_numbers()
    start = threading.Barrier(4)
    results: list[list] = []

    def read():
        start.wait()
        results.append([doc.get(n) is not None for n in nums])

    threads = [threading.Thread(target=read) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(all(r) for r in results) and len(results) == 4


def test_forks_share_the_font_programs_read():
    """The app's workers (forks) read each embedded program once between them."""
    from conftest import sample
    from pdfinspect.core.objects import Ref
    from pdfinspect.fonts.font import FontCache
    from pdfinspect.fonts.resolve import Resolver

    doc = Document.open(sample("kappa.pdf"))
    fork = doc.fork()
    a = FontCache(doc).get(Ref(5, 0))
    b = FontCache(fork).get(Ref(5, 0))
    assert a is not b  # each fork loads its own font dictionaries
    program = Resolver(doc).program(a)
    assert program is not None and program.glyph_names
    assert Resolver(fork).program(b) is program
    assert Document.open(sample("kappa.pdf")).shared("font-programs", dict) == {}  # another open: its own
