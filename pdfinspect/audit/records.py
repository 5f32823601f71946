"""The per-file function: one PDF in, its ``files`` record, ``fonts`` records and (with
``Options.page_records``) ``pages`` records out.

:func:`audit_file` never raises for what a file contains: any exception becomes a failed
``files`` record (its class, message and the time spent). Both engines run it in a child
process that enforces the time and memory limits (:mod:`.isolate`), which records a
timeout or a dead worker with :func:`failed_record`.
"""
from __future__ import annotations

import hashlib
import os
import re
import resource
import stat
import time
import unicodedata
from collections import Counter
from dataclasses import dataclass, field

from ..content.fontreports import FontFacts, font_facts, font_reports
from ..content.visibility import page_visibility
from ..core.document import Document
from ..core.objects import String
from ..core.textstrings import decode_text
from ..fonts.font import FontCache
from ..fonts.resolve import Resolver
from .schema import EXAMPLE_CODES, SCHEMA_VERSION


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("pdfinspect")
    except PackageNotFoundError:
        return "unknown"


VERSION = _version()


@dataclass(frozen=True)
class Options:
    """What the per-file function needs besides the path (pickled to the workers)."""

    pages: str = "all"  # "all", "first" or a number N: the first N pages
    password: bytes = b""
    page_records: bool = False  # also a ``pages`` record per page (runs the interpreter on each)
    learn_shapes: bool = False  # also learn the file's glyph shapes (fonts.shapevote) into FileResult.shapes

    def page_numbers(self, count: int) -> range:
        if self.pages == "all":
            return range(1, count + 1)
        n = 1 if self.pages == "first" else int(self.pages)
        return range(1, min(n, count) + 1)


@dataclass
class FileResult:
    file: dict
    fonts: list[dict] = field(default_factory=list)
    pages: list[dict] = field(default_factory=list)
    shapes: dict | None = None  # with Options.learn_shapes: the file's ShapeTable entries


