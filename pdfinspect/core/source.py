"""Reading a file too big to read whole without exposing the process to SIGBUS.

A file mapped with ``mmap`` kills the process with SIGBUS (which no ``except`` catches) when
another process truncates it while it is open, as pdflatex does on every recompile. A file
up to :data:`pdfinspect.core.document.READ_WHOLE` bytes is read into memory; a bigger one is
a :class:`FileSource`: an anonymous, private mapping the size of the file (address space,
no memory until written) filled on demand by ``os.pread`` in :data:`CHUNK`-byte chunks, at
most :data:`CACHED` bytes of them kept. Offsets stay the file's own, so the lexer's and the
parser's regular expressions run on it unchanged, but only over what was filled first: the
helpers here (:func:`window`, :func:`finditer`, :func:`search`, :func:`parse_indirect_at`,
:func:`parse_object_at`) fill what they read, growing the window when a parse reaches its
end. Slicing, ``find`` and ``rfind`` fill by themselves. A chunk that can no longer be read
whole, or a file whose size or modification time changed, raises :class:`PdfError`
``file-changed`` instead: the bytes read so far never mix two versions of the file.

For ``bytes`` (a file read whole, or a document opened from memory) every helper is the
plain operation.
"""
from __future__ import annotations

import mmap
import os
import re
import sys
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import TypeVar

from .diagnostics import PdfError, error
from .objects import Ref, Stream, is_integer
from .parser import IndirectObject, Parser

CHUNK = 1024 * 1024  # bytes read by one pread
CACHED = 64  # chunks kept filled (more while windows in use pin them)
SCAN = 4 * CHUNK  # bytes a windowed scan matches over at once
OVERLAP = 64 * 1024  # bytes the windows of a scan overlap by: longer matches may be missed
PARSE_WINDOW = 64 * 1024  # first window of a parse; grown fourfold while the parse reaches its end
_NORESERVE = getattr(mmap, "MAP_NORESERVE", 0x4000 if sys.platform.startswith("linux") else 0)

T = TypeVar("T")


