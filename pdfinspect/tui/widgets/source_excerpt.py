"""The lines of a content stream around one operator, highlighted, the operator marked.

The stepper shows where the current step sits in the decoded content (the page's joined
``/Contents``, 7.8.2, or a form XObject's stream): a few lines either side of the step's
byte span, coloured by :class:`~pdfinspect.highlight.lexers.PdfContentLexer`, the span in
reverse video. Only a bounded window of bytes is read, and long lines are shifted so the
operator stays in view: a 100,000-operator stream on one line costs what is shown.
"""
from __future__ import annotations

import re
from bisect import bisect_right

from textual.content import Content

from pdfinspect.present.text import safe

from .highlighting import highlight_lines

EOL = re.compile(rb"\r\n|\r|\n")
REACH = 2048  # bytes read either side of the span
MARK = "reverse bold"
LEAD = 24  # columns kept left of the operator when a line is shifted


def source_excerpt(data: bytes, span: tuple[int, int], width: int = 70, before: int = 3,
                   after: int = 4) -> list[Content]:
    """Lines of ``data`` around ``span`` (``before`` lines before it, ``after`` after), at most
    for a panel ``width`` columns wide: lines shift left, all alike, when the span would be cut off."""
    start, end = span
    lo = max(0, start - REACH)
    chunk = data[lo:min(len(data), start + REACH)]
    rel, rel_end = start - lo, min(end, start + REACH) - lo
    starts = [0] + [m.end() for m in EOL.finditer(chunk)]
    k = max(0, bisect_right(starts, rel) - 1)
    first = max(0, k - before)
    last = min(len(starts), k + after + 1)
    texts, marks = [], []
    for i in range(first, last):
        a = starts[i]
        b = starts[i + 1] if i + 1 < len(starts) else len(chunk)
        line = EOL.sub(b"", chunk[a:b]).replace(b"\t", b" ")  # one column, so the span's offsets still hold
        m0, m1 = max(rel, a) - a, min(rel_end, a + len(line)) - a
        if m0 < m1:
            pre, mid, post = (safe(part.decode("latin-1")) for part in (line[:m0], line[m0:m1], line[m1:]))
            texts.append(pre + mid + post)
            marks.append((len(pre), len(pre) + len(mid)))
        else:
            texts.append(safe(line.decode("latin-1")))
            marks.append(None)
    lines = highlight_lines("\n".join(texts), "content")
    span_col = next((m[0] for m in marks if m is not None), 0)
    shift = max(0, span_col - LEAD) if span_col > width - 16 else 0
    out = []
    for line, mark in zip(lines, marks):
        if mark is not None:
            line = line.stylize(MARK, *mark)
        if shift:
            line = Content.assemble(("…", "dim"), line[shift + 1:])
        out.append(line)
    return out
