"""Charts of the language cost page: premium heatmap, tokens per language, monthly cost.

Pure functions: rows in, `alt.Chart` out. Every chart orders languages the same way
(cheapest to most expensive by mean premium, see `language_order`).
"""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import pandas as pd

from ..tokenizers.colours import (
    PADDING,
    bottom_legend,
    bottom_legend_px,
    lighter,
    tokenizer_color_encoding,
    tokenizer_hex,
)
from .costs import CostRow
from .language import LanguageRow
from .premiums import language_order

# A cell's number is white on a cell darker than this (relative luminance, 0 to 1), black on
# a lighter one: the luminance where both have the same WCAG contrast ratio with the cell
# ((1 + 0.05) / (L + 0.05) == (L + 0.05) / (0 + 0.05), about 0.179), so every number gets at
# least 4.58:1, above the 4.5:1 that WCAG AA asks of small text.
DARK_CELL = (1.05 * 0.05) ** 0.5 - 0.05


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

    Blue cells cost fewer tokens than the base language, red cells more. The chart takes the
    width of its container (cells shrink on a phone); the number in a cell is white or dark by
    the cell's own lightness; tokenizer names stand slanted above the columns.
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
            axis=alt.Axis(
                orient="top",
                labelAngle=-45,
                labelAlign="left",
                labelLimit=0,
                labelOverlap=False,
                labelPadding=4,
            ),
        ),
        y=alt.Y("language:N", sort=order, title=None, axis=alt.Axis(labelLimit=0)),
        tooltip=[
            alt.Tooltip("language:N"),
            alt.Tooltip("tokenizer:N"),
            alt.Tooltip("premium:Q", format=".3f"),
            alt.Tooltip("tokens:Q", format=","),
            alt.Tooltip("base_tokens:Q", title=f"tokens in {base_name}", format=","),
        ],
    )
    cells = base.mark_rect(stroke="white", strokeWidth=1).encode(
        color=alt.Color(
            "premium:Q",
            scale=alt.Scale(type="log", scheme="redblue", reverse=True, domain=[low, top], domainMid=1),
            legend=alt.Legend(
                title=f"premium vs {base_name}",
                format=".1f",
                orient="bottom",
                direction="horizontal",
                gradientLength=180,
                titleLimit=0,
            ),
        ),  # fmt: skip
    )
    # The text colour follows the colour the cell really got from the scale.
    labels = base.mark_text(fontSize=11).encode(
        text=alt.Text("label:N"),
        color=alt.ColorValue(  # an object, not alt.condition's dict: Altair would match that to its schema
            "black",
            condition={
                "test": f"luminance(scale('color', datum.premium)) < {DARK_CELL:.4f}",
                "value": "white",
            },
        ),
    )
    return alt.LayerChart(
        layer=[cells, labels],
        height=alt.Step(22),
        padding=PADDING,
        title=alt.TitleParams(
            f"Token premium vs {base_name}",
            subtitle=[
                f"tokens for the same content ÷ tokens in {base_name}",
                "1.00 = as many, 2.00 = twice as many",
            ],
        ),
    )


def tokens_chart(rows: Sequence[LanguageRow]) -> alt.Chart:
    """Grouped horizontal bars: tokens per language, one bar per tokenizer."""
    df = _frame(rows)
    order = language_order(rows)
    pairs = dict(dict.fromkeys((r.tokenizer_id, r.tokenizer) for r in rows))
    ids, tok_order = [i for i, _ in pairs], [n for _, n in pairs]
    n_tok = max(1, len(tok_order))
    return (
        alt.Chart(df)
        .mark_bar(cornerRadiusEnd=2)
        .encode(
            y=alt.Y("language:N", sort=order, title=None, axis=alt.Axis(labelLimit=160)),
            yOffset=alt.YOffset("tokenizer:N", sort=tok_order),
            x=alt.X("tokens:Q", title="tokens for the passage"),
            color=tokenizer_color_encoding(ids, tok_order),
            tooltip=[
                alt.Tooltip("language:N"),
                alt.Tooltip("tokenizer:N"),
                alt.Tooltip("tokens:Q", format=","),
                alt.Tooltip("premium:Q", format=".2f"),
                alt.Tooltip("chars_per_token:Q", title="chars/token", format=".2f"),
            ],
        )
        .properties(
            height=len(order) * (5 * n_tok + 8) + bottom_legend_px(n_tok) + 40,
            padding=PADDING,
            title="Tokens per language",
        )
    )


def model_colours(models: Sequence[tuple[str, str]]) -> dict[str, str]:
    """Each model in its tokenizer's colour; a second model on the same tokenizer a lighter shade.

    ``model_colours([("GPT-5 mini", "o200k_base"), ("GPT-4o mini", "o200k_base")])``
    -> ``{"GPT-5 mini": "#4c78a8", "GPT-4o mini": "#94aecb"}``
    """
    out: dict[str, str] = {}
    seen: dict[str, int] = {}
    for model, tid in models:
        if model in out:
            continue
        k = seen.get(tid, 0)
        seen[tid] = k + 1
        out[model] = lighter(tokenizer_hex(tid), min(0.4 * k, 0.8))
    return out


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
    colours = model_colours([(r.model, r.tokenizer_id) for r in rows])
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
                scale=alt.Scale(domain=models, range=[colours[m] for m in models]),
                legend=bottom_legend(),
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
            height=len(order) * (5 * max(1, len(models)) + 8) + bottom_legend_px(len(models)) + 40,
            padding=PADDING,
            title=alt.TitleParams(
                "Monthly cost of the workload per language", subtitle=workload_label or alt.Undefined
            ),
        )
    )
