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
from .base import Emulation, Page


def page_frame(doc, page_ref) -> Page:
    """The page's MediaBox, CropBox (the MediaBox when absent, 7.7.3.3) and /Rotate."""
    page = doc.resolve(page_ref)
    boxes: dict[str, tuple[float, float, float, float]] = {}
    for key in ("MediaBox", "CropBox"):
        box = inherited(doc, page, key)
        box = doc.resolve(box) if box is not None else None
        try:
            x0, y0, x1, y1 = (float(doc.resolve(v)) for v in box or ())
        except (TypeError, ValueError):
            continue
        boxes[key] = (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
    rotate = doc.resolve(inherited(doc, page, "Rotate"))
    turn = int(rotate) % 360 if isinstance(rotate, (int, float)) and int(rotate) % 90 == 0 else 0
    media = boxes.get("MediaBox")
    return Page(media, boxes.get("CropBox", media), turn)


def emulate(name: str, records, page: Page | None = None, shared: dict | None = None) -> Emulation:
    """Extractor ``name``'s emulated output for a page's glyph records (a list); ``page`` from
    :func:`page_frame`. Emulations of one page may share a dict (``shared``): what they all read of
    each glyph is then worked out once."""
    if name not in NAMES:
        raise ValueError(f"unknown extractor {name!r}: one of {', '.join(NAMES)}")
    module = importlib.import_module(f"{__name__}.{name}")
    return module.emulate(records, page, shared)


__all__ = ["NAMES", "Emulation", "Page", "emulate", "page_frame"]
