"""Job functions for tests/test_jobs.py (module-level, so worker processes can import them)."""

from __future__ import annotations

import os
import time

from tokenizer_core.jobs import report


def square(x: int) -> int:
    return x * x


def steps(n: int, pause: float) -> int:
    """Report progress n times, `pause` seconds apart; returns n."""
    for i in range(n):
        report(i / n, f"step {i} of {n}")
        time.sleep(pause)
    report(1.0, "done")
    return n


def pid_then_steps(n: int, pause: float) -> tuple[int, int]:
    return os.getpid(), steps(n, pause)


def deaf(seconds: float) -> str:
    """Ignores cancel requests: never calls report (like a long call into native code)."""
    time.sleep(seconds)
    return "finished"


def fails(message: str) -> None:
    raise ValueError(message)


def spam_progress(seconds: float) -> int:
    """Report progress as fast as the worker can (the throttle off), for `seconds`."""
    from tokenizer_core import jobs

    jobs._REPORT_EVERY = 0.0  # in this worker process only
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        n += 1
        report(0.5, f"message {n} " + "x" * 300)
    return n
