"""Job functions for tests/jobs/test_pool.py (module-level, so worker processes can import them)."""

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
    from tokenizer_core.jobs import worker

    worker.REPORT_EVERY = 0.0  # in this worker process only
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        n += 1
        report(0.5, f"message {n} " + "x" * 300)
    return n


def identity(x):
    return x


def _mark(path: str, phase: str) -> None:
    with open(path, "w") as f:
        f.write(f"{os.getpid()} {phase}")


def _hold(path: str, phase: str, seconds: float) -> None:
    """Say which process is in which phase (a file the test waits for), then stay there."""
    _mark(path, phase)
    time.sleep(seconds)


def _loaded(path: str, seconds: float) -> str:
    _hold(path, "reading its input", seconds)
    return "loaded"


class SlowToLoad:
    """An argument that takes `seconds` to unpickle in the worker (the phase before the job runs)."""

    def __init__(self, path: str, seconds: float) -> None:
        self.path, self.seconds = path, seconds

    def __reduce__(self):
        return _loaded, (self.path, self.seconds)


def _sent_back(path: str, seconds: float) -> str:
    return "sent back"


class SlowToSend:
    """A result that takes `seconds` to pickle in the worker (the phase of returning a result)."""

    def __init__(self, path: str, seconds: float) -> None:
        self.path, self.seconds = path, seconds

    def __reduce__(self):
        _hold(self.path, "returning its result", self.seconds)
        return _sent_back, (self.path, self.seconds)


def slow_result(path: str, seconds: float) -> SlowToSend:
    return SlowToSend(path, seconds)


def loading(path: str, seconds: float) -> str:
    """Like a job loading its tokenizers: no progress for a while."""
    report(0.0, "Loading tokenizers...")
    _hold(path, "loading tokenizers", seconds)
    return "loaded"


def half_message() -> None:
    """Die in the middle of writing a message to the pool (a header promising 1 MB, 10 bytes sent)."""
    import struct

    from tokenizer_core.jobs import worker

    os.write(worker._conn.fileno(), struct.pack("!i", 1_000_000) + b"x" * 10)
    os._exit(9)


WARMED: list[int] = []  # warm-up steps done in this worker


def _warm_step(k: int) -> None:
    time.sleep(3)
    WARMED.append(k)


def warm_slowly() -> list:
    """Five warm-up steps of 3 s each: long enough that a job sent at once lands before the last,
    however slow the machine is to start the worker."""
    import functools

    return [functools.partial(_warm_step, k) for k in range(5)]


def warmed_count() -> int:
    return len(WARMED)


def grow(mb: int) -> int:
    """Keep `mb` MB allocated in this worker (as a big job's leftovers would be)."""
    WARMED.append(bytearray(mb * 1_000_000))  # type: ignore[arg-type]
    return os.getpid()
