"""The CLI as a user runs it: whole processes, real files, exit codes, safe output."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT, corpus_file, corpus_files, sample

AGREE = ROOT.parent / "shared" / "tools" / "json_agree.py"


def run(*args, check=True):
    p = subprocess.run([sys.executable, "-m", "pdfinspect", *map(str, args)], capture_output=True,
                       text=True, encoding="utf-8", errors="replace", cwd=ROOT)
    if check:
        assert p.returncode == 0, p.stderr
    return p


def test_show_prints_header_value_and_decoded_stream():
    f = sample("minimal.pdf")
    out = run("show", f, 4).stdout
    assert "4 0 obj" in out and "stream" in out and "Hello, world" in out and "endobj" in out
    assert "% offset" in out


@pytest.mark.parametrize("argv", [["-r", "1", "{f}"], ["{f}", "-r", "1"]])
def test_hpdft_spelling(argv):
    f = sample("minimal.pdf")
    out = run(*[a.format(f=f) for a in argv]).stdout
    assert "1 0 obj" in out and "/Type /Catalog" in out


def test_raw_shows_bytes_as_stored():
    f = sample("filters.pdf")
    out = run("show", f, 4, "--raw").stdout
    assert "obj" in out


def test_control_characters_never_reach_the_terminal():
    f = sample("lexical.pdf")
    info = run("info", f).stdout
    shown = run("show", f, run("trailer", f).stdout.split("/Info ")[1].split(" ")[0]).stdout
    for text in (info, shown):
        assert not any(ord(c) < 0x20 and c not in "\n\t" or 0x7F <= ord(c) < 0xA0 for c in text)
    # the string is shown as written, its ESC and CSI bytes as octal escapes
    assert "\\033[31m" in shown and "\\233" in shown


def test_exit_codes():
    assert run("show", sample("minimal.pdf"), 999, check=False).returncode == 1
    assert run("show", check=False).returncode == 2
    p = run("info", ROOT / "README.md", check=False)
    assert p.returncode == 1 and "Traceback" not in p.stderr
    assert p.stderr.startswith("pdfinspect: ") and len(p.stderr.strip().splitlines()) == 1
    assert run("info", "/nonexistent.pdf", check=False).returncode == 1


@pytest.mark.parametrize("command", [["show", "{f}", "1"], ["trailer", "{f}"], ["objects", "{f}"]])
@pytest.mark.parametrize("revision", ["3", "-1"])
def test_revision_out_of_range_is_an_error_not_a_traceback(command, revision):
    f = sample("incremental.pdf")  # three revisions: 0, 1 and 2
    p = run(*[a.format(f=f) for a in command], "--revision", revision, check=False)
    assert p.returncode == 1 and "Traceback" not in p.stderr
    assert p.stderr.startswith("pdfinspect: ") and "revision" in p.stderr


def test_overlong_real_is_shown_not_a_traceback(tmp_path):
    # 400 digits overflow a double: the value read is clamped to ISO 32000 Annex C's bound for reals
    big = b"9" * 400 + b".5"
    content = b"BT " + big + b" 0 0 1 0 0 Tm ET"
    f = tmp_path / "big.pdf"
    f.write_bytes(b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n"
                  b"2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n"
                  b"3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 " + big + b" 792] /Contents 4 0 R >>\n"
                  b"endobj\n4 0 obj\n<< /Length " + str(len(content)).encode() + b" >>\nstream\n" + content +
                  b"\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n")
    for argv in (["show", f, 3], ["objects", f, "--json"], ["ops", f]):
        p = run(*argv, check=False)
        assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr
    shown, ops = run("show", f, 3, check=False), run("ops", f, check=False)
    assert "/MediaBox [0 0 340299999999999993642572978492905881600" in shown.stdout
    assert "number-out-of-range" not in shown.stdout and "is out of range; read as 3.403e+38" in shown.stderr
    assert "inf" not in shown.stdout + ops.stdout


@pytest.mark.parametrize("option", ["--decode-limit", "--max-bytes"])
def test_negative_size_is_a_usage_error(option):
    p = run("show", sample("minimal.pdf"), 4, option, "-1", check=False)
    assert p.returncode == 2 and "Traceback" not in p.stderr and option in p.stderr


def test_repaired_file_exits_zero_with_repairs_on_stderr():
    p = run("pages", sample("damaged-no-xref.pdf"))
    assert "3 0 R" in p.stdout  # page 1 is object 3, found by the scan
    assert "rebuilt" in p.stderr


def test_info_lists_revisions_and_repairs():
    out = run("info", sample("incremental.pdf")).stdout
    assert "Revisions:   3" in out and "Pages:       1" in out
    out = run("info", sample("damaged-bad-offsets.pdf")).stdout
    assert "xref offset" in out


def test_xref_check_finds_wrong_offsets():
    out = run("xref", sample("damaged-bad-offsets.pdf"), "--check").stdout
    assert "WRONG" in out and "checked: 0" not in out
    out = run("xref", sample("minimal.pdf"), "--check").stdout
    assert "checked: 0 wrong" in out


def test_refs_lists_key_paths():
    out = run("refs", sample("minimal.pdf"), 3).stdout
    assert "2 0 R /Kids [0]" in out  # the page tree's /Kids holds object 3 first


def test_password_option():
    f = corpus_file("qpdf-aes-256-userpw.pdf")
    assert run("info", f, check=False).returncode == 1
    assert "AESV3" in run("info", f, "--password", "opensesame").stdout


def test_pygmentize_finds_our_lexer():
    from pygments.lexers import get_lexer_by_name

    assert type(get_lexer_by_name("pdf")).__module__ == "pdfinspect.highlight.lexers"


@pytest.mark.skipif(shutil.which("qpdf") is None or not AGREE.exists(), reason="qpdf or tools absent")
@pytest.mark.parametrize("path", [p for p in corpus_files() if not p.name.startswith("damaged-")],
                         ids=lambda p: p.name)
def test_objects_json_agrees_with_qpdf(path, tmp_path):
    pw = ["--password=opensesame"] if "userpw" in path.name else []
    ours = tmp_path / "ours.json"
    ours.write_text(run("objects", path, "--json", "--decode", *pw).stdout)
    ref = tmp_path / "qpdf.json"
    with ref.open("w") as f:
        subprocess.run(["qpdf", *pw, "--json=2", "--json-key=qpdf", "--decode-level=generalized",
                        "--json-stream-data=inline", str(path)], stdout=f, check=False)
    p = subprocess.run([sys.executable, str(AGREE), str(ours), str(ref)], capture_output=True, text=True)
    assert p.returncode == 0, p.stdout
    header = json.loads(ours.read_text())["qpdf"][0]
    assert header["jsonversion"] == 2


def test_decode_limit_bounds_a_decompression_bomb():
    f = sample("damaged-bomb.pdf")
    form = next(line.split()[0] for line in run("objects", f).stdout.splitlines() if "/Form" in line)
    p = run("show", f, form, "--decode-limit", "1")
    assert "exceeds limit of 1048576 bytes" in p.stderr
    assert "endstream" in p.stdout


def test_app_launch_errors_use_the_cli_exit_codes():
    """`pdfinspect FILE` exits like the commands when it cannot open the file: no app starts."""
    p = run(corpus_file("qpdf-aes-256-userpw.pdf"), check=False)
    assert p.returncode == 1 and "--password" in p.stderr and "Traceback" not in p.stderr
    p = run(ROOT / "README.md", check=False)
    assert p.returncode == 1 and p.stderr.startswith("pdfinspect: ")
    p = run(sample("minimal.pdf"), "--page", "9", check=False)
    assert p.returncode == 2 and "no page 9" in p.stderr


def run_with_terminal_stderr(*args):
    """Run with stderr on a pseudo-terminal and stdout on a pipe: (stdout, what the terminal got)."""
    import os
    import select

    master, slave = os.openpty()
    p = subprocess.Popen([sys.executable, "-m", "pdfinspect", *map(str, args)], stdout=subprocess.PIPE,
                         stderr=slave, cwd=ROOT)
    os.close(slave)
    out = p.stdout.read()
    p.wait()
    seen = b""
    while select.select([master], [], [], 0)[0]:  # the child has exited: what it wrote is there
        try:
            chunk = os.read(master, 1 << 16)
        except OSError:  # the terminal's other side is closed
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    return out.decode("utf-8"), seen.decode("utf-8", "replace")


@pytest.mark.parametrize("args,label", [
    (("refs", "pages.pdf", 2), "looking for references"),
    (("info", "pages.pdf"), "parsing objects"),
    (("fonts", "pages.pdf"), "reading pages"),
    (("hidden", "pages.pdf", "--json"), "reading pages"),
    (("check", "damaged-bad-length.pdf"), "checking objects"),
])
def test_whole_document_commands_show_progress_on_a_terminal_only(args, label):
    command, name, *rest = args
    piped = run(command, sample(name), *rest, check=False)
    out, terminal = run_with_terminal_stderr(command, sample(name), *rest)
    assert out == piped.stdout and out  # the same output, progress or not
    assert label in terminal and label not in piped.stderr
    assert "Traceback" not in terminal


def test_refs_prints_each_referrer_as_the_scan_finds_it():
    from pdfinspect.core.document import Document

    doc = Document.open(sample("pages.pdf"))
    found = iter(doc.iter_backrefs(2))
    first = next(found)  # before the scan has read every object
    assert doc._backrefs is None and str(first) == "1 0 R /Pages"
    assert [str(b) for b in [first, *found]] == run("refs", sample("pages.pdf"), 2).stdout.splitlines()
    assert [str(b) for b in Document.open(sample("pages.pdf")).backrefs(2)] == [str(first), *run(
        "refs", sample("pages.pdf"), 2).stdout.splitlines()[1:]]


def test_xref_check_states_a_uniform_shift():
    out = run("xref", sample("damaged-bad-offsets.pdf"), "--check").stdout
    assert ("shifted by -7: all 5 wrong entries are off by the same amount, each object starting 7 bytes before "
            "the offset its entry gives") in out
    assert "shifted by" not in run("xref", sample("minimal.pdf"), "--check").stdout
    out = run("xref", corpus_file("damaged-xref-offsets-shifted.pdf"), "--check").stdout
    assert "shifted by 777" in out and "and startxref" in out


def test_bytes_dumps_the_file_at_an_offset():
    f = sample("minimal.pdf")
    data = f.read_bytes()
    at = data.index(b"5 0 obj") + 2
    out = run("bytes", f, hex(at), 16).stdout.splitlines()
    assert out[0].startswith(f"% offset {at} ({at:#x}) is 2 bytes into object 5")
    assert out[1].startswith(f"{at:08x}  30 20 6f 62 6a") and len(out) == 2
    p = run("bytes", f, len(data) + 5, check=False)
    assert p.returncode == 1 and "past the end of the file" in p.stderr and "Traceback" not in p.stderr


def test_check_quiet_prints_only_the_verdict():
    p = run("check", "--quiet", sample("damaged-bad-offsets.pdf"), check=False)
    assert p.returncode == 3 and p.stdout.strip().splitlines() == ["no errors; 5 warning(s) found"], p.stdout
    loud = run("check", sample("damaged-bad-offsets.pdf"), check=False).stdout
    assert loud.startswith("checking ") and loud.strip().splitlines()[-1] == p.stdout.strip()


def test_refs_on_a_missing_object_is_a_one_line_error():
    p = run("refs", sample("minimal.pdf"), 99, check=False)
    assert p.returncode == 1 and p.stdout == "" and "object 99 does not exist" in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1
    assert run("refs", sample("minimal.pdf"), 4).stdout.strip() == "3 0 R /Contents"
