"""Where the map step runs: in this process, or on Dask (an embedded cluster or a team's).

An engine takes tasks one at a time from an iterator (so the set is never held whole), keeps a
bounded number in flight, and yields each task's small result as it completes:

* :class:`InProcess`: one task after the other, here. For small sets (a task or two), where
  starting or reaching workers costs more than the counting.
* :class:`DaskEngine`: tasks as futures on a `distributed` client; progress as they complete,
  cancel by cancelling the futures. :func:`default_engine` gives the app's: a
  ``LocalCluster`` of worker processes started on first use (one thread per worker: the Rust
  tokenizers get a core each), or, when ``TW_DASK_SCHEDULER`` is set (``tcp://host:8786``), a
  client of that scheduler, so the same job runs on a team's cluster.

    >>> from tokenizer_core.datasets.sources import Task
    >>> [r for r in InProcess().map(lambda t, k: t.index * 10, iter([Task(0, "list"), Task(1, "list")]), ())]
    [0, 10]
"""

from __future__ import annotations

import atexit
import os
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, Protocol, TypeVar

from ..jobs.processes import workers_skip_main
from .limits import DatasetCancelled, DatasetError
from .sources import Task

R = TypeVar("R")
SCHEDULER_ENV = "TW_DASK_SCHEDULER"
WORKERS_ENV = "TW_DASK_WORKERS"
WORKER_ENVIRON = {"RAYON_NUM_THREADS": "1", "TOKENIZERS_PARALLELISM": "false", "OMP_NUM_THREADS": "1"}


class Cancel(Protocol):
    def is_set(self) -> bool: ...


class Engine(Protocol):
    name: str

    def map(
        self, fn: Callable[[Task, Any], R], tasks: Iterator[Task], arg: Any, *, cancel: Cancel | None = None
    ) -> Iterator[R]: ...


class InProcess:
    """Run each task here, in order."""

    name = "in-process"

    def map(self, fn: Callable[[Task, Any], R], tasks: Iterator[Task], arg: Any, *,
            cancel: Cancel | None = None) -> Iterator[R]:  # fmt: skip
        for task in tasks:
            if cancel is not None and cancel.is_set():
                raise DatasetCancelled("The count was cancelled.")
            yield fn(task, arg)


class DaskEngine:
    """Tasks as futures on a `distributed` Client, at most `in_flight` at a time."""

    def __init__(self, client: Any, *, in_flight: int | None = None, poll: float = 0.01) -> None:
        self.client = client
        workers = max(1, len(client.scheduler_info(n_workers=-1).get("workers", {})))
        self.in_flight = in_flight or 2 * workers + 2
        self.poll = poll
        self.name = f"Dask ({workers} worker{'s' * (workers != 1)})"

    def map(self, fn: Callable[[Task, Any], R], tasks: Iterator[Task], arg: Any, *,
            cancel: Cancel | None = None) -> Iterator[R]:  # fmt: skip
        from distributed import as_completed

        done = as_completed(loop=self.client.loop)
        pending: set[Any] = set()
        done_reading = False
        try:
            while pending or not done_reading:
                while not done_reading and len(pending) < self.in_flight:
                    task = next(tasks, None)
                    if task is None:
                        done_reading = True
                    else:
                        fut = self.client.submit(fn, task, arg, pure=False)
                        pending.add(fut)
                        done.add(fut)
                if not pending:
                    break
                if cancel is not None and cancel.is_set():
                    raise DatasetCancelled("The count was cancelled.")
                finished = done.next_batch(block=False)
                if not finished:
                    time.sleep(self.poll)
                for fut in finished:
                    pending.discard(fut)
                    yield fut.result()
        except BaseException:
            if pending:
                self.client.cancel(list(pending))
            raise


_LOCK = threading.Lock()
_DEFAULT: dict[str, Any] = {}


def _close_default() -> None:
    client = _DEFAULT.pop("client", None)
    cluster = _DEFAULT.pop("cluster", None)
    for obj in (client, cluster):
        if obj is not None:
            try:
                obj.close()
            except Exception:  # noqa: BLE001 - closing at exit: nothing left to tell
                pass


def default_workers() -> int:
    """Worker processes of the embedded cluster: TW_DASK_WORKERS, else min(2, cores)."""
    try:
        return max(1, int(os.environ.get(WORKERS_ENV, "")))
    except ValueError:
        return max(1, min(2, os.cpu_count() or 1))


def default_engine() -> DaskEngine:
    """The app's Dask engine, started on first use and kept: a team's scheduler if
    TW_DASK_SCHEDULER names one, else a LocalCluster of worker processes on this machine."""
    with _LOCK:
        if "engine" in _DEFAULT:
            return _DEFAULT["engine"]
        from distributed import Client, LocalCluster

        address = os.environ.get(SCHEDULER_ENV, "").strip()
        try:
            if address:
                client = Client(address, timeout=10, set_as_default=False)
            else:
                # worker processes start by spawn: never re-import the host's __main__ (in a Streamlit
                # server, the page script), as the app's own worker pool does not
                workers_skip_main()
                cluster = LocalCluster(
                    n_workers=default_workers(), threads_per_worker=1, processes=True, dashboard_address=None,
                    env=WORKER_ENVIRON, silence_logs=50,  # CRITICAL: a worker outliving the server logs no heartbeat errors
                )  # fmt: skip
                _DEFAULT["cluster"] = cluster
                client = Client(cluster, set_as_default=False)
        except (OSError, TimeoutError) as exc:
            raise DatasetError(
                f"The counting cluster at {address or 'this machine'} could not be reached ({exc}). "
                f"Check {SCHEDULER_ENV} or try again."
            ) from None
        _DEFAULT["client"] = client
        _DEFAULT["engine"] = DaskEngine(client)
        atexit.register(_close_default)
        return _DEFAULT["engine"]


def engine_for(engine: str | Engine | Any, *, units: int, small: int) -> Engine:
    """The engine a job uses: "auto" (in-process when the set is at most `small` units, else the
    default Dask engine), "local" / "in-process", "dask", an Engine, or a distributed Client."""
    if engine == "auto":
        return InProcess() if units <= small else default_engine()
    if engine in ("local", "in-process"):
        return InProcess()
    if engine == "dask":
        return default_engine()
    if hasattr(engine, "map") and hasattr(engine, "name"):
        return engine
    if hasattr(engine, "submit") and hasattr(engine, "scheduler_info"):
        return DaskEngine(engine)
    raise DatasetError(f"Unknown engine {engine!r}: use 'auto', 'local' or 'dask'.")


__all__ = [
    "SCHEDULER_ENV",
    "DaskEngine",
    "Engine",
    "InProcess",
    "default_engine",
    "default_workers",
    "engine_for",
]
