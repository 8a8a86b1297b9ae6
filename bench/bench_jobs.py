"""Where heavy work should leave the server's interpreter: BPE training in-process vs in the pool.

    python bench/bench_jobs.py            # corpus sizes 1K..1M characters, 1,000 merges, 3 rounds
    python bench/bench_jobs.py --quick    # fewer sizes, 1 round

For each corpus size (English prose, the page's default trainer settings: UTF-8 bytes, the
cl100k regex, 1,000 merges, 8 candidates recorded per merge) it times the training in this
process and the same job through a warm JobPool of one worker (submit, train, send the model
back). The pool adds a nearly fixed cost (pickling the model back, process hand-off); the
in-process run holds the interpreter lock every other session needs for its whole duration.
The page keeps a corpus in-process while its training takes about as long as one ordinary
rerun, and sends larger ones to the pool: see BPE_IN_PROCESS_MAX_CHARS in app_pages/bpe.py.
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
from tokenizer_core.tasks import train_bpe_task  # noqa: E402


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


if __name__ == "__main__":
    main()
