"""CMap parsing and lookup (ISO 32000-1 9.7.5, 9.7.6.2, 9.10.3; Adobe TN #5014, #5099).

One parser serves both kinds of CMap: CID CMaps (code → CID: ``cidchar``, ``cidrange``,
``notdefchar``, ``notdefrange``) and ToUnicode CMaps (code → UTF-16BE text: ``bfchar``,
``bfrange`` with an incrementing destination or an array of destinations). Every mapping
is an :class:`Entry` that remembers its kind, line and byte offset in the CMap data, so a
resolution path can point at the exact line. Ranges are stored as ranges, never expanded.

Defects real files have are tolerated and reported as :class:`Diagnostic` values in
``CMap.diagnostics`` (offsets are into the CMap data); the parser never raises on data.
"""
from __future__ import annotations

import re
from binascii import a2b_hex
from bisect import bisect_right
from collections import defaultdict
from dataclasses import dataclass
from itertools import accumulate
from typing import Callable

from ..core.diagnostics import Diagnostic, info, warning
from ..core.lexer import DELIM, KEYWORD, Lexer
from ..core.numbers import read_int
from ..core.objects import Name, String, is_integer
from .agl import glyph_to_unicode

Dest = bytes | tuple[str, ...] | int | str
MAX_RANGE_DEST = 512  # bytes of a bfrange destination string (Adobe TN 5014: dstString ≤ 512 bytes)
_BLOCKS = {b"codespacerange", b"bfchar", b"bfrange", b"cidchar", b"cidrange",
           b"notdefchar", b"notdefrange"}
# Operand shapes per block: "s" string, "d" bf destination, "i" integer (5014 section 7).
_SHAPES = {b"codespacerange": "ss", b"bfchar": "sd", b"bfrange": "ssd", b"cidchar": "si",
           b"cidrange": "ssi", b"notdefchar": "si", b"notdefrange": "ssi"}
_HEX_DIGIT = re.compile(rb"[0-9A-Fa-f]")
_EOL = re.compile(rb"\r\n|\r|\n")


@dataclass(frozen=True, slots=True)
class CodespaceRange:
    """Codes of ``len(low)`` bytes whose every byte lies between ``low`` and ``high`` (9.7.6.2)."""

    low: bytes
    high: bytes

    def matches(self, code: bytes) -> bool:
        return len(code) == len(self.low) and all(
            lo <= b <= hi for lo, b, hi in zip(self.low, code, self.high))


@dataclass(frozen=True, slots=True)
class Code:
    """One character code cut from a shown string; ``matched`` is False when it fit no range."""

    code: bytes
    offset: int
    matched: bool = True


@dataclass(frozen=True, slots=True)
class Entry:
    """One mapping as written: ``kind`` is the block keyword without ``begin`` (``bfrange``…).

    ``dest`` is the UTF-16BE destination bytes (``bfrange``, incremented per code), the
    decoded text (``bfchar``), a tuple of decoded texts (``bfrange`` with an array) or the
    starting CID (CID kinds). ``line`` is 1-based; ``seq`` orders definitions (later wins).
    Two kinds are not written in the CMap data: ``identity`` (Identity-H/V) and
    ``predefined`` (a packaged table; ``dest`` names its file, line and offset are 0).
    An entry found through ``usecmap`` belongs to the parent CMap's data.
    """

    kind: str
    low: bytes
    high: bytes
    dest: Dest
    line: int
    offset: int
    seq: int = 0


class _RangeIndex:
    """Ranges by code length, sorted by low end, with a running maximum of high ends so a
    lookup walks back only over ranges that can still contain the code."""

    __slots__ = ("groups",)

    def __init__(self, entries: list[Entry]):
        by_len: dict[int, list[tuple[int, int, Entry]]] = defaultdict(list)
        for e in entries:
            by_len[len(e.low)].append((int.from_bytes(e.low, "big"), int.from_bytes(e.high, "big"), e))
        self.groups = {}
        for n, items in by_len.items():
            items.sort(key=lambda t: t[0])
            self.groups[n] = ([t[0] for t in items], list(accumulate((t[1] for t in items), max)), items)

    def find(self, code: bytes) -> Entry | None:
        group = self.groups.get(len(code))
        if group is None:
            return None
        lows, max_high, items = group
        c = int.from_bytes(code, "big")
        i = bisect_right(lows, c) - 1
        best = None
        while i >= 0 and max_high[i] >= c:
            _lo, hi, e = items[i]
            if hi >= c and (best is None or e.seq > best.seq):
                best = e
            i -= 1
        return best


