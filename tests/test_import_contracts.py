"""The layers, enforced: import-linter's contracts from pyproject.toml, and at run time no
module outside the app pulls in Textual or Rich (harlequin's import-hygiene check)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap

import pytest
from conftest import ROOT

PYPROJECT = ROOT / "pyproject.toml"


def lint(root) -> subprocess.CompletedProcess:
    """Run import-linter on the ``pdfinspect`` package found under ``root``, in a fresh process
    (the package found is the one import-linter analyses), without writing a cache."""
    code = ("import sys; from importlinter.cli import lint_imports; "
            f"sys.exit(lint_imports(config_filename={str(PYPROJECT)!r}, no_cache=True, no_logo=True))")
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root, env=env)


def test_import_contracts_are_kept():
    p = lint(ROOT)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "0 broken" in p.stdout


# Each edit breaks one rule of the layers; the contracts must say so.
VIOLATIONS = [
    ("core/objects.py", "from rich.text import Text", "Nothing below the front ends imports Rich or Textual"),
    ("tui/screens/glyphs.py", "from pdfinspect.cli.content import cmd_fonts", "Layers point down"),
    ("highlight/lexers.py", "from ..content import operators", "highlight needs only Pygments"),
    ("fonts/font.py", "from ..content import interpreter", "Layers point down"),
    ("cli/fix.py", "from ..tui import run_app", "No front end imports another"),
    ("present/objects.py", "from ..audit import engine", "Layers point down"),
]


@pytest.mark.parametrize("path, line, contract", VIOLATIONS, ids=[v[0] for v in VIOLATIONS])
def test_contracts_catch_an_import_against_the_layers(tmp_path, path, line, contract):
    shutil.copytree(ROOT / "pdfinspect", tmp_path / "pdfinspect",
                    ignore=shutil.ignore_patterns("__pycache__", "*.tcss"))
    target = tmp_path / "pdfinspect" / path
    target.write_text(target.read_text() + "\n" + line + "\n")
    p = lint(tmp_path)
    assert p.returncode == 1, p.stdout + p.stderr
    broken = p.stdout[p.stdout.index(contract):].split("\n")[:3]
    assert "BROKEN" in " ".join(broken), p.stdout


HYGIENE = textwrap.dedent("""
    import importlib, pathlib, sys
    import pdfinspect, pdfinspect.cli
    pdfinspect.cli.build_parser()  # every command module the CLI registers
    root = pathlib.Path(pdfinspect.__file__).parent  # listed from the files: pkgutil would import tui
    names = sorted(".".join(("pdfinspect",) + p.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
                   for p in root.rglob("*.py") if p.relative_to(root).parts[0] not in ("tui", "__main__.py"))
    for name in names:
        importlib.import_module(name)
        heavy = sorted({m.split(".")[0] for m in sys.modules} & {"textual", "rich"})
        if heavy:
            sys.exit(f"importing {name} imported {heavy}")
    print(len(names))
""")


def test_no_module_outside_the_app_imports_textual_or_rich():
    p = subprocess.run([sys.executable, "-c", HYGIENE], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    assert int(p.stdout) > 40  # the walk found the package's modules (the app's excepted)


def test_the_app_imports_textual():
    """The hygiene check above can fail: the app's own modules do pull Textual in."""
    code = "import sys, pdfinspect.tui.app; sys.exit('textual' not in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0
