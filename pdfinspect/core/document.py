"""The lazy Document: revisions, object lookup with a cache, decryption, back-references.

Opening reads the header, ``startxref``, the xref chain and the trailer, nothing else
(ISO 32000 7.5). Objects are parsed on first use and cached. Damage is repaired and every
repair recorded in :attr:`Document.diagnostics`.
"""
from __future__ import annotations

import mmap
import os
import re
import stat
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from . import pages, recovery, repair, source
from .budget import Limits, spent
from .diagnostics import Diagnostic, PdfError, error, warning
from .filters import DEFAULT_LIMIT, DecodeResult, decode, filter_chain
from .lookup import Lookup, lookup
from .objects import Array, Dict, Name, Ref, Stream, String, is_integer
from .objstm import ObjectStream
from .parser import GAP, IndirectObject
from .xref import FREE, IN_FILE, Revision, XrefEntry, find_startxref, read_revisions

if TYPE_CHECKING:
    from .crypt import EncryptionFacts, SecurityHandler

_VERSION = re.compile(rb"%PDF-(\d+\.\d+)?")  # the version may be missing or cut ("%PDF-1"): still the header
_HEADER_ANYWHERE = re.compile(rb"%PDF-\d")
_LAST_XREF = re.compile(rb"(?<![a-z])xref[\x00\t\n\x0c\r ]+\d")
_NOT_EOL = re.compile(rb"[^\r\n]")
_NOT_WHITE = re.compile(rb"[^\x00\t\n\x0c\r ]")
READ_WHOLE = 256 * 1024 * 1024  # files up to this size are read into memory, bigger ones read on demand
_HEADER = re.compile(rb"(\d+)" + GAP + rb"+(\d+)" + GAP + rb"+obj")
PEEK_LIMIT = 4096  # bytes :meth:`Document.peek` reads looking for endobj


@dataclass(frozen=True, slots=True)
class BackRef:
    """``source`` refers to the target at ``path`` (keys as ``/Name``, array indices as ``[i]``)."""

    source: Ref
    path: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.source} {' '.join(self.path)}".rstrip()


@dataclass(frozen=True, slots=True)
class RevisionChanges:
    added: tuple[int, ...]
    changed: tuple[int, ...]
    freed: tuple[int, ...]
    relisted: tuple[int, ...]


def _as_password(password) -> bytes:
    if isinstance(password, bytes):
        return password
    try:
        return password.encode("latin-1")
    except UnicodeEncodeError:
        return password.encode("utf-8")


