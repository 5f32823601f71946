"""Page labels (ISO 32000-1 12.4.2): the numbers a viewer shows, from the catalog's /PageLabels.

/PageLabels is a number tree from the first page index (0-based) of each range to a label
dictionary: /S the numbering style (D decimal, R/r upper/lower roman, A/a upper/lower
letters: A…Z, AA…ZZ, AAA…), /P a prefix, /St the value of the range's first page (default
1). A range without /S has labels made of the prefix alone. Pages before the first range
have no label (ISO 32000 requires a range at 0).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from .diagnostics import warning
from .numbertree import number_tree
from .objects import Dict, Name, String, is_integer
from .textstrings import decode_text

if TYPE_CHECKING:
    from .document import Document

_ROMAN = ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"), (40, "xl"),
          (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"))
MAX_ROMAN = 100_000  # bigger values are written in decimal (a damaged /St must not build megabytes)


def roman(n: int) -> str:
    if n <= 0 or n > MAX_ROMAN:
        return str(n)
    out = []
    for value, digits in _ROMAN:
        count, n = divmod(n, value)
        out.append(digits * count)
    return "".join(out)


def letters(n: int) -> str:
    """1 → a, 26 → z, 27 → aa, 52 → zz, 53 → aaa (12.4.2, Table 159)."""
    if n <= 0:
        return str(n)
    return chr(ord("a") + (n - 1) % 26) * ((n - 1) // 26 + 1)


def format_label(style: str | None, prefix: str, value: int) -> str:
    if style == "D":
        number = str(value)
    elif style in ("R", "r"):
        number = roman(value) if style == "r" else roman(value).upper()
    elif style in ("A", "a"):
        number = letters(value) if style == "a" else letters(value).upper()
    else:
        number = ""
    return prefix + number


def _ranges(doc: Document) -> dict[int, object] | None:
    """The /PageLabels number tree (first page index → label dictionary), or ``None`` when the
    document has none. Problems are noted on ``doc``."""
    root = doc.catalog.get("PageLabels")
    if root is None:
        return None
    ranges, diags = number_tree(doc, root, "/PageLabels")
    for d in diags:
        doc.note(d)
    return ranges


def _numbering(doc: Document, start: int, entry: object) -> tuple[str | None, str, int]:
    """(style, prefix, first value) of the range starting at page index ``start``."""
    spec = doc.resolve(entry)
    if not isinstance(spec, Dict):
        doc.note(warning("pagelabel-invalid", f"/PageLabels entry for page index {start} is not a dictionary",
                         clause="12.4.2"))
        spec = Dict()
    s = doc.resolve(spec.get("S"))
    p = doc.resolve(spec.get("P"))
    st = doc.resolve(spec.get("St"))
    style = str(s) if isinstance(s, Name) else None
    prefix = decode_text(p.value) if isinstance(p, String) else ""
    return style, prefix, st if is_integer(st) and st >= 1 else 1


def page_labels(doc: Document) -> list[str | None] | None:
    """The label of every page (index 0 = page 1; ``None`` before the first range), or
    ``None`` when the document has no /PageLabels. Problems are noted on ``doc``."""
    ranges = _ranges(doc)
    if ranges is None:
        return None
    count = doc.page_count()
    labels: list[str | None] = [None] * count
    starts = sorted(k for k in ranges if 0 <= k < count)
    for i, start in enumerate(starts):
        style, prefix, first = _numbering(doc, start, ranges[start])
        end = starts[i + 1] if i + 1 < len(starts) else count
        for index in range(start, end):
            labels[index] = format_label(style, prefix, first + index - start)
    return labels


def page_label(doc: Document, index: int) -> str | None:
    """The label of the page at ``index`` (0-based, a page the document has) alone, as
    :func:`page_labels` gives it, without counting the pages (a walk of the whole page tree:
    0.4 s over source3.pdf's 1,611 pages)."""
    ranges = _ranges(doc)
    if not ranges:
        return None
    start = max((k for k in ranges if 0 <= k <= index), default=None)
    if start is None:
        return None
    style, prefix, first = _numbering(doc, start, ranges[start])
    return format_label(style, prefix, first + index - start)


def pages_labelled(labels: list[str | None], label: str) -> list[int]:
    """The 1-based pages whose label is ``label``."""
    return [n for n, text in enumerate(labels, 1) if text == label]


def pages_named(spec: str, count: int, labels: Callable[[], list[str | None] | None]) -> list[int]:
    """The physical pages (1-based) that ``spec`` names, for ``-p`` and the app's ``g p``: a
    number is the physical page when the document has it (``1503`` is the 1503rd page); any
    other text, or ``label:TEXT``, is a page label naming the pages so labelled (one when it
    is unambiguous). ``labels`` gives :func:`page_labels`, asked only for a label."""
    if spec.isdigit() and 1 <= int(spec) <= count:
        return [int(spec)]
    found = labels()
    return pages_labelled(found, spec[6:] if spec.startswith("label:") else spec) if found else []
