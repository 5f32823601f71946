"""Write screenshots/*.svg: each main screen of the app on a sample file (Textual's
``save_screenshot`` inside ``run_test``). Run from anywhere:

    python screenshots/make_screenshots.py [NAME …]
"""
from __future__ import annotations

import asyncio
from pathlib import Path

from pdfinspect.core.document import Document
from pdfinspect.tui import start_target
from pdfinspect.tui.app import PdfInspectApp

HERE = Path(__file__).resolve().parent
SAMPLES = HERE.parent / "sample_pdfs"
# no sample is tagged: the Structure screen is shown on the shared corpus's LibreOffice file
TAGGED = HERE.parent.parent / "shared" / "corpus" / "libreoffice-ru-el-ja-tagged-pdfa2b.pdf"
# a two-column paper (pdf.js's test corpus) for the reading orders
TWO_COLUMNS = HERE.parent.parent / "shared" / "corpus-pdfjs" / "tracemonkey_freetext.pdf"
SIZE = (120, 36)

# (file name, sample, --object, keys pressed once the app is up)
SHOTS = [
    ("overview", "damaged-bad-offsets.pdf", None, ["x"]),
    ("browser-object", "content.pdf", 3, ["tab", "tab"]),
    ("browser-stream", "content.pdf", 4, []),
    ("browser-hex", "filters.pdf", 11, []),
    ("browser-list", "pages.pdf", None, ["b", "l"]),
    ("revisions", "incremental.pdf", None, ["v"]),
    ("search", "pages.pdf", None, ["slash", *"page", "enter"]),
    ("search-page-text", "content.pdf", None, ["slash", "ctrl+t", *"re:w?a ?ve|hello", "enter"]),
    ("help", "minimal.pdf", None, ["question_mark"]),
    ("stepper", "kappa.pdf", None, ["c", "t"]),
    ("glyphs", "kappa.pdf", None, ["y"]),
    ("stepper-80x24", "kappa.pdf", None, ["c", "t"]),
    ("glyphs-80x24", "kappa.pdf", None, ["y"]),
    ("browser-80x24", "kappa.pdf", 4, []),
    ("revisions-80x24", "incremental.pdf", None, ["v"]),
    ("fonts", "cid-identity.pdf", None, ["F"]),
    ("fonts-80x24", "kappa.pdf", None, ["F"]),
    ("extractors", "minimal.pdf", None, ["y", "E"]),
    ("extractors-order", str(TWO_COLUMNS), None, ["y", "E", "O"]),
    ("structure", str(TAGGED), None, ["S", "down", "down"]),
    ("preview", "content.pdf", None, ["ctrl+p", *"step 1", "enter", "t", "t", "i"]),
    ("preview-zoom", "content.pdf", None, ["ctrl+p", *"step 1", "enter", "t", "t", "i", "Z"]),
    ("preview-order", str(TWO_COLUMNS), None, ["y", "O", "O"]),
]


async def shoot(name: str, sample: str, object_num: int | None, keys: list[str]) -> Path:
    doc = Document.open(SAMPLES / sample)
    app = PdfInspectApp(doc, "", start_target(doc, object_num, None))
    size = (80, 24) if name.endswith("80x24") else SIZE
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause(0.2)
        app.title = f"pdfinspect {Path(sample).name}"
        return Path(app.save_screenshot(filename=f"{name}.svg", path=str(HERE)))


def main() -> None:
    import sys

    wanted = sys.argv[1:]  # names of the shots to make (default: all)
    for shot in SHOTS:
        if wanted and shot[0] not in wanted:
            continue
        print(asyncio.run(shoot(*shot)))


if __name__ == "__main__":
    main()
