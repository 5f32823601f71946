"""Write ``pdfinspect/fonts/data/agl.json``: the Adobe Glyph List (glyph name → characters) and
the ITC Zapf Dingbats list, as fontTools carries them (run by hand; the output is committed).

``fontTools.agl`` parses the list's text each time it is imported (about 10 ms, a tenth of
a ``glyphs`` run); :mod:`pdfinspect.fonts.agl` reads this JSON instead, when a name is first
looked up. ``tests/test_agl.py`` checks that the two agree name by name.

Source: Adobe's ``glyphlist.txt`` (https://github.com/adobe-type-tools/agl-aglfn), BSD-3-Clause,
© Adobe: ``pdfinspect/fonts/data/LICENSE-Adobe-glyph-list.txt``.

usage: python tools/make_agl_data.py
"""
from __future__ import annotations

import json
from pathlib import Path

from fontTools import agl

OUT = Path(__file__).resolve().parents[1] / "pdfinspect" / "fonts" / "data" / "agl.json"


def main() -> None:
    names = {name: "".join(map(chr, uvs)) for name, uvs in sorted(agl.LEGACY_AGL2UV.items())}
    data = {"source": "Adobe Glyph List 2.0 (glyphlist.txt) and the ITC Zapf Dingbats list (zapfdingbats.txt), "
                      "as fontTools.agl has them; BSD-3-Clause, see LICENSE-Adobe-glyph-list.txt",
            "names": names, "zapf_dingbats": agl._AGL_ZAPF_DINGBATS}
    OUT.write_text(json.dumps(data, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
