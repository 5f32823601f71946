"""Pieces shared by the stepper and the glyph inspector: a pick list and glyph paths.

A glyph's resolution path (:class:`~pdfinspect.fonts.resolve.PathStep`) becomes lines of a
:class:`RefList`, each naming the object it read, so ``enter`` opens that object in the
browser (with the dictionary key that points at it, which tells the stream viewer what
the stream holds: a CMap, a font program).
"""
from __future__ import annotations

from textual.content import Content
from textual.message import Message

from pdfinspect.fonts.resolve import (ACTUAL_TEXT, CID_COLLECTION, ENCODING, FONT_PROGRAM, HIT, MISS,
                                      TOUNICODE, Resolution, format_unicode)
from pdfinspect.present.text import safe_line

from .line_view import RefList

# The key that points at the object each method reads (9.6.6, 9.7.5, 9.9, 9.10.3).
SOURCE_KEYS = {TOUNICODE: "/ToUnicode", ENCODING: "/Encoding", CID_COLLECTION: "/Encoding",
               FONT_PROGRAM: "/FontFile", ACTUAL_TEXT: None}
RESULT_STYLES = {HIT: "bold $text-success", MISS: "$text-warning"}


class PickList(RefList):
    """A RefList whose ``enter`` picks the cursor line instead of following a reference."""

    class Picked(Message):
        def __init__(self, view: "PickList", index: int) -> None:
            super().__init__()
            self.view = view
            self.index = index

        @property
        def control(self) -> "PickList":
            return self.view

    def action_follow(self) -> None:
        if self.line_count:
            self.post_message(self.Picked(self, self.cursor))


def path_items(path, resolution: Resolution) -> list[tuple[Content, object, str | None]]:
    """One line per path step (``enter`` opens its source object), then conflicts and flags."""
    items = []
    for n, p in enumerate(path, 1):
        where = f" {p.source.num} {p.source.gen} R" if p.source is not None else ""
        line = Content.assemble(f"{n}. ", (p.method, "bold"), f"  {safe_line(p.source_desc)}",
                                (where, "underline $text-accent"), f"\n   {safe_line(p.looked_up)} → ",
                                (p.result, RESULT_STYLES.get(p.result, "dim")), f": {safe_line(p.detail)}")
        for part in line.split("\n"):
            items.append((part, p.source, SOURCE_KEYS.get(p.method)))
    for c in resolution.conflicts:
        items.append((Content.assemble(("conflict: ", "$text-error"),
                                       f"{c.method} gives {safe_line(format_unicode(c.unicode))}"), None, None))
    for f in resolution.flags:
        items.append((Content.assemble(("flag: ", "$text-warning"), safe_line(f)), None, None))
    return items
