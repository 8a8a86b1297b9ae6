"""Charts of the BPE playground: training curves and merge counts, with the current step marked."""

from __future__ import annotations

import altair as alt
import pandas as pd

from ..tokenizers.colours import PADDING
from .encode import bpe_symbol_label
from .model import BPEModel

MAX_POINTS = 1500  # points drawn per line; longer runs are thinned evenly (the last merge kept)


def _indices(n: int, max_points: int = MAX_POINTS) -> list[int]:
    """Evenly spaced merge indices 0..n-1 (all when n <= max_points): ``_indices(3) -> [0, 1, 2]``."""
    if n <= max_points:
        return list(range(n))
    stride = n / max_points
    out = sorted({int(i * stride) for i in range(max_points)} | {n - 1})
    return out


def training_frame(model: BPEModel) -> pd.DataFrame:
    """One row per merge (thinned), plus the start: merges, vocabulary size, corpus tokens."""
    rows = [{"merges": 0, "vocabulary size": len(model.base), "corpus tokens": model.initial_tokens}]
    for i in _indices(len(model.steps)):
        s = model.steps[i]
        rows.append({"merges": s.rank, "vocabulary size": s.vocab_size, "corpus tokens": s.corpus_tokens})
    return pd.DataFrame(rows)


def _present(*charts: alt.Chart | None) -> list[alt.Chart]:
    return [c for c in charts if c is not None]


def _step_rule(step: int | None) -> alt.Chart | None:
    if step is None:
        return None
    return (
        alt.Chart(pd.DataFrame({"merges": [step]}))
        .mark_rule(color="#d1242f", strokeDash=[4, 3])
        .encode(x=alt.X("merges:Q"), tooltip=[alt.Tooltip("merges:Q", title="current step")])
    )


def training_chart(model: BPEModel, *, measure: str, step: int | None = None) -> alt.LayerChart:
    """A line of `measure` ("vocabulary size" or "corpus tokens") against merges, step marked."""
    if measure not in ("vocabulary size", "corpus tokens"):
        raise ValueError(f"measure must be 'vocabulary size' or 'corpus tokens', not {measure!r}")
    df = training_frame(model)
    color = "#0969da" if measure == "vocabulary size" else "#8250df"
    line = (
        alt.Chart(df)
        .mark_line(color=color, interpolate="step-after" if len(df) < 60 else "linear", point=len(df) < 60)
        .encode(
            x=alt.X("merges:Q", title="merges", axis=alt.Axis(tickMinStep=1, format="~s")),
            y=alt.Y(f"{measure}:Q", title=measure, scale=alt.Scale(zero=False), axis=alt.Axis(format="~s")),
            tooltip=[alt.Tooltip("merges:Q", format=","), alt.Tooltip(f"{measure}:Q", format=",")],
        )
    )
    title = "Vocabulary size" if measure == "vocabulary size" else "Corpus length in tokens"
    rule = _step_rule(step)
    # one layered chart with its properties: `.properties` on it would build it again
    return alt.LayerChart(layer=_present(line, rule), height=220, padding=PADDING, title=title)


def merge_count_chart(model: BPEModel, *, step: int | None = None, log: bool = False) -> alt.LayerChart:
    """The count of each merge against its rank (how often the merged pair occurred)."""
    idx = _indices(len(model.steps))
    df = pd.DataFrame(
        {
            "merges": [model.steps[i].rank for i in idx],
            "count": [model.steps[i].count for i in idx],
            "pair": [
                f"{bpe_symbol_label(model.steps[i].left)} + {bpe_symbol_label(model.steps[i].right)}"
                for i in idx
            ],
        }
    )
    few = len(df) < 60
    y = alt.Y("count:Q", title="pair count", scale=alt.Scale(type="log") if log else alt.Scale(zero=True))
    base = alt.Chart(df).encode(
        x=alt.X("merges:Q", title="merge rank", axis=alt.Axis(tickMinStep=1, format="~s")),
        y=y,
        tooltip=[
            alt.Tooltip("merges:Q", title="rank", format=","),
            alt.Tooltip("pair:N"),
            alt.Tooltip("count:Q", format=","),
        ],
    )
    marks = base.mark_bar(color="#1a7f37") if few else base.mark_line(color="#1a7f37")
    rule = _step_rule(step)
    return alt.LayerChart(
        layer=_present(marks, rule), height=220, padding=PADDING, title="Count of each merge"
    )


__all__ = ["merge_count_chart", "training_chart", "training_frame"]