class Document:
    """A PDF file opened for inspection.

    One Document may be shared by threads: object lookup, the caches and the diagnostics
    are guarded by a lock (parsing runs one thread at a time; :meth:`fork` gives a thread
    its own caches when it should run in parallel).
    """

    def __init__(self, buf, path: str | None = None, password: str | bytes = b"",
                 decode_limit: int = DEFAULT_LIMIT, allow_locked: bool = False,
                 limits: Limits | None = None):
        self.buf = buf
        self.path = path
        self.size = len(buf)
        self.decode_limit = decode_limit
        # how much work a command may spend (core.budget); decoded_bytes bounds every stream together,
        # pages what a whole-document command reads (the API's default bounds neither)
        self.limits = limits if limits is not None else Limits(decoded_bytes=None, pages=None)
        self.decoded = 0  # bytes decoded by stream_data so far, against limits.decoded_bytes
        self.identity: tuple[int, int, int] | None = None  # size, mtime and inode when opened
        self.diagnostics: list[Diagnostic] = []
        self._owns_buf = False
        self._recovered: dict[int, XrefEntry] = {}  # found by scanning, below every revision
        # page dictionaries written directly in /Kids, numbered by direct_page: number → (object, holder, index)
        self._direct: dict[int, tuple[IndirectObject, Ref, int]] = {}
        self._trailer: Dict | None = None  # a trailer chosen by recovery over the last revision's
        self._init_caches()
        self._init_shared()
        self.repaired = False
        self.security: SecurityHandler | None = None
        self.encryption: EncryptionFacts | None = None
        self.locked = False
        self._encrypt_num: int | None = None
        self._encrypt_used = None  # the /Encrypt value the handler was set up from
        self._password, self._allow_locked = _as_password(password), allow_locked
        try:
            self._read_structure()
            self.setup_security(self.trailer)  # the trailer recovery chose may name another /Encrypt
        finally:
            del self._password

    def _init_shared(self) -> None:
        """The state a document and its forks share (see :meth:`shared`)."""
        self._shared: dict[str, object] = {}
        self._shared_lock = threading.Lock()

    def _init_caches(self) -> None:
        """The per-Document state a fork does not share."""
        self._lock = threading.RLock()
        self._cache: dict[tuple[int, XrefEntry], IndirectObject | None] = {}
        self._objstm: dict[int, ObjectStream | None] = {}
        self._merged: dict[int, dict[int, XrefEntry]] = {}
        self._numbers: dict[int, list[int]] = {}
        self._loading: set[int] = set()
        self._scan: dict[int, tuple[int, int]] | None = None
        self._backrefs: dict[int, list[BackRef]] | None = None
        self._reported: set[tuple] = set()
        self._note_lock = threading.Lock()  # guards diagnostics and _reported (see share_diagnostics)
        self._security_seen = 0
        self._pages: list[Ref] | None = None
        self._derived: dict[str, object] = {}

    def _reset_views(self) -> None:
        """Forget what was derived from the xref (recovery changed it)."""
        self._merged.clear()
        self._numbers.clear()
        self._cache.clear()
        self._objstm.clear()
        self._pages = None
        self._derived.clear()
        self._shared.clear()
        self._direct.clear()

    @classmethod
    def open(cls, path: str | os.PathLike, password: str | bytes = b"",
             decode_limit: int = DEFAULT_LIMIT, allow_locked: bool = False,
             limits: Limits | None = None) -> "Document":
        """Open the file at ``path`` (never written).

        A file up to :data:`READ_WHOLE` bytes is read into memory, so that rewriting or
        truncating it while it is open (as pdflatex does) cannot touch what was read
        (:meth:`changed` tells); a bigger one is read on demand (:mod:`pdfinspect.core.source`,
        which keeps opening it instant): reading it after it changed raises :class:`PdfError`
        ``file-changed``. Anything but a regular file (a FIFO, a device, a symlink to one)
        is refused with :class:`PdfError`.

        A wrong password raises :class:`PasswordError`, unless ``allow_locked``: then the
        document opens with ``locked`` set, ``encryption`` describing the handler, and
        strings and streams left encrypted. ``limits`` bounds the work commands spend
        (:mod:`pdfinspect.core.budget`; default: per page runs only, no total).
        """
        path = os.fspath(path)
        buf, identity = _read(path)
        try:
            doc = cls(buf, path, password, decode_limit, allow_locked, limits)
        except BaseException:
            if isinstance(buf, mmap.mmap):
                buf.close()
            raise
        doc._owns_buf = True
        doc.identity = identity
        return doc

    def changed(self) -> bool:
        """Whether the file on disk is no longer the one opened (rewritten, truncated,
        replaced or removed); always false for a Document opened from memory."""
        if self.path is None or self.identity is None:
            return False
        try:
            return _identity(os.stat(self.path)) != self.identity
        except OSError:
            return True

    # -- lifetime ----------------------------------------------------------------------
    def close(self) -> None:
        """Release the file (a big one stays open); stream data can no longer be read afterwards."""
        self._init_caches()
        if self._owns_buf and isinstance(self.buf, mmap.mmap) and not self.buf.closed:
            self.buf.close()

    def __enter__(self) -> "Document":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def fork(self) -> "Document":
        """A Document over the same file for another thread or process.

        Revisions, the trailer, the security handler (and so the file key) and the
        scanned object offsets are shared; the object caches and the diagnostics list are
        the fork's own (it starts with a copy of the diagnostics found so far). A fork can
        be pickled to a worker process: it maps the file again there, without reading the
        cross-reference data or the password again.
        """
        twin = object.__new__(Document)
        twin.__dict__.update(self.__dict__)
        twin._owns_buf = False
        twin._init_caches()
        twin._scan = self._scan
        twin.diagnostics = list(self.diagnostics)
        twin._reported = set(self._reported)
        return twin

    def __getstate__(self):
        if self.path is None:
            raise TypeError("a Document opened from memory cannot be pickled; open it from a path")
        state = dict(self.__dict__)
        del state["buf"]
        for key in ("_cache", "_objstm", "_merged", "_numbers", "_loading", "_backrefs", "_lock", "_note_lock",
                    "_derived", "_shared", "_shared_lock"):
            state.pop(key)
        return state

    def __setstate__(self, state) -> None:
        self.__dict__.update(state)
        assert self.path is not None  # __getstate__ refuses a document without one
        self.buf = _read(self.path)[0]
        self._owns_buf = True
        self._init_caches()
        self._init_shared()

    def derived(self, key: str, make: Callable[[], object]) -> object:
        """The document's one ``key`` cache of a layer above (its fonts, its resolver…),
        made by ``make()`` on first use: every page and view of this Document shares it, a
        fork gets its own, and recovery that changes the xref forgets it."""
        value = self._derived.get(key)
        if value is None:
            value = self._derived[key] = make()
        return value

    def shared(self, key: str, make: Callable[[], object]) -> object:
        """The ``key`` cache that this document and every fork of it share, made by ``make()``
        on first use: for values that never change once made (font programs read from the
        file), so the app's workers read each program once. Its contents must be safe to use
        from several threads."""
        with self._shared_lock:
            value = self._shared.get(key)
            if value is None:
                value = self._shared[key] = make()
        return value

    def __repr__(self) -> str:
        return f"<Document {self.path or 'in memory'}: {self.size} bytes, {len(self.revisions)} revision(s)>"

    # -- opening ---------------------------------------------------------------------
    def note(self, d: Diagnostic) -> None:
        """Record a diagnostic once (the same code, offset and object are reported once)."""
        key = (d.code, d.offset, d.ref)
        with self._note_lock:
            if key not in self._reported:
                self._reported.add(key)
                self.diagnostics.append(d)

    def share_diagnostics(self, other: "Document") -> None:
        """Note from now on into ``other``'s diagnostics (what this Document found so far
        included), under ``other``'s lock: forks used by several threads report to one sink."""
        for d in self.diagnostics:
            other.note(d)
        self.diagnostics, self._reported, self._note_lock = other.diagnostics, other._reported, other._note_lock

    def _read_structure(self) -> None:
        buf = self.buf
        if not self.size:
            raise PdfError(error("file-empty", "the file is empty (0 bytes)", offset=0))
        with source.window(buf, 0, 1024):
            hm = _VERSION.search(buf, 0, 1024)
        self.header_offset = hm.start() if hm else None
        self.header_version = hm.group(1).decode() if hm and hm.group(1) else None
        if hm is None:
            self.note(warning("header-missing", "no %PDF-x.y header in the first 1024 bytes", offset=0,
                               clause="7.5.2"))
        elif hm.group(1) is None:
            self.note(warning("header-version-missing", "the %PDF- header has no x.y version", offset=hm.start(),
                               clause="7.5.2"))
        elif hm.start() > 0:
            self.note(warning("header-offset", f"{hm.start()} bytes of junk before the %PDF header",
                               offset=0, clause="7.5.2"))
        eof = buf.rfind(b"%%EOF")
        if eof >= 0:  # what follows, judged without copying it (it may be gigabytes)
            after = source.search(buf, _NOT_EOL, eof + 5)
            start = after.start() if after is not None else self.size
            if start < self.size:
                kind = "white space" if source.search(buf, _NOT_WHITE, start) is None else "data"
                self.note(warning("trailing-garbage", f"{self.size - start} bytes of {kind} after the last "
                                  "%%EOF; ignored", offset=start, clause="7.5.5"))
        kw, startxref = find_startxref(buf)
        self.startxref = startxref
        revisions: list[Revision] = []
        if startxref is None:
            self.note(warning("startxref-missing", "no 'startxref' at the end of the file",
                               offset=self.size, clause="7.5.5"))
        else:
            revisions, diags = read_revisions(buf, startxref)
            for d in diags:
                self.note(d)
            if not revisions:
                revisions = self._read_shifted(startxref)
        if not revisions:
            last = None
            for m in source.finditer(buf, _LAST_XREF):
                last = m.start()
            if last is not None:
                revisions, _ = read_revisions(buf, last)
                if revisions:
                    self.note(warning("xref-relocated", f"xref table found by search at offset {last}",
                                       offset=last, clause="7.5.4",
                                       repair=f"used the xref table at offset {last}"))
        self.linearized = self._linearization_dict() is not None
        if self.linearized and len(revisions) >= 2 and revisions[1].startxref < revisions[0].startxref:
            revisions = _join_linearized(revisions)
        self.revisions = revisions
        if revisions:
            self.setup_security(self.trailer)  # before the first object stream is read: its members are encrypted
        if revisions and (not self._root_ok() or recovery.needs_merge(self)):
            recovery.merge(self)
        if not revisions or not self._root_ok():
            recovery.rebuild(self)

    def _read_shifted(self, startxref: int) -> list[Revision]:
        """The revisions read with every offset counted from a %PDF header other than the
        file's start: junk before the header, or a file appended to another (its offsets
        count from its own header; the objects of the first file must not stand in for its own)."""
        bases = [m.start() for m in source.finditer(self.buf, _HEADER_ANYWHERE) if m.start() > 0]
        for base in reversed(bases):  # the trailer at the end belongs to the last file
            if startxref + base >= self.size:
                continue
            revisions, _ = read_revisions(self.buf, startxref, base)
            if revisions:
                self.note(warning("xref-shifted", f"xref offsets count from the %PDF header at offset {base}",
                                  offset=startxref + base, clause="7.5.5", repair=f"offsets shifted by {base}"))
                return revisions
        return []

    def _linearization_dict(self) -> Dict | None:
        """The linearization parameter dictionary (Annex F.2.2), if the first object is one."""
        if self.header_offset is None:
            return None
        limit = min(self.size, self.header_offset + 1024)
        obj_kw = self.buf.find(b"obj", self.header_offset, limit)
        if obj_kw < 0:
            return None
        value, _, _ = source.parse_object_at(self.buf, obj_kw + 3, limit)
        return value if isinstance(value, Dict) and "Linearized" in value else None

    def _root_ok(self) -> bool:
        return isinstance(self.resolve(self.trailer.get("Root")), Dict)

    def scan_offset(self, num: int) -> int | None:
        """Where ``num G obj`` really starts, by scanning the file (the last definition wins)."""
        found = self._scan_headers().get(num)
        return found[0] if found else None

    def _scan_headers(self) -> dict[int, tuple[int, int]]:
        if self._scan is None:
            with self._lock:
                if self._scan is None:
                    self._scan = repair.scan_headers(self.buf)
        return self._scan

    def setup_security(self, trailer: Dict) -> None:
        """Derive the file key from ``trailer``'s /Encrypt and the password (once per /Encrypt).

        Called while opening, before any object stream is read, and by recovery with the
        trailer it finds, so that object streams are decrypted before their members are listed.
        """
        enc = trailer.get("Encrypt")
        if enc is None or enc == self._encrypt_used:
            return
        self._encrypt_used = enc
        self.security, self.locked, self._encrypt_num, self._security_seen = None, False, None, 0
        if isinstance(enc, Ref):
            self._encrypt_num = enc.num
        try:
            self._open_handler(self.resolve(enc), trailer.get("ID"))
        finally:
            self._cache.clear()  # objects read before were read without this key
            self._objstm.clear()

    def _open_handler(self, enc_dict, ids) -> None:
        from .crypt import SecurityHandler, encryption_facts

        if isinstance(enc_dict, Stream):
            enc_dict = enc_dict.dict
        first_id = ids[0].value if isinstance(ids, Array) and ids and isinstance(ids[0], String) else b""
        if not isinstance(enc_dict, Dict):
            self.note(error("encrypt-bad", "/Encrypt is not a dictionary; strings and streams left "
                             "encrypted", clause="7.6.1"))
            return
        self.encryption = encryption_facts(enc_dict)
        try:
            self.security = SecurityHandler.open(enc_dict, first_id, self._password)
        except PdfError as e:
            if not self._allow_locked:
                raise
            self.locked = True
            self.note(Diagnostic(e.diagnostic.severity, e.diagnostic.code, e.diagnostic.message
                                 + "; strings and streams left encrypted", clause=e.diagnostic.clause))
            return
        self._collect_security_diagnostics()

    def _collect_security_diagnostics(self) -> None:
        """Problems the security handler met (bad padding, unknown crypt filter…) join ours."""
        assert self.security is not None  # called after the handler was set up
        found = self.security.diagnostics
        for d in found[self._security_seen:]:
            self.note(d)
        self._security_seen = len(found)

    # -- revisions and xref ------------------------------------------------------------
    @property
    def trailer(self) -> Dict:
        """The trailer in force: the last revision's, unless recovery chose a better /Root."""
        if self._trailer is not None:
            return self._trailer
        return self.revisions[-1].trailer if self.revisions else Dict()

    @property
    def recovered(self) -> dict[int, XrefEntry]:
        """Entries found by scanning that no revision lists (empty for a sound file)."""
        return self._recovered

    def xref(self, revision: int | None = None) -> Mapping[int, XrefEntry]:
        """Entries in force as of ``revision`` (default: the latest), later revisions winning."""
        k = len(self.revisions) - 1 if revision is None else revision
        if k == 0 and not self._recovered:
            return self.revisions[0].entries  # nothing to merge: stays lazy
        merged = self._merged.get(k)
        if merged is None:
            with self._lock:
                merged = self._merged.get(k)
                if merged is None:
                    merged = self._merged[k - 1].copy() if k - 1 in self._merged else dict(self._recovered)
                    start = k if k - 1 in self._merged else 0
                    for rev in self.revisions[start:k + 1]:
                        merged.update(rev.entries)
                    self._merged[k] = merged
        return merged

    def object_numbers(self, revision: int | None = None) -> list[int]:
        """In-use object numbers as of ``revision``, ascending (computed once per revision)."""
        k = len(self.revisions) - 1 if revision is None else revision
        nums = self._numbers.get(k)
        if nums is None:
            nums = self._numbers[k] = sorted(n for n, e in self.xref(k).items() if e.kind != FREE and n > 0)
        return list(nums)

    def revision_changes(self, k: int) -> RevisionChanges:
        before = self.xref(k - 1) if k > 0 else {}
        added, changed, freed, relisted = [], [], [], []
        for num, e in sorted(self.revisions[k].entries.items()):
            old = before.get(num)
            if e.kind == FREE:
                if old is not None and old.kind != FREE:
                    freed.append(num)
            elif old is None or old.kind == FREE:
                if num:
                    added.append(num)
            elif old != e:
                changed.append(num)
            else:
                relisted.append(num)
        return RevisionChanges(tuple(added), tuple(changed), tuple(freed), tuple(relisted))

    def revision_of(self, num: int, revision: int | None = None) -> int | None:
        """The revision that last wrote object ``num`` (as of ``revision``)."""
        k = len(self.revisions) - 1 if revision is None else revision
        for i in range(k, -1, -1):
            if num in self.revisions[i].entries:
                return i
        return None

    # -- objects -----------------------------------------------------------------------
    def get(self, num: int, gen: int | None = None, revision: int | None = None) -> IndirectObject | None:
        """The indirect object ``num`` (as of ``revision``), or ``None`` if free or absent."""
        entry = self.xref(revision).get(num)
        if entry is None and num in self._direct and not gen:
            return self._direct[num][0]
        if entry is None or entry.kind == FREE:
            return None
        if gen is not None and entry.gen != gen:
            return None
        key = (num, entry)
        cache = self._cache
        try:  # one dict lookup is atomic: no lock for what is loaded already
            return cache[key]
        except KeyError:
            pass
        with self._lock:  # another thread may be loading it: wait, then use its result
            if key not in cache:
                cache[key] = self._load(num, entry)
            return cache[key]

    def direct_page(self, holder: Ref, index: int, page: Dict) -> Ref:
        """The reference of a page dictionary written directly as entry ``index`` of the /Kids
        in ``holder``: an object number no object has (the next after every number listed),
        as qpdf makes such a page indirect, so it is addressed like every other page."""
        with self._lock:
            for num, (_, h, i) in self._direct.items():
                if h == holder and i == index:
                    return Ref(num, 0)
            listed = [n for r in self.revisions for n in r.entries] + list(self._recovered) + list(self._direct)
            num = max(listed, default=0) + 1
            where = self.get(holder.num)
            obj = IndirectObject(num, 0, page, 0, 0) if where is None else IndirectObject(
                num, 0, page, where.start, where.end, where.container, where.index)
            self._direct[num] = (obj, holder, index)
        return Ref(num, 0)

    def direct_holder(self, num: int) -> tuple[Ref, int] | None:
        """Where page ``num`` numbered by :meth:`direct_page` is written: (holder, index in its /Kids)."""
        found = self._direct.get(num)
        return (found[1], found[2]) if found is not None else None

    def _scanned_at_other_generation(self, ref: Ref, revision: int | None) -> IndirectObject | None:
        """Object ``ref.num`` where the scan, not an xref, found it at another generation than
        the reference names. MuPDF's repair ignores generations, and so does this, saying so;
        an entry of a real xref keeps the spec's rule (7.3.10: the reference is to null)."""
        entry = self.xref(revision).get(ref.num)
        if entry is None or entry.kind == FREE or entry.gen == ref.gen:
            return None
        rebuilt = len(self.revisions) == 1 and self.revisions[0].startxref == -1 \
            and self.revisions[0].entries.get(ref.num) is entry
        if not rebuilt and self._recovered.get(ref.num) is not entry:
            return None
        self.note(warning("reference-generation", f"{ref.num} {ref.gen} R: the scan found object {ref.num} at "
                          f"generation {entry.gen} only; that object is used", ref=(ref.num, entry.gen),
                          clause="7.3.10", repair="generation ignored for an object found by scanning, as MuPDF does"))
        return self.get(ref.num, None, revision)

    def lookup(self, num: int, gen: int | None = None, revision: int | None = None) -> Lookup:
        """Object ``num`` (``gen`` if given, as of ``revision``), or why it is missing: never
        listed, free, in use at another generation, or unreadable (with the diagnostics)."""
        return lookup(self, num, gen, revision)

    def peek(self, num: int, gen: int | None = None) -> bytes | None:
        """The bytes object ``num`` is written as, without parsing it (for a cheap look before
        deciding to parse): in the file, from its header to ``endobj`` (at most
        :data:`PEEK_LIMIT` bytes); in an object stream, its slice. ``None`` when the xref has
        no such object, the header is not where the xref says, or ``endobj`` is not near."""
        entry = self.xref().get(num)
        if entry is None or entry.kind == FREE or (gen is not None and entry.gen != gen):
            return None
        if entry.kind != IN_FILE:
            stm = self._object_stream(entry.a)
            if stm is None or entry.b >= len(stm.members) or stm.members[entry.b][0] != num:
                return None
            start = stm.first + stm.members[entry.b][1]
            end = stm.first + stm.members[entry.b + 1][1] if entry.b + 1 < len(stm.members) else len(stm.data)
            return bytes(stm.data[start:end]) if start <= end else None
        with source.window(self.buf, entry.a, entry.a + 256):
            m = _HEADER.match(self.buf, entry.a)
        if m is None or int(m.group(1)) != num or int(m.group(2)) != entry.b:
            return None
        end = self.buf.find(b"endobj", m.end(), m.end() + PEEK_LIMIT)
        return bytes(self.buf[m.end():end]) if end >= 0 else None

    def _load(self, num: int, entry: XrefEntry) -> IndirectObject | None:
        if num in self._loading:
            self.note(warning("reference-loop", f"object {num} is needed to read itself", ref=(num, entry.gen)))
            return None
        self._loading.add(num)
        try:
            if entry.kind == IN_FILE:
                obj = self._load_at(num, entry)
            else:
                stm = self._object_stream(entry.a)
                obj = None
                if stm is not None:
                    idx = entry.b if entry.b < len(stm.members) and stm.members[entry.b][0] == num \
                        else stm.index_of(num)
                    if idx is not None and idx != entry.b:
                        self.note(warning("objstm-index-wrong", f"object {num} is at index {idx} of object "
                                           f"stream {entry.a}, not {entry.b}", ref=(num, 0), clause="7.5.8.3",
                                           repair="used the index from the object stream header"))
                    obj = stm.member(idx) if idx is not None else None
                if obj is None:
                    # the xref's entry is unusable: the object the scan found at a real offset
                    # stands in, as MuPDF's repair does
                    found = self._scan_headers().get(num)
                    self.note(warning("objstm-member-missing", f"object {num} not found in object stream "
                                       f"{entry.a}", ref=(num, 0), clause="7.5.7",
                                       repair=f"used '{num} {found[1]} obj' found at offset {found[0]} by scanning"
                                       if found else None))
                    if found is not None:
                        obj = self._load_at(num, XrefEntry(IN_FILE, found[0], found[1]))
            if obj is not None:
                for d in obj.diagnostics:
                    self.note(d)
                if self.security is not None and obj.container is None and num != self._encrypt_num \
                        and not _is_xref_stream(obj.value):  # 7.5.8.4: an xref stream is never encrypted
                    obj.value = self._decrypt_strings(obj.value, num, obj.gen)
                    self._collect_security_diagnostics()
            return obj
        finally:
            self._loading.discard(num)

    def _load_at(self, num: int, entry: XrefEntry) -> IndirectObject | None:
        offset = entry.a
        obj = None
        if 0 <= offset < self.size:
            obj = source.parse_indirect_at(self.buf, offset, self._length_of)
        if obj is not None and obj.num == num:
            if obj.gen != entry.b:
                self.note(warning("xref-gen-mismatch", f"xref says generation {entry.b}, object header says "
                                   f"{obj.gen}", offset=offset, ref=(num, entry.b), clause="7.5.4"))
            return obj
        found = self._scan_headers().get(num)
        self.note(warning("xref-offset-wrong", f"xref offset {offset} for object {num} does not point at "
                           f"'{num} {entry.b} obj'", offset=offset, ref=(num, entry.b), clause="7.5.4",
                           repair=f"found at offset {found[0]} by scanning" if found else "not found by scanning"))
        if found is None:
            return None
        obj = source.parse_indirect_at(self.buf, found[0], self._length_of)
        return obj if obj is not None and obj.num == num else None

    def _length_of(self, ref: Ref) -> int | None:
        obj = self.get(ref.num)
        v = obj.value if obj is not None else None
        return v if is_integer(v) else None

    def _object_stream(self, num: int) -> ObjectStream | None:
        if num in self._objstm:
            return self._objstm[num]
        self._objstm[num] = None  # guard against an object stream that contains itself
        holder = self.get(num)
        stm = None
        if holder is None or not isinstance(holder.value, Stream):
            self.note(warning("objstm-missing", f"object stream {num} is missing or not a stream",
                               ref=(num, 0), clause="7.5.7"))
        else:
            res = self.stream_data(holder)
            if res.error:
                self.note(warning("objstm-decode", f"object stream {num}: {res.error}", ref=(num, 0),
                                   clause="7.5.7"))
            d = holder.value.dict
            stm = ObjectStream.from_decoded(num, res.data, self.resolve(d.get("N")), self.resolve(d.get("First")))
            for diag in stm.diagnostics:
                self.note(diag)
        self._objstm[num] = stm
        return stm

    def resolve(self, value, revision: int | None = None):
        """Follow references until a direct value (``None`` for a dangling one)."""
        seen = 0
        while isinstance(value, Ref):
            obj = self.get(value.num, value.gen, revision)
            if obj is None:
                obj = self._scanned_at_other_generation(value, revision)
            value = obj.value if obj is not None else None
            seen += 1
            if seen > 32:
                return None
        return value

    def _decrypt_strings(self, value, num: int, gen: int):
        assert self.security is not None  # called for an encrypted document only
        if isinstance(value, String):
            return String(self.security.decrypt_string(value.value, num, gen), value.hex)
        if isinstance(value, Array):
            return Array(self._decrypt_strings(v, num, gen) for v in value)
        if isinstance(value, Stream):
            value.dict = self._decrypt_strings(value.dict, num, gen)
            return value
        if isinstance(value, Dict):
            kept = "Contents" if _is_signature_value(value) else None
            return Dict((k, v if k == kept else self._decrypt_strings(v, num, gen)) for k, v in value.items())
        return value

    # -- streams -----------------------------------------------------------------------
    def _stream_is_encrypted(self, stream: Stream) -> bool:
        # a stream that knows no object was not read from the file (object streams hold none)
        if self.security is None or stream.ref is None or _is_xref_stream(stream):
            return False
        d = stream.dict
        if d.get("Type") == "Metadata" and not self.security.encrypt_metadata:
            return False
        return True

    def stream_data(self, obj: IndirectObject | Stream, decode_filters: bool = True,
                    limit: int | None = None) -> DecodeResult:
        """Decrypted and (unless ``decode_filters`` is false) decoded data of a stream.

        ``obj`` is the indirect object or the stream value itself (a stream knows the
        object it was read from, which decryption needs).
        """
        stream = cast(Stream, obj.value) if isinstance(obj, IndirectObject) else obj
        d = Dict((k, self.resolve(v)) for k, v in stream.dict.items() if k in ("Filter", "DecodeParms"))
        if isinstance(d.get("DecodeParms"), Array):
            d["DecodeParms"] = Array(self.resolve(x) for x in d["DecodeParms"])
        chain = filter_chain(d)
        raw = stream.raw
        if self._stream_is_encrypted(stream):
            crypt = next((p.get("Name") for name, p in chain if name == "Crypt" and isinstance(p, Dict)), None)
            security, ref = self.security, stream.ref
            assert security is not None and ref is not None  # _stream_is_encrypted checked both
            with self._lock:
                raw = security.decrypt_stream(raw, ref.num, ref.gen, crypt)
                self._collect_security_diagnostics()
        if not decode_filters:
            return DecodeResult(raw, (), None)
        limit = self.decode_limit if limit is None else limit
        total = self.limits.decoded_bytes
        if total is None:
            return decode(raw, chain, limit)
        left = max(total - self.decoded, 0)
        res = decode(raw, chain, min(limit, left))
        self.decoded += len(res.data)
        if res.error and left < limit and len(res.data) >= left:
            where = f"decoding stream {stream.ref}" if stream.ref is not None else "decoding a stream"
            return DecodeResult(res.data, res.steps, spent("decoded byte (all streams together)", total, where))
        return res

    def raw_bytes(self, obj: IndirectObject) -> bytes:
        """The bytes the object occupies in the file (or in its object stream's decoded data)."""
        if obj.container is not None:
            stm = self._objstm.get(obj.container)
            return stm.data[obj.start:obj.end] if stm else b""
        return bytes(self.buf[obj.start:obj.end])

    # -- whole-file walks ----------------------------------------------------------------
    def iter_objects(self, revision: int | None = None, cache: bool = True,
                     looks: Callable[[bytes], bool] | None = None) -> Iterator[IndirectObject]:
        """Every in-use object; ``cache=False`` keeps memory flat for full scans. With ``looks``,
        an object whose bytes (:meth:`peek`, when it gives them) fail it is skipped unparsed."""
        entries = self.xref(revision)
        for num in self.object_numbers(revision):
            e = entries[num]
            if looks is not None and revision is None and (raw := self.peek(num)) is not None and not looks(raw):
                continue
            if cache:
                obj = self.get(num, None, revision)
            else:
                obj = self._cache.get((num, e))
                if obj is None:
                    obj = self._load(num, e)
            if obj is not None:
                yield obj

    def backrefs(self, num: int) -> list[BackRef]:
        """Every object that refers to object ``num``, with the key path of each reference."""
        if self._backrefs is None:
            self.build_backrefs()
        assert self._backrefs is not None  # build_backrefs made it
        return self._backrefs.get(num, [])

    def build_backrefs(self, progress: Callable[[int, int], object] | None = None) -> None:
        """Index every reference in the file (parses every object once).

        ``progress(done, total)`` is called every 1,000 objects and at the end, so a UI can
        show how far the index is.
        """
        index: dict[int, list[BackRef]] = {}
        for target, ref in self._scan_refs(progress):
            index.setdefault(target, []).append(ref)
        self._backrefs = index

    def iter_backrefs(self, num: int, progress: Callable[[int, int], object] | None = None) -> Iterator[BackRef]:
        """The objects that refer to object ``num``, as a scan of every object finds them
        (``backrefs`` once the index is built; ``progress`` as for :meth:`build_backrefs`)."""
        if self._backrefs is not None:
            yield from self._backrefs.get(num, [])
            return
        for target, ref in self._scan_refs(progress):
            if target == num:
                yield ref

    def _scan_refs(self, progress: Callable[[int, int], object] | None) -> Iterator[tuple[int, BackRef]]:
        """(number referred to, where) for every reference of every object, in file order."""
        total = len(self.object_numbers())
        for done, obj in enumerate(self.iter_objects(cache=False), 1):
            src = obj.ref
            for target, path in _refs_in(obj.value, ()):
                yield target.num, BackRef(src, path)
            if progress is not None and done % 1000 == 0:
                progress(done, total)
        if progress is not None:
            progress(total, total)

    # -- document structure ------------------------------------------------------------
    @property
    def catalog(self) -> Dict:
        v = self.resolve(self.trailer.get("Root"))
        return v if isinstance(v, Dict) else Dict()

    @property
    def info(self) -> Dict:
        """The document information dictionary (empty while ``locked``: its strings are encrypted)."""
        if self.locked:
            return Dict()
        v = self.resolve(self.trailer.get("Info"))
        return v if isinstance(v, Dict) else Dict()

    @property
    def version(self) -> str | None:
        v = self.catalog.get("Version")
        return str(v) if isinstance(v, Name) else self.header_version

    def page_refs(self) -> list[Ref]:
        """Page objects in order, walking /Pages /Kids with a cycle guard (walked once)."""
        if self._pages is None:
            with self._lock:
                if self._pages is None:
                    self._pages = pages.page_refs(self)
        return list(self._pages)

    def iter_page_refs(self) -> Iterator[Ref]:
        """Page objects in order as the page tree walk finds them, so that a caller can start
        on the first page before the last is found (a walk run to its end is kept, as
        :meth:`page_refs` keeps it)."""
        if self._pages is not None:
            yield from list(self._pages)
            return
        found: list[Ref] = []
        for ref in pages.iter_page_refs(self):
            found.append(ref)
            yield ref
        with self._lock:
            if self._pages is None:
                self._pages = found

    def page_ref(self, n: int) -> Ref | None:
        """Page ``n`` (1-based), descending by /Count so only one branch is parsed."""
        return pages.page_ref(self, n)

    def page_count(self) -> int:
        """Pages reachable through the page tree (a /Count that disagrees is reported)."""
        return len(self.page_refs())

    def inherited(self, page: Dict, key: str):
        """A page attribute, looked up through /Parent (7.7.3.4)."""
        return pages.inherited(self, page, key)


