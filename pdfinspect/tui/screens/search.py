"""Search decoded streams and strings for a text or a regex (hits are object + offset), one
object only (``ctrl+f`` in the browser), or the extracted text of every page (hits are page +
operator); the matching is :mod:`pdfinspect.present.search`.

The scan runs in a thread worker over its own :class:`Document` (the core caches are not
shared across threads) and sends hits in batches with the progress so far. The text of each
page, with the operator of each character, is read once and kept (:class:`TextIndex`): a later
query reads the pages already done from memory, and reads the document only for those a
cancelled scan had not reached.
"""
from __future__ import annotations

import re
import time

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Input, ProgressBar, Static
from textual.worker import Worker, get_current_worker

from pdfinspect.core.objects import Ref
from pdfinspect.core.pages import declared_count, iter_page_refs
from pdfinspect.present.search import Hit, PageHit, TextIndex, compile_query, compile_text_query, search_object
from pdfinspect.present.text import safe_line

from ..budget import page_budget
from ..failures import ReportsFailures, failure_line
from ..messages import ObjectRequested, Target
from ..widgets.line_view import LineView, RefList
from ..widgets.stream_view import VIEW_LIMIT

MAX_HITS = 2000
# seconds between the scan's progress messages, and before the first hits are sent (a scan over
# the index is done before that: one message, one repaint)
PROGRESS_EVERY, FIRST_HITS_AFTER = 0.25, 0.1
OBJECTS, PAGE_TEXT = "objects", "page text"  # the two scopes ``ctrl+t`` switches between


def hit_target(hit: Hit) -> Target:
    """Where following an object hit goes: the stream at its line, or the object at the string's key."""
    return Target(hit.ref, None, hit.key, hit.line)


def hit_line(hit: Hit | PageHit) -> Content:
    if isinstance(hit, PageHit):
        return Content.assemble((f"page {hit.page}", "$text-accent"), f"  operator {hit.step}  ",
                                (safe_line(hit.context), "$text-muted"))
    return Content.assemble((f"{hit.ref.num} {hit.ref.gen} R", "$text-accent"),
                            f"  {safe_line(hit.where)} @{hit.offset}  ", (safe_line(hit.context), "$text-muted"))


