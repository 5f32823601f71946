"""Every repair is reported: by the Document in ``diagnostics``, by every CLI command on stderr."""
from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import ROOT, sample


def run(*args):
    return subprocess.run([sys.executable, "-m", "pdfinspect", *map(str, args)], capture_output=True,
                          text=True, encoding="utf-8", errors="replace", cwd=ROOT)


@pytest.mark.parametrize("argv", [["show", "{f}", "3"], ["refs", "{f}", "3"], ["pages", "{f}"],
                                  ["ops", "{f}", "-p", "1"], ["text", "{f}", "-p", "1"],
                                  ["fonts", "{f}"], ["glyphs", "{f}", "-p", "1"], ["-r", "3", "{f}"]])
def test_every_command_prints_the_repairs_once(argv):
    f = sample("damaged-bad-offsets.pdf")
    p = run(*[a.format(f=f) for a in argv])
    assert p.returncode == 0, p.stderr
    wrong = [line for line in p.stderr.splitlines() if "for object 3 does not point at" in line]
    assert len(wrong) == 1, p.stderr


def test_show_names_the_generation_in_use():
    p = run("show", sample("minimal.pdf"), 4, 3)
    assert p.returncode == 1
    assert "object 4 is in use at generation 0, not 3" in p.stderr


def test_info_without_the_password_shows_the_encryption_facts():
    p = run("info", sample("encrypted-aes256.pdf"), "--password", "wrong")
    assert p.returncode == 1 and "--password" in p.stderr
    assert "V5 R6" in p.stdout and "AESV3 256-bit" in p.stdout and "locked" in p.stdout
    assert "permission: print: granted" in p.stdout