def _identity(st: os.stat_result) -> tuple[int, int, int]:
    return st.st_size, st.st_mtime_ns, st.st_ino


def _kind(mode: int) -> str:
    kinds = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
             (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))
    return next((name for test, name in kinds if test(mode)), "not a regular file")


def check_regular(path: str) -> None:
    """Refuse anything but a regular file (symlinks followed) with a one-line
    :class:`PdfError`, without opening it: a FIFO blocks, a device never ends."""
    try:
        st = os.stat(path)
    except OSError as e:
        raise PdfError(error("file-unreadable", f"cannot read {path}: {e.strerror}")) from None
    if not stat.S_ISREG(st.st_mode):
        raise PdfError(error("file-not-regular", f"{path} is {_kind(st.st_mode)}, not a regular file: "
                             "refused (reading it could block or never end)"))


def _read(path: str) -> tuple[bytes | mmap.mmap, tuple[int, int, int]]:
    """The file's bytes — read whole up to :data:`READ_WHOLE`, read on demand above (a
    :class:`~pdfinspect.core.source.FileSource`, which keeps the file open) — and its identity
    (size, mtime, inode). Opened without blocking, and refused unless regular."""
    check_regular(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        raise PdfError(error("file-unreadable", f"cannot read {path}: {e.strerror}")) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):  # swapped after the check
            raise PdfError(error("file-not-regular", f"{path} is {_kind(st.st_mode)}, not a regular file: refused"))
        if not st.st_size:
            return b"", _identity(st)
        if st.st_size <= READ_WHOLE:
            with open(fd, "rb", closefd=False) as f:
                return f.read(), _identity(st)
        if not hasattr(mmap, "MAP_ANONYMOUS"):  # Windows: a mapped file cannot be truncated there
            return mmap.mmap(fd, 0, access=mmap.ACCESS_READ), _identity(st)
        big = source.FileSource.open(fd, path, st)
        fd = -1  # the source owns it now
        return big, _identity(st)
    except OSError as e:
        raise PdfError(error("file-unreadable", f"cannot read {path}: {e.strerror}")) from None
    except (ValueError, MemoryError, OverflowError) as e:
        raise PdfError(error("file-unreadable", f"cannot map {path} ({st.st_size:,} bytes): {e}")) from None
    finally:
        if fd >= 0:
            os.close(fd)


