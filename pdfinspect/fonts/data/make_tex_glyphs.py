"""Convert lcdf-typetools' ``texglyphlist.txt`` into ``texglyphlist.json`` (run by hand).

Source: TeX Live's ``texmf-dist/fonts/map/glyphlist/texglyphlist.txt`` (Debian
``texlive-base``), Eddie Kohler's extension of the Adobe Glyph List for TeX fonts, the list
pdfTeX's ``glyphtounicode.tex`` is generated from. See ``LICENSE-texglyphlist.txt``.

Kept: names the AGL lacks (``flat``, ``epsilon1``, ``angbracketleft``…). Each line may give
several alternatives (``FFsmall;F766 F766,0066 0066``); the first one without private-use
or surrogate code points is kept. Names the AGL has too (``Delta;2206,0394``) are kept
under ``agl_alternatives`` with every alternative, so the resolver can flag the ambiguity.

Added (``ADDITIONS``): glyph names of the AMS/Computer Modern Type1 fonts that neither list
has, met in real files (cmex10's ``contintegral``, MuPDF's TeX table has it too).

usage: python pdfinspect/fonts/data/make_tex_glyphs.py [TEXGLYPHLIST]
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from fontTools.agl import LEGACY_AGL2UV

HERE = Path(__file__).resolve().parent
SOURCE = "/usr/share/texlive/texmf-dist/fonts/map/glyphlist/texglyphlist.txt"
OUT = HERE / "texglyphlist.json"
ADDITIONS = {"contintegral": "\u222e", "mapsto": "\u21a6"}


def _usable(points: list[int]) -> bool:
    return all(not (0xD800 <= p <= 0xDFFF or 0xE000 <= p <= 0xF8FF) for p in points)


def convert(path: str) -> dict:
    lines = Path(path).read_text(encoding="ascii").splitlines()
    version = next((ln.split(",", 1)[-1].strip() for ln in lines if "texglyphlist.txt" in ln), "")
    names: dict[str, str] = {}
    alternatives: dict[str, list[str]] = {}
    for line in lines:
        if not line.strip() or line.startswith("#"):
            continue
        name, values = line.split(";")
        options = [[int(p, 16) for p in alt.split()] for alt in values.split(",")]
        if name in LEGACY_AGL2UV:
            alternatives[name] = ["".join(map(chr, o)) for o in options if _usable(o)]
            continue
        chosen = next((o for o in options if _usable(o)), None)
        if chosen:
            names[name] = "".join(map(chr, chosen))
    for name, text in ADDITIONS.items():
        names.setdefault(name, text)
    return {"source": f"lcdf-typetools texglyphlist.txt, {version}; additions: {', '.join(ADDITIONS)}",
            "names": names, "agl_alternatives": alternatives}


def main(path: str = SOURCE) -> None:
    table = convert(path)
    OUT.write_text(json.dumps(table, ensure_ascii=False, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{OUT.name}: {len(table['names'])} names, {len(table['agl_alternatives'])} AGL names with TeX "
          f"alternatives ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main(*sys.argv[1:])
