"""Diagnostics: damage and leniency reported as values, never hidden (habit 3)."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Severity(str, Enum):
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One thing that was wrong with the input, and what was done about it.

    ``code`` is a short kebab-case identifier (``xref-offset-wrong``), ``message`` one line
    of prose, ``offset`` the byte offset in the file (or in the decoded stream named by
    ``ref``), ``ref`` the object number and generation it concerns, ``clause`` the
    ISO 32000 clause that defines the rule that was broken.
    """

    severity: Severity
    code: str
    message: str
    offset: int | None = None
    ref: tuple[int, int] | None = None
    clause: str | None = None
    repair: str | None = None

    def __str__(self) -> str:
        where = []
        if self.ref is not None:
            where.append(f"object {self.ref[0]} {self.ref[1]}")
        if self.offset is not None:
            where.append(f"offset {self.offset}")
        loc = f" ({', '.join(where)})" if where else ""
        tail = f"; {self.repair}" if self.repair else ""
        return f"{self.severity.value}: {self.message}{loc}{tail}"


def warning(code: str, message: str, **kw) -> Diagnostic:
    return Diagnostic(Severity.WARNING, code, message, **kw)


def error(code: str, message: str, **kw) -> Diagnostic:
    return Diagnostic(Severity.ERROR, code, message, **kw)


def info(code: str, message: str, **kw) -> Diagnostic:
    return Diagnostic(Severity.INFO, code, message, **kw)


class PdfError(Exception):
    """Raised only when nothing at all can be read (or for caller errors).

    Carries a :class:`Diagnostic` so the CLI can print one line naming offset and object.
    """

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(str(diagnostic))
        self.diagnostic = diagnostic


class PasswordError(PdfError):
    """The file is encrypted and the given password opens it neither as user nor owner."""
