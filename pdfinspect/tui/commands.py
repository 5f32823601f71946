"""Command palette (``ctrl+p``): go to object N, go to page N, fonts of page N, search."""
from __future__ import annotations

from functools import partial

from rich.text import Text
from textual.command import DiscoveryHit, Hit, Hits, Provider

from pdfinspect.present import goto
from pdfinspect.present.goto import parse_goto
from pdfinspect.present.text import safe_line

SCREENS = (("Overview", "overview", "File facts, repairs and entry points"),
           ("Object browser", "browser", "Tree, object list, object and back-references"),
           ("Revisions", "revisions", "What each incremental update changed"),
           ("Search", "search", "Find text or a regex in decoded streams and strings"))
# What a go-to hit says, by the kind of target (pdfinspect.present.goto).
HITS = {goto.OBJECT: ("Go to {}", "Show the object in the browser"),
        goto.PAGE: ("Go to {}", "Show the page object"),
        goto.FONTS: ("{}", "Open the page's /Resources /Font dictionary"),
        goto.STEP: ("{}", "Operators one by one with the graphics and text state"),
        goto.GLYPHS: ("{}", "Codes per font → Unicode, method, conflicts, resolution paths")}


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
        yield DiscoveryHit("Extractors of page 1", partial(app.open_extractors, 1),
                           help="The real text extractors against their emulation (E in the glyph inspector)")

    async def search(self, query: str) -> Hits:
        app = self.app
        shown = Text(safe_line(query))
        target = parse_goto(query)
        if target is not None:
            title, help_text = HITS[target.kind]
            yield Hit(1.0, Text(title.format(target.describe()).capitalize()), partial(app.go, target), help=help_text)
        matcher = self.matcher(query)
        for title, mode, help_text in SCREENS:
            score = matcher.match(f"Show {title.lower()}")
            if score > 0:
                yield Hit(score, matcher.highlight(f"Show {title.lower()}"), partial(app.switch_mode, mode),
                          help=help_text)
        score = matcher.match("Extractors of page 1")
        if score > 0:
            yield Hit(score, matcher.highlight("Extractors of page 1"), partial(app.open_extractors, 1),
                      help="The real text extractors against their emulation (E in the glyph inspector)")
        if query.strip():
            yield Hit(0.3, Text.assemble("Search streams and strings for ", (shown.plain, "bold")),
                      partial(app.start_search, query), help="Text search, case-insensitive")
            yield Hit(0.2, Text.assemble("Search with regex ", (shown.plain, "bold")),
                      partial(app.start_search, "re:" + query), help="Regular expression over the bytes")