def file_sha256(path: str) -> str | None:
    """The file's SHA-256; ``None`` when it cannot be read or is not a regular file (a FIFO
    would block the parent forever, a symlink to /dev/zero never end)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        h = hashlib.sha256()
        with open(path, "rb") as f:  # hashlib.file_digest needs Python 3.11
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
        return h.hexdigest()
    except OSError:
        return None


def _size(path: str) -> int | None:
    try:
        return os.path.getsize(path)
    except OSError:
        return None


def max_rss_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def base_record(path: str, sha256: str | None) -> dict:
    return {"schema_version": SCHEMA_VERSION, "path": path, "sha256": sha256, "size": _size(path),
            "status": "ok", "error_class": None, "error": None, "elapsed": None, "producer": None,
            "creator": None, "pdf_version": None, "encrypted": None, "page_count": None,
            "pages_audited": None, "fonts": 0, "fonts_with_reasons": 0, "reasons": [],
            "diagnostics": 0, "max_rss_mb": None, "pdfinspect_version": VERSION}


def failed_record(path: str, error_class: str, message: str, elapsed: float,
                  sha256: str | None = None, rss: float | None = None) -> dict:
    """The ``files`` record of a file that could not be audited."""
    rec = base_record(path, sha256 if sha256 is not None else file_sha256(path))
    first_line = (message.strip().splitlines() or [""])[0]
    rec.update(status="failed", error_class=error_class, error=first_line[:500],
               elapsed=round(elapsed, 3), max_rss_mb=rss)
    return rec


def audit_file(path: str, options: Options = Options()) -> FileResult:
    """Audit one file; never raises an ``Exception`` (it becomes a failed record)."""
    start = time.monotonic()
    sha = file_sha256(path)
    try:
        result = _audit(path, sha, options)
    except Exception as e:  # the whole point: any failure is a record, not a crash
        return FileResult(failed_record(path, type(e).__name__, str(e) or repr(e),
                                        time.monotonic() - start, sha, max_rss_mb()))
    result.file["elapsed"] = round(time.monotonic() - start, 3)
    result.file["max_rss_mb"] = max_rss_mb()
    return result


def _info_text(doc: Document, key: str) -> str | None:
    v = doc.resolve(doc.info.get(key))
    return decode_text(v.value) if isinstance(v, String) else None


def _audit(path: str, sha: str | None, options: Options) -> FileResult:
    with Document.open(path, password=options.password) as doc:
        count = doc.page_count()
        pages = options.page_numbers(count)
        # the document's shared caches, which the page records use too: each font is read, each code
        # resolved and the document's glyph shapes learned once for both
        resolver = Resolver.of(doc)
        fonts = [font_record(path, sha, font_facts(r, resolver), program_fingerprint(doc, r.font))
                 for r in font_reports(doc, pages, resolver, fonts=FontCache.of(doc))]
        rec = base_record(path, sha)
        rec.update(producer=_info_text(doc, "Producer"), creator=_info_text(doc, "Creator"),
                   pdf_version=doc.version or doc.header_version, encrypted=doc.security is not None,
                   page_count=count, pages_audited=len(pages), fonts=len(fonts),
                   fonts_with_reasons=sum(1 for f in fonts if f["reasons"]),
                   reasons=sorted({r["id"] for f in fonts for r in f["reasons"]}),
                   diagnostics=len(doc.diagnostics))
        per_page = [page_record(path, sha, doc, n) for n in pages] if options.page_records else []
        rec["diagnostics"] = len(doc.diagnostics)
        shapes = None
        if options.learn_shapes:
            from ..fonts.shapevote import learn

            shapes = learn(doc, Resolver(doc)).entries
    return FileResult(rec, fonts, per_page, shapes)


def page_record(path: str, sha: str | None, doc: Document, n: int) -> dict:
    """The ``pages`` record of page ``n``: its glyphs and what their text is made of."""
    confidence: Counter[str] = Counter()
    glyphs = chars = unmapped = fffd = private_use = control = 0
    ref = doc.page_ref(n)
    records, seen = page_visibility(doc, ref, Resolver.of(doc), FontCache.of(doc)) if ref is not None else ([], [])
    for r in records:
        glyphs += 1
        text = r.unicode
        chars += len(text)
        unmapped += not r.resolution.spec_unicode
        confidence[r.resolution.confidence] += 1
        fffd += text.count("\ufffd")
        if not text.isprintable():  # private use and control characters are not
            categories = [unicodedata.category(c) for c in text]
            private_use += categories.count("Co")
            control += categories.count("Cc")
    return {"schema_version": SCHEMA_VERSION, "path": path, "sha256": sha, "page": n, "glyphs": glyphs,
            "chars": chars, "unmapped": unmapped, "confidence": dict(confidence), "fffd": fffd,
            "private_use": private_use, "control": control, "hidden": sum(not v.visible for v in seen)}


_SUBSET_TAG = re.compile(rb"(?<![A-Za-z])[A-Z]{6}\+")  # ABCDEF+, the tag of a subset (9.6.4)


def program_fingerprint(doc: Document, font) -> str | None:
    """SHA-256 (hex) of the font program embedded for ``font``, decoded, with its subset tags
    (``ABCDEF+``) taken out: the same program embedded by two files, each under its own random
    tag, has one fingerprint. ``None`` when nothing is embedded or it cannot be read."""
    ref = font.program_ref if font is not None else None
    obj = doc.get(ref.num, ref.gen) if ref is not None else None
    if obj is None:
        return None
    return hashlib.sha256(_SUBSET_TAG.sub(b"", doc.stream_data(obj).data)).hexdigest()


def font_record(path: str, sha: str | None, facts: FontFacts, program: str | None = None) -> dict:
    return {"schema_version": SCHEMA_VERSION, "path": path, "sha256": sha,
            "font_ref": facts.ref,
            "program_sha256": program,
            "names": sorted(n for n in facts.names if n), "subtype": facts.subtype, "base_font": facts.base_font,
            "first_page": min(facts.pages) if facts.pages else None, "pages_used": len(facts.pages),
            "codes": facts.codes, "methods": dict(facts.methods),
            "confidence": dict(facts.confidence),
            "reasons": [{"id": r.id, "count": len(r.codes), "codes": [c.hex() for c in r.codes[:EXAMPLE_CODES]],
                         "detail": r.detail} for r in facts.reasons],
            "diagnosis": facts.diagnosis}
