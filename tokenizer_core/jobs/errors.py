"""How a job can end besides its own value or exception, and how far it is."""

from __future__ import annotations

from dataclasses import dataclass


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
