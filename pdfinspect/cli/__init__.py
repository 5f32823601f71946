"""The command-line front end: ``pdfinspect COMMAND FILE …`` (see :mod:`.main`).

One module per group of commands; each registers its subcommands and is imported only when one
of them runs. Only :mod:`.main` launches the app.
"""
from .main import build_parser, main

__all__ = ["build_parser", "main"]
