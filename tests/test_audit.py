"""`pdfinspect audit`: one record per file whatever happens to it, shards that survive an
interrupt, resume without duplicates, the Dask engine giving the local engine's records.

Failures are provoked with test-only per-file functions (module level, so the worker
processes can unpickle them): one that never returns, one that also ignores the soft time
limit, one that allocates far past the memory limit, one whose worker is killed."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, SAMPLES
from pdfinspect import cli
from pdfinspect.audit import AuditError, FileResult, Options, audit_file, read_records, run_audit, summarize
from pdfinspect.audit.records import base_record, file_sha256
from pdfinspect.audit.schema import FIELDS, markdown_table
from pdfinspect.fonts.reasons import REASON_IDS

FILES = ("kappa.pdf", "cid-identity.pdf", "content.pdf", "damaged-garbage.pdf", "encrypted-rc4.pdf")
VOLATILE = ("elapsed", "max_rss_mb")  # differ from run to run


# -- test-only per-file functions ------------------------------------------------------------
def hang_on_hang(path, options):
    """Never returns for a file named hang*; audits the others."""
    if Path(path).name.startswith("hang"):
        time.sleep(3600)
    return audit_file(path, options)


def hang_or_hash(path, options):
    """Never returns for a file named hang*; only hashes the others (far within any time limit)."""
    if Path(path).name.startswith("hang"):
        time.sleep(3600)
    return FileResult(base_record(path, file_sha256(path)))


def hang_ignoring_alarm(path, options):
    signal.signal(signal.SIGALRM, signal.SIG_IGN)  # only the parent's kill can stop this one
    time.sleep(3600)


def allocate(path, options):
    if Path(path).name.startswith("big"):
        return bytearray(16 << 30)  # 16 GB: within reach of the machine, far past --memory
    return audit_file(path, options)


def killed(path, options):
    if Path(path).name.startswith("kill"):
        os.kill(os.getpid(), signal.SIGKILL)  # as the kernel's OOM killer would
    return audit_file(path, options)


# -- helpers -----------------------------------------------------------------------------------
@pytest.fixture
def corpus(tmp_path) -> Path:
    d = tmp_path / "in"
    d.mkdir()
    for name in FILES:
        shutil.copy(SAMPLES / name, d / name)
    (d / "empty.pdf").write_bytes(b"")
    return d


def files_by_path(out) -> dict[str, dict]:
    records = list(read_records(Path(out), "files"))
    paths = [r["path"] for r in records]
    assert len(paths) == len(set(paths)), "a file recorded twice"
    return {r["path"]: r for r in records}


def stable(records):
    return sorted(({k: v for k, v in r.items() if k not in VOLATILE} for r in records),
                  key=lambda r: json.dumps(r, sort_keys=True))


def run_cli(*argv) -> int:
    return cli.main([str(a) for a in argv])


# -- records -------------------------------------------------------------------------------------
def test_every_input_gets_one_file_record_and_fonts_carry_their_reasons(corpus, tmp_path, capsys):
    out = tmp_path / "out"
    assert run_cli("audit", corpus, corpus / "kappa.pdf", "-o", out, "--workers", "2") == 0
    files = files_by_path(out)
    assert set(files) == {str(p.absolute()) for p in corpus.iterdir()}  # kappa.pdf given twice, recorded once
    for path, rec in files.items():
        assert list(rec) == [name for name, _, _ in FIELDS["files"]]
        assert rec["schema_version"] == 1 and rec["status"] in ("ok", "failed")
        assert rec["sha256"] == __import__("hashlib").sha256(Path(path).read_bytes()).hexdigest()
    kappa = files[str(corpus / "kappa.pdf")]
    assert kappa["status"] == "ok" and kappa["page_count"] == kappa["pages_audited"] >= 1
    fonts = list(read_records(out, "fonts"))
    assert {f["path"] for f in fonts} <= set(files)
    for f in fonts:
        assert f["codes"] == sum(f["confidence"].values()) == sum(f["methods"].values())
        for r in f["reasons"]:
            assert r["id"] in REASON_IDS
            assert r["count"] >= len(r["codes"]) and all(bytes.fromhex(c) for c in r["codes"])
    # the per-file record agrees with its fonts
    for path, rec in files.items():
        mine = [f for f in fonts if f["path"] == path]
        assert rec["fonts"] == len(mine)
        assert rec["reasons"] == sorted({r["id"] for f in mine for r in f["reasons"]})
    n = len(files)
    assert capsys.readouterr().out.startswith(f"{n} files: {sum(r['status'] == 'ok' for r in files.values())} audited")


def test_pages_first_reads_one_page(tmp_path):
    pdf = SAMPLES / "pages.pdf"
    everything = audit_file(str(pdf)).file
    first = audit_file(str(pdf), Options(pages="first")).file
    assert everything["page_count"] == first["page_count"] > 1
    assert (everything["pages_audited"], first["pages_audited"]) == (everything["page_count"], 1)


def test_an_unreadable_file_is_a_failed_record(tmp_path):
    missing = tmp_path / "gone.pdf"
    rec = audit_file(str(missing)).file
    assert (rec["status"], rec["error_class"], rec["sha256"]) == ("failed", "PdfError", None)
    assert "gone.pdf" in rec["error"]


# -- limits ---------------------------------------------------------------------------------------
def test_a_hanging_file_times_out_and_the_next_file_still_runs(corpus, tmp_path):
    shutil.copy(corpus / "kappa.pdf", corpus / "hang.pdf")
    out = tmp_path / "out"
    stats = run_audit([corpus], out, workers=1, timeout=1, task=hang_or_hash)
    files = files_by_path(out)
    assert len(files) == stats.inputs == len(list(corpus.iterdir()))
    hang = files[str(corpus / "hang.pdf")]
    assert (hang["status"], hang["error_class"], hang["error"]) == ("failed", "Timeout", "no result after 1 s")
    assert hang["sha256"] == files[str(corpus / "kappa.pdf")]["sha256"]  # recorded by the parent, hashed
    assert [r["status"] for r in files.values()].count("ok") == len(files) - 1


def test_a_file_that_ignores_the_alarm_is_killed(tmp_path):
    pdf = tmp_path / "kappa.pdf"
    shutil.copy(SAMPLES / "kappa.pdf", pdf)
    run_audit([pdf], tmp_path / "out", timeout=0.2, task=hang_ignoring_alarm)
    rec = files_by_path(tmp_path / "out")[str(pdf)]
    assert (rec["status"], rec["error_class"]) == ("failed", "Timeout")
    assert rec["error"].startswith("killed after")


def test_a_decompression_bomb_stops_at_the_memory_limit(tmp_path):
    bomb = SAMPLES / "damaged-bomb.pdf"  # a form that inflates to 320 MiB (decoding stops at 256)
    run_audit([bomb, SAMPLES / "kappa.pdf"], tmp_path / "out", workers=1, memory_mb=200)
    files = files_by_path(tmp_path / "out")
    assert (files[str(bomb)]["status"], files[str(bomb)]["error_class"]) == ("failed", "MemoryError")
    assert files[str(SAMPLES / "kappa.pdf")]["status"] == "ok"


def test_memory_limit_and_killed_workers_are_recorded_and_replaced(corpus, tmp_path):
    for name in ("big.pdf", "kill.pdf"):
        shutil.copy(corpus / "kappa.pdf", corpus / name)
    run_audit([corpus / "big.pdf", corpus / "kappa.pdf"], tmp_path / "a", workers=1, memory_mb=1024,
              task=allocate)
    a = files_by_path(tmp_path / "a")
    assert a[str(corpus / "big.pdf")]["error_class"] == "MemoryError"
    assert a[str(corpus / "kappa.pdf")]["status"] == "ok"
    run_audit([corpus / "kill.pdf", corpus / "kappa.pdf"], tmp_path / "b", workers=1, task=killed)
    b = files_by_path(tmp_path / "b")
    assert b[str(corpus / "kill.pdf")]["error_class"] == "WorkerDied"
    assert "SIGKILL" in b[str(corpus / "kill.pdf")]["error"]
    assert b[str(corpus / "kappa.pdf")]["status"] == "ok"


# -- shards, interrupt, resume ----------------------------------------------------------------------
def test_ctrl_c_leaves_complete_shards_and_resume_records_each_file_once(corpus, tmp_path):
    shutil.copy(corpus / "kappa.pdf", corpus / "hang.pdf")  # sorted first among h…: blocks the run there
    out = tmp_path / "out"
    script = ("import sys; from test_audit import hang_on_hang; from pdfinspect.audit import run_audit; "
              f"run_audit([{str(corpus)!r}], {str(out)!r}, workers=1, shard_size=1, timeout=None, "
              "task=hang_on_hang)")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "tests"), str(ROOT)]))
    proc = subprocess.Popen([sys.executable, "-c", script], env=env, stderr=subprocess.PIPE)
    try:  # the files before hang.pdf are written one shard each, then the worker hangs
        before = sorted(p.name for p in corpus.iterdir() if p.name < "hang.pdf")
        for _ in range(600):
            if len(list(out.glob("files-*.jsonl"))) == len(before) or proc.poll() is not None:
                break
            time.sleep(0.1)
        assert len(list(out.glob("files-*.jsonl"))) == len(before)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert b"KeyboardInterrupt" in err and proc.returncode != 0
    assert not list(out.glob(".*.tmp"))
    assert sorted(Path(p).name for p in files_by_path(out)) == before
    stats = run_audit([corpus], out, resume=True)
    assert (stats.skipped, stats.ok + stats.failed) == (len(before), len(FILES) + 2 - len(before))
    fresh = tmp_path / "fresh"
    run_audit([corpus], fresh)
    assert stable(files_by_path(out).values()) == stable(files_by_path(fresh).values())
    assert stable(read_records(out, "fonts")) == stable(read_records(fresh, "fonts"))


def test_an_interrupt_in_the_parent_flushes_what_was_received(corpus, tmp_path):
    seen = []

    def stop_after_two(record):
        seen.append(record)
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_audit([corpus], tmp_path / "out", workers=1, on_result=stop_after_two)
    assert set(files_by_path(tmp_path / "out")) == {r["path"] for r in seen}


def test_resume_drops_a_fonts_shard_whose_files_shard_never_landed(corpus, tmp_path):
    out = tmp_path / "out"
    run_audit([corpus / "kappa.pdf"], out)
    shutil.copy(out / "fonts-000001.jsonl", out / "fonts-000002.jsonl")  # crash between the renames
    (out / ".files-000002.jsonl.tmp").write_text("{half")
    run_audit([corpus], out, resume=True)
    assert not (out / ".files-000002.jsonl.tmp").exists()
    kappa_fonts = [f for f in read_records(out, "fonts") if f["path"] == str(corpus / "kappa.pdf")]
    assert len(kappa_fonts) == len(audit_file(str(corpus / "kappa.pdf")).fonts)


def test_an_existing_audit_needs_resume_and_the_same_settings(corpus, tmp_path, capsys):
    out = tmp_path / "out"
    assert run_cli("audit", corpus / "kappa.pdf", "-o", out) == 0
    assert run_cli("audit", corpus / "kappa.pdf", "-o", out) == 1
    assert "--resume" in capsys.readouterr().err
    assert run_cli("audit", corpus / "kappa.pdf", "-o", out, "--resume", "--pages", "first") == 1
    assert "pages 'all' (now 'first')" in capsys.readouterr().err
    assert run_cli("audit", corpus / "kappa.pdf", "-o", out, "--resume", "--format", "parquet") == 1
    with pytest.raises(AuditError, match="no such file"):
        run_audit([tmp_path / "nothing"], tmp_path / "o2")


# -- formats, engines ----------------------------------------------------------------------------
def test_parquet_shards_hold_the_jsonl_records(corpus, tmp_path):
    pytest.importorskip("pyarrow")
    run_audit([corpus], tmp_path / "j", fmt="jsonl")
    run_audit([corpus], tmp_path / "p", fmt="parquet")
    assert list((tmp_path / "p").glob("files-*.parquet"))
    for kind in ("files", "fonts"):
        assert stable(read_records(tmp_path / "p", kind)) == stable(read_records(tmp_path / "j", kind))


def test_dask_local_cluster_gives_the_local_engine_records(corpus, tmp_path):
    distributed = pytest.importorskip("distributed")
    run_audit([corpus], tmp_path / "local", workers=2)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:  # a cluster found by its address
        run_audit([corpus], tmp_path / "dask", engine="dask", scheduler=cluster.scheduler_address)
    for kind in ("files", "fonts"):
        assert stable(read_records(tmp_path / "dask", kind)) == stable(read_records(tmp_path / "local", kind))


def test_dask_engine_records_timeouts_too(corpus, tmp_path):
    pytest.importorskip("distributed")
    pdf = tmp_path / "kappa.pdf"
    shutil.copy(SAMPLES / "kappa.pdf", pdf)
    run_audit([pdf], tmp_path / "out", engine="dask", processes=False, timeout=0.2, task=hang_ignoring_alarm)
    assert files_by_path(tmp_path / "out")[str(pdf)]["error_class"] == "Timeout"


# -- summary -----------------------------------------------------------------------------------------
def test_summary_counts_what_the_shards_hold(corpus, tmp_path, capsys):
    out = tmp_path / "out"
    run_audit([corpus], out)
    fonts = list(read_records(out, "fonts"))
    s = summarize(out)
    assert s.files == len(list(corpus.iterdir())) and s.ok + s.failed == s.files
    expected = {}
    for f in fonts:
        for r in f["reasons"]:
            expected[r["id"]] = expected.get(r["id"], 0) + 1
    assert {k: n for k, n, *_ in s.reasons} == expected
    programs = {f["program_sha256"] for f in fonts if f["program_sha256"]}
    assert s.programs == len(programs) > 0
    for k, _, _, _, distinct, *_ in s.reasons:
        assert distinct == len({f["program_sha256"] for f in fonts if f["program_sha256"]
                                and k in [r["id"] for r in f["reasons"]]})
    assert run_cli("audit", "--summary", out) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"{s.files} files: {s.ok} audited")
    for reason in expected:
        assert reason in text
    assert f"read_json_auto('{out}/fonts-*.jsonl')" in text
    assert run_cli("audit", "--summary", tmp_path / "nothing") == 1
    assert "holds no audit" in capsys.readouterr().err


def test_readme_documents_the_current_schema():
    readme = (ROOT / "README.md").read_text()
    for kind in ("files", "fonts", "pages"):
        assert markdown_table(kind) in readme


def test_fifos_and_device_links_are_failed_records_and_never_read(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    os.mkfifo(folder / "fifo.pdf")  # the parent hashed it after the worker: blocked forever
    (folder / "zero.pdf").symlink_to("/dev/zero")
    shutil.copy(SAMPLES / "kappa.pdf", folder / "kappa.pdf")
    assert file_sha256(str(folder / "fifo.pdf")) is None
    stats = run_audit([folder], tmp_path / "out", workers=1)
    records = {Path(r["path"]).name: r for r in read_records(tmp_path / "out", "files")}
    assert stats.ok == 1 and stats.failed == 2
    for name in ("fifo.pdf", "zero.pdf"):
        assert records[name]["status"] == "failed" and "not a regular file" in records[name]["error"]


def test_font_programs_are_fingerprinted_without_their_subset_tags(tmp_path):
    """One program embedded under two subset tags has one fingerprint; another program another."""
    import pikepdf

    from pdfinspect.audit.records import program_fingerprint
    from pdfinspect.core.document import Document
    from pdfinspect.fonts.font import FontCache

    def fingerprint(program: bytes, name: str):
        pdf = pikepdf.new()
        desc = pikepdf.Dictionary(Type=pikepdf.Name.FontDescriptor, FontName=pikepdf.Name(name),
                                  FontFile3=pdf.make_stream(program, Subtype=pikepdf.Name.Type1C))
        font = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                                    BaseFont=pikepdf.Name(name), FontDescriptor=desc))
        page = pdf.add_blank_page()
        page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font))
        path = tmp_path / f"{name[1:]}.pdf"
        pdf.save(path)
        with Document.open(path) as doc:
            resources = doc.resolve(doc.resolve(doc.page_ref(1)).get("Resources"))
            return program_fingerprint(doc, FontCache(doc).get(doc.resolve(resources.get("Font")).get("F1")))

    a = fingerprint(b"ABCDEF+Minion program", "/ABCDEF+Minion")
    b = fingerprint(b"GHIJKL+Minion program", "/GHIJKL+Minion")
    c = fingerprint(b"another program", "/Other")
    assert a == b != c and a is not None and len(a) == 64


def test_page_records_count_glyphs_characters_and_what_is_wrong_with_them(tmp_path):
    """--page-records: one pages record per page; a code without Unicode by the spec's methods
    is unmapped (Tika's definition), U+FFFD and private-use output are counted."""
    import pikepdf

    pdf = pikepdf.new()
    tounicode = pdf.make_stream(b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
                                b"1 begincodespacerange <00> <FF> endcodespacerange\n"
                                b"3 beginbfchar <41> <0041> <42> <FFFD> <43> <E000> endbfchar\n"
                                b"endcmap CMapName currentdict /CMap defineresource pop end end")
    font = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                                BaseFont=pikepdf.Name.Helvetica, ToUnicode=tounicode))
    for content in (b"BT /F1 12 Tf 72 700 Td (ABCA) Tj ET", b"BT /F1 12 Tf 3 Tr 72 700 Td (A) Tj ET"):
        page = pdf.add_blank_page()
        page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font))
        page.Contents = pdf.make_stream(content)
    pdf.save(tmp_path / "in.pdf")
    (tmp_path / "corpus").mkdir()
    shutil.copy(tmp_path / "in.pdf", tmp_path / "corpus" / "in.pdf")
    assert run_cli("audit", tmp_path / "corpus", "-o", tmp_path / "out", "--workers", "1", "--page-records") == 0
    pages = sorted(read_records(tmp_path / "out", "pages"), key=lambda p: p["page"])
    assert [(p["page"], p["glyphs"], p["chars"], p["fffd"], p["private_use"], p["control"], p["hidden"])
            for p in pages] == [(1, 4, 4, 1, 1, 0, 0), (2, 1, 1, 0, 0, 0, 1)]  # page 2's glyph: Tr 3
    assert pages[0]["confidence"] == {"spec": 4} and pages[0]["unmapped"] == 0
    assert run_cli("audit", tmp_path / "corpus", "-o", tmp_path / "plain", "--workers", "1") == 0
    assert list(read_records(tmp_path / "plain", "pages")) == []  # only when asked for


