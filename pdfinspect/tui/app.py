"""PdfInspectApp: one screen per question, a history of visited objects, heavy work in workers.

Screens are Textual modes (each keeps its own state): ``overview`` (what is in this file),
``browser`` (show me object N, who points to it), ``revisions`` (what each save changed),
``search``. The help screen and the go-to prompt are modal.

Global keys (ids in brackets):

| key | action |
| --- | --- |
| `q` | quit (`quit`) |
| `g` | go to object N, `N G`, `p N`, or `@OFFSET` for the file's bytes there (`go-to`) |
| `o` / `b` / `v` / `/` | overview / browser / revisions / search (`show-overview` …) |
| `c` / `y` | content stepper / glyph inspector of the page shown (`show-stepper`, `show-glyphs`) |
| `F` | every font of the document with the `fonts` report (`show-fonts`) |
| `S` | the structure tree of a tagged PDF (`show-structure`) |
| `backspace`, `alt+left` / `alt+right` | back / forward (`back`, `forward`), also to the stepper and glyph inspector |
| `?`, `f1` | help (`help`) |
| `ctrl+p` | command palette |

Worker failures are handled here alone (:mod:`.failures`): the traceback goes to Textual's
log and to ``log_path`` (``--log FILE``), one line to the screen.
"""
from __future__ import annotations

import importlib
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

from textual import events, work
from textual.app import App
from textual.binding import Binding
from textual.screen import Screen
from textual.signal import Signal
from textual.widgets import Tree
from textual.worker import Worker, WorkerState, get_current_worker

from pdfinspect.core.diagnostics import PdfError
from pdfinspect.core.document import BackRef, Document
from pdfinspect.core.objects import Dict, Ref
from pdfinspect.core.pagelabels import page_label, page_labels, pages_named
from pdfinspect.present import goto
from pdfinspect.present.goto import GoTo, parse_goto
from pdfinspect.present.text import safe_line

from .commands import PdfCommands
from .failures import Cancelled, append_log, failure_line, failure_report
from .memory import building
from .messages import ContentView, ObjectRequested, Reload, Target, object_ref
from .screens.overview import DiagnosticList, OverviewScreen
from .widgets.column_list import GlyphsPickList
from .widgets.goto_bar import GotoBar
from .widgets.line_view import LineView


def screen_class(module: str, name: str) -> type[Screen]:
    """Screen class ``name`` of ``.screens.<module>``, imported on first use: start-up imports
    only the screen it shows (the browser alone pulls in the renderer and the interpreter)."""
    return getattr(importlib.import_module(f"{__package__}.screens.{module}"), name)


def lazy_mode(module: str, name: str) -> Callable[[], Screen]:
    """A ``MODES`` entry that imports its screen when the mode is first shown."""
    def make() -> Screen:
        return screen_class(module, name)()

    make.__qualname__ = make.__name__ = name
    return make


