"""Command-line interface. Imports no Textual unless it launches the app.

    pdfinspect FILE                      open the app
    pdfinspect -r N FILE | FILE -r N     show object N (hpdft's spelling)
    pdfinspect show FILE N [GEN]         show object N
    pdfinspect info|trailer|xref|refs|pages|objects FILE …
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from .core.diagnostics import PdfError, error
from .core.document import Document
from .core.filters import DEFAULT_LIMIT
from .core.objects import Dict, Name, Ref, Stream, type_name
from .core.parser import Parser
from .core.xref import FREE, IN_FILE
from .present.objects import object_header, object_lines, trailer_header
from .present.streams import LEXERS, StreamHeader, stream_kind
from .present.summary import document_summary
from .present.text import bytes_as_text, hexdump, looks_like_text, safe_line

CORE_COMMANDS = ("show", "info", "trailer", "xref", "refs", "pages", "objects")
# Commands that live in their own modules, imported only when one of them runs (they pull in
# the interpreter, fontTools, Pillow…). Each module has ``register(subparsers)`` and a
# ``cmd_<name>(args, out)`` per command; adding a command is one entry here.
COMMAND_MODULES = {
    "ops": "cli_content", "glyphs": "cli_content", "fonts": "cli_content", "text": "cli_content",
    "audit": "cli_audit",
    "render": "cli_render", "extract": "cli_render",
    "fix": "cli_fix",
    "check": "cli_check",
}
COMMANDS = CORE_COMMANDS + tuple(COMMAND_MODULES)
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


def _err(message: str) -> None:
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
                        allow_locked=allow_locked)
    _opened.append([doc, 0])
    revision = getattr(args, "revision", None)
    if revision is not None and not 0 <= revision < len(doc.revisions):
        raise PdfError(error("revision-missing", f"no revision {revision} (the document has "
                                                 f"{len(doc.revisions)}, numbered from 0)"))
    return doc


def page_of(doc: Document, n: int) -> Ref:
    """Page ``n`` (1-based) of ``doc``, or the one-line error every page command gives."""
    ref = doc.page_ref(n)
    if ref is None:
        raise PdfError(error("page-missing", f"no page {n} (the document has {doc.page_count()})"))
    return ref


def dump_json(value) -> None:
    """``value`` as indented ASCII JSON on stdout, ending with a newline."""
    json.dump(value, sys.stdout, indent=1, ensure_ascii=True)
    sys.stdout.write("\n")


def _report_repairs(doc: Document, quiet: bool = False) -> None:
    """Every repair and warning met while running the command goes to stderr, each once
    (``quiet``: the command printed them itself; mark them reported)."""
    for seen in _opened:
        if seen[0] is doc:
            break
    else:
        seen = [doc, 0]
        _opened.append(seen)
    for d in doc.diagnostics[seen[1]:] if not quiet else ():
        _err(str(d))
    seen[1] = len(doc.diagnostics)


def _report_all_repairs() -> None:
    for doc, _ in list(_opened):
        _report_repairs(doc)
    _opened.clear()


# -- commands ------------------------------------------------------------------------------
def cmd_show(args, out: Output) -> int:
    doc = open_document(args)
    header, obj = object_header(doc, args.num, args.gen, args.revision)
    if obj is None:
        _err(header.missing)
        return EXIT_UNREADABLE
    if args.raw and not sys.stdout.isatty():  # into a pipe or a file: the bytes themselves
        sys.stdout.flush()
        sys.stdout.buffer.write(doc.raw_bytes(obj))
        return EXIT_OK
    out.line(f"% {header.detail}")
    if args.raw:
        raw = doc.raw_bytes(obj)
        if looks_like_text(raw):
            out.pdf(bytes_as_text(raw))
        else:
            out.line(hexdump(raw))
        return EXIT_OK
    out.pdf("\n".join([header.title] + [line.text for line in object_lines(obj.value, limit=None)]))
    if isinstance(obj.value, Stream):
        res = doc.stream_data(obj)
        kind = stream_kind(obj.value.dict, res.data)
        out.line("stream")
        out.line(f"% {StreamHeader(False, len(obj.value.raw), res, kind).line}")
        if res.error:
            _err(f"object {obj.num} {obj.gen}: {res.error} (data offset {obj.value.data_offset}); "
                 "showing partial data")
        if kind == "hex":
            out.line(hexdump(res.data, limit=args.max_bytes))
        elif kind in LEXERS:
            out.pdf(bytes_as_text(res.data), LEXERS[kind])
        else:
            out.line(bytes_as_text(res.data))
        out.line("endstream")
    out.line("endobj")
    return EXIT_OK


def cmd_trailer(args, out: Output) -> int:
    doc = open_document(args)
    header, trailer = trailer_header(doc, args.revision)
    if header.detail:
        out.line(f"% {header.detail}")
    out.pdf("\n".join([header.title] + [line.text for line in object_lines(trailer, limit=None)]))
    _report_repairs(doc)
    return EXIT_OK


def cmd_info(args, out: Output) -> int:
    doc = open_document(args, allow_locked=True)  # without the password: the declared encryption facts
    if not args.quick:
        total = len(doc.object_numbers())
        with progress("parsing objects") as tick:
            for done, _ in enumerate(doc.iter_objects(cache=False), 1):  # every repair gets listed
                if tick is not None and done % 500 == 0:
                    tick(done, total)
    summary = document_summary(doc, doc.object_numbers())
    follow = {"Encryption": summary.security, "Revisions": summary.revisions}
    for fact in summary.facts:
        out.line(f"{fact.label + ': ':<13}{fact.value}")
        for line in follow.get(fact.label, ()):
            out.line(f"  {line}")
    for label, found in (("Repairs", summary.repairs), ("Warnings", summary.warnings)):
        out.line(f"{label + ':':<13}{len(found) or 'none'}")
        for d in found:
            out.line(f"  {safe_line(str(d))}")
    _report_repairs(doc, quiet=True)  # listed above: not again on stderr
    if doc.locked:
        _err("the file is encrypted and the password does not open it: give it with --password")
        return EXIT_UNREADABLE
    return EXIT_OK


def cmd_xref(args, out: Output) -> int:
    doc = open_document(args)
    bad = 0
    for r in doc.revisions:
        ch = doc.revision_changes(r.index) if r.index > 0 else None
        out.line(f"revision {r.index}: startxref {r.startxref}, "
                 f"{'+'.join(s.kind for s in r.sections) or 'reconstructed'}")
        if ch:
            out.line(f"  added {len(ch.added)}, changed {len(ch.changed)}, freed {len(ch.freed)}, "
                     f"re-listed {len(ch.relisted)}")
        for num in sorted(r.entries):
            e = r.entries[num]
            note = ""
            if args.check and e.kind == IN_FILE:
                p = Parser(doc.buf, e.a).parse_indirect() if 0 <= e.a < doc.size else None
                if p is None or p.num != num:
                    found = doc.scan_offset(num)
                    note = f"  WRONG: object starts at {found}" if found is not None else "  WRONG: object not found"
                    bad += 1
                else:
                    note = "  ok"
            flag = "f" if e.kind == FREE else ("n" if e.kind == IN_FILE else "c")
            out.line(f"  {num:>7} {flag} {e.describe()}{note}")
    if args.check:
        out.line(f"checked: {bad} wrong offset(s)")
    _report_repairs(doc)
    return EXIT_OK


def cmd_refs(args, out: Output) -> int:
    doc = open_document(args)
    refs = 0
    with progress("looking for references") as tick:
        for b in doc.iter_backrefs(args.num, tick):  # printed as the scan finds them
            refs += 1
            out.line(safe_line(str(b)))
            sys.stdout.flush()
    if not refs:
        _err(f"no object refers to object {args.num}")
    return EXIT_OK


def cmd_pages(args, out: Output) -> int:
    doc = open_document(args)
    for i, ref in enumerate(doc.page_refs(), 1):
        out.line(f"{i:>5}  {ref}")
    _report_repairs(doc)
    return EXIT_OK


def cmd_objects(args, out: Output) -> int:
    doc = open_document(args)
    if args.json:
        from .core.qpdfjson import write_document_json

        write_document_json(doc, sys.stdout, decode=args.decode, revision=args.revision)
    else:
        entries = doc.xref(args.revision)
        for obj in doc.iter_objects(args.revision, cache=False):
            v = obj.value
            d = v.dict if isinstance(v, Stream) else v
            typ = d.get("Type") if isinstance(d, Dict) else None
            sub = d.get("Subtype") if isinstance(d, Dict) else None
            desc = " ".join("/" + safe_line(str(x)) for x in (typ, sub) if isinstance(x, Name))
            where = entries[obj.num].describe()
            out.line(f"{obj.num:>7} {obj.gen:<3} {type_name(v):<10} {desc:<28} {where}")
    _report_repairs(doc)
    return EXIT_OK


# -- argument parsing -------------------------------------------------------------------------
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
    p.add_argument("--decode-limit", type=non_negative(), metavar="MB",
                   help=f"stop decoding a stream after MB megabytes (default {DEFAULT_LIMIT >> 20})")


def _load(module: str):
    import importlib

    return importlib.import_module(f"{__package__}.{module}")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command; with ``only``, the core commands and just the module
    that defines ``only``: the other modules (interpreter, fontTools…) cost start-up time."""
    p = argparse.ArgumentParser(
        prog="pdfinspect", usage="pdfinspect COMMAND FILE [options]  |  pdfinspect FILE [-r N | -p N | "
        "--object N | --page N [--step | --glyphs]]",
        description="Inspect PDF internals: objects, streams, revisions, content operators and glyph "
                    "resolution. 'pdfinspect FILE' opens the interactive app; -r N prints object N and "
                    "-p N the text of page N (as hpdft does). 'pdfinspect COMMAND -h' shows a command's "
                    "options.",
        epilog="examples: pdfinspect -r 66 file.pdf | pdfinspect glyphs file.pdf -p 1 --path | "
               "pdfinspect refs file.pdf 66 | pdfinspect objects file.pdf --json --decode")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    s = sub.add_parser("show", help="show one object (with its stream decoded)")
    s.add_argument("file")
    s.add_argument("num", type=int)
    s.add_argument("gen", type=int, nargs="?")
    s.add_argument("--raw", action="store_true", help="the object's bytes as stored in the file (into a "
                   "pipe: the bytes themselves; on a terminal: text or a hex dump)")
    s.add_argument("--revision", type=int, help="as of revision K (0 = oldest)")
    s.add_argument("--max-bytes", type=non_negative(), default=4096, help="cap on hex-dumped bytes (default 4096)")
    add_common_options(s)

    for name, helptext in (("trailer", "show the trailer dictionary"),
                           ("pages", "list pages: page number → page object")):
        s = sub.add_parser(name, help=helptext)
        s.add_argument("file")
        if name == "trailer":
            s.add_argument("--revision", type=int, help="trailer of revision K (0 = oldest)")
        add_common_options(s)

    s = sub.add_parser("info", help="version, producer, encryption, pages, revisions, repairs")
    s.add_argument("file")
    s.add_argument("--quick", action="store_true",
                   help="read only the xref and trailer (repairs inside objects are then not listed)")
    add_common_options(s)

    s = sub.add_parser("xref", help="every revision's cross-reference entries")
    s.add_argument("file")
    s.add_argument("--check", action="store_true", help="compare each offset with where the object starts")
    add_common_options(s)

    s = sub.add_parser("refs", help="every object that refers to object N, with key paths")
    s.add_argument("file")
    s.add_argument("num", type=int)
    add_common_options(s)

    s = sub.add_parser("objects", help="list every object; --json for qpdf's JSON v2 layout")
    s.add_argument("file")
    s.add_argument("--json", action="store_true", help="qpdf JSON v2 (qpdf --json=2 --json-key=qpdf)")
    s.add_argument("--decode", action="store_true", help="decode streams with generalized filters")
    s.add_argument("--revision", type=int, help="as of revision K (0 = oldest)")
    add_common_options(s)
    wanted = COMMAND_MODULES.values() if only is None else \
        [COMMAND_MODULES[only]] if only in COMMAND_MODULES else []
    for module in dict.fromkeys(wanted):
        _load(module).register(sub)
    return p


