"""What every command shares: output, errors, progress, opening the document, exit codes."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from ..core.budget import DEFAULT_LIMITS, pages_spent
from ..core.diagnostics import PdfError, error
from ..core.document import Document
from ..core.filters import DEFAULT_LIMIT
from ..core.numbers import json_encoder
from ..core.objects import Ref
from ..present.text import safe_line

EXIT_OK, EXIT_UNREADABLE, EXIT_USAGE = 0, 1, 2


class Output:
    """Writes to stdout, highlighting PDF syntax with our Pygments lexers on a terminal."""

    def __init__(self, color: bool | None = None):
        self.color = sys.stdout.isatty() if color is None else color

    def line(self, text: str = "") -> None:
        sys.stdout.write(text + "\n")

    def pdf(self, text: str, lexer: str = "pdf") -> None:
        """``text`` must already be terminal-safe."""
        if self.color:
            from pygments import highlight
            from pygments.formatters import TerminalFormatter
            from pygments.lexers import get_lexer_by_name

            try:
                text = highlight(text, get_lexer_by_name(lexer), TerminalFormatter()).rstrip("\n")
            except Exception:  # a lexer problem must never hide the data
                pass
        self.line(text)


def err(message: str) -> None:
    sys.stderr.write(f"pdfinspect: {safe_line(message)}\n")


@contextmanager
def progress(what: str) -> Iterator[Callable[[int, int], None] | None]:
    """A callback ``(done, total)`` drawing a Rich progress bar on stderr while the block runs,
    or ``None`` when stderr is no terminal: pipes, logs and JSON get nothing extra. The bar
    goes when the block ends."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn(what), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    # stdout stays the output (Rich would print it above the bar, on stderr); messages written
    # to stderr meanwhile are printed above the bar
    with Progress(*columns, console=Console(stderr=True), transient=True, redirect_stdout=False) as bar:
        task = bar.add_task(what, total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)


# Documents opened by the running command, with how many of their diagnostics went to stderr:
# the dispatcher reports the rest when the command ends, whatever the command.
_opened: list[list] = []


def open_document(args, allow_locked: bool = False) -> Document:
    """Open ``args.file`` with the options every command shares."""
    limit = args.decode_limit * 1024 * 1024 if getattr(args, "decode_limit", None) else DEFAULT_LIMIT
    doc = Document.open(args.file, password=args.password or b"", decode_limit=limit,
                        allow_locked=allow_locked, limits=DEFAULT_LIMITS.scaled(getattr(args, "budget", None) or 1))
    _opened.append([doc, 0])
    revision = getattr(args, "revision", None)
    if revision is not None and not 0 <= revision < len(doc.revisions):
        raise PdfError(error("revision-missing", f"no revision {revision} (the document has "
                                                 f"{len(doc.revisions)}, numbered from 0)"))
    return doc


def page_spec(text: str) -> int | str:
    """An argparse type for ``-p``: a page number (``12``), a page label (``xiv``, ``A-3``) or
    ``label:TEXT`` (a label even when it looks like a number); :func:`page_number` decides."""
    return int(text) if text.isdigit() else text


def page_number(doc: Document, spec: int | str) -> int:
    """The physical page (1-based) that ``spec`` names. A number is the physical page when
    the document has it (``-p 1503`` is the 1503rd page); any other text, or ``label:TEXT``,
    is a page label (12.4.2) that must name exactly one page (``-p label:1503`` is the page
    a viewer numbers 1503)."""
    from ..core.pagelabels import page_labels, pages_named

    if isinstance(spec, int) or spec.isdigit():
        n = int(spec)
        if n >= 1 and doc.page_ref(n) is not None:  # descends one branch by /Count: no walk of every page
            return n
    count = doc.page_count()
    labels = page_labels(doc)
    found = pages_named(str(spec), count, lambda: labels)
    if len(found) == 1:
        return found[0]
    label = spec[6:] if isinstance(spec, str) and spec.startswith("label:") else str(spec)
    if len(found) > 1:
        raise PdfError(error("page-label-ambiguous", f"page label {label!r} names pages "
                                                     f"{', '.join(map(str, found[:10]))}: give the page number"))
    if isinstance(spec, int) or spec.isdigit():
        raise PdfError(error("page-missing", f"no page {spec} (the document has {count})"))
    raise PdfError(error("page-missing", f"no page labelled {label!r}" + (
        "" if labels else " (the document has no page labels)") + f"; the document has {count} pages"))


