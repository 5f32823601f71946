"""Graphics and text state as immutable snapshots (ISO 32000-1 8.4, 9.3).

Every interpreter step carries the state in force after its operator. The snapshots are
frozen dataclasses: an operator that changes nothing shares the previous snapshot, one
that changes a field makes a new one with :func:`dataclasses.replace`, so a page with
100,000 operators holds only as many states as it has state changes.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Callable, TypeVar

from ..core.objects import Ref

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def multiply(m: Matrix, n: Matrix) -> Matrix:
    """``m × n`` in the spec's row-vector convention (8.3.4): apply ``m`` first, then ``n``."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D,
            e * A + f * C + E, e * B + f * D + F)


def transform(m: Matrix, x: float, y: float) -> tuple[float, float]:
    """The point ``(x, y)`` mapped by ``m``."""
    return (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])


def translate(tx: float, ty: float) -> Matrix:
    return (1.0, 0.0, 0.0, 1.0, tx, ty)


@dataclass(frozen=True, slots=True)
class TextState:
    """Text state parameters (9.3.1, Table 104); ``font_name`` is the resource name."""

    font_name: str | None = None
    font_ref: Ref | None = None
    size: float = 0.0  # Tfs
    char_spacing: float = 0.0  # Tc
    word_spacing: float = 0.0  # Tw
    scale: float = 100.0  # Tz, percent
    leading: float = 0.0  # TL
    rise: float = 0.0  # Ts
    render: int = 0  # Tr


@dataclass(frozen=True, slots=True)
class GraphicsState:
    """The device-independent graphics state parameters an inspector shows (8.4.2)."""

    ctm: Matrix = IDENTITY
    stroke_space: str = "DeviceGray"
    stroke_color: tuple = (0,)
    fill_space: str = "DeviceGray"
    fill_color: tuple = (0,)
    line_width: float = 1.0
    line_cap: int = 0
    line_join: int = 0
    miter_limit: float = 10.0
    dash: tuple = ((), 0)
    rendering_intent: str = "RelativeColorimetric"
    flatness: float = 1.0
    ext_gstate: str | None = None  # last /gs resource applied
    text: TextState = TextState()
    fill_alpha: float = 1.0  # ExtGState /ca (11.6.4.4)
    stroke_alpha: float = 1.0  # ExtGState /CA
    blend_mode: str = "Normal"  # ExtGState /BM (11.3.5), the first of an array
    soft_mask: bool = False  # ExtGState /SMask other than /None (11.6.5.2)
    # The clipping path in force (8.5.4), as its bounds on the page (left, bottom, right,
    # top); ``None`` is the whole page. ``clip_exact``: the bounds are the clip itself (only
    # axis-aligned rectangles were intersected), not just a box around it.
    clip: tuple[float, float, float, float] | None = None
    clip_exact: bool = True


@dataclass(frozen=True, slots=True)
class MarkedContent:
    """One open marked-content sequence (14.6): ``BMC`` or ``BDC`` and its properties.

    ``actual_text`` is the decoded ``/ActualText`` (14.9.4), ``mcid`` the ``/MCID`` that
    links the sequence to the structure tree (14.7.4.2), ``depth`` the form nesting of the
    stream holding the ``BDC`` (0: the page content), which the MCID belongs to. For
    optional content (``/OC``, 8.11.3: a ``BDC``, or a form or annotation with an ``/OC``
    entry), ``oc`` is the kind of rule it was judged by (:data:`..core.optional.KINDS`) and
    ``oc_hidden`` whether the document's default view hides it.
    """

    tag: str
    properties: str | None = None  # resource name when given by name
    mcid: int | None = None
    actual_text: str | None = None
    offset: int = 0
    depth: int = 0
    oc: str | None = None
    oc_hidden: bool = False


_T = TypeVar("_T")
_UNSET: Any = object()


def _replacer(cls: type) -> Callable[..., Any]:
    """``dataclasses.replace`` for ``cls``, generated (see :func:`maker`): it names every field
    instead of looking them up on each call (the interpreter makes a state for every step it shows)."""
    names = [f.name for f in fields(cls)]
    source = (f"def replace(state, {', '.join(f'{n}=_UNSET' for n in names)}):\n"
              f"    return make({', '.join(f'state.{n} if {n} is _UNSET else {n}' for n in names)})\n")
    scope: dict[str, Any] = {"make": maker(cls), "_UNSET": _UNSET}
    exec(source, scope)  # noqa: S102  (our own field names)
    replace: Callable[..., Any] = scope["replace"]
    return replace


def maker(cls: type) -> Callable[..., Any]:
    """A constructor of the frozen slotted dataclass ``cls`` (one without ``__post_init__``) that
    takes every field, in order, and sets each slot through its descriptor: twice as fast as the
    frozen ``__init__``, which goes through ``object.__setattr__`` for each field."""
    names = [f.name for f in fields(cls)]
    source = (f"def make({', '.join(names)}):\n    new = _new(cls)\n"
              + "".join(f"    _set_{n}(new, {n})\n" for n in names) + "    return new\n")
    scope: dict[str, Any] = {"cls": cls, "_new": object.__new__, **{f"_set_{n}": getattr(cls, n).__set__ for n in names}}
    exec(source, scope)  # noqa: S102  (our own field names)
    make: Callable[..., Any] = scope["make"]
    return make


_REPLACERS: dict[type, Callable[..., Any]] = {cls: _replacer(cls) for cls in (TextState, GraphicsState)}


def replace(state: _T, **changes: Any) -> _T:
    """A copy of the snapshot ``state`` (a :class:`GraphicsState` or :class:`TextState`) with
    ``changes``, as :func:`dataclasses.replace` makes it, faster."""
    new: _T = _REPLACERS[type(state)](state, **changes)
    return new
