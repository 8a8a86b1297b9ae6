"""A `streamlit` server that records what each script run costs in its own thread.

    python bench/profiled_server.py OUT run streamlit_app.py --server.port=8501 ...
    python bench/profiled_server.py OUT --profile run streamlit_app.py ...
    python bench/profiled_server.py OUT --profile=2 run streamlit_app.py ...   # not the first 2 runs

Everything after OUT (and the optional --profile) is the `streamlit` command line. Each time a
session's script thread runs the script (`ScriptRunner._run_script`, which also covers the
reruns a run asks for), the thread's CPU time and wall time are noted; when the server exits,
OUT.runs.json holds them as [[cpu seconds, wall seconds], ...] (also written at once on SIGUSR1,
so a benchmark can read the runs of one phase). With --profile, each run (but
the first N with --profile=N, e.g. the warm-up that loads tokenizers) is also profiled with cProfile in that thread (timed by the thread's CPU clock) and OUT.pstats holds them all (read it with
`python -m pstats OUT.pstats`); the profiler slows Python code, so
take CPU figures from a run without it.

The server is Streamlit's own (`streamlit.web.cli.main`); only that one method is wrapped.
"""

from __future__ import annotations

import atexit
import cProfile
import json
import pstats
import signal
import sys
import threading
import time


def main() -> None:
    out, args = sys.argv[1], sys.argv[2:]
    profile, skip = False, 0
    if args and args[0].startswith("--profile"):
        profile, skip = True, int(args[0].partition("=")[2] or 0)
        args = args[1:]
    from streamlit.runtime.scriptrunner import script_runner

    lock = threading.Lock()
    runs: list[tuple[float, float]] = []
    profiles: list[cProfile.Profile] = []
    original = script_runner.ScriptRunner._run_script

    def _run_script(self, rerun_data):  # noqa: ANN001, ANN202 (Streamlit's own signature)
        with lock:
            # CPU time of this thread, not wall time: on a loaded machine wall time is mostly
            # waiting for a core or for the interpreter lock
            prof = cProfile.Profile(time.thread_time) if profile and len(runs) >= skip else None
        cpu, wall = time.thread_time(), time.perf_counter()
        if prof is not None:
            prof.enable()
        try:
            return original(self, rerun_data)
        finally:
            if prof is not None:
                prof.disable()
            with lock:
                runs.append((time.thread_time() - cpu, time.perf_counter() - wall))
                if prof is not None:
                    profiles.append(prof)

    script_runner.ScriptRunner._run_script = _run_script

    def dump() -> None:
        with lock:
            with open(f"{out}.runs.json", "w") as f:
                json.dump(runs, f)
            if profiles:
                stats = pstats.Stats(profiles[0])
                for p in profiles[1:]:
                    stats.add(p)
                stats.dump_stats(f"{out}.pstats")

    atexit.register(dump)
    signal.signal(signal.SIGUSR1, lambda *_: dump())
    from streamlit.web.cli import main as streamlit_main

    sys.argv = ["streamlit", *args]
    streamlit_main()


if __name__ == "__main__":
    main()
