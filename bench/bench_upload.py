"""Other users while one adds a large tokenizer.json: their keystroke reruns and the server's health
probe, timed while the upload is read and checked, against the same measured idle in the same run;
and the server's memory while the tokenizer is loaded.

    python bench/bench_upload.py                          # a ~60 MB tokenizer.json (2.4M entries)
    python bench/bench_upload.py --mb 15                  # a smaller one (quicker)
    python bench/bench_upload.py --before /work/wt/before # the same on another checkout, then this one
    python bench/bench_upload.py --help

It starts a real `streamlit run` server (bench/bench_serving.py's `start_server`, XSRF off so its
websocket client can upload). Session A types into the workspace's text box (each rerun a
keystroke's edit, checked against tiktoken's o200k count, as bench_serving.py --typing does) and
a thread asks /_stcore/health every 0.1 s. First idle (nobody uploads), then while session B
uploads the file in the sidebar and presses "Add tokenizer" (bench_memory.py's
`upload_tokenizer`), until the page says it was added. Reported: p50/p95/max of both, idle and
during, and their ratio (during / idle); the upload's seconds; the server's RSS (VmRSS) and that
of the server plus the processes it started, while B's tokenizer is loaded.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.bench_memory import UPLOAD_SERVER_ENV, big_tokenizer_json, upload_tokenizer, warm_up  # noqa: E402
from bench.bench_serving import (  # noqa: E402
    Session,
    _descendants,
    _rss_mb,
    _typed_text,
    exceptions,
    free_port,
    metric_values,
    start_server,
)
from bench.corpus import english_prose  # noqa: E402


def stats(times: list[float]) -> tuple[float, float, float]:
    """(p50, p95, max) of `times` in seconds."""
    if not times:
        return (float("nan"),) * 3  # type: ignore[return-value]
    q = statistics.quantiles(times, n=20, method="inclusive") if len(times) > 1 else [times[0]] * 19
    return statistics.median(times), q[18], max(times)


class Probe:
    """A thread asking the server's health route every `every` s; `times` holds the answers' seconds."""

    def __init__(self, port: int, every: float = 0.1) -> None:
        self.url, self.every = f"http://127.0.0.1:{port}/_stcore/health", every
        self.times: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        while not self._stop.is_set():
            t0 = time.perf_counter()
            try:
                with urllib.request.urlopen(self.url, timeout=60) as r:
                    r.read()
                self.times.append(time.perf_counter() - t0)
            except OSError:
                self.times.append(60.0)
            self._stop.wait(self.every)

    def take(self) -> list[float]:
        out, self.times = self.times, []
        return out

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=70)


async def typist(s: Session, base: str, enc, times: list[float], wrong: list[str], stop: asyncio.Event,
                 start: int) -> int:  # fmt: skip
    """Keystroke reruns of session `s` until `stop` is set; returns the keystrokes made."""
    n = start
    # the workspace's text box (an older checkout names it "counter_text")
    key = next(
        k for k in ("workspace_text", "counter_text") if k in s.widgets or f"{k}_live_box" in s.widgets
    )
    while not stop.is_set():
        text = _typed_text(base, 1, n, 3_000)
        r = await s.set(timeout=300, **{key: text})
        times.append(r.seconds)
        want = f"{len(enc.encode_ordinary(text)):,}"
        if metric_values(r).get("o200k_base") != want or exceptions(r):
            wrong.append(f"keystroke {n}: {metric_values(r).get('o200k_base')} != {want} {exceptions(r)}")
        n += 1
        await asyncio.sleep(0.1)
    return n


async def run_one(app: Path, data: bytes, idle_seconds: float) -> dict:
    from tokenizer_core import load_builtin

    enc = load_builtin("o200k_base").encoding  # the app's own pinned file (no download)
    base = english_prose()
    port = free_port()
    proc = start_server(port, {**UPLOAD_SERVER_ENV, "TW_WORKERS": "1"}, app=app)
    res: dict = {"app": str(app)}
    probe = Probe(port)
    try:
        await warm_up(port)
        a = Session(port)
        await a.open(timeout=300)
        wrong: list[str] = []
        # idle: A types, nobody uploads
        idle: list[float] = []
        stop = asyncio.Event()
        task = asyncio.create_task(typist(a, base, enc, idle, wrong, stop, 0))
        await asyncio.sleep(idle_seconds)
        probe.take()
        await asyncio.sleep(idle_seconds)
        stop.set()
        n = await task
        res["idle"], res["idle_health"] = idle, probe.take()
        # during: B uploads and adds the file while A types
        during: list[float] = []
        stop = asyncio.Event()
        task = asyncio.create_task(typist(a, base, enc, during, wrong, stop, n))
        added: list[str] = []
        stay = asyncio.Event()
        t0 = time.monotonic()
        upload = asyncio.create_task(upload_tokenizer(port, data, "big.json", added=added, stay=stay))
        while not added and not upload.done():
            await asyncio.sleep(0.1)
        res["upload_seconds"] = time.monotonic() - t0
        stop.set()
        await task
        res["during"], res["during_health"] = during, probe.take()
        await asyncio.sleep(2)
        res["server_mb"] = _rss_mb(proc.pid)
        res["total_mb"] = res["server_mb"] + sum(_rss_mb(p) for p in _descendants(proc.pid))
        stay.set()
        await upload
        await a.close()
        res["wrong"] = wrong
    finally:
        probe.stop()
        proc.terminate()
        proc.wait(timeout=30)
    return res


def report(res: dict) -> None:
    print(f"== {res['app']}")
    for what, idle_key, during_key in (
        ("keystroke reruns", "idle", "during"),
        ("health probe", "idle_health", "during_health"),
    ):  # noqa: E501
        i, d = stats(res[idle_key]), stats(res[during_key])
        print(f"{what}: idle p50 {i[0]:.3f} s, p95 {i[1]:.3f} s, max {i[2]:.3f} s ({len(res[idle_key])}); "
              f"during the upload p50 {d[0]:.3f} s, p95 {d[1]:.3f} s, max {d[2]:.3f} s ({len(res[during_key])}); "
              f"ratio p50 {d[0] / i[0]:.1f}x, p95 {d[1] / i[1]:.1f}x, max {d[2] / i[2]:.1f}x")  # fmt: skip
    print(f"upload to 'Added': {res['upload_seconds']:.1f} s")
    print(f"with the tokenizer loaded: server RSS {res['server_mb']:.0f} MB; server and its processes "
          f"{res['total_mb']:.0f} MB")  # fmt: skip
    if res["wrong"]:
        print("WRONG counts: " + "; ".join(res["wrong"][:5]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mb", type=float, default=59.3, help="about the size of the tokenizer.json (MB)")
    ap.add_argument(
        "--idle", type=float, default=8.0, help="seconds of idle typing (measured after as many more)"
    )
    ap.add_argument("--before", type=Path, help="another checkout of the app, measured first the same way")
    args = ap.parse_args()
    data = big_tokenizer_json(int(args.mb * 1_000_000))
    print(f"tokenizer.json: {len(data) / 1e6:.1f} MB")
    for app in ([args.before] if args.before else []) + [ROOT]:
        report(asyncio.run(run_one(app, data, args.idle)))


if __name__ == "__main__":
    main()
