"""Job functions that bench_datasets.py sends to the worker pool and to Dask workers (a module of
their own, so worker processes can import them by name)."""

from __future__ import annotations

import os
import time

from tokenizer_core.jobs import report


def nothing() -> int:
    return os.getpid()


def busy(seconds: float, *, step: float = 0.05) -> int:
    """Work for `seconds`, reporting progress every `step` (where the pool's cancel is seen)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        t = time.monotonic() + step
        while time.monotonic() < t:
            pass
        report(1 - (end - time.monotonic()) / seconds, "busy")
    return os.getpid()
