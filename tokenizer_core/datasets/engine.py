"""Where the map step runs: in this process, or on Dask (an embedded cluster or a team's).

An engine takes tasks one at a time from an iterator (so the set is never held whole), keeps a
bounded number in flight, and yields each task's small result as it completes:

* :class:`InProcess`: one task after the other, here. For small sets (a task or two), where
  starting or reaching workers costs more than the counting.
* :class:`DaskEngine`: tasks as futures on a `distributed` client, taken as they complete
  (``as_completed``, fed a new task for each one done); cancel cancels the futures. To a
  remote cluster each task's rows go straight to a worker (``scatter(direct=True)``), so the
  scheduler handles keys, never the set's bytes.
* :func:`default_engine` gives the app's: a team's scheduler when ``TW_DASK_SCHEDULER`` or Dask's
  own ``scheduler-address`` setting (``DASK_SCHEDULER_ADDRESS``) names one, else
  :class:`LocalDask`, a ``LocalCluster`` of worker processes started when a set needs it,
  started again if it died, and closed after ``TW_DASK_IDLE_SECONDS`` without a count.

    >>> from tokenizer_core.datasets.sources import Task
    >>> [r for r in InProcess().map(lambda t, k: t.index * 10, iter([Task(0, "list"), Task(1, "list")]), ())]
    [0, 10]
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import threading
from collections.abc import Callable, Iterator
from typing import Any, Protocol, TypeVar

from ..jobs.processes import dask_workers, workers_skip_main
from .limits import DatasetCancelled, DatasetError
from .sources import Task

R = TypeVar("R")
SCHEDULER_ENV = "TW_DASK_SCHEDULER"
DASK_SCHEDULER_ENV = "DASK_SCHEDULER_ADDRESS"  # Dask's own, read into dask.config "scheduler-address"
IDLE_ENV = "TW_DASK_IDLE_SECONDS"
SEND_ENV = "TW_DASK_SEND"
IDLE_SECONDS = 60.0
RESTART_WAIT_SECONDS = 10.0  # a Nanny restarts a killed worker within this; longer: start the cluster again
WORKER_ENVIRON = {"RAYON_NUM_THREADS": "1", "TOKENIZERS_PARALLELISM": "false", "OMP_NUM_THREADS": "1"}
CANCEL_CHECK_SECONDS = 0.1

_log = logging.getLogger(__name__)


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


class _CancelWatch:
    """Cancels the futures in flight as soon as `cancel` is set, so the iterator waiting on them
    wakes at once instead of when the next task ends (a chat task can take seconds). An Event
    cannot wake Dask's iterator itself, hence this small thread."""

    def __init__(self, cancel: Cancel, on_cancel: Callable[[], None]) -> None:
        self._cancel = cancel
        self._on_cancel = on_cancel
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tw-dask-cancel", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(CANCEL_CHECK_SECONDS):
            if self._cancel.is_set():
                self._on_cancel()
                return

    def stop(self) -> None:
        self._stop.set()


