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


def page_boxes(doc, page_ref) -> dict[str, tuple[float, float, float, float]]:
    """The page's CropBox and MediaBox as (left, bottom, right, top), those readable; a missing
    CropBox is the MediaBox (7.7.3.3)."""
    page = doc.resolve(page_ref)
    out = {}
    for key in ("MediaBox", "CropBox"):
        box = inherited(doc, page, key)
        box = doc.resolve(box) if box is not None else None
        try:
            x0, y0, x1, y1 = (float(doc.resolve(v)) for v in box)
        except (TypeError, ValueError):
            continue
        out[key] = (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
    if "CropBox" not in out and "MediaBox" in out:
        out["CropBox"] = out["MediaBox"]
    return out


def emulate(name: str, records, boxes: dict | None = None) -> Emulation:
    """Extractor ``name``'s emulated output for a page's glyph records (a list); ``boxes`` from
    :func:`page_boxes` (each extractor reads the box its ``PAGE_BOX`` names)."""
    if name not in NAMES:
        raise ValueError(f"unknown extractor {name!r}: one of {', '.join(NAMES)}")
    module = importlib.import_module(f"{__name__}.{name}")
    return module.emulate(records, (boxes or {}).get(getattr(module, "PAGE_BOX", "CropBox")))


__all__ = ["NAMES", "Emulation", "emulate"]