def build_open_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="pdfinspect",
        usage="pdfinspect [-h] FILE [-r N | -p N] [--object N] [--page N [--step | --glyphs]] "
              "[--password PW] [--log FILE]\n"
              "       pdfinspect COMMAND FILE … (commands: " + ", ".join(COMMANDS) + ")",
        description="Open FILE in the interactive inspector, or with -r N print object N and exit. "
                    "With no terminal on stdout (pdfinspect FILE > out.txt) print the overview "
                    "(pdfinspect info --quick FILE) instead. "
                    "Run 'pdfinspect COMMAND -h' for a command's options.")
    p.add_argument("file")
    p.add_argument("-r", dest="num", type=int, help="print object N and exit (like hpdft -r N)")
    p.add_argument("--raw", action="store_true", help="with -r: the object's bytes as stored")
    p.add_argument("-p", dest="text_page", type=int, metavar="N",
                   help="print the text of page N and exit (like hpdft -p N)")
    p.add_argument("--object", type=int, help="open the app at object N")
    p.add_argument("--page", type=int, help="open the app at page N")
    p.add_argument("--step", action="store_true", help="with --page: open the content stepper")
    p.add_argument("--glyphs", action="store_true", help="with --page: open the glyph inspector")
    p.add_argument("--images", choices=("auto", "halfblock", "kitty", "sixel", "none"), default="auto",
                   help="how the page preview (key i) is drawn: half-block characters work everywhere; kitty "
                        "and sixel draw sharper pictures with the optional textual-image (pdfinspect[images]); "
                        "auto asks the terminal (half-blocks under tmux); none turns it off (default auto)")
    p.add_argument("--log", metavar="FILE", help="append the traceback of any failure in the app to FILE")
    add_common_options(p)
    return p


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        return _dispatch(argv)
    except PdfError as e:
        _err(str(e.diagnostic))
        return EXIT_UNREADABLE
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        return 130
    finally:
        try:
            _report_all_repairs()
        except BrokenPipeError:
            pass


