"""Charts of the code identifiers page: pure builders, data in, `alt.Chart` out.

Each tokenizer has its colour of every page (`tokenizer_color_encoding`). Legends sit under the plot
in two columns so they fit a phone; Streamlit fits a chart, legend included, into its height,
so each chart adds the legend's rows (`bottom_legend_px`) to its height.
"""

from __future__ import annotations

from collections.abc import Sequence

import altair as alt
import pandas as pd

from ..tokenizers.colours import PADDING, bottom_legend, bottom_legend_px, tokenizer_color_encoding
from .analysis import KIND_PRIORITY, IdentifierAnalysis, IdentifierRow
from .layout import NO_INDENT, ORIGINAL, PARTS, REINDENT_UNITS, LayoutReport
from .naming import RewriteCost, StyleSummary
from .styles import STYLES

_KIND_COLOURS = {
    "identifier": "#e8590c", "keyword": "#7048e8", "string": "#1c7ed6", "comment": "#868e96",
    "number": "#2f9e44", "punct": "#f59f00", "other": "#ced4da", "whitespace": "#dee2e6",
}  # fmt: skip


_SLANTED = alt.Axis(labelAngle=-25, labelOverlap=False, labelLimit=140)


def _tooltips(*fields: str) -> list[alt.Tooltip]:
    """Tooltip channels for `fields` ("name:Q", ...). Objects, not the strings themselves: Altair
    matches a string given to `encode` against its whole schema, a few milliseconds each, on every
    run of the page that draws the chart."""
    return [alt.Tooltip(f) for f in fields]


def _names(ids: Sequence[str], names: Sequence[str] | None) -> dict[str, str]:
    return dict(zip(ids, names or ids))


def top_identifiers_chart(
    rows: Sequence[IdentifierRow],
    tokenizer_ids: Sequence[str],
    tokenizer_names: Sequence[str] | None = None,
    *,
    top_n: int = 15,
    measure: str = "alone",
) -> alt.Chart:
    """Grouped horizontal bars: tokens of the first `top_n` rows, one bar per tokenizer.

    `measure` "alone": the name on its own; "file": what it costs in the file, all its uses
    together. Rows keep the order given (the table's order). `top_n` is clamped to 1..60.
    """
    if measure not in ("alone", "file"):
        raise ValueError(f"measure must be 'alone' or 'file', not {measure!r}")
    top_n = max(1, min(int(top_n), 60))
    label = _names(tokenizer_ids, tokenizer_names)
    index = {tid: k for k, tid in enumerate(tokenizer_ids)}
    records = []
    for order, r in enumerate(rows[:top_n]):
        for tid in tokenizer_ids:
            c = r.costs[index[tid]]
            records.append({
                "identifier": r.name, "order": order, "tokenizer": label[tid],
                "tokens": c.alone_tokens if measure == "alone" else c.context_total,
                "split": " | ".join(c.pieces), "chars": r.length, "occurrences": r.occurrences,
            })  # fmt: skip
    df = pd.DataFrame(
        records, columns=["identifier", "order", "tokenizer", "tokens", "split", "chars", "occurrences"]
    )
    n = max(1, min(top_n, len(rows)))
    return (
        alt.Chart(df)
        .mark_bar(cornerRadiusEnd=2)
        .encode(
            y=alt.Y(
                "identifier:N",
                sort=alt.EncodingSortField("order", order="ascending"),
                title=None,
                axis=alt.Axis(labelLimit=0),  # whole names, never "DEFAULT_REORD…"
            ),
            yOffset=alt.YOffset("tokenizer:N"),
            x=alt.X(
                "tokens:Q",
                title="tokens (the name alone)" if measure == "alone" else "tokens in this file (all uses)",
                axis=alt.Axis(tickMinStep=1),
            ),
            color=tokenizer_color_encoding(tokenizer_ids, [label[t] for t in tokenizer_ids]),
            tooltip=_tooltips(
                "identifier:N", "tokenizer:N", "tokens:Q", "split:N", "chars:Q", "occurrences:Q"
            ),
        )
        # the height holds title and axes (about 80 px) besides the bars
        .properties(
            height=n * max(26, 8 + 9 * len(tokenizer_ids)) + 90 + bottom_legend_px(len(tokenizer_ids)),
            padding=PADDING,
            title=f"Tokens per identifier (top {n})",
        )
    )


