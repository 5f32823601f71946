"""The object browser: tree and list on the left, the object in the middle, back-references right."""
from __future__ import annotations

from bisect import bisect_left

from rich.text import Text
from textual import work
from textual.worker import Worker, get_current_worker
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, ProgressBar, Static, TabbedContent, TabPane

from pdfinspect.core.objects import Stream
from pdfinspect.present import objects, streams
from pdfinspect.present.text import safe_line

from ..failures import ReportsFailures, failure_line
from ..messages import TRAILER_REF, ObjectRequested, Target, object_ref
from ..widgets.column_list import WrappedList
from ..widgets.line_view import LineView, note
from ..widgets.object_list import ObjectList
from ..widgets.object_tree import ObjectTree
from ..widgets.object_view import ObjectView, object_items
from ..widgets.parts import styled
from ..widgets.preview import PagePreview, image_preview
from ..widgets.stream_view import VIEW_LIMIT, StreamView, text_lines
from .export import ExportScreen


HEADER_STYLES = {objects.TITLE: "bold", objects.MISSING: "red", objects.NOTE: "italic", objects.AS_OF: "reverse"}
STREAM_STYLES = {streams.TITLE: "bold", streams.STEP: "bold", streams.NOTE: "italic", streams.ERROR: "red"}


def object_header(doc, target: Target) -> tuple[Text, object, object]:
    """(header text, the value to show, the IndirectObject or None)."""
    if target.ref is None:
        header, value = objects.trailer_header(doc, target.revision)
        obj = None
    else:
        header, obj = objects.object_header(doc, target.ref.num, target.ref.gen, target.revision)
        value = obj.value if obj is not None else None
    return styled(header.parts(), HEADER_STYLES), value, obj


def object_display(doc, target: Target) -> tuple[Text, object, list]:
    """(header, the IndirectObject or None, the lines of the object view) for ``target``."""
    try:
        text, value, obj = object_header(doc, target)
    except Exception as e:  # a broken object shows its error in place
        text, value, obj = Text(f"{target.describe()}  error: {safe_line(str(e))}", style="red"), None, None
    extra = [f"% {safe_line(str(d))}" for d in (obj.diagnostics if obj else [])]
    return text, obj, object_items(value, extra)