class DaskEngine:
    """Tasks as futures on a `distributed` Client, at most `in_flight` at a time.

    `send`: how a task's rows reach a worker: "graph" (inside the task, through the scheduler:
    right when the scheduler runs in this process) or "scatter" (straight to a worker, the
    scheduler only told where they are: for a remote cluster). Default: TW_DASK_SEND, else
    "scatter" for a remote scheduler and "graph" for one in this process.
    """

    def __init__(self, client: Any, *, in_flight: int | None = None, send: str | None = None) -> None:
        self.client = client
        workers = max(1, len(client.scheduler_info(n_workers=-1).get("workers", {})))
        self.in_flight = in_flight or 2 * workers + 2
        self.send = (
            send or os.environ.get(SEND_ENV, "").strip() or ("graph" if _in_process(client) else "scatter")
        )
        if self.send not in ("graph", "scatter"):
            raise DatasetError(f"{SEND_ENV} must be 'graph' or 'scatter', not {self.send!r}.")
        self.name = f"Dask ({workers} worker{'s' * (workers != 1)})"

    def _submit(self, fn: Callable[[Task, Any], R], task: Task, arg: Any) -> Any:
        if self.send == "scatter":
            try:
                (data,) = self.client.scatter([task], direct=True, hash=False)
            except (OSError, TimeoutError) as exc:  # workers this process cannot reach: through the scheduler
                _log.warning(
                    "scatter to the Dask workers failed (%s); sending tasks through the scheduler", exc
                )
                self.send = "graph"
            else:
                return self.client.submit(fn, data, arg, pure=False)  # the worker gets the Task itself
        return self.client.submit(fn, task, arg, pure=False)

    def map(self, fn: Callable[[Task, Any], R], tasks: Iterator[Task], arg: Any, *,
            cancel: Cancel | None = None) -> Iterator[R]:  # fmt: skip
        from distributed import as_completed

        pending: set[Any] = set()
        lock = threading.Lock()
        done = as_completed(loop=self.client.loop)
        reading = True

        def fill() -> None:
            nonlocal reading
            while reading and len(pending) < self.in_flight:
                task = next(tasks, None)
                if task is None:
                    reading = False
                    return
                future = self._submit(fn, task, arg)
                with lock:
                    pending.add(future)
                done.add(future)

        def cancel_pending() -> None:
            with lock:
                futures = list(pending)
            if futures:
                self.client.cancel(futures)

        watch = _CancelWatch(cancel, cancel_pending) if cancel is not None else None
        try:
            fill()
            for future in done:
                with lock:
                    pending.discard(future)
                if cancel is not None and cancel.is_set():
                    raise DatasetCancelled("The count was cancelled.")
                try:
                    result = future.result()
                except BaseException:
                    if cancel is not None and cancel.is_set():  # cancelled between its end and this read
                        raise DatasetCancelled("The count was cancelled.") from None
                    raise
                fill()  # the next task is on its way while the caller takes this result
                yield result
        except BaseException:
            cancel_pending()
            raise
        finally:
            if watch is not None:
                watch.stop()


def _in_process(client: Any) -> bool:
    """Whether the client's scheduler runs in this process (a LocalCluster made here)."""
    return getattr(getattr(client, "cluster", None), "scheduler", None) is not None


def idle_seconds() -> float:
    """How long the embedded cluster's workers stay after a count: TW_DASK_IDLE_SECONDS (60)."""
    env = os.environ.get(IDLE_ENV, "").strip()
    if not env:
        return IDLE_SECONDS
    try:
        return max(0.0, float(env))
    except ValueError:
        raise DatasetError(f"{IDLE_ENV} must be a number of seconds, not {env!r}.") from None


def scheduler_address() -> str:
    """A team's scheduler to count on: TW_DASK_SCHEDULER, else Dask's own ``scheduler-address``
    setting (dask.config, or DASK_SCHEDULER_ADDRESS); "" for none (the app's own cluster)."""
    address = os.environ.get(SCHEDULER_ENV, "").strip()
    if address:
        return address
    import dask.config

    configured = dask.config.get("scheduler-address", None) or os.environ.get(DASK_SCHEDULER_ENV, "")
    return str(configured).strip()


