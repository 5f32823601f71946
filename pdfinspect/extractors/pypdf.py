"""pypdf ``PageObject.extract_text()`` (plain mode), pypdf 7.1.1.

Source: ``pypdf/_page.py`` (``_extract_text``) and ``pypdf/_text_extraction/_text_extractor.py``
(``process_tj_offset``, ``_post_process_text_operation``) with ``crlf_space_check`` in
``pypdf/_text_extraction/__init__.py``. pypdf reads operators, not glyphs: inside a TJ array
a number of at least ``TJ_SPACE_FACTOR`` × half the font's space width (thousandths of an em)
adds a space; between text operators, text positions more than ``LINE_FACTOR`` × the font size
apart across the page axis (x or y, as ``orient`` picks it) make a line break, and a move of at
least half a space width along it, signed, a space. The space width is the font's /Widths entry
for its space code (``_space_code``), else ``DEFAULT_SPACE``. A composite font with Identity-H/V
and no ToUnicode reads its codes as UTF-16BE (``_cmap.py`` ``_predefined_cmap``). A form
XObject's text is set off by line breaks (``Do``). Annotations are not read.
"""
from __future__ import annotations

from ..content.state import multiply
from ..fonts.codes import CID_COLLECTION
from . import base

SOURCE = "pypdf _text_extraction/_text_extractor.py"
TJ_SPACE_FACTOR = 0.95  # _page.py: _confirm_space_width = extractor._space_width * 0.95
HALF_SPACE = 0.5  # _text_extractor.py _handle_tf: self._space_width = self.font.space_width / 2
LINE_FACTOR = 0.8  # __init__.py crlf_space_check: threshold = 0.8 * min(str_height, font_size)
ORIENT_EPSILON = 1e-6  # _text_extraction/__init__.py orient: m[3] > 1e-6 → 0, < -1e-6 → 180, else 90/270
UNKNOWN_FONT_SPACE = 0.25  # _text_extractor.py _handle_tf: Font("Unknown", space_width=250)
DEFAULT_SPACE = 0.2  # _page.py _extract_text(space_width=200.0) when the font's space code has no width


def _unknown(font) -> bool:
    """The font resource is not a dictionary: pypdf cannot load it (``_page.py`` skips it) and
    Tf falls back to its unknown font (``_text_extractor.py`` ``_handle_tf``)."""
    return font is not None and any(d.code == "font-not-dict" for d in font.diagnostics)


def text(record) -> tuple[str, str]:
    font = record.step.font
    if _unknown(font):  # _handle_tf: encoding=dict.fromkeys(range(256), "�")
        return "\ufffd" * len(record.glyph.code), "unknown-font"
    if font is not None and font.is_type0 and font.tounicode is None and font.encoding_desc.startswith("Identity") \
            and record.resolution.method == CID_COLLECTION:
        # _cmap.py _predefined_cmap: /Identity-H and -V decode as "utf-16-be"; no collection is read
        value = int.from_bytes(record.glyph.code, "big")
        return ("" if 0xD800 <= value < 0xE000 else chr(value)), "code-as-text"
    t = base.spec_text(record, "pypdf", actual_text=False)
    if t is None:
        return record.resolution.tounicode_only, "code-as-text"
    return t, ""


def _space_code(font) -> int:
    """The code pypdf takes for the space (``generic/_font.py`` 7.1.1 ``_get_space_char``): the
    first the ToUnicode maps to " ", else the first the encoding maps to " " (its character tables
    read WinAnsi's and MacRoman's second space as U+00A0: only code 32 or a /Differences
    ``space``), else 32."""
    for lookup in ((lambda c: font.tounicode.lookup_unicode(bytes([c]))[0]) if font.tounicode else None,
                   lambda c: " " if font.glyph_name(c) == "space" and (c == 32 or c in font.differences) else None):
        if lookup is not None:
            hit = next((c for c in range(256) if lookup(c) == " "), None)
            if hit is not None:
                return hit
    return 32


