"""Predefined CMaps (ISO 32000-1 9.7.5.2, Table 118) and Registry-Ordering-UCS2 maps (9.10.2).

Data: pdfminer.six's packaged conversion of Adobe's CMap resources
(``pdfminer/cmap/*.json.gz``, read as JSON exactly as ``pdfminer.cmapdb`` does, never
unpickled). Two losses in that conversion matter here and are made visible:

- The tables are code → CID tries without the original ``codespacerange``; the codespace
  is rebuilt from the codes present (per code length, runs of first bytes, each later byte
  spanning its smallest and largest value), so a code in a gap of the original range is
  reported as outside the codespace rather than mapped to ``notdef``.
- ``notdefrange`` entries are not kept, so such codes have no CID here.

CID → Unicode (9.10.2 step 3) for the five public collections Adobe-GB1, -CNS1, -Japan1,
-Korea1 and -KR comes from Adobe's newer ``<Registry>-<Ordering>-UCS2`` CMaps, converted by
``tools/make_cid_data.py`` into ``data/cid2unicode.json.gz`` (BSD-3-Clause, licence beside it):
pdfminer.six's tables stop earlier (Japan1 at 15,117 CIDs of 23,060) and lack Adobe-KR.
pdfminer.six's ``to-unicode-<Registry>-<Ordering>`` files still give the vertical-writing
overrides, CIDs of vertical variants mapped to the rotated character (CID 736, "→"
horizontally, is "↑" vertically).
"""
from __future__ import annotations

import gzip
import json
from collections import defaultdict
from functools import lru_cache
from pathlib import Path
from typing import Callable

from . import pdfminerdata
from .cmap import CMap, CodespaceRange, Entry, identity_cmap

_UCS2 = Path(__file__).resolve().parent / "data" / "cid2unicode.json.gz"


def _load(name: str) -> dict | None:
    # Names come from PDF files: accept only plain resource names, no path separators.
    if not name or "/" in name or "\\" in name or "\0" in name or name.startswith("."):
        return None
    path = _pdfminer_cmaps() / f"{name}.json.gz"
    if not path.is_file():
        return None
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return json.load(f)


@lru_cache(maxsize=1)
def _pdfminer_cmaps() -> Path:
    """pdfminer.six's CMap folder (found, not imported: :mod:`.pdfminerdata`)."""
    return Path(pdfminerdata.folder()).resolve() / "cmap"


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


@lru_cache(maxsize=1)
def _ucs2_tables() -> dict:
    with gzip.open(_UCS2, "rt", encoding="utf-8") as f:
        return json.load(f)


@lru_cache(maxsize=8)
def _horizontal(collection: str) -> dict[int, str] | None:
    table = _ucs2_tables().get(collection)
    if table is None:
        return None
    out: dict[int, str] = {}
    runs = table["runs"]
    cid = u = 0
    for i in range(0, len(runs), 3):
        cid, u = cid + runs[i], u + runs[i + 2]
        for k in range(runs[i + 1]):
            out[cid + k] = chr(u + k)
        cid, u = cid + runs[i + 1], u + runs[i + 1]
    out.update((int(c), text) for c, text in table["strings"].items())
    return out


@lru_cache(maxsize=16)
def cid_to_unicode(registry: str, ordering: str,
                   vertical: bool = False) -> Callable[[int], str | None] | None:
    """CID → Unicode for a public character collection (Adobe-GB1, -CNS1, -Japan1, -Korea1, -KR)."""
    by_cid = _horizontal(f"{registry}-{ordering}")
    if by_cid is None:
        return None
    if vertical:
        data = _load(f"to-unicode-{registry}-{ordering}")
        h, v = (data.get("CID2UNICHR_H"), data.get("CID2UNICHR_V")) if data else (None, None)
        if isinstance(h, dict) and isinstance(v, dict):
            by_cid = {**by_cid, **{int(c): t for c, t in v.items() if h.get(c) != t}}
    return by_cid.get
