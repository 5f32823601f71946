"""Where a typed go-to sends the user: the ``g`` prompt, the ``p`` page prompt and the
command palette read the same words.

``12``, ``12 0``, ``12 0 R``, ``g 12``, ``obj 12``   object 12 (at generation 0)
``p 3``, ``page 3``                                page 3
``p xiv``, ``page A-3``, ``p label:3``            the page labelled so, when one is (12.4.2)
``f 3``, ``fonts of page 3``                       the font resources of page 3
``s 3``, ``step page 3``                           the content stepper on page 3
``gl 3``, ``glyphs of page 3``                     the glyph inspector on page 3
``@336``, ``@0x150``, ``offset 336``               the file's bytes at offset 336 (a diagnostic's)
"""
from __future__ import annotations

import re
from dataclasses import dataclass

OBJECT, PAGE, FONTS, STEP, GLYPHS, OFFSET = "object", "page", "fonts", "step", "glyphs", "offset"

_PATTERNS = (
    (OBJECT, re.compile(r"(?:g|go\s*to|o|obj|object)?\s*(\d+)(?:\s+(\d+))?(?:\s+R)?", re.IGNORECASE)),
    (PAGE, re.compile(r"(?:p|page)(?:\s*(\d+)|\s+(\S.*))", re.IGNORECASE)),
    (FONTS, re.compile(r"(?:f|fonts?)\s*(?:of\s+page\s*)?(\d+)", re.IGNORECASE)),
    (STEP, re.compile(r"(?:s|step)(?:\s+through)?\s*(?:page\s*)?(\d+)", re.IGNORECASE)),
    (GLYPHS, re.compile(r"(?:gl|glyphs?)\s*(?:of\s+)?(?:page\s*)?(\d+)", re.IGNORECASE)),
    (OFFSET, re.compile(r"(?:@|offset\s*|bytes\s+at\s*)(0x[0-9a-f]+|\d+)", re.IGNORECASE)),
)


@dataclass(frozen=True, slots=True)
class GoTo:
    """A go-to target: ``kind`` is one of ``object page fonts step glyphs``; ``num`` the
    object or page number; ``gen`` the generation typed after an object number; ``label``
    a page label typed instead of a page number (``core.pagelabels.pages_named`` reads it)."""

    kind: str
    num: int
    gen: int | None = None
    label: str | None = None

    def describe(self) -> str:
        if self.label is not None:
            return f"page labelled {self.label}"
        if self.kind == OBJECT:
            return f"object {self.num}" + (f" {self.gen}" if self.gen is not None else "")
        return {PAGE: "page {}", FONTS: "fonts of page {}", STEP: "step through page {}",
                GLYPHS: "glyphs of page {}", OFFSET: "bytes at offset {}"}[self.kind].format(self.num)


def parse_goto(text: str) -> GoTo | None:
    """The target ``text`` names, or ``None`` when it names none."""
    text = text.strip()
    for kind, pattern in _PATTERNS:
        m = pattern.fullmatch(text)
        if m is not None:
            if kind == PAGE and m[1] is None:
                return GoTo(PAGE, 0, label=m[2])
            gen = int(m[2]) if kind == OBJECT and m[2] else None
            return GoTo(kind, int(m[1], 16) if m[1][:2].lower() == "0x" else int(m[1]), gen)
    return None
