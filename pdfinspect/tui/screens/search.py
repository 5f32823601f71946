"""Search decoded streams and strings for a text or a regex; hits are object + offset.

The scan runs in a thread worker over its own :class:`Document` (the core caches are not
shared across threads) and sends hits in batches with the progress so far.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Input, ProgressBar, Static
from textual.worker import Worker, get_current_worker

from pdfinspect.core.objects import Array, Dict, Ref, Stream, String
from pdfinspect.core.textstrings import decode_text
from pdfinspect.present.text import safe_line

from ..failures import ReportsFailures, failure_line
from ..messages import ObjectRequested, Target
from ..widgets.line_view import LineView, RefList
from ..widgets.stream_view import VIEW_LIMIT

MAX_HITS = 2000
CONTEXT = 24


@dataclass(frozen=True, slots=True)
class Hit:
    ref: Ref
    where: str  # "stream" or the key path of a string
    offset: int
    context: str  # text around the hit, decoded as well as we can (not yet made safe)
    line: int | None = None  # the line of the decoded stream (1-based, as the browser shows it)
    key: str | None = None  # the dictionary key of a string hit

    def target(self) -> Target:
        """Where following the hit goes: the stream at its line, or the object at the string's key."""
        return Target(self.ref, None, self.key, self.line)


def _strings_in(value, path: str):
    if isinstance(value, String):
        yield path, value.value
    elif isinstance(value, Stream):
        yield from _strings_in(value.dict, path)
    elif isinstance(value, Dict):
        for k, v in value.items():
            yield from _strings_in(v, f"{path}/{k}")
    elif isinstance(value, Array):
        for i, v in enumerate(value):
            yield from _strings_in(v, f"{path}[{i}]")


def compile_query(query: str, regex: bool) -> re.Pattern[bytes]:
    """A bytes pattern: a text query matches its Latin-1, UTF-8 and UTF-16BE forms (PDF text
    strings are PDFDocEncoding or UTF-16BE, 7.9.2.2; content bytes depend on the font).
    A regex is compiled over the UTF-8 bytes of ``query``; raises ``re.error``."""
    if regex:
        return re.compile(query.encode("utf-8"), re.IGNORECASE)
    forms = {query.encode("utf-8"), query.encode("utf-16-be")}
    try:
        forms.add(query.encode("latin-1"))
    except UnicodeEncodeError:
        pass
    return re.compile(b"|".join(re.escape(f) for f in sorted(forms)), re.IGNORECASE)


def _around(data: bytes, m: re.Match) -> str:
    chunk = data[max(0, m.start() - CONTEXT):m.end() + CONTEXT]
    try:
        return chunk.decode("utf-8")
    except UnicodeDecodeError:
        return chunk.decode("latin-1")


def search_object(doc, obj, pattern: re.Pattern[bytes]) -> list[Hit]:
    hits = []
    for path, data in _strings_in(obj.value, ""):
        for m in pattern.finditer(data):
            key = "/" + path.rsplit("/", 1)[-1].split("[")[0] if "/" in path else None
            hits.append(Hit(obj.ref, path or "string", m.start(), decode_text(data)[:120], None, key))
    if isinstance(obj.value, Stream):
        data = doc.stream_data(obj, limit=min(doc.decode_limit, VIEW_LIMIT)).data
        for m in pattern.finditer(data):
            hits.append(Hit(obj.ref, "stream", m.start(), _around(data, m), line_at(data, m.start())))
    return hits


def line_at(data: bytes, offset: int) -> int:
    """The 1-based line of ``offset`` as the stream view counts lines (CR, LF and CRLF end one)."""
    head = data[:offset]
    return head.count(b"\n") + head.count(b"\r") - head.count(b"\r\n") + 1


def hit_line(hit: Hit) -> Content:
    return Content.assemble((f"{hit.ref.num} {hit.ref.gen} R", "$text-accent"),
                            f"  {safe_line(hit.where)} @{hit.offset}  ", (safe_line(hit.context), "$text-muted"))