def style_tokens_chart(
    summaries: Sequence[StyleSummary],
    tokenizer_ids: Sequence[str],
    tokenizer_names: Sequence[str] | None = None,
) -> alt.Chart:
    """Grouped bars: mean tokens of a name alone, per naming style and tokenizer."""
    label = _names(tokenizer_ids, tokenizer_names)
    records = [
        {"style": s.style, "tokenizer": label[tid], "mean tokens": round(s.mean_tokens[tid], 3),
         "identifiers": s.identifiers, "mean characters": round(s.mean_chars, 1),
         "tokens per character": round(s.mean_tokens[tid] / s.mean_chars, 3) if s.mean_chars else 0.0}
        for s in summaries for tid in tokenizer_ids
    ]  # fmt: skip
    df = pd.DataFrame(
        records,
        columns=[
            "style",
            "tokenizer",
            "mean tokens",
            "identifiers",
            "mean characters",
            "tokens per character",
        ],
    )
    return (
        alt.Chart(df)
        .mark_bar(cornerRadiusTopLeft=2, cornerRadiusTopRight=2)
        .encode(
            x=alt.X("style:N", sort=list(STYLES), title=None, axis=_SLANTED),
            xOffset=alt.XOffset("tokenizer:N"),
            y=alt.Y("mean tokens:Q", title="mean tokens per name"),
            color=tokenizer_color_encoding(tokenizer_ids, [label[t] for t in tokenizer_ids]),
            tooltip=_tooltips(
                "style:N",
                "tokenizer:N",
                "mean tokens:Q",
                "identifiers:Q",
                "mean characters:Q",
                "tokens per character:Q",
            ),
        )
        .properties(
            height=260 + bottom_legend_px(len(tokenizer_ids)),
            padding=PADDING,
            title="Average tokens by naming style",
        )
    )


def layout_breakdown_chart(
    report: LayoutReport,
    tokenizer_names: Sequence[str] | None = None,
) -> alt.Chart:
    """Grouped bars: share of the file's tokens that comments, docstrings, blank lines and
    indentation contribute (tokens of the file minus tokens without them), per tokenizer."""
    label = _names(report.tokenizer_ids, tokenizer_names)
    records = []
    for part in PARTS:
        if part == "docstrings" and "without docstrings" not in report.tokens:
            continue
        for tid in report.tokenizer_ids:
            records.append({
                "part": part, "tokenizer": label[tid], "tokens": report.contribution(part, tid),
                "percent": round(100 * report.share(part, tid), 2),
            })  # fmt: skip
    df = pd.DataFrame(records, columns=["part", "tokenizer", "tokens", "percent"])
    return (
        alt.Chart(df)
        .mark_bar(cornerRadiusEnd=2)
        .encode(
            y=alt.Y("part:N", sort=list(PARTS), title=None),
            yOffset=alt.YOffset("tokenizer:N"),
            x=alt.X("percent:Q", title="% of the file's tokens"),
            color=tokenizer_color_encoding(report.tokenizer_ids, [label[t] for t in report.tokenizer_ids]),
            tooltip=_tooltips("part:N", "tokenizer:N", "tokens:Q", "percent:Q"),
        )
        .properties(
            height=df["part"].nunique() * max(30, 16 * len(report.tokenizer_ids))
            + 100
            + bottom_legend_px(len(report.tokenizer_ids)),
            padding=PADDING,
            title="What layout costs",
        )  # fmt: skip
    )


def indentation_chart(
    report: LayoutReport,
    tokenizer_names: Sequence[str] | None = None,
) -> alt.Chart:
    """Grouped bars: tokens gained or saved by re-indenting (tabs, 2, 4 spaces, none) vs as written."""
    label = _names(report.tokenizer_ids, tokenizer_names)
    variants = list(REINDENT_UNITS)
    records = [
        {"indentation": v, "tokenizer": label[tid], "tokens": report.tokens[v][tid],
         "as written": report.tokens[ORIGINAL][tid],
         "difference": report.tokens[v][tid] - report.tokens[ORIGINAL][tid]}
        for v in variants for tid in report.tokenizer_ids
    ]  # fmt: skip
    df = pd.DataFrame(records, columns=["indentation", "tokenizer", "tokens", "as written", "difference"])
    return (
        alt.Chart(df)
        .mark_bar(cornerRadiusTopLeft=2, cornerRadiusTopRight=2)
        .encode(
            x=alt.X("indentation:N", sort=variants, title=None, axis=_SLANTED),
            xOffset=alt.XOffset("tokenizer:N"),
            y=alt.Y("difference:Q", title="tokens vs as written"),
            color=tokenizer_color_encoding(report.tokenizer_ids, [label[t] for t in report.tokenizer_ids]),
            tooltip=_tooltips("indentation:N", "tokenizer:N", "tokens:Q", "as written:Q", "difference:Q"),
        )
        .properties(
            height=260 + bottom_legend_px(len(report.tokenizer_ids)),
            padding=PADDING,
            title=alt.TitleParams("Re-indented", subtitle=f"tabs, 2 or 4 spaces, {NO_INDENT}"),
        )
    )


