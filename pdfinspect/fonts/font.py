"""The font model, built from font dictionaries (ISO 32000-1 9.5–9.9).

A :class:`Font` knows what the dictionaries say: subtype, base font, descriptor flags,
encoding (base + ``/Differences``), widths (``/Widths`` or ``/W`` ``/DW``), the Type0
CMap and descendant CIDFont, ``/ToUnicode``, which font program is embedded, and for Type3
the CharProcs. Font programs are read separately (:mod:`.embedded`), only when needed.
Every problem met while reading is a :class:`Diagnostic` in ``Font.diagnostics``.
"""
from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field, replace
from functools import lru_cache

from ..core.diagnostics import Diagnostic, warning
from ..core.objects import Array, Dict, Name, Ref, Stream, String, is_integer, is_number
from . import cmap as cmaps
from . import pdfminerdata
from .agl import glyph_to_unicode
from .encodings import BASE_ENCODING_NAMES, BUILTIN_FONT_ENCODINGS, apply_differences, base_encoding
from .heuristics import is_lead_byte, legacy_cjk_codec

SIMPLE = ("Type1", "MMType1", "TrueType", "Type3")

# FontDescriptor /Flags bits (9.8.2, Table 123).
FLAG_SYMBOLIC = 1 << 2
FLAG_NONSYMBOLIC = 1 << 5

STANDARD_14 = frozenset({
    "Times-Roman", "Times-Bold", "Times-Italic", "Times-BoldItalic", "Helvetica",
    "Helvetica-Bold", "Helvetica-Oblique", "Helvetica-BoldOblique", "Courier", "Courier-Bold",
    "Courier-Oblique", "Courier-BoldOblique", "Symbol", "ZapfDingbats"})

# The public character collections whose Registry-Ordering-UCS2 CMaps exist (9.10.2).
PUBLIC_COLLECTIONS = frozenset({("Adobe", "GB1"), ("Adobe", "CNS1"), ("Adobe", "Japan1"),
                                ("Adobe", "Korea1"), ("Adobe", "KR")})

FONT_FILE_KEYS = ("FontFile", "FontFile2", "FontFile3")


@dataclass(frozen=True, slots=True)
class CIDFont:
    """The descendant of a Type0 font (9.7.4)."""

    ref: Ref | None
    subtype: str
    base_font: str
    registry: str
    ordering: str
    supplement: int
    cid_to_gid: str | bytes | None  # "Identity", the map's bytes, or None (absent)
    cid_to_gid_ref: Ref | None
    default_width: float
    widths: tuple[tuple[int, int, float], ...]  # sorted (first CID, last CID, width)
    default_vertical: float  # DW2's w1y
    vertical_widths: tuple[tuple[int, int, float], ...] = ()  # /W2: sorted (first, last, w1y)

    def vertical_advance(self, cid: int | None) -> float:
        """Vertical displacement w1y for a 1-unit font size (9.7.4.3, /W2 then /DW2)."""
        w = self.default_vertical
        ranges = self.vertical_widths
        if cid is not None and ranges:
            i = bisect_right(ranges, (cid, float("inf"))) - 1
            if i >= 0 and ranges[i][0] <= cid <= ranges[i][1]:
                w = ranges[i][2]
        return w / 1000.0