def _dispatch(argv: list[str]) -> int:
    out = Output()
    if argv and argv[0] in COMMANDS:
        args = build_parser(only=argv[0]).parse_args(argv)
        if args.command in COMMAND_MODULES:
            return getattr(_load(COMMAND_MODULES[args.command]), f"cmd_{args.command}")(args, out)
        return globals()[f"cmd_{args.command}"](args, out)
    if not argv or argv[0] in ("-h", "--help"):
        build_parser().print_help() if argv else build_open_parser().print_usage(sys.stderr)
        return EXIT_OK if argv else EXIT_USAGE
    parser = build_open_parser()
    args = parser.parse_args(argv)
    if (args.step or args.glyphs) and args.page is None:
        parser.error(f"{'--step' if args.step else '--glyphs'} needs --page N")
    if args.step and args.glyphs:
        parser.error("--step and --glyphs open different screens: give one")
    if args.num is not None:
        args.gen, args.revision, args.max_bytes = None, None, 4096
        return cmd_show(args, out)
    if args.text_page is not None:
        from . import cli_content

        args.page = args.text_page
        return cli_content.cmd_text(args, out)
    if not sys.stdout.isatty():  # the app would draw into a file or a pipe and wait for keys
        _err("stdout is not a terminal: printing the overview (pdfinspect info --quick) instead of "
             "opening the app")
        if args.page is not None:  # the page asked for must exist, as when the app opens
            doc = open_document(args)
            if doc.page_ref(args.page) is None:
                _err(f"no page {args.page}: the file has {doc.page_count()} pages")
                return EXIT_USAGE
        args.quick = True
        return cmd_info(args, out)
    from .tui import run_app  # the only place the CLI touches Textual

    return run_app(args.file, password=args.password, object_num=args.object, page=args.page,
                   step=args.step, glyphs=args.glyphs, images=args.images, log_path=args.log)
