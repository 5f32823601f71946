"""The README runs as written: every Python snippet as a script, every ``$ pdfinspect …`` line of
its console examples as a shell command, from a folder that holds the samples as the checkout
does. A console example must not end in a traceback or a usage error, and the first line the
README shows for it must be in what it prints."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```", re.S | re.M)


def blocks(kind: str) -> list[str]:
    return [body for lang, body in BLOCK.findall(README) if lang == kind]


def console_examples() -> list[list[tuple[str, str | None]]]:
    """Per console block, ``(command, first line shown after it)`` for every ``$ pdfinspect``
    line; a block's commands run in order, as a reader types them (one writes what the next
    reads)."""
    found = []
    for body in blocks("console"):
        lines = body.splitlines()
        block = []
        for i, line in enumerate(lines):
            if line.startswith("$ ") and "pdfinspect" in line:
                shown = lines[i + 1] if i + 1 < len(lines) and not lines[i + 1].startswith("$ ") else None
                block.append((line[2:], None if shown in (None, "…") else shown))
        if block:
            found.append(block)
    return found


def timeless(text: str) -> str:
    """Durations vary from run to run: ``in 4.9 s`` reads ``in N s``."""
    return re.sub(r"\b\d+(\.\d+)? s\b", "N s", text)


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    """A folder with the samples where the README expects them, and ``pdfinspect`` on the PATH
    running this checkout's code."""
    (tmp_path / "sample_pdfs").symlink_to(ROOT / "sample_pdfs")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "pdfinspect"
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m pdfinspect "$@"\n')
    wrapper.chmod(0o755)
    return tmp_path


def env_for(workdir: Path) -> dict[str, str]:
    return {**os.environ, "PATH": f"{workdir / 'bin'}{os.pathsep}{os.environ['PATH']}",
            "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}


def test_the_readme_has_snippets_and_examples():
    assert len(blocks("python")) >= 4
    assert sum(map(len, console_examples())) >= 6


@pytest.mark.parametrize("index", range(len(blocks("python"))))
def test_python_snippet_runs_as_written(workdir, index):
    script = workdir / f"snippet_{index}.py"
    script.write_text(blocks("python")[index])
    p = subprocess.run([sys.executable, str(script)], cwd=workdir, env=env_for(workdir),
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "Traceback" not in p.stderr


@pytest.mark.parametrize("block", console_examples(), ids=[b[0][0] for b in console_examples()])
def test_console_examples_run_as_written(workdir, block):
    for command, shown in block:
        for tool in re.findall(r"(?:^|[;|]\s*)(\w+)", command):
            if tool != "pdfinspect" and shutil.which(tool) is None:
                pytest.skip(f"{tool} is not on the PATH")
        p = subprocess.run(["bash", "-c", command], cwd=workdir, env=env_for(workdir),
                           capture_output=True, text=True, timeout=300)
        assert "Traceback" not in p.stderr, p.stderr
        assert p.returncode in (0, 1), command + "\n" + p.stdout + p.stderr  # 1: a one-line error shown
        if shown is not None:
            assert timeless(shown.strip()) in timeless(p.stdout + p.stderr), command