def decode_utf16(raw: bytes) -> tuple[str, str | None]:
    """Decode a ToUnicode destination (9.10.3: UTF-16BE); return (text, problem or None)."""
    if len(raw) == 1:
        return chr(raw[0]), "is one byte, not UTF-16BE; read as a character code"
    problem = None
    tail = ""
    if len(raw) % 2:
        problem = "has an odd number of bytes; the last byte read as a character code"
        raw, tail = raw[:-1], chr(raw[-1])
    try:
        return raw.decode("utf-16-be") + tail, problem
    except UnicodeDecodeError:
        return raw.decode("utf-16-be", errors="replace") + tail, "holds an unpaired surrogate"


class CMap:
    """A parsed CMap. Mutable only while being built by :func:`parse_cmap` or the
    predefined-CMap loader; afterwards read through ``split_codes`` and ``lookup_*``."""

    __slots__ = ("name", "cid_system_info", "wmode", "cmap_type", "codespace", "usecmap",
                 "parent", "identity", "entries", "diagnostics", "_chars", "_ranges", "_indexes")

    def __init__(self, name: str | None = None):
        self.name = name
        self.cid_system_info: dict[str, str | int] = {}
        self.wmode = 0
        self.cmap_type: int | None = None
        self.codespace: list[CodespaceRange] = []
        self.usecmap: str | None = None
        self.parent: CMap | None = None
        self.identity = False
        self.entries: list[Entry] = []
        self.diagnostics: list[Diagnostic] = []
        # kind group ("bf", "cid", "notdef") → code → (value, Entry)
        self._chars: dict[str, dict[bytes, tuple[object, Entry]]] = defaultdict(dict)
        self._ranges: dict[str, list[Entry]] = defaultdict(list)
        self._indexes: dict[str, _RangeIndex] = {}

    def __repr__(self) -> str:
        return f"<CMap {self.name or '(unnamed)'}: {len(self.entries)} entries>"

    # -- building -------------------------------------------------------------------
    def add_entry(self, entry: Entry, value: object = None) -> None:
        """Add a mapping; single-code kinds need their decoded ``value`` (text or CID)."""
        self.entries.append(entry)
        group = entry.kind.removesuffix("char").removesuffix("range")
        if entry.kind.endswith("char"):
            self._chars[group][entry.low] = (value, entry)
        else:
            self._ranges[group].append(entry)
            self._indexes.pop(group, None)

    def add_cid_chars(self, mapping: dict[bytes, int], entry: Entry) -> None:
        """Bulk-add code → CID pairs that share one provenance ``entry`` (predefined CMaps)."""
        chars = self._chars["cid"]
        for code, cid in mapping.items():
            chars[code] = (cid, entry)

    # -- reading --------------------------------------------------------------------
    def effective_codespace(self) -> list[CodespaceRange]:
        """Own ranges plus those inherited through ``usecmap``."""
        ranges = list(self.codespace)
        if self.parent is not None:
            ranges += [r for r in self.parent.effective_codespace() if r not in ranges]
        return ranges

    def split_codes(self, data: bytes, diagnostics: list[Diagnostic] | None = None) -> list[Code]:
        """Cut ``data`` into codes by codespace ranges (9.7.6.2): at each position the
        shortest length whose range matches wins. A sequence matching no range takes the
        length of the shortest range whose first byte matches, else the shortest length
        (9.7.6.3), and is reported (offsets relative to ``data``)."""
        ranges = self.effective_codespace() or [CodespaceRange(b"\x00", b"\xff")]
        by_len: dict[int, list[CodespaceRange]] = defaultdict(list)
        for r in ranges:
            by_len[len(r.low)].append(r)
        lengths = sorted(by_len)
        out: list[Code] = []
        i, n = 0, len(data)
        while i < n:
            for length in lengths:
                chunk = data[i:i + length]
                if len(chunk) == length and any(r.matches(chunk) for r in by_len[length]):
                    out.append(Code(chunk, i))
                    i += length
                    break
            else:
                first = data[i]
                partial = [len(r.low) for r in ranges if r.low[0] <= first <= r.high[0]]
                length = min(min(partial or lengths), n - i)
                out.append(Code(data[i:i + length], i, matched=False))
                if diagnostics is not None:
                    diagnostics.append(warning(
                        "code-not-in-codespace", f"bytes <{data[i:i + length].hex()}> match no "
                        f"codespace range of {self.name or 'the CMap'}; taken as a "
                        f"{length}-byte code", offset=i, clause="9.7.6.3"))
                i += length
        return out

    def _find(self, group: str, code: bytes) -> tuple[object, Entry] | None:
        hit = self._chars[group].get(code) if group in self._chars else None
        ranges = self._ranges.get(group)
        if ranges:
            index = self._indexes.get(group)
            if index is None:
                index = self._indexes[group] = _RangeIndex(ranges)
            entry = index.find(code)
            if entry is not None and (hit is None or entry.seq > hit[1].seq):
                return None, entry
        return hit

    def lookup_unicode(self, code: bytes) -> tuple[str | None, Entry | None]:
        """Text for ``code`` from bfchar/bfrange (9.10.3), with the entry that gave it."""
        found = self._find("bf", code)
        if found is None:
            return self.parent.lookup_unicode(code) if self.parent is not None else (None, None)
        value, entry = found
        if entry.kind == "bfchar":
            return value, entry  # type: ignore[return-value]
        delta = int.from_bytes(code, "big") - int.from_bytes(entry.low, "big")
        if isinstance(entry.dest, tuple):
            return (entry.dest[delta], entry) if delta < len(entry.dest) else (None, entry)
        dest = entry.dest
        assert isinstance(dest, bytes)
        # 9.10.3: the destination's last byte is incremented; carries move into the bytes
        # before it, as pdf.js does for ranges whose destinations pass xxFF.
        value_int = (int.from_bytes(dest, "big") + delta) % (1 << (8 * len(dest)))
        return decode_utf16(value_int.to_bytes(len(dest), "big"))[0], entry

    def lookup_cid(self, code: bytes) -> tuple[int | None, Entry | None]:
        """CID for ``code`` (cidchar/cidrange, then notdefchar/notdefrange, 9.7.6.3).

        A ``notdef*`` entry gives the CID of the glyph to draw for an unmapped code; every
        code of a ``notdefrange`` maps to its one CID (TN #5014 section 7.3)."""
        if self.identity:
            return (int.from_bytes(code, "big"), _IDENTITY_ENTRY) if len(code) == 2 else (None, None)
        for group in ("cid", "notdef"):
            found = self._find(group, code)
            if found is not None:
                value, entry = found
                if group == "notdef":  # every code of a notdefrange gets the one CID
                    value = entry.dest
                elif value is None:
                    value = int(entry.dest) + int.from_bytes(code, "big") - int.from_bytes(entry.low, "big")  # type: ignore[arg-type]
                return value, entry  # type: ignore[return-value]
        return self.parent.lookup_cid(code) if self.parent is not None else (None, None)


