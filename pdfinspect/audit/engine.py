"""``run_audit``: inputs → the files to do (minus those recorded, with ``resume``) → an engine
→ shards. Headless: progress is reported through callbacks."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from .records import FileResult, Options, audit_file
from .shards import AuditError, ShardWriter

ENGINES = ("local", "dask")


@dataclass
class AuditStats:
    inputs: int = 0
    skipped: int = 0  # already recorded (--resume)
    ok: int = 0
    failed: int = 0


def collect(inputs: Iterable[str | os.PathLike]) -> list[str]:
    """Absolute paths of the files to audit, each once: files as given, directories walked
    for ``*.pdf`` (any case), in sorted order."""
    seen: dict[str, None] = {}
    for item in inputs:
        p = Path(item)
        if p.is_dir():
            found = sorted(str(Path(root, name).absolute()) for root, _, names in os.walk(p)
                           for name in names if name.lower().endswith(".pdf"))
        elif p.exists():
            found = [str(p.absolute())]
        else:
            raise AuditError(f"{item}: no such file or directory")
        for f in found:
            seen.setdefault(f)
    return list(seen)


def run_audit(inputs: Iterable[str | os.PathLike], out: str | os.PathLike, *, fmt: str = "jsonl",
              options: Options = Options(), workers: int = 1, timeout: float | None = 60.0,
              memory_mb: int | None = 2048, resume: bool = False, engine: str = "local",
              scheduler: str | None = None, shard_size: int = 500, task=audit_file,
              on_start: Callable[[int, int], object] | None = None,
              on_result: Callable[[dict], object] | None = None, learn_shapes: str | os.PathLike | None = None,
              **engine_options) -> AuditStats:
    """Audit every input file into shards under ``out``; a file already recorded there is
    skipped when ``resume`` is true. ``task(path, options)`` is the per-file function (a
    module-level callable: it is pickled to the workers). On KeyboardInterrupt the results
    already received are written as complete shards before it propagates. ``learn_shapes``: a
    path where the glyph shapes of the files audited in this run are written as one shape table
    (:mod:`pdfinspect.fonts.shapevote`), for ``--shapes`` to use."""
    if engine not in ENGINES:
        raise AuditError(f"unknown engine {engine!r} ({' or '.join(ENGINES)})")
    paths = collect(inputs)
    table = None
    if learn_shapes is not None:
        from dataclasses import replace

        from ..fonts.shapevote import ShapeTable

        options, table = replace(options, learn_shapes=True), ShapeTable()
    writer = ShardWriter(out, fmt, resume, shard_size, settings={
        "pages": options.pages, **({"page_records": True} if options.page_records else {})})
    todo = [p for p in paths if p not in writer.done]
    stats = AuditStats(inputs=len(paths), skipped=len(paths) - len(todo))
    if on_start:
        on_start(len(todo), stats.skipped)

    def sink(result: FileResult) -> None:
        writer.add(result)
        if table is not None and result.shapes:
            for fp, texts in result.shapes.items():
                for text, (fonts, files) in texts.items():
                    table.add(fp, text, fonts, files)
        if result.file["status"] == "ok":
            stats.ok += 1
        else:
            stats.failed += 1
        if on_result:
            on_result(result.file)

    try:
        if engine == "local":
            from .pool import run_local

            run_local(todo, task, options, sink, workers=workers, timeout=timeout, memory_mb=memory_mb)
        else:
            from .cluster import run_dask

            run_dask(todo, task, options, sink, scheduler=scheduler, workers=workers, timeout=timeout,
                     memory_mb=memory_mb, **engine_options)
    finally:
        writer.close()
        if table is not None and learn_shapes is not None:
            table.save(learn_shapes)
    return stats
