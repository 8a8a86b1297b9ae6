"""A `streamlit` server under tracemalloc: what the server process allocated and still holds.

    python bench/traced_server.py OUT run streamlit_app.py --server.port=8501 ...
    kill -USR2 <pid>    # the first time: the base snapshot; each later time: OUT.txt, what grew

Everything after OUT is the `streamlit` command line. On SIGUSR2 a thread collects garbage, takes
a tracemalloc snapshot (frames: TW_TRACE_FRAMES, 8) and the count of live objects by type; from
the second signal on, OUT.txt gets the 30 tracebacks whose memory grew most since the first
snapshot, and the object types whose number grew most (bench/bench_memory.py --trace uses it).
Tracing slows the server several times (a count takes minutes): take time figures from a run
without it. TW_TRACE_FRAMES=0: no tracing, only the objects by type and every bytes or str over
1 MB still held, with the type of what holds it (cheap).
"""

from __future__ import annotations

import collections
import gc
import os
import signal
import sys
import threading
import tracemalloc


def _types() -> collections.Counter[str]:
    return collections.Counter(type(o).__qualname__ for o in gc.get_objects())


def _large() -> list[str]:
    """Every bytes or str object over 1 MB that a tracked object holds, with its holder's type
    (bytes and str are not tracked themselves: they are found through their holders)."""
    out = []
    for o in gc.get_objects():
        for r in gc.get_referents(o):
            if isinstance(r, (bytes, bytearray, str)) and len(r) > 1_000_000:
                out.append(f"  {len(r) / 1e6:.1f} MB {type(r).__name__} held by a {type(o).__qualname__}")
    return out


def main() -> None:
    out, args = sys.argv[1], sys.argv[2:]
    frames = int(os.environ.get("TW_TRACE_FRAMES", "8"))
    if frames:
        tracemalloc.start(frames)
    state: dict[str, object] = {}
    lock = threading.Lock()

    def report() -> None:
        with lock:
            gc.collect()
            snap = (
                tracemalloc.take_snapshot().filter_traces(
                    [tracemalloc.Filter(False, tracemalloc.__file__), tracemalloc.Filter(False, "<frozen *>")]
                )
                if frames
                else None
            )
            types = _types()
            if "base" not in state:
                state["base"], state["types"] = snap, types
                return
            base, base_types = state["base"], state["types"]
            lines = ["bytes and str over 1 MB held now:", *_large()]
            stats = snap.compare_to(base, "traceback") if snap is not None else []  # type: ignore[arg-type]
            lines.append(f"grown since the base: {sum(s.size_diff for s in stats) / 1e6:+.1f} MB")
            for s in stats[:30]:
                lines.append(
                    f"\n{s.size_diff / 1e6:+.2f} MB ({s.count_diff:+,} blocks), now {s.size / 1e6:.2f} MB"
                )
                lines.extend("    " + ln for ln in s.traceback.format()[-8:])
            lines.append("\nobjects by type, grown most:")
            grown = {t: n - base_types.get(t, 0) for t, n in types.items()}  # type: ignore[union-attr]
            for t, d in sorted(grown.items(), key=lambda kv: -kv[1])[:25]:
                lines.append(f"  {d:+,} {t} (now {types[t]:,})")
            with open(out + ".txt", "w") as f:
                f.write("\n".join(lines) + "\n")

    signal.signal(signal.SIGUSR2, lambda *_: threading.Thread(target=report, daemon=True).start())
    from streamlit.web.cli import main as streamlit_main

    sys.argv = ["streamlit", *args]
    streamlit_main()


if __name__ == "__main__":
    main()