class PdfInspectApp(App):
    """The pdfinspect TUI over an open :class:`Document`."""

    CSS_PATH = "app.tcss"
    TITLE = "pdfinspect"
    MODES = {"overview": OverviewScreen, "browser": lazy_mode("browser", "BrowserScreen"),
             "revisions": lazy_mode("revisions", "RevisionsScreen"), "search": lazy_mode("search", "SearchScreen"),
             "stepper": lazy_mode("stepper", "StepperScreen"), "glyphs": lazy_mode("glyphs", "GlyphScreen"),
             "fonts": lazy_mode("fonts", "FontsScreen"), "structure": lazy_mode("structure", "StructureScreen")}
    DEFAULT_MODE = "overview"
    COMMANDS = App.COMMANDS | {PdfCommands}
    BINDINGS = [
        Binding("q", "quit", "Quit", id="quit", tooltip="Quit pdfinspect"),
        Binding("g", "goto", "Go to", id="go-to", tooltip="Go to object N (or N G, or p N for a page)"),
        Binding("o", "switch_mode('overview')", "Overview", show=False, id="show-overview",
                tooltip="Overview: file facts, repairs and entry points"),
        Binding("b", "switch_mode('browser')", "Browser", show=False, id="show-browser",
                tooltip="Object browser: tree, object list, object, referrers"),
        Binding("v", "switch_mode('revisions')", "Revisions", show=False, id="show-revisions",
                tooltip="Revisions: what each incremental update changed"),
        Binding("slash", "switch_mode('search')", "Search", show=False, id="search",
                tooltip="Search decoded streams and strings"),
        Binding("c", "content_view('stepper')", "Stepper", show=False, id="show-stepper",
                tooltip="Step through the content of the page shown (page 1 at first)"),
        Binding("y", "content_view('glyphs')", "Glyphs", show=False, id="show-glyphs",
                tooltip="Inspect the glyphs of the page shown (page 1 at first)"),
        Binding("F", "switch_mode('fonts')", "Fonts", show=False, id="show-fonts",
                tooltip="Every font of the document with its report (pdfinspect fonts); enter: its glyphs"),
        Binding("S", "switch_mode('structure')", "Structure", show=False, id="show-structure",
                tooltip="The structure tree of a tagged PDF (pdfinspect structure); enter: an element's glyphs"),
        Binding("backspace,alt+left", "back", "Back", id="back", tooltip="Back to the previous object"),
        Binding("alt+right", "forward", "Forward", show=False, id="forward", tooltip="Forward again"),
        Binding("question_mark,f1", "help", "Help", id="help", tooltip="List every key"),
        Binding("ctrl+r", "reload", "Reload", show=False, id="reload",
                tooltip="Open the file again (it changed on disk: a recompile)"),
    ]

    def __init__(self, doc: Document, password: str | bytes = "", start: Target | None = None,
                 start_view: tuple[str, int] | None = None, log_path: str | Path | None = None) -> None:
        if start_view is not None:  # the first screen shown is the only one made: not the overview first
            self.DEFAULT_MODE = start_view[0]
        super().__init__()
        self.doc = doc
        self.password = password
        self.log_path = log_path
        self.start = start
        self.start_view = start_view  # ("stepper" or "glyphs", page), or (mode, 0) for a mode
        # the page the stepper and glyph inspector show (the start page: shown when the screen first resumes)
        self.content_page: int | None = start_view[1] if start_view is not None and start_view[1] else None
        self.current: Target | ContentView | None = None
        self.last_target: Target | None = None  # what the browser showed last
        self.pending_step: int | None = None  # the operator the stepper shows first (a page-text hit)
        self.pending_glyph: tuple | None = None  # (font ref, code) the glyph inspector shows first (Extractors screen)
        self.pending_element: tuple | None = None  # (page, element, MCID keys) the glyph inspector boxes (Structure screen)
        self.pending_search: tuple[str, Ref | None] | None = None  # (query, the one object to search)
        self.previous_mode: str | None = None  # where escape leaves the search screen for
        self.hits: list = []  # the search hits n/N walk in the browser
        self.hit_index = 0
        self._back: list[Target | ContentView] = []
        self._forward: list[Target | ContentView] = []
        self._index_doc: Document | None = None
        self._index_state = "none"  # none, building, ready, failed
        self.index_progress: tuple[int, int] | None = None  # (objects indexed, objects) while building
        self.backrefs_ready = Signal(self, "backrefs-ready")
        self.backrefs_progress = Signal(self, "backrefs-progress")
        self._loader_doc: Document | None = None
        self._loader_lock = threading.Lock()
        self.numbers: list[int] | None = None  # in-use object numbers, listed by a worker (want_numbers)
        self.numbers_ready = Signal(self, "numbers-ready")
        self._numbers_asked = False
        self._change_told = False  # (set here: the first screen's workers may run before on_mount)
        self._labels: list[str | None] | None = None  # page labels, read when a page is first named
        self.sub_title = (Path(doc.path).name if doc.path else "") + (
            "  [locked: no key, strings and streams stay encrypted]" if doc.locked else "")

    def on_resize(self, event: events.Resize) -> None:
        """Classes the styles key on: -narrow under 120 columns, -short under 32 rows."""
        self.set_class(event.size.width < 120, "-narrow")
        self.set_class(event.size.height < 32, "-short")

    def on_mount(self) -> None:
        self.on_resize(events.Resize(self.size, self.size))
        self.set_interval(2.0, self.check_file)
        if self.start_view is not None:  # --page N --step / --glyphs, or ("revisions", 0): a fixed copy just written
            mode, page = self.start_view  # the start mode's screen is up already (DEFAULT_MODE)
            if mode in ("stepper", "glyphs"):
                self.visit(ContentView(mode, page), True)
        elif self.start is not None:
            self.show_target(self.start)

    def check_file(self) -> None:
        """Tell once when the file changed on disk; what is shown stays the file as opened."""
        if not self._change_told and self.doc.changed():
            self._change_told = True
            self.notify("The file changed on disk (rewritten or truncated); this is the file as opened. "
                        "ctrl+r reloads it.", severity="warning", timeout=30, markup=False)

    def action_reload(self) -> None:
        if self.doc.path is not None:
            self.exit(Reload(self.doc.path, self.last_target))

    # -- navigation --------------------------------------------------------------------
    def visit(self, place: Target | ContentView, push: bool) -> None:
        """Make ``place`` current, recording where we were for ``back``."""
        if push and self.current is not None and self.current != place:
            self._back.append(self.current)
            self._forward.clear()
        self.current = place
        if isinstance(place, Target):
            self.last_target = place

    def show_place(self, place: Target | ContentView, push: bool = True) -> None:
        if isinstance(place, ContentView):
            self.open_content_view(place.mode, place.page, push)
        else:
            self.show_target(place, push)

    def show_target(self, target: Target, push: bool = True) -> None:
        """Show ``target`` in the browser, recording where we were for ``back``."""
        self.visit(target, push)
        if self.current_mode == "browser" and isinstance(self.screen, screen_class("browser", "BrowserScreen")):
            self.screen.display_target(target)
        else:
            self.switch_mode("browser")

    def on_object_requested(self, message: ObjectRequested) -> None:
        self.show_target(message.target)

    def switch_mode(self, mode: str):
        if mode != self.current_mode:
            self.previous_mode = self.current_mode
        return super().switch_mode(mode)

    def next_hit(self, delta: int) -> None:
        """Show the next (``delta`` 1) or previous (-1) search hit, at its line."""
        if not self.hits:
            self.notify("no search hits: / searches", severity="warning")
            return
        self.hit_index = (self.hit_index + delta) % len(self.hits)
        self.notify(f"hit {self.hit_index + 1} of {len(self.hits)}", timeout=1.5)
        from .screens.search import hit_target

        self.show_target(hit_target(self.hits[self.hit_index]))

    def action_back(self) -> None:
        if self._back:
            self._forward.append(self.current)
            self.show_place(self._back.pop(), push=False)
        else:
            self.bell()

    def action_forward(self) -> None:
        if self._forward:
            self._back.append(self.current)
            self.show_place(self._forward.pop(), push=False)
        else:
            self.bell()

    def action_content_view(self, mode: str) -> None:
        """``c``/``y``: the stepper or glyph inspector on the page the browser shows (else the last page
        stepped, else page 1)."""
        page = self.page_of(self.current.ref) if isinstance(self.current, Target) and self.current.ref else None
        self.open_content_view(mode, page or self.content_page or 1)

    def page_of(self, ref: Ref) -> int | None:
        """The number of the page whose object is ``ref`` (only for files of a few thousand pages)."""
        try:
            count = self.doc.page_count()
            if count > 5000:
                return None
            return next((n for n in range(1, count + 1) if self.doc.page_ref(n) == ref), None)
        except Exception:  # a broken page tree: no page number
            return None

    def action_goto(self) -> None:
        bars = self.screen.query(GotoBar)
        if bars:
            bars.first().open()
        else:
            bar = GotoBar()
            self.screen.mount(bar)
            bar.open()

    def _open_goto_bar(self) -> GotoBar | None:
        bars = self.screen.query(GotoBar)
        return bars.first() if bars and bars.first().display else None

    async def on_event(self, event: events.Event) -> None:
        # While the go-to prompt is open it reads the keys (it never takes focus, see goto_bar).
        if isinstance(event, events.Key) and not event.is_forwarded:
            bar = self._open_goto_bar()
            if bar is not None and bar.feed(event):
                return
        await super().on_event(event)

    def on_goto_bar_answered(self, message: GotoBar.Answered) -> None:
        text = message.text
        if not text:
            return
        target = parse_goto(text)
        if target is None:
            self.notify(f"not an object number: {text!r}", severity="error", markup=False)
        else:
            self.go(target)

    def go(self, target: GoTo) -> None:
        """Show what a typed go-to names (the ``g`` prompt and the palette read the same words)."""
        if target.kind == goto.OBJECT:
            self.goto_object(target.num, target.gen)
        elif target.kind == goto.PAGE:
            self.goto_label(target.label or str(target.num))
        elif target.kind == goto.FONTS:
            self.goto_fonts(target.num)
        elif target.kind == goto.OFFSET:
            self.push_screen(screen_class("bytes", "BytesScreen")(target.num))
        else:
            self.open_content_view("stepper" if target.kind == goto.STEP else "glyphs", target.num)

    def goto_object(self, num: int, gen: int | None = None) -> None:
        self.show_target(Target(object_ref(self.doc, num, gen)))

    def goto_page(self, n: int) -> None:
        ref = self.known_page(n)
        if ref is not None:
            self.show_target(Target(ref, None, "/Kids"))

    def goto_label(self, label: str) -> None:
        """The page numbered or labelled ``label`` (as ``-p`` reads it), when exactly one is."""
        n = self.page_named(label)
        if n is not None:
            self.goto_page(n)

    def page_named(self, label: str) -> int | None:
        """The page numbered or labelled ``label`` (``core.pagelabels.pages_named``), or ``None``
        after telling the user it names none or several."""
        found = pages_named(label, self.doc.page_count(), self.known_labels)
        if len(found) == 1:
            return found[0]
        if found:
            message = f"page label {safe_line(label)!r} names pages {', '.join(map(str, found[:10]))}: give the page number"
        elif label.isdigit():
            message = f"no page {label} (the file has {self.doc.page_count()})"
        else:
            message = f"no page labelled {safe_line(label)!r}"
        self.notify(message, severity="error", markup=False)
        return None

    def goto_fonts(self, n: int) -> None:
        target = self.fonts_target(n)
        if target is None:
            self.notify(f"page {n} has no /Font resources", severity="warning", markup=False)
        else:
            self.show_target(target)

    def open_extractors(self, n: int) -> None:
        """The Extractors screen of page ``n``: real extractors against their emulation."""
        from .screens.extractors import ExtractorsScreen

        if self.known_page(n) is not None:
            self.push_screen(ExtractorsScreen(n))

    def open_content_view(self, mode: str, n: int, push: bool = True, step: int | None = None) -> None:
        """Show page ``n`` in the content stepper (``mode`` "stepper") or glyph inspector
        ("glyphs"); the stepper at operator ``step`` if given (a page-text search hit)."""
        if self.known_page(n) is None:
            return
        self.visit(ContentView(mode, n), push)
        self.content_page = n
        self.pending_step = step
        if self.current_mode == mode:
            self.screen.show_page(n)
        else:
            self.switch_mode(mode)

    def known_page(self, n: int) -> Ref | None:
        """Page ``n``, or ``None`` after telling the user there is no such page."""
        ref = self.page_ref(n)
        if ref is None:
            self.notify(f"no page {n} (the file has {self.doc.page_count()})", severity="error", markup=False)
        return ref

    def known_labels(self) -> list[str | None]:
        """Every page's label (12.4.2), read once; empty without (or with a broken) /PageLabels."""
        if self._labels is None:
            try:
                self._labels = page_labels(self.doc) or []
            except Exception:  # a broken /PageLabels: numbers only
                self._labels = []
        return self._labels

    def page_name(self, n: int) -> str:
        """``page 3``, or ``page 3 (iii)`` when the document labels its pages (12.4.2)."""
        if self._labels is not None:
            label = self._labels[n - 1] if 0 < n <= len(self._labels) else None
        else:  # this page's label alone: every page's needs the whole page tree walked (on this thread)
            try:
                label = page_label(self.doc, n - 1)
            except Exception:  # a broken /PageLabels: numbers only
                label = None
        return f"page {n}" + (f" ({safe_line(label)})" if label is not None and label != str(n) else "")

    def page_ref(self, n: int) -> Ref | None:
        try:
            return self.doc.page_ref(n)
        except Exception:  # a broken page tree is reported by the browser, not raised here
            return None

    def fonts_target(self, n: int) -> Target | None:
        """The object holding page ``n``'s /Font dictionary (the dict itself when indirect)."""
        ref = self.page_ref(n)
        page = self.doc.resolve(ref) if ref else None
        if not isinstance(page, Dict):
            return None
        holder, node = ref, page
        for _ in range(64):  # /Resources is inheritable (7.7.3.4): find the node that has it
            if "Resources" in node:
                break
            parent = node.get("Parent")
            holder, node = parent, self.doc.resolve(parent)
            if not isinstance(holder, Ref) or not isinstance(node, Dict):
                return None
        resources = node.get("Resources")
        if isinstance(resources, Ref):
            holder, resources = resources, self.doc.resolve(resources)
        if not isinstance(resources, Dict) or "Font" not in resources:
            return None
        fonts = resources["Font"]
        return Target(fonts if isinstance(fonts, Ref) else holder, None, "/Font")

    def start_search(self, query: str, only: Ref | None = None) -> None:
        """Run ``query`` on the search screen: over every object, or over ``only``."""
        self.pending_search = (query, only)
        if self.current_mode == "search" and isinstance(self.screen, screen_class("search", "SearchScreen")):
            self.screen.on_screen_resume()
        else:
            self.switch_mode("search")

    def action_help(self) -> None:
        from .screens.browser import BrowserScreen
        from .screens.bytes import BytesScreen
        from .screens.fonts import FontsScreen
        from .screens.glyphs import GlyphScreen
        from .screens.help import HelpScreen
        from .screens.revisions import RevisionsScreen
        from .screens.search import SearchScreen
        from .screens.stepper import StepperScreen
        from .screens.structure import StructureScreen

        if isinstance(self.screen, HelpScreen):
            return
        from .screens.extractors import ExtractorsScreen

        groups = [("global", self.BINDINGS), ("overview", OverviewScreen.BINDINGS), ("browser", BrowserScreen.BINDINGS),
                  ("revisions", RevisionsScreen.BINDINGS), ("search", SearchScreen.BINDINGS),
                  ("lists", LineView.BINDINGS), ("tree", Tree.BINDINGS), ("go-to prompt", GotoBar.KEYS),
                  ("stepper", StepperScreen.BINDINGS), ("glyph inspector", GlyphScreen.BINDINGS),
                  ("fonts", [*GlyphsPickList.BINDINGS, *FontsScreen.BINDINGS]),
                  ("structure", [*GlyphsPickList.BINDINGS, *StructureScreen.BINDINGS]),
                  ("extractors", ExtractorsScreen.BINDINGS),
                  ("bytes (g @OFFSET)", BytesScreen.BINDINGS), ("diagnostics", DiagnosticList.BINDINGS)]
        here = type(self.screen).BINDINGS  # the keys of the screen help is asked on come first
        self.push_screen(HelpScreen(sorted(groups, key=lambda group: group[1] is not here)))

    # -- back-references ---------------------------------------------------------------
    def worker_doc(self) -> Document:
        """A fork of ``doc`` for a worker thread to use alone (:meth:`Document.fork`: the same
        map, revisions and file key, its own caches). What it finds wrong (a /Length found
        wrong while browsing, a stream that does not decode) goes to ``doc``'s diagnostics,
        one locked sink, so the overview lists every repair."""
        doc = self.doc.fork()
        doc.share_diagnostics(self.doc)
        return doc

    def backrefs(self, num: int) -> list[BackRef] | None:
        """Objects referring to ``num``; ``None`` while the index is being built."""
        if self._index_state == "ready":
            return self._index_doc.backrefs(num)
        if self._index_state == "failed":
            return []
        if self._index_state == "none":
            self._index_state = "building"
            self.build_backrefs()
        return None

    @contextmanager
    def loader(self) -> Iterator[Document]:
        """A second Document over the file for the browser's workers (one at a time).

        Documents are not thread-safe (their load guards and caches are shared), and a big
        object must be parsed off the UI thread, so the UI thread keeps ``doc`` and the
        workers take turns with this one.
        """
        with self._loader_lock:
            if self._loader_doc is None:
                self._loader_doc = self.worker_doc()
            yield self._loader_doc

    def want_numbers(self) -> None:
        """List the object numbers, once, for the screens that show them (the overview's count, the
        browser's object list): a screen that does not (the glyph inspector opened by ``--glyphs``)
        does not pay for it while it starts."""
        if not self._numbers_asked:
            self._numbers_asked = True
            self.list_numbers()

    @work(thread=True, exclusive=True, group="numbers", exit_on_error=False)
    def list_numbers(self) -> None:
        """List the object numbers off the UI thread: reading every xref entry of a file of
        126,639 objects (TeX Live's source3.pdf) takes 0.2-0.3 s."""
        with building(), self.loader() as doc:
            numbers = doc.object_numbers()
        self.call_from_thread(self._numbers_listed, numbers)

    def _numbers_listed(self, numbers: list[int]) -> None:
        self.numbers = numbers
        self.numbers_ready.publish(self.numbers)

    @work(thread=True, exclusive=True, group="backrefs", exit_on_error=False)
    def build_backrefs(self) -> None:
        worker = get_current_worker()

        def progress(done: int, total: int) -> None:
            if worker.is_cancelled:  # the app is quitting: stop within 1,000 objects
                raise Cancelled
            self.call_from_thread(self._backrefs_progressed, done, total)

        with building():  # the index grows to millions of objects
            doc = self.worker_doc()
            try:
                doc.build_backrefs(progress=progress)
            except Cancelled:
                return
        self.call_from_thread(self._backrefs_built, doc)

    def _backrefs_progressed(self, done: int, total: int) -> None:
        self.index_progress = (done, total)
        self.backrefs_progress.publish(self.index_progress)

    def _backrefs_built(self, doc: Document | None) -> None:
        self._index_doc = doc
        self.index_progress = None
        self._index_state = "ready" if doc is not None else "failed"
        self.backrefs_ready.publish(None)

    # -- failures ----------------------------------------------------------------------
    WORK_NAMES = {"numbers": "listing objects", "backrefs": "back-reference index", "object": "reading the object",
                  "stream": "decoding the stream", "stepper": "stepping the page", "glyphs": "resolving glyphs",
                  "search": "search", "check": "checking the file", "revisions": "counting the changes",
                  "revision-object": "reading both sides"}

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.ERROR:
            self.report_failure(event.worker)

    def report_failure(self, worker: Worker) -> None:
        """Every worker failure ends here: traceback to the logs, one line on screen."""
        what = self.WORK_NAMES.get(worker.group, worker.name or worker.group)
        if isinstance(worker.error, PdfError) and worker.error.diagnostic.code == "file-changed":
            self._change_told = True  # a big file read on demand changed under us: no traceback, offer to reload
            self.notify(f"{what} stopped: {safe_line(worker.error.diagnostic.message)}. ctrl+r reloads it.",
                        severity="warning", timeout=30, markup=False)
            self._fall_back(worker.group)
            return
        report = failure_report(what, worker.error)
        self.log.error(report)
        unwritable = append_log(self.log_path, report)
        where = f" (traceback in {self.log_path})" if self.log_path and unwritable is None else ""
        if unwritable is not None:
            where = f" (log not written: {safe_line(unwritable)})"
        self.notify(f"{what} failed: {failure_line(worker.error)}{where}", severity="error", markup=False)
        self._fall_back(worker.group)

    def _fall_back(self, group: str | None) -> None:
        """What the app shows instead when its own ``group`` worker failed."""
        if group == "numbers":  # browse what the xref lists, unchecked
            self._numbers_listed([])
        elif group == "backrefs":
            self._backrefs_built(None)
