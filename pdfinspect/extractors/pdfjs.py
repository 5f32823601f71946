"""pdf.js ``getTextContent`` joined as the viewer's copy does, pdf.js 4.x.

Source: ``src/core/evaluator.js`` (``getTextContent``, ``compareWithLastPosition``): a
forward gap wider than ``SPACE_IN_FLOW_MIN_FACTOR`` × size (but at least
``NOT_A_SPACE_FACTOR`` × size) adds a space, a gap beyond ``SPACE_IN_FLOW_MAX_FACTOR`` × size
or a baseline move over ``VERTICAL_SHIFT_RATIO`` × size starts a new text item (a line
break in the joined text). Unmapped codes keep the font's own Unicode; ligatures are kept.
No real counterpart runs here: these rules are read from the source, not measured.
"""
from __future__ import annotations

from . import base

SOURCE = "pdf.js src/core/evaluator.js"
SPACE_IN_FLOW_MIN_FACTOR = 0.102  # evaluator.js getTextContent
NOT_A_SPACE_FACTOR = 0.03  # evaluator.js getTextContent
SPACE_IN_FLOW_MAX_FACTOR = 0.6  # evaluator.js getTextContent
VERTICAL_SHIFT_RATIO = 0.25  # evaluator.js getTextContent


def text(record) -> tuple[str, str]:
    t = base.spec_text(record, "pdfjs", actual_text=True)
    return (t, "") if t is not None else (record.resolution.tounicode_only, "code-as-text")


def decide(prev: base.Item, cur: base.Item, prev_text: str, t: str) -> tuple[str, str, str]:
    along, across = cur.gap(prev)
    size = prev.size
    if abs(across) > VERTICAL_SHIFT_RATIO * size or along > SPACE_IN_FLOW_MAX_FACTOR * size or along < -size:
        return base.LINE, "new-item", f"moved {base.em(along, size)} along, {base.em(across, size)} across ({SOURCE})"
    if along > max(SPACE_IN_FLOW_MIN_FACTOR, NOT_A_SPACE_FACTOR) * size and not prev_text.endswith(" "):
        return base.SPACE, "gap", f"gap {base.em(along, size)} > SPACE_IN_FLOW_MIN_FACTOR {SPACE_IN_FLOW_MIN_FACTOR}"
    return base.NOTHING, "gap", f"gap {base.em(along, size)} ≤ {SPACE_IN_FLOW_MIN_FACTOR}"


def emulate(records, page: base.Page | None = None, shared: dict | None = None) -> base.Emulation:
    recs = base.source_records(records, annots=False)
    return base.flow("pdfjs", base.items(recs, shared), [text(r) for r in recs], decide)
