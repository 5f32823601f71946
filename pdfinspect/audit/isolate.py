"""A child process that runs the per-file function under a time and a memory limit.

Each :class:`Child` is a ``multiprocessing`` process (forkserver start method: no fork of a
threaded parent) that receives ``(task, path, options)`` over a pipe and answers with a
:class:`~.records.FileResult`. Its address space is capped with ``RLIMIT_AS`` (a file that
needs more gets ``MemoryError``, or the child dies). The time limit is enforced twice: a
``SIGALRM`` in the child raises :class:`AuditTimeout` (a ``BaseException``, so no
``except Exception`` in the code it interrupts can swallow it) and the parent kills the
child :data:`GRACE` seconds later if no answer came (a loop in C code never sees the signal).
Whatever happens, :meth:`Child.outcome` turns it into one ``files`` record: the answer, a
``Timeout`` or a ``WorkerDied``; the caller replaces a child that is no longer alive (a
child is also stopped after a timeout or a ``MemoryError``).

A child that dies before it can take a file is not a file's failure: the usual cause is a
script that calls the audit without an ``if __name__ == "__main__":`` guard, which the
forkserver and spawn start methods re-run in every child. Each child says it is ready
first; one that dies before that raises :class:`WorkerStartError` in the parent instead of
recording every file as ``WorkerDied``.
"""
from __future__ import annotations

import logging
import multiprocessing
import resource
import signal
import time
import warnings
from multiprocessing.connection import wait

from .records import FileResult, failed_record
from .shards import AuditError

GRACE = 2.0  # seconds between the soft time limit (SIGALRM) and the kill
# Failures that interrupt code anywhere, possibly halfway through updating a cache: the child
# that met one is replaced rather than trusted with the next file.
RETIRE = ("Timeout", "MemoryError")
READY = "ready"
_CONTEXT = None


class AuditTimeout(BaseException):
    """Raised in the child when the file's time is up."""


class WorkerStartError(AuditError):
    """A worker process died before it could take its first file."""


def context():
    """The multiprocessing context of the children, made once: forkserver where it exists,
    with the per-file code imported once in the server."""
    global _CONTEXT
    if _CONTEXT is None:
        if "forkserver" in multiprocessing.get_all_start_methods():
            _CONTEXT = multiprocessing.get_context("forkserver")
            _CONTEXT.set_forkserver_preload(["pdfinspect.audit.records"])
        else:
            _CONTEXT = multiprocessing.get_context("spawn")
    return _CONTEXT


def _alarm(signum, frame):
    raise AuditTimeout


def _child_main(conn, memory_mb: int | None, timeout: float | None) -> None:
    conn.send(READY)  # the main module (a user's script too) was imported without dying
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the parent's to handle
    logging.getLogger().addHandler(logging.NullHandler())  # fontTools' warnings would garble the terminal
    warnings.simplefilter("ignore")
    signal.signal(signal.SIGALRM, _alarm)
    if memory_mb:
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = memory_mb << 20
        resource.setrlimit(resource.RLIMIT_AS, (limit if hard < 0 else min(limit, hard), hard))
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        task, path, options = message
        try:
            if timeout:
                signal.setitimer(signal.ITIMER_REAL, timeout)
            answer = ("ok", task(path, options))
            signal.setitimer(signal.ITIMER_REAL, 0)
        except AuditTimeout:
            answer = ("failed", "Timeout", f"no result after {timeout:g} s")
        except BaseException as e:  # MemoryError, RecursionError, a task's own bug: all recorded
            signal.setitimer(signal.ITIMER_REAL, 0)
            answer = ("failed", type(e).__name__, str(e) or repr(e))
        try:
            conn.send(answer)
        except (EOFError, OSError):  # the parent is gone
            return
        except Exception as e:  # the result could not be pickled
            conn.send(("failed", type(e).__name__, f"result not sent: {e}"))


