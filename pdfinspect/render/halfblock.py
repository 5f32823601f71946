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
    data = rgb.tobytes()
    row = 3 * w
    white = b"\xff" * row
    rows = []
    for y in range(0, h, 2):
        top = iter(data[y * row:(y + 1) * row])
        bottom = iter(data[(y + 1) * row:(y + 2) * row] if y + 1 < h else white)
        rows.append(list(zip(zip(top, top, top), zip(bottom, bottom, bottom))))
    return rows
