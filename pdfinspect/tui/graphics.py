"""How the page preview draws its picture (``--images``): half-blocks, which every terminal,
tmux and Textual's web mode show, or a sharper picture over the kitty graphics protocol or
Sixel through the optional ``textual-image`` package (``pdfinspect[images]``, LGPL).

``auto`` asks the terminal before the app starts (textual-image sends its queries on import,
which it cannot do once Textual reads the terminal): Sixel, then the kitty protocol, else
half-blocks. Under tmux (no passthrough for either protocol by default), in Textual's web mode
and without a terminal it does not ask: half-blocks. ``kitty`` and ``sixel`` use that
protocol without asking; ``halfblock`` never asks; ``none`` turns the preview off.
"""
from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Mapping

AUTO, HALFBLOCK, KITTY, SIXEL, NONE = "auto", "halfblock", "kitty", "sixel", "none"
MODES = (AUTO, HALFBLOCK, KITTY, SIXEL, NONE)
SHARPER = (KITTY, SIXEL)


def installed() -> bool:
    """Whether the optional textual-image package is there."""
    return importlib.util.find_spec("textual_image") is not None


def choose(mode: str, tty: bool | None = None, env: Mapping[str, str] | None = None) -> tuple[str, str]:
    """(how the preview draws: HALFBLOCK, KITTY, SIXEL or NONE, why, in a few words) for the
    ``--images`` ``mode``; ``tty`` is whether stdout is a terminal, ``env`` the environment."""
    env = os.environ if env is None else env
    tty = sys.__stdout__ is not None and sys.__stdout__.isatty() if tty is None else tty
    if mode == NONE:
        return NONE, "the preview is off (--images=none)"
    if mode == HALFBLOCK:
        return HALFBLOCK, "half-blocks (--images=halfblock)"
    if not installed():
        why = "half-blocks: sharper pictures need textual-image (pip install 'pdfinspect[images]')"
        return HALFBLOCK, why
    if mode in SHARPER:
        return mode, f"{mode} pictures (--images={mode}, not asked of the terminal)"
    if not tty:
        return HALFBLOCK, "half-blocks: no terminal to ask for a picture protocol"
    if env.get("TMUX"):
        return HALFBLOCK, "half-blocks: tmux passes neither Sixel nor the kitty protocol through"
    if "web" in env.get("TEXTUAL_DRIVER", "").lower():
        return HALFBLOCK, "half-blocks: Textual's web mode draws text cells only"
    from textual_image import renderable  # asks the terminal, once, on import

    if renderable.Image is renderable.SixelImage:
        return SIXEL, "sixel: the terminal answered the Sixel query"
    if renderable.Image is renderable.TGPImage:
        return KITTY, "kitty: the terminal answered the kitty graphics query"
    return HALFBLOCK, "half-blocks: the terminal answered neither the Sixel nor the kitty query"


def picture_widget(how: str):
    """The textual-image widget class that draws a picture over protocol ``how`` (KITTY or SIXEL)."""
    from textual_image.widget import SixelImage, TGPImage

    return TGPImage if how == KITTY else SixelImage


def cell_pixels() -> tuple[int, int]:
    """A terminal cell's size in pixels, as textual-image measured it before the app started
    (it asks the terminal; 10×20 when there is none to ask)."""
    from textual_image._terminal import get_cell_size  # (the size its widgets scale pictures by)

    size = get_cell_size()
    return size.width, size.height
