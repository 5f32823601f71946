"""Command-line interface. Imports no Textual unless it launches the app.

    pdfinspect FILE                      open the app
    pdfinspect -r N FILE | FILE -r N     show object N (hpdft's spelling)
    pdfinspect show FILE N [GEN]         show object N
    pdfinspect info|trailer|xref|refs|pages|objects FILE …
"""
from __future__ import annotations

import argparse
import sys

from ..core.diagnostics import PdfError
from .common import (EXIT_OK, EXIT_UNREADABLE, EXIT_USAGE, Output, add_common_options, err,
                     non_negative, open_document, page_number, pages_or_label, report_all_repairs)

# Every command lives in a module of this package, imported only when one of its commands runs
# (the content commands pull in the interpreter, fontTools, Pillow…). Each module has
# ``register(subparsers)`` and a ``cmd_<name>(args, out)`` per command; adding a command is one
# entry here.
COMMAND_MODULES = {
    "show": "objects", "info": "objects", "trailer": "objects", "xref": "objects", "refs": "objects",
    "pages": "objects", "objects": "objects", "bytes": "objects",
    "ops": "content", "glyphs": "content", "fonts": "content", "text": "content",
    "audit": "audit",
    "render": "render", "extract": "render",
    "fix": "fix",
    "check": "check",
    "structure": "structure",
    "diff": "history",
    "search": "search",
    "signatures": "signatures",
    "extractors": "extractors",
    "hidden": "hidden",
    "codes": "codes",
}
COMMANDS = tuple(COMMAND_MODULES)


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
    p.add_argument("-p", dest="text_page", type=pages_or_label, metavar="N",
                   help="print the text of page N and exit (like hpdft -p N)")
    p.add_argument("--object", type=int, help="open the app at object N")
    p.add_argument("--page", metavar="N", help="open the app at page N (a number, or a page label: xiv, label:3)")
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
        err(str(e.diagnostic))
        return EXIT_UNREADABLE
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        return 130
    finally:
        try:
            report_all_repairs()
        except BrokenPipeError:
            pass


def _dispatch(argv: list[str]) -> int:
    out = Output()
    if argv and argv[0] in COMMANDS:
        args = build_parser(only=argv[0]).parse_args(argv)
        return getattr(_load(COMMAND_MODULES[args.command]), f"cmd_{args.command}")(args, out)
    if not argv or argv[0] in ("-h", "--help"):
        build_parser().print_help() if argv else build_open_parser().print_usage(sys.stderr)
        return EXIT_OK if argv else EXIT_USAGE
    parser = build_open_parser()
    args = parser.parse_args(argv)
    if (args.step or args.glyphs) and args.page is None:
        parser.error(f"{'--step' if args.step else '--glyphs'} needs --page N")
    if args.step and args.glyphs:
        parser.error("--step and --glyphs open different screens: give one")
    if args.page is not None:  # a page label (12.4.2) names one page, as -p reads it
        args.page = int(args.page) if args.page.isdigit() else page_number(open_document(args), args.page)
    if args.num is not None:
        args.gen, args.revision, args.max_bytes = None, None, 4096
        return _load("objects").cmd_show(args, out)
    if args.text_page is not None:
        args.page = args.text_page
        return _load("content").cmd_text(args, out)
    if not sys.stdout.isatty():  # the app would draw into a file or a pipe and wait for keys
        err("stdout is not a terminal: printing the overview (pdfinspect info --quick) instead of "
             "opening the app")
        if args.page is not None:  # the page asked for must exist, as when the app opens
            doc = open_document(args)
            if doc.page_ref(args.page) is None:
                err(f"no page {args.page}: the file has {doc.page_count()} pages")
                return EXIT_USAGE
        args.quick = True
        return _load("objects").cmd_info(args, out)
    from ..tui import run_app  # the only place the CLI touches Textual

    return run_app(args.file, password=args.password, object_num=args.object, page=args.page,
                   step=args.step, glyphs=args.glyphs, images=args.images, log_path=args.log)
