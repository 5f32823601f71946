"""Where pdfinspect may write, and how: one policy and one atomic write for every output
(``fix``, ``extract``, ``render``, the app's export and fixed copy).

The policy (:func:`check_target`): never the input file, never a folder, never into a
folder that does not exist (pdfinspect creates no folders). Each refusal is a
:class:`PdfError` with its own code and a one-line message, raised before anything is
written. The write (:func:`atomic_path`, :func:`atomic_write`) goes to a temporary file
beside the target, is flushed to disk, and is renamed over the target only when complete,
as pikepdf's ``atomic_overwrite`` does: a crash or an error leaves the old target (or
nothing) and never a truncated file; the temporary file is removed on any failure.
"""
from __future__ import annotations

import os
import secrets
import stat
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from .diagnostics import PdfError, error

PathLike = str | os.PathLike
_BINARY = getattr(os, "O_BINARY", 0)


def same_file(a: PathLike, b: PathLike) -> bool:
    """Whether path ``b`` names file ``a`` (through links and relative parts too)."""
    if os.path.exists(a) and os.path.exists(b):
        return os.path.samefile(a, b)
    return os.path.realpath(a) == os.path.realpath(b)


def check_target(target: PathLike, inputs: Iterable[PathLike | None] = ()) -> Path:
    """``target`` as a :class:`Path` if pdfinspect may write it; else :class:`PdfError`
    (``output-is-input``, ``output-is-dir``, ``output-dir-missing``)."""
    path = Path(target)
    for source in inputs:
        if source and same_file(source, path):
            raise PdfError(error("output-is-input", f"{path} is the input file; the input is never written"))
    if path.is_dir():
        raise PdfError(error("output-is-dir", f"{path} is a folder; give a file name"))
    folder = path.parent
    if not folder.is_dir():
        raise PdfError(error("output-dir-missing", f"folder {folder} does not exist (pdfinspect creates no "
                                                   f"folders): {path} not written"))
    return path


def _unwritable(path: Path, e: OSError) -> PdfError:
    return PdfError(error("output-unwritable", f"cannot write {path}: {e.strerror or e}"))


def _temporary(path: Path) -> Path:
    """A new empty file beside ``path`` (mode as a new file gets under the umask)."""
    while True:
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
        try:
            os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _BINARY, 0o666))
            return tmp
        except FileExistsError:
            continue


@contextmanager
def atomic_path(target: PathLike, inputs: Iterable[PathLike | None] = ()) -> Iterator[Path]:
    """Yield a temporary path beside ``target`` for the caller to write (Pillow, fontTools…);
    when the block ends without error the file is synced and renamed over ``target`` (keeping
    the mode of a file it replaces). On any error it is removed; an :class:`OSError` becomes a
    :class:`PdfError` (``output-unwritable``)."""
    path = check_target(target, inputs)
    try:
        tmp = _temporary(path)
    except OSError as e:
        raise _unwritable(path, e) from None
    try:
        yield tmp
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        if path.exists():
            os.chmod(tmp, stat.S_IMODE(path.stat().st_mode))
        os.replace(tmp, path)
    except BaseException as e:
        tmp.unlink(missing_ok=True)
        if isinstance(e, OSError):
            raise _unwritable(path, e) from None
        raise


@contextmanager
def atomic_write(target: PathLike, inputs: Iterable[PathLike | None] = ()) -> Iterator[BinaryIO]:
    """Yield a binary file to write; it replaces ``target`` only when the block completes
    (see :func:`atomic_path`)."""
    with atomic_path(target, inputs) as tmp, open(tmp, "wb") as f:
        yield f


def write_bytes(target: PathLike, data: bytes, inputs: Iterable[PathLike | None] = ()) -> Path:
    """Write ``data`` to ``target`` atomically; the path written."""
    with atomic_write(target, inputs) as f:
        f.write(data)
    return Path(target)
