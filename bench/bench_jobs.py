"""Where heavy work should leave the server's interpreter: in-process vs in the worker pool.

    python bench/bench_jobs.py            # corpus sizes 1K..1M characters, 1,000 merges, 3 rounds
    python bench/bench_jobs.py --quick    # fewer sizes, 1 round

For each corpus size (English prose, the page's default trainer settings: UTF-8 bytes, the
cl100k regex, 1,000 merges, 8 candidates recorded per merge) it times the training in this
process and the same job through a warm JobPool of one worker (submit, train, send the model
back). The pool adds a nearly fixed cost (pickling the model back, process hand-off); the
in-process run holds the interpreter lock every other session needs for its whole duration.
The page keeps a corpus in-process while its training takes about as long as one ordinary
rerun, and sends larger ones to the pool: see BPE_IN_PROCESS_MAX_CHARS in app_pages/bpe.py.
The same for the identifiers page's analysis (standard-library Python code, the three default
tokenizers, which each worker loads once): IDENT_IN_PROCESS_MAX_CHARS in app_pages/identifiers.py.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.corpus import english_prose  # noqa: E402
from tokenizer_core import BPEOptions  # noqa: E402
from tokenizer_core.jobs import JobPool  # noqa: E402
from tokenizer_core.tasks import analyse_identifiers_task, train_bpe_task, worker_builtin  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--merges", type=int, default=1_000)
    args = ap.parse_args()
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


if __name__ == "__main__":
    main()