class SearchScreen(ReportsFailures, Screen):
    """Type a text (or ``re:`` and a regex) and Enter; ``enter`` on a hit opens it: an object
    hit in the browser at its line, a page-text hit in the stepper at its operator."""

    BINDINGS = [
        Binding("escape", "leave", "Leave", id="leave-search",
                tooltip="From the query to the hits; from the hits back to the previous screen"),
        Binding("slash", "focus_input", "Edit query", id="edit-query", tooltip="Edit the query"),
        Binding("ctrl+t", "toggle_scope", "Objects/page text", id="search-scope", priority=True,
                tooltip="Search decoded streams and strings, or the extracted text of every page"),
    ]

    class Progress(Message):
        def __init__(self, hits: list[Hit | PageHit], scanned: int, total: int, done: bool,
                     error: str | None = None) -> None:
            super().__init__()
            self.hits = hits
            self.scanned = scanned
            self.total = total
            self.done = done
            self.error = error  # why the scan stopped short (then ``done`` is true)

    def __init__(self) -> None:
        super().__init__()
        self.hits: list[Hit | PageHit] = []
        self.lines: list[tuple[Content, Ref | None, None]] = []  # the hit list's, one a hit
        self.scope = OBJECTS
        self.only: Ref | None = None  # with ctrl+f from the browser: search this object only
        self.unit = "objects"
        self.text_index = TextIndex()  # the page text of the app's document, kept for every query
        self.page_total: int | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="search-title", classes="panel-title", markup=False)
        yield Input(placeholder="text to find", id="search-input")
        yield ProgressBar(id="search-progress", show_eta=False)
        yield Static(id="search-status", markup=False)
        yield RefList(id="search-hits")
        yield Footer()

    def on_mount(self) -> None:
        self.show_title()

    def show_title(self) -> None:
        if self.scope == PAGE_TEXT:
            what = "Search the text of every page"
        elif self.only is not None:
            what = f"Search object {self.only.num} {self.only.gen} only"
        else:
            what = "Search decoded streams and strings"
        self.query_one("#search-title", Static).update(f"{what}  (re: regex; ctrl+t: objects/page text)")

    def on_screen_resume(self) -> None:
        pending = self.app.pending_search
        if pending is not None:
            self.app.pending_search = None
            query, self.only = pending
            self.scope = OBJECTS
            self.show_title()
            self.query_one(Input).value = query
            if query:
                self.start(query)
            else:
                self.query_one(Input).focus()
        elif not self.hits:
            self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.start(event.value)

    def action_toggle_scope(self) -> None:
        """``ctrl+t``: objects (all of them) ⇄ page text; the query runs again in the new scope."""
        self.scope = PAGE_TEXT if self.scope == OBJECTS else OBJECTS
        self.only = None
        self.show_title()
        self.start(self.query_one(Input).value)

    def start(self, query: str) -> None:
        regex = query.startswith("re:")
        text = query[3:] if regex else query
        status = self.query_one("#search-status", Static)
        if not text:
            return
        try:
            pattern = compile_text_query(text, regex) if self.scope == PAGE_TEXT else compile_query(text, regex)
        except re.error as e:
            status.update(Content(f"bad regex: {e}").stylize("$text-error"))
            return
        self.hits, self.lines = [], []
        self.query_one(RefList).set_items(self.lines)
        status.update(Content(f"searching for {safe_line(text)!r}…"))
        self.query_one(RefList).focus()
        self.unit = "pages" if self.scope == PAGE_TEXT else "objects"
        self.scan(pattern, self.scope, self.only)

    @work(thread=True, exclusive=True, group="search", exit_on_error=False)
    def scan(self, pattern: re.Pattern, scope: str, only: Ref | None) -> None:
        if scope == PAGE_TEXT:
            self.scan_text(pattern)
            return
        doc = self.app.worker_doc()
        try:
            objects = [doc.get(only.num, only.gen)] if only is not None else doc.iter_objects(cache=False)
            total = 1 if only is not None else len(doc.object_numbers())
            self._scan((o for o in objects if o is not None), lambda obj: search_object(
                doc, obj, pattern, VIEW_LIMIT), total)
        finally:
            doc.close()

    def scan_text(self, pattern: re.Pattern) -> None:
        """Search the text of every page: from the index, a worker's fork of the document made
        only for the pages not in it yet (and then only once). Until a scan has met every page,
        the pages come as the walk of the page tree meets them (the first hits before the whole
        tree is read: 0.4 s on source3.pdf), counted against the tree's /Count meanwhile."""
        index, opened = self.text_index, []

        def doc():
            if not opened:
                opened.append(self.app.worker_doc())
            return opened[0]

        def search(page: tuple[int, Ref | None]) -> list[PageHit]:
            n, ref = page
            return index.search(doc() if index.needs_doc(n) else None, n, pattern, budget=page_budget(), ref=ref)
        try:
            if self.page_total is not None:
                self._scan([(n, None) for n in range(1, self.page_total + 1)], search)
            else:
                met = self._scan(enumerate(iter_page_refs(doc()), 1), search, declared_count(doc()) or 0, exact=False)
                if met is not None:
                    self.page_total = met
        finally:
            for d in opened:
                d.close()

    def worker_failed(self, worker: Worker) -> None:
        # the file could not be reopened, or the core failed walking it (the app logs the traceback)
        if worker.group == "search":
            self.on_search_screen_progress(self.Progress([], 0, 0, True, failure_line(worker.error)))

    def _scan(self, items, search, total: int | None = None, exact: bool = True) -> int | None:
        """Search each of ``items``, posting the hits in batches with the progress against ``total``
        (a count that may prove wrong unless ``exact``); the number of items when every one was
        searched (not cancelled, not stopped at ``MAX_HITS``)."""
        worker = get_current_worker()
        if total is None:
            total = len(items)
        batch: list[Hit | PageHit] = []
        found = scanned = 0
        last = time.monotonic()
        shown = False  # a batch of hits was posted
        for item in items:
            if worker.is_cancelled:
                return None
            scanned += 1
            if not exact:
                total = max(total, scanned)
            try:
                hits = search(item)
            except Exception:  # an object or page the core cannot read has no hits
                hits = []
            hits = hits[:MAX_HITS - found]
            found += len(hits)
            batch.extend(hits)
            if time.monotonic() - last > (FIRST_HITS_AFTER if batch and not shown else PROGRESS_EVERY):
                self.post_message(self.Progress(batch, scanned, total, False))
                shown = shown or bool(batch)
                batch, last = [], time.monotonic()
            if found >= MAX_HITS:
                break
        else:  # every item met (an estimated count is known now)
            self.post_message(self.Progress(batch, scanned, total if exact else scanned, True))
            return scanned
        self.post_message(self.Progress(batch, scanned, total, True))
        return None

    def on_search_screen_progress(self, message: Progress) -> None:
        bar = self.query_one(ProgressBar)
        bar.update(total=max(message.total, 1), progress=message.total if message.done else message.scanned)
        hit_list = self.query_one(RefList)
        if message.hits:
            self.hits.extend(message.hits)
            self.lines.extend((hit_line(h), h.ref, None) for h in message.hits)
            hit_list.set_items(self.lines, hit_list.cursor)
        status = self.query_one("#search-status", Static)
        if message.error is not None:
            status.update(Content(f"stopped: {len(self.hits)} hits, error: {safe_line(message.error)}")
                          .stylize("$text-error"))
            return
        state = "done" if message.done else "searching"
        capped = f" (stopped at {MAX_HITS})" if len(self.hits) >= MAX_HITS else ""
        status.update(Content(f"{state}: {len(self.hits)} hits{capped} in {message.scanned} of "
                              f"{message.total} {self.unit}"))

    def on_line_view_followed(self, event: LineView.Followed) -> None:
        event.stop()
        hit = self.hits[event.index]
        if isinstance(hit, PageHit):
            self.app.open_content_view("stepper", hit.page, step=hit.step)
            return
        objects = [h for h in self.hits if isinstance(h, Hit)]
        self.app.hits, self.app.hit_index = objects, objects.index(hit)  # n/N in the browser walk them
        self.post_message(ObjectRequested(hit_target(hit)))

    def action_leave(self) -> None:
        """``escape``: from the query to the hits (when there are some), from the hits back
        to the screen the search was opened from."""
        hits = self.query_one(RefList)
        if self.query_one(Input).has_focus and hits.line_count:
            hits.focus()
        else:
            self.workers.cancel_group(self, "search")  # the pages laid out so far stay in the index
            self.app.switch_mode(self.app.previous_mode or "browser")

    def action_focus_input(self) -> None:
        self.query_one(Input).focus()
