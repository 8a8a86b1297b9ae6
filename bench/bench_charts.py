"""The charts of every page: what turning each into the spec a page sends costs, per run.

    python bench/bench_charts.py            # 30 rounds
    python bench/bench_charts.py --quick    # 5 rounds

Each page is opened in Streamlit's AppTest (and driven to its other charts: the identifiers
page's tabs, a BPE training, a counted repository), and every Altair chart it draws is caught.
Then, round after round, each chart is converted both ways, alternately, in this process:

- reference: Streamlit's own path for `st.altair_chart` (it checks the spec against the
  Vega-Lite schema, under a lock all sessions share);
- ours: `vega_lite_spec` (tokenizer_core/tokenizers/vega.py), which the pages send to
  `st.vega_lite_chart`, plus turning its tables into Arrow as Streamlit then does.

It prints, per page, the CPU milliseconds each way for all the charts caught (the runs above
draw each page's charts once or twice) and the median of the per-round ratios.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tokenizer_core.tokenizers import vega  # noqa: E402

CONVERT = vega.vega_lite_spec  # the pages' name for it is replaced below, to catch their charts


def page_charts() -> dict[str, list]:
    """page -> the Altair charts its runs drew, caught on their way to `vega_lite_spec`."""
    from tests.app_pages.test_charts import PAGES
    from tests.conftest import open_app

    caught = []

    def catch(chart):
        caught.append(chart)
        return CONVERT(chart)

    for module in list(sys.modules.values()):  # pages imported later take the name from `vega`
        if getattr(module, "vega_lite_spec", None) is CONVERT:
            module.vega_lite_spec = catch

    charts = {}
    for param in PAGES:
        page, state, more, _ = param.values
        caught.clear()
        at = open_app(page, state=state)
        if more:
            more(at)
        charts[param.id] = list({id(c): c for c in caught}.values())  # one chart drawn by two runs: once
    return charts


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    rounds = 5 if args.quick else 30
    from streamlit import dataframe_util
    from streamlit.elements.vega_charts import _convert_altair_to_vega_lite_spec

    def ours(chart):
        spec = CONVERT(chart)
        return {n: dataframe_util.convert_anything_to_arrow_bytes(d) for n, d in spec["datasets"].items()}

    charts = page_charts()
    print(
        f"Charts per page as drawn, converted both ways alternately ({rounds} rounds, CPU ms for all the charts caught)"
    )
    print(f"{'page':<13}{'charts':>7}{'altair_chart ms':>17}{'ours ms':>9}{'speed-up':>10}")
    for page, drawn in charts.items():
        theirs_t, ours_t = [], []
        for _ in range(rounds):
            for convert, acc in ((_convert_altair_to_vega_lite_spec, theirs_t), (ours, ours_t)):
                t = time.process_time()
                for chart in drawn:
                    convert(chart)
                acc.append(time.process_time() - t)
        ratio = statistics.median(a / b for a, b in zip(theirs_t, ours_t, strict=True) if b)
        print(
            f"{page:<13}{len(drawn):>7}{statistics.median(theirs_t) * 1e3:>17.1f}"
            f"{statistics.median(ours_t) * 1e3:>9.1f}{ratio:>9.1f}x"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
