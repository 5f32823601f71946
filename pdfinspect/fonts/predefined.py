"""Predefined CMaps (ISO 32000-1 9.7.5.2, Table 118) and Registry-Ordering-UCS2 maps (9.10.2).

Data: pdfminer.six's packaged conversion of Adobe's CMap resources
(``pdfminer/cmap/*.json.gz``, read as JSON exactly as ``pdfminer.cmapdb`` does, never
unpickled). Two losses in that conversion matter here and are made visible:

- The tables are code → CID tries without the original ``codespacerange``; the codespace
  is rebuilt from the codes present (per code length, runs of first bytes, each later byte
  spanning its smallest and largest value), so a code in a gap of the original range is
  reported as outside the codespace rather than mapped to ``notdef``.
- ``notdefrange`` entries are not kept, so such codes have no CID here.

``to-unicode-<Registry>-<Ordering>`` files give CID → Unicode for horizontal writing and a
second table for vertical writing in which CIDs of vertical variants map to the rotated
character (CID 736, "→" horizontally, is "↑" vertically).
"""
from __future__ import annotations

import gzip
import json
from collections import defaultdict
from functools import lru_cache
from pathlib import Path
from typing import Callable

import pdfminer

from .cmap import CMap, CodespaceRange, Entry, identity_cmap

_DATA = Path(pdfminer.__file__).resolve().parent / "cmap"


def _load(name: str) -> dict | None:
    # Names come from PDF files: accept only plain resource names, no path separators.
    if not name or "/" in name or "\\" in name or "\0" in name or name.startswith("."):
        return None
    path = _DATA / f"{name}.json.gz"
    if not path.is_file():
        return None
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def _flatten(trie: dict, prefix: bytes, out: dict[bytes, int]) -> None:
    for key, value in trie.items():
        code = prefix + bytes((int(key),))
        if isinstance(value, dict):
            _flatten(value, code, out)
        else:
            out[code] = value


def _codespace(codes) -> list[CodespaceRange]:
    """Rebuild codespace ranges from the codes present (see module docstring).

    Per code length, first bytes are grouped into runs that no first byte of another
    length interrupts (so unmapped codes inside a two-byte block still split as two
    bytes); each later byte spans the smallest to largest value seen in the run.
    """
    by_first: dict[tuple[int, int], list[bytes]] = defaultdict(list)
    for code in codes:
        by_first[(len(code), code[0])].append(code)
    firsts: dict[int, set[int]] = defaultdict(set)
    for length, first in by_first:
        firsts[length].add(first)
    ranges: list[CodespaceRange] = []
    for length in sorted(firsts):
        others = set().union(*(f for n, f in firsts.items() if n != length))
        runs: list[list[int]] = []
        for first in sorted(firsts[length]):
            if runs and others.isdisjoint(range(runs[-1][-1] + 1, first)):
                runs[-1].append(first)
            else:
                runs.append([first])
        for run in runs:
            members = [c for b in run for c in by_first[(length, b)]]
            low = bytes([run[0]] + [min(c[i] for c in members) for i in range(1, length)])
            high = bytes([run[-1]] + [max(c[i] for c in members) for i in range(1, length)])
            ranges.append(CodespaceRange(low, high))
    return ranges


@lru_cache(maxsize=32)
def predefined_cmap(name: str) -> CMap | None:
    """The predefined CMap ``name`` (``90ms-RKSJ-H``, ``UniJIS-UCS2-H``, ``Identity-V``…)."""
    if name in ("Identity-H", "Identity-V"):
        return identity_cmap(vertical=name.endswith("V"))
    data = _load(name)
    if data is None or not isinstance(data.get("CODE2CID"), dict):
        return None
    mapping: dict[bytes, int] = {}
    _flatten(data["CODE2CID"], b"", mapping)
    cmap = CMap(name)
    cmap.wmode = 1 if data.get("IS_VERTICAL") else 0
    cmap.codespace = _codespace(mapping)
    source = f"pdfminer.six cmap/{name}.json.gz"
    cmap.add_cid_chars(mapping, Entry("predefined", b"", b"", source, 0, 0))
    return cmap


def ucs2_source_name(registry: str, ordering: str) -> str:
    """The name of the CMap 9.10.2 step 3 uses, e.g. ``Adobe-Japan1-UCS2``."""
    return f"{registry}-{ordering}-UCS2"


@lru_cache(maxsize=16)
def cid_to_unicode(registry: str, ordering: str,
                   vertical: bool = False) -> Callable[[int], str | None] | None:
    """CID → Unicode for a public character collection (Adobe-GB1, -CNS1, -Japan1, -Korea1)."""
    data = _load(f"to-unicode-{registry}-{ordering}")
    if data is None:
        return None
    table = data.get("CID2UNICHR_V" if vertical else "CID2UNICHR_H")
    if not isinstance(table, dict):
        return None
    by_cid = {int(cid): text for cid, text in table.items()}
    return by_cid.get
