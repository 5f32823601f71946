"""Revisions of an incrementally updated file (ISO 32000 7.5.6): what each save changed.

Left: the revisions, oldest first. Middle: the objects the selected revision wrote,
marked ``+`` added, ``~`` changed, ``-`` freed, ``=`` written again unchanged. Right: the
object under the cursor as of the previous revision beside its value in this one.
"""
from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from pdfinspect.core.objects import Ref
from pdfinspect.present.text import safe_line

from ..messages import TRAILER_REF, ObjectRequested, Target
from ..widgets.line_view import LineView, RefList
from ..widgets.object_view import ObjectView

MARKS = (("+", "added", "$text-success"), ("~", "changed", "$text-warning"), ("-", "freed", "$text-error"),
         ("=", "relisted", "$text-muted"))


def revision_label(doc, k: int) -> Text:
    rev = doc.revisions[k]
    ch = doc.revision_changes(k)
    kinds = "+".join(sorted({s.kind for s in rev.sections})) or "rebuilt"
    t = Text(f"Revision {k + 1}", style="bold")
    t.append(f"  startxref {rev.startxref}  {kinds}\n")
    t.append(f"  +{len(ch.added)} ~{len(ch.changed)} -{len(ch.freed)} ={len(ch.relisted)}", style="dim")
    return t


class RevisionsScreen(Screen):
    """Pick a revision; ``enter`` on an object opens it as of that revision."""

    BINDINGS = [
        Binding("left_square_bracket", "pick(-1)", "Older", id="older-revision"),
        Binding("right_square_bracket", "pick(1)", "Newer", id="newer-revision"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.revision = 0

    def compose(self) -> ComposeResult:
        with Horizontal():
            with Vertical(id="revision-pick"):
                yield Static("Revisions", classes="panel-title")
                yield OptionList(id="revision-list")
            with Vertical(id="revision-changes"):
                yield Static("Written by this revision", classes="panel-title")
                yield RefList(id="changed-objects")
            with Vertical(id="revision-before"):
                yield Static("Before", id="before-title", classes="panel-title", markup=False)
                yield ObjectView(id="before-view")
            with Vertical(id="revision-after"):
                yield Static("After", id="after-title", classes="panel-title", markup=False)
                yield ObjectView(id="after-view")
        yield Footer()

    def on_mount(self) -> None:
        doc = self.app.doc
        options = self.query_one("#revision-list", OptionList)
        options.add_options([Option(revision_label(doc, k), id=str(k)) for k in range(len(doc.revisions))])
        if doc.revisions:
            options.highlighted = len(doc.revisions) - 1
        options.focus()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.select_revision(int(event.option.id))

    def select_revision(self, k: int) -> None:
        self.revision = k
        doc = self.app.doc
        ch = doc.revision_changes(k)
        items = [(Content.assemble(("T", "$text-primary"), " trailer"), TRAILER_REF, None)]
        for (mark, label, style), nums in zip(MARKS, (ch.added, ch.changed, ch.freed, ch.relisted)):
            for num in nums:
                entry = doc.revisions[k].entries[num]
                items.append((Content.assemble((mark, style), f" {num:>6} {label:<9}",
                                               (safe_line(entry.describe()), "$text-muted")),
                              Ref(num, entry.gen), None))
        changes = self.query_one("#changed-objects", RefList)
        changes.set_items(items, 1 if len(items) > 1 else 0)
        self.compare(changes.cursor)

    def on_line_view_moved(self, event: LineView.Moved) -> None:
        if event.view.id == "changed-objects":
            self.compare(event.index)

    def compare(self, index: int) -> None:
        items = self.query_one("#changed-objects", RefList).items
        if not items:
            return
        ref = items[index][1]
        k = self.revision
        for view_id, title_id, rev in (("#before-view", "#before-title", k - 1), ("#after-view", "#after-title", k)):
            view = self.query_one(view_id, ObjectView)
            title = self.query_one(title_id, Static)
            if rev < 0:
                title.update(Text("Before: nothing (first revision)"))
                view.show_value(None, ["% no earlier revision"])
                continue
            try:
                if ref == TRAILER_REF:
                    value, label = self.app.doc.revisions[rev].trailer, "trailer"
                else:
                    obj = self.app.doc.get(ref.num, None, rev)
                    value, label = (obj.value if obj else None), f"{ref.num} {ref.gen} obj"
                    if obj is None:
                        label += " (absent or free)"
                title.update(Text(f"{'Before' if rev < k else 'After'}: {label} in revision {rev + 1}"))
                view.show_value(value, width=max(view.size.width - 2, 24))
            except Exception as e:  # a broken object shows its error in place
                title.update(Text(f"revision {rev + 1}: error", style="red"))
                view.show_value(None, [f"% error: {safe_line(str(e))}"])
        before, after = self.query_one("#before-view", ObjectView), self.query_one("#after-view", ObjectView)
        if k > 0:
            before.mark_lines_not_in(after)
            after.mark_lines_not_in(before)

    def on_line_view_followed(self, event: LineView.Followed) -> None:
        event.stop()
        revision = self.revision
        if event.view.id == "before-view":
            revision -= 1
        self.post_message(ObjectRequested(Target.of(event.ref, max(revision, 0), event.key)))

    def action_pick(self, delta: int) -> None:
        options = self.query_one("#revision-list", OptionList)
        options.highlighted = max(0, min((options.highlighted or 0) + delta, options.option_count - 1))
