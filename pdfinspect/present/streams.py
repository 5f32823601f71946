"""What a stream holds and how it was decoded, as both front ends show it.

A stream does not say what it holds; :func:`stream_kind` decides from its dictionary, the
key that led to it and a look at the data (ISO 32000 7.8 content streams, 9.10.3 CMaps,
14.3.2 XML metadata, 12.6.4.17 JavaScript — shown as inert text). :class:`StreamHeader`
is the line above the data: raw or decoded, the filter chain with sizes, errors.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.filters import DecodeResult
from ..core.objects import Dict
from .text import Parts, looks_like_text, plain, safe_line

KINDS = ("content", "cmap", "xml", "javascript", "pdf", "text", "hex")
LEXERS = {"content": "pdfcontent", "cmap": "pdfcmap", "pdf": "pdf", "xml": "xml", "javascript": "javascript"}
"""The Pygments lexer alias of each kind shown as text (``text`` is shown plain)."""
TEXT_LIMIT = 8 * 1024 * 1024
"""Bigger data is shown as hex: showing it as text splits the whole stream into lines."""
_CONTENT_OPS = re.compile(rb"(?:^|\s)(?:BT|ET|Tf|Tj|TJ|re|cm|Do|BDC|EMC|q|Q)(?:\s|$)")
_CONTENT_KEYS = frozenset({"/Contents"})
_BINARY_KEYS = frozenset({"/FontFile", "/FontFile2", "/FontFile3"})

# Roles of the parts of a stream header (each front end styles them).
TITLE, FACT, STEP, NOTE, ERROR = "title", "fact", "step", "note", "error"


def _mostly_text(data: bytes, sample: int = 4096) -> bool:
    """Three quarters printable: a content stream with an inline image still reads as text."""
    chunk = data[:sample]
    return not chunk or sum(0x20 <= b < 0x7F or b in b"\t\r\n" for b in chunk) >= 0.75 * len(chunk)


def stream_kind(d: Dict, data: bytes, key: str | None = None) -> str:
    """One of :data:`KINDS`; ``hex`` past :data:`TEXT_LIMIT`. ``key`` is the dictionary key
    that points at the stream (``/Contents``, ``/JS``, ``/FontFile2``), if known."""
    if len(data) > TEXT_LIMIT:
        return "hex"
    if key == "/JS":
        return "javascript"
    if d.get("Subtype") == "XML" or d.get("Type") == "Metadata":
        return "xml"
    if d.get("Type") == "XRef" or d.get("Subtype") == "Image" or key in _BINARY_KEYS:
        return "hex"
    if (key in _CONTENT_KEYS or d.get("Subtype") == "Form") and _mostly_text(data):
        return "content"
    if not looks_like_text(data):
        return "hex"
    if d.get("Type") == "ObjStm":
        return "pdf"
    head = data[:8192]
    if d.get("Type") == "CMap" or b"begincmap" in head:
        return "cmap"
    return "content" if _CONTENT_OPS.search(head) else "text"


@dataclass(frozen=True, slots=True)
class StreamHeader:
    """The line above a stream's data: ``raw`` or decoded, the bytes stored, each filter
    with its sizes, the error that stopped decoding, and what is shown."""

    raw: bool
    stored: int
    result: DecodeResult | None
    shown_as: str
    error: str | None = None
    decrypted: bool = False  # the file is encrypted: raw data is shown decrypted, filters not applied

    def parts(self) -> Parts:
        """``(text, role)`` pieces, terminal-safe; roles :data:`TITLE` … :data:`ERROR`."""
        raw = "raw (decrypted, not decoded)" if self.decrypted else "raw (not decoded)"
        parts = [(raw if self.raw else "decoded", TITLE),
                 (f"  {self.stored} bytes in file", FACT)]
        if self.result is None:
            parts.append((f"  error: {safe_line(self.error or 'not decoded')}", ERROR))
            shown = 0
        else:
            for step in self.result.steps:
                parts += [("  → ", FACT), (safe_line(step.name), STEP), (f" {step.size_in}→{step.size_out}", FACT)]
                if step.passthrough:
                    parts.append((" (passed through)", NOTE))
                if step.error:
                    parts.append((f" ✗ {safe_line(step.error)}", ERROR))
            shown = len(self.result.data)
        parts.append((f"  {shown} bytes shown as {self.shown_as}", NOTE))
        return parts

    @property
    def line(self) -> str:
        return plain(self.parts())

    @property
    def decode_error(self) -> str | None:
        """One terminal-safe line when decoding stopped early (the data is what came before)."""
        if self.result is None or self.result.error is None:
            return None
        return f"decode error: {safe_line(self.result.error)} — the data shown is what decoded before it"
