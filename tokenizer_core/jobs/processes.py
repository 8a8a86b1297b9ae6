"""Starting and stopping worker processes: how many, by which start method, without the host's
``__main__``, and a kill that never fails.

How many: one budget for the whole server, whatever the kind of process that works for it (the
job pool's workers, the Dask workers that count whole sets, the process of each user's own
tokenizer): ``TW_PROCESSES``, by default the cores + 1. The pool takes about half
(``default_workers``), the Dask workers what is left beside the pool and the own tokenizers'
processes alive when they start (``dask_workers``); at least one each.

``default_workers()`` on a 4-core machine -> 2, ``dask_workers()`` -> 3 (5 = cores + 1).
"""

from __future__ import annotations

import contextlib
import functools
import multiprocessing as mp
import os
import signal
from typing import Any

PROCESSES_ENV = "TW_PROCESSES"
OWN_TOKENIZER_PROCESS = "own-tokenizer"  # the name of a user's own tokenizer's process (hosted.py)


def _env_count(name: str) -> int | None:
    env = os.environ.get(name, "").strip()
    if not env:
        return None
    try:
        return max(1, int(env))
    except ValueError:
        raise ValueError(f"{name} must be a whole number, not {env!r}") from None


def cores() -> int:
    """The cores this process may use (its CPU affinity; a container's CPU quota is not seen)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 2


def process_budget() -> int:
    """Worker processes this server runs at most, of every kind: `TW_PROCESSES`, else cores + 1.

    In a container with a CPU quota (docker --cpus) set it: Python sees the host's cores.
    """
    return _env_count(PROCESSES_ENV) or cores() + 1


def default_workers() -> int:
    """Pool size: `TW_WORKERS` if set, else half of the budget less one, at least 1 (1 on 2 cores)."""
    return _env_count("TW_WORKERS") or max(1, (process_budget() - 1) // 2)


def own_tokenizer_processes() -> int:
    """Users' own tokenizers' processes alive now."""
    return sum(1 for p in mp.active_children() if p.name == OWN_TOKENIZER_PROCESS)


def dask_workers() -> int:
    """Worker processes of the app's own Dask cluster, when it starts: `TW_DASK_WORKERS` if set,
    else what the budget leaves beside the pool and the own tokenizers' processes, at least 1
    (2 on 2 cores with none)."""
    return _env_count("TW_DASK_WORKERS") or max(
        1, process_budget() - default_workers() - own_tokenizer_processes()
    )


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


__all__ = [
    "cores",
    "dask_workers",
    "default_context",
    "default_workers",
    "kill",
    "own_tokenizer_processes",
    "process_budget",
    "workers_skip_main",
]
