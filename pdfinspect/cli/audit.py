"""``pdfinspect audit``: per-font reasons over a corpus, in shards; ``audit --summary OUT``.

The work is in the headless :mod:`pdfinspect.audit`; this module parses options, shows a Rich
progress bar on a terminal (stderr) and lays out the summary.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

from .common import EXIT_OK, EXIT_UNREADABLE, EXIT_USAGE, err, add_common_options, non_negative
from ..present.text import safe_line


def _pages(text: str) -> str:
    if text in ("all", "first") or (text.isdigit() and int(text) > 0):
        return text
    raise argparse.ArgumentTypeError(f"expected all, first or a page count N ≥ 1, not {text!r}")


def register(subparsers) -> None:
    s = subparsers.add_parser(
        "audit", help="audit a corpus: which files and fonts extract badly, and why (shards of records)",
        usage="pdfinspect audit PATH… -o OUT [options]  |  pdfinspect audit --summary OUT",
        description="Audit every PDF under the PATHs (directories are walked for *.pdf): one record per "
                    "file (ok or failed) and one per font with its reasons, written in shards under OUT. "
                    "Each file runs in a worker process with a time and a memory limit; a file that "
                    "overruns or kills its worker is recorded as failed and the worker replaced. Ctrl+C "
                    "keeps complete shards; --resume continues.",
        epilog="examples: pdfinspect audit corpus/ -o out --workers 2 | pdfinspect audit corpus/ -o out "
               "--resume | pdfinspect audit corpus/ -o out --engine dask --scheduler tcp://host:8786 | "
               "pdfinspect audit --summary out")
    s.add_argument("paths", nargs="*", metavar="PATH", help="PDF files or directories")
    s.add_argument("-o", "--out", metavar="OUT", help="output directory of the shards")
    s.add_argument("--summary", metavar="OUT", help="print what the audit in OUT found, and exit")
    s.add_argument("--format", choices=("jsonl", "parquet"), default="jsonl",
                   help="shard format (parquet needs pdfinspect[parquet]; default jsonl)")
    s.add_argument("--pages", type=_pages, default="all", help="all, first, or N: the first N pages (default all)")
    s.add_argument("--page-records", action="store_true",
                   help="also write a pages record per page: glyphs, characters, unmapped, U+FFFD… (slower: "
                        "it lays out every page)")
    s.add_argument("--workers", type=non_negative(int), default=os.cpu_count() or 1,
                   help="worker processes (default: one per core)")
    s.add_argument("--timeout", type=non_negative(float), default=60.0, metavar="S",
                   help="seconds per file before it is recorded as failed (default 60; 0: no limit)")
    s.add_argument("--memory", type=non_negative(int), default=2048, metavar="MB",
                   help="address space per worker in MB (default 2048; 0: no limit)")
    s.add_argument("--resume", action="store_true", help="skip the files already recorded in OUT")
    s.add_argument("--engine", choices=("local", "dask"), default="local",
                   help="local process pool, or a Dask cluster (needs pdfinspect[dask]; default local)")
    s.add_argument("--scheduler", metavar="ADDRESS",
                   help="with --engine dask: the scheduler's address (default: a LocalCluster here)")
    s.add_argument("--shard-size", type=non_negative(int), default=500, metavar="N",
                   help="files per shard (default 500; a shard is also written every minute)")
    s.add_argument("--learn-shapes", metavar="TABLE",
                   help="also learn the glyph outlines whose text the files' spec-grade mappings give, into the "
                        "shape table TABLE (JSON; .gz compressed), for --shapes of glyphs, text and fonts")
    s.add_argument("--top", type=non_negative(int), default=10, metavar="N", help="rows per summary table (default 10)")
    add_common_options(s)


def cmd_audit(args, out) -> int:
    from ..audit import AuditError, Options, run_audit, summarize
    from ..core.atomic import check_target

    try:
        if args.summary:
            if args.paths or args.out:
                raise AuditError("--summary OUT takes no PATH and no -o")
            print_summary(summarize(args.summary, args.top), out)
            return EXIT_OK
        if not args.paths or not args.out:
            err("audit: give PATH… and -o OUT (or --summary OUT); see pdfinspect audit -h")
            return EXIT_USAGE
        if args.scheduler and args.engine != "dask":
            raise AuditError("--scheduler needs --engine dask")
        if args.learn_shapes:
            check_target(args.learn_shapes)  # a folder, or a folder that is not there: refused before the audit
        options = Options(pages=args.pages, password=os.fsencode(args.password or ""),
                          page_records=args.page_records)
        progress = _Progress(sys.stderr.isatty())
        start = time.monotonic()
        try:
            with progress:
                stats = run_audit(args.paths, args.out, fmt=args.format, options=options,
                                  workers=max(1, args.workers), timeout=args.timeout or None,
                                  memory_mb=args.memory or None, resume=args.resume, engine=args.engine,
                                  scheduler=args.scheduler, shard_size=max(1, args.shard_size),
                                  on_start=progress.start, on_result=progress.advance,
                                  learn_shapes=args.learn_shapes)
        except KeyboardInterrupt:
            err(f"interrupted: {progress.done} files recorded in complete shards in {args.out}; "
                 "run the same command with --resume to continue")
            return 130
    except AuditError as e:
        err(str(e))
        return EXIT_UNREADABLE
    out.line(f"{stats.inputs} files: {stats.ok} audited, {stats.failed} failed, {stats.skipped} already "
             f"recorded, in {time.monotonic() - start:.1f} s; shards in {safe_line(args.out)}")
    if args.learn_shapes:
        out.line(f"shapes learned into {safe_line(args.learn_shapes)}")
    out.line(f"next: pdfinspect audit --summary {safe_line(args.out)}")
    return EXIT_OK


class _Progress:
    """A Rich progress bar on stderr (files/s, failures, ETA) when it is a terminal."""

    def __init__(self, enabled: bool):
        self.enabled, self.done, self.failed = enabled, 0, 0
        self._bar = self._task = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self._bar is not None:
            self._bar.stop()

    def start(self, total: int, skipped: int) -> None:
        if not self.enabled:
            return
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                                   TimeRemainingColumn)

        self._bar = Progress(TextColumn("audit"), BarColumn(), MofNCompleteColumn(),
                             TextColumn("{task.fields[rate]} files/s"), TextColumn("[red]{task.fields[failed]} failed"),
                             TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                             console=Console(file=sys.stderr), transient=False)
        self._task = self._bar.add_task("audit", total=total, rate="–", failed=0)
        self._bar.start()
        if skipped:
            self._bar.console.print(f"{skipped} files already recorded: skipped")

    def advance(self, record: dict) -> None:
        self.done += 1
        self.failed += record["status"] != "ok"
        if self._bar is not None:
            task = self._bar.tasks[0]
            speed = self.done / task.elapsed if task.elapsed else 0
            self._bar.update(self._task, advance=1, failed=self.failed, rate=f"{speed:.1f}")


def _shown(path: str) -> str:
    """A recorded (absolute) path, relative to the current directory when it is below it."""
    rel = os.path.relpath(path)
    path = path if rel.startswith("..") else rel
    return path if len(path) <= 60 else "…" + path[-59:]  # keep the file's name


def print_summary(s, out) -> None:
    line = out.line
    line(f"{s.files} files: {s.ok} audited ({s.pages} pages), {s.failed} failed; {s.fonts} fonts, "
         f"{s.fonts_with_reasons} with reasons; {s.programs} distinct embedded font programs")
    if s.errors:
        line("failures: " + ", ".join(f"{safe_line(k)} {n}" for k, n in s.errors))
    sections = (
        ("reason", ("fonts", "files", "codes", "programs", "of programs", "of files"), s.reasons),
        ("producer", ("files", "failed", "fonts w/ reasons"), s.producers),
        ("font", ("fonts", "w/ reasons"), s.base_fonts),
        ("worst files", ("fonts w/ reasons", "codes", "reasons"), [(_shown(r[0]), *r[1:]) for r in s.worst]),
        ("failed files", ("error", "message"), [(_shown(r[0]), *r[1:]) for r in s.failures]),
    )
    for title, columns, rows in sections:
        if rows:
            line()
            _table(line, (title, *columns), [(safe_line(str(r[0])), *r[1:]) for r in rows])
    line()
    line("explore the shards:")
    for cmd in s.explore():
        line(f"  {cmd}")


def _table(line, header: tuple, rows: list[tuple]) -> None:
    """Numbers right-aligned, text left-aligned; the first column cut at 60 characters."""
    rows = [(r[0] if len(r[0]) <= 60 else r[0][:59] + "…", *(v if isinstance(v, int) else safe_line(str(v))
                                                                for v in r[1:])) for r in rows]
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    numeric = [all(isinstance(r[i], int) for r in rows) for i in range(len(header))]

    def cells(values) -> str:
        text = [f"{v:>{w}}" if num else f"{v:<{w}}" for v, w, num in zip(values, widths, numeric)]
        return "  ".join(text).rstrip()

    line(cells(header))
    for r in rows:
        line(cells(r))
