"""Pieces shared by the stepper and the glyph inspector: glyph columns, glyph paths, font panel.

A glyph's resolution path (:class:`~pdfinspect.fonts.resolve.PathStep`) becomes lines of a
:class:`PathList`, each naming the object it read, so ``enter`` opens that object in the
browser (with the dictionary key that points at it, which tells the stream viewer what
the stream holds: a CMap, a font program). A ToUnicode step also carries the line of its
``bfchar``/``bfrange`` entry (or, for a code with none, of the entry where it would sort),
so the browser opens the CMap at that line. :func:`font_panel` says what the font
dictionaries and the embedded program hold (ISO 32000-1 9.6-9.10).
"""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from rich.text import Text
from textual.content import Content

from pdfinspect.content.textlayout import GlyphRecord
from pdfinspect.fonts.embedded import FontProgram
from pdfinspect.fonts.font import Font
from pdfinspect.fonts.resolve import (ACTUAL_TEXT, CID_COLLECTION, ENCODING, FONT_PROGRAM, HIT, MISS,
                                      TOUNICODE, format_unicode)
from pdfinspect.present.glyphs import GlyphRow, tounicode_line
from pdfinspect.present.goto import parse_goto
from pdfinspect.present.text import safe_line

from ..messages import ObjectRequested, Target
from .column_list import Column, WrappedList
from .goto_bar import GotoBar

if TYPE_CHECKING:  # outlines (fontTools' pens) are read when a row is chosen, after the table is up
    from pdfinspect.present.shapes import GlyphPicture

# The key that points at the object each method reads (9.6.6, 9.7.5, 9.9, 9.10.3).
SOURCE_KEYS = {TOUNICODE: "/ToUnicode", ENCODING: "/Encoding", CID_COLLECTION: "/Encoding",
               FONT_PROGRAM: "/FontFile", ACTUAL_TEXT: None}
RESULT_STYLES = {HIT: "bold $text-success", MISS: "$text-warning"}
# What a program's glyph-name list is called, by program kind (9.9 Table 124).
NAME_TABLES = {"TrueType": "post glyph names", "Type1": "CharStrings"}


GLYPH_COLUMNS = (Column("code", 4, 8, 1), Column("Unicode", 10, 16, 0), Column("method", 13, 13, 2),
                 Column("glyph", 8, 16, 3), Column("CID", 5, 5, 5, right=True), Column("GID", 5, 5, 6, right=True))
"""The columns of a glyph row, in cells: code, Unicode and method are the last to go
("CIDCollection" is the longest method word), CID and GID the first."""


def glyph_cells(record: GlyphRecord, style: str = "") -> list[tuple[str, str]]:
    """A glyph's row under :data:`GLYPH_COLUMNS` (the cells from
    :class:`~pdfinspect.present.glyphs.GlyphRow`); ``style`` colours the Unicode and method."""
    row = GlyphRow.of(record)
    return [(row.code, ""), (row.unicode, style), (row.method, style), (row.name, ""), (row.cid, ""), (row.gid, "")]


class PathList(WrappedList):
    """A glyph's resolution path; ``enter`` opens a step's object (a ToUnicode CMap at the entry's line)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: list[int | None] = []

    def show(self, record: GlyphRecord | None, picture: GlyphPicture | None = None,
             notes: tuple[str, ...] = (), owner: tuple | None = None) -> None:
        """The record's path, flags and conflicts, then ``notes`` (its gap and visibility, made by
        present.glyphs) and ``owner`` (the structure element (ref, /S, MCID) whose marked content
        it is: ``enter`` opens it); with ``picture``, the glyph's outline below them."""
        items: list[tuple[Content, object, str | None]] = []
        lines: list[int | None] = []

        def add(content: Content, ref=None, key: str | None = None, line: int | None = None) -> None:
            items.append((content, ref, key))
            lines.append(line)

        if record is not None:
            font, code = record.step.font, record.glyph.code
            for n, p in enumerate(record.path, 1):
                where = f" {p.source.num} {p.source.gen} R" if p.source is not None else ""
                at = tounicode_line(font, code) if p.method == TOUNICODE and font is not None \
                    and p.source is not None and p.source == font.tounicode_ref else None
                line = at[0] if at else None
                key = SOURCE_KEYS.get(p.method)
                add(Content.assemble(f"{n}. ", (p.method, "bold"), f"  {safe_line(p.source_desc)}",
                                     (where, "underline $text-accent")), p.source, key, line)
                add(Content.assemble(f"   {safe_line(p.looked_up)} → ", (p.result, RESULT_STYLES.get(p.result, "dim")),
                                     f": {safe_line(p.detail)}"), p.source, key, line)
                if at and not at[1]:
                    add(Content.assemble("   ", (f"line {at[0]}", "underline $text-accent"),
                                         f": the entry nearest to <{code.hex()}>, which has none (enter)"), p.source, key, line)
            res = record.resolution
            for c in res.conflicts:
                add(Content.assemble(("conflict: ", "$text-error"),
                                     f"{c.method} gives {safe_line(format_unicode(c.unicode))}"))
            for f in res.flags:
                add(Content.assemble(("flag: ", "$text-warning"), safe_line(f.message)))
            for text in notes:
                add(Content.styled(safe_line(text), "$text-warning" if text.startswith("hidden") else "dim"))
            if owner is not None:
                ref, kind, mcid = owner
                add(Content.assemble(("structure element: ", "bold"), f"/{safe_line(kind)} ",
                                     (f"{ref.num} {ref.gen} R", "underline $text-accent"), f" owns MCID {mcid}"), ref)
            if picture is not None:
                if picture.rows:
                    add(Content.assemble(("outline", "bold"), ": what the code draws"))
                    for row in picture.rows:
                        add(Content("   " + row))
                else:
                    add(Content.assemble(("outline", "bold"), f": {safe_line(picture.why)}"))
                if picture.fingerprint:
                    add(Content(f"   fingerprint {picture.fingerprint}"))
        self.lines = lines
        self.set_entries(items)

    def action_follow(self) -> None:
        if not self.line_count:
            return
        _, ref, key = self.items[self.cursor]
        if ref is not None:
            self.post_message(ObjectRequested(Target(ref, None, key, self.lines[self.entry_of[self.cursor]])))