@dataclass(frozen=True, slots=True, eq=False)
class Font:
    """One font dictionary as an inspector sees it.

    ``encoding_base`` is the name of the base encoding table in use (explicit or implicit),
    ``encoding_base_source`` says where it came from; ``None`` means the font program's
    built-in encoding applies. ``differences`` maps codes named by ``/Differences``.
    """

    ref: Ref | None
    subtype: str
    base_font: str
    descriptor_ref: Ref | None
    flags: int | None
    program_key: str | None  # FontFile, FontFile2 or FontFile3
    program_ref: Ref | None
    program_subtype: str | None  # FontFile3 /Subtype
    encoding_desc: str
    encoding_ref: Ref | None
    encoding_base: str | None
    encoding_base_source: str
    differences: dict[int, str]  # (fonts compare and hash by identity: one per dictionary)
    tounicode_ref: Ref | None
    tounicode: cmaps.CMap | None
    cmap: cmaps.CMap | None  # Type0 /Encoding
    cid_font: CIDFont | None
    first_char: int = 0
    widths: tuple[float, ...] = ()
    missing_width: float = 0.0
    afm_widths: dict | None = None  # standard 14 metrics when /Widths is absent
    font_matrix: tuple = (0.001, 0.0, 0.0, 0.001, 0.0, 0.0)
    charprocs: dict[str, Ref | None] = field(default_factory=dict)
    diagnostics: tuple[Diagnostic, ...] = ()
    resources: object = None  # Type3: the glyph procedures' /Resources (as written, maybe a Ref)
    _simple_widths: dict[int, float] = field(default_factory=dict, repr=False)  # code → w0, filled on use
    # glyphs' heuristic: the legacy codepage (gbk, big5, cp932, euc-kr) of a simple font named after a
    # CJK family with no ToUnicode; its lead bytes start two-byte codes (fonts.heuristics.legacy_cjk_codec)
    legacy_cjk: str | None = None
    # the resource name of a font Tf selects and the resources lack, when this font stands in for it
    # (FontCache.substitute; fonts.heuristics.MISSING_FONT_SUBSTITUTE)
    substitute_for: str | None = None

    # -- kinds ------------------------------------------------------------------------
    @property
    def is_type0(self) -> bool:
        return self.subtype == "Type0"

    @property
    def symbolic(self) -> bool:
        return self.flags is not None and bool(self.flags & FLAG_SYMBOLIC)

    @property
    def embedded(self) -> bool:
        return self.program_ref is not None

    @property
    def standard_name(self) -> str | None:
        """The standard 14 font this (non-embedded) font names, if any."""
        name = self.base_font.split("+", 1)[-1] if not self.embedded else ""
        return name if name in STANDARD_14 else None

    @property
    def vertical(self) -> bool:
        return self.cmap is not None and self.cmap.wmode == 1

    @property
    def program_kind(self) -> str | None:
        """``Type1``, ``TrueType``, ``Type1C``, ``CIDFontType0C``, ``OpenType`` or None."""
        if self.program_key == "FontFile":
            return "Type1"
        if self.program_key == "FontFile2":
            return "TrueType"
        if self.program_key == "FontFile3":
            return self.program_subtype or "FontFile3"
        return None

    @property
    def collection(self) -> tuple[str, str] | None:
        if self.cid_font is None:
            return None
        return self.cid_font.registry, self.cid_font.ordering

    # -- codes and widths ---------------------------------------------------------------
    def split(self, data: bytes, diagnostics: list | None = None) -> list[cmaps.Code]:
        """Cut a shown string into character codes (9.4.3, 9.7.6.2)."""
        if self.cmap is None:
            if self.legacy_cjk:
                return _split_legacy_cjk(self.legacy_cjk, data)
            return [cmaps.Code(data[i:i + 1], i) for i in range(len(data))]
        return self.cmap.split_codes(data, diagnostics)

    def cid(self, code: bytes) -> int | None:
        if self.cmap is None:
            return None
        return self.cmap.lookup_cid(code)[0]

    def glyph_width(self, code: bytes, cid: int | None = None) -> float:
        """Horizontal displacement w0 in text space units for a 1-unit font size (9.2.4)."""
        if self.cid_font is not None:
            c = self.cid(code) if cid is None else cid
            w = self.cid_font.default_width
            if c is not None and self.cid_font.widths:
                ranges = self.cid_font.widths
                i = bisect_right(ranges, (c, float("inf"))) - 1
                if i >= 0 and ranges[i][0] <= c <= ranges[i][1]:
                    w = ranges[i][2]
            return w / 1000.0
        if len(code) > 1:  # a legacy CJK double-byte code advances as its bytes would
            return sum(self.glyph_width(code[i:i + 1]) for i in range(len(code)))
        n = code[0] if code else 0
        cached = self._simple_widths.get(n)
        if cached is None:
            cached = self._simple_widths[n] = self._simple_width(n)
        return cached

    def _simple_width(self, n: int) -> float:
        i = n - self.first_char
        if 0 <= i < len(self.widths):
            w = self.widths[i]
        elif self.afm_widths is not None:
            name = self.glyph_name(n)
            text = glyph_to_unicode(name, self.standard_name == "ZapfDingbats").unicode if name else ""
            w = self.afm_widths.get(text, self.missing_width)
        else:
            w = self.missing_width
        return w * self.font_matrix[0] if self.subtype == "Type3" else w / 1000.0

    def glyph_name(self, code: int) -> str | None:
        """Name from /Differences, else from the base encoding table (not the program)."""
        name = self.differences.get(code)
        if name is None and self.encoding_base is not None:
            table = base_encoding(self.encoding_base)
            name = table[code] if table is not None and 0 <= code < 256 else None
        return name


