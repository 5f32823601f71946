"""The content stepper's operator list: a virtual list that grows while the page is run.

Steps arrive in batches from a worker; lines are built only when drawn (``LineView``), so
a page of 100,000 operators costs what is on screen. Operators whose name has a
breakpoint are marked with ``●``.
"""
from __future__ import annotations

from textual.content import Content

from pdfinspect.content.interpreter import Step
from pdfinspect.core.serialize import format_object
from pdfinspect.present.content import breaks_at
from pdfinspect.present.text import safe_line

from .line_view import LineView

OPERANDS_SHOWN = 100  # characters of operands on a line; the state panel has the rest
_FLAT = 10 ** 9  # format_object width that keeps every value on one line


def operands_text(step: Step) -> str:
    text = " ".join(f"<{len(v)} bytes>" if isinstance(v, bytes) else format_object(v, width=_FLAT)
                    for v in step.operands)
    return text if len(text) <= OPERANDS_SHOWN else text[:OPERANDS_SHOWN - 1] + "…"


class OpList(LineView):
    """Numbered operators, indented by form XObject depth; ``●`` marks a breakpoint, ``!`` a diagnostic."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.steps: list[Step] = []
        self.breakpoints: set[str] = set()

    @property
    def line_count(self) -> int:
        return len(self.steps)

    def clear_steps(self) -> None:
        self.steps = []
        self.cursor = 0
        self.reset()

    def append(self, batch: list[Step]) -> None:
        self.steps.extend(batch)
        self.virtual_size = self.virtual_size.with_height(len(self.steps))
        self.refresh()

    def toggle_breakpoint(self, op: str) -> bool:
        """Toggle a breakpoint (an operator name, or a font or code key of
        :func:`~pdfinspect.present.content.breaks_at`); True when it is now set."""
        self.breakpoints ^= {op}
        self._lines.clear()
        self.refresh()
        return op in self.breakpoints

    def build_line(self, index: int) -> Content:
        """``index  op  operands``: the operator first, so a narrow list still shows it."""
        s = self.steps[index]
        mark = ("●", "bold $text-error") if breaks_at(self.breakpoints, s) else " "
        return Content.assemble((f"{s.index:>6}", "dim"), mark, "  " * s.depth,
                                (f"{safe_line(s.op):<3}", "bold $text-accent" if s.glyphs else "bold"),
                                ("!" if s.diagnostics else " ", "$text-error"),
                                safe_line(operands_text(s)))
