"""Revisions of an incrementally updated file (ISO 32000 7.5.6): what each save changed.

Left: the revisions, oldest first. Middle: the objects the selected revision wrote,
marked ``+`` added, ``~`` changed, ``-`` freed, ``=`` written again unchanged. Right: the
object under the cursor as of the previous revision beside its value in this one; under a
stream's new value, its decoded data as a unified diff against the previous revision (or a
byte summary for binary data), and so for a stream a key now points at instead of another
(``fix``'s new /ToUnicode), as ``pdfinspect diff`` prints them.

Comparing revisions reads every cross-reference entry (126,639 in TeX Live's
source3.pdf) and an object may be huge, so both run in workers on the app's loader
Document; the lists are built a line at a time as they are drawn.
"""
from __future__ import annotations

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import Worker, get_current_worker

from pdfinspect.core.document import RevisionChanges
from pdfinspect.core.objects import Ref
from pdfinspect.core.xref import XrefEntry
from pdfinspect.present.history import object_diff
from pdfinspect.present.text import safe_line

from ..memory import building
from ..failures import ReportsFailures, failure_line
from ..messages import TRAILER_REF, ObjectRequested, Target
from ..widgets.line_view import LineView, note
from ..widgets.object_view import Item, ObjectView, lines_not_in, object_items

MARKS = (("+", "added", "$text-success"), ("~", "changed", "$text-warning"), ("-", "freed", "$text-error"),
         ("=", "relisted", "$text-muted"))
Row = tuple[int, int, XrefEntry]  # (index in MARKS, object number, the revision's entry for it)


STACKED_UNDER = 160  # columns: narrower screens show before above after
TRAILER_LINE = Content.assemble(("T", "$text-primary"), " trailer")


def change_rows(ch: RevisionChanges, entries: dict[int, XrefEntry]) -> list[Row]:
    return [(m, num, entries[num]) for m, nums in enumerate((ch.added, ch.changed, ch.freed, ch.relisted))
            for num in nums]


def change_line(row: Row) -> Content:
    m, num, entry = row
    mark, label, style = MARKS[m]
    return Content.assemble((mark, style), f" {num:>6} {label:<9}", (safe_line(entry.describe()), "$text-muted"))


def rows_width(rows: list[Row]) -> int:
    """The width of the widest of the first 5,000 lines: the list's virtual width."""
    return max([TRAILER_LINE.cell_length] + [change_line(row).cell_length for row in rows[:5000]])


def revision_label(doc, k: int, ch: RevisionChanges | None) -> Text:
    """Revision ``k``: its startxref and section kinds, and its changes once counted."""
    rev = doc.revisions[k]
    kinds = "+".join(sorted({s.kind for s in rev.sections})) or "rebuilt"
    t = Text(f"Revision {k}" + (" (original)" if k == 0 else ""), style="bold")
    t.append(f"  startxref {rev.startxref}  {kinds}\n")
    counts = f"+{len(ch.added)} ~{len(ch.changed)} -{len(ch.freed)} ={len(ch.relisted)}" if ch else "counting…"
    t.append(f"  {counts}", style="dim")
    return t


def side(doc, ref: Ref, rev: int, k: int, width: int) -> tuple[Text, list[Item]]:
    """(title, lines ``width`` columns wide) of one side of the comparison: ``ref`` as of revision ``rev``."""
    if rev < 0:
        return Text("Before: nothing (first revision)"), object_items(None, ["% no earlier revision"])
    try:
        if ref == TRAILER_REF:
            value, label = doc.revisions[rev].trailer, "trailer"
        else:
            obj = doc.get(ref.num, None, rev)
            value, label = (obj.value if obj else None), f"{ref.num} {ref.gen} obj"
            if obj is None:
                label += " (absent or free)"
        return Text(f"{'Before' if rev < k else 'After'}: {label} in revision {rev}"), object_items(value, width=width)
    except Exception as e:  # a broken object shows its error in place
        return Text(f"revision {rev}: error", style="red"), object_items(None, [f"% error: {safe_line(str(e))}"])


