"""Loading cost of the built-in tokenizers: start-up time and resident memory (RSS).

    python bench/bench_loading.py            # 3 fresh processes per scenario
    python bench/bench_loading.py --quick    # 1 process per scenario

Each scenario runs in fresh Python processes (so nothing is cached between them) and reports
the median wall time to import tokenizer_core and load the scenario's tokenizers, and the RSS
afterwards. Scenarios, all measured in the same run:

* import only: what the app pays before anyone picks a tokenizer (the reference);
* default: the counter's default tokenizers (what the first page load costs);
* all before: every built-in tokenizer the app had before Llama 4, Gemma 2/3 and the classic
  Mistral (SentencePiece) vocabularies were added;
* all after: every built-in tokenizer now;
* each new family alone, on top of the import.

Built-ins load on first use (st.cache_resource per id), so a family nobody selects costs
nothing: compare "default" before and after, not "all".
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

NEW_FAMILIES = ("llama4", "gemma3", "gemma2", "mistral_sp_v7", "mistral_sp_v3", "mistral_sp_v1")

_CHILD = r"""
import json, resource, sys, time
t = time.perf_counter()
import tokenizer_core
from tokenizer_core import load_builtin
imported = time.perf_counter() - t
per = {}
kept = []  # held, as the app's cache holds every tokenizer it loaded
for tid in sys.argv[1:]:
    s = time.perf_counter()
    kept.append(load_builtin(tid))
    kept[-1].count("warm up the encoder once")
    per[tid] = time.perf_counter() - s
rss = 0
with open("/proc/self/status") as f:
    for line in f:
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1]) * 1024
print(json.dumps({"seconds": time.perf_counter() - t, "import": imported, "per": per, "rss": rss,
                  "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}))
"""


def _run(ids: list[str]) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, *ids], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def measure(ids: list[str], repeats: int) -> dict:
    """Median seconds, RSS and peak RSS over `repeats` fresh processes loading `ids`."""
    runs = [_run(ids) for _ in range(repeats)]
    per = {tid: statistics.median(r["per"][tid] for r in runs) for tid in ids}
    return {
        "seconds": statistics.median(r["seconds"] for r in runs),
        "rss": statistics.median(r["rss"] for r in runs),
        "peak": statistics.median(r["peak"] for r in runs),
        "per": per,
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one process per scenario")
    args = parser.parse_args(argv)
    repeats = 1 if args.quick else 3

    sys.path.insert(0, str(ROOT))
    from tokenizer_core import BUILTINS
    from tokenizer_core.tokenizers import DEFAULT_IDS

    after = list(BUILTINS)
    before = [t for t in after if t not in NEW_FAMILIES]
    scenarios = {
        "import only (reference)": [],
        "default tokenizers": list(DEFAULT_IDS),
        f"all before ({len(before)})": before,
        f"all after ({len(after)})": after,
        **{f"{tid} alone": [tid] for tid in NEW_FAMILIES},
    }
    results = {name: measure(ids, repeats) for name, ids in scenarios.items()}
    ref = results["import only (reference)"]
    mb = 1e6
    print(f"{'scenario':<28}{'seconds':>9}{'x import':>10}{'RSS MB':>9}{'+MB':>8}{'peak MB':>9}")
    for name, r in results.items():
        print(
            f"{name:<28}{r['seconds']:>9.2f}{r['seconds'] / ref['seconds']:>10.1f}"
            f"{r['rss'] / mb:>9.0f}{(r['rss'] - ref['rss']) / mb:>8.0f}{r['peak'] / mb:>9.0f}"
        )
    allr = results[f"all after ({len(after)})"]
    print("\nload time per tokenizer in the 'all after' process (s):")
    print("  " + ", ".join(f"{tid} {s:.2f}" for tid, s in allr["per"].items()))
    b, a = results[f"all before ({len(before)})"], allr
    print(
        f"\nall families: {a['seconds'] / b['seconds']:.2f}x the time and "
        f"{a['rss'] / b['rss']:.2f}x the RSS of before ({(a['rss'] - b['rss']) / mb:+.0f} MB)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
