"""The structure tree of a tagged PDF (ISO 32000-1 14.7), as ``pdfinspect structure`` prints it.

Left: the elements depth first, indented, each with its type (→ the standard type through
/RoleMap) and object. Right: the element under the cursor — /T, /Lang, /Alt, /ActualText,
attributes, its marked content (page, MCID) and object references, its text — and the glyphs
its marked content draws, one row each as in the glyph inspector. ``enter`` opens the glyph
inspector on the element's first page, its glyphs there boxed in the preview, ``d`` the element's dictionary in the browser. The
tree is read in a worker; a page's glyphs are interpreted the first time an element on it is
shown. Problems with the tree are listed in the header, by code.
"""
from __future__ import annotations

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Static
from textual.worker import Worker, get_current_worker

from pdfinspect.content.structure import PageMarks, element_records, element_text, page_marks
from pdfinspect.core.structtree import StructElement, StructTree, read_structure
from pdfinspect.fonts.resolve import Resolver
from pdfinspect.present.text import safe_line

from ..failures import ReportsFailures, failure_line
from ..messages import ObjectRequested, Target
from ..widgets.column_list import ColumnList, GlyphsPickList, PickList
from ..widgets.glyph_panels import GLYPH_COLUMNS, glyph_cells
from ..widgets.line_view import LineView, note


def element_line(e: StructElement) -> Content:
    kind = e.type if e.standard_type in (None, e.type) else f"{e.type} → {e.standard_type}"
    return Content.assemble("  " * e.depth, (safe_line(kind), "bold"),
                            (f"  {e.ref}" if e.ref else "", "$text-muted"))


def element_facts(e: StructElement, text: str | None) -> str:
    """The element's entries, content items and text, terminal-safe, one per line."""
    lines = [f"{e.type}" + (f" → {e.standard_type}" if e.standard_type not in (None, e.type) else "")
             + (f"  {e.ref}" if e.ref else "  (direct)")]
    for label, value in (("T", e.title), ("Lang", e.lang), ("Alt", e.alt), ("ActualText", e.actual_text),
                         ("E", e.expansion), ("ID", e.id)):
        if value is not None:
            lines.append(f"{label}: {value}")
    for a in e.attributes:
        lines.append("attributes: " + ", ".join(f"{k} {v}" for k, v in a.items()))
    if e.mcids:
        lines.append("marked content: " + ", ".join(f"p{m.page or '?'} MCID {m.mcid}" for m in e.mcids))
    if e.objs:
        lines.append("objects: " + ", ".join(f"p{o.page or '?'} {o.obj}" for o in e.objs))
    if e.children:
        lines.append(f"{len(e.children)} child element(s)")
    if text is not None:
        lines.append(f"text: “{text}”")
    return "\n".join(safe_line(line) for line in lines)