class SearchScreen(ReportsFailures, Screen):
    """Type a text (or ``re:`` and a regex) and Enter; ``enter`` on a hit opens its object."""

    BINDINGS = [
        Binding("escape", "leave", "Leave", id="leave-search",
                tooltip="From the query to the hits; from the hits back to the previous screen"),
        Binding("slash", "focus_input", "Edit query", id="edit-query", tooltip="Edit the query"),
    ]

    class Progress(Message):
        def __init__(self, hits: list[Hit], scanned: int, total: int, done: bool, error: str | None = None) -> None:
            super().__init__()
            self.hits = hits
            self.scanned = scanned
            self.total = total
            self.done = done
            self.error = error  # why the scan stopped short (then ``done`` is true)

    def __init__(self) -> None:
        super().__init__()
        self.hits: list[Hit] = []

    def compose(self) -> ComposeResult:
        yield Static("Search decoded streams and strings  (prefix re: for a regex)", classes="panel-title")
        yield Input(placeholder="text to find", id="search-input")
        yield ProgressBar(id="search-progress", show_eta=False)
        yield Static(id="search-status", markup=False)
        yield RefList(id="search-hits")
        yield Footer()

    def on_screen_resume(self) -> None:
        pending = self.app.pending_search
        if pending is not None:
            self.app.pending_search = None
            self.query_one(Input).value = pending
            self.start(pending)
        elif not self.hits:
            self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.start(event.value)

    def start(self, query: str) -> None:
        regex = query.startswith("re:")
        text = query[3:] if regex else query
        status = self.query_one("#search-status", Static)
        if not text:
            return
        try:
            pattern = compile_query(text, regex)
        except re.error as e:
            status.update(Content(f"bad regex: {e}").stylize("$text-error"))
            return
        self.hits = []
        self.query_one(RefList).set_items([])
        status.update(Content(f"searching for {safe_line(text)!r}…"))
        self.query_one(RefList).focus()
        self.scan(pattern)

    @work(thread=True, exclusive=True, group="search", exit_on_error=False)
    def scan(self, pattern: re.Pattern[bytes]) -> None:
        self._scan(pattern)

    def worker_failed(self, worker: Worker) -> None:
        # the file could not be reopened, or the core failed walking it (the app logs the traceback)
        if worker.group == "search":
            self.on_search_screen_progress(self.Progress([], 0, 0, True, failure_line(worker.error)))

    def _scan(self, pattern: re.Pattern[bytes]) -> None:
        worker = get_current_worker()
        doc = self.app.reopen()
        total = len(doc.object_numbers())
        batch: list[Hit] = []
        found = scanned = 0
        last = time.monotonic()
        for obj in doc.iter_objects(cache=False):
            if worker.is_cancelled:
                return
            scanned += 1
            try:
                hits = search_object(doc, obj, pattern)
            except Exception:  # an object the core cannot decode has no hits
                hits = []
            hits = hits[:MAX_HITS - found]
            found += len(hits)
            batch.extend(hits)
            if time.monotonic() - last > 0.1:
                self.post_message(self.Progress(batch, scanned, total, False))
                batch, last = [], time.monotonic()
            if found >= MAX_HITS:
                break
        self.post_message(self.Progress(batch, scanned, total, True))

    def on_search_screen_progress(self, message: Progress) -> None:
        bar = self.query_one(ProgressBar)
        bar.update(total=max(message.total, 1), progress=message.total if message.done else message.scanned)
        hit_list = self.query_one(RefList)
        if message.hits:
            self.hits.extend(message.hits)
            cursor = hit_list.cursor
            hit_list.set_items([(hit_line(h), h.ref, None) for h in self.hits], cursor)
        status = self.query_one("#search-status", Static)
        if message.error is not None:
            status.update(Content(f"stopped: {len(self.hits)} hits, error: {safe_line(message.error)}")
                          .stylize("$text-error"))
            return
        state = "done" if message.done else "searching"
        capped = f" (stopped at {MAX_HITS})" if len(self.hits) >= MAX_HITS else ""
        status.update(Content(f"{state}: {len(self.hits)} hits{capped} in {message.scanned} of {message.total} objects"))

    def on_line_view_followed(self, event: LineView.Followed) -> None:
        event.stop()
        self.app.hits, self.app.hit_index = self.hits, event.index  # n/N in the browser walk them
        self.post_message(ObjectRequested(self.hits[event.index].target()))

    def action_leave(self) -> None:
        """``escape``: from the query to the hits (when there are some), from the hits back
        to the screen the search was opened from."""
        hits = self.query_one(RefList)
        if self.query_one(Input).has_focus and hits.line_count:
            hits.focus()
        else:
            self.app.switch_mode(self.app.previous_mode or "browser")

    def action_focus_input(self) -> None:
        self.query_one(Input).focus()
