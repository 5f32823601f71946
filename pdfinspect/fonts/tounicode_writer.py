"""Write a ToUnicode CMap (ISO 32000-1 9.10.3; Adobe TN #5411 and #5014).

:func:`tounicode_cmap` turns a code → text mapping into CMap text that every reader
accepts: the header and trailer Adobe's technical notes prescribe (``/CIDInit /ProcSet
findresource``, ``12 dict``, ``/CIDSystemInfo`` Adobe-UCS-0, ``/CMapType 2``), the
codespace ranges of the font, then ``bfrange`` runs and ``bfchar`` singles in blocks of at
most 100 entries (TN #5014 section 7). A ``bfrange`` is only written where 9.10.3 makes
it unambiguous: both source codes differ in their last byte only, and the destination's
last byte is not incremented past 255. Destinations are UTF-16BE, surrogate pairs for
U+10000 and above, several code points for a ligature.

:func:`existing_mapping` reads the mappings of a parsed ToUnicode back out, so a fix can
keep what a CMap already says and only add or replace codes.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from .cmap import CMap, CodespaceRange

BLOCK = 100  # entries per begin…end block (TN #5014 section 7)
MAX_EXPANDED = 1 << 17  # codes read back from an existing CMap's ranges, at most

ONE_BYTE = (CodespaceRange(b"\x00", b"\xff"),)

_HEADER = (b"/CIDInit /ProcSet findresource begin\n"
           b"12 dict begin\n"
           b"begincmap\n"
           b"/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
           b"/CMapName /Adobe-Identity-UCS def\n"
           b"/CMapType 2 def\n")
_TRAILER = (b"endcmap\n"
            b"CMapName currentdict /CMap defineresource pop\n"
            b"end\n"
            b"end\n")


def utf16(text: str) -> bytes:
    """UTF-16BE without a BOM, surrogate pairs above U+FFFF (9.10.3)."""
    return text.encode("utf-16-be", "surrogatepass")


def in_codespace(code: bytes, codespace: Iterable[CodespaceRange]) -> bool:
    return any(r.matches(code) for r in codespace)


def tounicode_cmap(mapping: Mapping[bytes, str],
                   codespace: Iterable[CodespaceRange] = ONE_BYTE) -> bytes:
    """The CMap text for ``mapping`` (code bytes → text). Codes outside ``codespace`` and
    empty texts are not written: ask :func:`in_codespace` first to report them."""
    space = list(codespace) or list(ONE_BYTE)
    items = sorted(((code, utf16(text)) for code, text in mapping.items()
                    if text and in_codespace(code, space)),
                   key=lambda item: (len(item[0]), item[0]))
    ranges, chars = _runs(items)
    out = [_HEADER, _block("codespacerange", [f"<{r.low.hex()}> <{r.high.hex()}>" for r in space])]
    out.append(_block("bfrange", [f"<{lo.hex()}> <{hi.hex()}> <{dst.hex()}>" for lo, hi, dst in ranges]))
    out.append(_block("bfchar", [f"<{code.hex()}> <{dst.hex()}>" for code, dst in chars]))
    out.append(_TRAILER)
    return b"".join(out)


def _runs(items: list[tuple[bytes, bytes]]):
    """Split sorted (code, destination) pairs into bfrange runs (two codes or more whose
    code and destination both step by one in the last byte) and single bfchar pairs."""
    ranges: list[tuple[bytes, bytes, bytes]] = []
    chars: list[tuple[bytes, bytes]] = []
    run: list[tuple[bytes, bytes]] = []

    def flush():
        if len(run) >= 2:
            ranges.append((run[0][0], run[-1][0], run[0][1]))
        else:
            chars.extend(run)
        run.clear()

    for code, dst in items:
        if run:
            pcode, pdst = run[-1]
            if not (len(code) == len(pcode) and code[:-1] == pcode[:-1] and code[-1] == pcode[-1] + 1
                    and len(dst) == len(pdst) and dst[:-1] == pdst[:-1] and dst[-1] == pdst[-1] + 1):
                flush()
        run.append((code, dst))
    flush()
    return ranges, chars


def _block(kind: str, lines: list[str]) -> bytes:
    out = []
    for i in range(0, len(lines), BLOCK):
        chunk = lines[i:i + BLOCK]
        out.append(f"{len(chunk)} begin{kind}\n" + "\n".join(chunk) + f"\nend{kind}\n")
    return "".join(out).encode("ascii")


def existing_mapping(cmap: CMap | None) -> dict[bytes, str]:
    """Every code → text a parsed ToUnicode CMap defines (later definitions win, as in
    lookups); ranges are expanded up to :data:`MAX_EXPANDED` codes in all."""
    if cmap is None:
        return {}
    out: dict[bytes, str] = {}
    budget = MAX_EXPANDED
    chain: list[CMap] = []
    while cmap is not None and len(chain) < 8:
        chain.append(cmap)
        cmap = cmap.parent
    for layer in reversed(chain):  # a parent's mappings first, the child's override them
        for entry in sorted(layer.entries, key=lambda e: e.seq):
            if not entry.kind.startswith("bf"):
                continue
            lo, hi = int.from_bytes(entry.low, "big"), int.from_bytes(entry.high, "big")
            n = len(entry.low)
            count = min(hi - lo + 1, budget)
            budget -= max(count, 0)
            for k in range(max(count, 0)):
                code = (lo + k).to_bytes(n, "big")
                text, _ = layer.lookup_unicode(code)
                if text is not None:
                    out[code] = text
            if budget <= 0:
                return out
    return out

