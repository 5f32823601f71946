"""The Python API: pdfinspect.open, the context manager, lookup, streams from their value, fork."""
from __future__ import annotations

import pickle
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import pdfinspect
from pdfinspect import Document, Found, PasswordError, Stream

from conftest import sample


def test_package_exports_what_all_names_and_nothing_heavy():
    for name in pdfinspect.__all__:
        assert hasattr(pdfinspect, name), name
    code = ("import sys, pdfinspect; heavy = [m for m in sys.modules if m.split('.')[0] in "
            "('textual', 'rich', 'fontTools', 'cryptography', 'PIL')]; print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    assert (Path(pdfinspect.__file__).parent / "py.typed").exists()


def test_open_as_context_manager_releases_the_file():
    with pdfinspect.open(sample("minimal.pdf")) as doc:
        stream = doc.get(4).value
        assert doc.stream_data(stream).data.startswith(b"BT /F1 24 Tf")
    # a small file is read whole when opened: nothing holds the file, the bytes read stay usable
    assert stream.raw.startswith(b"BT /F1 24 Tf")
    doc.close()  # closing twice is harmless


def test_a_big_file_is_mapped_and_released_on_close(tmp_path, monkeypatch):
    from pdfinspect.core import document

    monkeypatch.setattr(document, "READ_WHOLE", 100)  # minimal.pdf is bigger: mapped
    with pdfinspect.open(sample("minimal.pdf")) as doc:
        stream = doc.get(4).value
        assert doc.stream_data(stream).data.startswith(b"BT /F1 24 Tf")
    # stream bytes are read from the mapping on demand, so after close they are gone
    with pytest.raises(ValueError):
        stream.raw


def test_lookup_says_why_an_object_is_missing():
    with pdfinspect.open(sample("minimal.pdf")) as doc:
        ok = doc.lookup(4, 0)
        assert ok and ok.status is Found.OK and ok.object.num == 4 and ok.revision == 0
        wrong = doc.lookup(4, 3)
        assert not wrong and wrong.status is Found.WRONG_GENERATION
        assert "in use at generation 0, not 3" in wrong.reason
        absent = doc.lookup(99)
        assert absent.status is Found.ABSENT and "no cross-reference entry" in absent.reason
    with pdfinspect.open(sample("xref-subsections.pdf")) as doc:
        free = doc.lookup(6)
        assert free.status is Found.FREE and "next free 7, next generation 1" in free.reason
        assert doc.lookup(10, 2).ok and doc.lookup(10, 0).status is Found.WRONG_GENERATION
    with pdfinspect.open(sample("incremental.pdf")) as doc:
        freed = doc.lookup(7)
        assert freed.status is Found.FREE and "in use at generation 0 in revision 1" in freed.reason
        assert doc.lookup(7, revision=1).ok


def test_lookup_of_an_unreadable_object_carries_the_diagnostic():
    data = sample("minimal.pdf").read_bytes().replace(b"4 0 obj", b"4 0 xyz")
    doc = Document(data)
    found = doc.lookup(4)
    assert found.status is Found.UNREADABLE and found.diagnostics
    assert "cannot be read" in found.reason and "not found by scanning" in found.reason


def test_stream_data_from_the_value_alone_decrypts():
    with pdfinspect.open(sample("encrypted-rc4.pdf")) as doc:
        page = doc.resolve(doc.page_refs()[0])
        contents = doc.resolve(page["Contents"])
        assert isinstance(contents, Stream) and contents.ref is not None
        assert b"Tj" in doc.stream_data(contents).data


def test_fork_shares_structure_and_key_not_caches():
    doc = pdfinspect.open(sample("encrypted-aes256.pdf"))
    twin = doc.fork()
    assert twin.revisions is doc.revisions and twin.security is doc.security
    title = twin.resolve(twin.info["Title"]).value
    assert title == b"Encrypted title string"
    assert twin._cache is not doc._cache and not any(k[0] == doc.trailer["Info"].num for k in doc._cache)
    results = []

    def work(d):
        results.append([d.stream_data(d.get(n)).data for n in d.object_numbers() if d.get(n).is_stream])

    threads = [threading.Thread(target=work, args=(doc.fork(),)) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 3 and results[0] == results[1] == results[2] and results[0]


def test_forks_sharing_one_diagnostics_sink_report_each_problem_once():
    """The app's worker forks note into the app document's diagnostics, under its lock."""
    doc = pdfinspect.open(sample("damaged-bad-length.pdf"))
    before = list(doc.diagnostics)
    forks = [doc.fork() for _ in range(4)]
    for f in forks:
        f.share_diagnostics(doc)
    assert doc.diagnostics == before  # what the forks already had is not noted twice

    def work(d):
        for n in d.object_numbers():
            obj = d.get(n)
            if obj is not None and obj.is_stream:
                d.stream_data(obj)

    threads = [threading.Thread(target=work, args=(f,)) for f in forks]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    keys = [(d.code, d.offset, d.ref) for d in doc.diagnostics]
    assert len(keys) == len(set(keys)) > len(before) and all(f.diagnostics is doc.diagnostics for f in forks)
    alone = pdfinspect.open(sample("damaged-bad-length.pdf"))
    work(alone)
    assert sorted(map(str, doc.diagnostics)) == sorted(map(str, alone.diagnostics))


def test_fork_travels_to_another_process_by_pickle():
    doc = pdfinspect.open(sample("encrypted-rc4.pdf"))
    clone = pickle.loads(pickle.dumps(doc.fork()))
    assert clone.security.file_key == doc.security.file_key
    assert clone.resolve(clone.info["Title"]).value == b"Encrypted title string"
    with pytest.raises(TypeError):
        pickle.dumps(Document(sample("minimal.pdf").read_bytes()))


def test_locked_document_opens_enough_to_describe_its_encryption():
    path = sample("encrypted-aes256.pdf")
    with pytest.raises(PasswordError):
        pdfinspect.open(path, "wrong")
    with pdfinspect.open(path, "wrong", allow_locked=True) as doc:
        assert doc.locked and doc.security is None
        facts = doc.encryption
        assert (facts.handler, facts.version, facts.revision, facts.key_length) == ("Standard", 5, 6, 256)
        assert facts.stream_method == "AESV3" and facts.permission_flags()
        assert "password-wrong" in {d.code for d in doc.diagnostics}


def test_security_handler_problems_reach_the_document_diagnostics():
    data = bytearray(sample("encrypted-aes256.pdf").read_bytes())
    doc = Document(bytes(data))
    stream = next(o for o in doc.iter_objects() if o.is_stream).value
    data[stream.data_offset + stream.raw_length - 1] ^= 0xFF  # the last AES block: bad padding
    doc = Document(bytes(data))
    doc.stream_data(doc.get(stream.ref.num))
    assert "aes-padding-bad" in {d.code for d in doc.diagnostics}