# -- a new user's mistakes -------------------------------------------------------------------------
def test_an_unguarded_script_gets_a_clear_error_not_a_corrupt_audit(tmp_path):
    """The README's snippet without ``if __name__ == "__main__":``: every worker re-runs the
    script and dies on start; the audit stops with WorkerStartError naming the guard instead of
    recording every file as WorkerDied and exiting 0."""
    (tmp_path / "corpus").mkdir()
    shutil.copy(SAMPLES / "minimal.pdf", tmp_path / "corpus")
    script = tmp_path / "audit_script.py"
    script.write_text('from pdfinspect.audit import Options, run_audit\n'
                      'run_audit(["corpus/"], "out", workers=2, options=Options(pages="first"))\n')
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path, timeout=120,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert p.returncode != 0 and "WorkerStartError" in p.stderr and '__name__ == "__main__"' in p.stderr
    assert list(read_records(tmp_path / "out", "files")) == []  # no file recorded as failed
    guarded = tmp_path / "guarded.py"
    guarded.write_text('from pdfinspect.audit import Options, run_audit\n'
                       'if __name__ == "__main__":\n'
                       '    run_audit(["corpus/"], "out2", workers=2, options=Options(pages="first"))\n')
    p = subprocess.run([sys.executable, str(guarded)], capture_output=True, text=True, cwd=tmp_path, timeout=120,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert p.returncode == 0, p.stderr
    assert [r["status"] for r in read_records(tmp_path / "out2", "files")] == ["ok"]


def test_an_output_folder_in_a_missing_folder_is_a_one_line_error(tmp_path, capsys):
    missing = tmp_path / "no" / "out"
    assert run_cli("audit", SAMPLES / "minimal.pdf", "-o", missing) == 1
    err = capsys.readouterr().err
    assert "does not exist" in err and len(err.strip().splitlines()) == 1 and not (tmp_path / "no").exists()


def test_font_and_page_records_share_the_documents_caches(monkeypatch):
    """With page records, one resolver and one font cache serve the font records and every
    page: each font is read, each code resolved and the document's glyph shapes learned
    (fonts.shapevote, seconds on a file of many embedded fonts) once a file."""
    from pdfinspect.fonts import font, resolve

    made = {"Resolver": 0, "FontCache": 0}
    for module, name in ((resolve, "Resolver"), (font, "FontCache")):
        cls = getattr(module, name)
        init = cls.__init__

        def counted(self, *a, _init=init, _name=name, **k):
            made[_name] += 1
            _init(self, *a, **k)
        monkeypatch.setattr(cls, "__init__", counted)
    result = audit_file(str(SAMPLES / "pages.pdf"), Options(page_records=True))
    assert result.file["status"] == "ok" and len(result.pages) == result.file["pages_audited"] > 1
    assert made == {"Resolver": 1, "FontCache": 1}
