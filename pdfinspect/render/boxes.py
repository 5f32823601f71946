"""Glyph and operator boxes drawn over a rendered picture (Pillow)."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # Pillow is imported when something is drawn: the app's screens import the colours at start
    from .page import View

OPERATOR = (0, 120, 255)  # the current operator's glyphs
SELECTED = (255, 40, 40)  # the selected glyph
OTHER = (0, 170, 80)  # every other glyph asked for (a font's, a code's, the page's)
HIDDEN = (200, 0, 200)  # glyphs a reader cannot see (content.visibility)
MAX_PIXEL = 1e7  # a quad with a corner farther out (or not finite: an overflowed matrix) is not drawn


def draw_quads(image, view: View, quads, colour, width: int = 1) -> None:
    """Outline each page-space quad (x0 y0 … x3 y3, as ``GlyphBox.page``) on ``image``."""
    from PIL import ImageDraw

    draw = ImageDraw.Draw(image)
    for q in quads:
        points = [view.to_pixel(q[i], q[i + 1]) for i in (0, 2, 4, 6)]
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        if not all(-MAX_PIXEL < v < MAX_PIXEL for v in xs + ys):  # False for NaN too
            continue
        if max(xs) - min(xs) < 1 and max(ys) - min(ys) < 1:  # too small to outline: a dot
            draw.point((round(xs[0]), round(ys[0])), fill=colour)
            continue
        draw.line([(round(x), round(y)) for x, y in points + points[:1]], fill=colour, width=width)


def draw_labels(image, view: View, labels, colour, left_of: bool = False) -> None:
    """Write each ``(x, y, text)`` label (page space: a box's top-left corner) just above
    that point, on a white ground so it reads over the page (``render --boxes op`` numbers
    the operators as ``ops`` and the stepper do); ``left_of``: ending at the point, centred
    on it (the app's preview numbers lines so)."""
    from PIL import ImageDraw, ImageFont

    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default()
    for x, y, text in labels:
        px, py = view.to_pixel(x, y)
        left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
        if left_of:
            at = (max(round(px) - (right - left) - 1, 0), max(round(py) - (bottom + top) // 2, 0))
        else:
            at = (round(px), max(round(py) - (bottom - top) - 2, 0))
        draw.rectangle((at[0], at[1] + top, at[0] + right - left, at[1] + bottom), fill=(255, 255, 255))
        draw.text(at, text, fill=colour, font=font)