@lru_cache(maxsize=1)
def _zapf_dingbats_widths() -> dict[str, float]:
    """ZapfDingbats' standard metrics keyed by Unicode like the other standard 14 fonts'.

    pdfminer.six keys this font's table by the number in the glyph name (``a1`` → ``'\\x01'``),
    so nothing a font's encoding yields finds it, and ``a32`` overwrote ``space`` (both ``' '``).
    Each ``aN`` is re-keyed by its character (fonts.agl's ITC Zapf Dingbats list); the space's
    width is Adobe's AFM's (``C 32 ; WX 278 ; N space``)."""
    metrics = pdfminerdata.module("fontmetrics").FONT_METRICS["ZapfDingbats"][1]
    out: dict[str, float] = {glyph_to_unicode(f"a{ord(key)}", zapf_dingbats=True).unicode: width
           for key, width in metrics.items()}
    out.pop("", None)
    out[" "] = 278
    return out


# -- loading ------------------------------------------------------------------------------
def load_font(doc, value, resolve_usecmap=None) -> Font:
    """Build a :class:`Font` from a font dictionary or a reference to one."""
    ref = value if isinstance(value, Ref) else None
    d = doc.resolve(value)
    diags: list[Diagnostic] = []
    if isinstance(d, Stream):
        d = d.dict
    if not isinstance(d, Dict):
        diags.append(warning("font-not-dict", f"font {ref or ''} is not a dictionary",
                             ref=_pair(ref), clause="9.5"))
        d = Dict()
    subtype = str(doc.resolve(d.get("Subtype")) or "")
    if subtype not in SIMPLE and subtype != "Type0":
        diags.append(warning("font-subtype", f"font /Subtype /{subtype or '?'} is not a known font "
                             "type; read as Type1", ref=_pair(ref), clause="9.5"))
        subtype = subtype or "Type1"
    base_font = str(doc.resolve(d.get("BaseFont")) or "")
    usecmap = resolve_usecmap or _predefined
    tu_ref = d.get("ToUnicode") if isinstance(d.get("ToUnicode"), Ref) else None
    tounicode = _load_cmap(doc, d.get("ToUnicode"), usecmap, diags, "ToUnicode") \
        if d.get("ToUnicode") is not None and not isinstance(doc.resolve(d.get("ToUnicode")), Name) else None
    if subtype == "Type0":
        return _load_type0(doc, ref, d, base_font, tounicode, tu_ref, usecmap, diags)
    return _load_simple(doc, ref, d, subtype, base_font, tounicode, tu_ref, diags)


def _pair(ref: Ref | None):
    return (ref.num, ref.gen) if ref is not None else None


def _predefined(name: str):
    from .predefined import predefined_cmap

    return predefined_cmap(name)


def _number(v, default: float) -> float:
    return float(v) if is_number(v) else default


def _load_cmap(doc, value, usecmap, diags: list, what: str) -> cmaps.CMap | None:
    stream_obj = doc.get(value.num, value.gen) if isinstance(value, Ref) else None
    if stream_obj is None or not isinstance(stream_obj.value, Stream):
        diags.append(warning("cmap-not-stream", f"/{what} is not a stream; ignored", clause="9.10.3"))
        return None
    res = doc.stream_data(stream_obj)
    if res.error:
        diags.append(warning("cmap-decode", f"/{what} {value}: {res.error}", ref=_pair(value)))
    cmap = cmaps.parse_cmap(res.data, usecmap)
    for dg in cmap.diagnostics:
        diags.append(warning(dg.code, f"/{what} {value}: {dg.message}", offset=dg.offset,
                             ref=_pair(value), clause=dg.clause))
    return cmap


def _descriptor(doc, d: Dict, diags: list):
    desc_ref = d.get("FontDescriptor") if isinstance(d.get("FontDescriptor"), Ref) else None
    desc = doc.resolve(d.get("FontDescriptor"))
    if not isinstance(desc, Dict):
        return desc_ref, None, None, None, None, 0.0
    flags = doc.resolve(desc.get("Flags"))
    flags = flags if is_integer(flags) else None
    key = prog_ref = prog_sub = None
    for k in FONT_FILE_KEYS:
        if k in desc:
            key, prog_ref = k, desc[k] if isinstance(desc[k], Ref) else None
            stm = doc.resolve(desc[k])
            if isinstance(stm, Stream):
                sub = doc.resolve(stm.dict.get("Subtype"))
                prog_sub = str(sub) if isinstance(sub, Name) else None
            else:
                diags.append(warning("font-file-missing", f"/{k} is not a stream", clause="9.9"))
                key = prog_ref = None
            break
    missing = _number(doc.resolve(desc.get("MissingWidth")), 0.0)
    return desc_ref, flags, key, prog_ref, prog_sub, missing