class PageBar(GotoBar):
    """The ``p`` prompt of the stepper and glyph inspector: a page number (``N`` or ``p N``,
    read by :func:`pdfinspect.present.goto.parse_goto`) or label (``xiv``).

    Like the go-to prompt it never takes focus: the app feeds it keys while it is shown.
    """

    class Answered(GotoBar.Answered):
        @property
        def page(self) -> int | None:
            target = parse_goto(self.text or "")
            return target.num if target is not None and target.kind in ("object", "page") and not target.label else None

        @property
        def label(self) -> str:
            """The page label typed (``xiv``, ``p xiv``), when no page number was."""
            target = parse_goto(self.text or "")
            return target.label if target is not None and target.label else (self.text or "").strip()

    PROMPT = "page: "
    PLACEHOLDER = "page number"


class PagePrompt:
    """Screen mixin: ``p`` asks for a page number and shows that page in ``PAGE_MODE``; on
    resume the screen shows the app's ``content_page`` (page 1 at first) with ``show_page``."""

    PAGE_MODE = ""

    def on_screen_resume(self) -> None:
        wanted = self.app.content_page or 1
        if wanted != self.page:
            self.show_page(wanted)

    def action_pick_page(self) -> None:
        self.query(GotoBar).remove()  # the app feeds keys to the first prompt of the screen
        bar = PageBar()
        self.mount(bar)
        bar.open()

    def on_page_bar_answered(self, event: PageBar.Answered) -> None:
        event.stop()
        self.query(PageBar).remove()
        n = event.page if event.page is not None else self.app.page_named(event.label) if event.label else None
        if n is not None:
            self.app.open_content_view(self.PAGE_MODE, n)


def font_panel(font: Font, program: FontProgram | None, diagnosis: str) -> Text:
    """What the font's dictionaries say and what was read from its embedded program."""
    out = Text()

    def row(label: str, value: str, style: str = "") -> None:
        out.append(f"{label:<11}", style="bold")
        out.append(safe_line(value) + "\n", style=style)

    def ref(r) -> str:
        return f"{r.num} {r.gen} R" if r is not None else "(direct)"

    row("font", f"{ref(font.ref)} /{font.subtype} /{font.base_font}")
    differences = f", {len(font.differences)} /Differences" if font.differences else ""
    row("encoding", f"{font.encoding_desc}{differences}" + (f" ({ref(font.encoding_ref)})" if font.encoding_ref else ""))
    if font.tounicode is None:
        row("ToUnicode", "none" if font.tounicode_ref is None else f"{ref(font.tounicode_ref)} unreadable")
    else:
        kinds = Counter(e.kind for e in font.tounicode.entries)
        row("ToUnicode", f"{ref(font.tounicode_ref)}: " + (", ".join(f"{n} {k}" for k, n in sorted(kinds.items()))
                                                          or "no entries"))
    cf = font.cid_font
    if cf is not None:
        gid_map = cf.cid_to_gid if isinstance(cf.cid_to_gid, str) or cf.cid_to_gid is None else ref(cf.cid_to_gid_ref)
        row("CIDSystem", f"{cf.registry}-{cf.ordering}-{cf.supplement}  /{cf.subtype} {ref(cf.ref)}  "
            f"CIDToGIDMap {gid_map or 'absent'}")
    row("descriptor", "none" if font.descriptor_ref is None and font.flags is None
        else f"{ref(font.descriptor_ref)} flags {font.flags} ({'symbolic' if font.symbolic else 'nonsymbolic'})")
    if program is None:
        row("program", "Type3 glyph procedures" if font.subtype == "Type3" else
            f"not embedded{' (standard 14: ' + font.standard_name + ')' if font.standard_name else ''}")
    else:
        row("program", f"{program.describe} {ref(program.ref)}")
        for (platform, encoding), table in sorted(program.cmaps.items()):
            row("", f"cmap ({platform},{encoding}): {len(table)} codes")
        if program.glyph_names:
            row("", f"{NAME_TABLES.get(program.kind, 'charset')}: {len(program.glyph_names)} glyphs")
        if program.builtin_encoding:
            row("", f"built-in encoding: {len(program.builtin_encoding)} codes")
        if program.cid_to_gid:
            row("", f"CID-keyed charset: {len(program.cid_to_gid)} CIDs")
        for d in program.diagnostics:
            row("", str(d), "red")
    for d in font.diagnostics:
        row("", str(d), "yellow")
    row("diagnosis", diagnosis or "text extracts cleanly", "yellow" if diagnosis else "green")
    out.rstrip()
    return out
