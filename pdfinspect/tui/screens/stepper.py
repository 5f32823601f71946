"""The content stepper: a page's operators one at a time with the state they leave behind.

The page is interpreted in a worker thread (on a second :class:`Document`, see
``App.worker_doc``) that also resolves every glyph, and the steps reach the operator list in
batches, so a page of 100,000 operators is browsable while it is still being run. Every
step carries immutable state snapshots (``content.state``): showing one is a lookup.
"""
from __future__ import annotations

import time

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Static
from textual.worker import Worker, get_current_worker

from pdfinspect.content.gaps import glyph_layouts
from pdfinspect.content.geometry import Geometry
from pdfinspect.content.interpreter import Step, iter_steps
from pdfinspect.content.structure import mcid_key
from pdfinspect.content.textlayout import GlyphRecord, layout, step_records
from pdfinspect.core.objects import Ref
from pdfinspect.core.structtree import mcid_parents
from pdfinspect.fonts.resolve import Resolver
from pdfinspect.present.content import CODE_BREAK, DIAGNOSTIC, FONT_BREAK, breakpoint_label, breaks_at, state_rows
from pdfinspect.present.glyphs import gap_text
from pdfinspect.present.text import Row, safe, safe_line

from ..budget import page_budget
from ..failures import ReportsFailures, failure_line
from ..memory import building
from ..widgets.column_list import ColumnList, PickList
from ..widgets.glyph_panels import GLYPH_COLUMNS, PagePrompt, PathList, glyph_cells
from ..widgets.line_view import LineView
from ..widgets.op_list import OpList
from ..widgets.preview import PagePreview, PreviewHost, step_request
from ..widgets.source_excerpt import source_excerpt

FIRST_BATCH = 500  # steps in the worker's first hand-over: the first operators show at once
BATCH = 10_000  # steps per later hand-over (each costs the UI a redraw and blocks the worker)
YIELD_EVERY = 10  # steps between the worker's looks at whether the UI thread wants the GIL
QUIET = 0.06  # seconds the worker sleeps after a step is shown: the frame is drawn without it
TEXT_WINDOW = 600  # glyphs laid out for "text so far": enough for the lines shown, cheap per step
TEXT_LINES = 6
MARK = "reverse bold"  # the current operator's glyphs in the text drawn so far
SOURCE_LINES, SOURCE_BEFORE = 8, 3  # lines of source shown, at most this many before the operator's


def state_text(step: Step, prev: Step | None = None, gap: str | None = None, owners: dict | None = None) -> Text:
    """The state panel: :func:`pdfinspect.present.content.state_rows`, labels in bold; what
    the operator changed, what went wrong and (``gap``, :func:`~pdfinspect.present.glyphs.gap_text`)
    the gap before a text operator's first glyph come right under the step (80x24 shows six rows).
    ``owners`` (MCID → structure element, from the /ParentTree) adds the element that owns
    the operator's marked content."""
    first, *rest = state_rows(step, prev)
    if gap is not None:
        rest.append(Row("gap", gap.removeprefix("gap before: ")))
    key = mcid_key(step) if owners else None
    if key is not None and key[0] is None and key[1] in owners:
        ref, kind = owners[key[1]]
        rest.append(Row("element", f"/{safe_line(kind)} {ref.num} {ref.gen} R owns MCID {key[1]} (structure tree)"))
    out = Text()
    for row in [first, *sorted(rest, key=lambda r: not (r.role == DIAGNOSTIC or r.label in ("changed", "gap")))]:
        if row.role == DIAGNOSTIC:
            out.append(f"{row.label} {row.value}\n", style="red")
        else:
            out.append(f"{row.label:<8}", style="bold")
            out.append(row.value + "\n")
    out.rstrip()
    return out


