"""`JobPool`: a bounded pool of worker processes of its own (not `ProcessPoolExecutor`).

One thread of the pool reads every worker's pipe and each worker's death (its pipe's end of
file), hands queued jobs to idle ready workers, recycles workers and kills those that ignore a
cancel; another starts worker processes, so a slow start never stops the reading. Every state
a job can be in has a way out in bounded time:

- queued: it runs once a worker is free; if no worker can be started or become ready for
  `start_timeout` seconds, it fails with WorkerDied ("could not be started").
- sent to a worker that dies before the job began: submitted again (`retries` times), then
  WorkerDied.
- running on a worker that dies (killed, out of memory, a crash in native code): WorkerDied at
  once, with a clear message; the pool starts a replacement. No other job is touched.
- cancelled: queued ones end at once; running ones at their next `report`, or their worker is
  killed after `kill_after` seconds.

Workers are started when the pool is made and kept warm: a worker is replaced after
`max_tasks_per_child` jobs, when its jobs made it grow by `max_growth_mb`, or after
`idle_seconds` without work if they made it grow by `idle_growth_mb`, which gives the memory
of big jobs back; the replacement is started first and the old worker keeps serving until it
is ready, so a job never waits for a cold start because of recycling.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import multiprocessing as mp
import os
import pickle
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Iterable
from multiprocessing.connection import wait
from typing import Any, TypeVar

from .errors import JobCancelled, PoolBusy, Progress, WorkerDied
from .job import Job, _Worker
from .processes import default_context, default_workers, kill, workers_skip_main
from .worker import worker_main

T = TypeVar("T")

NOT_STARTED = "The worker processes could not be started. Try again in a minute."


def _shutdown_at_exit(pool_ref: weakref.ref[JobPool]) -> None:
    if (pool := pool_ref()) is not None and not pool._halted:
        pool.shutdown(timeout=2.0)


class JobPool:
    """A bounded pool of worker processes for heavy jobs.

    `workers`: processes (default `default_workers()`), started at once and kept warm;
    `max_pending`: jobs queued or running at once before `submit` raises PoolBusy;
    `max_tasks_per_child` / `max_growth_mb`: a worker is replaced after that many jobs, or when
    its jobs left it with that many MB more resident memory than it had when it became ready
    (None: no limit); `idle_seconds` / `idle_growth_mb`: a worker that had no job for that
    long, and whose jobs left it with more than that many MB over its warm size (after each job
    a worker hands what it freed back to the system), is replaced by a fresh one (default
    `TW_WORKER_IDLE_SECONDS`, else 120 s; None: never); `nice`: the workers' scheduling niceness (higher =
    yield the CPU to the server); `kill_after`: seconds a cancelled job may keep running before
    its worker is killed; `retries`: how many times a job whose worker died before it began is
    sent again; `start_timeout`: seconds a worker may take to start, and a job may wait while
    no worker can be started; `preload`: modules imported once by the forkserver (so each new
    worker starts with them, in milliseconds: tokenizer_core.tasks costs ~1-2 s to import) or,
    under spawn, by each worker before it says it is ready; `warm`: a module-level function
    giving the warm-up steps (loading tokenizers) a new worker runs, one at a time, whenever
    it has no job: it is ready for jobs at once, and a job waits at most for the step under
    way.
    """

    def __init__(
        self,
        *,
        workers: int | None = None,
        max_pending: int = 32,
        max_tasks_per_child: int | None = 8,
        max_growth_mb: float | None = None,
        idle_growth_mb: float | None = 32.0,
        start_method: str | None = None,
        nice: int = 10,
        kill_after: float = 5.0,
        retries: int = 1,
        preload: tuple[str, ...] = (),
        warm: Callable[[], Iterable[Callable[[], object]]] | None = None,
        idle_seconds: float | None = None,
        start_timeout: float = 60.0,
    ) -> None:
        self.workers = workers or default_workers()
        self.max_pending = max(1, max_pending)
        self.max_tasks_per_child = max_tasks_per_child
        self.max_growth_mb = max_growth_mb
        self.idle_growth_mb = idle_growth_mb
        self.kill_after = kill_after
        self.retries = retries
        self.start_timeout = start_timeout
        self.restarts = 0  # workers that died unexpectedly
        self.recycled = 0  # workers replaced on purpose (tasks, memory, idle)
        self.idle_seconds = (
            idle_seconds
            if idle_seconds is not None
            else float(os.environ.get("TW_WORKER_IDLE_SECONDS", "120"))
        )
        self.preload = tuple(preload)
        self.warm = warm
        workers_skip_main()
        self._ctx: Any = mp.get_context(start_method or default_context())
        if self._ctx.get_start_method() == "forkserver":
            # each worker forks with these imported; never the default ["__main__"] (see above)
            self._ctx.set_forkserver_preload(list(self.preload))
        self._nice = nice
        self._flags = self._ctx.RawArray("b", 2 * self.workers + 2)  # a cancel flag per worker slot
        self._ids = itertools.count(1)
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._jobs: dict[int, Job] = {}
        self._queue: deque[Job] = deque()
        self._live: list[_Worker] = []
        self._starting = 0
        self._start_failures = 0
        self._last_ready = time.monotonic()  # when a worker was last seen ready (or the pool made)
        self._last_busy = time.monotonic()
        self._closed = False  # no new jobs, no new workers
        self._halted = False  # the reader stops
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_w, False)
        self._reader = threading.Thread(target=self._read_loop, name="jobpool", daemon=True)
        self._starter = threading.Thread(target=self._start_loop, name="jobpool-start", daemon=True)
        self._reader.start()
        self._starter.start()
        # At the server's exit, before daemon threads are cut off: a worker being started at
        # that moment would leave the forkserver half a request (it then logs a traceback).
        atexit.register(_shutdown_at_exit, weakref.ref(self))

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
            job: Job[T] = Job(self._cancel, next(self._ids), fn, args, kwargs)
            self._jobs[job.id] = job
            self._queue.append(job)
            self._last_busy = time.monotonic()
        self._wake()
        return job

    def active_jobs(self) -> list[Job]:
        with self._lock:
            return list(self._jobs.values())

    def worker_pids(self) -> list[int]:
        """The pids of the worker processes alive now (ready or starting)."""
        with self._lock:
            return [w.pid for w in self._live]

    def warm_up(self, timeout: float = 120.0) -> None:
        """Wait until `workers` workers are ready (they are started when the pool is made)."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while not self._closed and sum(w.ready and not w.retiring for w in self._live) < self.workers:
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                self._changed.wait(min(left, 0.5))

    def shutdown(self, *, cancel: bool = True, timeout: float = 10.0) -> None:
        """Stop the pool: cancel (or, with cancel=False, wait for) the jobs, then end the workers."""
        if not cancel:
            deadline = time.monotonic() + 3600
            while self.active_jobs() and time.monotonic() < deadline:
                time.sleep(0.05)
        with self._lock:
            self._closed = True
            jobs = list(self._jobs.values())
        for job in jobs:
            job.cancel()
        self._wake()
        with self._changed:
            self._changed.notify_all()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.active_jobs():
            time.sleep(0.02)
        with self._lock:
            self._halted = True
            workers = list(self._live)
            self._live.clear()
        self._reader.join(timeout=5)
        for w in workers:
            with contextlib.suppress(OSError):
                w.conn.send_bytes(b"")
        for w in workers:
            w.proc.join(timeout=max(0.1, deadline - time.monotonic()))
            if w.proc.exitcode in (None, 255):  # 255: its forkserver died, it may still run
                kill(w.pid)
                w.proc.join(timeout=2)
            w.conn.close()
        with self._lock:
            for job in list(self._jobs.values()):
                self._end(job, exc=JobCancelled())
        self._starter.join(timeout=5)
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)

    def __enter__(self) -> JobPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()

    # ---------------------------------------------------------------- cancel

    def _cancel(self, job: Job) -> None:
        with self._lock:
            if job.done() or job.cancel_requested is not None:
                return
            job.cancel_requested = time.monotonic()
            w = job._worker
            if w is None:  # still queued
                with contextlib.suppress(ValueError):
                    self._queue.remove(job)
                self._end(job, exc=JobCancelled())
            else:
                self._flags[w.slot] = 1
        self._wake()

    def _end(self, job: Job, *, value: Any = None, exc: BaseException | None = None) -> None:
        """Finish `job` (under the lock)."""
        self._jobs.pop(job.id, None)
        self._last_busy = time.monotonic()
        job._finish(value=value, exc=exc)

    # ---------------------------------------------------------------- starting workers

    def _wake(self) -> None:
        with contextlib.suppress(OSError):  # a full pipe already wakes the reader; closed: shut down
            os.write(self._wake_w, b"x")

    def _wanted(self) -> int:
        """How many more workers to start now (under the lock)."""
        if self._closed:
            return 0
        return self.workers - sum(not w.retiring for w in self._live) - self._starting

    def _free_slot(self) -> int:
        used = {w.slot for w in self._live}
        return next(s for s in range(len(self._flags)) if s not in used)

    def _start_loop(self) -> None:
        while True:
            with self._changed:
                while not self._closed and self._wanted() <= 0:
                    self._changed.wait(1.0)
                if self._closed:
                    return
                self._starting += 1
                slot = self._free_slot()
                self._flags[slot] = 0
            worker = None
            try:
                worker = self._spawn(slot)
            except Exception:  # noqa: BLE001  (forkserver gone mid-request, no memory, no fds...)
                worker = None
            if worker is not None and self._closed:  # shut down meanwhile
                with contextlib.suppress(OSError):
                    worker.conn.send_bytes(b"")
                worker.proc.join(timeout=5)
                if worker.proc.exitcode is None:
                    kill(worker.pid)
                worker = None
            with self._changed:
                self._starting -= 1
                if worker is not None:
                    self._live.append(worker)
                    self._start_failures = 0
                else:
                    self._start_failures += 1
                failures = self._start_failures
                self._changed.notify_all()
            self._wake()
            if failures:
                time.sleep(min(0.2 * 2**failures, 5.0))

    def _spawn(self, slot: int) -> _Worker:
        here, there = self._ctx.Pipe(duplex=True)
        try:
            proc = self._ctx.Process(
                target=worker_main,
                args=(there, self._flags, slot, self._nice, self.preload, self.warm),
                name=f"jobpool-worker-{slot}",
                daemon=True,
            )
            proc.start()
        except BaseException:
            here.close()
            raise
        finally:
            there.close()  # the worker holds the only other end: its death is our end of file
        return _Worker(slot, proc, here, time.monotonic())

    # ---------------------------------------------------------------- reading workers

    def _read_loop(self) -> None:
        while not self._halted:
            with self._lock:
                by_conn = {w.conn: w for w in self._live}
            try:
                ready = wait([*by_conn, self._wake_r], timeout=0.25)
            except (OSError, ValueError):  # a pipe closed under us: look again
                ready = []
            for r in ready:
                if r == self._wake_r:
                    with contextlib.suppress(OSError):
                        os.read(self._wake_r, 4096)
                    continue
                w = by_conn[r]
                try:
                    msg = pickle.loads(w.conn.recv_bytes())
                except Exception:  # noqa: BLE001  (end of file, half a message, a bad pickle: it died)
                    self._lost(w)
                    continue
                self._handle(w, msg)
            try:
                self._housekeeping(time.monotonic())
            except Exception:  # noqa: BLE001  (never let the reader die: every job depends on it)
                pass

    def _handle(self, w: _Worker, msg: tuple) -> None:
        kind = msg[0]
        with self._changed:
            job = w.job
            if kind == "ready":
                w.ready, w.rss, w.rss_ready, w.warmed = True, msg[1], msg[1], self.warm is None
                self._last_ready = time.monotonic()
                self._changed.notify_all()
            elif kind == "warmed":
                w.rss_ready, w.warmed = msg[1], True  # what its jobs add is measured from here
            elif job is None or msg[1] != job.id:
                return  # a message of a job that already ended (cancelled, timed out)
            elif kind == "start":
                job._began = True
            elif kind == "progress":
                if job.cancel_requested is None:
                    job.progress = Progress(msg[2], msg[3])
            elif kind in ("done", "error"):
                w.job, w.rss, w.last_job_end = None, msg[3], time.monotonic()
                w.jobs_done += 1
                if kind == "done":
                    self._end(job, value=msg[2])
                elif job.cancel_requested is not None and isinstance(msg[2], JobCancelled):
                    self._end(job, exc=JobCancelled())
                else:
                    self._end(job, exc=msg[2])
                self._flags[w.slot] = 0
                if self._worn_out(w):
                    self._retire(w)

    def _worn_out(self, w: _Worker) -> bool:
        if self.max_tasks_per_child is not None and w.jobs_done >= self.max_tasks_per_child:
            return True
        return self._grown(w, self.max_growth_mb)

    @staticmethod
    def _grown(w: _Worker, mb: float | None) -> bool:
        """True when `w`'s jobs left it with more than `mb` MB over its warm size (None: never)."""
        return mb is not None and w.warmed and w.jobs_done > 0 and w.rss - w.rss_ready > mb * 1e6

    def _retire(self, w: _Worker) -> None:
        """Have `w` replaced (under the lock): a new worker starts; `w` serves until it is ready."""
        if not w.retiring:
            w.retiring = True
            self.recycled += 1
            self._changed.notify_all()

    def _lost(self, w: _Worker) -> None:
        """`w` died (or its pipe broke): end or resend its job, have it replaced."""
        with contextlib.suppress(Exception):
            w.proc.join(timeout=0.05)
        if w.proc.exitcode in (None, 255):  # only its pipe broke, or its forkserver died: end it
            kill(w.pid)
        with self._changed:
            if w not in self._live:
                return
            self._live.remove(w)
            with contextlib.suppress(OSError):
                w.conn.close()
            job, w.job = w.job, None
            if not w.retiring or job is not None:
                self.restarts += 1
            self._changed.notify_all()
            if job is None or job.done():
                return
            job._worker = None
            if job.cancel_requested is not None:
                self._end(job, exc=JobCancelled())
            elif job._began or job.attempts > self.retries:
                self._end(job, exc=WorkerDied())
            else:  # it never began: not its fault; it goes first in the queue
                job.progress = Progress(0.0, "Starting again (the server had to restart this work)...")
                self._queue.appendleft(job)

    # ---------------------------------------------------------------- housekeeping

    def _housekeeping(self, now: float) -> None:
        with self._lock:
            live = list(self._live)
        for w in live:
            job = w.job
            if (
                job is not None
                and job.cancel_requested is not None
                and now - job.cancel_requested > self.kill_after
            ):
                kill(w.pid)  # it ignores the cancel: its end of file comes next
            elif not w.ready and now - w.started > self.start_timeout:
                kill(w.pid)  # stuck starting
        with self._lock:
            fresh = sum(w.ready and not w.retiring for w in self._live)
            for w in self._live:
                idle = w.ready and w.job is None
                if (
                    idle
                    and w.jobs_done
                    and not w.retiring
                    and not self._jobs
                    and now - max(w.last_job_end, self._last_busy) > self.idle_seconds
                ):
                    self._retire(w)  # give the memory of its jobs back; a fresh one takes its place
                if idle and w.retiring and fresh >= self.workers:
                    self._stop(w)
            self._fail_if_unstartable(now)
        self._assign()

    def _stop(self, w: _Worker) -> None:
        """Ask the idle worker `w` to exit (under the lock); its end of file removes it."""
        w.ready = False
        with contextlib.suppress(OSError):
            w.conn.send_bytes(b"")

    def _fail_if_unstartable(self, now: float) -> None:
        """Fail the queued jobs once no worker has been ready for `start_timeout` (under the lock)."""
        if any(w.ready for w in self._live):
            self._last_ready = now
        elif self._queue and now - self._last_ready > self.start_timeout:
            while self._queue:
                self._end(self._queue.popleft(), exc=WorkerDied(NOT_STARTED))

    def _assign(self) -> None:
        """Send queued jobs to idle ready workers (fresh ones first)."""
        while True:
            with self._lock:
                idle = [w for w in self._live if w.ready and w.job is None]
                if not idle or not self._queue:
                    return
                w = min(idle, key=lambda w: w.retiring)
                job = self._queue.popleft()
                fn, args, kwargs = job._call
                if fn is None or job.done():
                    continue
                job.attempts += 1
                job._began = False
                job._worker, w.job = w, job
                self._flags[w.slot] = 1 if job.cancel_requested is not None else 0
            try:
                payload = pickle.dumps((fn, args, kwargs), protocol=pickle.HIGHEST_PROTOCOL)
            except Exception as exc:  # noqa: BLE001  (arguments that cannot go to another process)
                with self._lock:
                    w.job, job._worker = None, None
                    self._end(job, exc=TypeError(f"the job's input cannot be sent to a worker: {exc}"))
                continue
            try:
                w.conn.send_bytes(job.id.to_bytes(8, "little", signed=True))
                w.conn.send_bytes(payload)
            except OSError:
                self._lost(w)
            del payload, fn, args, kwargs