def _load_simple(doc, ref, d, subtype, base_font, tounicode, tu_ref, diags) -> Font:
    desc_ref, flags, key, prog_ref, prog_sub, missing = _descriptor(doc, d, diags)
    std_name = base_font if prog_ref is None and base_font in STANDARD_14 else None
    enc_value = d.get("Encoding")
    enc_ref = enc_value if isinstance(enc_value, Ref) else None
    enc = doc.resolve(enc_value)
    differences: dict[int, str] = {}
    explicit = None
    desc_parts = []
    if isinstance(enc, Name):
        if enc in BASE_ENCODING_NAMES:
            explicit, source = str(enc), "font dictionary /Encoding"
        else:
            diags.append(warning("encoding-unknown", f"/Encoding /{enc} is not a simple-font encoding; "
                                 "ignored", ref=_pair(ref), clause="9.6.6.1"))
        desc_parts.append(str(enc))
    elif isinstance(enc, Dict):
        be = doc.resolve(enc.get("BaseEncoding"))
        if isinstance(be, Name) and be in BASE_ENCODING_NAMES:
            explicit, source = str(be), "/Encoding /BaseEncoding"
            desc_parts.append(str(be))
        elif be is not None:
            diags.append(warning("encoding-unknown", f"/BaseEncoding {be!r} is not a base encoding; "
                                 "ignored", ref=_pair(ref), clause="9.6.6.1"))
        diff = doc.resolve(enc.get("Differences"))
        if isinstance(diff, Array):
            table, ddiags = apply_differences((None,) * 256, [doc.resolve(x) for x in diff])
            differences = {i: n for i, n in enumerate(table) if n is not None}
            diags.extend(ddiags)
            desc_parts.append(f"Differences ({len(differences)} codes)")
    elif enc is not None:
        diags.append(warning("encoding-bad", "/Encoding is neither a name nor a dictionary",
                             ref=_pair(ref), clause="9.6.6.1"))
    if explicit is None:
        explicit, source = _implicit_base(subtype, flags, prog_ref, std_name)
        desc_parts.insert(0, f"({source})" if explicit is None else f"{explicit} (implicit)")
    first = doc.resolve(d.get("FirstChar"))
    first = first if is_integer(first) else 0
    widths = doc.resolve(d.get("Widths"))
    widths = tuple(_number(doc.resolve(w), missing) for w in widths) if isinstance(widths, Array) else ()
    afm = None
    if not widths:
        std = base_font.split("+", 1)[-1]
        metrics = pdfminerdata.module("fontmetrics").FONT_METRICS.get(std)
        afm = (_zapf_dingbats_widths() if std == "ZapfDingbats" else metrics[1]) if metrics else None
        if afm is None and subtype != "Type3" and base_font not in STANDARD_14:
            diags.append(warning("widths-missing", "no /Widths: glyph advances use /MissingWidth",
                                 ref=_pair(ref), clause="9.6.2.1"))
    matrix = (0.001, 0.0, 0.0, 0.001, 0.0, 0.0)
    charprocs: dict[str, Ref | None] = {}
    resources = None
    if subtype == "Type3":
        resources = d.get("Resources")
        fm = doc.resolve(d.get("FontMatrix"))
        if isinstance(fm, Array) and len(fm) == 6:
            a, b, c, d_, e, f = (_number(doc.resolve(x), 0.0) for x in fm)
            matrix = (a, b, c, d_, e, f)
        procs = doc.resolve(d.get("CharProcs"))
        if isinstance(procs, Dict):
            charprocs = {str(k): v if isinstance(v, Ref) else None for k, v in procs.items()}
    cjk = legacy_cjk_codec(base_font) if subtype in ("TrueType", "Type1") and tounicode is None \
        and not differences else None
    return Font(ref, subtype, base_font, desc_ref, flags, key, prog_ref, prog_sub,
                " + ".join(desc_parts), enc_ref, explicit, source, differences, tu_ref, tounicode,
                None, None, first, widths, missing, afm, matrix, charprocs, tuple(diags), resources,
                legacy_cjk=cjk)


