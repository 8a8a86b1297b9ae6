"""Chunking speed against semchunk, on the same text and tokenizer, in one run.

    python bench/bench_chunking.py            # ~3.0M tokens of English prose, 512-token chunks
    python bench/bench_chunking.py --quick    # ~0.3M tokens, one round (smoke run)

semchunk (a dev dependency, pinned in requirements-dev.txt) published 3.0M tokens into
512-token chunks in 3.04 s on a desktop CPU; this runs the same kind of job here. semchunk gets
a token counter built from the same tiktoken encoding our tokenizer wraps, and a fresh chunker
per round (its memo cache would otherwise carry over). Each round runs every contender once,
in rotating order; the table shows medians. Timings include everything each side does to
return chunks with offsets: our token counts are the tokenizer's own count of each chunk.
After timing, every chunk of our last run is checked from scratch (offsets, cover, counts).
A "floor" row times one tiktoken pass over the corpus on two threads and nothing else: no chunker
that reports each chunk's real count can be faster than that with tiktoken. Our token windows can:
for texts from 500,000 characters the core encodes with splintr's native encoder (5-8x faster,
checked at load and in the tests to give tiktoken's ids).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.corpus import english_prose  # noqa: E402
from tokenizer_core import check_chunks, chunk_text, load_builtin  # noqa: E402


def corpus(tokens: int, tokenizer_id: str) -> str:
    """English prose cut at exactly `tokens` tokens (whole characters) of the tokenizer."""
    tok = load_builtin(tokenizer_id)
    n_bytes = int(tokens * 4.8) + 100_000
    text = english_prose(n_bytes)
    ids = tok.encode(text)
    if len(ids) < tokens:
        raise SystemExit(f"the corpus has only {len(ids):,} tokens; raise the bytes estimate")
    return tok.decode(ids[:tokens]).rstrip("\ufffd")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="0.3M tokens, one round")
    ap.add_argument("--tokens", type=int, default=3_000_000, help="corpus size in tokens")
    ap.add_argument("--rounds", type=int, default=3, help="rounds (median reported)")
    ap.add_argument("--size", type=int, default=512, help="chunk size in tokens")
    ap.add_argument("--tokenizer", default="cl100k_base")
    args = ap.parse_args()
    if args.quick:
        args.tokens, args.rounds = 300_000, 1

    import semchunk

    tok = load_builtin(args.tokenizer)
    enc = tok.encoding
    t0 = time.perf_counter()
    text = corpus(args.tokens, args.tokenizer)
    print(
        f"corpus: {len(text):,} characters, {len(text.encode('utf-8')) / 1e6:.2f} MB, "
        f"{args.tokens:,} {args.tokenizer} tokens (built in {time.perf_counter() - t0:.1f} s)"
    )
    print(f"machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}, "
          f"semchunk {semchunk.__version__ if hasattr(semchunk, '__version__') else '4.1.1'}")  # fmt: skip

    def run_semchunk():
        chunker = semchunk.chunkerify(lambda s: len(enc.encode_ordinary(s)), args.size)
        chunks, offsets = chunker(text, offsets=True)
        return len(chunks)

    from tokenizer_core import split_for_batch

    pieces = split_for_batch(text)

    def one_pass() -> int:
        return sum(map(len, enc.encode_ordinary_batch(pieces, num_threads=2)))

    contenders = {
        "semchunk (reference)": run_semchunk,
        "floor: one tiktoken pass, 2 threads": one_pass,
        "ours: token windows": lambda: len(chunk_text(text, tok, strategy="tokens", size=args.size).chunks),
        "ours: recursive": lambda: len(chunk_text(text, tok, strategy="recursive", size=args.size).chunks),
        "ours: sentences": lambda: len(chunk_text(text, tok, strategy="sentences", size=args.size).chunks),
        "ours: token windows, 10% overlap": lambda: len(
            chunk_text(text, tok, strategy="tokens", size=args.size, overlap=args.size // 10).chunks
        ),
    }
    times: dict[str, list[float]] = {k: [] for k in contenders}
    counts: dict[str, int] = {}
    names = list(contenders)
    for r in range(args.rounds):
        order = names[r % len(names) :] + names[: r % len(names)]
        for name in order:
            t = time.perf_counter()
            counts[name] = contenders[name]()
            times[name].append(time.perf_counter() - t)
        print(
            f"round {r + 1}/{args.rounds}: "
            + ", ".join(f"{n.split(': ')[-1].split(',')[0]} {times[n][-1]:.2f}s" for n in names)
        )

    ref = statistics.median(times["semchunk (reference)"])
    print()
    print(f"{'method':<36} {'chunks':>7} {'median s':>9} {'M tokens/s':>11} {'vs semchunk':>12}")
    print("-" * 79)
    for name in names:
        med = statistics.median(times[name])
        shown = counts[name] if name != "floor: one tiktoken pass, 2 threads" else 0
        print(f"{name:<36} {shown:>7,} {med:>9.2f} {args.tokens / med / 1e6:>11.2f} {ref / med:>11.1f}x")
    print("\n(vs semchunk = semchunk's median time / this method's median time; higher is faster)")
    print("targets: token windows >= 5x, recursive >= 1x")
    floor = statistics.median(times["floor: one tiktoken pass, 2 threads"])
    print(
        f"the floor (encoding the corpus once, nothing else) is {ref / floor:.1f}x semchunk; "
        f"token windows take {statistics.median(times['ours: token windows']) / floor:.2f}x the floor"
    )

    print("\nchecking every chunk of one run per strategy from scratch ...")
    for strategy in ("tokens", "recursive", "sentences"):
        result = chunk_text(text, tok, strategy=strategy, size=args.size)
        problems = check_chunks(text, result.chunks, tok, size=args.size)
        status = "ok" if not problems else f"{len(problems)} problems, first: {problems[0]}"
        print(
            f"  {strategy:<10} {len(result.chunks):>6,} chunks, max {max(c.tokens for c in result.chunks)} tokens: {status}"
        )


if __name__ == "__main__":
    main()
