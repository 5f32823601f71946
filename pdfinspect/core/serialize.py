"""Write objects back as PDF syntax (ISO 32000 7.3), losslessly and terminal-safe.

Literal strings keep their bytes: anything outside printable ASCII is written as an
octal escape, so the output is valid PDF and no control character reaches a terminal.
"""
from __future__ import annotations

from .objects import Array, Dict, Keyword, Name, Ref, Stream, String

_NAME_PLAIN = frozenset(range(0x21, 0x7F)) - frozenset(b"()<>[]{}/%#")
_LITERAL_ESC = {0x28: b"\\(", 0x29: b"\\)", 0x5C: b"\\\\", 0x0A: b"\\n", 0x0D: b"\\r", 0x09: b"\\t",
                0x08: b"\\b", 0x0C: b"\\f"}


def format_name(name: str) -> str:
    raw = name.encode("latin-1", "replace")
    return "/" + "".join(chr(b) if b in _NAME_PLAIN else f"#{b:02X}" for b in raw)


def format_string(s: String) -> str:
    if s.hex:
        return "<" + s.value.hex() + ">"
    out = []
    for b in s.value:
        esc = _LITERAL_ESC.get(b)
        if esc is not None:
            out.append(esc.decode())
        elif 0x20 <= b < 0x7F:
            out.append(chr(b))
        else:
            out.append(f"\\{b:03o}")
    return "(" + "".join(out) + ")"


def is_whole(v: float) -> bool:
    """True for a real that is a whole number small enough to write exactly; False for
    infinity and NaN, which an overlong real in the file (or arithmetic on one) gives."""
    return abs(v) < 1e15 and v == int(v)


def format_number(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if is_whole(v):
        return f"{int(v)}.0"
    text = f"{v:.10f}".rstrip("0")
    return text if text[-1] != "." else text + "0"


def format_rounded(v) -> str:
    """A number for a state display: reals rounded to 4 decimals, whole ones without ``.0``."""
    if isinstance(v, float):
        r = round(v, 4)
        return str(int(r)) if is_whole(r) else format_number(r)
    return str(v)


def format_matrix(m) -> str:
    """A matrix (CTM, Tm …) as a PDF array of rounded numbers; ``—`` when there is none."""
    return "—" if m is None else "[" + " ".join(format_rounded(float(x)) for x in m) + "]"


def format_object(value, indent: int = 0, width: int = 88) -> str:
    """Pretty-print ``value`` as PDF syntax; short containers stay on one line."""
    flat = _flat(value)
    if flat is not None and len(flat) + indent <= width:
        return flat
    pad = "  " * (indent + 1)
    if isinstance(value, Stream):
        value = value.dict
    if isinstance(value, Dict):
        lines = ["<<"]
        for k, v in value.items():
            lines.append(f"{pad}{format_name(k)} {format_object(v, indent + 1, width)}")
        lines.append("  " * indent + ">>")
        return "\n".join(lines)
    if isinstance(value, Array):
        lines = ["["]
        for v in value:
            lines.append(pad + format_object(v, indent + 1, width))
        lines.append("  " * indent + "]")
        return "\n".join(lines)
    return flat or ""


def _flat(value) -> str | None:
    if value is None:
        return "null"
    if isinstance(value, (bool, int, float)):
        return format_number(value)
    if isinstance(value, Name):
        return format_name(value)
    if isinstance(value, String):
        return format_string(value)
    if isinstance(value, Ref):
        return f"{value.num} {value.gen} R"
    if isinstance(value, Keyword):
        return value.value.decode("latin-1").encode("ascii", "backslashreplace").decode()
    if isinstance(value, Stream):
        value = value.dict
    if isinstance(value, Dict):
        if not value:
            return "<< >>"
        parts = []
        for k, v in value.items():
            f = _flat(v)
            if f is None or "\n" in f:
                return None
            parts.append(f"{format_name(k)} {f}")
        return "<< " + " ".join(parts) + " >>"
    if isinstance(value, Array):
        parts = []
        for v in value:
            f = _flat(v)
            if f is None:
                return None
            parts.append(f)
        return "[" + " ".join(parts) + "]"
    if isinstance(value, (bytes, bytearray)):
        return "<" + bytes(value).hex() + ">"
    return repr(value)
