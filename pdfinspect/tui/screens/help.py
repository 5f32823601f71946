"""Every binding of the app, its screens and widgets, built from their BINDINGS."""
from __future__ import annotations

from collections.abc import Callable

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static


def bindings_table(groups: list[tuple[str, list]], key_display: Callable[[str], str]) -> Table:
    """One row per binding; ``key_display`` turns a key name into what the user presses."""
    table = Table(box=None, expand=True, show_header=True, header_style="bold")
    table.add_column("Where", style="dim", no_wrap=True)
    table.add_column("Keys", style="bold", no_wrap=True)
    table.add_column("What it does")
    for where, bindings in groups:
        for b in bindings:
            if not isinstance(b, Binding):
                continue
            keys = ", ".join(key_display(k.strip()) for k in b.key.split(","))
            table.add_row(Text(where), Text(keys), Text(b.tooltip or b.description or b.action))
    return table


class HelpScreen(ModalScreen[None]):
    """``escape``, ``q``, ``?`` or ``f1`` closes it."""

    BINDINGS = [Binding("escape,q,question_mark,f1", "dismiss", "Close", id="close-help")]

    def __init__(self, groups: list[tuple[str, list]]) -> None:
        super().__init__()
        self.groups = groups

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Static("pdfinspect — keys   (escape, q or ? closes this help)", classes="panel-title")
            yield Static(bindings_table(self.groups, self.key_display), id="help-table")
            yield Static(Text("ctrl+p opens the command palette: go to object N, page N, fonts of page N, "
                              "search.  Tab moves between panes.", style="italic"))

    def key_display(self, key: str) -> str:
        return self.app.get_key_display(Binding(key, ""))

    async def action_dismiss(self, result=None) -> None:
        self.dismiss(None)
