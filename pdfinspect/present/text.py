"""Terminal-safe text: no byte from a PDF reaches the terminal as a control character.

Used by the CLI and the TUI alike. Pure functions, no Rich import (the TUI wraps the
results in ``rich.text.Text`` itself).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

Parts = list[tuple[str, str]]
"""A line as ``(text, role)`` pieces: each front end styles the roles its own way."""


@dataclass(frozen=True, slots=True)
class Row:
    """A labelled, terminal-safe value; ``label`` is ``""`` on a continuation row and
    ``role`` says how to style it (``""``: plainly)."""

    label: str
    value: str
    role: str = ""


def plain(parts: Parts) -> str:
    """The text of ``parts`` without their roles."""
    return "".join(text for text, _ in parts)

# C0 controls except TAB and LF, DEL, C1 controls, the line and paragraph separators, and every
# format character (Unicode general category Cf, as of Unicode 15): the bidi controls that
# reorder what a terminal shows (Trojan Source, CVE-2021-42574: U+061C, U+200E/F, U+202A–E,
# U+2066–9), the zero-width ones that hide it (U+200B–D, U+2060–4, the BOM U+FEFF), the soft
# hyphen, and the tag characters U+E0000–E007F.
_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\xad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e"
    "\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0000-\U000e007f]")


def _escape_char(m: re.Match) -> str:
    c = ord(m.group())
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}" if c < 0x10000 else f"\\U{c:08x}"


def safe(text: str) -> str:
    """Escape control and format characters as ``\\x1b``/``\\u202e``/``\\U000e0041``; keep TAB and LF."""
    return _UNSAFE.sub(_escape_char, text)


def safe_line(text: str) -> str:
    """Like :func:`safe`, but also escapes TAB and LF, for one-line fields."""
    return safe(text).replace("\n", "\\n").replace("\t", "\\t")


def looks_like_text(data: bytes, sample: int = 4096) -> bool:
    """True when the data reads as text: mostly printable ASCII and white space."""
    chunk = data[:sample]
    if not chunk:
        return True
    if b"\x00" in chunk:
        return False
    printable = sum(1 for b in chunk if 0x20 <= b < 0x7F or b in b"\t\r\n\x0c")
    return printable / len(chunk) >= 0.9


def bytes_as_text(data: bytes) -> str:
    """Decode as Latin-1 with CR/CRLF normalised to LF, then make terminal-safe."""
    text = data.decode("latin-1").replace("\r\n", "\n").replace("\r", "\n")
    return safe(text)


def hexdump(data: bytes, start: int = 0, width: int = 16, limit: int | None = None) -> str:
    """Classic offset / hex / ASCII dump; ``limit`` caps the number of bytes shown."""
    lines = []
    shown = data if limit is None else data[:limit]
    for off in range(0, len(shown), width):
        row = shown[off:off + width]
        hexpart = " ".join(f"{b:02x}" for b in row)
        asc = "".join(chr(b) if 0x20 <= b < 0x7F else "." for b in row)
        lines.append(f"{start + off:08x}  {hexpart:<{width * 3 - 1}}  {asc}")
    if limit is not None and len(data) > limit:
        lines.append(f"… {len(data) - limit} more bytes")
    return "\n".join(lines)
