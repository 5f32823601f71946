"""Convert Adobe's Registry-Ordering-UCS2 CMaps into ``cid2unicode.json.gz`` (run by hand).

Source: Adobe's ``cmap-resources`` as Debian's ``poppler-data`` ships them
(``/usr/share/poppler/cMap/<Registry-Ordering>/<Registry-Ordering>-UCS2``, BSD-3-Clause,
see ``pdfinspect/fonts/data/LICENSE-Adobe-cmap-resources.txt``). Only these Adobe-owned CMaps
are read: poppler-data's ``cidToUnicode`` tables are Glyph & Cog's (GPL-2) and are not used.

Output, per collection: the CMap's ``title`` (it names the supplement), ``runs`` and
``strings``. A run is consecutive CIDs mapping to consecutive single code points, stored as
three numbers ``gap, count, shift``: its first CID is ``gap`` after the end of the previous
run and its first code point ``shift`` after the previous run's end (deltas keep the gzip'd
file small). ``strings`` holds CIDs that map to several code points (``{cid: text}``).

usage: python tools/make_cid_data.py [CMAP_DIR]
"""
from __future__ import annotations

import gzip
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pdfinspect.fonts.cmap import parse_cmap  # noqa: E402

COLLECTIONS = ("Adobe-GB1", "Adobe-CNS1", "Adobe-Japan1", "Adobe-Korea1", "Adobe-KR")
OUT = ROOT / "pdfinspect" / "fonts" / "data" / "cid2unicode.json.gz"


def convert(path: Path) -> dict:
    data = path.read_bytes()
    title = re.search(rb"%%Title: \((.*?)\)", data)
    cmap = parse_cmap(data)
    if cmap.diagnostics:
        raise SystemExit(f"{path}: {cmap.diagnostics[0].message}")
    runs: list[list[int]] = []
    strings: dict[str, str] = {}
    for cid in range(0x10000):
        text, _entry = cmap.lookup_unicode(cid.to_bytes(2, "big"))
        if not text or text == "\ufffd":
            continue
        if len(text) != 1:
            strings[str(cid)] = text
            continue
        u = ord(text)
        last = runs[-1] if runs else None
        if last and last[0] + last[1] == cid and last[2] + last[1] == u:
            last[1] += 1
        else:
            runs.append([cid, 1, u])
    flat: list[int] = []
    end_cid = end_u = 0
    for cid, n, u in runs:
        flat += [cid - end_cid, n, u - end_u]
        end_cid, end_u = cid + n, u + n
    return {"title": title.group(1).decode("ascii") if title else path.name, "runs": flat,
            "strings": strings}


def main(cmap_dir: str = "/usr/share/poppler/cMap") -> None:
    tables = {c: convert(Path(cmap_dir) / c / f"{c}-UCS2") for c in COLLECTIONS}
    raw = json.dumps(tables, separators=(",", ":"), sort_keys=True).encode()
    with gzip.GzipFile(OUT, "wb", compresslevel=9, mtime=0) as f:  # mtime 0: the same input gives the same bytes
        f.write(raw)
    for c, t in tables.items():
        n = sum(t["runs"][1::3]) + len(t["strings"])
        print(f"{c:14} {t['title']:32} {n:6} CIDs in {len(t['runs']) // 3} runs + {len(t['strings'])} strings")
    print(f"{OUT.name}: {OUT.stat().st_size} bytes")


if __name__ == "__main__":
    main(*sys.argv[1:])
