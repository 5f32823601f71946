"""Every Python snippet in README.md runs as written (each as a script file, as a user pastes it)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT, sample

SNIPPETS = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)
# snippets that continue an earlier one get its `doc`
PRELUDE = 'import pdfinspect\ndoc = pdfinspect.open("file.pdf")\n'


def _file_pdf(path) -> None:
    """A one-page PDF whose objects 4 (a font) and 66 (the page's content stream) exist, as the
    API snippet's object numbers assume."""
    content = b"BT /F1 12 Tf 72 700 Td (Hello) Tj ET"
    bodies = {1: b"<< /Type /Catalog /Pages 2 0 R >>", 2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
              3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 66 0 R "
                 b"/Resources << /Font << /F1 4 0 R >> >> >>",
              4: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
              66: b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content)}
    out = bytearray(b"%PDF-1.7\n")
    offsets = {}
    for num in range(1, 67):
        offsets[num] = len(out)
        out += b"%d 0 obj\n%s\nendobj\n" % (num, bodies.get(num, b"null"))
    xref = len(out)
    out += b"xref\n0 67\n0000000000 65535 f\r\n" + b"".join(b"%010d 00000 n\r\n" % offsets[n] for n in range(1, 67))
    out += b"trailer\n<< /Size 67 /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % xref
    path.write_bytes(bytes(out))


@pytest.mark.parametrize("index", range(len(SNIPPETS)))
def test_readme_snippet_runs_as_written(index, tmp_path):
    _file_pdf(tmp_path / "file.pdf")
    shutil.copy(sample("encrypted-aes256.pdf"), tmp_path / "secret.pdf")
    (tmp_path / "corpus").mkdir()
    shutil.copy(tmp_path / "file.pdf", tmp_path / "corpus" / "file.pdf")
    code = SNIPPETS[index]
    if re.search(r"\bdoc\b", code) and not re.search(r"\bdoc\s*=|as doc\b", code):
        code = PRELUDE + code
    (tmp_path / "snippet.py").write_text(code, encoding="utf-8")
    p = subprocess.run([sys.executable, "snippet.py"], capture_output=True, text=True, cwd=tmp_path, timeout=300,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert p.returncode == 0, f"README snippet {index}:\n{code}\n{p.stderr}"


def test_the_snippets_are_found():
    assert len(SNIPPETS) >= 5 and any("run_audit" in s for s in SNIPPETS)
