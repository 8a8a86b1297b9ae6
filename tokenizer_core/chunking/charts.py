"""Charts of the chunk previewer: chunk sizes as a histogram and along the document."""

from __future__ import annotations

import bisect
from collections.abc import Sequence

import altair as alt
import pandas as pd

from ..tokenizers.colours import PADDING
from .pack import Chunk

_STEPS = (1, 2, 4, 5, 8, 10, 16, 20, 25, 32, 50, 64, 100, 128, 200, 250, 256, 500, 512, 1000)


def _bin_step(top: int, *, budget: int | None = None) -> int:
    """A round bin width giving at most 40 bins up to `top`, one that divides `budget` if a round
    width can: ``_bin_step(512) -> 16``, ``_bin_step(300, budget=300) -> 10`` (8 would fit too)."""
    fits = [step for step in _STEPS if top / step <= 40]
    if not fits:
        return max(1, top // 32)
    return next((step for step in fits if budget and budget % step == 0), fits[0])


def size_bins(tokens: Sequence[int], *, step: int, top: int, edge: int = 0) -> pd.DataFrame:
    """Chunks per bin of `step` tokens from 0 to `top`: columns lo, hi, chunks; a bin holds the
    chunks of more than `lo` and at most `hi` tokens (the first one also 0).

    Bin edges fall on `edge` (the budget) plus or minus whole steps, so no bin holds chunks on
    both sides of it; the first bin is narrower when `step` does not divide `edge`.
    ``size_bins([3, 4, 5, 9], step=4, top=9)`` -> rows (0, 4, 2), (4, 8, 1), (8, 12, 1).
    """
    first = edge % step or step
    edges = [0, *range(first, top + step, step)]  # the last one at `top` or past it
    counts = [0] * (len(edges) - 1)
    for t in tokens:
        counts[min(max(bisect.bisect_left(edges, t) - 1, 0), len(counts) - 1)] += 1
    return pd.DataFrame({"lo": edges[:-1], "hi": edges[1:], "chunks": counts})


def _range_label(lo: int, hi: int, *, first: bool, zero: bool) -> str:
    """The tokens a bin holds: ``(124, 128) -> "125–128"``, a one-token bin ``"128"``."""
    low = 0 if first and zero else lo + 1
    return f"{hi:,}" if low == hi else f"{low:,}–{hi:,}"


def chunk_size_histogram(chunks: Sequence[Chunk], *, size: int, limit: int | None = None) -> alt.LayerChart:
    """Histogram of tokens per chunk, with a rule at the budget (and the model limit if given).

    Bins are a round width from 0 to the largest of the budget and the biggest chunk, so an
    unfilled tail is visible at a glance. A bin holds chunks of more than its left edge and at
    most its right edge, and one edge is the budget: chunks of exactly the budget are drawn left
    of its line, inside it, and only chunks over it to the right. Bins are counted here, so the
    chart sends one row per bin (about 40), not one per chunk.
    """
    tokens = [c.tokens for c in chunks]
    top = max([size, *tokens]) if tokens else size
    step = _bin_step(top, budget=size)
    df = size_bins(tokens, step=step, top=top, edge=size)
    zero = 0 in tokens
    df["range"] = [
        _range_label(lo, hi, first=k == 0, zero=zero) for k, (lo, hi) in enumerate(zip(df["lo"], df["hi"]))
    ]
    bars = (
        alt.Chart(df)
        .mark_bar(color="#4c78a8")
        .encode(
            x=alt.X("lo:Q", title="tokens per chunk", scale=alt.Scale(domain=[0, top + step], nice=False)),
            x2=alt.X2("hi:Q"),
            # whole chunks: integer ticks only (no 0.5 chunk on a short axis)
            y=alt.Y("chunks:Q", title="chunks", axis=alt.Axis(tickMinStep=1, format="d")),
            y2=alt.Y2Datum(0),  # bars rise from zero (with x2 set, Vega-Lite would lay them flat)
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
            x=alt.X("at:Q"),
            color=alt.Color("what:N", scale=alt.Scale(range=["#d1242f", "#8250df"]), title=None,
                            legend=alt.Legend(orient="top")),
            tooltip=[alt.Tooltip("what:N", title="line")],
        )
    )  # fmt: skip
    return alt.LayerChart(layer=[bars, rule], height=300, padding=PADDING, title="Chunk sizes")


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
        alt.Chart(pd.DataFrame({"at": [size]}))
        .mark_rule(color="#d1242f", strokeDash=[4, 3])
        .encode(y=alt.Y("at:Q"))
    )
    return alt.LayerChart(
        layer=[chart, rule], height=300, padding=PADDING, title="Tokens per chunk along the document"
    )
