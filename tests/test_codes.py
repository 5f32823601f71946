"""The code catalogue: every code the package emits is listed, docs/codes.md is current, and
glyph flags, path steps and reasons are codes that nothing reads as prose."""
from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, sample
from pdfinspect.fonts import codes as font_codes
from pdfinspect.fonts.codes import FLAGS, METHODS, STEPS, VALUES
from pdfinspect.fonts.reasons import REASON_IDS, REASONS
from pdfinspect.present.codes import REGISTRIES, catalogue_markdown
from pdfinspect.spec.codes import DIAGNOSTICS, Registry

PACKAGE = ROOT / "pdfinspect"
DIAGNOSTIC_MAKERS = {"warning", "error", "info"}
# codes built at run time, with every value they can take
DYNAMIC = {"fonts/font.py": {"f'{key.lower()}-malformed'": {"w-malformed", "w2-malformed"}}}


def _name(call: ast.Call) -> str | None:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def _trees():
    for path in sorted(PACKAGE.rglob("*.py")):
        yield path.relative_to(PACKAGE).as_posix(), ast.parse(path.read_text(encoding="utf-8"))


def _forwarders(trees) -> set[tuple[str, str]]:
    """(file, function) of functions taking a ``code`` parameter they pass to warning/error/info
    (``_warn`` in core/parser.py, ``report`` in fonts/cmap.py)."""
    found = set()
    for rel, tree in trees:
        for fn in ast.walk(tree):
            if isinstance(fn, ast.FunctionDef) and "code" in [a.arg for a in fn.args.args] \
                    and fn.name not in DIAGNOSTIC_MAKERS:
                for call in ast.walk(fn):
                    if isinstance(call, ast.Call) and _name(call) in DIAGNOSTIC_MAKERS and call.args \
                            and isinstance(call.args[0], ast.Name) and call.args[0].id == "code":
                        found.add((rel, fn.name))
    return found


def diagnostic_codes_used() -> tuple[dict[str, str], list[str]]:
    """(code → first place it is used, non-literal uses left unexplained)."""
    trees = list(_trees())
    forwarders = _forwarders(trees)
    used: dict[str, str] = {}
    unexplained = []
    for rel, tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = _name(node)
                if name == "Diagnostic":
                    arg = node.args[1] if len(node.args) > 1 else None
                elif name in DIAGNOSTIC_MAKERS and isinstance(node.func, ast.Name) or (rel, name) in forwarders:
                    arg = node.args[0] if node.args else None  # parser.error(…) is argparse's
                elif name == "append" and isinstance(node.func, ast.Attribute) \
                        and ast.unparse(node.func.value) == "problems" and isinstance(node.args[0], ast.Tuple):
                    arg = node.args[0].elts[0]  # spec/inline_image.py's (code, message, offset)
                else:
                    continue
                if arg is None:
                    continue
                where = f"{rel}:{node.lineno}"
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    used.setdefault(arg.value, where)
                elif ast.unparse(arg) in DYNAMIC.get(rel, {}):
                    for code in DYNAMIC[rel][ast.unparse(arg)]:
                        used.setdefault(code, where)
                elif not (isinstance(arg, ast.Name) and arg.id == "code") and \
                        not (isinstance(arg, ast.Attribute) and arg.attr == "code"):
                    unexplained.append(f"{where}: {ast.unparse(arg)}")
    return used, unexplained


def test_every_diagnostic_code_used_is_in_the_catalogue():
    used, unexplained = diagnostic_codes_used()
    assert len(used) > 150  # the scan finds the package's diagnostics
    missing = {code: where for code, where in used.items() if code not in DIAGNOSTICS}
    assert not missing, f"add these codes to pdfinspect/spec/codes.py: {missing}"
    assert not unexplained, f"codes the scan cannot read (use a literal, or list them in DYNAMIC): {unexplained}"


