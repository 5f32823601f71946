"""Worker failures, handled in one place.

Workers do not catch what goes wrong in them: they run with ``exit_on_error=False``, Textual
posts ``Worker.StateChanged`` (state ``ERROR``) to the screen that started it
(:class:`ReportsFailures`), the app (:meth:`PdfInspectApp.report_failure`) writes the
traceback to Textual's log and to the ``--log FILE`` and shows one line, and the screen
says in its own status line that the work stopped.
"""
from __future__ import annotations

import time
import traceback
from pathlib import Path

from textual.worker import Worker, WorkerState

from pdfinspect.present.text import safe_line


class Cancelled(Exception):
    """Raised in a worker's progress callback to stop work the app no longer wants (the
    worker catches it and returns: a cancelled worker is no failure)."""


def failure_line(error: BaseException | None) -> str:
    """One terminal-safe line for a failure: ``ValueError: what went wrong``."""
    if error is None:
        return "unknown error"
    return safe_line(f"{type(error).__name__}: {error}")


def failure_report(what: str, error: BaseException | None) -> str:
    """The full report written to the log: when, which work, the traceback."""
    stamp = time.strftime("%Y-%m-%d %H:%M:%S")
    trace = "".join(traceback.format_exception(error)) if error is not None else "no exception\n"
    return f"{stamp} {what} failed\n{trace}"


def append_log(path: str | Path | None, report: str) -> str | None:
    """Append ``report`` to the log file; the reason it could not be written, else ``None``."""
    if path is None:
        return None
    try:
        with open(path, "a", encoding="utf-8") as f:
            f.write(report + "\n")
    except OSError as e:
        return str(e)
    return None


class ReportsFailures:
    """Screen mixin: a failed worker of the screen is reported by the app
    (:meth:`PdfInspectApp.report_failure`), then the screen's ``worker_failed`` says in place
    that the work stopped (``Worker.StateChanged`` does not bubble)."""

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.ERROR:
            self.app.report_failure(event.worker)
            self.worker_failed(event.worker)

    def worker_failed(self, worker: Worker) -> None:
        """Say in the screen that ``worker``'s work stopped (its error is ``worker.error``)."""