def _split_legacy_cjk(codec: str, data: bytes) -> list[cmaps.Code]:
    """One-byte codes, except a lead byte of ``codec`` and the byte after it, one code."""
    out, i = [], 0
    while i < len(data):
        n = 2 if is_lead_byte(codec, data[i]) and i + 1 < len(data) else 1
        out.append(cmaps.Code(data[i:i + n], i))
        i += n
    return out


def _implicit_base(subtype, flags, prog_ref, std_name) -> tuple[str | None, str]:
    """The base encoding when the dictionary names none (9.6.6.1, 9.6.6.2, 9.6.6.4)."""
    if std_name in BUILTIN_FONT_ENCODINGS:
        return BUILTIN_FONT_ENCODINGS[std_name], f"{std_name} built-in encoding (Annex D)"
    if subtype == "Type3":
        return None, "Type3 font: codes are named only by /Differences"
    symbolic = flags is not None and bool(flags & FLAG_SYMBOLIC)
    if prog_ref is not None and (subtype != "TrueType" or symbolic):
        return None, "font program's built-in encoding"
    if symbolic:
        return None, "symbolic font: font program's built-in encoding"
    return "StandardEncoding", "nonsymbolic font without /Encoding: StandardEncoding"


def _load_type0(doc, ref, d, base_font, tounicode, tu_ref, usecmap, diags) -> Font:
    enc_value = d.get("Encoding")
    enc = doc.resolve(enc_value)
    cmap = None
    if isinstance(enc, Name):
        cmap = usecmap(str(enc))
        if cmap is None:
            diags.append(warning("cmap-unknown", f"/Encoding /{enc} is not a predefined CMap; "
                                 "read as Identity-H", ref=_pair(ref), clause="9.7.5.2"))
        desc = str(enc)
    elif isinstance(enc, Stream):
        cmap = _load_cmap(doc, enc_value, usecmap, diags, "Encoding")
        desc = f"embedded CMap {cmap.name or ''}".rstrip() if cmap else "embedded CMap (unreadable)"
    else:
        diags.append(warning("cmap-missing", "Type0 font without a usable /Encoding CMap; read as "
                             "Identity-H", ref=_pair(ref), clause="9.7.6.1"))
        desc = "(none)"
    if cmap is None:
        cmap = cmaps.identity_cmap()
    descendants = doc.resolve(d.get("DescendantFonts"))
    cid_value = descendants[0] if isinstance(descendants, Array) and descendants else None
    cd = doc.resolve(cid_value)
    if not isinstance(cd, Dict):
        diags.append(warning("descendant-missing", "Type0 font without a descendant CIDFont",
                             ref=_pair(ref), clause="9.7.6.1"))
        cd = Dict()
    desc_ref, flags, key, prog_ref, prog_sub, _missing = _descriptor(doc, cd, diags)
    info = doc.resolve(cd.get("CIDSystemInfo"))
    info = info if isinstance(info, Dict) else Dict()

    def text(k):
        v = doc.resolve(info.get(k))
        return v.value.decode("latin-1") if isinstance(v, String) else str(v or "")

    supplement = doc.resolve(info.get("Supplement"))
    c2g_value = cd.get("CIDToGIDMap")
    c2g = doc.resolve(c2g_value)
    cid_to_gid: str | bytes | None = None
    if isinstance(c2g, Name):
        cid_to_gid = str(c2g)
    elif isinstance(c2g, Stream):
        res = doc.stream_data(doc.get(c2g_value.num)) if isinstance(c2g_value, Ref) else None
        cid_to_gid = res.data if res is not None else None
    cid_font = CIDFont(
        cid_value if isinstance(cid_value, Ref) else None, str(doc.resolve(cd.get("Subtype")) or ""),
        str(doc.resolve(cd.get("BaseFont")) or ""), text("Registry"), text("Ordering"),
        supplement if isinstance(supplement, int) else 0, cid_to_gid,
        c2g_value if isinstance(c2g_value, Ref) else None,
        _number(doc.resolve(cd.get("DW")), 1000.0), _cid_widths(doc, cd.get("W"), diags),
        _dw2(doc, cd.get("DW2")), _cid_vertical_widths(doc, cd.get("W2"), diags))
    return Font(ref, "Type0", base_font, desc_ref, flags, key, prog_ref, prog_sub, desc,
                enc_value if isinstance(enc_value, Ref) else None, None, "Type0: codes select CIDs",
                {}, tu_ref, tounicode, cmap, cid_font, diagnostics=tuple(diags))


