"""The local engine: K children (:class:`~.isolate.Child`), one file each at a time.

Not ``concurrent.futures.ProcessPoolExecutor``: it cannot stop a stuck task, and one killed
worker breaks the whole pool. Here the parent waits on every child's pipe and process
sentinel at once (:func:`multiprocessing.connection.wait`) until the nearest deadline; a
child that answered gets the next file, one that died or overran is killed and replaced.
"""
from __future__ import annotations

import time
from collections import deque
from multiprocessing.connection import wait
from typing import Callable, Iterable

from .isolate import Child
from .records import FileResult, Options


def run_local(paths: Iterable[str], task, options: Options, sink: Callable[[FileResult], None], *,
              workers: int = 1, timeout: float | None = None, memory_mb: int | None = None) -> None:
    """Run ``task(path, options)`` for every path in child processes and hand each result to
    ``sink`` as it arrives (in the parent, in completion order)."""
    pending = deque(paths)
    if not pending:
        return
    children = [Child(memory_mb, timeout) for _ in range(min(max(1, workers), len(pending)))]
    try:
        while True:
            for i, child in enumerate(children):
                if not child.alive:
                    child.close()
                    children[i] = child = Child(memory_mb, timeout)
                if not child.busy and pending:
                    child.submit(task, pending.popleft(), options)
            busy = [c for c in children if c.busy]
            if not busy:
                return
            deadlines = [d for d in (c.deadline() for c in busy) if d is not None]
            left = max(0.0, min(deadlines) - time.monotonic()) if deadlines else None
            ready = set(wait([h for c in busy for h in c.handles()], left))
            now = time.monotonic()
            for child in busy:
                result = child.outcome(ready, now)
                if result is not None:
                    sink(result)
    finally:
        for child in children:
            child.close()