def _signal_name(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        try:
            return signal.Signals(-exitcode).name
        except ValueError:
            return f"signal {-exitcode}"
    return f"exit code {exitcode}"


class Child:
    """One worker process; at most one file in flight."""

    def __init__(self, memory_mb: int | None, timeout: float | None, daemon: bool = True):
        ctx = context()
        self.memory_mb, self.timeout = memory_mb, timeout
        self.conn, theirs = ctx.Pipe()
        self.proc = ctx.Process(target=_child_main, args=(theirs, memory_mb, timeout), daemon=daemon,
                                name="pdfinspect-audit")
        self.proc.start()
        theirs.close()
        self.path: str | None = None
        self.started = 0.0
        self.ready = False

    @property
    def busy(self) -> bool:
        return self.path is not None

    def submit(self, task, path: str, options) -> None:
        if not self.ready:
            self._await_start()
        self.path, self.started = path, time.monotonic()
        self.conn.send((task, path, options))

    def _await_start(self) -> None:
        """Wait for the child's ready message; raise :class:`WorkerStartError` if it died first."""
        wait([self.conn, self.proc.sentinel])
        try:
            self.ready = self.conn.poll() and self.conn.recv() == READY
        except (EOFError, OSError):
            self.ready = False
        if not self.ready:
            self.proc.join(1)
            raise WorkerStartError(
                f"an audit worker process died before taking a file ({_signal_name(self.proc.exitcode)}; its "
                "error is printed above). Worker processes re-run the main script: when the audit is called "
                "from a script, put the call under 'if __name__ == \"__main__\":'")

    def deadline(self) -> float | None:
        return self.started + self.timeout + GRACE if self.timeout and self.busy else None

    def handles(self) -> list:
        return [self.conn, self.proc.sentinel]

    def outcome(self, ready, now: float) -> FileResult | None:
        """The file's result if it is settled (``ready`` holds the handles that
        :func:`multiprocessing.connection.wait` returned), else None. Afterwards the child
        is idle, or dead (:attr:`alive` false) and must be replaced."""
        path = self.path
        elapsed = now - self.started
        result = None
        if self.conn in ready:
            try:
                answer = self.conn.recv()
            except (EOFError, OSError):
                answer = None
            if answer is None:
                self.proc.join(1)
                result = self._died(path, elapsed)
            elif answer[0] == "ok":
                result = answer[1]
            else:
                result = FileResult(failed_record(path, answer[1], answer[2], elapsed))
                if answer[1] in RETIRE:
                    self.path = None
                    self.close()
        elif self.proc.sentinel in ready:
            self.proc.join(1)
            result = self._died(path, elapsed)
        elif self.deadline() is not None and now >= self.deadline():
            self.kill()
            result = FileResult(failed_record(path, "Timeout", f"killed after {elapsed:.1f} s "
                                              f"(--timeout {self.timeout:g})", elapsed))
        if result is not None:
            self.path = None
        return result

    def _died(self, path: str, elapsed: float) -> FileResult:
        how = _signal_name(self.proc.exitcode)
        limit = f" (memory limit {self.memory_mb} MB)" if self.memory_mb else ""
        return FileResult(failed_record(path, "WorkerDied", f"worker died with {how}{limit}", elapsed))

    @property
    def alive(self) -> bool:
        return self.proc.is_alive()

    def kill(self) -> None:
        self.proc.kill()
        self.proc.join()

    def close(self) -> None:
        """Ask the child to stop; kill it if it is busy or does not stop at once."""
        if self.proc.is_alive() and not self.busy:
            try:
                self.conn.send(None)
            except OSError:
                pass
            self.proc.join(2)
        if self.proc.is_alive():
            self.kill()
        self.conn.close()


def run_isolated(child: Child, task, path: str, options) -> FileResult:
    """Run one file in ``child`` and wait for its outcome (the Dask engine's per-file call)."""
    child.submit(task, path, options)
    while True:
        deadline = child.deadline()
        ready = wait(child.handles(), None if deadline is None else max(0.0, deadline - time.monotonic()))
        result = child.outcome(ready, time.monotonic())
        if result is not None:
            return result