class FileSource(mmap.mmap):
    """The bytes of the file open as ``fd``, read on demand (see the module's docstring)."""

    fd: int
    path: str
    identity: tuple[int, int]
    _lock: threading.Lock
    _filled: OrderedDict[int, None]
    _pins: dict[int, int]
    _closer: weakref.finalize

    @classmethod
    def open(cls, fd: int, path: str, st: os.stat_result) -> "FileSource":
        """A source over ``fd`` (owned from now on: :meth:`close` closes it), whose stat was ``st``."""
        try:
            self = cls(-1, st.st_size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | _NORESERVE,
                       prot=mmap.PROT_READ | mmap.PROT_WRITE)
        except OSError as e:  # an address-space limit below the file's size
            raise PdfError(error("file-unreadable", f"cannot read {path} ({st.st_size:,} bytes): no room for its "
                                 f"size of address space ({e.strerror})")) from None
        self.fd, self.path, self.identity = fd, path, (st.st_size, st.st_mtime_ns)
        self._lock = threading.Lock()
        self._filled = OrderedDict()
        self._pins = {}
        self._closer = weakref.finalize(self, os.close, fd)  # the descriptor goes with the source
        return self

    def close(self) -> None:
        if not self.closed:
            super().close()
        self._closer()

    # -- filling -------------------------------------------------------------------------
    def _changed(self, offset: int) -> PdfError:
        return PdfError(error("file-changed", f"{self.path} changed on disk while open (truncated or rewritten): "
                              f"offset {offset} can no longer be read as it was; reopen it", offset=offset))

    def _fill(self, i: int) -> None:
        """Read chunk ``i`` into the map (under the lock), evicting the least used unpinned chunks."""
        if i in self._filled:
            self._filled.move_to_end(i)
            return
        start = i * CHUNK
        want = min(CHUNK, len(self) - start)
        try:
            if hasattr(os, "preadv"):  # straight into the map: one copy, not two
                with memoryview(self) as view:
                    got = os.preadv(self.fd, [view[start:start + want]], start)
            else:
                data = os.pread(self.fd, want, start)
                mmap.mmap.__setitem__(self, slice(start, start + len(data)), data)
                got = len(data)
            st = os.fstat(self.fd)
        except OSError as e:
            raise PdfError(error("file-unreadable", f"cannot read {self.path} at offset {start}: {e.strerror}",
                                 offset=start)) from None
        if got != want or (st.st_size, st.st_mtime_ns) != self.identity:
            raise self._changed(start + got)
        self._filled[i] = None
        excess = len(self._filled) - CACHED
        for old in list(self._filled):
            if excess <= 0:
                break
            if old != i and not self._pins.get(old):
                del self._filled[old]
                excess -= 1
                if hasattr(self, "madvise"):
                    self.madvise(mmap.MADV_DONTNEED, old * CHUNK, min(CHUNK, len(self) - old * CHUNK))

    def ensure(self, start: int, end: int) -> None:
        """Fill ``[start, end)`` (clamped to the file)."""
        with self._lock:
            self._fill_range(start, end)

    def _fill_range(self, start: int, end: int) -> None:
        for i in range(max(start, 0) // CHUNK, (min(end, len(self)) - 1) // CHUNK + 1):
            self._fill(i)

    @contextmanager
    def pinned(self, *ranges: tuple[int, int]) -> Iterator[None]:
        """Fill the ranges and keep them filled until the block ends."""
        chunks = [i for a, b in ranges if max(a, 0) < min(b, len(self))
                  for i in range(max(a, 0) // CHUNK, (min(b, len(self)) - 1) // CHUNK + 1)]
        with self._lock:
            for i in chunks:
                self._pins[i] = self._pins.get(i, 0) + 1
        try:
            for a, b in ranges:
                self.ensure(a, b)
            yield
        finally:
            with self._lock:
                for i in chunks:
                    left = self._pins[i] - 1
                    if left:
                        self._pins[i] = left
                    else:
                        del self._pins[i]

    def bytes_at(self, start: int, end: int) -> bytes:
        """The bytes ``[start, end)``; a long range is read directly, not through the chunks."""
        start, end = max(start, 0), min(end, len(self))
        if start >= end:
            return b""
        if end - start <= CHUNK:
            with self._lock:  # filled and copied before another thread may evict it
                self._fill_range(start, end)
                return mmap.mmap.__getitem__(self, slice(start, end))
        try:
            data = os.pread(self.fd, end - start, start)
            st = os.fstat(self.fd)
        except OSError as e:
            raise PdfError(error("file-unreadable", f"cannot read {self.path} at offset {start}: {e.strerror}",
                                 offset=start)) from None
        if len(data) != end - start or (st.st_size, st.st_mtime_ns) != self.identity:
            raise self._changed(start + len(data))
        return data

    # -- what bytes and the old map offered ------------------------------------------------
    def __getitem__(self, key):
        if isinstance(key, slice):
            start, stop, step = key.indices(len(self))
            if step != 1:
                return self.bytes_at(start, stop)[::step] if stop > start else b""
            return self.bytes_at(start, stop)
        i = key + len(self) if key < 0 else key
        if not 0 <= i < len(self):
            raise IndexError("index out of range")
        with self._lock:
            self._fill(i // CHUNK)
            return mmap.mmap.__getitem__(self, i)

    def find(self, sub: bytes, start: int | None = None, end: int | None = None) -> int:  # type: ignore[override]
        start, end = _bounds(self, start, end)
        step = SCAN
        pos = start
        while pos < end:
            stop = min(end, pos + step)
            with self.pinned((pos, stop)):
                found = mmap.mmap.find(self, sub, pos, stop)
            if found >= 0 or stop >= end:
                return found
            pos = max(stop - len(sub) + 1, pos + 1)
        return -1

    def rfind(self, sub: bytes, start: int | None = None, end: int | None = None) -> int:  # type: ignore[override]
        start, end = _bounds(self, start, end)
        stop = end
        while stop > start:
            pos = max(start, stop - SCAN)
            with self.pinned((pos, stop)):
                found = mmap.mmap.rfind(self, sub, pos, stop)
            if found >= 0 or pos <= start:
                return found
            stop = min(pos + len(sub) - 1, stop - 1)
        return -1


def _bounds(buf, start: int | None, end: int | None) -> tuple[int, int]:
    n = len(buf)
    start = 0 if start is None else (max(start + n, 0) if start < 0 else min(start, n))
    end = n if end is None else (max(end + n, 0) if end < 0 else min(end, n))
    return start, end


def window(buf, start: int, end: int) -> AbstractContextManager[None]:
    """A block in which ``buf[start:end]`` may be read by regular expressions."""
    return buf.pinned((start, end)) if isinstance(buf, FileSource) else nullcontext()


def finditer(buf, pattern: re.Pattern[bytes], start: int = 0, end: int | None = None) -> Iterator[re.Match[bytes]]:
    """``pattern.finditer(buf, start, end)``; over a :class:`FileSource`, window by window
    (a match longer than :data:`OVERLAP` bytes across two windows may be missed)."""
    start, end = _bounds(buf, start, end)
    if not isinstance(buf, FileSource):
        yield from pattern.finditer(buf, start, end)
        return
    pos = start
    while pos < end:
        stop = min(end, pos + SCAN)
        cut = stop if stop >= end else stop - OVERLAP
        nxt = cut
        with buf.pinned((pos - 256, stop)):  # what a look-behind may see before the window
            for m in pattern.finditer(buf, pos, stop):
                if m.start() >= cut:
                    break
                yield m
                nxt = max(nxt, m.end())
        if stop >= end:
            return
        pos = nxt if nxt > pos else pos + 1


def search(buf, pattern: re.Pattern[bytes], start: int = 0, end: int | None = None) -> re.Match[bytes] | None:
    """``pattern.search(buf, start, end)``, window by window over a :class:`FileSource`."""
    return next(finditer(buf, pattern, start, end), None)


def grown(buf, start: int, attempt: Callable[[int | None], tuple[T, int]]) -> T:
    """``attempt(None)[0]`` for bytes. Over a :class:`FileSource`: ``attempt(end)`` reads
    ``buf[start:end]`` and returns its value and how far it read; while that is the window's
    end (the value may be cut), the window grows fourfold and the attempt is made again."""
    if not isinstance(buf, FileSource):
        return attempt(None)[0]
    size = PARSE_WINDOW
    while True:
        end = min(len(buf), start + size)
        with buf.pinned((start, end)):
            value, reach = attempt(end if end < len(buf) else None)
        if end >= len(buf) or reach < end - 1:
            return value
        size *= 4


def parse_object_at(buf, pos: int, end: int | None = None):
    """:func:`pdfinspect.core.parser.parse_object_at` over any source."""
    def attempt(stop: int | None):
        p = Parser(buf, pos, stop if end is None else min(end, stop or end))
        value = p.parse_object()
        return (value, p.diagnostics, p.pos), p.lexer.pos
    return grown(buf, pos, attempt)


def parse_indirect_at(buf, offset: int, length_of: Callable | None = None) -> IndirectObject | None:
    """``Parser(buf, offset).parse_indirect(length_of)`` over any source. Over a
    :class:`FileSource`, a stream whose ``/Length`` ends past the window is parsed again
    with the window reaching past its data, which is not filled (slicing reads it later)."""
    if not isinstance(buf, FileSource):
        return Parser(buf, offset).parse_indirect(length_of=length_of)
    n = len(buf)
    size = PARSE_WINDOW
    skip: tuple[int, int] | None = None  # the data of a stream, not read by the parser
    skipped = False  # a window skipped the data once: its /Length was wrong, do not again
    while True:
        end = min(n, offset + size)
        ranges = [(offset, end)] if skip is None else [(offset, skip[0]), (skip[1], end)]
        with buf.pinned(*ranges):
            p = Parser(buf, offset, end if end < n else None)
            obj = p.parse_indirect(length_of=length_of)
        if end >= n:
            return obj
        stream = obj.value if obj is not None and isinstance(obj.value, Stream) else None
        wrong = stream is not None and obj is not None \
            and any(d.code == "stream-length-wrong" for d in obj.diagnostics)
        if wrong and skip is not None:  # the /Length is wrong after all: read the data too
            size = max(size, skip[1] + PARSE_WINDOW - offset)
            skip = None
            continue
        if stream is not None and wrong and not skipped:
            length = stream.dict.get("Length")
            if isinstance(length, Ref):
                length = length_of(length) if length_of is not None else None
            start = stream.data_offset
            if is_integer(length) and length >= 0 and start is not None and end < start + length + 64 \
                    and start + length < n:  # the data runs past the window: the parse did not see its end
                skip, skipped, size = (start, start + length), True, start + length + PARSE_WINDOW - offset
                continue
        if p.lexer.pos < end - 1:
            return obj
        size *= 4
