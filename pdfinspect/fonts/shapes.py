"""Glyph shapes: what a code draws, read from the embedded program's outlines.

A mapping can lie (a glyph *named* ``exclam`` that draws an ``A``; a ToUnicode shifted by a
constant), and a font can carry no mapping at all; the outlines are the one thing that cannot
lie. Every glyph of an embedded program is read through fontTools pens (TrueType ``glyf``, CFF
and Type 1 charstrings) and flattened into polylines in units of 1/1000 em, so the same design
embedded by different producers — subset, renumbered, at another ``unitsPerEm`` — gives the same
:class:`Outline` and the same :meth:`Outline.fingerprint`. Type3 glyph procedures are
fingerprinted by their path operators and image masks (:func:`type3_fingerprint`).

Pure functions over program bytes; nothing here resolves text (see :mod:`.shapevote`).
"""
from __future__ import annotations

import hashlib
import io
import math
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from fontTools.pens.basePen import BasePen

from .embedded import cff_top, mend_sfnt, quiet_fonttools, sfnt_order

EM = 1000  # outlines are scaled to this many units per em
GRID = 4  # fingerprint coordinates are rounded to this many units (1/250 em)
CURVE_STEPS = 6  # segments a curve is flattened into
MAX_GLYPHS = 65536  # glyphs read from one program at most
MAX_POINTS = 20000  # points kept for one glyph; a larger outline is cut there
COARSE = 8  # cells a side of the grid of Outline.coarse_key
LIKENESS = 16  # cells a side of the grid of Outline.likeness_key
MAX_COMPONENT_DEPTH = 8  # composite glyphs nested deeper are cut there

Point = tuple[float, float]
# the cubic Bézier's weights at t = i / CURVE_STEPS, i = 1 … CURVE_STEPS: (1-t)³, 3(1-t)²t, 3(1-t)t², t³
_BERNSTEIN = tuple((u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t)
                   for t, u in ((i / CURVE_STEPS, 1 - i / CURVE_STEPS) for i in range(1, CURVE_STEPS + 1)))


@dataclass(frozen=True, slots=True)
class Outline:
    """A glyph's contours as closed polylines in 1/1000 em, y up, origin at the glyph origin."""

    contours: tuple[tuple[Point, ...], ...]

    @property
    def empty(self) -> bool:
        return not any(len(c) > 1 for c in self.contours)

    def bounds(self) -> tuple[float, float, float, float] | None:
        """``(x0, y0, x1, y1)``, or ``None`` for an empty outline (a space)."""
        xs = [x for c in self.contours for x, _ in c]
        ys = [y for c in self.contours for _, y in c]
        if not xs:
            return None
        return min(xs), min(ys), max(xs), max(ys)

    def fingerprint(self) -> str | None:
        """A hex digest of the contours on a 1/250 em grid, or ``None`` for an empty outline: the
        same for the same design however it was subset, renumbered or scaled, and whichever way
        and from whichever point its contours run (TrueType runs them clockwise, CFF the other
        way)."""
        if self.empty:
            return None
        contours = sorted(_canonical(_dedupe([(round(x / GRID), round(y / GRID)) for x, y in c]))
                          for c in self.contours)
        h = hashlib.blake2b(digest_size=12)
        for pts in contours:
            h.update(b"C" + ",".join(["%d %d" % p for p in pts]).encode())
        return h.hexdigest()


    def coarse_key(self) -> str | None:
        """A fuzzier key than :meth:`fingerprint`, ``"~"`` and a hex digest: the number of contours,
        the height, depth and width of the outline in 1/20 em, and the outline filled on a
        :data:`COARSE` × :data:`COARSE` grid fitted to its bounds. Versions of one typeface whose
        outlines differ by a few units share it where their fingerprints differ; so may look-alikes
        (l, I and | in a sans serif), which is why a vote on it asks for more (see
        :mod:`.shapevote`). ``None`` for an empty outline."""
        box = self.bounds()
        if box is None or self.empty:
            return None
        x0, y0, x1, y1 = box
        cells = raster(self, COARSE, COARSE)
        h = hashlib.blake2b(digest_size=12)
        h.update(f"{len(self.contours)} {round(y0 / 50)} {round(y1 / 50)} {round((x1 - x0) / 50)}|".encode())
        h.update("".join("1" if c else "0" for row in cells for c in row).encode())
        return "~" + h.hexdigest()

    def likeness_key(self) -> str | None:
        """What a glyph looks like, for comparison with other typefaces' glyphs
        (:mod:`.likeness`): ``"="``, the number of contours, the outline's bottom and top, its
        width and its right edge in 1/100 em (where it sits against the baseline: o and O, . and o,
        ’ and , differ there; a mark drawn left of the origin is no spacing character), and a :data:`LIKENESS` × :data:`LIKENESS` fill stretched to its bounds, in
        hexadecimal (bit ``row * LIKENESS + column``, row 0 at the top). ``None`` for an empty
        outline."""
        box = self.bounds()
        if box is None or self.empty:
            return None
        x0, y0, x1, y1 = box
        bits = 0
        for i, cell in enumerate(c for row in raster(self, LIKENESS, LIKENESS, keep_aspect=False) for c in row):
            if cell:
                bits |= 1 << i
        return (f"={min(len(self.contours), 99)}.{round(y0 / 10)}.{round(y1 / 10)}.{round((x1 - x0) / 10)}."
                f"{round(x1 / 10)}.{bits:x}")


