"""Command palette (``ctrl+p``): go to object N, go to page N, fonts of page N, search."""
from __future__ import annotations

import re
from functools import partial

from rich.text import Text
from textual.command import DiscoveryHit, Hit, Hits, Provider

from pdfinspect.present.text import safe_line

_OBJECT = re.compile(r"\s*(?:o|obj|object)?\s*(\d+)(?:\s+(\d+))?(?:\s+R)?\s*", re.IGNORECASE)
_PAGE = re.compile(r"\s*(?:p|page)\s*(\d+)\s*", re.IGNORECASE)
_FONTS = re.compile(r"\s*(?:f|fonts?)\s*(?:of\s+page\s*)?(\d+)\s*", re.IGNORECASE)
_STEP = re.compile(r"\s*(?:s|step)(?:\s+through)?\s*(?:page\s*)?(\d+)\s*", re.IGNORECASE)
_GLYPHS = re.compile(r"\s*(?:gl|glyphs?)\s*(?:of\s+)?(?:page\s*)?(\d+)\s*", re.IGNORECASE)

SCREENS = (("Overview", "overview", "File facts, repairs and entry points"),
           ("Object browser", "browser", "Tree, object list, object and back-references"),
           ("Revisions", "revisions", "What each incremental update changed"),
           ("Search", "search", "Find text or a regex in decoded streams and strings"))


class PdfCommands(Provider):
    """Numbers become go-to commands; any other text offers a search."""

    async def discover(self) -> Hits:
        app = self.app
        for title, mode, help_text in SCREENS:
            yield DiscoveryHit(f"Show {title.lower()}", partial(app.switch_mode, mode), help=help_text)
        yield DiscoveryHit("Go to object…", app.action_goto, help="Type a number here: 12 or 12 0")
        yield DiscoveryHit("Go to page…", app.action_goto, help="Type p and a number here: p 3")
        yield DiscoveryHit("Step through page 1", partial(app.open_content_view, "stepper", 1),
                           help="Content stepper; type step N for page N")
        yield DiscoveryHit("Glyphs of page 1", partial(app.open_content_view, "glyphs", 1),
                           help="Glyph inspector; type glyphs N for page N")

    async def search(self, query: str) -> Hits:
        app = self.app
        shown = Text(safe_line(query))
        if m := _OBJECT.fullmatch(query):
            num, gen = int(m[1]), int(m[2]) if m[2] else None
            yield Hit(1.0, Text(f"Go to object {num}" + (f" {gen}" if gen is not None else "")),
                      partial(app.goto_object, num, gen), help="Show the object in the browser")
        if m := _PAGE.fullmatch(query):
            yield Hit(1.0, Text(f"Go to page {m[1]}"), partial(app.goto_page, int(m[1])),
                      help="Show the page object")
        if m := _FONTS.fullmatch(query):
            yield Hit(1.0, Text(f"Fonts of page {m[1]}"), partial(app.goto_fonts, int(m[1])),
                      help="Open the page's /Resources /Font dictionary")
        if m := _STEP.fullmatch(query):
            yield Hit(1.0, Text(f"Step through page {m[1]}"), partial(app.open_content_view, "stepper", int(m[1])),
                      help="Operators one by one with the graphics and text state")
        if m := _GLYPHS.fullmatch(query):
            yield Hit(1.0, Text(f"Glyphs of page {m[1]}"), partial(app.open_content_view, "glyphs", int(m[1])),
                      help="Codes per font → Unicode, method, conflicts, resolution paths")
        matcher = self.matcher(query)
        for title, mode, help_text in SCREENS:
            score = matcher.match(f"Show {title.lower()}")
            if score > 0:
                yield Hit(score, matcher.highlight(f"Show {title.lower()}"), partial(app.switch_mode, mode),
                          help=help_text)
        if query.strip():
            yield Hit(0.3, Text.assemble("Search streams and strings for ", (shown.plain, "bold")),
                      partial(app.start_search, query), help="Text search, case-insensitive")
            yield Hit(0.2, Text.assemble("Search with regex ", (shown.plain, "bold")),
                      partial(app.start_search, "re:" + query), help="Regular expression over the bytes")
