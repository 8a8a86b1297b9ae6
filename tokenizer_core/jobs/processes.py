"""Starting and stopping worker processes: how many, by which start method, without the host's
``__main__``, and a kill that never fails.

``default_workers()`` on a 4-core machine -> 3 (one core is left to the server).
"""

from __future__ import annotations

import contextlib
import functools
import multiprocessing as mp
import os
import signal
from typing import Any


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


def workers_skip_main() -> None:
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


def default_context() -> str:
    method = os.environ.get("TW_START_METHOD", "").strip()
    if method:
        return method
    return "forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn"


def kill(pid: int) -> None:
    if pid > 0:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


__all__ = ["default_context", "default_workers", "kill", "workers_skip_main"]
