"""The output directory: shards of records, written whole or not at all.

``OUT/audit.json`` records the format and schema version. Records arrive file by file and
are buffered; a flush writes ``fonts-NNNNNN.EXT`` (and ``pages-NNNNNN.EXT``) and then
``files-NNNNNN.EXT``, each to a
hidden temporary name renamed into place, so a shard is either complete or absent. The
``files`` shards are the ledger: a file is recorded when its ``files`` record is in a shard.
Opening a directory to resume removes what an interrupted run left: temporary files, and a
``fonts`` or ``pages`` shard whose ``files`` shard was never renamed in (its files are
audited again).
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Iterator

from ..core.numbers import json_encoder
from .records import FileResult
from .schema import KINDS, SCHEMA_VERSION, arrow_schema, normalize

FORMATS = {"jsonl": ".jsonl", "parquet": ".parquet"}
MANIFEST = "audit.json"


class AuditError(Exception):
    """A problem with the audit's options or output directory (one line for the user)."""


def require(module: str, extra: str):
    """Import an optional dependency, or say which extra installs it."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise AuditError(f"this needs {module.split('.')[0]}: pip install 'pdfinspect[{extra}]'") from None


def _shards(out: Path, kind: str, ext: str) -> list[Path]:
    return sorted(out.glob(f"{kind}-[0-9]*{ext}"))


def _number(path: Path) -> int:
    return int(path.stem.split("-", 1)[1])


def read_manifest(out: str | os.PathLike) -> dict:
    out = Path(out)
    try:
        manifest = json.loads((out / MANIFEST).read_text())
    except FileNotFoundError:
        raise AuditError(f"{out} holds no audit (no {MANIFEST})") from None
    except (OSError, ValueError) as e:
        raise AuditError(f"{out / MANIFEST} is unreadable: {e}") from None
    if manifest.get("schema_version") != SCHEMA_VERSION or manifest.get("format") not in FORMATS:
        raise AuditError(f"{out} was written with schema {manifest.get('schema_version')} in "
                         f"{manifest.get('format')!r}; this pdfinspect reads schema {SCHEMA_VERSION}")
    return manifest


def read_records(out: str | os.PathLike, kind: str) -> Iterator[dict]:
    """Every record of ``kind`` (``files`` or ``fonts``) in shard order, as plain JSON values."""
    out = Path(out)
    fmt = read_manifest(out)["format"]
    for shard in _shards(out, kind, FORMATS[fmt]):
        if fmt == "jsonl":
            with open(shard, encoding="utf-8") as f:
                for line in f:
                    yield normalize(json.loads(line), kind)
        else:
            pq = require("pyarrow.parquet", "parquet")
            for rec in pq.read_table(shard).to_pylist():
                yield normalize(rec, kind)


class ShardWriter:
    """Buffers results and writes them as shards of ``shard_size`` files (or whatever is
    buffered after ``flush_seconds``, so a long run keeps its work)."""

    def __init__(self, out: str | os.PathLike, fmt: str = "jsonl", resume: bool = False,
                 shard_size: int = 500, flush_seconds: float = 60.0, settings: dict | None = None):
        if fmt not in FORMATS:
            raise AuditError(f"unknown format {fmt!r} (jsonl or parquet)")
        if fmt == "parquet":
            require("pyarrow.parquet", "parquet")
        self.out, self.fmt, self.ext = Path(out), fmt, FORMATS[fmt]
        self.shard_size, self.flush_seconds = max(1, shard_size), flush_seconds
        self.done: set[str] = set()
        self._buffer: list[FileResult] = []
        self._last_flush = time.monotonic()
        self._open(resume, settings or {})

    def _open(self, resume: bool, settings: dict) -> None:
        out = self.out
        if out.exists() and not out.is_dir():
            raise AuditError(f"{out} exists and is not a directory")
        has_audit = (out / MANIFEST).exists()
        if has_audit and not resume:
            raise AuditError(f"{out} already holds an audit: add --resume to continue it, or choose "
                             "another directory")
        if resume and has_audit:
            manifest = read_manifest(out)
            if manifest["format"] != self.fmt:
                raise AuditError(f"{out} holds {manifest['format']} shards: resume with --format "
                                 f"{manifest['format']}")
            changed = {k: (manifest.get("settings", {}).get(k), v) for k, v in settings.items()
                       if manifest.get("settings", {}).get(k) != v}
            if changed:
                raise AuditError(f"{out} was audited with other settings: " + ", ".join(
                    f"{k} {a!r} (now {b!r})" for k, (a, b) in changed.items()))
            self._clean()
            self.done = {r["path"] for r in self._paths()}
        else:
            if not out.parent.is_dir():
                raise AuditError(f"folder {out.parent} does not exist (pdfinspect creates {out.name} in it, no "
                                 "other folder)")
            try:
                out.mkdir(exist_ok=True)
            except OSError as e:
                raise AuditError(f"cannot create {out}: {e.strerror or e}") from None
            self._atomic_write(out / MANIFEST, json.dumps(
                {"schema_version": SCHEMA_VERSION, "format": self.fmt, "settings": settings}, indent=1).encode())
        numbers = [_number(p) for kind in KINDS for p in _shards(out, kind, self.ext)]
        self._next = max(numbers, default=0) + 1

    def _clean(self) -> None:
        for tmp in self.out.glob(".*.tmp"):
            tmp.unlink()
        ledger = {_number(p) for p in _shards(self.out, "files", self.ext)}
        for kind in KINDS[1:]:
            for orphan in _shards(self.out, kind, self.ext):
                if _number(orphan) not in ledger:
                    orphan.unlink()

    def _paths(self) -> Iterator[dict]:
        for shard in _shards(self.out, "files", self.ext):
            if self.fmt == "jsonl":
                with open(shard, encoding="utf-8") as f:
                    yield from ({"path": json.loads(line)["path"]} for line in f)
            else:
                import pyarrow.parquet as pq

                yield from pq.read_table(shard, columns=["path"]).to_pylist()

    def add(self, result: FileResult) -> None:
        self._buffer.append(result)
        if len(self._buffer) >= self.shard_size or time.monotonic() - self._last_flush >= self.flush_seconds:
            self.flush()

    def flush(self) -> None:
        self._last_flush = time.monotonic()
        if not self._buffer:
            return
        n, results = self._next, self._buffer
        fonts = [f for r in results for f in r.fonts]
        self._write(self.out / f"fonts-{n:06d}{self.ext}", "fonts", fonts)
        pages = [p for r in results for p in r.pages]
        if pages:
            self._write(self.out / f"pages-{n:06d}{self.ext}", "pages", pages)
        self._write(self.out / f"files-{n:06d}{self.ext}", "files", [r.file for r in results])
        self.done.update(r.file["path"] for r in results)
        self._next, self._buffer = n + 1, []

    def _write(self, path: Path, kind: str, records: list[dict]) -> None:
        if self.fmt == "jsonl":
            encode = json_encoder(ensure_ascii=True)
            data = "".join(encode(normalize(r, kind)) + "\n" for r in records)
            self._atomic_write(path, data.encode("ascii"))
            return
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.Table.from_pylist([normalize(r, kind) for r in records], schema=arrow_schema(kind))
        tmp = path.with_name(f".{path.name}.tmp")
        pq.write_table(table, tmp)
        os.replace(tmp, path)

    @staticmethod
    def _atomic_write(path: Path, data: bytes) -> None:
        tmp = path.with_name(f".{path.name}.tmp")
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)

    def close(self) -> None:
        self.flush()
