"""pdfinspect: an interactive PDF internals inspector, and its Python API.

    import pdfinspect

    with pdfinspect.open("file.pdf") as doc:
        found = doc.lookup(4, 0)          # the object, or why it is missing
        if found:
            print(found.object.value)
        for d in doc.diagnostics:         # every repair made while reading
            print(d)

Importing this package loads only the core (no Textual, no Rich, no fontTools).
"""
from __future__ import annotations

import os

from .core.diagnostics import Diagnostic, PasswordError, PdfError, Severity
from .core.document import BackRef, Document, RevisionChanges
from .core.filters import DEFAULT_LIMIT, DecodeResult
from .core.lookup import Found, Lookup
from .core.objects import Array, Dict, Name, Ref, Stream, String
from .core.parser import IndirectObject
from .core.xref import Revision, XrefEntry

__all__ = [
    "Array", "BackRef", "DecodeResult", "Diagnostic", "Dict", "Document", "Found", "IndirectObject",
    "Lookup", "Name", "PasswordError", "PdfError", "Ref", "Revision", "RevisionChanges", "Severity",
    "Stream", "String", "XrefEntry", "open",
]


def open(path: str | os.PathLike, password: str | bytes = b"", *, decode_limit: int = DEFAULT_LIMIT,
         allow_locked: bool = False) -> Document:
    """Open a PDF file for inspection; use it as a context manager to release the file.

    ``password`` is tried as the user then the owner password. ``decode_limit`` caps the
    bytes one stream may decode to. ``allow_locked`` opens an encrypted file whose password
    is unknown, with its strings and streams left encrypted (see ``Document.encryption``).
    """
    return Document.open(path, password, decode_limit=decode_limit, allow_locked=allow_locked)
