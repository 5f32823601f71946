"""Coverage-guided fuzzing of the parsing layers with Atheris (libFuzzer), by hand, not in CI.

One target per entry point the Hypothesis harness (tests/test_fuzz.py) covers: ``document``
(``Document`` on the bytes, then every object and page 1's glyphs), ``content`` (the content
tokenizer) and ``cmap`` (the CMap parser). A crash is any exception but ``PdfError`` (a file
nothing can be read from), or a non-finite number coming out.

Usage: ``pip install atheris``, then
``PYTHONPATH=. python bench/fuzz_atheris.py TARGET [CORPUS_DIR] [libFuzzer options]``, e.g.
``python bench/fuzz_atheris.py document bench/data/fuzz-document -max_total_time=600 -rss_limit_mb=4096``.
"""
from __future__ import annotations

import math
import sys

import atheris

with atheris.instrument_imports():
    from pdfinspect.content.textlayout import page_glyphs
    from pdfinspect.content.tokenizer import iter_operations
    from pdfinspect.core.diagnostics import PdfError
    from pdfinspect.core.document import Document
    from pdfinspect.fonts.cmap import parse_cmap


def _floats_finite(value) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, (list, tuple)):
        return all(_floats_finite(v) for v in value)
    if isinstance(value, dict):
        return all(_floats_finite(v) for v in value.values())
    return True


def document(data: bytes) -> None:
    try:
        doc = Document(data)
    except PdfError:
        return
    for obj in doc.iter_objects():
        assert _floats_finite(obj.value)
    if doc.page_count():
        for _ in page_glyphs(doc, doc.page_ref(1)):
            pass


def content(data: bytes) -> None:
    for op in iter_operations(data):
        assert _floats_finite(op.operands)


def cmap(data: bytes) -> None:
    parsed = parse_cmap(data)
    parsed.lookup_unicode(b"A")
    parsed.split_codes(data[:64])


TARGETS = {"document": document, "content": content, "cmap": cmap}


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in TARGETS:
        raise SystemExit(f"usage: {sys.argv[0]} {{{','.join(TARGETS)}}} [CORPUS_DIR] [libFuzzer options]")
    target = TARGETS[sys.argv.pop(1)]
    sys.setrecursionlimit(10_000)
    atheris.Setup(sys.argv, target)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
