"""What one rerun of each chart page costs the server, in Streamlit's AppTest: this checkout
against another one (`--root`), alternately, in the same run.

    python bench/bench_reruns.py --root ../before      # 3 rounds, 10 reruns each
    python bench/bench_reruns.py --root ../before --quick
    python bench/bench_reruns.py                      # this checkout alone (no ratio)

Each round opens each page in a fresh process of each checkout (its own modules, its own
caches), drives it to all its charts (the identifiers page's three tabs, a trained BPE model),
reruns it twice to warm it, then takes the CPU time (`time.process_time`: the script thread
included) of 10 reruns. Nothing changes between those reruns, so they measure what a page costs
each time any widget of it is touched: the page's script, its cached results looked up, its charts
built and converted, its elements sent.

It prints, per page, the median CPU milliseconds of a rerun in each checkout and the median of the
rounds' ratios (other / this).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = ["app_pages/identifiers.py", "app_pages/bpe.py", "app_pages/chunks.py", "app_pages/languages.py"]
RERUNS = 10

# Run inside the checkout measured (its directory first on the path).
PROBE = r"""
import json, sys, time
sys.path.insert(0, ".")
from tests.conftest import ok, open_app

page = sys.argv[1]
at = open_app(page)
if page.endswith("identifiers.py"):
    for label in ("Naming styles", "Layout"):
        at.session_state["identifiers_tab"] = label
        ok(at.run())
if page.endswith("bpe.py"):
    ok(at.button(key="bpe_train").click().run())
for _ in range(2):
    ok(at.run())
start = time.process_time()
for _ in range(int(sys.argv[2])):
    ok(at.run())
print(json.dumps((time.process_time() - start) * 1000 / int(sys.argv[2])))
"""


def rerun_ms(root: Path, page: str, reruns: int) -> float:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, page, str(reruns)], cwd=root, capture_output=True, text=True, check=True
    )
    return float(json.loads(out.stdout.strip().splitlines()[-1]))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", type=Path, help="another checkout to measure against")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    rounds, reruns = (1, 3) if args.quick else (3, RERUNS)
    roots = {"this": ROOT} | ({"other": args.root.resolve()} if args.root else {})
    times: dict[tuple[str, str], list[float]] = {(p, r): [] for p in PAGES for r in roots}
    for _ in range(rounds):
        for page in PAGES:
            for name, root in roots.items():  # alternately, page by page
                times[(page, name)].append(rerun_ms(root, page, reruns))
    print(f"CPU ms of one rerun, median of {rounds} rounds of {reruns} reruns")
    print(f"{'page':<28} {'this':>8}" + (f" {'other':>8} {'other/this':>11}" if args.root else ""))
    for page in PAGES:
        line = f"{page:<28} {statistics.median(times[(page, 'this')]):>8.1f}"
        if args.root:
            ratios = [o / t for o, t in zip(times[(page, "other")], times[(page, "this")])]
            line += f" {statistics.median(times[(page, 'other')]):>8.1f} {statistics.median(ratios):>10.2f}x"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
