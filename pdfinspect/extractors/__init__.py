"""Each text extractor as a rule table: what it outputs for the glyphs of a page.

One module per extractor (``pdfminer``, ``pypdf``, ``pdfium``, ``poppler``, ``mupdf``,
``pdfjs``, ``pdfbox``), each a pure function ``emulate(records)`` over the glyph records of
:func:`pdfinspect.content.textlayout.page_glyphs` giving an :class:`~.base.Emulation`: per
glyph the text it outputs, whether it keeps it, and what goes before it, with the rule and
the constant (and its source file) that decided. Emulation never runs the real extractor;
:mod:`.oracle` does, to check these tables.
"""
from __future__ import annotations

import importlib

from ..core.pages import inherited
from ..spec.extractors import NAMES
from .base import Emulation


def page_box(doc, page_ref) -> tuple[float, float, float, float] | None:
    """The page's CropBox (else MediaBox) as (left, bottom, right, top), if readable."""
    page = doc.resolve(page_ref)
    for key in ("CropBox", "MediaBox"):
        box = inherited(doc, page, key)
        box = doc.resolve(box) if box is not None else None
        try:
            x0, y0, x1, y1 = (float(doc.resolve(v)) for v in box)
        except (TypeError, ValueError):
            continue
        return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)
    return None


def emulate(name: str, records, page_box: tuple[float, float, float, float] | None = None) -> Emulation:
    """Extractor ``name``'s emulated output for a page's glyph records (a list)."""
    if name not in NAMES:
        raise ValueError(f"unknown extractor {name!r}: one of {', '.join(NAMES)}")
    module = importlib.import_module(f"{__name__}.{name}")
    return module.emulate(records, page_box)


__all__ = ["NAMES", "Emulation", "emulate"]
