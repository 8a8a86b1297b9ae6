"""The prompt versions' word diff (tokenizer_core/workspace/diff.py), which the workspace draws on
every run of its versions section while two versions are compared.

    python bench/bench_diff.py            # 20 rounds
    python bench/bench_diff.py --quick    # 3 rounds

Two versions of a 12,000-character prompt (a sample file repeated, as long prompts repeat their
words), compared four ways: the same text, one word changed in the middle, a paragraph added at
the end, and two different texts of that length. Each case is timed both ways, alternately:

- reference: difflib's matcher over all the words of both versions (how the diff was made before);
- ours: `diff_regions`, which matches lines first and then the words of the changed lines, keeps
  what both share at the start and end out of the matcher, and shows a stretch of changed lines too
  large to match word by word (`WORD_MATCH_BUDGET`) as one change.

It prints, per case, the median CPU milliseconds each way and the median of the per-round ratios,
and checks that both ways give back both texts.
"""

from __future__ import annotations

import argparse
import difflib
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tokenizer_core.workspace.diff import _WORDS, diff_regions  # noqa: E402


def cases() -> dict[str, tuple[str, str]]:
    sample = (ROOT / "tokenizer_core" / "bpe" / "train.py").read_text(encoding="utf-8")[:1000]
    other = (ROOT / "tokenizer_core" / "chunking" / "charts.py").read_text(encoding="utf-8")[:1000]
    long = (sample + "\n") * 12
    middle = len(long) // 2
    cut = long.index(" ", middle)
    return {
        "same text": (long, long),
        "one word changed": (long, long[:cut] + " changed" + long[cut:]),
        "a paragraph added": (long, long + "\nAnswer in one short sentence and cite the page.\n"),
        "different texts": (long, (other + "\n") * 12),
    }


def reference(old: str, new: str) -> list[tuple[str, str, str]]:
    a, b = _WORDS.findall(old), _WORDS.findall(new)
    ops = difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    return [(tag, "".join(a[i1:i2]), "".join(b[j1:j2])) for tag, i1, i2, j1, j2 in ops]


def ours(old: str, new: str) -> list[tuple[str, str, str]]:
    return [(r.tag, r.old, r.new) for r in diff_regions(old, new)]


def gives_back(old: str, new: str, regions: list[tuple[str, str, str]]) -> bool:
    return "".join(o for _, o, _ in regions) == old and "".join(n for _, _, n in regions) == new


def cpu_ms(fn, *args) -> float:
    start = time.process_time()
    fn(*args)
    return (time.process_time() - start) * 1000


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    rounds = 3 if parser.parse_args().quick else 20
    print(f"{'case':<20} {'words':>6} {'reference ms':>13} {'ours ms':>8} {'speed-up':>9}")
    for name, (old, new) in cases().items():
        assert gives_back(old, new, reference(old, new)) and gives_back(old, new, ours(old, new)), name
        theirs, mine, ratios = [], [], []
        for _ in range(rounds):
            t_ref, t_ours = cpu_ms(reference, old, new), cpu_ms(ours, old, new)
            theirs.append(t_ref)
            mine.append(t_ours)
            ratios.append(t_ref / max(t_ours, 1e-3))
        print(f"{name:<20} {len(_WORDS.findall(old)):>6,} {statistics.median(theirs):>13.2f}"
              f" {statistics.median(mine):>8.2f} {statistics.median(ratios):>8.1f}x")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
