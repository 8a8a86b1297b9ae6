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


def chunk_size_histogram(chunks: Sequence[Chunk], *, size: int, limit: int | None = None) -> alt.LayerChart:
    """Histogram of tokens per chunk, with a rule at the budget (and the model limit if given).

    Bins are a round width from 0 to the largest of the budget and the biggest chunk, so an
    unfilled tail is visible at a glance.
    """
    tokens = [c.tokens for c in chunks]
    top = max([size, *tokens]) if tokens else size
    step = _bin_step(top)
    df = pd.DataFrame({"tokens": tokens})
    bars = (
        alt.Chart(df)
        .mark_bar(color="#4c78a8")
        .encode(
            x=alt.X("tokens:Q", bin=alt.Bin(step=step, extent=[0, top + step]), title="tokens per chunk"),
            # whole chunks: integer ticks only (no 0.5 chunk on a short axis)
            y=alt.Y("count():Q", title="chunks", axis=alt.Axis(tickMinStep=1, format="d")),
            tooltip=[
                alt.Tooltip("tokens:Q", bin=alt.Bin(step=step, extent=[0, top + step]), title="tokens"),
                alt.Tooltip("count():Q", title="chunks"),
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


def chunk_sizes_along(chunks: Sequence[Chunk], *, size: int) -> alt.LayerChart:
    """Tokens per chunk in document order (spot short chunks between long ones): one bar per
    chunk, or a stepped area above 300 chunks, with a rule at the budget."""
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
    rule = (
        alt.Chart(pd.DataFrame({"at": [size]})).mark_rule(color="#d1242f", strokeDash=[4, 3]).encode(y="at:Q")
    )
    return (bars + rule).properties(height=300, padding=PADDING, title="Tokens per chunk along the document")
