"""Heavy work in a bounded pool of worker processes: progress, cancel, and worker death handled.

Pure-Python work (BPE training, lexing a huge file) holds the interpreter lock that every
session of a Streamlit server shares. `JobPool` runs such work in a few worker processes
(stdlib `ProcessPoolExecutor`, forkserver or spawn start, never fork from a threaded server)::

    pool = JobPool(workers=1)
    job = pool.submit(train_task, text, options)   # returns at once
    job.progress                                   # Progress(fraction=0.4, text="Merge 400 of 1,000")
    job.cancel()                                   # the job raises JobCancelled at its next report()
    job.result(timeout=60)                         # the value, or JobCancelled / WorkerDied / its error

A job function reports progress with `report(fraction, text)`; that call is also where a
cancelled job stops (it raises JobCancelled). Outside a worker, `report` goes to the callback
given to `reporting_to`, so the same function runs in-process for small inputs.

Worker death (killed by the kernel for memory, a crash in native code, `kill -9`) breaks a
`ProcessPoolExecutor` for every job in it. The pool then starts a new executor; the job whose
worker died fails with WorkerDied (a clear message, and the user can simply run it again),
while the other jobs that were queued or running are submitted again on the new executor, so
other sessions only see a delay. A cancelled job that ignores its cancel for `kill_after`
seconds (stuck in native code) has its worker killed the same way.

This module never imports streamlit: the progress bar and Cancel button are the app's.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import multiprocessing as mp
import os
import pickle
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

T = TypeVar("T")

_SLOTS = 4096  # cancel flags / worker pids, indexed by job id modulo this (max_pending is far lower)
_REPORT_EVERY = 0.1  # seconds between two progress messages of one job
_PIPE_BUF = 4096  # bytes a pipe writes atomically on Linux (POSIX guarantees at least 512)
_MAX_TEXT = 400  # characters of a progress text: a message stays one atomic write


class JobError(Exception):
    """Base of the errors a job can end with besides its own exceptions."""


class JobCancelled(JobError):
    """The job was cancelled (by the user, or because their session ended)."""

    def __init__(self, message: str = "The job was cancelled.") -> None:
        super().__init__(message)


class WorkerDied(JobError):
    """The worker process running the job stopped unexpectedly (often: it ran out of memory)."""

    def __init__(
        self,
        message: str = "the server process doing this work stopped unexpectedly (it may have run out of "
        "memory). Nothing else was affected: run it again, or try a smaller input.",
    ) -> None:
        super().__init__(message)


class PoolBusy(JobError):
    """Too many jobs are already waiting."""


@dataclass(frozen=True)
class Progress:
    """How far a job is: ``Progress(0.25, "Merge 250 of 1,000")``."""

    fraction: float = 0.0
    text: str = ""


# ---------------------------------------------------------------- worker side

_worker_progress: Any = None  # the write end of the pool's progress pipe, non-blocking
_worker_flags: Any = None
_worker_pids: Any = None
_current_slot: int | None = None
_current_id: int | None = None
_last_report = 0.0
_local = threading.local()


def _init_worker(progress: Any, flags: Any, pids: Any, nice: int) -> None:
    global _worker_progress, _worker_flags, _worker_pids
    _worker_progress, _worker_flags, _worker_pids = progress, flags, pids
    os.set_blocking(progress.fileno(), False)  # a full pipe drops a progress message, never waits
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C on the server stops the server, not jobs
    if nice:
        with contextlib.suppress(OSError):
            os.nice(nice)  # interactive reruns in the server process get the cores first


def _run_job(job_id: int, fn: Callable[..., T], args: tuple, kwargs: dict) -> T:
    global _current_slot, _current_id, _last_report
    slot = job_id % _SLOTS
    _worker_pids[slot] = os.getpid()
    if _worker_flags[slot]:
        raise JobCancelled()
    _current_slot, _current_id, _last_report = slot, job_id, 0.0
    try:
        return fn(*args, **kwargs)
    finally:
        _current_slot = _current_id = None


def cancelled() -> bool:
    """True when the job running in this worker has been cancelled (always False in-process)."""
    if _current_slot is not None:
        return bool(_worker_flags[_current_slot])
    check = getattr(_local, "cancelled", None)
    return bool(check()) if check is not None else False


def report(fraction: float, text: str = "") -> None:
    """Report progress from inside a job; raises JobCancelled when the job was cancelled.

    Cheap enough to call often: messages are sent at most every 0.1 s (and always at 1.0).
    In-process (no worker), it calls the callback installed by `reporting_to`, if any.
    """
    global _last_report
    if _current_slot is None:
        callback = getattr(_local, "callback", None)
        if callback is not None:
            callback(Progress(min(1.0, max(0.0, fraction)), text))
        if cancelled():
            raise JobCancelled()
        return
    if _worker_flags[_current_slot]:
        raise JobCancelled()
    now = time.monotonic()
    if now - _last_report >= _REPORT_EVERY or fraction >= 1.0:
        _last_report = now
        _send_progress((_current_id, min(1.0, max(0.0, fraction)), text[:_MAX_TEXT]))


def _send_progress(msg: tuple) -> None:
    """One progress message as one write to the pool's pipe, or none (best-effort).

    Not a multiprocessing.Queue: its writers share a lock, and a worker killed while holding it
    (kill -9, the kernel's OOM killer, a cancel ignored too long) would block every later
    worker's messages and exit for good. A single write of at most PIPE_BUF bytes to a pipe is
    atomic, so no lock is needed and a dying worker can never leave half a message.
    """
    data = pickle.dumps(msg, protocol=pickle.HIGHEST_PROTOCOL)
    if len(data) + 4 > _PIPE_BUF:
        return
    with contextlib.suppress(OSError):  # BlockingIOError: the pipe is full; the next one gets through
        _worker_progress.send_bytes(data)


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


def _ping() -> int:
    return os.getpid()


# ---------------------------------------------------------------- main side


class Job(Generic[T]):
    """A submitted job. Thread-safe: read `progress`/`state`, call `cancel()` from any thread."""

    def __init__(self, pool: JobPool, job_id: int, fn: Callable[..., T], args: tuple, kwargs: dict) -> None:
        self.id = job_id
        self.label = getattr(fn, "__name__", "job")
        self.submitted = time.monotonic()
        self.progress = Progress(0.0, "Waiting for its turn on the server...")
        self.attempts = 0
        self.cancel_requested: float | None = None
        self._pool = pool
        self._call: tuple[Callable[..., Any] | None, tuple, dict] = (fn, args, kwargs)
        self._outer: Future[T] = Future()
        self._inner: Future | None = None
        self._executor: ProcessPoolExecutor | None = None

    @property
    def state(self) -> str:
        """'queued', 'running', 'done', 'cancelled' or 'failed'."""
        if self._outer.done():
            exc = self._outer.exception()
            return "done" if exc is None else "cancelled" if isinstance(exc, JobCancelled) else "failed"
        return "running" if self._pool._pid_of(self) else "queued"

    def done(self) -> bool:
        return self._outer.done()

    def cancel(self) -> None:
        """Ask the job to stop. A queued job stops at once; a running one at its next report()."""
        if self._outer.done() or self.cancel_requested is not None:
            return
        self.cancel_requested = time.monotonic()
        self._pool._flags[self.id % _SLOTS] = 1
        inner = self._inner
        if inner is not None and inner.cancel():
            self._finish(exc=JobCancelled())

    def result(self, timeout: float | None = None) -> T:
        """The job's value; raises JobCancelled, WorkerDied, TimeoutError or the job's own error."""
        return self._outer.result(timeout)

    def exception(self, timeout: float | None = None) -> BaseException | None:
        return self._outer.exception(timeout)

    def _finish(self, *, value: Any = None, exc: BaseException | None = None) -> None:
        if self._outer.done():
            return
        self._call = (None, (), {})  # drop the input (it can be megabytes) as soon as it is not needed
        self._pool._forget(self)
        if exc is not None:
            self._outer.set_exception(exc)
        else:
            self._outer.set_result(value)

    def __repr__(self) -> str:
        return f"Job({self.id}, {self.label}, {self.state}, {self.progress.fraction:.0%})"


def default_workers() -> int:
    """Pool size: `TW_WORKERS` if set, else one less than the cores this process may use (at least 1).

    In a container with a CPU quota (docker --cpus) set TW_WORKERS: Python sees the host's cores.
    """
    env = os.environ.get("TW_WORKERS", "").strip()
    if env:
        try:
            return max(1, int(env))
        except ValueError:
            raise ValueError(f"TW_WORKERS must be a whole number, not {env!r}") from None
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 2
    return max(1, cores - 1)


def _workers_skip_main() -> None:
    """Stop multiprocessing from importing the host's ``__main__`` file in each worker.

    Under forkserver or spawn, a new process first imports the parent's main script so that
    functions defined there can be unpickled. In a Streamlit server that "main script" is the
    page script Streamlit runs as a module named ``__main__``: every worker would run the whole
    app without a server (loading tokenizers, logging "missing ScriptRunContext"). Job
    functions here always live in importable modules, so workers need none of it. Applied once,
    when the first pool is made.
    """
    from multiprocessing import spawn

    if getattr(spawn.get_preparation_data, "_skips_main", False):
        return
    original = spawn.get_preparation_data

    @functools.wraps(original)
    def without_main(name: str) -> dict[str, Any]:
        data = original(name)
        data.pop("init_main_from_path", None)
        data.pop("init_main_from_name", None)
        return data

    without_main._skips_main = True  # type: ignore[attr-defined]
    spawn.get_preparation_data = without_main


def _default_context() -> str:
    method = os.environ.get("TW_START_METHOD", "").strip()
    if method:
        return method
    return "forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn"


class JobPool:
    """A bounded pool of worker processes for heavy jobs.

    `workers`: processes (default `default_workers()`); `max_pending`: jobs queued or running
    at once before `submit` raises PoolBusy; `max_tasks_per_child`: a worker is replaced after
    that many jobs, which gives the memory of big jobs back to the system; `nice`: the
    workers' scheduling niceness (higher = yield the CPU to the server); `kill_after`: seconds
    a cancelled job may keep running before its worker is killed; `retries`: how many times
    a job hit by another job's worker death is submitted again; `preload`: modules the
    forkserver imports once, so a new worker starts in milliseconds instead of importing them
    itself (~1 s for tokenizer_core.tasks), at the cost of keeping them in the forkserver's
    memory for good (~30 MB): off by default; `idle_seconds`: with no
    job for that long the workers exit (their memory goes back to the system) and are started
    again by the next job (default: `TW_WORKER_IDLE_SECONDS`, else 120).
    """

    def __init__(
        self,
        *,
        workers: int | None = None,
        max_pending: int = 32,
        max_tasks_per_child: int | None = 8,
        start_method: str | None = None,
        nice: int = 10,
        kill_after: float = 5.0,
        retries: int = 1,
        preload: tuple[str, ...] = (),
        idle_seconds: float | None = None,
    ) -> None:
        self.workers = workers or default_workers()
        self.max_pending = max(1, min(max_pending, _SLOTS // 2))
        self.max_tasks_per_child = max_tasks_per_child
        self.kill_after = kill_after
        self.retries = retries
        self.restarts = 0
        self.idle_seconds = (
            idle_seconds
            if idle_seconds is not None
            else float(os.environ.get("TW_WORKER_IDLE_SECONDS", "120"))
        )
        self._last_busy = time.monotonic()
        _workers_skip_main()
        self._ctx = mp.get_context(start_method or _default_context())
        if self._ctx.get_start_method() == "forkserver":
            # each worker forks with these imported; never the default ["__main__"] (see above)
            self._ctx.set_forkserver_preload(list(preload))
        self._nice = nice
        self._progress_in, self._progress_out = self._ctx.Pipe(duplex=False)
        self._flags = self._ctx.RawArray("b", _SLOTS)
        self._pids = self._ctx.RawArray("i", _SLOTS)
        self._ids = itertools.count(1)
        self._lock = threading.RLock()
        self._jobs: dict[int, Job] = {}
        self._procs: dict[int, Any] = {}  # pid -> multiprocessing.Process, to read exit codes
        self._closed = False
        self._executor = self._new_executor()
        self._drainer = threading.Thread(target=self._drain, name="jobpool-progress", daemon=True)
        self._drainer.start()

    # ---------------------------------------------------------------- public

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Job[T]:
        """Queue `fn(*args, **kwargs)` (a module-level function, picklable arguments)."""
        with self._lock:
            if self._closed:
                raise RuntimeError("the job pool is shut down")
            if len(self._jobs) >= self.max_pending:
                raise PoolBusy(
                    f"The server is busy: {len(self._jobs)} long jobs are already queued or running. "
                    "Try again in a minute."
                )
            job: Job[T] = Job(self, next(self._ids), fn, args, kwargs)
            self._flags[job.id % _SLOTS] = 0
            self._pids[job.id % _SLOTS] = 0
            self._jobs[job.id] = job
            self._last_busy = time.monotonic()
            self._start(job)
        return job

    def active_jobs(self) -> list[Job]:
        with self._lock:
            return list(self._jobs.values())

    def worker_pids(self) -> list[int]:
        """The pids of the current worker processes (started lazily, so possibly fewer than `workers`)."""
        with self._lock:
            return list(getattr(self._executor, "_processes", {}) or {})

    def warm_up(self) -> None:
        """Start the worker processes now rather than at the first job."""
        futures = [self._executor.submit(_ping) for _ in range(self.workers)]
        for f in futures:
            with contextlib.suppress(Exception):
                f.result(timeout=60)

    def shutdown(self, *, cancel: bool = True) -> None:
        with self._lock:
            self._closed = True
            jobs = list(self._jobs.values())
        if cancel:
            for job in jobs:
                job.cancel()
        self._executor.shutdown(wait=True, cancel_futures=cancel)
        self._drainer.join(timeout=5)  # it stops within its 0.5 s poll once closed

    def __enter__(self) -> JobPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()

    # ---------------------------------------------------------------- internals

    def _new_executor(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=self._ctx,
            initializer=_init_worker,
            initargs=(self._progress_out, self._flags, self._pids, self._nice),
            max_tasks_per_child=self.max_tasks_per_child,
        )

    def _start(self, job: Job) -> None:
        """Submit `job` to the current executor (replacing it once if it is broken)."""
        fn, args, kwargs = job._call
        if fn is None:  # finished meanwhile
            return
        job.attempts += 1
        self._pids[job.id % _SLOTS] = 0
        for _ in range(2):
            executor = self._executor
            try:
                inner = executor.submit(_run_job, job.id, fn, args, kwargs)
            except (BrokenProcessPool, RuntimeError):
                self._replace_executor(executor)
                continue
            job._inner, job._executor = inner, executor
            inner.add_done_callback(functools.partial(self._on_done, job))
            return
        job._finish(exc=WorkerDied("The worker processes could not be started. Try again in a minute."))

    def _replace_executor(self, broken: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._executor is not broken or self._closed:
                return
            self.restarts += 1
            self._executor = self._new_executor()
        broken.shutdown(wait=False, cancel_futures=True)

    def _pid_of(self, job: Job) -> int:
        return int(self._pids[job.id % _SLOTS]) if not job.done() else 0

    def _remember_processes(self) -> None:
        procs = getattr(self._executor, "_processes", None) or {}
        for pid, proc in list(procs.items()):
            self._procs.setdefault(pid, proc)

    @staticmethod
    def _died_on_its_own(proc: Any) -> bool:
        """True when the worker `proc` died on its own (not terminated by the executor cleaning up).

        A worker killed a moment ago may not have its exit status yet (the forkserver reports it
        a little later), so it is given up to 2 s before being taken for one still shutting down.
        """
        if proc is None:
            return True
        code = proc.exitcode
        if code is None:
            proc.join(timeout=2.0)
            code = proc.exitcode
        if code is None:  # still shutting down: it was not the one that died first
            return False
        return code != -signal.SIGTERM

    def _on_done(self, job: Job, inner: Future) -> None:
        if job._inner is not inner:
            return
        try:
            value = inner.result()
        except CancelledError:
            job._finish(exc=JobCancelled())
        except BrokenProcessPool:
            self._on_broken(job)
        except BaseException as exc:  # the job's own error, re-raised to whoever waits for it
            job._finish(exc=exc)
        else:
            job._finish(value=value)

    def _on_broken(self, job: Job) -> None:
        pid = int(self._pids[job.id % _SLOTS])
        with self._lock:
            self._remember_processes()
            proc = self._procs.get(pid)
            broken = job._executor
        culprit = bool(pid) and self._died_on_its_own(proc)  # may wait: outside the lock
        if broken is not None:
            self._replace_executor(broken)
        if job.cancel_requested is not None:
            job._finish(exc=JobCancelled())
        elif culprit or job.attempts > self.retries:
            job._finish(exc=WorkerDied())
        else:  # collateral damage: queued, or running on a worker the executor stopped
            job.progress = Progress(0.0, "Starting again (the server had to restart this work)...")
            self._start(job)

    def _forget(self, job: Job) -> None:
        with self._lock:
            self._jobs.pop(job.id, None)
            self._last_busy = time.monotonic()

    def _retire_idle_workers(self, now: float) -> None:
        """With no job for `idle_seconds`, let the workers exit; the next job starts new ones."""
        with self._lock:
            if self._jobs or self._closed or now - self._last_busy < self.idle_seconds:
                return
            old = self._executor
            if not getattr(old, "_processes", None):
                return
            self._executor = self._new_executor()
            self._procs.clear()
        old.shutdown(wait=False)

    def _drain(self) -> None:
        """Progress messages into the jobs; kill the workers of jobs that ignore a cancel."""
        while not self._closed:
            try:
                msg = pickle.loads(self._progress_in.recv_bytes()) if self._progress_in.poll(0.5) else ()
            except (EOFError, OSError, pickle.UnpicklingError):
                return
            self._retire_idle_workers(time.monotonic())
            with self._lock:
                self._remember_processes()
                if msg:
                    job_id, fraction, text = msg
                    job = self._jobs.get(job_id)
                    if job is not None and job.cancel_requested is None:
                        job.progress = Progress(fraction, text)
                now = time.monotonic()
                stuck = [
                    j
                    for j in self._jobs.values()
                    if j.cancel_requested is not None and now - j.cancel_requested > self.kill_after
                ]
            for job in stuck:
                pid = self._pid_of(job)
                if pid:
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)


__all__ = [
    "Job",
    "JobCancelled",
    "JobError",
    "JobPool",
    "PoolBusy",
    "Progress",
    "WorkerDied",
    "cancelled",
    "default_workers",
    "report",
    "reporting_to",
]
