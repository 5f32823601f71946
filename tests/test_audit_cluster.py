"""A real distributed audit: ``dask scheduler`` and two ``dask worker`` processes on loopback,
``audit --engine dask --scheduler tcp://127.0.0.1:PORT``; a worker killed mid-run loses no
file and records none twice. Every process started here is killed in a ``finally``."""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
from pathlib import Path

import pytest

from conftest import SAMPLES
from pdfinspect import cli
from pdfinspect.audit import read_records, run_audit

pytest.importorskip("distributed")
DASK = shutil.which("dask")
pytestmark = pytest.mark.skipif(DASK is None, reason="the dask command is not installed")
FILES = ("minimal.pdf", "kappa.pdf", "content.pdf", "pages.pdf", "cid-identity.pdf", "xref-stream.pdf",
         "filters.pdf", "incremental.pdf", "hybrid.pdf", "encrypted-rc4.pdf")
VOLATILE = {"elapsed", "max_rss_mb"}
START_TIMEOUT = 120  # seconds for the cluster to come up on a loaded machine


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(*args: str) -> subprocess.Popen:
    env = dict(os.environ, DASK_DISTRIBUTED__WORKER__DAEMON="False",
               PYTHONPATH=os.pathsep.join([str(Path(__file__).resolve().parents[1]), os.environ.get("PYTHONPATH", "")]))
    # a session of its own, so that killing it kills the nanny, the worker and the audit children
    return subprocess.Popen([DASK, *args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)


def _kill(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)


@pytest.fixture
def cluster():
    """(scheduler address, [worker processes]) of a cluster of two single-threaded workers."""
    import distributed

    address = f"tcp://127.0.0.1:{_free_port()}"
    procs = [_start("scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1], "--no-dashboard")]
    try:
        for _ in range(2):
            procs.append(_start("worker", address, "--nthreads", "1", "--nworkers", "1", "--host", "127.0.0.1",
                                "--no-dashboard", "--death-timeout", str(START_TIMEOUT)))
        with distributed.Client(address, timeout=f"{START_TIMEOUT}s") as client:
            client.wait_for_workers(2, timeout=START_TIMEOUT)
        yield address, procs[1:]
    finally:
        for proc in reversed(procs):
            _kill(proc)


@pytest.fixture
def corpus(tmp_path) -> Path:
    d = tmp_path / "in"
    d.mkdir()
    for name in FILES:
        shutil.copy(SAMPLES / name, d / name)
    return d


def _stable(records):
    return sorted(({k: v for k, v in r.items() if k not in VOLATILE} for r in records), key=lambda r: r["path"])


def test_a_real_cluster_gives_the_local_engines_records_and_survives_a_killed_worker(cluster, corpus, tmp_path):
    address, workers = cluster
    assert cli.main(["audit", str(corpus), "-o", str(tmp_path / "local"), "--workers", "1"]) == 0
    assert cli.main(["audit", str(corpus), "-o", str(tmp_path / "dask"), "--engine", "dask",
                     "--scheduler", address]) == 0
    for kind in ("files", "fonts"):
        assert _stable(read_records(tmp_path / "dask", kind)) == _stable(read_records(tmp_path / "local", kind))

    killed = []

    def kill_one(record: dict) -> None:  # after the first result, not after some time
        if not killed:
            _kill(workers[0])
            killed.append(record["path"])

    stats = run_audit([corpus], tmp_path / "killed", engine="dask", scheduler=address, on_result=kill_one)
    assert killed and workers[0].poll() is not None
    paths = [r["path"] for r in read_records(tmp_path / "killed", "files")]
    assert sorted(paths) == sorted(str(p) for p in corpus.iterdir())  # no file lost, none twice
    assert stats.ok + stats.failed == len(FILES)
    assert _stable(read_records(tmp_path / "killed", "files")) == _stable(read_records(tmp_path / "local", "files"))