def _canonical(points: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """One contour counter-clockwise, starting at its lowest, leftmost point."""
    if len(points) < 3:
        return points
    area = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1]))
    if area < 0:
        points = points[::-1]
    start = min(range(len(points)), key=lambda i: (points[i][1], points[i][0]))
    return points[start:] + points[:start]


def _dedupe(points: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for p in points:
        if not out or out[-1] != p:
            out.append(p)
    if len(out) > 1 and out[0] == out[-1]:
        out.pop()
    return out


class _FlatPen(BasePen):
    """Collects contours as polylines, curves flattened into :data:`CURVE_STEPS` segments."""

    def __init__(self, glyphset: Any, scale: float, glyf: Any = None):
        super().__init__(glyphset)
        self.scale = scale
        self.glyf = glyf
        self.contours: list[list[Point]] = []
        self.points = 0
        self.depth = 0

    def addComponent(self, glyphName: str, transformation: Any) -> None:
        """A composite glyph's part; a ``glyf`` table's glyph draws with the table (BasePen's
        ``glyph.draw(pen)`` does not give it one), a part nested too deep (a loop) is left out."""
        if self.glyf is None:
            super().addComponent(glyphName, transformation)
            return
        if self.depth >= MAX_COMPONENT_DEPTH:
            return
        from fontTools.pens.transformPen import TransformPen

        self.depth += 1
        try:
            self.glyf[glyphName].draw(TransformPen(self, transformation), self.glyf)
        finally:
            self.depth -= 1

    def _add(self, pt: Point) -> None:
        if self.points >= MAX_POINTS:
            return
        self.contours[-1].append((pt[0] * self.scale, pt[1] * self.scale))
        self.points += 1

    def _moveTo(self, pt: Point) -> None:
        self.contours.append([])
        self._add(pt)

    def _lineTo(self, pt: Point) -> None:
        if not self.contours:
            self._moveTo(self._getCurrentPoint() or (0, 0))
        self._add(pt)

    def _curveToOne(self, p1: Point, p2: Point, p3: Point) -> None:
        p0 = self._getCurrentPoint() or (0, 0)
        if not self.contours:
            self._moveTo(p0)
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = p0, p1, p2, p3
        room = MAX_POINTS - self.points
        if room <= 0:
            return
        scale, out = self.scale, self.contours[-1]
        steps = _BERNSTEIN if room >= CURVE_STEPS else _BERNSTEIN[:room]
        out.extend(((a * x0 + b * x1 + c * x2 + d * x3) * scale, (a * y0 + b * y1 + c * y2 + d * y3) * scale)
                   for a, b, c, d in steps)
        self.points += len(steps)

    def _closePath(self) -> None:
        pass

    def _endPath(self) -> None:
        pass


def _draw(glyph: Any, glyphset: Any, scale: float, glyf: Any = None) -> Outline:
    pen = _FlatPen(glyphset, scale, glyf)
    if glyf is not None:  # a glyf table's glyph draws with the table (for its components)
        glyph.draw(pen, glyf)
    else:
        glyph.draw(pen)
    return Outline(tuple(tuple(c) for c in pen.contours if c))


class ShapeError(ValueError):
    """The program's outlines cannot be read."""


class Outlines(Mapping[str, Outline]):
    """A program's outlines by glyph name, each drawn when first asked for: a CJK program holds tens
    of thousands of glyphs and a page shows a few. A glyph that cannot be drawn is absent."""

    def __init__(self, names: Iterable[str], draw: Callable[[str], Outline]):
        self._names = tuple(dict.fromkeys(names))[:MAX_GLYPHS]
        self._known = frozenset(self._names)
        self._draw = draw
        self._drawn: dict[str, Outline | None] = {}
        self._lock = threading.Lock()  # the app's workers may ask for glyphs of one program at once

    def __getitem__(self, name: str) -> Outline:
        outline = self._outline(name)
        if outline is None:
            raise KeyError(name)
        return outline

    def _outline(self, name: str) -> Outline | None:
        """The glyph's outline, drawn the first time; ``None`` for a name the program lacks or a
        glyph that cannot be drawn."""
        if name in self._drawn:
            return self._drawn[name]
        if name not in self._known:
            return None
        with self._lock:
            if name not in self._drawn:
                try:
                    with quiet_fonttools():
                        self._drawn[name] = self._draw(name)
                except Exception:  # fontTools raises many kinds on a damaged glyph: that glyph only is lost
                    self._drawn[name] = None
        return self._drawn[name]

    def __iter__(self) -> Iterator[str]:
        return (name for name in self._names if name in self)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self._outline(name) is not None

    def __len__(self) -> int:
        return sum(1 for _ in self)


def program_outlines(data: bytes, key: str, kind: str | None = None) -> Outlines:
    """Every glyph of an embedded program by glyph name (``/FontFile`` Type 1, ``/FontFile2``
    TrueType, ``/FontFile3`` CFF or OpenType), each drawn when first asked for. TrueType glyphs
    without ``post`` names are keyed ``gid<N>`` (fontTools' names), so look them up with
    :func:`glyph_order`'s names. :class:`ShapeError` when the program cannot be read at all."""
    try:
        with quiet_fonttools():
            return _outlines(data, key, kind)
    except ShapeError:
        raise
    except Exception as e:  # fontTools raises many kinds on damaged programs
        raise ShapeError(f"{type(e).__name__}: {e}") from None


def _is_sfnt(data: bytes, key: str, kind: str | None) -> bool:
    return key == "FontFile2" or kind == "OpenType" or data[:4] in (b"\x00\x01\x00\x00", b"true", b"OTTO")


def _is_cff(data: bytes, key: str) -> bool:
    return key == "FontFile3" or (len(data) > 4 and data[0] == 1 and data[2] == 4)


def _outlines(data: bytes, key: str, kind: str | None) -> Outlines:
    if _is_sfnt(data, key, kind):
        return _sfnt_outlines(data)
    if _is_cff(data, key):
        return _cff_outlines(data)
    return _type1_outlines(data)


def glyph_order(data: bytes, key: str, kind: str | None = None) -> tuple[str, ...]:
    """Glyph names by GID as :func:`program_outlines` keys them (Type 1 programs have no GIDs: ())."""
    try:
        with quiet_fonttools():
            if _is_sfnt(data, key, kind):
                from fontTools.ttLib import TTFont

                return sfnt_order(TTFont(io.BytesIO(bytes(data)), lazy=True, checkChecksums=0))
            if _is_cff(data, key):
                return tuple(cff_top(data).charset or ())
    except Exception as e:
        raise ShapeError(f"{type(e).__name__}: {e}") from None
    return ()


def _sfnt_outlines(data: bytes) -> Outlines:
    from fontTools.ttLib import TTFont

    tt = TTFont(io.BytesIO(bytes(data)), lazy=True, checkChecksums=0)
    order = sfnt_order(tt)
    mend_sfnt(tt)
    upem = tt["head"].unitsPerEm if "head" in tt else 1000
    # glyf outlines as stored: fontTools' glyph set would move each by hmtx's side bearing
    glyf = tt["glyf"] if "glyf" in tt else None
    glyphset = glyf if glyf is not None else tt.getGlyphSet()
    scale = EM / (upem or 1000)
    return Outlines(order, lambda name: _draw(glyphset[name], glyphset, scale, glyf))


def _cff_scale(top: Any) -> float:
    """EM over the units per em of a CFF: its top DICT's FontMatrix, or for a CID-keyed font whose
    Font DICTs have one, the first of those times the top DICT's where it has one (PDFTron writes
    0.001 in the top DICT and the identity in the Font DICT), else alone (Reitam's 1/2048 under a top
    DICT without any); of these the first that gives an em of 16 to 16,384 units."""
    matrix = top.rawDict.get("FontMatrix")
    fds = getattr(top, "FDArray", None) if hasattr(top, "ROS") else None
    sub = next((m for fd in fds if (m := getattr(fd, "rawDict", {}).get("FontMatrix"))), None) if fds else None
    tried = ([sub[0] * matrix[0]] if sub and matrix else []) + ([sub[0]] if sub else []) + [(matrix or [0.001])[0]]
    return EM * next((x for x in tried if 1 / 16384 <= abs(x) <= 1 / 16), 0.001)


def _cff_outlines(data: bytes) -> Outlines:
    top = cff_top(data)
    scale = _cff_scale(top)
    strings = top.CharStrings
    return Outlines(top.charset or (), lambda name: _draw(strings[name], strings, scale))


def _type1_outlines(data: bytes) -> Outlines:
    """A Type 1 program's outlines: its charstrings as :func:`.type1.read_charstrings` reads them,
    each made a fontTools charstring (whose interpreter draws it) when first drawn; a program laid
    out otherwise is read by fontTools' PostScript interpreter, which decrypts every glyph at once."""
    from fontTools.misc.psCharStrings import T1CharString

    from .type1 import Type1Error, read_charstrings

    try:
        program = read_charstrings(data)
    except Type1Error:
        return _type1_interpreted(data)
    subrs: list = []  # a subroutine may call the others
    subrs.extend(T1CharString(b, subrs=subrs) if b is not None else None for b in program.subrs)
    glyphset = _Charstrings(program.glyphs, subrs)
    scale = EM * (program.scale or 0.001)
    return Outlines(program.glyphs, lambda name: _draw(glyphset[name], glyphset, scale))


class _Charstrings(Mapping[str, Any]):
    """A Type 1 program's glyphs by name as fontTools charstrings, each made when first asked for
    (an accented glyph's ``seac`` asks for its parts by name)."""

    def __init__(self, plain: dict[str, bytes], subrs: list):
        self._plain, self._subrs = plain, subrs
        self._made: dict[str, Any] = {}

    def __getitem__(self, name: str) -> Any:
        if name not in self._made:
            from fontTools.misc.psCharStrings import T1CharString

            self._made[name] = T1CharString(self._plain[name], subrs=self._subrs)
        return self._made[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._plain)

    def __len__(self) -> int:
        return len(self._plain)


def _type1_interpreted(data: bytes) -> Outlines:
    from fontTools.t1Lib import T1Font

    from .type1 import _unwrap_pfb

    font = T1Font.__new__(T1Font)
    font.data = _unwrap_pfb(bytes(data))
    font.encoding = "ascii"
    font.parse()
    glyphset = font.getGlyphSet()
    matrix = font.font.get("FontMatrix") or [0.001]
    scale = EM * (matrix[0] or 0.001)
    return Outlines(glyphset.keys(), lambda name: _draw(glyphset[name], glyphset, scale))


_PATH_OPS = frozenset((b"m", b"l", b"c", b"v", b"y", b"re", b"h", b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*",
                       b"S", b"s", b"n"))


def type3_fingerprint(content: bytes) -> str | None:
    """A Type3 glyph procedure's fingerprint: its path-construction and painting operators with
    their numbers relative to the procedure's own bounds (so scale does not matter), and image
    masks by their size and bits. ``None`` for a procedure that draws nothing."""
    from ..core.lexer import INT, KEYWORD, REAL, Lexer

    image = _inline_image(content)
    stop = content.find(b"BI") if image is not None else len(content)
    ops: list[tuple[bytes, tuple[float, ...]]] = []
    numbers: list[float] = []
    for tok in Lexer(content, 0, stop if stop >= 0 else len(content)):
        if tok.kind in (INT, REAL):
            numbers.append(float(tok.value))
            continue
        if tok.kind == KEYWORD and tok.value in _PATH_OPS:
            ops.append((tok.value, tuple(numbers)))
        numbers = []
    if not ops and image is None:
        return None
    h = hashlib.blake2b(digest_size=12)
    if image is not None:
        h.update(b"IM" + image)
    coords = [v for _, nums in ops for v in nums]
    lo, hi = (min(coords), max(coords)) if coords else (0.0, 1.0)
    span = (hi - lo) or 1.0
    for op, nums in ops:
        h.update(op + b" " + " ".join(str(round((v - lo) / span * 250)) for v in nums).encode())
    return h.hexdigest()


def _inline_image(content: bytes) -> bytes | None:
    """``W H`` and the data of the first inline image of a glyph procedure, or ``None``."""
    start = content.find(b"BI")
    if start < 0:
        return None
    mid = content.find(b"ID", start)
    end = content.rfind(b"EI")
    if mid < 0 or end <= mid:
        return None
    return content[start + 2:mid].replace(b"\n", b" ").strip() + b"|" + content[mid + 3:end].rstrip()


def raster(outline: Outline, width: int, height: int, keep_aspect: bool = True) -> list[list[bool]]:
    """The outline filled (non-zero winding) on a ``width`` × ``height`` grid fitted to its
    bounds with the aspect kept (else stretched to fill the grid), row 0 at the top: what the glyph
    inspector draws."""
    grid = [[False] * width for _ in range(height)]
    box = outline.bounds()
    if box is None or width <= 0 or height <= 0:
        return grid
    x0, y0, x1, y1 = box
    sx, sy = width / ((x1 - x0) or 1), height / ((y1 - y0) or 1)
    if keep_aspect:
        sx = sy = min(sx, sy)
    ox = (width - (x1 - x0) * sx) / 2
    oy = (height - (y1 - y0) * sy) / 2
    rows: list[list[tuple[float, int]]] = [[] for _ in range(height)]  # each row's crossings at its centre
    ceil = math.ceil
    for c in outline.contours:
        pts = [((x - x0) * sx + ox, (y1 - y) * sy + oy) for x, y in c]
        for (ax, ay), (bx, by) in zip(pts, pts[1:] + pts[:1]):
            # the rows whose centre (row + 0.5) lies in [lo, hi): most flattened segments cross none
            first, end = (ceil(ay - 0.5), ceil(by - 0.5)) if ay < by else (ceil(by - 0.5), ceil(ay - 0.5))
            if first >= end or end <= 0 or first >= height:
                continue
            d = 1 if by > ay else -1
            for row in range(max(0, first), min(height, end)):
                rows[row].append((ax + (row + 0.5 - ay) * (bx - ax) / (by - ay), d))
    for row, crossings in enumerate(rows):
        if not crossings:
            continue
        crossings.sort()
        winding = 0
        cells = grid[row]
        for (xa, d), nxt in zip(crossings, crossings[1:] + [(float(width), 0)]):
            winding += d
            if winding:
                start, stop = max(0, int(xa + 0.5)), min(width, int(nxt[0] + 0.5))
                if start < stop:
                    cells[start:stop] = [True] * (stop - start)
    return grid
