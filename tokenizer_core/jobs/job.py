"""A submitted job as its caller holds it (progress, state, cancel, result), and the pool's
record of a worker process and the job it runs.

A job is queued, then running in a worker, then done, cancelled or failed; its result or error
is set once, by the pool:

    job = pool.submit(train_task, text, options)
    job.state, job.progress   # ('running', Progress(fraction=0.4, text='Merge 400 of 1,000'))
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from .errors import JobCancelled, Progress

T = TypeVar("T")


class Job(Generic[T]):
    """A submitted job. Thread-safe: read `progress`/`state`, call `cancel()` from any thread."""

    def __init__(
        self, cancel: Callable[[Job[Any]], None], job_id: int, fn: Callable[..., T], args: tuple, kwargs: dict
    ) -> None:
        self.id = job_id
        self.label = getattr(fn, "__name__", "job")
        self.submitted = time.monotonic()
        self.progress = Progress(0.0, "Waiting for its turn on the server...")
        self.attempts = 0
        self.cancel_requested: float | None = None
        self._cancel = cancel  # the pool's: a job knows how to ask for its cancel, not the pool
        self._call: tuple[Callable[..., Any] | None, tuple, dict] = (fn, args, kwargs)
        self._outer: Future[T] = Future()
        self._worker: _Worker | None = None  # while it is sent to / running in a worker
        self._began = False  # the worker said it began this job

    @property
    def pid(self) -> int:
        """The pid of the worker running this job, 0 while it is queued or once it ended."""
        w = self._worker
        return w.pid if w is not None and self._began and not self.done() else 0

    @property
    def state(self) -> str:
        """'queued', 'running', 'done', 'cancelled' or 'failed'."""
        if self._outer.done():
            exc = self._outer.exception()
            return "done" if exc is None else "cancelled" if isinstance(exc, JobCancelled) else "failed"
        return "running" if self.pid else "queued"

    def done(self) -> bool:
        return self._outer.done()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the job ended or `timeout` passed; True when it ended."""
        try:
            self._outer.exception(timeout)
        except TimeoutError:
            return False
        return True

    def cancel(self) -> None:
        """Ask the job to stop. A queued job stops at once; a running one at its next report()."""
        self._cancel(self)

    def result(self, timeout: float | None = None) -> T:
        """The job's value; raises JobCancelled, WorkerDied, TimeoutError or the job's own error."""
        return self._outer.result(timeout)

    def exception(self, timeout: float | None = None) -> BaseException | None:
        return self._outer.exception(timeout)

    def _finish(self, *, value: Any = None, exc: BaseException | None = None) -> None:
        if self._outer.done():
            return
        self._call = (None, (), {})  # drop the input (it can be megabytes) as soon as it is not needed
        self._worker = None
        if exc is not None:
            self._outer.set_exception(exc)
        else:
            self._outer.set_result(value)

    def __repr__(self) -> str:
        return f"Job({self.id}, {self.label}, {self.state}, {self.progress.fraction:.0%})"


@dataclass(eq=False)
class _Worker:
    slot: int
    proc: Any
    conn: Any
    started: float
    ready: bool = False
    job: Job | None = None
    jobs_done: int = 0
    rss: int = 0  # resident bytes after its last job
    rss_ready: int = 0  # resident bytes when it became ready (or, with warm-up steps, warm)
    warmed: bool = False  # growth is measured only from then on
    retiring: bool = False  # to be stopped once a replacement is ready
    last_job_end: float = 0.0

    @property
    def pid(self) -> int:
        return int(self.proc.pid or 0)


__all__ = ["Job"]
