"""The CLI's start-up (issue 23): the common commands import only what they use, read from
``python -X importtime``, which lists every module a process imports."""
from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import ROOT, sample

# Packages the common commands never need: the app, the renderers, the highlighter.
FRONT_END = ("textual", "rich", "PIL", "pypdfium2", "pygments")


def imported(*args) -> set[str]:
    """The modules ``python -m pdfinspect ARGS`` imports (the command must succeed)."""
    p = subprocess.run([sys.executable, "-X", "importtime", "-m", "pdfinspect", *map(str, args)],
                       capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr[-2000:]
    return {line.rsplit("|", 1)[1].strip() for line in p.stderr.splitlines() if line.startswith("import time:")}


def packages(modules: set[str]) -> set[str]:
    return {m.split(".")[0] for m in modules}


@pytest.mark.parametrize("args", [
    ("{minimal}", "-r", 4), ("show", "{minimal}", 4), ("info", "{minimal}"), ("xref", "{minimal}"),
    ("text", "{content}"), ("glyphs", "{content}", "-p", 1, "--json"),
])
def test_common_commands_import_only_what_they_use(args):
    """A command does not pay for the app (Textual, Rich), pictures (PIL, pdfium), the
    highlighter or font programs (fontTools) it does not use: these files embed none."""
    files = {"minimal": sample("minimal.pdf"), "content": sample("content.pdf")}
    mods = imported(*(a.format(**files) if isinstance(a, str) else a for a in args))
    assert not packages(mods) & {*FRONT_END, "fontTools"}


def test_showing_an_object_imports_the_core_only():
    """``-r N`` (hpdft's spelling) reads one object: no fonts, no content, no front end."""
    mods = imported(sample("content.pdf"), "-r", 1)
    assert not packages(mods) & {*FRONT_END, "fontTools"}
    assert not {m for m in mods if m.startswith(("pdfinspect.fonts", "pdfinspect.content", "pdfinspect.tui"))}


@pytest.mark.parametrize("name", ["content.pdf", "kappa.pdf", "cid-identity.pdf"])
def test_glyphs_imports_neither_the_front_end_nor_the_other_commands(name):
    """``glyphs --json`` interprets the page and resolves its glyphs: it leaves out the app, the
    renderers, the text scanner, the reading orders, the structure tree, the font reports and
    the glyph outlines (no glyph of these pages asks the shape vote); fontTools only reads embedded TrueType
    and CFF programs (none here: a Type 1 program is read by fonts/type1.py), and pdfminer.six's
    package (its import reads its version's metadata) never: its tables are read from their files.
    Nor the standard modules only a shape table or an output file needs (hashlib and secrets load
    OpenSSL: 4 ms of a start of 0.2 s), nor logging, which only fontTools' readers are quieted with."""
    mods = imported("glyphs", sample(name), "-p", 1, "--json")
    assert not packages(mods) & {*FRONT_END, "fontTools", "pdfminer"}
    needless = {"pdfinspect.content.textscan", "pdfinspect.content.pagetexts", "pdfinspect.content.structure",
                "pdfinspect.core.structtree", "pdfinspect.content.fontreports", "pdfinspect.fonts.shapes",
                "pdfinspect.fonts.reasons", "statistics", "pdfinspect.core.atomic", "hashlib", "secrets", "pdfinspect.fonts.likeness",
                "logging"}
    assert not mods & needless, sorted(mods & needless)
