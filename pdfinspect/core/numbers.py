"""Bounds on the numbers read from a PDF, in one place (ISO 32000-1 Annex C, Table C.1).

A number token may have any number of digits; Python refuses to convert an integer of more
than 4,300 (``sys.get_int_max_str_digits``) and a real with 400 digits is infinity, which
becomes NaN once multiplied by zero. Every number the lexer, the parser, the content
tokenizer, the CMap parser and the xref reader read goes through :func:`read_int` or
:func:`read_real`: a value beyond the range below is clamped to its end, with an
``number-out-of-range`` diagnostic, so no infinity or NaN ever comes out of the syntax layer.

- integers: ±``MAX_INT`` (2⁶³ − 1; Annex C's 2³¹ − 1 is too small for the offsets of files
  over 2 GB);
- reals: ±``MAX_REAL`` (3.403 × 10³⁸, Annex C's limit for reals).

Arithmetic on bounded numbers can still overflow (a product of nested ``cm`` matrices):
:func:`finite` is the check geometry applies before a value is used.
"""
from __future__ import annotations

import json
import math
from typing import Any, Callable

from .diagnostics import Diagnostic, warning

MAX_INT = (1 << 63) - 1
MAX_REAL = 3.403e38
INT_DIGITS = 18
"""Integer tokens of at most this many characters convert directly: no range check needed."""
REAL_CHARS = 38
"""Real tokens of at most this many characters are below ``MAX_REAL``: no range check needed."""


def _clamped(raw: bytes, value: float, offset: int | None, ref: tuple[int, int] | None) -> Diagnostic:
    shown = raw[:12].decode("latin-1") + ("…" if len(raw) > 12 else "")
    return warning("number-out-of-range", f"number {shown} ({len(raw)} characters) is out of range; "
                   f"read as {value:g}", offset=offset, ref=ref, clause="Annex C")


def read_int(raw: bytes, diagnostics: list[Diagnostic] | None = None, offset: int | None = None,
             ref: tuple[int, int] | None = None) -> int:
    """The integer of a digit string with an optional sign, clamped to ±MAX_INT."""
    if len(raw) <= INT_DIGITS:
        return int(raw)
    negative = raw[:1] == b"-"
    digits = raw.lstrip(b"+-").lstrip(b"0")
    if len(digits) <= 19:
        value = int(digits or b"0")
        if value <= MAX_INT:
            return -value if negative else value
    value = -MAX_INT if negative else MAX_INT
    if diagnostics is not None:
        diagnostics.append(_clamped(raw, value, offset, ref))
    return value


def read_real(raw: bytes, diagnostics: list[Diagnostic] | None = None, offset: int | None = None,
              ref: tuple[int, int] | None = None) -> float:
    """The real of a number token (digits, one point, optional sign), clamped to ±MAX_REAL."""
    value = float(raw)
    if len(raw) <= REAL_CHARS or -MAX_REAL <= value <= MAX_REAL:
        return value
    value = -MAX_REAL if value < 0 else MAX_REAL
    if diagnostics is not None:
        diagnostics.append(_clamped(raw, value, offset, ref))
    return value


def finite(*values: float) -> bool:
    """True when every value is a finite number (no infinity, no NaN)."""
    try:
        return all(math.isfinite(v) for v in values)
    except (TypeError, OverflowError):
        return False


def finite_json(value: object) -> object:
    """``value`` (JSON-ready: dicts, lists, tuples, scalars) with every float that is not finite
    replaced by ``None``: JSON has no NaN or Infinity (RFC 8259 section 6)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite_json(v) for v in value]
    return value


def json_encoder(**options: Any) -> Callable[[object], str]:
    """A ``json.JSONEncoder(**options).encode`` that writes a number that is not finite as
    ``null`` instead of NaN or Infinity, which are not JSON."""
    encode = json.JSONEncoder(allow_nan=False, **options).encode

    def safe_encode(value: object) -> str:
        try:
            return encode(value)
        except ValueError:
            return encode(finite_json(value))
    return safe_encode