_IDENTITY_ENTRY = Entry("identity", b"\x00\x00", b"\xff\xff", 0, 0, 0)


def identity_cmap(vertical: bool = False) -> CMap:
    """Identity-H / Identity-V (9.7.5.2, Table 118): two-byte codes, CID = code."""
    cmap = CMap("Identity-V" if vertical else "Identity-H")
    cmap.identity = True
    cmap.wmode = int(vertical)
    cmap.cid_system_info = {"Registry": "Adobe", "Ordering": "Identity", "Supplement": 0}
    cmap.codespace = [CodespaceRange(b"\x00\x00", b"\xff\xff")]
    return cmap


def parse_cmap(data: bytes, resolve_usecmap: Callable[[str], CMap | None] | None = None) -> CMap:
    """Parse CMap bytes. ``resolve_usecmap(name)`` supplies the CMap named by ``usecmap``."""
    parser = _Parser(data)
    parser.run()
    cmap = parser.cmap
    if cmap.usecmap is not None:
        parent = resolve_usecmap(cmap.usecmap) if resolve_usecmap is not None else None
        if parent is None:
            cmap.diagnostics.append(warning(
                "usecmap-unresolved", f"usecmap /{cmap.usecmap} could not be resolved; its "
                "mappings are missing", offset=parser.usecmap_offset, clause="9.7.5.3"))
        cmap.parent = parent
    parser.check_code_lengths()
    return cmap


