"""Charts of the token counter page."""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import pandas as pd

from ..tokenizers.colours import PADDING, tokenizer_color_encoding
from .counting import CountRow


def token_count_data(rows: Sequence[CountRow]) -> pd.DataFrame:
    """The data `token_count_chart` draws: one row per tokenizer (name, tokens, chars per token)."""
    return pd.DataFrame(
        {
            "tokenizer": [r.tokenizer for r in rows],
            "tokens": [r.tokens for r in rows],
            "chars_per_token": [r.chars_per_token or 0.0 for r in rows],
        }
    )


def token_count_chart(rows: Sequence[CountRow]) -> alt.LayerChart:
    """Horizontal bars: tokens per tokenizer, labelled with the count, fewest on top."""
    base = alt.Chart(token_count_data(rows)).encode(
        y=alt.Y("tokenizer:N", sort="x", title=None),
        x=alt.X("tokens:Q", title="tokens"),
    )
    bars = base.mark_bar(cornerRadiusEnd=3).encode(
        color=tokenizer_color_encoding(
            [r.tokenizer_id for r in rows], [r.tokenizer for r in rows], legend=False
        ),
        tooltip=[
            alt.Tooltip("tokenizer:N"),
            alt.Tooltip("tokens:Q", format=","),
            alt.Tooltip("chars_per_token:Q", title="chars/token", format=".2f"),
        ],
    )
    labels = base.mark_text(align="left", dx=4).encode(text=alt.Text("tokens:Q", format=","))
    return alt.LayerChart(
        layer=[bars, labels], height=alt.Step(30), padding=PADDING, title="Tokens per tokenizer"
    )
