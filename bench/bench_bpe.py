"""BPE training speed: our incremental trainer vs Hugging Face `tokenizers` and the textbook loop.

    python bench/bench_bpe.py            # 10 MB English prose, cl100k regex, 8,000 merges, 3 rounds
    python bench/bench_bpe.py --quick    # 1 MB, 1,000 merges, 1 round (a smoke run)
    python bench/bench_bpe.py --help     # sizes, merges, rounds

Every measurement runs in a fresh Python process, the methods interleaved round by round, and
the table shows medians of wall-clock time and of CPU time (all threads of the process; it
varies less than wall time on a busy machine). Compare within one run.
Each process reads the same cached corpus (bench/corpus.py) and times only the training,
pre-tokenization included: reading the file and importing libraries are not timed.

* ours: tokenizer_core's incremental trainer (byte-level, no marker, the cl100k regex,
  ties to the alphabetically smallest pair), pure Python.
* HF 1 thread: `tokenizers.trainers.BpeTrainer` with the same regex (Split, isolated) and
  ByteLevel, vocab 256 + merges, RAYON_NUM_THREADS=1 set in the child's environment.
* HF 2 threads: the same with the default thread pool (shown for reference).
* textbook: the seeds' loop (recount every pair of every distinct word, rewrite every word,
  per merge) on the same word counts. Running it for all merges would take half an hour, so
  its cost per merge is measured over a few merges at 5 points of the run (merge 0, 1/4, 1/2,
  3/4 and the end), each started from the corpus as our trainer left it at that point, and
  integrated over the run (trapezoid rule), plus its pre-tokenization. At every point it is
  checked to pick the same merges as ours.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.corpus import OUT, english_prose  # noqa: E402

PATTERN = "cl100k"


# ------------------------------------------------------------------ child processes


def _peak_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child_ours(corpus: Path, merges: int) -> dict:
    from tokenizer_core import BPEOptions
    from tokenizer_core.bpe import BPETrainer, count_words

    text = corpus.read_text(encoding="utf-8")
    c0 = time.process_time()
    t0 = time.perf_counter()
    counts = count_words(text, pretokenizer=PATTERN)
    t1 = time.perf_counter()
    trainer = BPETrainer(counts, BPEOptions(symbols="bytes", pretokenizer=PATTERN, merges=merges))
    t2 = time.perf_counter()
    for _ in trainer:
        pass
    t3 = time.perf_counter()
    cpu = time.process_time() - c0
    steps = trainer.steps
    return {
        "seconds": t3 - t0, "cpu": cpu, "pretokenize": t1 - t0, "setup": t2 - t1, "loop": t3 - t2,
        "merges": len(steps), "words": len(counts), "peak_mb": _peak_mb(),
        "first": [[s.left.hex(), s.right.hex()] for s in steps[:2000]],
    }  # fmt: skip


def child_hf(corpus: Path, merges: int) -> dict:
    from tokenizers import Regex, Tokenizer, models, pre_tokenizers, trainers

    from tokenizer_core.tokenizers import PATTERNS
    from tokenizer_core.tokenizers.encoders import split_for_batch

    text = corpus.read_text(encoding="utf-8")
    chunks = split_for_batch(text, 100_000)
    tk = Tokenizer(models.BPE())
    tk.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(PATTERNS[PATTERN].regex), behavior="isolated"),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
    ])  # fmt: skip
    trainer = trainers.BpeTrainer(
        vocab_size=256 + merges, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), min_frequency=0,
        show_progress=False, special_tokens=[],
    )  # fmt: skip
    c0 = time.process_time()
    t0 = time.perf_counter()
    tk.train_from_iterator(chunks, trainer=trainer)
    t1 = time.perf_counter()
    cpu = time.process_time() - c0
    model = json.loads(tk.to_str())["model"]
    from tokenizer_core.tokenizers.hf_engine import _gpt2_byte_decoder

    dec = _gpt2_byte_decoder()

    def raw(s: str) -> str:
        return bytes(dec[c] for c in s).hex()

    pairs = [m.split(" ") if isinstance(m, str) else m for m in model["merges"][:2000]]
    return {
        "seconds": t1 - t0,
        "cpu": cpu,
        "merges": len(model["merges"]),
        "peak_mb": _peak_mb(),
        "threads": os.environ.get("RAYON_NUM_THREADS", "default"),
        "first": [[raw(a), raw(b)] for a, b in pairs],
    }


def _textbook_loop(corpus: dict[tuple[bytes, ...], int], merges: int) -> list[tuple[bytes, bytes, int]]:
    """The seeds' algorithm: recount all pairs, take the most frequent (ties: smallest), rewrite."""
    from collections import Counter

    out = []
    for _ in range(merges):
        pairs: Counter = Counter()
        for syms, f in corpus.items():
            for a, b in zip(syms, syms[1:]):
                pairs[a, b] += f
        if not pairs:
            break
        best = min(pairs, key=lambda p: (-pairs[p], p))
        out.append((best[0], best[1], pairs[best]))
        new = {}
        for syms, f in corpus.items():
            merged, i = [], 0
            while i < len(syms):
                if i < len(syms) - 1 and (syms[i], syms[i + 1]) == best:
                    merged.append(syms[i] + syms[i + 1])
                    i += 2
                else:
                    merged.append(syms[i])
                    i += 1
            new[tuple(merged)] = f
        corpus = new
    return out


