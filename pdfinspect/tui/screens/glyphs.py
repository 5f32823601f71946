"""The glyph inspector: every code a page draws, per font, with how its text was found.

Rows are distinct (font, code) pairs with their Unicode, method, count and conflicts, under
a line per font naming it and saying why its text extracts badly (``present.glyphs.font_reports``).
Filters narrow the table to the codes worth a look, and ``h`` cycles the visibility filter
(all codes, codes drawn visibly, codes drawn hidden: ``content.visibility``); the cursor row's
gap before, visibility and resolution path are shown step by step, each step naming the
object it read (``enter`` opens it), with the structure element owning its marked content. The preview draws hidden glyphs in magenta.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Static
from textual.worker import Worker, get_current_worker

from pdfinspect.fonts.embedded import FontProgram
from pdfinspect.fonts.font import Font
from pdfinspect.fonts.resolve import NONE, Resolver, format_unicode
from pdfinspect.present.glyphs import (FILTERS, CodeRow, code_rows, font_diagnoses, gap_text, page_glyph_facts,
                                       visibility_text)
from pdfinspect.present.text import safe_line

from ..budget import page_budget
from ..failures import ReportsFailures, failure_line
from ..messages import ObjectRequested, OpenRevisions, Target
from ..widgets.column_list import Column, ColumnList, PickList
from ..widgets.footer import Footer
from ..widgets.glyph_panels import GLYPH_COLUMNS, PagePrompt, PathList, font_panel, glyph_cells
from ..widgets.line_view import LineView, note
from ..widgets.preview import PagePreview, PreviewHost, glyph_layers

if TYPE_CHECKING:  # the structure tree, outlines and the shape vote are read after the table is up
    from pdfinspect.fonts.shapevote import GlyphShapes
    from pdfinspect.present.shapes import GlyphPicture

VISIBILITY_MODES = ("all", "visible", "hidden")
TABLE_COLUMNS = (*GLYPH_COLUMNS[:3], Column("count", 5, 6, 3, right=True), *GLYPH_COLUMNS[3:],
                 Column("conflicts", 9, 1000, 5))
"""The glyph row's columns with how often the page draws the code and what other methods
give: at 80 columns code, Unicode, method, count and glyph name (the path shows the rest)."""


class GlyphScreen(PreviewHost, ReportsFailures, PagePrompt, Screen):
    """Glyphs of page N (open from the palette or ``--page N --glyphs``)."""

    PAGE_MODE = "glyphs"
    AUTO_FOCUS = "#glyph-table"
    BINDINGS = [
        Binding("u", "filter('unresolved')", "Unresolved", id="filter-unresolved",
                tooltip="Show only codes that resolve to nothing (toggle)"),
        Binding("x", "filter('conflicts')", "Conflicts", id="filter-conflicts",
                tooltip="Show only codes whose methods disagree (toggle)"),
        Binding("f", "filter('fallback')", "Fallback", id="filter-fallback",
                tooltip="Show only codes resolved by a fallback, not ToUnicode (toggle)"),
        Binding("m", "filter('meaningless')", "Bad names", id="filter-meaningless",
                tooltip="Show only codes with meaningless glyph names like g12 (toggle)"),
        Binding("h", "visibility", "All/visible/hidden", id="filter-visibility",
                tooltip="Cycle the codes shown: all, those drawn visibly, those drawn hidden (clipped, "
                        "invisible, covered…)"),
        Binding("p", "pick_page", "Page", id="glyphs-page", tooltip="Inspect page N's glyphs (type its number)"),
        Binding("E", "extractors", "Extractors", id="glyphs-extractors",
                tooltip="What the real text extractors output for this page, against their emulation"),
        Binding("w", "write_fixed", "Fix copy", id="glyphs-fix",
                tooltip="Write a fixed copy: a corrected ToUnicode for the font under the cursor (shows the plan first)"),
        *PreviewHost.PREVIEW_BINDINGS,
    ]
    DEFAULT_CSS = """
    #glyph-font { height: auto; max-height: 14; padding: 0 1; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.page: int | None = None
        self.rows: list[CodeRow] = []
        self.filters: set[str] = set()
        self.shown: list[CodeRow | Font] = []
        self.programs: dict[Font, FontProgram | None] = {}
        self.diagnoses: dict[Font, str] = {}
        self.records = ()  # every glyph of the page, for the preview
        self.facts = None  # the page's PageGlyphs: each glyph's gap and visibility
        self.visibility = VISIBILITY_MODES[0]  # which codes to show: all, visible or hidden
        self.hidden_codes: dict = {}  # (font, code) → [hidden records]
        self.visible_codes: set = set()  # (font, code) drawn visibly at least once
        self.current: CodeRow | Font | None = None
        self.stopped: str | None = None  # where the interpretation budget ran out
        self.shapes: GlyphShapes | None = None  # the outlines of the page's fonts, read in a worker
        self.element: tuple[str, list] | None = None  # a structure element and its glyphs, boxed in the preview
        self.owners: dict = {}  # MCID → (structure element, its /S): the page's /ParentTree entry

    def compose(self) -> ComposeResult:
        yield Static(id="glyphs-header")
        with Horizontal():
            with Vertical(id="glyphs-main"):
                header = Static(id="glyph-table-header", classes="column-header", markup=False)
                yield header
                yield ColumnList(TABLE_COLUMNS, header, id="glyph-table")
            with Vertical(id="glyphs-side"):
                yield Static("font", classes="panel-title")
                yield Static(id="glyph-font")
                yield Static("resolution path (enter: open the object)", classes="panel-title")
                yield PathList(id="glyph-path")
            yield PagePreview(id="preview")
        yield Footer()

    def show_page(self, n: int) -> None:
        self.page = n
        self.rows, self.diagnoses = [], {}
        ref = self.app.page_ref(n)
        if ref is None:
            self.query_one("#glyphs-header", Static).update(Text(f"no page {n}", style="red"))
            return
        self.query_one("#glyphs-header", Static).update(Text(f"page {n}: resolving glyphs…"))
        self.load(n, ref)

    @work(thread=True, exclusive=True, group="glyphs", exit_on_error=False)
    def load(self, n: int, ref) -> None:
        doc = self.app.worker_doc()
        resolver = Resolver.of(doc)
        budget = page_budget()
        facts = page_glyph_facts(doc, ref, resolver, budget=budget)
        records = facts.records
        rows = code_rows(records)
        programs = {r.font: resolver.program(r.font) for r in rows}
        diagnoses = font_diagnoses(rows, resolver)
        from pdfinspect.core.structtree import mcid_parents

        owners = mcid_parents(doc, ref)
        if not get_current_worker().is_cancelled:
            self.shapes = resolver.glyph_shapes()
            self.app.call_from_thread(self.loaded, n, rows, programs, diagnoses, budget.stopped, records, facts,
                                      owners)

    def worker_failed(self, worker: Worker) -> None:
        # a core bug on this page: say so instead of "resolving glyphs…" (the app logs the traceback)
        if worker.group == "glyphs":
            self.query_one("#glyphs-header", Static).update(
                Text(f"page {self.page}: error: {failure_line(worker.error)}", style="red"))

    def loaded(self, n: int, rows: list[CodeRow], programs: dict[Font, FontProgram | None],
               diagnoses: dict[Font, str], stopped: str | None = None, records=(), facts=None,
               owners: dict | None = None) -> None:
        if n == self.page:
            self.stopped = stopped
            self.owners = owners or {}
            self.records = records
            self.facts = facts
            from pdfinspect.content.structure import mcid_key

            wanted, self.app.pending_element = self.app.pending_element, None
            self.element = None if wanted is None or wanted[0] != n else \
                (wanted[1], [r for r in records if mcid_key(r.step) in wanted[2]])
            self.hidden_codes, self.visible_codes = {}, set()
            for r, v in zip(records, facts.visibility if facts is not None else ()):
                key = (r.step.font, r.glyph.code)
                if v.reasons:
                    self.hidden_codes.setdefault(key, []).append(r)
                else:
                    self.visible_codes.add(key)
            self.rows = rows
            self.programs = programs
            self.diagnoses = diagnoses
            self.refill()

    def refill(self) -> None:
        tests = [FILTERS[f][1] for f in self.filters]
        rows = [r for r in self.rows if (not tests or any(t(r) for t in tests)) and self.shows(r)]
        items, shown, last_font = [], [], None
        for r in rows:
            if r.font is not last_font:
                last_font = r.font
                items.append((self.font_line(r), r.font.ref, None))
                shown.append(r.font)
            items.append((self.row_line(r), None, None))
            shown.append(r)
        if not items and self.rows:  # say why the table is empty
            items = [note("no code matches the filters; u x f m toggle")]  # (the header names them, and h)
            shown = [None]
        self.shown = shown
        table = self.query_one("#glyph-table", ColumnList)
        cursor = 1 if len(items) > 1 else 0
        wanted, self.app.pending_glyph = self.app.pending_glyph, None
        if wanted is not None:  # a glyph picked on the Extractors screen
            cursor = next((i for i, r in enumerate(shown) if isinstance(r, CodeRow) and r.font.ref == wanted[0]
                           and r.record.glyph.code == wanted[1]), cursor)
        table.set_rows(items, cursor=cursor)
        self.show_path(table.cursor)
        active = ", ".join(FILTERS[f][0] for f in sorted(self.filters)) or "none (u x f m toggle)"
        problems = [f"{safe_line(self.font_name(f))}: {safe_line(d)}" for f, d in self.diagnoses.items() if d]
        header = Text.assemble((self.app.page_name(self.page), "bold"),
                               f"  {len(self.rows)} distinct codes in {len(self.diagnoses)} fonts, {len(rows)} shown  "
                               f"filters: {active}  glyphs: {self.visibility} (h; "
                               f"{sum(map(len, self.hidden_codes.values()))} hidden)")
        if self.element is not None:
            header.append(f"\nstructure element {self.element[0]}: {len(self.element[1])} glyphs boxed in the preview (i)")
        if self.stopped is not None:
            header.append("\n" + safe_line(self.stopped), style="yellow")
        for p in problems:
            header.append("\n" + p, style="yellow")
        self.query_one("#glyphs-header", Static).update(header)

    @staticmethod
    def font_name(font: Font) -> str:
        where = f"{font.ref.num} {font.ref.gen} R" if font.ref else "(direct)"
        return f"{where} {font.subtype} {font.base_font}"

    def font_line(self, row: CodeRow) -> Content:
        name = row.record.step.gstate.text.font_name or "?"
        return Content.assemble((f"/{safe_line(name)} ", "bold"), (safe_line(self.font_name(row.font)), "bold underline"),
                                f"  ToUnicode {'yes' if row.font.tounicode is not None else 'none'}")

    @staticmethod
    def row_line(row: CodeRow) -> list[tuple[str, str]]:
        """The row's cells under :data:`TABLE_COLUMNS`."""
        r = row.record
        conflicts = ", ".join(f"{c.method} {format_unicode(c.unicode)}" for c in r.resolution.conflicts)
        style = "$text-error" if r.method == NONE else ("$text-warning" if row.fallback else "")
        cells = glyph_cells(r, style)
        return [*cells[:3], (str(row.count), ""), *cells[3:], (safe_line(conflicts), "")]

    def show_path(self, index: int) -> None:
        item = self.shown[index] if 0 <= index < len(self.shown) else None
        self.current = item
        self.update_preview()
        record = self.glyph_of(item) if isinstance(item, CodeRow) else None
        self.query_one("#glyph-path", PathList).show(record, notes=self.notes(record), owner=self.owner(record))
        if isinstance(item, CodeRow) and self.shapes is not None:
            self.draw_outline(item, self.shapes)
        font = item.font if isinstance(item, CodeRow) else item
        panel = self.query_one("#glyph-font", Static)
        if font is None:
            panel.update("")
        else:
            panel.update(font_panel(font, self.programs.get(font), self.diagnoses.get(font, "")))

    @work(thread=True, exclusive=True, group="outline", exit_on_error=False)
    def draw_outline(self, row: CodeRow, shapes: GlyphShapes) -> None:
        """The glyph's outline (reading a font program takes a moment): shown below its path."""
        from pdfinspect.present.shapes import glyph_picture

        picture = glyph_picture(shapes, row.record)
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self.outline_drawn, row, picture)

    def outline_drawn(self, row: CodeRow, picture: GlyphPicture) -> None:
        if self.current is row:
            record = self.glyph_of(row)
            self.query_one("#glyph-path", PathList).show(record, picture, self.notes(record), self.owner(record))

    def preview_request(self):
        """Every glyph of the row's font boxed (of the structure element, when one was opened
        from the Structure screen), every glyph of its code highlighted."""
        if self.page is None:
            return None
        item = self.current
        font = item.font if isinstance(item, CodeRow) else item
        code = item.record.glyph.code if isinstance(item, CodeRow) else None
        same_font = [r for r in self.records if r.step.font is font]
        hidden = [r for (f, _), rs in self.hidden_codes.items() if f is font for r in rs]
        if self.element is not None:
            boxed = self.element[1]
            return glyph_layers(self.page - 1, boxed, [r for r in boxed if r.step.font is font and r.glyph.code == code],
                                hidden=hidden)
        return glyph_layers(self.page - 1, same_font, [r for r in same_font if r.glyph.code == code], hidden=hidden)

    def on_line_view_moved(self, event: LineView.Moved) -> None:
        if event.view.id == "glyph-table":
            self.show_path(event.index)

    def on_pick_list_picked(self, event: PickList.Picked) -> None:
        event.stop()
        item = self.shown[event.index] if event.index < len(self.shown) else None
        if isinstance(item, CodeRow):
            self.show_path(event.index)
            self.query_one("#glyph-path", PathList).focus()
        elif item is not None and item.ref is not None:
            self.post_message(ObjectRequested(Target(item.ref)))

    def action_write_fixed(self) -> None:
        index = self.query_one("#glyph-table", PickList).cursor
        item = self.shown[index] if 0 <= index < len(self.shown) else None
        font = item.font if isinstance(item, CodeRow) else item
        if font is None or font.ref is None:
            self.notify("put the cursor on a font (an indirect font dictionary) first", severity="warning",
                        markup=False)
            return
        from .fix import FixScreen  # (its writer and font fixer only when asked for)

        self.app.push_screen(FixScreen(font.ref, self.font_name(font)), self._fixed_copy_written)

    def _fixed_copy_written(self, path: str | None) -> None:
        if path:  # reopen on the fixed copy, whose revisions screen shows the new revision
            self.app.exit(OpenRevisions(path))

    def action_extractors(self) -> None:
        if self.page is not None:
            self.app.open_extractors(self.page)

    def action_filter(self, name: str) -> None:
        self.filters ^= {name}
        self.refill()

    def action_visibility(self) -> None:
        self.visibility = VISIBILITY_MODES[(VISIBILITY_MODES.index(self.visibility) + 1) % len(VISIBILITY_MODES)]
        self.refill()

    def shows(self, row: CodeRow) -> bool:
        """Whether the visibility filter lets ``row`` through."""
        key = (row.font, row.record.glyph.code)
        if self.visibility == "hidden":
            return key in self.hidden_codes
        return self.visibility == "all" or key in self.visible_codes

    def glyph_of(self, row: CodeRow):
        """The glyph a row stands for: its first drawing, or its first hidden one under the hidden filter."""
        hidden = self.hidden_codes.get((row.font, row.record.glyph.code))
        return hidden[0] if hidden and self.visibility == "hidden" else row.record

    def owner(self, record) -> tuple | None:
        """The structure element (ref, /S, MCID) owning ``record``'s marked content, from the /ParentTree."""
        from pdfinspect.content.structure import mcid_key

        key = mcid_key(record.step) if record is not None and self.owners else None
        if key is None or key[0] is not None or key[1] not in self.owners:
            return None
        return (*self.owners[key[1]], key[1])

    def notes(self, record) -> tuple[str, ...]:
        """The gap before ``record`` and its visibility, as ``glyphs --path`` says them."""
        facts = self.facts
        if record is None or facts is None or not 0 <= record.index < len(facts.layouts):
            return ()
        hidden = len(self.hidden_codes.get((record.step.font, record.glyph.code), ()))
        count = f" ({hidden} of this code's glyphs hidden)" if hidden and self.visibility != "hidden" else ""
        return (gap_text(facts.layouts[record.index]), visibility_text(facts.visibility[record.index]) + count)