def page_of(doc: Document, n: int | str) -> Ref:
    """Page ``n`` (1-based, or a label: see :func:`page_number`) of ``doc``, or the one-line
    error every page command gives."""
    ref = doc.page_ref(page_number(doc, n))
    if ref is None:
        raise PdfError(error("page-missing", f"no page {n} (the document has {doc.page_count()})"))
    return ref


def dump_json(value) -> None:
    """``value`` as indented ASCII JSON on stdout, ending with a newline (a number that is
    not finite as null: JSON has no NaN or Infinity)."""
    sys.stdout.write(json_encoder(indent=1, ensure_ascii=True)(value) + "\n")


def report_repairs(doc: Document, quiet: bool = False) -> None:
    """Every repair and warning met while running the command goes to stderr, each once
    (``quiet``: the command printed them itself; mark them reported)."""
    for seen in _opened:
        if seen[0] is doc:
            break
    else:
        seen = [doc, 0]
        _opened.append(seen)
    for d in doc.diagnostics[seen[1]:] if not quiet else ():
        err(str(d))
    seen[1] = len(doc.diagnostics)


def report_all_repairs() -> None:
    for doc, _ in list(_opened):
        report_repairs(doc)
    _opened.clear()


def non_negative(kind=int):
    """An argparse type: a number of ``kind``, 0 or more (a size, a count, a time limit); the
    decoder and the pools reject values below 0 with tracebacks, argparse with a usage error."""
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"invalid {kind.__name__} value: {text!r}") from None
        if value < 0:
            raise argparse.ArgumentTypeError(f"must be 0 or more, not {text}")
        return value
    return parse


def add_common_options(p: argparse.ArgumentParser) -> None:
    """Options every command takes."""
    p.add_argument("--password", default="", help="user or owner password (default: empty)")
    p.add_argument("--budget", type=non_negative(float), metavar="N", default=1.0,
                   help="multiply every work limit by N: operators, decoded content, form and glyph procedure "
                        "runs and glyphs per page, decoded bytes and pages read per command (pdfinspect.core.budget; default 1)")
    p.add_argument("--decode-limit", type=non_negative(), metavar="MB",
                   help=f"stop decoding a stream after MB megabytes (default {DEFAULT_LIMIT >> 20})")


def pages_arg(text: str) -> tuple[int, int | None]:
    """An argparse type: ``N``, ``A-B`` or ``A-`` (to the last page) → (first, last or ``None``), 1-based."""
    first, dash, last = text.partition("-")
    try:
        a = int(first)
        b = (int(last) if last else None) if dash else a
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a page or page range: {text!r} (use 3, 3-7 or 3-)") from None
    if a < 1 or (b is not None and b < a):
        raise argparse.ArgumentTypeError(f"not a page range: {text!r}")
    return a, b


def pages_or_label(text: str) -> tuple[int, int | None] | str:
    """``-p`` of ``text``: a page or range as :func:`pages_arg` reads it, else a page label
    (``xiv``, ``A-3``, ``label:3``) that :func:`page_number` resolves."""
    try:
        return pages_arg(text)
    except argparse.ArgumentTypeError:
        if not text.strip():
            raise
        return text


def page_numbers(doc: Document, pages: tuple[int, int | None] | None) -> Iterator[tuple[int, Ref]]:
    """(number, page) for the pages of ``pages`` (every page when ``None``); a first page past
    the end is the one-line error :func:`page_of` gives, a range's end is cut at the last page,
    and the document's page budget (:data:`pdfinspect.core.budget.PAGES`) stops the walk with a
    ``budget-spent`` warning."""
    limit = doc.limits.pages
    if pages is None:  # every page, the first before the page tree walk has found the last
        for n, _ in enumerate(doc.iter_page_refs(), 1):
            if limit is not None and n > limit:
                doc.note(pages_spent(limit, n, doc.page_count()))
                return
            yield n, page_of(doc, n)
        return
    count = doc.page_count()
    first, last = pages
    page_of(doc, first)
    for done, n in enumerate(range(first, min(last or count, count) + 1)):
        if limit is not None and done == limit:
            doc.note(pages_spent(limit, n, count))
            return
        yield n, page_of(doc, n)
