"""The interpretation budget: how much work one command (or one API call) spends on a file.

Hostile files make little input do much work: a form that draws another form ten times,
nested six levels, runs a million operators; a few KB of Flate inflate to gigabytes; one
``TJ`` string shows millions of glyphs. Every limit lives here, and a run that reaches one
stops with one line naming what ran out (:func:`spent`).

Per page run (the interpreter, :func:`pdfinspect.content.interpreter.iter_steps`, and the
font scan of :mod:`pdfinspect.content.usage`): operators, decoded content bytes (page,
forms, appearances and glyph procedures together), form / appearance / Type3 procedure
invocations (counted each time they run, so fan-out counts, not only depth) and glyphs.
Per :class:`~pdfinspect.core.document.Document` (one command of the CLI): the decoded bytes
of every stream together, so forty Flate bombs stop as one does, and the pages a command that
reads the whole document interprets (a document of 10⁵ pages is 4 minutes of ``text``).

``--budget N`` on the commands multiplies every limit by ``N`` (:meth:`Limits.scaled`).
"""
from __future__ import annotations

from dataclasses import dataclass

from .diagnostics import Diagnostic, warning

MIB = 1024 * 1024
OPERATORS = 500_000  # per page run: 5–20 s of `ops` output on a busy machine
CONTENT_BYTES = 128 * MIB  # per page run: decoded content of the page and what it draws
INVOCATIONS = 10_000  # per page run: forms, appearance streams and glyph procedures run
GLYPHS = 1_000_000  # per page run
DECODED_BYTES = 2048 * MIB  # per Document (per command): every stream decoded, together
PAGES = 5_000  # per command: pages a whole-document command (text, hidden, fonts) reads


@dataclass(slots=True)
class Budget:
    """What is left of one page run's limits; ``stopped`` is the line saying what ran out
    (``None`` while nothing has)."""

    operators: int = OPERATORS
    content_bytes: int = CONTENT_BYTES
    invocations: int = INVOCATIONS
    glyphs: int = GLYPHS
    stopped: str | None = None
    halted: bool = False  # the run must end (content bytes running out only cut the stream decoded)
    content_limit: int = 0  # content_bytes as it started, for the message

    def __post_init__(self) -> None:
        self.content_limit = self.content_bytes

    def take_bytes(self) -> int:
        """The decode limit for the next content stream: what is left of the byte budget."""
        return max(self.content_bytes, 0)

    def spend_bytes(self, n: int, cut: bool, what: str) -> None:
        """``n`` bytes of ``what`` were decoded; ``cut``: its decoding stopped early."""
        self.content_bytes -= n
        if cut and self.content_bytes <= 0:
            self.stop("decoded content byte", self.content_limit, f"decoding {what}", halt=False)

    def stop(self, what: str, limit: int, where: str, halt: bool = True) -> None:
        """Record that ``what`` ran out (the first reason wins); ``halt``: the run ends."""
        if self.stopped is None:
            self.stopped = spent(what, limit, where)
        self.halted = self.halted or halt


def pages_spent(limit: int, page: int, count: int) -> Diagnostic:
    """The ``budget-spent`` warning of a whole-document command stopped by the page budget
    before ``page`` of ``count``."""
    return warning("budget-spent", spent("page", limit, f"before page {page} of {count}"))


def spent(what: str, limit: int, where: str) -> str:
    """The one line every budget stop gives."""
    return f"stopped: the {what} budget ({limit:,}) ran out {where}; --budget N multiplies the limits by N"


@dataclass(frozen=True, slots=True)
class Limits:
    """The limits a command runs under; :meth:`budget` makes a page run's :class:`Budget`.
    ``decoded_bytes`` bounds a whole Document (``None``: only each stream's decode limit)."""

    operators: int = OPERATORS
    content_bytes: int = CONTENT_BYTES
    invocations: int = INVOCATIONS
    glyphs: int = GLYPHS
    decoded_bytes: int | None = DECODED_BYTES
    pages: int | None = PAGES

    def scaled(self, factor: float) -> "Limits":
        """Every limit times ``factor`` (``--budget``)."""
        def times(n: int) -> int:
            return max(int(n * factor), 0)
        return Limits(times(self.operators), times(self.content_bytes), times(self.invocations),
                      times(self.glyphs), None if self.decoded_bytes is None else times(self.decoded_bytes),
                      None if self.pages is None else times(self.pages))

    def budget(self) -> Budget:
        return Budget(self.operators, self.content_bytes, self.invocations, self.glyphs)


DEFAULT_LIMITS = Limits()