_HEX = rb"<([0-9A-Fa-f]*)>"
_WS = rb"[\t\n\x0c\r\x00 ]*"
# Fast path for the common shape of each block: only unbroken hex strings, integers and
# arrays of hex strings, no comments. Anything else goes through the token path.
_FAST = {
    b"codespacerange": re.compile(_WS + _HEX + _WS + _HEX),
    b"bfchar": re.compile(_WS + _HEX + _WS + _HEX),
    b"bfrange": re.compile(_WS + _HEX + _WS + _HEX + _WS
                           + rb"(?:" + _HEX + rb"|\[((?:" + _WS + _HEX + rb")*)" + _WS + rb"\])"),
    b"cidchar": re.compile(_WS + _HEX + _WS + rb"(\d+)(?![^\t\n\x0c\r\x00 ])"),
    b"cidrange": re.compile(_WS + _HEX + _WS + _HEX + _WS + rb"(\d+)(?![^\t\n\x0c\r\x00 ])"),
}
_FAST[b"notdefchar"] = _FAST[b"cidchar"]
_FAST[b"notdefrange"] = _FAST[b"cidrange"]
_FAST_HEX_GROUPS = {b"codespacerange": 2, b"bfchar": 2, b"bfrange": 3, b"cidchar": 1,
                    b"cidrange": 2, b"notdefchar": 1, b"notdefrange": 2}
_ARRAY_HEX = re.compile(_HEX)
_MAPPING_BLOCK = re.compile(rb"begin(?:bf|cid|notdef)(?:char|range)")
_WHITESPACE = b"\t\n\x0c\r\x00 "


