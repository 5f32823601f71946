"""The distributed engine: the same per-file call on a Dask cluster.

Each Dask task runs one file through :func:`~.isolate.run_isolated` in a child process kept
by the worker thread (one per thread, replaced when it dies), so the time and memory limits
hold exactly as in the local engine and the records are the same. Results come back to this
process as they complete and go to the same shards. Without ``--scheduler`` a
``LocalCluster`` of ``workers`` single-threaded processes runs here.

Dask starts worker processes as daemons by default, and a daemon may not start children:
the LocalCluster made here sets ``distributed.worker.daemon`` to False; workers of an
existing cluster need ``DASK_DISTRIBUTED__WORKER__DAEMON=False`` in their environment.
"""
from __future__ import annotations

import threading
from typing import Callable, Iterable

from .isolate import Child, run_isolated
from .records import FileResult, Options, failed_record
from .shards import AuditError, require

_local = threading.local()


class WorkerSetupError(RuntimeError):
    """A Dask worker cannot start the child process (it is a daemon)."""


def audit_on_worker(task, path: str, options: Options, timeout: float | None,
                    memory_mb: int | None) -> FileResult:
    """The Dask task: one file in this worker thread's child process."""
    child = getattr(_local, "child", None)
    if child is None or not child.alive or (child.timeout, child.memory_mb) != (timeout, memory_mb):
        if child is not None:
            child.close()
        try:
            child = _local.child = Child(memory_mb, timeout, daemon=False)
        except AssertionError as e:  # multiprocessing: "daemonic processes are not allowed to have children"
            raise WorkerSetupError(f"{e}: start the Dask workers with DASK_DISTRIBUTED__WORKER__DAEMON=False") from None
    return run_isolated(child, task, path, options)


def run_dask(paths: Iterable[str], task, options: Options, sink: Callable[[FileResult], None], *,
             scheduler: str | None = None, workers: int = 1, timeout: float | None = None,
             memory_mb: int | None = None, processes: bool = True) -> None:
    """Submit every path to the cluster and hand each result to ``sink`` as it completes."""
    dask = require("dask", "dask")
    distributed = require("distributed", "dask")
    paths = list(paths)
    if not paths:
        return
    with dask.config.set({"distributed.worker.daemon": False}):
        if scheduler:
            try:
                client = distributed.Client(scheduler, timeout="10s")
            except OSError as e:
                raise AuditError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None
            cluster = None
        else:
            cluster = distributed.LocalCluster(n_workers=max(1, workers), threads_per_worker=1,
                                               processes=processes, dashboard_address=None)
            client = distributed.Client(cluster)
    try:
        futures = [client.submit(audit_on_worker, task, p, options, timeout, memory_mb, pure=False,
                                 retries=0) for p in paths]
        path_of = dict(zip(futures, paths))
        for future in distributed.as_completed(futures):
            if future.status == "error":  # the worker itself died (KilledWorker) or could not start a child
                exc = future.exception()
                if isinstance(exc, WorkerSetupError):
                    raise AuditError(str(exc))
                sink(FileResult(failed_record(path_of[future], type(exc).__name__, str(exc), 0.0)))
            else:
                sink(future.result())
            future.release()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
