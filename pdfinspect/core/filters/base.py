"""What every decoder in this package returns, and how it reads its /DecodeParms.

A decoder is a function ``(data, params, limit) -> Decoded``. It never raises on any
input: damage is reported in ``error`` (the step did not decode everything it was given,
or decoded it in a way the file did not ask for) and leniencies that lost nothing in
``note``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from pdfinspect.core.objects import Dict, type_name


@dataclass(frozen=True, slots=True)
class Decoded:
    """One decoder's output: the bytes, plus at most one line each of error and note.

    ``whole`` marks an error that is only a failed check of output that is otherwise
    complete (a Flate stream inflated to its end whose Adler-32 disagrees).
    """

    data: bytes
    error: str | None = None
    note: str | None = None
    whole: bool = False


Decoder = Callable[[bytes, "Dict | None", int], Decoded]


def join(*parts: str | None) -> str | None:
    """Join the non-empty message parts with ``"; "`` (``None`` when there are none)."""
    text = "; ".join(p for p in parts if p)
    return text or None


def limit_error(limit: int) -> str:
    """The error every decoder reports when its output would pass ``limit`` bytes."""
    return f"output exceeds limit of {limit} bytes"


def int_param(
    params: Dict | None, key: str, default: int, allowed: Callable[[int], bool]
) -> tuple[int, str | None]:
    """Read integer entry ``key`` of a /DecodeParms dictionary.

    Missing (or ``null``) gives ``default`` silently; a value of the wrong type or out of
    range gives ``default`` and a one-line error naming what was found.
    """
    if params is None:
        return default, None
    value = params.get(key)
    if value is None:
        return default, None
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or (isinstance(value, float) and not value.is_integer())
    ):
        return default, f"/{key} is a {type_name(value)}, not an integer; using {default}"
    if not allowed(int(value)):
        return default, f"/{key} {int(value)} is out of range; using {default}"
    return int(value), None