class LocalDask:
    """The app's own Dask cluster on this machine, as an Engine.

    No process is started until a count needs one. Each count finds the cluster running, or
    starts it (again, when it was closed or its workers are gone); `idle` seconds after the last
    count ends, its workers and scheduler are closed and their memory goes back to the system.
    Worker processes: `workers` (default :func:`tokenizer_core.jobs.processes.dask_workers`), one
    thread each (the Rust tokenizers get a core each), started without the host's ``__main__``.
    """

    name = "Dask (this machine)"

    def __init__(self, *, workers: int | None = None, idle: float | None = None) -> None:
        self.workers = workers
        self.idle = idle
        self.cluster: Any = None
        self.client: Any = None
        self.engine: DaskEngine | None = None
        self.starts = 0  # clusters started so far (the first, then each restart)
        self._lock = threading.Lock()
        self._busy = 0  # counts running on it now
        self._timer: threading.Timer | None = None
        self._armed = 0  # the idle timer that may close it (one armed after another count is void)

    def _healthy(self) -> bool:
        if self.engine is None:
            return False
        try:
            if self.client.status != "running" or self.cluster.status.name != "running":
                return False
            wanted = len(self.cluster.workers)
            self.client.wait_for_workers(
                max(1, wanted), timeout=RESTART_WAIT_SECONDS
            )  # a Nanny restarting one
        except Exception:  # noqa: BLE001 - any failure to answer means: start a new one
            return False
        return True

    def _start(self) -> DaskEngine:
        from distributed import Client, LocalCluster

        self._close()
        # worker processes start by spawn: never re-import the host's __main__ (in a Streamlit
        # server, the page script), as the app's own worker pool does not
        workers_skip_main()
        try:
            self.cluster = LocalCluster(
                n_workers=self.workers or dask_workers(), threads_per_worker=1, processes=True,
                dashboard_address=None, env=WORKER_ENVIRON,
                silence_logs=50,  # CRITICAL: a worker outliving the server logs no heartbeat errors
            )  # fmt: skip
            self.client = Client(self.cluster, set_as_default=False)
            self.engine = DaskEngine(self.client)
        except (OSError, TimeoutError) as exc:
            self._close()
            raise DatasetError(
                f"The counting workers on this machine could not be started ({exc}). Try again."
            ) from None
        self.starts += 1
        return self.engine

    def _close(self) -> None:
        client, cluster = self.client, self.cluster
        self.engine = self.client = self.cluster = None
        for obj in (client, cluster):
            if obj is not None:
                with contextlib.suppress(Exception):  # a cluster that died may fail to close: it is gone
                    obj.close()

    def running(self) -> bool:
        """Whether worker processes are up (started and not yet closed)."""
        return self.engine is not None

    def map(self, fn: Callable[[Task, Any], R], tasks: Iterator[Task], arg: Any, *,
            cancel: Cancel | None = None) -> Iterator[R]:  # fmt: skip
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            self._armed += 1
            engine = self.engine if self.engine is not None and self._healthy() else self._start()
            self.name = engine.name
            self._busy += 1
        try:
            yield from engine.map(fn, tasks, arg, cancel=cancel)
        finally:
            with self._lock:
                self._busy -= 1
                if self._busy == 0:
                    self._arm()

    def _arm(self) -> None:
        idle = self.idle if self.idle is not None else idle_seconds()
        self._armed += 1
        self._timer = threading.Timer(idle, self._close_if_idle, args=(self._armed,))
        self._timer.daemon = True
        self._timer.name = "tw-dask-idle"
        self._timer.start()

    def _close_if_idle(self, armed: int) -> None:
        with self._lock:
            if self._busy == 0 and armed == self._armed:
                self._timer = None
                self._close()

    def close(self) -> None:
        """Stop the workers now (they start again with the next count)."""
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            self._close()


_LOCK = threading.Lock()
_DEFAULT: dict[str, Any] = {}


def _close_default() -> None:
    local = _DEFAULT.pop("local", None)
    if local is not None:
        local.close()
    remote = _DEFAULT.pop("remote", None)
    if remote is not None:
        with contextlib.suppress(Exception):  # closing at exit: nothing left to tell
            remote.client.close()


def default_engine() -> Engine:
    """The app's Dask engine: a client of a team's scheduler if :func:`scheduler_address` names
    one (reconnected if the connection was lost), else the app's :class:`LocalDask`, kept for
    the process (it starts worker processes only when a count runs on it)."""
    address = scheduler_address()
    with _LOCK:
        if not _DEFAULT:
            atexit.register(_close_default)
        if not address:
            local = _DEFAULT.get("local")
            if local is None:
                local = _DEFAULT["local"] = LocalDask()
            return local
        remote = _DEFAULT.get("remote")
        if remote is not None and remote.address == address and remote.client.status == "running":
            return remote
        from distributed import Client

        try:
            client = _connect(Client, address)
        except (OSError, TimeoutError) as exc:
            raise DatasetError(
                f"The counting cluster at {address} could not be reached ({exc}). "
                f"Check {SCHEDULER_ENV} (or Dask's scheduler-address) or try again."
            ) from None
        if remote is not None:
            with contextlib.suppress(Exception):
                remote.client.close()
        remote = _DEFAULT["remote"] = DaskEngine(client)
        remote.address = address  # type: ignore[attr-defined]
        return remote


def _connect(client_class: Any, address: str, tries: int = 2) -> Any:
    """A client of the scheduler at `address`. Under heavy load distributed's handshake can fail
    on its own check of the scheduler's first reply (an AssertionError, seen in this project's
    tests on a loaded machine): that is tried once more; a scheduler that cannot be reached is not."""
    for attempt in range(tries):
        try:
            return client_class(address, timeout=10, set_as_default=False)
        except AssertionError:
            if attempt == tries - 1:
                raise TimeoutError("the scheduler's handshake failed twice") from None
    raise AssertionError("unreachable")


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
    "LocalDask",
    "default_engine",
    "engine_for",
    "idle_seconds",
    "scheduler_address",
]