class StructureScreen(ReportsFailures, Screen):
    """The structure tree; ``enter`` to the glyphs of an element's page."""

    AUTO_FOCUS = "#structure-tree"
    BINDINGS = [
        Binding("d", "dictionary", "Element object", id="structure-object",
                tooltip="Open the structure element's dictionary in the browser"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.struct_tree: StructTree | None = None
        self.elements: list[StructElement] = []
        self.marks: dict[int, PageMarks] = {}
        self._doc = None
        self._resolver: Resolver | None = None

    def compose(self) -> ComposeResult:
        yield Static("reading the structure tree…", id="structure-header", markup=False)
        with Horizontal():
            with Vertical(id="structure-main"):
                yield Static("elements (enter: glyphs, d: element object)", classes="panel-title")
                yield GlyphsPickList(id="structure-tree")
            with Vertical(id="structure-side"):
                yield Static(id="structure-element", markup=False)
                header = Static(id="structure-glyphs-header", classes="column-header", markup=False)
                yield header
                yield ColumnList(GLYPH_COLUMNS, header, id="structure-glyphs")
        yield Footer()

    def on_mount(self) -> None:
        self.load()

    @work(thread=True, exclusive=True, group="structure", exit_on_error=False)
    def load(self) -> None:
        doc = self.app.worker_doc()
        tree = read_structure(doc)
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self.loaded, doc, tree)

    def worker_failed(self, worker: Worker) -> None:
        if worker.group in ("structure", "structure-page"):
            self.query_one("#structure-header", Static).update(
                Text(f"error: {failure_line(worker.error)}", style="red"))

    def loaded(self, doc, tree: StructTree | None) -> None:
        self._doc, self._resolver, self.struct_tree = doc, Resolver(doc), tree
        header = self.query_one("#structure-header", Static)
        view = self.query_one("#structure-tree", PickList)
        if tree is None:
            header.update("no structure tree: the catalog has no /StructTreeRoot (the file is not tagged)")
            view.set_items([note("not a tagged PDF")])
            return
        self.elements = list(tree.walk())
        t = Text(f"StructTreeRoot {tree.root or '(direct)'}: {len(self.elements)} elements, "
                 f"{len(tree.diagnostics)} problem(s)")
        for d in tree.diagnostics[:3]:
            t.append(f"\n! {d.code}: {safe_line(d.message)}", style="yellow")
        header.update(t)
        view.set_items([(element_line(e), e.ref, None) for e in self.elements] or [note("an empty tree")])
        self.show_element(view.cursor)

    def current(self) -> StructElement | None:
        index = self.query_one("#structure-tree", PickList).cursor
        return self.elements[index] if 0 <= index < len(self.elements) else None

    def show_element(self, index: int) -> None:
        e = self.elements[index] if 0 <= index < len(self.elements) else None
        panel = self.query_one("#structure-element", Static)
        table = self.query_one("#structure-glyphs", ColumnList)
        if e is None:
            panel.update("")
            table.set_rows([])
            return
        pages = sorted({m.page for m in e.mcids if m.page} - set(self.marks))
        if pages:
            panel.update(element_facts(e, None) + "\nreading the page's glyphs…")
            table.set_rows([])
            self.load_pages(pages)
            return
        panel.update(element_facts(e, element_text(e, self.marks)))
        records = element_records(e, self.marks)
        table.set_rows([(glyph_cells(r), None, None) for r in records] or [note("no glyph in its own marked content")])

    @work(thread=True, exclusive=True, group="structure-page", exit_on_error=False)
    def load_pages(self, pages: list[int]) -> None:
        marks = {}
        refs = self._doc.page_refs()
        for n in pages:
            if get_current_worker().is_cancelled:
                return
            marks[n] = page_marks(self._doc, n, refs[n - 1], self._resolver)
        self.app.call_from_thread(self.pages_loaded, marks)

    def pages_loaded(self, marks: dict[int, PageMarks]) -> None:
        self.marks.update(marks)
        self.show_element(self.query_one("#structure-tree", PickList).cursor)

    def on_line_view_moved(self, event: LineView.Moved) -> None:
        if event.view.id == "structure-tree":
            self.show_element(event.index)

    def on_pick_list_picked(self, event: PickList.Picked) -> None:
        if event.view.id == "structure-tree":
            event.stop()
            self.action_glyphs()

    def action_glyphs(self) -> None:
        e = self.current()
        page = next((m.page for el in (e.walk() if e else ()) for m in el.mcids if m.page), None)
        if page is None:
            self.notify("no marked content under this element", severity="warning")
            return
        # the glyph inspector boxes the element's glyphs on that page in its preview (``i``)
        keys = frozenset((m.stream.num if m.stream else None, m.mcid) for el in e.walk() for m in el.mcids
                         if m.page == page)
        self.app.pending_element = (page, safe_line(f"/{e.type} {e.ref or '(direct)'}"), keys)
        self.app.open_content_view("glyphs", page)

    def action_dictionary(self) -> None:
        e = self.current()
        if e is None or e.ref is None:
            self.notify("a direct element: no object to open", severity="warning")
            return
        self.post_message(ObjectRequested(Target(e.ref)))
