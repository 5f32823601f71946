"""The real extractors, run and aligned with their emulation: where the rule tables are wrong.

``run`` starts one real extractor on one page in a subprocess with a timeout: pdfminer.six,
pypdf and pypdfium2 through this Python; ``pdftotext`` (poppler) and ``mutool draw -F txt``
(MuPDF) when they are on the PATH. PyMuPDF is never imported. ``align`` lines the real
output's words up with the emulated words (difflib on word sequences) and explains each
difference by the glyph that starts it: the decision that put (or did not put) a space or
line break before it, or the text the emulation gave the glyph. A difference between a real
extractor and its emulation is a bug in the rule table, not in the PDF.
"""
from __future__ import annotations

import collections
import difflib
import shutil
import subprocess
import sys
from dataclasses import dataclass

from ..content.textlayout import GlyphRecord
from .base import Decision, Emulation

REAL = ("pdfminer", "pypdf", "pdfium", "poppler", "mupdf")  # the extractors that can run here
_PYTHON = {
    "pdfminer": ("pdfminer", "import sys\nfrom pdfminer.high_level import extract_text\n"
                 "sys.stdout.write(extract_text(sys.argv[1], page_numbers=[int(sys.argv[2]) - 1]))"),
    "pypdf": ("pypdf", "import sys\nfrom pypdf import PdfReader\n"
              "sys.stdout.write(PdfReader(sys.argv[1]).pages[int(sys.argv[2]) - 1].extract_text() or '')"),
    "pdfium": ("pypdfium2", "import sys, pypdfium2 as p\nd = p.PdfDocument(sys.argv[1])\n"
               "sys.stdout.write(d[int(sys.argv[2]) - 1].get_textpage().get_text_range())"),
}
TIMEOUT = 60.0


def available(name: str) -> bool:
    if name in _PYTHON:
        probe = subprocess.run([sys.executable, "-c", f"import {_PYTHON[name][0]}"], capture_output=True)
        return probe.returncode == 0
    return shutil.which("pdftotext" if name == "poppler" else "mutool") is not None


def command(name: str, path: str, page: int) -> list[str]:
    if name in _PYTHON:
        return [sys.executable, "-c", _PYTHON[name][1], path, str(page)]
    if name == "poppler":
        return ["pdftotext", "-f", str(page), "-l", str(page), "-enc", "UTF-8", path, "-"]
    if name == "mupdf":
        return ["mutool", "draw", "-F", "txt", "-o", "-", path, str(page)]
    raise ValueError(f"no real extractor {name!r} runs here")


@dataclass(frozen=True, slots=True)
class Run:
    """One real extractor's output, or why there is none (``error``)."""

    name: str
    text: str | None
    error: str = ""


def run(name: str, path: str, page: int, timeout: float = TIMEOUT) -> Run:
    """The real extractor ``name`` on page ``page`` (1-based) of ``path``."""
    if not available(name):
        return Run(name, None, "not installed here")
    try:
        done = subprocess.run(command(name, path, page), capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return Run(name, None, f"timed out after {timeout:.0f} s")
    if done.returncode != 0:
        last = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or [f"exit status {done.returncode}"]
        return Run(name, None, f"failed: {last[0][:200]}")
    return Run(name, done.stdout.decode("utf-8", "replace"))


@dataclass(frozen=True, slots=True)
class Word:
    text: str
    decisions: tuple[Decision | None, ...]  # per character, the glyph decision that wrote it


def words(emulation: Emulation) -> list[Word]:
    """The emulated text's white-space separated words, each with the glyphs that made it."""
    out: list[Word] = []
    cur: list[str] = []
    owners: list[Decision | None] = []
    for piece, decision, inferred in emulation.spans():
        for ch in piece:
            if ch.isspace():
                if cur:
                    out.append(Word("".join(cur), tuple(owners)))
                cur, owners = [], []
            else:
                cur.append(ch)
                owners.append(None if inferred else decision)
    if cur:
        out.append(Word("".join(cur), tuple(owners)))
    return out


def agreement(a: str, b: str) -> float:
    """Word-bag F1 of two texts (multisets of white-space separated words); 1.0 when both are empty."""
    wa, wb = collections.Counter(a.split()), collections.Counter(b.split())
    na, nb = sum(wa.values()), sum(wb.values())
    if na + nb == 0:
        return 1.0
    return 2 * sum((wa & wb).values()) / (na + nb)


@dataclass(frozen=True, slots=True)
class Difference:
    """Emulated words ``ours`` where the real extractor wrote ``theirs``; ``kind`` is
    ``split`` (we break a word it keeps whole), ``joined`` (we join words it separates),
    ``text`` (other characters), ``missing`` or ``extra``; ``glyph`` the index of the glyph
    record that starts it, with the ``rule`` and ``detail`` of its decision."""

    kind: str
    ours: str
    theirs: str
    glyph: int | None
    rule: str
    detail: str


def align(emulation: Emulation, real: str, limit: int = 200) -> list[Difference]:
    """Where the real output's words differ from the emulation's, in reading order."""
    ours = words(emulation)
    theirs = real.split()
    matcher = difflib.SequenceMatcher(None, [w.text for w in ours], theirs, autojunk=False)
    out: list[Difference] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        mine, other = ours[i1:i2], theirs[j1:j2]
        a, b = " ".join(w.text for w in mine), " ".join(other)
        if a.replace(" ", "") == b.replace(" ", ""):
            kind = "split" if len(mine) > len(other) else "joined"
        else:
            kind = "missing" if not mine else "extra" if not other else "text"
        glyph, rule, detail = _cause(kind, mine, other)
        out.append(Difference(kind, a, b, glyph, rule, detail))
        if len(out) >= limit:
            break
    return out


def _cause(kind: str, mine: list[Word], other: list[str]) -> tuple[int | None, str, str]:
    """The glyph decision that starts a difference: after the break we put in (split), at
    the break we left out (joined), else the first glyph of our words."""
    d = None
    if kind == "split" and len(mine) > 1:
        d = mine[1].decisions[0]
    elif kind == "joined" and mine and other and len(other[0]) < len(mine[0].decisions):
        d = mine[0].decisions[len(other[0])]
    elif mine:
        d = mine[0].decisions[0]
        if d is not None and d.text_rule:
            return d.record.index, d.text_rule, f"the glyph's text: {d.text_rule}"
    if d is None:
        return None, "", ""
    return d.record.index, d.rule, d.detail


def disagreements(emulations: dict[str, Emulation]) -> list[tuple[GlyphRecord, dict[str, Decision]]]:
    """The glyphs whose decisions differ between the emulated extractors (text, kept, or the
    separator before them), each with every extractor's decision: why the outputs differ."""
    by_glyph: dict[int, dict[str, Decision]] = {}
    records: dict[int, GlyphRecord] = {}
    for name, emulation in emulations.items():
        for d in emulation.decisions:
            by_glyph.setdefault(d.record.index, {})[name] = d
            records[d.record.index] = d.record
    out = []
    for index in sorted(by_glyph):
        decisions = by_glyph[index]
        seen = {(d.kept, d.text if d.kept else "", (" " if d.before == "\n" else d.before) if d.kept else "")
                for d in decisions.values()}
        if len(seen) > 1 or len(decisions) < len(emulations):
            out.append((records[index], decisions))
    return out
