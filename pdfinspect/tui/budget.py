"""How much of a page the app's screens interpret (the stepper, the glyph inspector, the
page-text search, the Extractors screen): a page past it shows what was read and says where
it stopped."""
from __future__ import annotations

from pdfinspect.content.interpreter import Budget

BUDGET_OPERATORS = 200_000  # the app interprets at most this many operators of a page…
BUDGET_BYTES = 4 * 1024 * 1024  # …and decodes at most this much content (page and forms together)


def page_budget() -> Budget:
    """A fresh budget for one page."""
    return Budget(BUDGET_OPERATORS, BUDGET_BYTES)