DIFF_STYLES = (("+++", "bold"), ("---", "bold"), ("@@", "$text-muted"), ("+", "$text-success"),
               ("-", "$text-error"))


def stream_diff_items(doc, num: int, a: int, b: int) -> list[Item]:
    """Object ``num``'s stream data (and any stream a key of it now points at instead of
    another) as a unified diff from revision ``a`` to ``b``, one terminal-safe line each."""
    try:
        d = object_diff(doc, num, a, b)
    except Exception as e:  # a broken stream says so in place
        return [note(f"% stream diff: error: {safe_line(str(e))}")]
    parts = [(f"% stream ({d.stream.kind}), decoded: {d.stream.before} → {d.stream.after} bytes", d.stream)
             ] if d.stream is not None and not d.stream.same else []
    parts += [(f"% /{r.key} now {r.after} instead of {r.before}: {r.stream.kind}, {r.stream.before} → "
               f"{r.stream.after} bytes", r.stream) for r in d.replaced]
    items: list[Item] = []
    for title, diff in parts:
        items.append(note(title))
        for line in diff.lines:
            style = next((s for prefix, s in DIFF_STYLES if line.startswith(prefix)), "")
            items.append((Content(line).stylize(style) if style else Content(line), None, None))
    return items


class ChangeList(LineView):
    """The objects one revision wrote: the trailer, then ``(mark, num, entry)`` rows."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows: list[Row] = []

    def show(self, rows: list[Row], width: int) -> None:
        self.rows = rows
        self.set_reactive(LineView.cursor, 1 if self.rows else 0)
        self.reset(width)
        self.scroll_to(y=0, animate=False, immediate=True)

    @property
    def line_count(self) -> int:
        return len(self.rows) + 1

    def build_line(self, index: int) -> Content:
        return change_line(self.rows[index - 1]) if index else TRAILER_LINE

    def line_ref(self, index: int) -> tuple[Ref, str | None]:
        if not index:
            return TRAILER_REF, None
        _, num, entry = self.rows[index - 1]
        return Ref(num, entry.gen), None


class RevisionsScreen(ReportsFailures, Screen):
    """Pick a revision; ``enter`` on an object opens it as of that revision."""

    BINDINGS = [
        Binding("left_square_bracket", "pick(-1)", "Older", id="older-revision"),
        Binding("right_square_bracket", "pick(1)", "Newer", id="newer-revision"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.revision = 0
        self.changes: dict[int, tuple[RevisionChanges, list[Row], int]] = {}  # by revision: changes, rows, width
        self._token = 0

    def compose(self) -> ComposeResult:
        with Horizontal():
            with Vertical(id="revision-pick"):
                yield Static("Revisions", classes="panel-title")
                yield OptionList(id="revision-list")
            with Vertical(id="revision-changes"):
                yield Static("Written by this revision", classes="panel-title")
                yield ChangeList(id="changed-objects")
            with Horizontal(id="revision-sides"):
                with Vertical(id="revision-before"):
                    yield Static("Before", id="before-title", classes="panel-title", markup=False)
                    yield ObjectView(id="before-view")
                with Vertical(id="revision-after"):
                    yield Static("After", id="after-title", classes="panel-title", markup=False)
                    yield ObjectView(id="after-view")
        yield Footer()

    def on_resize(self) -> None:
        """Under 160 columns the two sides are one above the other, each as wide as the rest
        of the screen (side by side at 80 columns each had 19)."""
        self.query_one("#revision-sides").set_class(self.size.width < STACKED_UNDER, "-stacked")

    def on_mount(self) -> None:
        doc = self.app.doc
        options = self.query_one("#revision-list", OptionList)
        options.add_options([Option(revision_label(doc, k, None), id=str(k)) for k in range(len(doc.revisions))])
        if doc.revisions:
            options.highlighted = len(doc.revisions) - 1
        options.focus()
        self.count_changes()

    @work(thread=True, exclusive=True, group="revisions", exit_on_error=False)
    def count_changes(self) -> None:
        with building(), self.app.loader() as doc:  # 126,639 rows for source3.pdf
            for k in range(len(doc.revisions) - 1, -1, -1):  # the newest is shown first
                if get_current_worker().is_cancelled:
                    return
                try:
                    ch = doc.revision_changes(k)
                    rows = change_rows(ch, doc.revisions[k].entries)
                except Exception:  # a core bug on one revision: the others still count
                    ch, rows = RevisionChanges((), (), (), ()), []
                self.app.call_from_thread(self._counted, k, ch, rows, rows_width(rows))

    def _counted(self, k: int, ch: RevisionChanges, rows: list[Row], width: int) -> None:
        self.changes[k] = ch, rows, width
        self.query_one("#revision-list", OptionList).replace_option_prompt(str(k), revision_label(self.app.doc, k, ch))
        if k == self.revision:
            self.show_changes(k)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.select_revision(int(event.option.id))

    def select_revision(self, k: int) -> None:
        self.revision = k
        if k in self.changes:
            self.show_changes(k)
        else:
            self.query_one("#changed-objects", ChangeList).show([], TRAILER_LINE.cell_length)
            self.compare(0)

    def show_changes(self, k: int) -> None:
        changes = self.query_one("#changed-objects", ChangeList)
        changes.show(*self.changes[k][1:])
        self.compare(changes.cursor)

    def on_line_view_moved(self, event: LineView.Moved) -> None:
        if event.view.id == "changed-objects":
            self.compare(event.index)

    def compare(self, index: int) -> None:
        """Show the object on line ``index`` before and after the revision (read in a worker)."""
        self._token += 1
        for view_id in ("#before-view", "#after-view"):
            self.query_one(view_id, ObjectView).set_items([note("loading…")])
        ref = self.query_one("#changed-objects", ChangeList).line_ref(index)[0]
        width = max(self.query_one("#after-view").size.width - 2, 24)
        self.load_sides(ref, self.revision, width, self._token)

    @work(thread=True, exclusive=True, group="revision-object", exit_on_error=False)
    def load_sides(self, ref: Ref, k: int, width: int, token: int) -> None:
        with self.app.loader() as doc:
            if get_current_worker().is_cancelled:
                return
            before, after = side(doc, ref, k - 1, k, width), side(doc, ref, k, k, width)
            streams = stream_diff_items(doc, ref.num, k - 1, k) if k > 0 and ref != TRAILER_REF else []
        if k > 0:  # mark the lines the other side does not have (a line-wise diff)
            before, after = (before[0], lines_not_in(before[1], after[1])), (after[0], lines_not_in(after[1], before[1]))
            after[1].extend(streams)
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._show_sides, token, before, after)

    def worker_failed(self, worker: Worker) -> None:
        # the file could not be opened a second time, or a core bug (the app logs the traceback)
        if worker.group == "revision-object":
            error = Text(f"error: {failure_line(worker.error)}", style="red"), []
            self._show_sides(self._token, error, error)

    def _show_sides(self, token: int, before: tuple[Text, list[Item]], after: tuple[Text, list[Item]]) -> None:
        if token != self._token:
            return
        for (title, items), view_id, title_id in ((before, "#before-view", "#before-title"),
                                                   (after, "#after-view", "#after-title")):
            self.query_one(title_id, Static).update(title)
            self.query_one(view_id, ObjectView).show_items(items)

    def on_line_view_followed(self, event: LineView.Followed) -> None:
        event.stop()
        revision = self.revision
        if event.view.id == "before-view":
            revision -= 1
        self.post_message(ObjectRequested(Target.of(event.ref, max(revision, 0), event.key)))

    def action_pick(self, delta: int) -> None:
        options = self.query_one("#revision-list", OptionList)
        options.highlighted = max(0, min((options.highlighted or 0) + delta, options.option_count - 1))