class _Parser:
    def __init__(self, data: bytes):
        self.data = data
        self.cmap = CMap()
        self.lexer = Lexer(data)
        self.line_starts = [0] + [m.end() for m in _EOL.finditer(data)]
        self.usecmap_offset: int | None = None
        self.seq = 0

    def report(self, code: str, message: str, offset: int, clause: str = "9.7.5.4") -> None:
        self.cmap.diagnostics.append(warning(code, message, offset=offset, clause=clause))

    def run(self) -> None:
        stack: list = []  # (value, start, end) triples
        marks: list[tuple[int, bytes]] = []  # open [ << { : (stack depth, delimiter)
        block: tuple[bytes, int | None, int] | None = None  # (kind, count, offset)
        lexer = self.lexer
        for tok in lexer:
            if tok.kind == DELIM:
                if tok.value in (b"[", b"<<", b"{"):
                    marks.append((len(stack), tok.value))
                elif marks:
                    depth, opener = marks.pop()
                    items = [v for v, _s, _e in stack[depth:]]
                    start = stack[depth][1] if len(stack) > depth else tok.start
                    del stack[depth:]
                    if opener == b"<<":
                        pairs = zip(items[::2], items[1::2])
                        stack.append(({k: v for k, v in pairs if isinstance(k, Name)}, start, tok.end))
                    elif opener == b"[":
                        stack.append((items, start, tok.end))
                continue
            if tok.kind != KEYWORD or marks:
                stack.append((tok.value, tok.start, tok.end))
                continue
            kw = tok.value
            if kw.startswith(b"begin") and kw[5:] in _BLOCKS:
                if block is not None:
                    self.unterminated(block, kw.decode())
                    self.close(block, stack)
                count = stack[-1][0] if stack and type(stack[-1][0]) is int else None
                if count is None:
                    self.report("cmap-count-missing", f"{kw.decode()} without an entry count "
                                "before it", tok.start)
                stack.clear()
                block = (kw[5:], count, tok.start)
                if self.fast_block(block, tok.end):
                    block = None
            elif kw.startswith(b"end") and kw[3:] in _BLOCKS:
                if block is None:
                    self.report("cmap-end-unmatched", f"{kw.decode()} without a matching begin",
                                tok.start)
                else:
                    if block[0] != kw[3:]:
                        self.report("cmap-end-mismatch", f"begin{block[0].decode()} closed by "
                                    f"{kw.decode()}", tok.start)
                    self.close(block, stack)
                    block = None
                stack.clear()
            elif block is not None:
                if kw in (b"endcmap", b"end", b"CMapName", b"defineresource", b"def"):
                    self.unterminated(block, kw.decode())
                    self.close(block, stack[:-2] if kw == b"def" else stack)
                    block = None
                    stack.clear()
                    if kw == b"endcmap":
                        self.after_endcmap(tok.end)
                        break
                else:
                    self.report("cmap-unexpected-keyword", f"keyword {kw!r} inside "
                                f"begin{block[0].decode()}; ignored", tok.start)
            elif kw == b"endcmap":
                self.after_endcmap(tok.end)
                break
            else:
                if kw == b"def" and len(stack) >= 2:
                    self.define(stack[-2][0], stack[-1][0])
                elif kw == b"usecmap" and stack and isinstance(stack[-1][0], Name):
                    self.cmap.usecmap = str(stack[-1][0])
                    self.usecmap_offset = stack[-1][1]
                stack.clear()
        if block is not None:
            self.unterminated(block, "end of data")
            self.close(block, stack)
        self.cmap.diagnostics[:0] = lexer.diagnostics

    def after_endcmap(self, end: int) -> None:
        """The CMap ends at ``endcmap``, as in MuPDF (pdf-cmap-parse.c) and pdfminer.six
        (cmapdb.py): mappings after it are reported and left out."""
        m = _MAPPING_BLOCK.search(self.data, end)
        if m is not None:
            self.report("cmap-data-after-endcmap", f"{m.group().decode()} after endcmap; ignored, as "
                        "MuPDF and pdfminer.six ignore it", m.start(), "9.7.5.4")

    def unterminated(self, block: tuple[bytes, int | None, int], before: str) -> None:
        self.report("cmap-block-unterminated", f"begin{block[0].decode()} not closed before "
                    f"{before}", block[2])

    def fast_block(self, block: tuple[bytes, int | None, int], body_start: int) -> bool:
        """Read a well-formed block with one regex; False leaves it to the token path."""
        kind, count, _offset = block
        end_kw = b"end" + kind
        body_end = self.data.find(end_kw, body_start)
        if body_end < 0:
            return False
        pattern = _FAST[kind]
        items = []
        pos = body_start
        data = self.data
        while True:
            m = pattern.match(data, pos, body_end)
            if m is None:
                break
            items.append(m)
            pos = m.end()
        if data[pos:body_end].strip(_WHITESPACE):
            return False
        name = kind.decode()
        ranged = kind.endswith(b"range")
        for m in items:
            groups = m.groups()
            for g, text in enumerate(groups[:_FAST_HEX_GROUPS[kind]]):
                if text is not None and len(text) % 2:
                    self.odd_hex(m.start(g + 1) - 1, m.end(g + 1) + 1)
            low = a2b_hex(_even(groups[0]))
            high = a2b_hex(_even(groups[1])) if ranged else low
            if kind == b"codespacerange":
                self.codespace(low, a2b_hex(_even(groups[1])), m.start(1) - 1)
                continue
            last = 2 + ranged
            dest: String | list[String] | int
            if kind.startswith(b"bf"):
                if groups[last - 1] is not None:
                    dest = String(a2b_hex(_even(groups[last - 1])), True)
                else:
                    dest = [String(a2b_hex(_even(a.group(1))), True)
                            for a in _ARRAY_HEX.finditer(groups[last])]
                    for a in _ARRAY_HEX.finditer(groups[last]):
                        if len(a.group(1)) % 2:
                            self.odd_hex(m.start(last + 1) + a.start(), m.start(last + 1) + a.end())
            else:
                dest = read_int(groups[last - 1], self.cmap.diagnostics, m.start(last))
            dest_start = m.start(last) if groups[last - 1] is not None else m.start(last + 1)
            self.add(name, low, high, dest, m.start(1) - 1, dest_start - 1)
        if count is not None and count != len(items):
            self.report("cmap-count-mismatch", f"begin{name} announces {count} entries but "
                        f"holds {len(items)}", block[2])
        self.lexer.pos = body_end + len(end_kw)
        return True

    def define(self, key, value) -> None:
        cmap = self.cmap
        if not isinstance(key, Name):
            return
        if key == "CMapName" and isinstance(value, Name):
            cmap.name = str(value)
        elif key == "WMode" and isinstance(value, int):
            cmap.wmode = value
        elif key == "CMapType" and isinstance(value, int):
            cmap.cmap_type = value
        elif key == "CIDSystemInfo" and isinstance(value, dict):
            for k, v in value.items():
                if k in ("Registry", "Ordering", "Supplement"):
                    self.define(k, v)
        elif key in ("Registry", "Ordering") and isinstance(value, String):
            cmap.cid_system_info[str(key)] = value.value.decode("latin-1")
        elif key == "Supplement" and isinstance(value, int):
            cmap.cid_system_info["Supplement"] = value

    def close(self, block: tuple[bytes, int | None, int], stack: list) -> None:
        kind, count, offset = block
        shape = _SHAPES[kind]
        name = kind.decode()
        i, done = 0, 0
        while i < len(stack):
            group = stack[i:i + len(shape)]
            bad = next((j for j, (ch, item) in enumerate(zip(shape, group))
                        if not _fits(ch, item[0])), None)
            if len(group) < len(shape) or bad is not None:
                value, start, _end = stack[i + (bad or 0)]
                self.report("cmap-bad-entry", f"unexpected {value!r} in {name} block; skipped",
                            start)
                i += 1 + (bad or 0)
                continue
            self.entry(name, group)
            i += len(shape)
            done += 1
        if count is not None and count != done:
            self.report("cmap-count-mismatch", f"begin{name} announces {count} entries "
                        f"but holds {done}", offset)

    def odd_hex(self, start: int, end: int) -> None:
        self.report("cmap-odd-hex", f"hex string {self.data[start:end]!r} has an odd number "
                    "of digits; a final 0 is assumed", start, "7.3.4.3")

    def entry(self, kind: str, group: list) -> None:
        """Token path: check the hex strings, then hand the values to :meth:`add`."""
        for value, start, end in group:
            if isinstance(value, String) and value.hex and self.data[end - 1:end] != b">":
                # a CMap cut short (truncated stream): the last hex string never closes
                self.report("cmap-unterminated", f"hex string {self.data[start:end][:20]!r} is not "
                            f"closed before the end of the data; {kind} entry skipped", start, "7.3.4.3")
                return
            if isinstance(value, String) and value.hex and len(
                    self.data[start + 1:end - 1].translate(None, _WHITESPACE)) % 2:
                self.odd_hex(start, end)
        low = group[0][0].value
        if kind == "codespacerange":
            self.codespace(low, group[1][0].value, group[0][1])
            return
        high = group[1][0].value if len(group) == 3 else low
        self.add(kind, low, high, group[-1][0], group[0][1], group[-1][1])

    def add(self, kind: str, low: bytes, high: bytes, dest, start: int, dest_start: int) -> None:
        if not low:
            self.report("cmap-empty-code", f"empty source code in {kind}; skipped", start)
            return
        if low is not high and not self.range_ok(kind, low, high, start):
            return
        value: object = None
        if kind == "bfchar":
            value = dest = self.text(dest, dest_start)
        elif kind == "bfrange":
            if isinstance(dest, list):
                dest = tuple(self.text(d, dest_start) for d in dest)
                size = int.from_bytes(high, "big") - int.from_bytes(low, "big") + 1
                if len(dest) != size:
                    self.report("cmap-range-array-size", f"bfrange <{low.hex()}> <{high.hex()}> "
                                f"covers {size} codes but its array has {len(dest)} "
                                "destinations", dest_start, "9.10.3")
            elif isinstance(dest, Name):
                self.report("cmap-bad-dest", f"bfrange destination /{dest} is a name; only "
                            "bfchar may name a glyph; skipped", dest_start, "9.10.3")
                return
            else:
                if len(dest.value) > MAX_RANGE_DEST:  # each code of the range would copy it
                    self.report("cmap-dest-too-long", f"bfrange <{low.hex()}> <{high.hex()}>: destination of "
                                f"{len(dest.value):,} bytes cut to {MAX_RANGE_DEST} (the most TN 5014 allows)",
                                dest_start, "9.10.3")
                    dest = String(dest.value[:MAX_RANGE_DEST], dest.hex)
                self.text(dest, dest_start)
                dest = dest.value
                if not dest:
                    self.report("cmap-empty-dest", "bfrange with an empty destination; skipped",
                                dest_start, "9.10.3")
                    return
        elif low is high:
            value = dest
        self.seq += 1
        entry = Entry(kind, low, high, dest, bisect_right(self.line_starts, start), start, self.seq)
        self.cmap.add_entry(entry, value)

    def text(self, dest, offset: int) -> str:
        if isinstance(dest, Name):
            return glyph_to_unicode(dest).unicode
        if not isinstance(dest, String):
            self.report("cmap-bad-dest", f"destination {dest!r} is not a string", offset, "9.10.3")
            return ""
        text, problem = decode_utf16(dest.value)
        if problem:
            self.report("cmap-dest-not-utf16", f"destination <{dest.value.hex()}> {problem}",
                        offset, "9.10.3")
        return text

    def codespace(self, low: bytes, high: bytes, offset: int) -> None:
        if len(low) != len(high) or not low:
            self.report("codespace-length-mismatch", f"codespace range <{low.hex()}> "
                        f"<{high.hex()}> has ends of different lengths; skipped", offset, "9.7.6.2")
        elif any(lo > hi for lo, hi in zip(low, high)):
            self.report("codespace-reversed", f"codespace range <{low.hex()}> <{high.hex()}> "
                        "has a byte whose low end is above its high end; skipped", offset, "9.7.6.2")
        else:
            self.cmap.codespace.append(CodespaceRange(low, high))

    def range_ok(self, kind: str, low: bytes, high: bytes, offset: int) -> bool:
        where = f"{kind} <{low.hex()}> <{high.hex()}>"
        if len(low) != len(high):
            self.report("cmap-range-length-mismatch", f"{where}: ends differ in length; skipped",
                        offset)
            return False
        if high < low:
            self.report("cmap-range-reversed", f"{where}: high end below low end; skipped", offset)
            return False
        if low[:-1] != high[:-1]:
            # TN #5014 requires ranges to differ only in the last byte. pdf.js and pdfminer
            # read such ranges numerically (<00FF> <0102> is four codes); so do we.
            self.report("cmap-range-crosses-byte", f"{where}: ends differ before the last "
                        "byte; read as one numeric range, as pdf.js and pdfminer do", offset)
        return True

    def check_code_lengths(self) -> None:
        cmap = self.cmap
        lengths = {len(r.low) for r in cmap.effective_codespace()}
        if not lengths:
            if cmap.entries:
                used = sorted({len(e.low) for e in cmap.entries})
                cmap.codespace = [CodespaceRange(b"\x00" * n, b"\xff" * n) for n in used]
                cmap.diagnostics.append(info(
                    "codespace-missing", "no codespacerange; codes split by the lengths the "
                    f"mappings use ({', '.join(map(str, used))} bytes)", clause="9.7.6.2"))
            return
        outside: dict[int, list[Entry]] = defaultdict(list)
        for e in cmap.entries:
            if len(e.low) not in lengths:
                outside[len(e.low)].append(e)
        for n, entries in sorted(outside.items()):
            self.report("code-length-outside-codespace", f"{len(entries)} {entries[0].kind} "
                        f"entr{'y uses' if len(entries) == 1 else 'ies use'} {n}-byte codes, a length "
                        "no codespace range has; they can never match", entries[0].offset, "9.7.6.2")


def _even(digits: bytes) -> bytes:
    return digits + b"0" if len(digits) % 2 else digits  # 7.3.4.3


def _fits(shape: str, value) -> bool:
    if shape == "s":
        return isinstance(value, String)
    if shape == "i":
        return is_integer(value)
    return isinstance(value, (String, Name, list))