def kind_share_chart(analysis: IdentifierAnalysis) -> alt.Chart:
    """Stacked horizontal bars: where each tokenizer's tokens go (identifiers, keywords, ...)."""
    label = _names(analysis.tokenizer_ids, analysis.tokenizer_names)
    records = []
    for tid in analysis.tokenizer_ids:
        total = analysis.file_tokens.get(tid, 0)
        for k, kind in enumerate(KIND_PRIORITY):
            n = analysis.kind_tokens[tid].get(kind, 0)
            if n:
                records.append({"tokenizer": label[tid], "kind": kind, "order": k, "tokens": n,
                                "percent": round(100 * n / total, 2) if total else 0.0})  # fmt: skip
    df = pd.DataFrame(records, columns=["tokenizer", "kind", "order", "tokens", "percent"])
    kinds = [k for k in KIND_PRIORITY if k in set(df["kind"])]
    return (
        alt.Chart(df)
        .mark_bar()
        .encode(
            y=alt.Y("tokenizer:N", title=None, sort=[label[t] for t in analysis.tokenizer_ids]),
            x=alt.X(
                "percent:Q", title="% of the file's tokens", stack="zero", scale=alt.Scale(domain=[0, 100])
            ),
            color=alt.Color(
                "kind:N",
                sort=kinds,
                title="Token spent on",
                scale=alt.Scale(domain=kinds, range=[_KIND_COLOURS[k] for k in kinds]),
                legend=bottom_legend(title="Token spent on", columns=3),
            ),  # fmt: skip
            order=alt.Order("order:Q"),
            tooltip=_tooltips("tokenizer:N", "kind:N", "tokens:Q", "percent:Q"),
        )
        # the height holds the title, axis and the 7-entry legend as well as the bars
        .properties(
            height=28 * len(analysis.tokenizer_ids)
            + 90
            + bottom_legend_px(len(kinds), columns=3, title=True),
            padding=PADDING,
            title="Where the tokens go",
        )
    )


def rewrite_chart(
    costs: Sequence[RewriteCost],
    tokenizer_ids: Sequence[str],
    tokenizer_names: Sequence[str] | None = None,
) -> alt.Chart:
    """Grouped bars: % change in the file's tokens if every multi-word name used one style."""
    label = _names(tokenizer_ids, tokenizer_names)
    base = costs[0].tokens if costs else {}
    records = [
        {"style": c.style, "tokenizer": label[tid], "tokens": c.tokens[tid],
         "change %": round(100 * (c.tokens[tid] - base[tid]) / base[tid], 2) if base.get(tid) else 0.0,
         "names renamed": c.renamed}
        for c in costs[1:] for tid in tokenizer_ids
    ]  # fmt: skip
    df = pd.DataFrame(records, columns=["style", "tokenizer", "tokens", "change %", "names renamed"])
    return (
        alt.Chart(df)
        .mark_bar()
        .encode(
            x=alt.X("style:N", sort=[c.style for c in costs[1:]], title=None, axis=_SLANTED),
            xOffset=alt.XOffset("tokenizer:N"),
            y=alt.Y("change %:Q", title="% change in tokens"),
            color=tokenizer_color_encoding(tokenizer_ids, [label[t] for t in tokenizer_ids]),
            tooltip=_tooltips("style:N", "tokenizer:N", "tokens:Q", "change %:Q", "names renamed:Q"),
        )
        .properties(
            height=240 + bottom_legend_px(len(tokenizer_ids)),
            padding=PADDING,
            title="The whole file in one naming style",
        )
    )
