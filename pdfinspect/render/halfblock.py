"""A picture as rows of terminal cells: each cell is ``▀`` with the upper pixel as its
foreground colour and the lower as its background, so a cell shows two square-ish pixels.
Works in every terminal that has colours, in tmux and in Textual's web mode."""
from __future__ import annotations

UPPER_HALF = "\u2580"
Colour = tuple[int, int, int]


def cell_rows(image) -> list[list[tuple[Colour, Colour]]]:
    """``image`` (Pillow, any mode) as rows of (foreground, background) pairs, one per cell:
    a W×H picture gives ceil(H/2) rows of W cells (an odd last row has a white lower half)."""
    rgb = image.convert("RGB")
    w, h = rgb.size
    data = list(rgb.getdata())
    white = (255, 255, 255)
    rows = []
    for y in range(0, h, 2):
        top = data[y * w:(y + 1) * w]
        bottom = data[(y + 1) * w:(y + 2) * w] if y + 1 < h else [white] * w
        rows.append(list(zip(top, bottom)))
    return rows
