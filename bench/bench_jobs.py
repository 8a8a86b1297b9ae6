"""Where heavy work should leave the server's interpreter: in-process vs in the worker pool.

    python bench/bench_jobs.py            # corpus sizes 1K..1M characters, 1,000 merges, 3 rounds
    python bench/bench_jobs.py --quick    # fewer sizes, 1 round
    python bench/bench_jobs.py --counting --chunking   # only those (texts of 30K..20M characters)
    python bench/bench_jobs.py --handoff  # a real server: click -> result on screen, pool vs in-process

--handoff starts a real `streamlit run` server and drives it with websocket clients (as
bench/bench_serving.py does): on the BPE page, Train on 100 KB of English prose with 1,000
merges; on the Code identifiers page, ~19.7 KB of Python. Each is timed from the click (or the
pasted code) to the end of the rerun that shows the result, at the first job after the server
started (the first session's visit starts the pool), warm, and after the workers' idle period;
then the same on a server that does the work in-process. The hand-off overhead is the pool's
time minus the in-process time of the same step; the work's own time is measured here too.

For each corpus size (English prose, the page's default trainer settings: UTF-8 bytes, the
cl100k regex, 1,000 merges, 8 candidates recorded per merge) it times the training in this
process and the same job through a warm JobPool of one worker (submit, train, send the model
back). The pool adds a nearly fixed cost (pickling the model back, process hand-off); the
in-process run holds the interpreter lock every other session needs for its whole duration.
The page keeps a corpus in-process while its training takes about as long as one ordinary
rerun, and sends larger ones to the pool: see BPE_IN_PROCESS_MAX_CHARS in ui/bpe/training.py.
The same for the identifiers page's analysis (standard-library Python code, the three default
tokenizers, which each worker loads once): IDENT_IN_PROCESS_MAX_CHARS in ui/identifiers/analysis.py.

Counting a very large text (the counter's three default tokenizers) and chunking a large document
(the chunk page's default Markdown strategy, cl100k_base and the slowest engine, DeepSeek V4) are
mostly native code, so wall time alone undersells what an in-process run costs the others: the
"others waited" column is how late a thread that wants the interpreter every millisecond (another
session's script) ran in total, measured during the run. The limits are in ui/jobs.py.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.corpus import english_prose  # noqa: E402
from tokenizer_core import BPEOptions  # noqa: E402
from tokenizer_core.jobs import JobPool  # noqa: E402
from tokenizer_core.tasks import (  # noqa: E402
    analyse_identifiers_task,
    chunk_task,
    count_table_task,
    train_bpe_task,
    worker_builtin,
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--merges", type=int, default=1_000)
    ap.add_argument("--counting", action="store_true", help="only counting (with --chunking: both)")
    ap.add_argument("--chunking", action="store_true", help="only chunking (with --counting: both)")
    ap.add_argument("--handoff", action="store_true", help="click -> result on a real server")
    ap.add_argument("--idle", type=float, default=5.0, help="the server's worker idle seconds (--handoff)")
    ap.add_argument(
        "--nice", type=int, default=None, help="the workers' niceness (--handoff; default the app's, 10)"
    )
    args = ap.parse_args()
    if args.handoff:
        import asyncio

        asyncio.run(handoff(idle=args.idle, nice=args.nice))
        return
    if args.counting or args.chunking:
        with JobPool(workers=1, nice=0) as pool:
            pool.warm_up()
            if args.counting:
                counting(pool, quick=args.quick)
            if args.chunking:
                chunking(pool, quick=args.quick)
        return
    sizes = [1_000, 10_000, 100_000] if args.quick else [1_000, 4_000, 16_000, 64_000, 256_000, 1_000_000]
    rounds = 1 if args.quick else 3
    text = english_prose(max(sizes) * 2)
    options = BPEOptions(symbols="bytes", pretokenizer="cl100k", merges=args.merges)
    kw = {"top_n": 8, "max_steps": 20_000}
    with JobPool(workers=1, nice=0) as pool:
        pool.warm_up()
        pool.submit(train_bpe_task, "warm up the worker", "text", options, **kw).result()
        print(f"{'chars':>9} {'in-process s':>13} {'pool s':>8} {'pool extra':>11}")
        for n in sizes:
            corpus = text[:n]
            local, pooled = [], []
            for _ in range(rounds):
                t0 = time.perf_counter()
                train_bpe_task(corpus, "text", options, **kw)
                local.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                pool.submit(train_bpe_task, corpus, "text", options, **kw).result()
                pooled.append(time.perf_counter() - t0)
            a, b = statistics.median(local), statistics.median(pooled)
            print(f"{n:>9,} {a:>13.3f} {b:>8.3f} {b - a:>+10.3f}s")
        identifiers(pool, sizes, rounds)
        counting(pool, quick=args.quick)
        chunking(pool, quick=args.quick)


def identifiers(pool: JobPool, sizes: list[int], rounds: int) -> None:
    from bench.bench_identifiers import stdlib_code

    code = stdlib_code(40_000)
    ids = ("o200k_base", "cl100k_base", "llama3")
    for t in ids:
        worker_builtin(t)
    kw = {"strings": False, "comments": False}
    pool.submit(analyse_identifiers_task, code[:1000], "python", ids, **kw).result()
    print("\nidentifiers analysis (Python code, 3 tokenizers)")
    print(f"{'chars':>9} {'in-process s':>13} {'pool s':>8} {'pool extra':>11}")
    for n in sizes:
        part = code[: code.rfind("\n", 0, n) + 1]
        local, pooled = [], []
        for _ in range(rounds):
            t0 = time.perf_counter()
            analyse_identifiers_task(part, "python", ids, **kw)
            local.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            pool.submit(analyse_identifiers_task, part, "python", ids, **kw).result()
            pooled.append(time.perf_counter() - t0)
        a, b = statistics.median(local), statistics.median(pooled)
        print(f"{len(part):>9,} {a:>13.3f} {b:>8.3f} {b - a:>+10.3f}s")


def others_waited(fn) -> tuple[float, float]:
    """(wall seconds of fn(), total lateness of a thread that wants the interpreter every 1 ms)."""
    late: list[float] = []
    stop = threading.Event()

    def tick() -> None:
        while not stop.is_set():
            t = time.perf_counter()
            time.sleep(0.001)
            late.append(time.perf_counter() - t - 0.001)

    th = threading.Thread(target=tick)
    th.start()
    time.sleep(0.02)
    late.clear()
    t0 = time.perf_counter()
    fn()
    wall = time.perf_counter() - t0
    stop.set()
    th.join()
    return wall, sum(late)


def _median(fn, quick: bool) -> tuple[float, float]:
    """Medians of `others_waited(fn)` over 1 (quick) or 3 rounds."""
    runs = [others_waited(fn) for _ in range(1 if quick else 3)]
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


def _table(title: str, rows) -> None:
    print(f"\n{title}")
    print(f"{'chars':>11} {'in-process s':>13} {'others waited s':>16} {'pool s':>8} {'others waited s':>16}")
    for n, (a, la), (b, lb) in rows:
        print(f"{n:>11,} {a:>13.3f} {la:>16.3f} {b:>8.3f} {lb:>16.3f}")


def counting(pool: JobPool, *, quick: bool) -> None:
    ids = ("o200k_base", "cl100k_base", "llama3")
    sizes = (
        [100_000, 1_000_000, 5_000_000]
        if quick
        else [100_000, 300_000, 1_000_000, 3_000_000, 10_000_000, 20_000_000]
    )
    text = english_prose(max(sizes) + 1000)
    kw = {"context_window": 128_000, "allow_special": False}
    count_table_task(text[:NATIVE_WARM], ids, **kw)  # engines loaded and checked, here and in the worker
    pool.submit(count_table_task, text[:NATIVE_WARM], ids, **kw).result()
    rows = []
    for n in sizes:
        part = text[:n]
        local = _median(lambda: count_table_task(part, ids, **kw), quick)
        pooled = _median(lambda: pool.submit(count_table_task, part, ids, **kw).result(), quick)
        rows.append((n, local, pooled))
    _table("counting (English prose, the counter's 3 default tokenizers)", rows)


def chunking(pool: JobPool, *, quick: bool) -> None:
    sizes = [30_000, 300_000, 1_000_000] if quick else [30_000, 100_000, 300_000, 1_000_000, 3_000_000]
    text = english_prose(max(sizes) + 1000)
    for tid in ("cl100k_base", "deepseek_v4"):
        args = (tid, "markdown", 512, 0)
        chunk_task(text[:NATIVE_WARM], *args)
        pool.submit(chunk_task, text[:NATIVE_WARM], *args).result()
        rows = []
        for n in sizes:
            part = text[:n]
            local = _median(lambda: chunk_task(part, *args), quick)
            pooled = _median(lambda: pool.submit(chunk_task, part, *args).result(), quick)
            rows.append((n, local, pooled))
        _table(f"chunking (English prose, Markdown strategy, 512 tokens, {tid})", rows)


HANDOFF_BPE_CHARS = 100_000
HANDOFF_CODE_CHARS = 19_700


def _handoff_inputs() -> tuple[str, str]:
    from bench.bench_identifiers import stdlib_code

    corpus = english_prose(HANDOFF_BPE_CHARS + 10_000)[:HANDOFF_BPE_CHARS]
    code = stdlib_code(2_000)
    return corpus, code[: code.rfind("\n", 0, HANDOFF_CODE_CHARS) + 1]


async def _steps(port: int, corpus: str, code: str, idle: float) -> list[tuple[str, float, str]]:
    """(step, seconds from the click to the result's rerun end, what the page showed)."""
    import asyncio

    from bench.bench_serving import Session, exceptions, metric_values

    out = []

    async def train(label: str, merges: int) -> None:
        s = Session(port, "bpe")
        await s.open()
        await s.set(bpe_corpus_text=corpus, timeout=300)
        r = await s.set(bpe_merges=merges, click="bpe_train", timeout=300)
        shown = metric_values(r).get("Merges learned", "none")
        out.append((label, r.seconds, f"{shown} merges {exceptions(r) or ''}".strip()))
        await s.close()

    async def analyse(label: str, k: int) -> None:
        s = Session(port, "identifiers")
        await s.open()
        r = await s.set(identifiers_text=code + f"# run {k}\n", timeout=300)  # new code: not cached
        shown = {k: v for k, v in metric_values(r).items() if "dentifier" in k}
        out.append((label, r.seconds, f"{shown} {exceptions(r) or ''}".strip()))
        await s.close()

    await train("BPE: first job after the server started", 1000)
    await train("BPE: warm", 999)
    await analyse("identifiers: first analysis", 1)
    await analyse("identifiers: warm", 2)
    await asyncio.sleep(idle + 6)
    await train("BPE: after the idle period", 998)
    await analyse("identifiers: after the idle period", 3)
    return out


async def handoff(*, idle: float, nice: int | None) -> None:
    from bench.bench_serving import free_port, start_server

    corpus, code = _handoff_inputs()
    options = BPEOptions(symbols="bytes", pretokenizer="cl100k", merges=1000)
    t0 = time.perf_counter()
    train_bpe_task(corpus, "text", options, top_n=8, max_steps=20_000)
    work_bpe = time.perf_counter() - t0
    ids = ("o200k_base", "cl100k_base", "llama3")
    for t in ids:
        worker_builtin(t)
    t0 = time.perf_counter()
    analyse_identifiers_task(code, "python", ids, strings=False, comments=False)
    work_ident = time.perf_counter() - t0
    runs = {}
    for mode, env in [
        ("pool", {}),
        (
            "in-process",
            {"TW_BPE_IN_PROCESS_MAX_CHARS": str(10**9), "TW_IDENT_IN_PROCESS_MAX_CHARS": str(10**9)},
        ),
    ]:
        port = free_port()
        env = {"TW_WORKERS": "1", "TW_WORKER_IDLE_SECONDS": str(idle), **env}
        if nice is not None:
            env["TW_WORKER_NICE"] = str(nice)
        server = start_server(port, env)
        try:
            runs[mode] = await _steps(port, corpus, code, idle)
        finally:
            server.terminate()
            server.wait(timeout=30)
    print(f"BPE: {len(corpus):,} characters, 1,000 merges (the training itself: {work_bpe:.2f} s here); "
          f"identifiers: {len(code):,} characters of Python, 3 tokenizers (the analysis: {work_ident:.2f} s)")  # fmt: skip
    print(f"{'step':<44} {'pool s':>7} {'in-process s':>13} {'hand-off s':>11}  shown (pool)")
    for (label, a, shown), (_, b, _) in zip(runs["pool"], runs["in-process"]):
        print(f"{label:<44} {a:>7.2f} {b:>13.2f} {a - b:>+11.2f}  {shown}")


NATIVE_WARM = 600_000  # characters: over NATIVE_MIN_CHARS, so the native engines are loaded and checked first


if __name__ == "__main__":
    main()
