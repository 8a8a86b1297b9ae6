"""The worker side of the pool: a worker process's loop, and `report` / `cancelled` for job code.

A worker talks to the pool over a pipe of its own (no lock shared with other workers, so a
worker killed in the middle of a message can only break its own pipe). Messages, pickled:

    worker -> pool   ("ready", rss) once started; ("warmed", rss) once warmed up (if it was
                     given warm-up steps); ("start", job_id); ("progress", job_id,
                     fraction, text); ("done", job_id, value, rss) / ("error", job_id, exc, rss)
    pool -> worker   the job id (8 bytes), then (fn, args, kwargs) to run a job; an empty
                     message to exit

Cancel is a flag in shared memory (one per worker slot) that `report` reads, so a running job
learns of it without the pool writing to a pipe the job is not reading.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import importlib
import os
import pickle
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .errors import JobCancelled, Progress

REPORT_EVERY = 0.1  # seconds between two progress messages of one job
MAX_TEXT = 400  # characters of a progress text

_conn: Any = None  # this worker's end of its pipe to the pool
_flags: Any = None  # the pool's cancel flags; ours is _flags[_slot]
_slot = 0
_current: int | None = None  # id of the job running in this worker
_last_report = 0.0
_send_lock = threading.Lock()
_idle = threading.Event()  # set while no job runs: when warm-up steps may run
_idle.set()
_local = threading.local()


def rss_bytes() -> int:
    """This process's resident memory in bytes (0 where /proc is missing)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _send(msg: tuple) -> None:
    data = pickle.dumps(msg, protocol=pickle.HIGHEST_PROTOCOL)
    with _send_lock:
        _conn.send_bytes(data)


def _outcome(job_id: int, fn: Callable[..., Any], args: tuple, kwargs: dict) -> bytes:
    """Run one job; its pickled "done" or "error" message."""
    global _current, _last_report
    _current, _last_report = job_id, 0.0
    try:
        if _flags[_slot]:
            raise JobCancelled()
        msg: tuple = ("done", job_id, fn(*args, **kwargs))
    except BaseException as exc:  # noqa: BLE001  (the job's own error goes back to its caller)
        msg = ("error", job_id, exc)
    finally:
        _current = None
    del fn, args, kwargs
    try:
        return pickle.dumps((*msg, rss_bytes()), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as exc:  # noqa: BLE001  (a value or exception that cannot be pickled)
        problem = RuntimeError(
            f"the job's {'result' if msg[0] == 'done' else 'error'} could not be sent back: {exc}"
        )
        return pickle.dumps(("error", job_id, problem, rss_bytes()), protocol=pickle.HIGHEST_PROTOCOL)


def _warm_when_idle(steps: Iterable[Callable[[], object]]) -> None:
    """Run each warm-up step while no job runs (a job never waits for more than the step under
    way), then tell the pool how much memory the warm worker holds."""
    for step in steps:
        _idle.wait()
        with contextlib.suppress(Exception):
            step()
    _idle.wait()
    with contextlib.suppress(OSError):
        _send(("warmed", rss_bytes()))


def trim_memory() -> None:
    """Give the memory a finished job freed back to the system (glibc keeps it otherwise)."""
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def worker_main(
    conn: Any,
    flags: Any,
    slot: int,
    nice: int,
    preload: tuple[str, ...],
    warm: Callable[[], Iterable[Callable[[], object]]] | None,
) -> None:
    """A worker process: import `preload` (a no-op when a forkserver already did), say it is
    ready, then run jobs until the pool sends an empty message or goes away; meanwhile a thread
    runs the steps `warm()` gives (loading tokenizers) whenever no job is running."""
    global _conn, _flags, _slot
    _conn, _flags, _slot = conn, flags, slot
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C on the server stops the server, not jobs
    if nice:
        with contextlib.suppress(OSError):
            os.nice(nice)  # interactive reruns in the server process get the cores first
    for module in preload:
        with contextlib.suppress(Exception):
            importlib.import_module(module)
    if warm is not None:
        with contextlib.suppress(Exception):
            threading.Thread(target=_warm_when_idle, args=(warm(),), name="warm-up", daemon=True).start()
    try:
        _send(("ready", rss_bytes()))
        while True:
            header = conn.recv_bytes()
            if not header:
                return
            job_id = int.from_bytes(header, "little", signed=True)
            data = conn.recv_bytes()
            _idle.clear()
            _send(("start", job_id))
            try:
                fn, args, kwargs = pickle.loads(data)
            except Exception as exc:  # noqa: BLE001  (e.g. the job's module fails to import here)
                _send(("error", job_id, RuntimeError(f"the job could not be read: {exc}"), rss_bytes()))
                _idle.set()
                continue
            finally:
                del data
            out = _outcome(job_id, fn, args, kwargs)
            del fn, args, kwargs
            with _send_lock:
                conn.send_bytes(out)
            del out
            trim_memory()
            _idle.set()
    except (EOFError, OSError):  # the pool is gone: nothing left to do
        return


def cancelled() -> bool:
    """True when the job running in this worker has been cancelled (in-process: the callback's say)."""
    if _current is not None:
        return bool(_flags[_slot])
    check = getattr(_local, "cancelled", None)
    return bool(check()) if check is not None else False


def report(fraction: float, text: str = "") -> None:
    """Report progress from inside a job; raises JobCancelled when the job was cancelled.

    Cheap enough to call often: messages are sent at most every 0.1 s (and always at 1.0).
    In-process (no worker), it calls the callback installed by `reporting_to`, if any.
    """
    global _last_report
    fraction = min(1.0, max(0.0, fraction))
    if _current is None:
        callback = getattr(_local, "callback", None)
        if callback is not None:
            callback(Progress(fraction, text))
        if cancelled():
            raise JobCancelled()
        return
    if _flags[_slot]:
        raise JobCancelled()
    now = time.monotonic()
    if now - _last_report >= REPORT_EVERY or fraction >= 1.0:
        _last_report = now
        _send(("progress", _current, fraction, text[:MAX_TEXT]))


@contextlib.contextmanager
def reporting_to(
    callback: Callable[[Progress], None], *, is_cancelled: Callable[[], bool] | None = None
) -> Iterator[None]:
    """Run a job function in this thread with `report` going to `callback`."""
    old = getattr(_local, "callback", None), getattr(_local, "cancelled", None)
    _local.callback = callback
    _local.cancelled = is_cancelled or (lambda: False)
    try:
        yield
    finally:
        _local.callback, _local.cancelled = old
