"""Language cost page: how much the metrics layer costs over bare token counting, in one run.

    python bench/bench_languages.py            # full run (5 repeats)
    python bench/bench_languages.py --quick    # smaller texts, 3 repeats

1. The whole language x tokenizer table (`language_table`: counts, characters, bytes, words,
   premium) for the bundled 26-language sample and every built-in tokenizer, against the bare
   reference: `len(tok.encode(text))` for every language and tokenizer, same objects, same run.
   Goal: table >= 0.8x reference (the metrics must be nearly free).
2. The same with each language's text repeated to about 100 KB (2.6 MB per tokenizer): a
   user's long translations. `count_many` batches large inputs in tiktoken's thread pool.
3. Parsing a CSV of 500 translations (the upload limit, about 0.5 MB), including script
   detection for languages the sample does not know, against `csv.reader` alone. Goal: < 0.5 s.
4. The cost table for every shipped model (tokenizers already measured): goal < 10 ms.
5. The whole page in Streamlit's AppTest: first run, and a rerun after changing the base.
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import median_time  # noqa: E402
from tokenizer_core import BUILTINS, Language, language_table, load_builtin
from tokenizer_core.languages import load_parallel_sample, parse_translations_csv
from tokenizer_core.languages.costs import Workload, cost_table


def paired(reference, ours, repeats: int) -> tuple[float, float, float]:
    """Median seconds of each, and the median of the per-round speed ratios (reference / ours).

    The two run alternately, so load from other processes on a shared machine hits both alike.
    """
    ref_t, our_t = [], []
    for _ in range(repeats):
        for fn, acc in ((reference, ref_t), (ours, our_t)):
            t = time.perf_counter()
            fn()
            acc.append(time.perf_counter() - t)
    ratios = [r / o for r, o in zip(ref_t, our_t, strict=True)]
    return statistics.median(ref_t), statistics.median(our_t), statistics.median(ratios)


def bench_table(langs: list[Language], toks, repeats: int, title: str) -> list:
    mb = sum(len(l.text.encode("utf-8")) for l in langs) / 1e6
    print(f"\n{title} ({len(langs)} languages, {mb:.2f} MB per tokenizer, median of {repeats})")

    def reference():
        return [[len(t.encode(l.text)) for l in langs] for t in toks]

    ref = reference()
    rows = language_table(langs, toks, base="en")
    assert [[r.tokens for r in rows if r.tokenizer_id == t.id] for t in toks] == ref  # same counts
    ref_s, table_s, ratio = paired(reference, lambda: language_table(langs, toks, base="en"), repeats)
    print(f"{'cells':>7}{'reference s':>13}{'table s':>10}{'table speed vs reference':>26}")
    print(f"{len(rows):>7}{ref_s:>13.4f}{table_s:>10.4f}{ratio:>25.2f}x")
    return rows


def bench_csv(repeats: int, n: int) -> None:
    sample = load_parallel_sample()
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["language", "text"])
    for i in range(n):
        lang = sample[i % len(sample)]
        # unknown names: every row goes through script detection
        w.writerow([f"{lang.name} variant {i}", lang.text * 3])
    data = buf.getvalue().encode("utf-8")
    print(f"\n3. CSV of {n} translations, {len(data) / 1e6:.2f} MB (median of {repeats}; goal < 0.5 s)")
    res = parse_translations_csv(data, filename="bench.csv", known=sample)
    assert len(res.languages) == n and not res.problems
    ref_s = median_time(lambda: list(csv.reader(io.StringIO(data.decode("utf-8")))), repeats)
    ours = median_time(lambda: parse_translations_csv(data, filename="bench.csv", known=sample), repeats)
    print(f"{'csv.reader s':>13}{'parse s':>10}{'per row ms':>12}")
    print(f"{ref_s:>13.4f}{ours:>10.4f}{1000 * ours / n:>12.3f}")


def bench_cost(rows, repeats: int) -> None:
    from datetime import date

    from tokenizer_core.catalog.entries import CATALOG
    from tokenizer_core.catalog.prices import price_table

    prices = list(price_table(CATALOG, on=date.today()).prices)
    w = Workload(100_000, 1_500, 300)
    costs, _ = cost_table(rows, prices, w)
    s = median_time(lambda: cost_table(rows, prices, w), repeats)
    print(f"\n4. Cost table: {len(costs)} rows for {len(prices)} models: {1000 * s:.2f} ms (goal < 10 ms)")


def bench_page(repeats: int) -> None:
    """The whole page in Streamlit's AppTest: first run (tokenizers already loaded by the
    process, results not cached) and a rerun after changing the base language."""
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    root = Path(__file__).resolve().parent.parent
    first, rerun = [], []
    for _ in range(repeats):
        st.cache_data.clear()
        at = AppTest.from_file(str(root / "streamlit_app.py"), default_timeout=120)
        at.run()
        t = time.perf_counter()
        at.switch_page("app_pages/languages.py").run()
        first.append(time.perf_counter() - t)
        assert not at.exception, at.exception
        t = time.perf_counter()
        at.selectbox(key="languages_base").set_value("hi").run()
        rerun.append(time.perf_counter() - t)
        assert not at.exception, at.exception
    print(
        f"\n5. The page in AppTest (26 languages x 5 tokenizers, cost for 9 models, median of {repeats}): "
        f"first run {statistics.median(first):.2f} s, base language changed {statistics.median(rerun):.2f} s"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="smaller texts, 3 repeats")
    args = ap.parse_args()
    repeats = 3 if args.quick else 5
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{os.cpu_count()} CPUs, load average {load} (other processes slow both sides alike)")
    t = time.perf_counter()
    toks = [load_builtin(i) for i in BUILTINS]
    print(f"Loaded {len(toks)} tokenizers in {time.perf_counter() - t:.2f} s (not timed below)")
    sample = load_parallel_sample()
    rows = bench_table(sample, toks, 5 * repeats, "1. Bundled sample, every built-in tokenizer")
    target = 20_000 if args.quick else 100_000
    long = [
        Language(l.code, l.name, l.script, "\n".join([l.text] * max(1, target // len(l.text))),
                 l.whitespace_words, l.direction)
        for l in sample
    ]  # fmt: skip
    bench_table(long, toks, repeats, f"2. Each text repeated to ~{target // 1000} KB")
    bench_csv(repeats, 100 if args.quick else 500)
    bench_cost(rows, repeats)
    bench_page(2 if args.quick else 3)


if __name__ == "__main__":
    main()
