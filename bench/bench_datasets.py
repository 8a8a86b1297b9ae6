"""Whole sets counted: throughput, memory and scaling of tokenizer_core.datasets, with references
in the same run.

    python bench/bench_datasets.py                 # a 1,000 MB JSONL (1 GB), CPython's Lib/, scaling, pool
    python bench/bench_datasets.py --size 100      # a 100 MB JSONL (the figures in docs/benchmarks.md)
    python bench/bench_datasets.py --quick         # 20 MB, chat rows of 4 MB
    python bench/bench_datasets.py --only repo     # one section: jsonl, repo, scaling, pool

jsonl: a JSONL of OpenAI Batch chat requests (system + user message from the standard library's
prose, bench/corpus.py; one request in four with a tool) of --size MB, generated on disk as it is
written, and a JSONL of the same user texts as text rows (chat rows: the first --chat-size MB,
default 20: a chat row is rendered per model in Python, text rows are counted in batches). Counted on the embedded Dask cluster
(2 worker processes, 1 thread each):
  * text rows, o200k: MB/s and rows/s against stock tiktoken's `encode_ordinary_batch(num_threads=2)`
    of the same texts (read and parsed line by line in batches, this process), goal >= 0.9x;
  * text rows and chat rows for 4 models (GPT-4o, GPT-4, Llama 3.1 8B, Qwen3 32B);
  * peak RSS of this process and of the workers (sampled every 0.1 s), at a quarter of the size
    and at the whole size: bounded means the same peak for both.
repo: CPython's Lib/ of this interpreter as a zip (every file, tests included), o200k: files/s
against a repomix-style count (each file read from the zip and encoded with tiktoken in one
process, one after the other) of the same files, same run, goal >= 2x.
scaling: chat rows (4 models) of --chat-size / 4 MB on a LocalCluster of 1 and of 2 workers;
the per-task cost in-process and the per-task overhead, for the N-machine estimate.
pool: the app's JobPool (tokenizer_core/jobs) against a distributed LocalCluster of one worker:
hand-off of an empty job, a worker killed in a job, cancel of a running job, idle memory.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import signal
import statistics
import sys
import threading
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import psutil  # noqa: E402

from bench.corpus import OUT, english_prose  # noqa: E402
from tokenizer_core.datasets import count_dataset  # noqa: E402
from tokenizer_core.datasets.archive import plan_archive, read_files  # noqa: E402
from tokenizer_core.datasets.count import CountKey, count_task  # noqa: E402
from tokenizer_core.datasets.engine import WORKER_ENVIRON, DaskEngine, InProcess  # noqa: E402
from tokenizer_core.datasets.sources import jsonl_tasks  # noqa: E402
from tokenizer_core.tokenizers.registry import load_builtin  # noqa: E402

MODELS4 = ["gpt-4o", "gpt-4", "llama-3.1-8b", "qwen3-32b"]
TOOL = {"type": "function", "function": {"name": "search", "description": "Search the docs.", "parameters": {
    "type": "object", "properties": {"query": {"type": "string", "description": "What to look for"}}}}}  # fmt: skip
MB = 1_000_000


def generate(n_mb: int) -> tuple[Path, Path]:
    """The Batch JSONL and the text-rows JSONL of about n_mb MB each, written once into bench/out/."""
    OUT.mkdir(exist_ok=True)
    chat, text = OUT / f"batch_{n_mb}mb.jsonl", OUT / f"text_{n_mb}mb.jsonl"
    if chat.exists() and text.exists():
        return chat, text
    paragraphs = [p for p in english_prose(8 * MB).split("\n\n") if p.strip()]
    rng = random.Random(33)
    size = i = 0
    with open(chat, "w", encoding="utf-8") as fc, open(text, "w", encoding="utf-8") as ft:
        while size < n_mb * MB:
            user = "\n\n".join(rng.choice(paragraphs) for _ in range(rng.randint(1, 3)))
            body: dict = {"model": "gpt-4o", "max_tokens": 200,
                          "messages": [{"role": "system", "content": "Summarise the text in one sentence."},
                                       {"role": "user", "content": user}]}  # fmt: skip
            if i % 4 == 0:
                body["tools"] = [TOOL]
            line = json.dumps(
                {"custom_id": f"r{i}", "method": "POST", "url": "/v1/chat/completions", "body": body}
            )
            fc.write(line + "\n")
            ft.write(json.dumps({"id": f"r{i}", "text": user}) + "\n")
            size += len(line) + 1
            i += 1
    return chat, text


class PeakRSS:
    """Peak RSS of this process and of the given worker pids (sum), sampled every 0.1 s."""

    def __init__(self, pids: list[int] = ()) -> None:  # type: ignore[assignment]
        self.procs = [psutil.Process()] + [psutil.Process(p) for p in pids]
        self.peak_here = self.peak_workers = 0
        self._stop = threading.Event()
        self._t = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(0.1):
            rss = []
            for p in self.procs:
                try:
                    rss.append(p.memory_info().rss)
                except psutil.Error:
                    rss.append(0)
            self.peak_here = max(self.peak_here, rss[0])
            self.peak_workers = max(self.peak_workers, sum(rss[1:]))

    def __enter__(self) -> PeakRSS:
        self._t.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._t.join()


def _cluster(workers: int):
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                           env=WORKER_ENVIRON, silence_logs=40)  # fmt: skip
    client = Client(cluster, set_as_default=False)
    return cluster, client


def _load(ids: list[str]) -> int:
    from tokenizer_core.datasets.count import tokenizer

    for t in ids:  # load, and start the native engine (its first large text checks it)
        tokenizer(t).count_many(["The quick brown fox.\n" * 30_000])
    return len(ids)


def _warm(client, tokenizers: list[str]) -> None:
    """Load the tokenizers in every worker and here first (a server's workers stay warm between jobs)."""
    client.run(_load, tokenizers)
    _load(tokenizers)


def stock_text_rows(path: Path, enc) -> tuple[int, int, float]:
    """rows, tokens, seconds: read, parse, encode_ordinary_batch(num_threads=2) in 4 MB batches."""
    t0 = time.perf_counter()
    rows = tokens = 0
    batch: list[str] = []
    size = 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            s = json.loads(line)["text"]
            batch.append(s)
            size += len(s)
            if size >= 4 * MB:
                tokens += sum(map(len, enc.encode_ordinary_batch(batch, num_threads=2)))
                rows += len(batch)
                batch, size = [], 0
    if batch:
        tokens += sum(map(len, enc.encode_ordinary_batch(batch, num_threads=2)))
        rows += len(batch)
    return rows, tokens, time.perf_counter() - t0


def _lines(path: Path) -> int:
    with open(path, "rb") as f:
        return sum(1 for _ in f)


def section_jsonl(n_mb: int, chat_mb: int) -> None:
    chat, text = generate(n_mb)
    quarter_mb = max(1, n_mb // 4)
    _, text_q = generate(quarter_mb)
    chat_s, _ = generate(chat_mb)
    chat_q, _ = generate(max(1, chat_mb // 4))
    print(f"\n## JSONL: text rows {text.stat().st_size / MB:,.0f} MB ({_lines(text):,} rows; the user texts of "
          f"{chat.stat().st_size / MB:,.0f} MB of Batch requests); chat rows: {chat_mb} MB of Batch requests "
          f"({_lines(chat_s):,} rows)")  # fmt: skip
    cluster, client = _cluster(2)
    try:
        _warm(client, ["o200k_base", "cl100k_base", "llama3", "qwen"])
        engine = DaskEngine(client)
        pids = list(client.run(os.getpid).values())
        enc = load_builtin("o200k_base").encoding  # a stock tiktoken Encoding (the same ranks)
        rows, tokens, t_stock = stock_text_rows(text, enc)
        size = text.stat().st_size
        print(f"stock tiktoken encode_ordinary_batch(num_threads=2), o200k: {t_stock:.1f} s, "
              f"{size / MB / t_stock:.1f} MB/s, {rows / t_stock:,.0f} rows/s ({tokens:,} tokens)")  # fmt: skip
        print(
            f"{'run':48}{'s':>8}{'MB/s':>8}{'rows/s':>10}{'vs stock':>10}{'peak RSS here':>15}{'workers':>10}"
        )
        for label, path, models in (
            ("text rows, o200k, 2 Dask workers", text, ["o200k_base"]),
            (f"text rows, o200k, 2 Dask workers ({quarter_mb} MB)", text_q, ["o200k_base"]),
            ("text rows, 4 models, 2 Dask workers", text, MODELS4),
            (f"chat rows (Batch), 4 models ({chat_mb} MB)", chat_s, MODELS4),
            (f"chat rows (Batch), 4 models ({max(1, chat_mb // 4)} MB)", chat_q, MODELS4),
        ):
            with PeakRSS(pids) as peak:
                t0 = time.perf_counter()
                r = count_dataset(path, models, engine=engine)
                dt = time.perf_counter() - t0
            sz = path.stat().st_size
            vs = f"{(sz / dt) / (size / t_stock):.2f}x" if models == ["o200k_base"] else ""
            print(f"{label:48}{dt:8.1f}{sz / MB / dt:8.1f}{r.rows / dt:10,.0f}{vs:>10}"
                  f"{peak.peak_here / MB:13,.0f}MB{peak.peak_workers / MB:8,.0f}MB", flush=True)  # fmt: skip
            if models == ["o200k_base"] and path == text:
                assert r.model("o200k_base").total == tokens, (r.model("o200k_base").total, tokens)
    finally:
        client.close()
        cluster.close()


def cpython_lib_zip() -> Path:
    """This interpreter's Lib/ (without site-packages) as a zip in bench/out/."""
    lib = Path(os.__file__).parent
    path = OUT / "cpython-Lib.zip"
    if path.exists():
        return path
    OUT.mkdir(exist_ok=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for p in sorted(lib.rglob("*")):
            rel = p.relative_to(lib)
            if p.is_file() and not p.is_symlink() and not {"site-packages", "__pycache__"} & set(rel.parts):
                z.write(p, "Lib/" + rel.as_posix())
    return path


def repomix_style(path: Path, files: list[str], enc) -> tuple[int, float]:
    """tokens, seconds: each file read from the zip and encoded on its own, one process."""
    t0 = time.perf_counter()
    total = 0
    with zipfile.ZipFile(path) as z:
        for name in files:
            text = z.read("Lib/" + name).decode("utf-8")
            total += len(enc.encode_ordinary(text))
    return total, time.perf_counter() - t0


def section_repo() -> None:
    path = cpython_lib_zip()
    with zipfile.ZipFile(path) as z:
        entries = len(z.infolist())
    plan = plan_archive(path.name, path)
    files = [p for item in read_files(path, plan) if isinstance(item, tuple) for p in [item[0]]]
    print(f"\n## Repository: CPython's Lib/ ({path.stat().st_size / MB:.1f} MB zip, {entries:,} files; "
          f"{len(files):,} counted, {entries - len(files):,} skipped as binary, vendored or lock files)")  # fmt: skip
    enc = load_builtin("o200k_base").encoding
    tokens, t_ref = repomix_style(path, files, enc)
    print(f"repomix-style (tiktoken, one process, file by file): {t_ref:.2f} s, {len(files) / t_ref:,.0f} files/s, "
          f"{tokens:,} tokens")  # fmt: skip
    runs = [("in-process (engine='local')", lambda: InProcess())]
    cluster, client = _cluster(2)
    try:
        _warm(client, ["o200k_base"])
        runs.append(("2 Dask workers", lambda: DaskEngine(client)))
        for label, make in runs:
            t0 = time.perf_counter()
            r = count_dataset(path, ["o200k_base"], engine=make())
            dt = time.perf_counter() - t0
            assert r.model("o200k_base").total == tokens, (r.model("o200k_base").total, tokens)
            print(f"{label:30}{dt:7.2f} s{len(files) / dt:9,.0f} files/s{t_ref / dt:7.2f}x")
    finally:
        client.close()
        cluster.close()


def section_scaling(n_mb: int, chunk: int = 250_000) -> None:
    chat, _ = generate(n_mb)
    keys = (CountKey("o200k_base", "openai"), CountKey("cl100k_base", "openai"), CountKey("llama3", "llama31"),
            CountKey("qwen", "qwen3"))  # fmt: skip
    t0 = time.perf_counter()
    n_tasks = sum(1 for _ in jsonl_tasks(chat, shape="batch", chunk_bytes=chunk))
    t_read = (time.perf_counter() - t0) / n_tasks
    _load([k.tokenizer_id for k in keys])
    sample = list(itertools.islice(jsonl_tasks(chat, shape="batch", chunk_bytes=chunk), 2))
    t0 = time.perf_counter()
    for t in sample:
        count_task(t, keys)
    t_task = (time.perf_counter() - t0) / len(sample)
    print(f"\n## Scaling: {chat.stat().st_size / MB:.0f} MB of Batch requests, 4 models, {n_tasks} tasks of "
          f"{chunk / MB:.2f} MB")  # fmt: skip
    print(f"reading and cutting (this process): {t_read * 1000:.1f} ms a task; counting one task in-process: "
          f"{t_task:.2f} s")  # fmt: skip
    times = {}
    for workers in (1, 2):
        cluster, client = _cluster(workers)
        try:
            _warm(client, [k.tokenizer_id for k in keys])
            t0 = time.perf_counter()
            count_dataset(chat, MODELS4, engine=DaskEngine(client), chunk_bytes=chunk)
            times[workers] = time.perf_counter() - t0
        finally:
            client.close()
            cluster.close()
        over = times[workers] * workers / n_tasks - t_task
        print(f"{workers} worker(s): {times[workers]:.1f} s ({chat.stat().st_size / MB / times[workers]:.2f} MB/s); "
              f"time a task per worker minus its in-process cost: {over * 1000:+.0f} ms", flush=True)  # fmt: skip
    print(f"2 workers / 1 worker: {times[1] / times[2]:.2f}x faster")


def _median(xs: list[float]) -> float:
    return statistics.median(xs) * 1000


def section_pool() -> None:
    from distributed import Client, LocalCluster

    from bench import dataset_jobs
    from tokenizer_core.jobs import JobPool, WorkerDied

    print("\n## Worker pool (tokenizer_core/jobs) vs distributed (LocalCluster, 1 worker with a Nanny)")
    pool = JobPool(workers=1, preload=("bench.dataset_jobs",))
    pool.warm_up()
    cluster = LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None,
                           silence_logs=40)  # fmt: skip
    client = Client(cluster, set_as_default=False)
    try:
        pool.submit(dataset_jobs.nothing).result(30)
        client.submit(dataset_jobs.nothing, pure=False).result()
        hp, hd = [], []
        for _ in range(30):
            t0 = time.perf_counter()
            pool.submit(dataset_jobs.nothing).result(30)
            hp.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            client.submit(dataset_jobs.nothing, pure=False).result()
            hd.append(time.perf_counter() - t0)
        print(
            f"hand-off of an empty job (median of 30): pool {_median(hp):.1f} ms, distributed {_median(hd):.1f} ms"
        )

        # a worker killed during a job: how long until the job ends, and until the next job runs
        job = pool.submit(dataset_jobs.busy, 30)
        while not job.pid:
            time.sleep(0.01)
        t0 = time.perf_counter()
        os.kill(job.pid, signal.SIGKILL)
        try:
            job.result(60)
        except WorkerDied:
            pass
        t_end = time.perf_counter() - t0
        pool.submit(dataset_jobs.nothing).result(60)
        t_next = time.perf_counter() - t0
        fut = client.submit(dataset_jobs.busy, 3, pure=False)
        time.sleep(1.0)
        (wpid,) = client.run(os.getpid).values()
        t0 = time.perf_counter()
        os.kill(wpid, signal.SIGKILL)
        fut.result(timeout=120)  # the Nanny restarts the worker and the scheduler runs the task again
        t_d_end = time.perf_counter() - t0
        client.submit(dataset_jobs.nothing, pure=False).result(timeout=60)
        t_d_next = time.perf_counter() - t0
        print(f"worker killed in a job: pool ends the job (WorkerDied) in {t_end * 1000:.0f} ms, next job done "
              f"{t_next * 1000:.0f} ms after the kill; distributed re-runs the job on the restarted worker "
              f"(done {t_d_end:.1f} s after the kill, of which 3 s is the job), next job {t_d_next:.1f} s")  # fmt: skip

        # cancel a running job: how long until the worker is free for the next one
        job = pool.submit(dataset_jobs.busy, 10)
        while not job.pid:
            time.sleep(0.01)
        time.sleep(0.5)
        t0 = time.perf_counter()
        job.cancel()
        pool.submit(dataset_jobs.nothing).result(60)
        t_pc = time.perf_counter() - t0
        fut = client.submit(dataset_jobs.busy, 10, pure=False)
        time.sleep(0.5)
        t0 = time.perf_counter()
        fut.cancel()
        client.submit(dataset_jobs.nothing, pure=False).result(timeout=60)
        t_dc = time.perf_counter() - t0
        print(f"cancel a running 10 s job, then run an empty one: pool {t_pc * 1000:.0f} ms (stops at its next "
              f"report), distributed {t_dc:.1f} s (a running task is not interrupted: its thread runs on)")  # fmt: skip

        pool_rss = sum(psutil.Process(p).memory_info().rss for p in pool.worker_pids())
        info = client.run(lambda: __import__("psutil").Process().memory_info().rss)
        nanny = sum(psutil.Process(w.process.process.pid).memory_info().rss for w in cluster.workers.values()) \
            if False else 0  # fmt: skip
        del nanny
        worker_rss = sum(info.values())
        here = psutil.Process()
        kids = {c.pid: c.memory_info().rss for c in here.children(recursive=True)}
        dask_kids = sum(v for k, v in kids.items() if k not in pool.worker_pids())
        print(f"idle memory (RSS): pool worker {pool_rss / MB:.0f} MB; distributed worker {worker_rss / MB:.0f} MB, "
              f"with its Nanny and the pool's forkserver ({dask_kids / MB:.0f} MB of child processes besides the "
              f"pool's worker), scheduler in this process")  # fmt: skip
    finally:
        pool.shutdown()
        client.close()
        cluster.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=1000, help="MB of JSONL (default 1000: 1 GB)")
    ap.add_argument("--only", choices=("jsonl", "repo", "scaling", "pool"))
    ap.add_argument("--chat-size", type=int, default=20, help="MB of Batch requests counted as chat rows")
    ap.add_argument("--quick", action="store_true", help="--size 20 --chat-size 4")
    args = ap.parse_args()
    size, chat_size = (20, 4) if args.quick else (args.size, min(args.chat_size, args.size))
    print(
        f"bench_datasets: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}, JSONL of {size} MB"
    )
    if args.only in (None, "jsonl"):
        section_jsonl(size, chat_size)
    if args.only in (None, "repo"):
        section_repo()
    if args.only in (None, "scaling"):
        section_scaling(max(1, chat_size // 4))
    if args.only in (None, "pool"):
        section_pool()


if __name__ == "__main__":
    main()