def child_textbook(corpus: Path, merges: int, sample: int) -> dict:
    """Time the textbook loop for `sample` merges at 5 points of the run, starting each from the
    corpus as our trainer left it there (and check it picks the same merges as ours)."""
    from tokenizer_core import BPEOptions, train_bpe
    from tokenizer_core.bpe import MergeEncoder, count_words

    text = corpus.read_text(encoding="utf-8")
    t0 = time.perf_counter()
    counts = count_words(text, pretokenizer=PATTERN)
    pretokenize = time.perf_counter() - t0
    model = train_bpe(counts, BPEOptions(symbols="bytes", pretokenizer=PATTERN, merges=merges))
    enc = MergeEncoder(model)
    n = len(model.steps)
    points = sorted({0, n // 4, n // 2, 3 * n // 4, max(0, n - sample)})
    costs, same = [], True
    for k in points:
        state = {
            tuple(model.vocab[i] for i in enc.apply(enc.start_ids(w), k)[0]): f for w, f in counts.items()
        }
        t1 = time.perf_counter()
        done = _textbook_loop(state, sample)
        costs.append((time.perf_counter() - t1) / max(len(done), 1))
        same &= [(a, b) for a, b, _ in done] == model.merges[k : k + len(done)]
    # trapezoid rule over the run: total loop time for all n merges
    total = sum((points[i + 1] - points[i]) * (costs[i] + costs[i + 1]) / 2 for i in range(len(points) - 1))
    total += (n - points[-1]) * costs[-1]
    return {
        "seconds": pretokenize + total, "pretokenize": pretokenize, "points": points, "costs": costs,
        "sample": sample, "same": same, "peak_mb": _peak_mb(),
    }  # fmt: skip


CHILDREN = {"ours": child_ours, "hf": child_hf, "textbook": child_textbook}


def run_child(
    kind: str, corpus: Path, merges: int, env_extra: dict[str, str] | None = None, sample: int = 0
) -> dict:
    env = {**os.environ, **(env_extra or {})}
    if kind == "hf" and not env_extra:
        env.pop("RAYON_NUM_THREADS", None)
    proc = subprocess.run(
        [sys.executable, __file__, "--child", kind, "--corpus", str(corpus), "--merges", str(merges),
         "--textbook-merges", str(sample)],
        capture_output=True, text=True, env=env, cwd=ROOT,
    )  # fmt: skip
    if proc.returncode != 0:
        raise RuntimeError(f"{kind} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


# ------------------------------------------------------------------------- parent


def _agree(a: list, b: list) -> int:
    """How many leading merges two runs share."""
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--quick", action="store_true", help="1 MB, 1,000 merges, 1 round, 5 textbook merges per point"
    )
    ap.add_argument("--mb", type=float, default=None, help="corpus size in MB (default 10)")
    ap.add_argument("--merges", type=int, default=None, help="merges to learn (default 8,000)")
    ap.add_argument("--rounds", type=int, default=None, help="rounds of every method (default 3)")
    ap.add_argument(
        "--textbook-merges",
        type=int,
        default=None,
        help="textbook merges timed at each of 5 points (default 20)",
    )
    ap.add_argument("--no-hf2", action="store_true", help="skip HF with its default thread pool")
    ap.add_argument("--child", choices=sorted(CHILDREN), help=argparse.SUPPRESS)
    ap.add_argument("--corpus", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        extra = (args.textbook_merges,) if args.child == "textbook" else ()
        print(json.dumps(CHILDREN[args.child](args.corpus, args.merges, *extra)))
        return

    mb = args.mb if args.mb is not None else (1 if args.quick else 10)
    merges = args.merges if args.merges is not None else (1000 if args.quick else 8000)
    rounds = args.rounds if args.rounds is not None else (1 if args.quick else 3)
    tb_merges = args.textbook_merges if args.textbook_merges is not None else (5 if args.quick else 20)
    n_bytes = int(mb * 1_000_000)
    english_prose(n_bytes)  # build and cache the corpus once
    corpus = OUT / f"prose_{n_bytes}_0.txt"
    print(f"corpus: {corpus} ({corpus.stat().st_size:,} bytes of English prose), regex {PATTERN}, "
          f"{merges:,} merges, {rounds} round(s); python {sys.version.split()[0]}, {os.cpu_count()} cpus")  # fmt: skip

    results: dict[str, list[dict]] = {"ours": [], "hf1": [], "hf2": [], "textbook": []}
    for r in range(rounds):
        results["ours"].append(run_child("ours", corpus, merges))
        results["hf1"].append(run_child("hf", corpus, merges, {"RAYON_NUM_THREADS": "1"}))
        if not args.no_hf2:
            results["hf2"].append(run_child("hf", corpus, merges))
        print(f"  round {r + 1}: ours {results['ours'][-1]['seconds']:.2f} s, "
              f"HF 1 thread {results['hf1'][-1]['seconds']:.2f} s", flush=True)  # fmt: skip
    results["textbook"].append(run_child("textbook", corpus, merges, sample=tb_merges))

    def med(kind: str, key: str = "seconds") -> float:
        return statistics.median(x[key] for x in results[kind])

    ours = med("ours")
    tb = results["textbook"][0]
    tb_total = tb["seconds"]
    rows = [
        ("ours: incremental, pure Python", ours, results["ours"][0]["merges"], med("ours", "peak_mb"),
         f"pre-tokenize {med('ours', 'pretokenize'):.2f} s + pair setup {med('ours', 'setup'):.2f} s + "
         f"merge loop {med('ours', 'loop'):.2f} s; {results['ours'][0]['words']:,} distinct words"),
        ("HF tokenizers BpeTrainer, RAYON_NUM_THREADS=1", med("hf1"), results["hf1"][0]["merges"], med("hf1", "peak_mb"), ""),
    ]  # fmt: skip
    if results["hf2"]:
        rows.append(("HF tokenizers BpeTrainer, default threads", med("hf2"), results["hf2"][0]["merges"],
                     med("hf2", "peak_mb"), "for reference only"))  # fmt: skip
    costs = ", ".join(f"{c:.3f} s at merge {p:,}" for p, c in zip(tb["points"], tb["costs"]))
    rows.append((
        f"textbook loop (sampled, integrated over {merges:,} merges)", tb_total, merges, tb["peak_mb"],
        f"pre-tokenize {tb['pretokenize']:.2f} s + per-merge cost sampled over {tb['sample']} merges at 5 "
        f"points ({costs}), trapezoid rule",
    ))  # fmt: skip
    print()
    cpus = {"ours": med("ours", "cpu"), "hf1": med("hf1", "cpu")}
    if results["hf2"]:
        cpus["hf2"] = med("hf2", "cpu")
    print("| method | median wall time | median CPU time | merges | peak RSS | notes |")
    print("|---|---:|---:|---:|---:|---|")
    for (name, sec, m, peak, note), key in zip(rows, [*cpus, "textbook"]):
        cpu = f"{cpus[key]:.2f} s" if key in cpus else "–"
        print(f"| {name} | {sec:.2f} s | {cpu} | {m:,} | {peak:.0f} MB | {note} |")
    print()
    hf1 = med("hf1")
    per_round = [h["seconds"] / o["seconds"] for o, h in zip(results["ours"], results["hf1"])]
    print(
        f"HF 1 thread / ours = {hf1 / ours:.2f}x on median wall time, {statistics.median(per_round):.2f}x median "
        f"of the per-round ratios {[round(r, 2) for r in per_round]}, {cpus['hf1'] / cpus['ours']:.2f}x on CPU "
        "time  (goal: >= 1.00, ours no slower)"
    )
    print(f"textbook / ours    = {tb_total / ours:.0f}x  (goal: >= 100)")
    print(f"all runs (s): ours {[round(x['seconds'], 2) for x in results['ours']]}, "
          f"HF 1 thread {[round(x['seconds'], 2) for x in results['hf1']]}"
          + (f", HF default {[round(x['seconds'], 2) for x in results['hf2']]}" if results["hf2"] else ""))  # fmt: skip
    print(
        "textbook loop picked the same merges as ours at every sampled point: "
        + ("yes" if tb["same"] else "NO (a bug)")
    )
    same_hf = _agree(results["ours"][0]["first"], results["hf1"][0]["first"])
    print(
        f"HF and ours agree on the first {same_hf:,} merges (HF breaks ties by token id, ours alphabetically)"
    )


if __name__ == "__main__":
    main()