def test_scan_sees_a_planted_unknown_code(tmp_path, monkeypatch):
    """The scan is not vacuous: a diagnostic with an unlisted code is reported."""
    planted = tmp_path / "pdfinspect"
    (planted / "core").mkdir(parents=True)
    (planted / "core" / "x.py").write_text(
        "from .diagnostics import warning\n"
        "def f(self):\n    self._warn('planted-forwarded', 'x', 0)\n    return warning('planted-code', 'x')\n"
        "def _warn(self, code, message, offset):\n    return warning(code, message)\n")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", planted)
    used, _ = diagnostic_codes_used()
    assert {"planted-code", "planted-forwarded"} <= set(used) and "planted-code" not in DIAGNOSTICS


def test_every_registered_diagnostic_is_used():
    used, _ = diagnostic_codes_used()
    assert not [c for c in DIAGNOSTICS.entries if c not in used]


def test_code_shapes():
    kebab, snake = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*"), re.compile(r"[a-z0-9]+(_[a-z0-9]+)*")
    assert all(kebab.fullmatch(d.code) for d in DIAGNOSTICS)
    for reg in (FLAGS, STEPS, REASONS):
        assert all(snake.fullmatch(d.code) for d in reg), reg.kind
    assert all(d.meaning and (d.clause is None or re.fullmatch(r"(\d+(\.\d+)*|Annex [A-Z](\.\d+)*)", d.clause))
               for reg in REGISTRIES for d in reg)
    assert tuple(REASONS.entries) == REASON_IDS


def test_registry_refuses_a_code_twice():
    reg = Registry("x", "X", "")
    reg.add("a", "first")
    with pytest.raises(ValueError):
        reg.add("a", "again")


def test_every_codes_constant_the_package_names_exists():
    """``codes.X`` in the resolver and the reasons is a registered constant (no typo survives)."""
    importers = 0
    for rel, tree in _trees():
        if not any(isinstance(n, ast.ImportFrom) and n.module is None and any(a.name == "codes" for a in n.names)
                   for n in ast.walk(tree)) or not rel.startswith("fonts/"):
            continue
        importers += 1
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "codes":
                value = getattr(font_codes, node.attr)
                assert any(value in reg for reg in (FLAGS, STEPS, METHODS, VALUES)), f"{rel}:{node.lineno}"
    assert importers


def test_docs_codes_md_is_generated_from_the_registries():
    doc = ROOT / "docs" / "codes.md"
    assert doc.read_text(encoding="utf-8") == catalogue_markdown(), \
        "docs/codes.md is stale: python -m pdfinspect codes > docs/codes.md"


def test_codes_command_prints_the_catalogue():
    env_path = {"PYTHONPATH": str(ROOT)}
    import os

    p = subprocess.run([sys.executable, "-m", "pdfinspect", "codes"], capture_output=True, text=True,
                       encoding="utf-8", cwd=ROOT, env={**os.environ, **env_path})
    assert p.returncode == 0 and p.stdout == catalogue_markdown()
    p = subprocess.run([sys.executable, "-m", "pdfinspect", "codes", "--json"], capture_output=True, text=True,
                       encoding="utf-8", cwd=ROOT, env={**os.environ, **env_path})
    data = json.loads(p.stdout)
    assert {"xref-offset-wrong", "tounicode_miss"} <= {e["code"] for kind in data.values() for e in kind}


def test_glyphs_json_flags_and_steps_are_codes():
    p = subprocess.run([sys.executable, "-m", "pdfinspect", "glyphs", sample("kappa.pdf"), "-p", "1", "--json"],
                       capture_output=True, text=True, encoding="utf-8", cwd=ROOT)
    records = json.loads(p.stdout)
    flags = [f for r in records for f in r["flags"]]
    assert "tounicode_miss" in flags and "heuristic_only" in flags and set(flags) <= set(FLAGS.entries)
    assert all(len(r["flags"]) == len(r["flag_messages"]) for r in records)
    kappa = records[0]
    assert kappa["flags"] == ["tounicode_miss"] and "U+0014" in kappa["flag_messages"][0]
    steps = [s for r in records for s in r["path"]]
    assert all(s["code"] in STEPS for s in steps) and all(s["method"] in METHODS for s in steps)
    assert all(s["result"] in VALUES and s["confidence"] in VALUES for s in steps)
    assert [s["code"] for s in kappa["path"]] == ["tounicode_no_entry", "encoding_absent", "not_type0", "agl_mapped"]