def _cid_widths(doc, value, diags) -> tuple[tuple[int, int, float], ...]:
    """Parse /W (9.7.4.3): ``c [w1 w2 …]`` and ``c_first c_last w`` groups."""
    return _cid_metrics(doc, value, diags, "W", per_cid=1, default=0.0)


def _cid_vertical_widths(doc, value, diags) -> tuple[tuple[int, int, float], ...]:
    """Parse /W2 (9.7.4.3): ``c [w1y v1x v1y …]`` and ``c_first c_last w1y v1x v1y`` groups;
    only w1y moves the pen, the position vectors place the glyph."""
    return _cid_metrics(doc, value, diags, "W2", per_cid=3, default=-1000.0)


def _cid_metrics(doc, value, diags, key: str, per_cid: int, default: float):
    """The shared grammar of /W and /W2: sorted (first CID, last CID, first metric)."""
    arr = doc.resolve(value)
    if not isinstance(arr, Array):
        return ()
    items = [doc.resolve(x) for x in arr]
    out: list[tuple[int, int, float]] = []
    i = 0
    while i < len(items):
        first = items[i]
        nxt = items[i + 1] if i + 1 < len(items) else None
        if isinstance(first, int) and isinstance(nxt, Array) and len(nxt) % per_cid == 0:
            metrics = [doc.resolve(x) for x in nxt][::per_cid]
            out.extend((first + k, first + k, _number(m, default)) for k, m in enumerate(metrics))
            i += 2
        elif isinstance(first, int) and isinstance(nxt, int) and i + 1 + per_cid < len(items):
            out.append((first, nxt, _number(items[i + 2], default)))
            i += 2 + per_cid
        else:
            diags.append(warning(f"{key.lower()}-malformed", f"/{key} entry {i} is malformed; the rest "
                                 "ignored", clause="9.7.4.3"))
            break
    out.sort()
    return tuple(out)


def _dw2(doc, value) -> float:
    dw2 = doc.resolve(value)
    if isinstance(dw2, Array) and len(dw2) == 2:
        return _number(doc.resolve(dw2[1]), -1000.0)
    return -1000.0


class FontCache:
    """Fonts of one document, each font dictionary loaded once (keyed by reference, or by
    identity for a direct dictionary)."""

    __slots__ = ("doc", "_fonts", "charprocs")

    def __init__(self, doc):
        self.doc = doc
        self._fonts: dict[object, Font] = {}
        # Type3 glyph procedure (num, gen) → its content if it shows text, else None; filled
        # by the interpreter, kept here so that it lasts as long as the fonts.
        self.charprocs: dict[tuple[int, int], bytes | None] = {}

    @classmethod
    def of(cls, doc) -> "FontCache":
        """The document's shared cache: every page, the search index and the app's views load
        each font once (a page that made its own cache would load every font again)."""
        cache: FontCache = doc.derived("fonts.FontCache", lambda: cls(doc))
        return cache

    def get(self, value) -> Font:
        key = (value.num, value.gen) if isinstance(value, Ref) else id(value)
        font = self._fonts.get(key)
        if font is None:
            font = self._fonts[key] = load_font(self.doc, value)
        return font

    def select(self, value, name: str) -> Font:
        """The font a ``Tf`` of ``/name`` selects: the resource ``value``, or when the resources
        lack it (``None``) the font that stands in for it, one per name (:meth:`substitute`)."""
        return self.get(value) if value is not None else self.substitute(name)

    def substitute(self, name: str) -> Font:
        """A default font for a ``Tf`` naming a font that is not in the resources, as MuPDF and
        pdf.js draw and extract one: Times-Roman's metrics with WinAnsiEncoding (pdf.js's
        fallback font dictionary has that encoding; MuPDF draws with Times-Roman's widths)."""
        key = ("substitute", name)
        font = self._fonts.get(key)
        if font is None:
            stand_in = Dict({Name("Type"): Name("Font"), Name("Subtype"): Name("Type1"),
                             Name("BaseFont"): Name("Times-Roman"), Name("Encoding"): Name("WinAnsiEncoding")})
            font = self._fonts[key] = replace(load_font(self.doc, stand_in), substitute_for=name)
        return font

    def __iter__(self):
        return iter(self._fonts.values())
