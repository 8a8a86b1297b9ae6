"""Charts of the language cost page: premium heatmap, tokens per language, monthly cost.

Pure functions: rows in, `alt.Chart` out. Every chart orders languages the same way
(cheapest to most expensive by mean premium, see `language_order`).
"""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import pandas as pd

from ..pricing import CostRow
from .compare import LanguageRow, language_order

# Above this premium the heatmap label turns white to stay readable on the dark cells.
_DARK_FROM = 3.0


def _frame(rows: Sequence[LanguageRow]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "language": [r.language for r in rows],
            "code": [r.code for r in rows],
            "tokenizer": [r.tokenizer for r in rows],
            "tokens": [r.tokens for r in rows],
            "base_tokens": [r.base_tokens for r in rows],
            "premium": [r.premium for r in rows],
            "chars_per_token": [r.chars_per_token for r in rows],
            "label": [f"{r.premium:.2f}" if r.premium is not None else "n/a" for r in rows],
        }
    )


def premium_heatmap(rows: Sequence[LanguageRow], *, base_name: str) -> alt.LayerChart:
    """Language x tokenizer cells coloured by premium (log scale, white = 1, the base), labelled.

    Blue cells cost fewer tokens than the base language, red cells more.
    """
    df = _frame([r for r in rows if r.premium is not None])
    order = language_order(rows)
    tok_order = list(dict.fromkeys(r.tokenizer for r in rows))
    top = max(float(df["premium"].max()) if len(df) else 1.0, 1.05)
    low = min(float(df["premium"].min()) if len(df) else 1.0, 1 / 1.05)
    base = alt.Chart(df).encode(
        x=alt.X(
            "tokenizer:N",
            sort=tok_order,
            title=None,
            axis=alt.Axis(orient="top", labelAngle=0, labelLimit=90, labelOverlap=False, labelPadding=6),
        ),
        y=alt.Y("language:N", sort=order, title=None, axis=alt.Axis(labelLimit=160)),
    )
    cells = base.mark_rect(stroke="white", strokeWidth=1).encode(
        color=alt.Color(
            "premium:Q",
            scale=alt.Scale(type="log", scheme="redblue", reverse=True, domain=[low, top], domainMid=1),
            legend=alt.Legend(title=f"premium vs {base_name}", format=".1f", orient="right"),
        ),
        tooltip=[
            alt.Tooltip("language:N"),
            alt.Tooltip("tokenizer:N"),
            alt.Tooltip("premium:Q", format=".3f"),
            alt.Tooltip("tokens:Q", format=","),
            alt.Tooltip("base_tokens:Q", title=f"tokens in {base_name}", format=","),
        ],
    )
    labels = base.mark_text(fontSize=11).encode(
        text=alt.Text("label:N"),
        color=alt.condition(f"datum.premium >= {_DARK_FROM}", alt.value("white"), alt.value("#1f2328")),
    )
    return (cells + labels).properties(
        width=alt.Step(96),
        height=alt.Step(22),
        title=alt.TitleParams(
            f"Token premium: tokens for the same content ÷ tokens in {base_name}",
            subtitle="1.00 = as many tokens as the base language; 2.00 = twice as many",
        ),
    )


def tokens_chart(rows: Sequence[LanguageRow]) -> alt.Chart:
    """Grouped horizontal bars: tokens per language, one bar per tokenizer."""
    df = _frame(rows)
    order = language_order(rows)
    tok_order = list(dict.fromkeys(r.tokenizer for r in rows))
    n_tok = max(1, len(tok_order))
    return (
        alt.Chart(df)
        .mark_bar(cornerRadiusEnd=2)
        .encode(
            y=alt.Y("language:N", sort=order, title=None, axis=alt.Axis(labelLimit=160)),
            yOffset=alt.YOffset("tokenizer:N", sort=tok_order),
            x=alt.X("tokens:Q", title="tokens for the passage"),
            color=alt.Color(
                "tokenizer:N",
                sort=tok_order,
                legend=alt.Legend(orient="top", title=None, columns=min(n_tok, 4), labelLimit=160),
            ),
            tooltip=[
                alt.Tooltip("language:N"),
                alt.Tooltip("tokenizer:N"),
                alt.Tooltip("tokens:Q", format=","),
                alt.Tooltip("premium:Q", format=".2f"),
                alt.Tooltip("chars_per_token:Q", title="chars/token", format=".2f"),
            ],
        )
        .properties(height=len(order) * (5 * n_tok + 8), title="Tokens per language")
    )


def cost_chart(rows: Sequence[CostRow], *, workload_label: str = "") -> alt.Chart:
    """Grouped horizontal bars: monthly cost of the workload per language, one bar per model."""
    df = pd.DataFrame(
        {
            "language": [r.language for r in rows],
            "model": [r.model for r in rows],
            "tokenizer": [r.tokenizer_id for r in rows],
            "monthly_cost": [r.monthly_cost for r in rows],
            "extra_vs_base": [r.extra_vs_base for r in rows],
            "premium": [r.premium for r in rows],
        }
    )
    # cheapest to most expensive by mean premium, as on the other charts
    means = df.groupby("language", sort=False)["premium"].mean() if len(df) else pd.Series(dtype=float)
    order = list(means.sort_values(kind="stable").index)
    models = list(dict.fromkeys(r.model for r in rows))
    return (
        alt.Chart(df)
        .mark_bar(cornerRadiusEnd=2)
        .encode(
            y=alt.Y("language:N", sort=order, title=None, axis=alt.Axis(labelLimit=160)),
            yOffset=alt.YOffset("model:N", sort=models),
            x=alt.X("monthly_cost:Q", title="USD per month", axis=alt.Axis(format="$,.0f")),
            color=alt.Color(
                "model:N",
                sort=models,
                legend=alt.Legend(
                    orient="top", title=None, columns=min(max(1, len(models)), 4), labelLimit=200
                ),
            ),
            tooltip=[
                alt.Tooltip("language:N"),
                alt.Tooltip("model:N"),
                alt.Tooltip("tokenizer:N"),
                alt.Tooltip("monthly_cost:Q", title="per month", format="$,.2f"),
                alt.Tooltip("extra_vs_base:Q", title="vs base language", format="+$,.2f"),
                alt.Tooltip("premium:Q", format=".2f"),
            ],
        )
        .properties(
            height=len(order) * (5 * max(1, len(models)) + 8),
            title=alt.TitleParams(
                "Monthly cost of the workload per language", subtitle=workload_label or alt.Undefined
            ),
        )
    )
