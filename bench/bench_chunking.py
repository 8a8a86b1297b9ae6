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

Small budgets (`--small-budgets` runs only this part): text where tokens
end inside grapheme clusters (Thai without spaces; combining marks; flags; emoji ZWJ families)
at sizes 1, 2 and 512, with strategies tokens and recursive. Two goals, both ratios in the same
run: (a) linear: the time per character for a text 4x longer is within 1.5x of the shorter
one's (a chunker that re-encodes the rest of the text after each hard cut is quadratic: 4x);
(b) size 1 costs at most 100x the time per character of size 512 on the same text. At size 1
each token is its own chunk and costs a few tokenizer calls, a Chunk and a grapheme check of
its ends, where at 512 one count serves about 500 tokens: a constant factor of this order is
the price of a chunk per token, not of the text's length. The page caps a run at 50,000
chunks, which bounds the absolute time at size 1.
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
from tokenizer_core import chunk_text, load_builtin
from tokenizer_core.chunking import check_chunks


def corpus(tokens: int, tokenizer_id: str) -> str:
    """English prose cut at exactly `tokens` tokens (whole characters) of the tokenizer."""
    tok = load_builtin(tokenizer_id)
    n_bytes = int(tokens * 4.8) + 100_000
    text = english_prose(n_bytes)
    ids = tok.encode(text)
    if len(ids) < tokens:
        raise SystemExit(f"the corpus has only {len(ids):,} tokens; raise the bytes estimate")
    return tok.decode(ids[:tokens]).rstrip("\ufffd")


SMALL_BUDGET_TEXTS = {
    "thai": "ภาษาไทยไม่มีช่องว่างระหว่างคำ",  # x100 is the 2,900 characters
    "marks": "e\u0301" * 15 + " n\u0303\u0323" * 3,  # x100: "e\u0301" * 1500 + " n\u0303\u0323" * 300
    "flags": "🇮🇳" * 8,
    "family": "👨\u200d👩\u200d👧\u200d👦" * 2,
}


def bench_small_budgets(*, repeat: int, tokenizer_id: str = "cl100k_base") -> bool:
    """Goals (a) and (b) of the module docstring; True when every case meets both."""
    tok = load_builtin(tokenizer_id)
    print(
        f"\nsmall budgets ({tokenizer_id}; n = {repeat} x the unit, 4n = {4 * repeat} x; CPU seconds of"
        " this process, best of 3: the machine may be shared)"
    )
    print(
        f"{'text':<7}{'strategy':<10}{'chars 4n':>9}{'s@1 n':>8}{'s@1 4n':>8}{'s@2 4n':>8}{'s@512 4n':>9}"
        f"{'linear (a)':>11}{'1 vs 512 (b)':>13}"
    )
    ok = True
    for name, unit in SMALL_BUDGET_TEXTS.items():
        short, long = unit * repeat, unit * 4 * repeat
        for strategy in ("tokens", "recursive"):

            def run(text: str, size: int, strategy: str = strategy) -> float:
                best = float("inf")
                for _ in range(3):
                    t = time.process_time()
                    result = chunk_text(text, tok, strategy=strategy, size=size)
                    best = min(best, time.process_time() - t)
                assert not check_chunks(text, result.chunks, tok, size=size)
                return best

            t1_short, t1_long = run(short, 1), run(long, 1)
            t2_long, t512_long = run(long, 2), run(long, 512)
            linear = (t1_long / len(long)) / (t1_short / len(short))
            vs512 = t1_long / t512_long
            good = linear <= 1.5 and vs512 <= 100
            ok &= good
            print(
                f"{name:<7}{strategy:<10}{len(long):>9,}{t1_short:>8.3f}{t1_long:>8.3f}{t2_long:>8.3f}"
                f"{t512_long:>9.3f}{linear:>10.2f}x{vs512:>12.0f}x{'' if good else '  MISSED'}"
            )
    print("goals: linear (a) <= 1.5x, 1 vs 512 (b) <= 100x (times per character)")
    return ok


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--small-budgets", action="store_true", help="run only the small-budget cases")
    ap.add_argument("--quick", action="store_true", help="0.3M tokens, one round")
    ap.add_argument("--tokens", type=int, default=3_000_000, help="corpus size in tokens")
    ap.add_argument("--rounds", type=int, default=3, help="rounds (median reported)")
    ap.add_argument("--size", type=int, default=512, help="chunk size in tokens")
    ap.add_argument("--tokenizer", default="cl100k_base")
    args = ap.parse_args()
    if args.small_budgets:
        bench_small_budgets(repeat=25 if args.quick else 100, tokenizer_id=args.tokenizer)
        return
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

    from tokenizer_core.tokenizers import split_for_batch

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
    bench_small_budgets(repeat=25 if args.quick else 100, tokenizer_id=args.tokenizer)


if __name__ == "__main__":
    main()