class StepperScreen(PreviewHost, ReportsFailures, PagePrompt, Screen):
    """Step through page N's content stream (open from the palette or ``--page N --step``)."""

    PAGE_MODE = "stepper"
    AUTO_FOCUS = "#ops"
    BINDINGS = [
        Binding("n", "step(1)", "Step", id="step-forward", tooltip="Next operator"),
        Binding("E", "extractors", "Extractors", show=False, id="stepper-extractors",
                tooltip="What the real text extractors output for this page, against their emulation"),
        Binding("N", "step(-1)", "Back", id="step-back", tooltip="Previous operator"),
        Binding("t", "text(1)", "Next text", id="next-text", tooltip="Next text-showing operator"),
        Binding("T", "text(-1)", "Prev text", show=False, id="previous-text",
                tooltip="Previous text-showing operator"),
        Binding("m", "breakpoint", "Breakpoint", id="toggle-breakpoint",
                tooltip="Toggle a breakpoint on the current operator's name"),
        Binding("M", "breakpoint('font')", "Font break", show=False, id="toggle-font-breakpoint",
                tooltip="Toggle a breakpoint on the font resource the current operator shows glyphs with"),
        Binding("B", "breakpoint('code')", "Code break", show=False, id="toggle-code-breakpoint",
                tooltip="Toggle a breakpoint on the code of the selected glyph (in any font)"),
        Binding("c", "continue", "Continue", id="run-to-breakpoint", tooltip="Run to the next breakpoint"),
        Binding("home", "jump(0)", "First", show=False, id="first-operator", priority=True,
                tooltip="First operator"),
        Binding("end", "jump(-1)", "Last", show=False, id="last-operator", priority=True,
                tooltip="Last operator loaded"),
        Binding("p", "pick_page", "Page", id="stepper-page", tooltip="Step through page N (type its number)"),
        *PreviewHost.PREVIEW_BINDINGS,
    ]
    DEFAULT_CSS = """
    #step-main { width: 1fr; }
    #step-source { height: 8; padding: 0 1; text-wrap: nowrap; text-overflow: clip; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.page: int | None = None
        self.running = False
        self.error: str | None = None  # why the worker stopped short of the page's end
        self.stopped: str | None = None  # where the interpretation budget ran out
        self.records: list[GlyphRecord] = []
        self.first_record: list[int] = []  # per step: records drawn before it
        self.shown_glyphs: list[GlyphRecord] = []
        self.glyph_start = 0  # index in records of shown_glyphs[0]
        self.sources: dict[Ref, bytes] = {}  # decoded content of the page and of each form run
        self._state_rows = -1
        self.quiet_until = 0.0  # time.monotonic() until which the worker leaves the GIL to the UI
        self._shown: dict[str, object] = {}  # panel → what it shows: an unchanged panel is not redrawn
        self.selected = 0  # the glyph picked among the operator's (its path and its preview highlight)
        self.owners: dict[int, tuple[Ref, str]] = {}  # MCID → structure element of the page (/ParentTree)

    def compose(self) -> ComposeResult:
        yield Static(id="stepper-header")
        with Horizontal():
            with Vertical(id="step-main"):
                yield OpList(id="ops")
                yield Static("source", id="step-source-title", classes="panel-title")
                yield Static(id="step-source")
            with Vertical(id="step-side"):
                yield Static(id="step-state")
                yield Static("glyphs of this operator (enter: path)", classes="panel-title")
                header = Static(id="step-glyphs-header", classes="column-header", markup=False)
                yield header
                yield ColumnList(GLYPH_COLUMNS, header, id="step-glyphs")
                yield Static("resolution path (enter: open the object)", classes="panel-title")
                yield PathList(id="step-path")
            yield PagePreview(id="preview")
        yield Static("text drawn so far (this operator's glyphs marked)", classes="panel-title")
        yield Static(id="step-text")
        yield Footer()

    @property
    def ops(self) -> OpList:
        return self.query_one("#ops", OpList)

    def show_page(self, n: int) -> None:
        ref = self.app.page_ref(n)
        self.page = n
        self.error = self.stopped = None
        self.records, self.first_record, self.sources = [], [], {}
        self.owners = {}
        self._shown.clear()
        self.ops.clear_steps()
        if ref is None:
            self.query_one("#stepper-header", Static).update(Text(f"no page {n}", style="red"))
            return
        self.running = True
        self.update_header()
        self.run_page(n, ref)

    def update_header(self) -> None:
        count = len(self.ops.steps)
        status = "running…" if self.running else "failed" if self.error is not None else \
            "cut short" if self.stopped is not None else "done"
        marks = ", ".join(breakpoint_label(b) for b in sorted(self.ops.breakpoints)) or "none"
        self.query_one("#stepper-header", Static).update(Text.assemble(
            (self.app.page_name(self.page), "bold"), f"  {count} operators ({status})  glyphs {len(self.records)}  "
            f"breakpoints: {safe_line(marks)}",
            (f"\n{safe_line(self.stopped)}" if self.stopped is not None else "", "yellow"),
            (f"\nerror: {safe_line(self.error)}" if self.error is not None else "", "red")))

    @work(thread=True, exclusive=True, group="stepper", exit_on_error=False)
    def run_page(self, n: int, ref) -> None:
        # The steps live as long as the screen: a full collection walking them took 0.2-0.3 s
        # at 50,000 operators, holding the GIL, and a step waited for it.
        with building():
            self._run_page(n, ref)

    def worker_failed(self, worker: Worker) -> None:
        # a core bug on this page: say so and keep the steps that came (the app logs the traceback)
        if worker.group == "stepper" and self.running:
            self.running, self.error = False, failure_line(worker.error)
            self.update_header()

    def _run_page(self, n: int, ref) -> None:
        worker = get_current_worker()
        doc = self.app.worker_doc()
        resolver = Resolver.of(doc)
        geometry = Geometry(doc)
        budget = page_budget()
        sources: dict[Ref, bytes] = {}  # the content each step's span indexes, as the interpreter ran it
        owners = mcid_parents(doc, ref)
        if owners and not worker.is_cancelled:
            self.app.call_from_thread(setattr, self, "owners", owners)
        steps: list[Step] = []
        records: list[GlyphRecord] = []
        firsts: list[int] = []
        used: set[int] = set()  # ActualText sequences already given (textlayout.step_records)
        known: set[Ref] = set()
        total = 0
        for step in iter_steps(doc, ref, budget=budget):
            if worker.is_cancelled:
                return
            if step.source is not None and step.source not in known and step.op:
                known.add(step.source)
                sources[step.source] = step.content
            firsts.append(total)
            drawn = step_records(step, resolver, used, total, geometry)
            records.extend(drawn)
            total += len(drawn)
            steps.append(step)
            if not len(steps) % YIELD_EVERY:
                # While the user steps, sleep until the step is drawn: contending for the GIL,
                # the UI thread gets it 5 ms at a time (sys.getswitchinterval) and a step took twice as long.
                while time.monotonic() < self.quiet_until and not worker.is_cancelled:
                    time.sleep(0.005)
                time.sleep(0)  # hand the GIL to the UI thread so batches and other keys are handled
            if len(steps) >= (BATCH if step.index >= FIRST_BATCH else FIRST_BATCH):
                self.app.call_from_thread(self.arrived, n, steps, records, firsts, sources, False)
                steps, records, firsts, sources = [], [], [], {}
        self.app.call_from_thread(self.arrived, n, steps, records, firsts, sources, True, budget.stopped)

    def arrived(self, n: int, steps: list[Step], records: list[GlyphRecord], firsts: list[int],
                sources: dict[Ref, bytes], done: bool, stopped: str | None = None) -> None:
        if n != self.page:
            return
        self.stopped = stopped
        empty = not self.ops.steps
        self.records.extend(records)
        self.first_record.extend(firsts)
        self.sources.update(sources)
        self.ops.append(steps)
        self.running = not done
        self.update_header()
        if empty and self.ops.steps:
            self.show_step(0)
        self.take_pending_step(done)

    def take_pending_step(self, done: bool) -> None:
        """Move to the operator a page-text search hit named, once it has arrived (forget it
        when the page ended without it: the interpretation budget ran out first)."""
        step = self.app.pending_step
        if step is not None and step < len(self.ops.steps):
            self.app.pending_step = None
            self.ops.cursor = step
            self.call_after_refresh(self.ops.scroll_to_cursor)  # once the new rows are laid out
        elif done:
            self.app.pending_step = None

    def on_screen_resume(self) -> None:
        # (PagePrompt's handler runs after this one and shows another page if one is wanted)
        if (self.app.content_page or 1) == self.page and not self.running:  # stepped: the hit's operator now
            self.take_pending_step(True)

    # -- showing a step --------------------------------------------------------------
    def on_line_view_moved(self, event: LineView.Moved) -> None:
        if event.view.id == "ops":
            self.show_step(event.index)
        elif event.view.id == "step-glyphs":
            self.show_path(event.index)

    def show_step(self, i: int) -> None:
        steps = self.ops.steps
        if not 0 <= i < len(steps):
            return
        self.quiet_until = time.monotonic() + QUIET
        step = steps[i]
        start = self.first_record[i]
        gap = None
        if step.glyphs and start < len(self.records):  # a text operator: the gap before its first glyph
            gap = gap_text(glyph_layouts(self.records[max(start - 1, 0):start + 1])[-1], line=False)
        state = state_text(step, steps[i - 1] if i else None, gap, self.owners)
        # fixed-size panels are updated without a layout pass; the state panel only when it grows or shrinks
        rows = state.plain.count("\n")
        self.query_one("#step-state", Static).update(state, layout=rows != self._state_rows)
        self._state_rows = rows
        end = start + len(step.glyphs)
        self.show_source(step)
        if not self._changed("text", (start, end)):
            self.update_preview()
            return  # the same glyphs as the step shown before (none, usually): the panels stay
        self.glyph_start, self.shown_glyphs = start, self.records[start:end]
        self.show_text(start, end)
        rows = [(glyph_cells(r, "$text-warning" if r.resolution.flags else ""), None, None) for r in self.shown_glyphs]
        self.query_one("#step-glyphs", ColumnList).set_rows(rows)
        self.show_path(0)
        self.update_preview()  # an image step (no glyphs, no path) changes it too

    def on_resize(self) -> None:
        """The source and the text drawn so far are laid out for the panels' size: again."""
        self._shown.pop("text", None)
        self.show_step(self.ops.cursor)

    def _changed(self, panel: str, key) -> bool:
        """Whether ``panel`` is to show something new (``key`` says what), noting it if so."""
        if panel in self._shown and self._shown[panel] == key:
            return False
        self._shown[panel] = key
        return True

    def show_source(self, step: Step) -> None:
        """The decoded content around the step, the operator marked (a form's own stream inside forms)."""
        data = self.sources.get(step.source)
        where = (f"form {step.source.num} {step.source.gen} R" if step.depth else "page content") \
            if step.source is not None else "content"
        panel = self.query_one("#step-source", Static)
        width = panel.content_region.width or 70
        height = panel.content_region.height or SOURCE_LINES  # 3 at 80x24: the operator's line in the middle
        if not self._changed("source", (step.source, step.span, width, height)):
            return
        title = f"source: {where}, bytes {step.span[0]}–{step.span[1]}"
        self.query_one("#step-source-title", Static).update(Text(title), layout=False)
        if data is None:
            panel.update(Text("(content not decoded)", style="italic"), layout=False)
            return
        before = min(SOURCE_BEFORE, (height - 1) // 2)
        panel.update(Content("\n").join(source_excerpt(data, step.span, width, before, height - 1 - before)),
                     layout=False)

    def show_path(self, k: int) -> None:
        valid = 0 <= k < len(self.shown_glyphs)
        if self._changed("path", self.glyph_start + k if valid else None):
            self.query_one("#step-path", PathList).show(self.shown_glyphs[k] if valid else None)
            self.selected = k
            self.update_preview()

    def preview_request(self):
        """The page with this operator's glyphs (or image) boxed, the selected glyph highlighted."""
        if self.page is None:
            return None
        return step_request(self.page - 1, self.ops.steps, self.ops.cursor, self.shown_glyphs, self.selected)

    def show_text(self, start: int, end: int) -> None:
        """Lay out the page's glyphs up to this step; the step's own glyphs in reverse video,
        and the panel's last line is the last one they are on (wrapped to the panel's width)."""
        window = self.records[max(0, start - TEXT_WINDOW):end]
        before = layout(window[:len(window) - (end - start)]).rstrip("\n")
        full = layout(window).rstrip("\n")
        if end > start and full.startswith(before):
            text = Content.assemble(safe(before), (safe(full[len(before):]), MARK))
        else:
            text = Content(safe(full))
        panel = self.query_one("#step-text", Static)
        width, height = panel.content_region.width or 78, panel.content_region.height or TEXT_LINES
        lines = [part for line in text.split("\n", allow_blank=True) for part in (line.wrap(width) or [line])]
        marked = [i for i, line in enumerate(lines) if any(span.style == MARK for span in line.spans)]
        last = marked[-1] if marked else len(lines) - 1
        panel.update(Content("\n").join(lines[max(0, last - height + 1):last + 1]), layout=False)

    # -- actions ---------------------------------------------------------------------
    def action_extractors(self) -> None:
        if self.page is not None:
            self.app.open_extractors(self.page)

    def action_step(self, delta: int) -> None:
        self.ops.cursor += delta

    def action_jump(self, where: int) -> None:
        self.ops.cursor = where if where >= 0 else len(self.ops.steps) - 1

    def action_text(self, direction: int) -> None:
        self._seek(direction, lambda s: bool(s.glyphs), "no more text-showing operators")

    def action_continue(self) -> None:
        if not self.ops.breakpoints:
            self.notify("no breakpoints: m sets one on the current operator's name", severity="warning")
            return
        marks = self.ops.breakpoints
        self._seek(1, lambda s: breaks_at(marks, s), "no breakpoint ahead" + (" yet (still running)" if self.running else ""))

    def _seek(self, direction: int, match, failure: str) -> None:
        steps, i = self.ops.steps, self.ops.cursor + direction
        while 0 <= i < len(steps):
            if match(steps[i]):
                self.ops.cursor = i
                return
            i += direction
        self.notify(failure, severity="warning")

    def action_breakpoint(self, kind: str = "op") -> None:
        """``m``: on the operator's name; ``M``: on its font resource; ``B``: on the selected glyph's code."""
        if not self.ops.steps:
            return
        step = self.ops.steps[self.ops.cursor]
        if kind == "op":
            key = step.op
        elif not step.glyphs:
            self.notify("this operator shows no glyphs: put the cursor on one that does", severity="warning")
            return
        elif kind == "font":
            key = FONT_BREAK + (step.gstate.text.font_name or "")
        else:
            glyphs = self.shown_glyphs
            glyph = glyphs[self.selected].glyph if 0 <= self.selected < len(glyphs) else step.glyphs[0]
            key = CODE_BREAK + glyph.code.hex()
        on = self.ops.toggle_breakpoint(key)
        self.notify(f"breakpoint {'on' if on else 'off'}: {breakpoint_label(key)}", markup=False)
        self.update_header()

    def on_pick_list_picked(self, event: PickList.Picked) -> None:
        event.stop()
        self.show_path(event.index)
        self.query_one("#step-path", PathList).focus()
