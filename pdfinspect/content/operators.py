"""Operand checks against the Annex A operator table (:mod:`pdfinspect.spec.operators`).

:func:`check_operands` reports how operands do not fit their operator as messages, never
raising, like pdf.js ``EvaluatorPreprocessor``.
"""
from __future__ import annotations

from ..core.objects import Array, Dict, Name, String, is_integer, is_number
from ..spec.operators import OPERATORS, OperatorInfo

_KIND_TEST = {
    "number": is_number,
    "integer": is_integer,
    "name": lambda x: isinstance(x, Name),
    "string": lambda x: isinstance(x, String),
    "array": lambda x: isinstance(x, Array),
    "dict": lambda x: isinstance(x, Dict),
    "name-or-dict": lambda x: isinstance(x, (Name, Dict)),
}


def kind_of(value) -> str:
    """The operand kind a value satisfies best (for messages)."""
    if is_number(value):
        return "integer" if isinstance(value, int) else "number"
    for kind in ("name", "string", "array", "dict"):
        if _KIND_TEST[kind](value):
            return kind
    if value is None:
        return "null"
    return "boolean" if isinstance(value, bool) else type(value).__name__


def _expected_kinds(info: OperatorInfo, operands: list) -> list[str]:
    """Expand a signature to one kind per given operand."""
    sig = info.operands
    if sig and sig[0] == "number*":
        kinds = ["number"] * len(operands)
        if len(sig) > 1 and operands and isinstance(operands[-1], Name):
            kinds[-1] = "name"
        return kinds
    return list(sig)


# Operators whose operands are a fixed number of numbers: checked without the general path.
_FIXED_NUMBERS = {op: spec.min_args for op, spec in OPERATORS.items()
                  if spec.min_args == spec.max_args and all(k == "number" for k in spec.operands)}
_NUMBER_TYPES = (int, float)


def check_operands(op: bytes, operands: list) -> list[str]:
    """Messages describing how ``operands`` do not fit ``op``; empty when they do.

    Unknown operators give one message. Never raises.
    """
    fixed = _FIXED_NUMBERS.get(op)
    if fixed == len(operands) and all(type(x) in _NUMBER_TYPES for x in operands):
        return []
    info = OPERATORS.get(op)
    if info is None:
        return [f"unknown operator {op.decode('latin-1')!r}"]
    count = len(operands)
    messages = []
    if count < info.min_args or (info.max_args is not None and count > info.max_args):
        if info.max_args is None:
            want = f"at least {info.min_args}"
        elif info.min_args == info.max_args:
            want = str(info.min_args)
        else:
            want = f"{info.min_args} to {info.max_args}"
        messages.append(f"{info.name} takes {want} operand{'s' if want != '1' else ''}, got {count}")
        if info.operands and not info.operands[0].endswith("*"):
            return messages
    kinds = _expected_kinds(info, operands)
    # Compare from the end: the operator consumes the operands nearest to it.
    for i, (kind, value) in enumerate(zip(reversed(kinds), reversed(operands))):
        if not _KIND_TEST[kind](value):
            pos = count - i
            messages.append(f"{info.name} operand {pos} should be {kind}, got {kind_of(value)}")
    if op == b"TJ" and operands and isinstance(operands[-1], Array):
        bad = [kind_of(x) for x in operands[-1] if not (isinstance(x, String) or is_number(x))]
        if bad:
            messages.append(f"TJ array may hold only strings and numbers, got {', '.join(sorted(set(bad)))}")
    if op == b"d" and operands and isinstance(operands[0], Array):
        if not all(is_number(x) for x in operands[0]):
            messages.append("d dash array may hold only numbers")
    return messages