def _space_widths(records) -> dict:
    """Font → its space width (em) as pypdf takes it (``generic/_font.py`` 7.1.1
    ``_add_space_width``): a simple font's /Widths entry for the space code (:func:`_space_code`,
    whatever glyph it names: a T1-encoded font's visible space too; the standard 14 metrics when
    /Widths is absent); a composite font's width of a glyph on the page that reads " "; 0 when
    that width is 0 or absent, for which ``_page.py`` ``_extract_text`` puts ``DEFAULT_SPACE``."""
    out: dict = {}
    for r in records:
        font = r.step.font
        if font is None or font in out and (out[font] or not font.is_type0):
            continue
        if _unknown(font):
            out[font] = UNKNOWN_FONT_SPACE
            continue
        if font.is_type0:
            out[font] = r.glyph.width if r.unicode == " " else 0.0
            continue
        code = _space_code(font)
        inside = 0 <= code - font.first_char < len(font.widths) or (not font.widths and font.afm_widths is not None)
        out[font] = font.glyph_width(bytes([code])) if inside else 0.0
    return out


def _page_axis(record) -> tuple[float, float]:
    """The page axis along which ``crlf_space_check`` measures a move, signed (``orient`` of
    Tm × CTM): x when the matrix's d is not 0 (orientations 0 and 180), else y (90 and 270).
    Text that runs against it (right to left, top to bottom) never gets a space from a move."""
    step = record.step
    m = multiply(step.tm, step.gstate.ctm) if step.tm is not None else step.gstate.ctm
    return (1.0, 0.0) if abs(m[3]) > ORIENT_EPSILON else (0.0, 1.0)


def emulate(records, page: base.Page | None = None, shared: dict | None = None) -> base.Emulation:
    recs = base.source_records(records, annots=False)
    items = base.items(recs, shared)
    spaces = _space_widths(recs)

    def decide(prev: base.Item, cur: base.Item, prev_text: str, t: str) -> tuple[str, str, str]:
        ps, cs = prev.record.step, cur.record.step
        if ps.source != cs.source or ps.depth != cs.depth:
            return base.LINE, "xobject", "a form XObject's text is set off by line breaks (_page.py, Do)"
        sw = spaces.get(ps.font) or DEFAULT_SPACE
        if cs.font is not ps.font:  # _post_process_text_operation: min with the previous font's space
            sw = min(sw, spaces.get(cs.font) or DEFAULT_SPACE)
        along, _ = cur.gap(prev)
        size = prev.size
        if ps is cs:  # inside one TJ: only its numbers move the pen
            need = TJ_SPACE_FACTOR * HALF_SPACE * sw * size
            if along >= need and along > 0 and not prev_text.endswith(" "):
                return base.SPACE, "tj-number", (f"TJ moves {base.em(along, size)} ≥ {TJ_SPACE_FACTOR} × half the "
                                                 f"space width {sw:.3f} em ({SOURCE} process_tj_offset)")
            return base.NOTHING, "tj-number", f"TJ moves {base.em(along, size)}, under {TJ_SPACE_FACTOR} × half a space"
        ax, ay = _page_axis(cur.record)
        # the line test compares the two text positions across the page axis, whatever the writing
        # mode: glyphs of a vertical font one under the other are lines of their own
        across = (cur.origin[0] - prev.origin[0]) * ay - (cur.origin[1] - prev.origin[1]) * ax
        if abs(across) > LINE_FACTOR * min(size, cur.size):
            return base.LINE, "baseline", (f"moved {base.em(abs(across), size)} across page {'x' if ax else 'y'} "
                                           f"> {LINE_FACTOR} (crlf_space_check)")
        moved = (cur.origin[0] - prev.end[0]) * ax + (cur.origin[1] - prev.end[1]) * ay
        if moved >= HALF_SPACE * sw * size and not prev_text.endswith(" "):
            return base.SPACE, "gap", (f"moved {base.em(moved, size)} ≥ half the space width {sw:.3f} em "
                                       "(crlf_space_check)")
        return base.NOTHING, "gap", (f"moved {base.em(moved, size)} along page {'x' if ax else 'y'} < half the "
                                     f"space width {sw:.3f} em (crlf_space_check: a move against the axis is none)")

    return base.flow("pypdf", items, [text(r) for r in recs], decide)