def _join_linearized(revisions: list[Revision]) -> list[Revision]:
    """A linearized file's first-page xref section and main section are one revision
    (Annex F.3): the /Prev link between them is not an incremental update."""
    main, first = revisions[0], revisions[1]
    entries = dict(main.entries)
    entries.update(first.entries)
    joined = Revision(0, first.startxref, first.trailer, first.sections + main.sections, entries)
    rest = [Revision(i + 1, r.startxref, r.trailer, r.sections, r.entries) for i, r in enumerate(revisions[2:])]
    return [joined] + rest


def _is_xref_stream(value) -> bool:
    return isinstance(value, Stream) and value.dict.get("Type") == "XRef"


def _is_signature_value(d: Dict) -> bool:
    """A signature dictionary whose /Contents is a hexadecimal string: 7.6.2 leaves that
    string unencrypted (a signature field merged with its value has /FT /Sig instead of /Type)."""
    contents = d.get("Contents")
    return isinstance(contents, String) and contents.hex and "ByteRange" in d \
        and (d.get("Type") in ("Sig", "DocTimeStamp") or d.get("FT") == "Sig")


def _refs_in(value, path: tuple[str, ...]):
    if isinstance(value, Ref):
        yield value, path
    elif isinstance(value, Stream):
        yield from _refs_in(value.dict, path)
    elif isinstance(value, Dict):
        for k, v in value.items():
            yield from _refs_in(v, path + ("/" + k,))
    elif isinstance(value, Array):
        for i, v in enumerate(value):
            yield from _refs_in(v, path + (f"[{i}]",))
