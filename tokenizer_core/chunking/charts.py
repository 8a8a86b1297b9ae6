"""Charts of the chunk previewer: chunk sizes as a histogram and along the document."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import pandas as pd

from ..tokenizers.colours import PADDING
from .pack import Chunk


def _bin_step(size: int) -> int:
    """A round bin width giving about 20-40 bins up to `size`: ``_bin_step(512) -> 16``."""
    for step in (1, 2, 4, 5, 8, 10, 16, 20, 25, 32, 50, 64, 100, 128, 200, 250, 256, 500, 512, 1000):
        if size / step <= 40:
            return step
    return max(1, size // 32)


def size_bins(tokens: Sequence[int], *, step: int, top: int) -> pd.DataFrame:
    """Chunks per bin of `step` tokens from 0 past `top`: columns lo, hi (exclusive), chunks.

    ``size_bins([3, 5, 9], step=4, top=9)`` -> rows (0, 4, 1), (4, 8, 1), (8, 12, 1).
    """
    n_bins = top // step + 1
    counts = [0] * n_bins
    for t in tokens:
        counts[min(t // step, n_bins - 1)] += 1
    return pd.DataFrame(
        {
            "lo": [k * step for k in range(n_bins)],
            "hi": [(k + 1) * step for k in range(n_bins)],
            "chunks": counts,
        }
    )


def chunk_size_histogram(chunks: Sequence[Chunk], *, size: int, limit: int | None = None) -> alt.LayerChart:
    """Histogram of tokens per chunk, with a rule at the budget (and the model limit if given).

    Bins are a round width from 0 to the largest of the budget and the biggest chunk, so an
    unfilled tail is visible at a glance. They are counted here, so the chart sends one row per
    bin (about 40), not one per chunk.
    """
    tokens = [c.tokens for c in chunks]
    top = max([size, *tokens]) if tokens else size
    step = _bin_step(top)
    df = size_bins(tokens, step=step, top=top)
    df["range"] = [f"{lo:,}–{hi - 1:,}" for lo, hi in zip(df["lo"], df["hi"])]
    bars = (
        alt.Chart(df)
        .mark_bar(color="#4c78a8")
        .encode(
            x=alt.X("lo:Q", title="tokens per chunk", scale=alt.Scale(domain=[0, top + step], nice=False)),
            x2="hi:Q",
            # whole chunks: integer ticks only (no 0.5 chunk on a short axis)
            y=alt.Y("chunks:Q", title="chunks", axis=alt.Axis(tickMinStep=1, format="d")),
            y2=alt.datum(0),  # bars rise from zero (with x2 set, Vega-Lite would lay them flat)
            tooltip=[
                alt.Tooltip("range:N", title="tokens"),
                alt.Tooltip("chunks:Q", title="chunks", format=","),
            ],
        )
    )
    rules = pd.DataFrame(
        [{"at": size, "what": f"budget {size:,}"}]
        + ([{"at": limit, "what": f"model limit {limit:,}"}] if limit and limit != size else [])
    )
    rule = (
        alt.Chart(rules)
        .mark_rule(strokeDash=[4, 3], strokeWidth=2)
        .encode(
            x="at:Q",
            color=alt.Color("what:N", scale=alt.Scale(range=["#d1242f", "#8250df"]), title=None,
                            legend=alt.Legend(orient="top")),
            tooltip=[alt.Tooltip("what:N", title="line")],
        )
    )  # fmt: skip
    return (bars + rule).properties(height=300, padding=PADDING, title="Chunk sizes")


ALONG_MAX_ROWS = 2_000  # above this many chunks the chart shows groups of consecutive chunks


def chunk_sizes_along(chunks: Sequence[Chunk], *, size: int) -> alt.LayerChart:
    """Tokens per chunk in document order (spot short chunks between long ones): one bar per
    chunk, or a stepped area above 300 chunks, with a rule at the budget. Above 2,000 chunks,
    a band from the fewest to the most tokens in each group of consecutive chunks (at most
    1,000 groups: about what a chart's width can show, and light to send)."""
    if len(chunks) > ALONG_MAX_ROWS:
        return _sizes_along_grouped(chunks, size=size)
    df = pd.DataFrame(
        {
            "chunk": [c.index for c in chunks],
            "tokens": [c.tokens for c in chunks],
            "overlap": [c.overlap_tokens for c in chunks],
            "start": [c.start for c in chunks],
        }
    )
    # one bar per chunk while bars stay visible; a stepped area for long documents
    mark = (
        alt.Chart(df).mark_bar(color="#72b7b2")
        if len(df) <= 300
        else alt.Chart(df).mark_area(color="#72b7b2", interpolate="step-after", opacity=0.85)
    )
    bars = mark.encode(
        x=alt.X(
            "chunk:Q",
            title="chunk index",
            scale=alt.Scale(nice=False),
            axis=alt.Axis(format="d", tickMinStep=1),
        ),
        y=alt.Y("tokens:Q", title="tokens"),
        tooltip=[
            alt.Tooltip("chunk:Q"),
            alt.Tooltip("tokens:Q", format=","),
            alt.Tooltip("overlap:Q", title="overlap tokens", format=","),
            alt.Tooltip("start:Q", title="starts at char", format=","),
        ],
    )
    return _with_budget(bars, size)


def _sizes_along_grouped(chunks: Sequence[Chunk], *, size: int) -> alt.LayerChart:
    k = -(-len(chunks) // 1000)  # chunks per group
    rows = []
    for a in range(0, len(chunks), k):
        group = chunks[a : a + k]
        tokens = [c.tokens for c in group]
        rows.append({"chunk": a, "last": group[-1].index, "fewest": min(tokens), "most": max(tokens),
                     "start": group[0].start})  # fmt: skip
    band = (
        alt.Chart(pd.DataFrame(rows))
        .mark_area(color="#72b7b2", interpolate="step-after", opacity=0.85)
        .encode(
            x=alt.X("chunk:Q", title=f"chunk index (groups of {k} chunks)", scale=alt.Scale(nice=False),
                    axis=alt.Axis(format="d", tickMinStep=1)),
            y=alt.Y("most:Q", title="tokens (fewest to most in each group)"),
            y2="fewest:Q",
            tooltip=[
                alt.Tooltip("chunk:Q", title="from chunk", format=","),
                alt.Tooltip("last:Q", title="to chunk", format=","),
                alt.Tooltip("fewest:Q", title="fewest tokens", format=","),
                alt.Tooltip("most:Q", title="most tokens", format=","),
                alt.Tooltip("start:Q", title="starts at char", format=","),
            ],
        )
    )  # fmt: skip
    return _with_budget(band, size)


def _with_budget(chart: alt.Chart, size: int) -> alt.LayerChart:
    """`chart` with a dashed rule at the budget."""
    rule = (
        alt.Chart(pd.DataFrame({"at": [size]})).mark_rule(color="#d1242f", strokeDash=[4, 3]).encode(y="at:Q")
    )
    return (chart + rule).properties(height=300, padding=PADDING, title="Tokens per chunk along the document")
