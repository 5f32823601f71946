"""What the app navigates to, and the messages screens and widgets send up."""
from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from pdfinspect.core.objects import Ref


TRAILER_REF = Ref(0, -1)
"""Stands for the trailer in lists of links (object 0 is never in use, 7.5.4)."""


@dataclass(frozen=True, slots=True)
class Target:
    """A place in the file: object ``ref`` (``None``: the trailer) as of ``revision``.

    ``key`` is the dictionary key the user followed to get here (``/JS``, ``/Contents``):
    a stream does not say what it holds, the key that points at it does. ``line`` (1-based)
    is the line of the decoded stream to show first (a ToUnicode entry).
    """

    ref: Ref | None
    revision: int | None = None
    key: str | None = None
    line: int | None = None

    @classmethod
    def of(cls, ref: Ref, revision: int | None = None, key: str | None = None) -> "Target":
        return cls(None if ref == TRAILER_REF else ref, revision, key)

    def describe(self) -> str:
        name = "trailer" if self.ref is None else f"{self.ref.num} {self.ref.gen} obj"
        return name if self.revision is None else f"{name} (revision {self.revision})"


@dataclass(frozen=True, slots=True)
class ContentView:
    """A place in the history that is not an object: page ``page`` in the content stepper
    (``mode`` "stepper") or the glyph inspector ("glyphs")."""

    mode: str
    page: int


def object_ref(doc, num: int, gen: int | None = None) -> Ref:
    """Object ``num`` with ``gen``, or the generation the current cross-reference table gives it (0 if none)."""
    if gen is None:
        entry = doc.xref().get(num)
        gen = entry.gen if entry is not None else 0
    return Ref(num, gen)


class ObjectRequested(Message):
    """Show ``target`` in the object browser (and record it in the history)."""

    def __init__(self, target: Target) -> None:
        super().__init__()
        self.target = target


@dataclass(frozen=True, slots=True)
class Reload:
    """The app's exit result asking ``run_app`` to open ``path`` again, at ``start`` (the
    file changed on disk: a LaTeX user recompiled)."""

    path: str
    start: Target | None = None


@dataclass(frozen=True, slots=True)
class OpenRevisions:
    """The app's exit result asking ``run_app`` to open ``path`` on its revisions screen
    (after 'write a fixed copy…', so the new revision shows)."""

    path: str