class BrowserScreen(ReportsFailures, Screen):
    """Browse objects. Keys: ``r`` raw/decoded, ``x`` hex/text, ``[``/``]`` previous/next object.

    The object is parsed and formatted in a worker (an array of 100,000 references takes a
    second or more); until it arrives the header reads ``loading N G obj…``, so the header
    starts with ``N G obj`` exactly when object N is on screen.
    """

    AUTO_FOCUS = "#object-view"
    BINDINGS = [
        Binding("r", "toggle_raw", "Raw/decoded", id="toggle-raw", tooltip="Show the stream raw or decoded"),
        Binding("x", "toggle_hex", "Hex/text", id="toggle-hex", tooltip="Show the stream as a hex dump or text"),
        Binding("e", "export", "Export", id="export-object",
                tooltip="Write the object shown to a file: a font's program, an image, a stream decoded or raw"),
        Binding("ctrl+f", "find", "Find here", id="find-in-object",
                tooltip="Search this object only: its strings and its stream decoded (hits at their line)"),
        Binding("n", "hit(1)", "Next hit", show=False, id="next-hit", tooltip="Next search hit, at its line"),
        Binding("N", "hit(-1)", "Prev hit", show=False, id="previous-hit", tooltip="Previous search hit"),
        Binding("left_square_bracket", "step(-1)", "Prev obj", show=False, id="previous-object"),
        Binding("right_square_bracket", "step(1)", "Next obj", show=False, id="next-object"),
        Binding("t", "focus_pane('object-tree')", "Tree", show=False, id="focus-tree"),
        Binding("l", "focus_pane('object-list')", "List", show=False, id="focus-list"),
        Binding("m", "focus_pane('object-view')", "Object", show=False, id="focus-object"),
        Binding("s", "focus_pane('stream-view')", "Stream", show=False, id="focus-stream"),
        Binding("f", "focus_pane('backrefs')", "Referrers", show=False, id="focus-backrefs"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.shown: Target | None = None
        self.raw = False
        self.hex: bool | None = None
        self._obj = None
        self._token = 0
        self._object_token = 0

    def compose(self) -> ComposeResult:
        with Horizontal():
            with TabbedContent(id="nav"):
                with TabPane("Tree", id="tab-tree"):
                    yield ObjectTree(id="object-tree")
                with TabPane("Objects", id="tab-list"):
                    yield ObjectList(id="object-list")
            with Vertical(id="main"):
                yield Static(id="object-header", markup=False)
                yield ObjectView(id="object-view")
                yield Static(id="stream-header", markup=False)
                yield StreamView(id="stream-view")
                yield PagePreview(id="preview", classes="-below")
            with Vertical(id="side"):
                yield Static("Referenced by", classes="panel-title")
                yield ProgressBar(id="backrefs-progress", show_eta=False)
                yield WrappedList(id="backrefs")  # a referrer's key path wraps in the narrow pane
        yield Footer()

    def on_mount(self) -> None:
        self.app.backrefs_ready.subscribe(self, self.on_backrefs_ready)
        self.app.backrefs_progress.subscribe(self, self.on_backrefs_progress)
        self.app.numbers_ready.subscribe(self, self.on_numbers_ready)
        self.app.want_numbers()
        self.query_one(ObjectTree).load(self.app.doc)
        if self.app.numbers is not None:
            self.on_numbers_ready(self.app.numbers)

    def on_numbers_ready(self, numbers: list[int]) -> None:
        """Fill the object list once the app's worker has listed the numbers."""
        listing = self.query_one(ObjectList)
        listing.load(self.app.doc, numbers)
        if self.shown is not None and self.shown.ref is not None:
            listing.select_number(self.shown.ref.num)

    def on_screen_resume(self) -> None:
        app = self.app
        if not isinstance(app.current, Target):  # opened from another screen: the object shown last, or the trailer
            app.visit(app.last_target or Target(None), push=app.current is not None)
        if app.current != self.shown:
            self.display_target(app.current)

    # -- showing ----------------------------------------------------------------------
    def display_target(self, target: Target) -> None:
        self.shown = target
        if target.line is not None:  # a line of the decoded text is wanted (a search hit, a CMap entry)
            self.raw, self.hex = False, False
        self._object_token += 1
        self._obj = None
        self.query_one("#object-header", Static).update(Text(f"loading {target.describe()}…", style="italic"))
        self.query_one(ObjectView).set_items([note("loading…")])
        self.query_one("#preview", PagePreview).show_image(None)  # until an image is decoded
        if target.ref is not None:
            self.query_one(ObjectList).select_number(target.ref.num)
            self.query_one(ObjectTree).follow(target.ref)
        self.show_backrefs()
        self.load_object(target, self._object_token)

    @work(thread=True, exclusive=True, group="object", exit_on_error=False)
    def load_object(self, target: Target, token: int) -> None:
        with self.app.loader() as doc:
            if get_current_worker().is_cancelled:
                return
            shown = object_display(doc, target)
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._show_object, token, *shown)

    def worker_failed(self, worker: Worker) -> None:
        """A worker failed (the file could not be opened a second time, a core bug): say so in
        place; the app logs the traceback."""
        if self.shown is None:
            return
        line = failure_line(worker.error)
        if worker.group == "object":
            self._show_object(self._object_token, Text(f"{self.shown.describe()}  error: {line}", style="red"), None, [])
        elif worker.group == "stream" and self._obj is not None:
            self._show_stream(self._token, self._obj, None, "hex", line, None)

    def _show_object(self, token: int, header: Text, obj, items: list) -> None:
        if token != self._object_token:
            return
        self._obj = obj
        self.hex = False if self.shown is not None and self.shown.line is not None else None
        self.query_one("#object-header", Static).update(header)
        self.query_one(ObjectView).show_items(items, self.shown.key if self.shown else None)
        is_stream = obj is not None and isinstance(obj.value, Stream)
        self.query_one("#main").set_class(is_stream, "-stream")
        if is_stream:
            self.load_stream()

    def load_stream(self) -> None:
        self._token += 1
        self.query_one("#stream-header", Static).update(Text("decoding…", style="italic"))
        self.decode_stream(self._obj, self.raw, self.stream_key(), self._token, self.hex)

    def stream_key(self) -> str | None:
        """The key that leads to the shown stream: the one followed, else one from the referrers."""
        if self.shown.key is not None:
            return self.shown.key
        refs = self.app.backrefs(self.shown.ref.num) or []
        return next((br.path[-1] for br in refs if br.path and br.path[-1].startswith("/")), None)

    @work(thread=True, exclusive=True, group="stream", exit_on_error=False)
    def decode_stream(self, obj, raw: bool, key: str | None, token: int, hex_mode: bool | None) -> None:
        text = None
        with self.app.loader() as doc:  # obj came from the loader's Document
            result = doc.stream_data(obj, decode_filters=not raw, limit=min(doc.decode_limit, VIEW_LIMIT))
            kind = streams.stream_kind(obj.value.dict, result.data, key)
            picture = None if raw else image_preview(doc, obj, result, kind)
        if not (kind == "hex" if hex_mode is None else hex_mode):
            text = text_lines(result.data)
        self.app.call_from_thread(self._show_stream, token, obj, result, kind, None, text, picture)

    def _show_stream(self, token: int, obj, result, kind: str, error: str | None, text: list[str] | None,
                     picture=None) -> None:
        if token != self._token:
            return
        self.query_one("#preview", PagePreview).show_image(picture)
        self.query_one("#main").set_class(picture is not None, "-picture")  # room for it at 80x24 (app.tcss)
        shown_as = "hex" if text is None else "text" if kind == "hex" else kind  # x shows hex-kind data as text
        head = streams.StreamHeader(self.raw, len(obj.value.raw), result, shown_as, error,
                                    decrypted=self.app.doc.encryption is not None)
        header = styled(head.parts(), STREAM_STYLES)
        data = result.data if result is not None else b""
        tail = [Content(f"⚠ {head.decode_error}").stylize("$text-error")] if head.decode_error else []
        self.query_one("#stream-header", Static).update(header)
        view = self.query_one(StreamView)
        view.show_data(data, kind, text, tail)
        view.marked = self.shown.line - 1 if self.shown.line is not None and text is not None else None
        if view.marked is not None:
            view.call_after_refresh(view.scroll_to, y=max(view.marked - 2, 0), animate=False, immediate=True)

    def show_backrefs(self) -> None:
        panel = self.query_one("#backrefs", WrappedList)
        loading = self.query_one("#backrefs-progress", ProgressBar)
        target = self.shown
        if target is None or target.ref is None:
            loading.display = False
            panel.set_entries([note("(the trailer is not an object)")])
            return
        from_trailer = [(Content.assemble(("trailer", "$text-accent underline"), " ", line.key or ""),
                         TRAILER_REF, None)
                        for line in objects.object_lines(self.app.doc.trailer) if line.ref == target.ref]
        refs = self.app.backrefs(target.ref.num)
        loading.display = refs is None
        if refs is None:
            self.on_backrefs_progress(self.app.index_progress)
            panel.set_entries(from_trailer + [note("indexing references…")])
            return
        items = from_trailer
        for br in refs:
            path = safe_line(" ".join(br.path))
            items.append((Content.assemble((f"{br.source.num} {br.source.gen} R", "$text-accent underline"),
                                           " ", path), br.source, None))
        panel.set_entries(items or [note("nothing refers to this object")])

    def on_backrefs_progress(self, progress: tuple[int, int] | None) -> None:
        if progress is not None:
            done, total = progress
            self.query_one("#backrefs-progress", ProgressBar).update(total=total, progress=done)

    def on_backrefs_ready(self, _) -> None:
        self.show_backrefs()
        if self._obj is not None and isinstance(self._obj.value, Stream) and self.shown.key is None:
            self.load_stream()  # the referrers' keys may tell what the stream holds

    # -- navigation -------------------------------------------------------------------
    def on_line_view_followed(self, event: LineView.Followed) -> None:
        event.stop()
        revision = self.shown.revision if self.shown and event.view.id == "object-view" else None
        self.post_message(ObjectRequested(Target.of(event.ref, revision, event.key)))
        if event.view.id == "object-list":
            self.to_the_object()

    def on_object_tree_opened(self, event: ObjectTree.Opened) -> None:
        event.stop()
        self.post_message(ObjectRequested(Target(event.ref, None, event.key)))
        self.to_the_object()

    def to_the_object(self) -> None:
        """Opened from the tree or list: the object pane takes the focus, and with it the
        width the focused tree or list had (at 80x24 the object was 20 columns); t or l go back."""
        self.query_one(ObjectView).focus()

    def action_toggle_raw(self) -> None:
        if self._obj is not None and isinstance(self._obj.value, Stream):
            self.raw = not self.raw
            self.load_stream()

    def action_toggle_hex(self) -> None:
        if self._obj is not None and isinstance(self._obj.value, Stream):
            self.hex = not (self.query_one(StreamView).kind == "hex")
            self.load_stream()

    def action_step(self, delta: int) -> None:
        numbers = self.query_one(ObjectList).numbers
        if not numbers:
            return
        if self.shown is None or self.shown.ref is None:  # the trailer comes before every object
            num = numbers[0]
        else:
            current = self.shown.ref.num
            i = bisect_left(numbers, current)
            if delta > 0 and i < len(numbers) and numbers[i] == current:
                i += 1
            elif delta < 0:
                i -= 1
            num = numbers[max(0, min(i, len(numbers) - 1))]
        self.post_message(ObjectRequested(Target(object_ref(self.app.doc, num))))

    def action_hit(self, delta: int) -> None:
        self.app.next_hit(delta)

    def action_export(self) -> None:
        """``e``: the save prompt for the object shown (its stream as the view shows it, raw or decoded)."""
        if self.shown is None or self.shown.ref is None:
            self.notify("no object shown: e writes the object the browser shows", severity="warning")
            return
        self.app.push_screen(ExportScreen(self.shown.ref.num, self.raw), self._exported)

    def _exported(self, done) -> None:
        if done is not None:
            self.notify(f"written: {done.summary}" + (f" ({safe_line(done.error)})" if done.error else ""),
                        severity="warning" if done.error else "information", markup=False)

    def action_find(self) -> None:
        """``ctrl+f``: the search screen, scoped to the object shown (the trailer has no number)."""
        if self.shown is None or self.shown.ref is None:
            self.notify("no object shown: ctrl+f searches the object the browser shows", severity="warning")
            return
        self.app.start_search("", self.shown.ref)

    def action_focus_pane(self, pane_id: str) -> None:
        if pane_id == "object-tree":
            self.query_one(TabbedContent).active = "tab-tree"
        elif pane_id == "object-list":
            self.query_one(TabbedContent).active = "tab-list"
        self.query_one(f"#{pane_id}").focus()
