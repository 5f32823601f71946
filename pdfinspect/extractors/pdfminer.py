"""pdfminer.six ``extract_text`` with the default ``LAParams``, version 20260107.

Source: ``pdfminer/layout.py``. Each glyph is an ``LTChar`` whose box is its advance (w0 ×
size × Tz, no Tc/Tw) by the font size, from the descent, made axis-aligned on the page.
Consecutive characters stay on one line when their boxes overlap vertically by more than
``line_overlap`` × the lower height and lie closer than ``char_margin`` × the wider width
(``group_objects``); within a line a space (``LTAnno``) goes where the gap exceeds
``word_margin`` × max(width, height) of the new character (``LTTextLineHorizontal.add``).
Characters inside a form XObject become an ``LTFigure``'s children, which layout analysis
leaves alone: they are written one after another with nothing between them. A code with
no Unicode is written ``(cid:N)`` (``converter.py`` ``handle_undefined_char``).
Annotations are not read.
"""
from __future__ import annotations

from . import base

SOURCE = "pdfminer.six 20260107 pdfminer/layout.py"
LINE_OVERLAP = 0.5  # LAParams.line_overlap
CHAR_MARGIN = 2.0  # LAParams.char_margin
WORD_MARGIN = 0.1  # LAParams.word_margin


def text(record) -> tuple[str, str]:
    t = base.spec_text(record, "pdfminer", actual_text=False)
    if t is None:
        return f"(cid:{base.code_of(record)})", "cid-placeholder"
    return t, ""


def _box(item: base.Item, page: base.Page) -> tuple[float, float, float, float]:
    """LTChar's box: advance w0 by the font size, from the descent; axis-aligned in the page
    turned by /Rotate."""
    left, bottom, right, top = item.rect
    if item.vertical:
        corners = [page.upright(x, y) for x in (left, right) for y in (bottom, top)]
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        return min(xs), min(ys), max(xs), max(ys)
    ux, uy = item.direction
    ox, oy = item.origin
    descent = min(0.0, (bottom - oy) if abs(uy) < 1e-6 else 0.0)
    corners = []
    for a in (0.0, item.width):
        for b in (descent, descent + item.size):
            corners.append(page.upright(ox + a * ux - b * uy, oy + a * uy + b * ux))
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    return min(xs), min(ys), max(xs), max(ys)


def emulate(records, page: base.Page | None = None) -> base.Emulation:
    recs = base.source_records(records, annots=False)
    items = [base.make_item(r) for r in recs]
    boxes = {id(i): _box(i, page or base.Page()) for i in items}

    def decide(prev: base.Item, cur: base.Item, prev_text: str, t: str) -> tuple[str, str, str]:
        if cur.record.step.depth > 0 or prev.record.step.depth > 0:
            if cur.record.step.source == prev.record.step.source and cur.record.step.depth > 0:
                return base.NOTHING, "figure", "inside a form XObject (LTFigure): characters written as they come"
            return base.LINE, "figure", "a form XObject (LTFigure) starts or ends"
        a, b = boxes[id(prev)], boxes[id(cur)]
        h0, h1 = a[3] - a[1], b[3] - b[1]
        w0, w1 = a[2] - a[0], b[2] - b[0]
        voverlap = min(a[3], b[3]) - max(a[1], b[1])
        hdistance = max(0.0, max(a[0], b[0]) - min(a[2], b[2]))
        if not (voverlap > 0 and voverlap > LINE_OVERLAP * min(h0, h1) and hdistance < CHAR_MARGIN * max(w0, w1)):
            return base.LINE, "line", (f"boxes overlap vertically {voverlap:.2f} pt (needs > line_overlap "
                                       f"{LINE_OVERLAP} × {min(h0, h1):.2f}) and lie {hdistance:.2f} pt apart "
                                       f"(needs < char_margin {CHAR_MARGIN} × {max(w0, w1):.2f}) ({SOURCE})")
        margin = WORD_MARGIN * max(w1, h1)
        gap = b[0] - a[2]
        if gap > margin:
            return base.SPACE, "word-margin", (f"gap {gap:.2f} pt > word_margin {WORD_MARGIN} × max(width, height) "
                                              f"{max(w1, h1):.2f} pt ({SOURCE})")
        return base.NOTHING, "word-margin", (f"gap {gap:.2f} pt ≤ word_margin {WORD_MARGIN} × "
                                            f"{max(w1, h1):.2f} pt ({SOURCE})")

    return base.flow("pdfminer", items, [text(r) for r in recs], decide)
