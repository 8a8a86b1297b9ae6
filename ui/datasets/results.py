"""A counted set's results per model: the table, the histogram, the rows over a limit, the
largest rows, fine-tuning and repository figures, and the downloads. Tables drawn are capped."""

from __future__ import annotations

from decimal import Decimal

import pandas as pd
import streamlit as st

from tokenizer_core.catalog.rates import money_text
from tokenizer_core.datasets import SHAPES, DatasetResult, ModelSummary
from tokenizer_core.datasets.charts import histogram_chart, histogram_frame, icicle_chart, icicle_nodes
from tokenizer_core.datasets.result import RowRef
from tokenizer_core.tokenizers import escape_markdown

from .options import chosen_epochs
from .source import shown_text

SHOWN = 50  # rows of a list drawn on the page (the downloads have every row)


def _money(v: Decimal | None) -> str:
    return money_text(v, places=4) if v is not None else "no price"


def summary_table(result: DatasetResult) -> None:
    rows = []
    for m in result.models:
        std, bat = m.cost("standard"), m.cost("batch")
        rows.append({
            "Model": m.name, "Rows": m.rows, "Total tokens": m.total, "Min": m.min, "Median": m.median,
            "p90": m.p90, "p99": m.p99, "Max": m.max, "Window": m.window, "Budget": m.budget,
            "Over the limit": m.over, "Output tokens": m.output_tokens,
            "Cost (standard)": _money(std.total_usd if std else None),
            "Cost (batch)": _money(bat.total_usd if bat else None),
            "Minutes at your TPM": None if m.minutes is None else round(m.minutes, 1),
        })  # fmt: skip
    frame = pd.DataFrame(rows)
    for empty in ("Budget", "Minutes at your TPM"):
        if frame[empty].isna().all():
            frame = frame.drop(columns=empty)
    number = st.column_config.NumberColumn
    config = {c: number(format="localized") for c in ("Rows", "Total tokens", "Min", "Max", "Window", "Budget",
                                                       "Over the limit", "Output tokens")}  # fmt: skip
    config["Over the limit"] = number(
        format="localized", help="Rows over the window, or the budget when smaller"
    )
    st.dataframe(frame, hide_index=True, width="stretch", key="datasets_summary", column_config=config)
    counted: dict[str, list[str]] = {}  # how a row is counted -> the models counting it so
    for m in result.models:
        counted.setdefault(m.counted_as, []).append(m.name)
    how = "; ".join(f"{', '.join(names)}: {escape_markdown(way)}" for way, names in counted.items())
    st.caption(
        f"Each row counted as {how}. Median and percentiles are of the tokens per row; the "
        "costs are input plus expected output, at each model's standard and batch rate from the price source."
    )  # fmt: skip
    notes = [c.note for m in result.models for c in m.costs if c.total_usd is None]
    if notes:
        st.caption("No price: " + "; ".join(dict.fromkeys(escape_markdown(n) for n in notes)) + ".")


def _refs_frame(refs: tuple[RowRef, ...], *, files: bool = False) -> pd.DataFrame:
    shown = refs[:SHOWN]
    if files:
        return pd.DataFrame({"File": [shown_text(r.id) for r in shown], "Tokens": [r.tokens for r in shown]})
    return pd.DataFrame(
        {
            "Row": [shown_text(r.id) for r in shown],
            "Line": [r.line or None for r in shown],
            "Tokens": [r.tokens for r in shown],
        }
    )


def _histogram(m: ModelSummary) -> None:
    """The model's rows by tokens. The chart is one panel of the per-model facet, drawn on its own:
    a facet takes no container width, a single panel does (it then fits a phone's screen too)."""
    facet = histogram_chart([m])
    panel = facet.spec.copy()
    panel.data = facet.data
    panel = panel.properties(width="container", height=180, title=f"{m.name}: rows by tokens")
    st.altair_chart(panel, width="stretch", height=240, key="datasets_histogram")
    if histogram_frame([m])["limit"].notna().any():
        st.caption("The red dashed line is the limit (the window, or the budget when smaller).")


def _fine_tuning(m: ModelSummary) -> None:
    ft = m.fine_tuning
    if ft is None:
        return
    epochs = chosen_epochs() or ft.epochs
    billed = ft.billed_tokens_per_epoch * epochs
    price = ft.training_usd * epochs / ft.epochs if ft.training_usd is not None and ft.epochs else None
    c = st.columns(4)
    c[0].metric("Epochs", f"{epochs:,}", help=f"OpenAI's default for {ft.examples:,} examples: {ft.epochs}.")
    c[1].metric("Billed training tokens", f"{billed:,}", help="Each example up to 16,385 tokens, x epochs.")
    c[2].metric(
        "Trained tokens (one epoch)", f"{ft.trained_tokens:,}", help="Assistant messages with weight 1."
    )
    c[3].metric("Training cost", _money(price) if price is not None else "enter a price")
    st.caption(
        f"{ft.weight0_messages:,} assistant messages have weight 0 ({ft.weight0_tokens:,} tokens): not trained on. "
        f"{ft.over_cap:,} examples are over 16,385 tokens (cut when trained)."
    )  # fmt: skip


def _repository(result: DatasetResult, m: ModelSummary) -> None:
    repo = m.repository
    if repo is None:
        return
    paths, tokens = list(result.ids), result.per_model[m.id].tolist()
    depths = len({n.depth for n in icicle_nodes(paths, tokens)}) or 1
    # an explicit height: a chart at the container's width is otherwise drawn with no room for its bands
    chart = icicle_chart(paths, tokens).properties(height=36 * depths)
    st.altair_chart(chart, width="stretch", height=36 * depths + 70, key="datasets_icicle")
    st.caption("Folders and files by tokens: each band is a folder depth, each box as wide as its tokens.")
    if repo.fits is None:
        st.info(f"{m.name} has no known context window.", icon=":material/info:")
    elif repo.fits:
        st.success(f"The whole repository ({m.total:,} tokens) fits in {m.name}'s window of {m.window:,}.")
    else:
        drop = ", ".join(f"`{escape_markdown(d)}`" for d in repo.drop)
        st.warning(
            f"{m.total:,} tokens do not fit in {m.name}'s window of {m.window:,}. Drop {drop} "
            f"(largest first) and {repo.tokens_after_drop:,} tokens are left.", icon=":material/content_cut:",
        )  # fmt: skip
    c1, c2 = st.columns(2)
    c1.markdown("**Top files**")
    c1.dataframe(_refs_frame(repo.top_files, files=True), hide_index=True, width="stretch")
    c2.markdown("**Top folders**")
    folders = [f for f in repo.folders if f.path][:SHOWN]
    c2.dataframe(
        pd.DataFrame({"Folder": [shown_text(f.path) + "/" for f in folders], "Tokens": [f.tokens for f in folders],
                      "Files": [f.files for f in folders]}), hide_index=True, width="stretch",
    )  # fmt: skip


def _skipped(result: DatasetResult) -> None:
    if not result.skipped:
        return
    with st.expander(f"{len(result.skipped):,} files skipped, and why", icon=":material/filter_alt_off:"):
        shown = result.skipped[: SHOWN * 4]
        st.dataframe(pd.DataFrame({"File": [shown_text(s.path) for s in shown], "Why": [s.reason for s in shown]}),
                     hide_index=True, width="stretch")  # fmt: skip
        if len(result.skipped) > len(shown):
            st.caption(f"The first {len(shown):,} of {len(result.skipped):,}.")


def model_details(result: DatasetResult) -> None:
    names = {m.id: m.name for m in result.models}
    if not names:
        return
    mid = st.selectbox("Details for", list(names), format_func=names.get, key="datasets_detail",
                       persist_state="session")  # fmt: skip
    m = result.model(mid if mid in names else next(iter(names)))
    if m.histogram:
        _histogram(m)
    if result.shape == "repository":
        _repository(result, m)
    _fine_tuning(m)
    c1, c2 = st.columns(2)
    what = "files" if result.shape == "repository" else "rows"
    with c1:
        limit = f"{m.limit:,} tokens" if m.limit else "no window known"
        st.markdown(f"**{what.capitalize()} over the limit** ({limit}): {m.over:,}")
        if m.over_rows:
            st.dataframe(_refs_frame(m.over_rows, files=what == "files"), hide_index=True, width="stretch")
            if m.over > min(len(m.over_rows), SHOWN):
                st.caption(
                    f"The first {min(len(m.over_rows), SHOWN):,} of {m.over:,}: the per-row download has all."
                )
    with c2:
        st.markdown(f"**The largest {what}**")
        st.dataframe(_refs_frame(m.largest, files=what == "files"), hide_index=True, width="stretch")


def errors_section(result: DatasetResult) -> None:
    if result.error_count:
        with st.expander(f"{result.error_count:,} rows could not be counted", icon=":material/error:"):
            st.markdown(
                "\n".join(f"- {escape_markdown(shown_text(e.text()))}" for e in result.errors[:SHOWN])
            )
            if result.error_count > min(len(result.errors), SHOWN):
                st.caption(f"The first {min(len(result.errors), SHOWN):,} of {result.error_count:,}.")


def downloads(result: DatasetResult) -> None:
    stem = result.name.rsplit(".", 1)[0] or "dataset"
    c1, c2, c3 = st.columns(3)
    c1.download_button("Per-row counts (CSV)", result.to_csv, file_name=f"{stem}-tokens.csv", mime="text/csv",
                       icon=":material/download:", key="datasets_csv", on_click="ignore", width="stretch")  # fmt: skip
    c2.download_button("Per-row counts (Parquet)", result.to_parquet, file_name=f"{stem}-tokens.parquet",
                       mime="application/vnd.apache.parquet", icon=":material/download:", key="datasets_parquet",
                       on_click="ignore", width="stretch")  # fmt: skip
    c3.download_button("Summary (CSV)", result.summary_csv, file_name=f"{stem}-summary.csv", mime="text/csv",
                       icon=":material/download:", key="datasets_summary_csv", on_click="ignore", width="stretch")  # fmt: skip


def results_section(result: DatasetResult, seconds: float | None) -> None:
    took = f" in {seconds:,.1f} s" if seconds is not None else ""
    unit = "files" if result.shape == "repository" else "rows"
    st.subheader(f"{result.rows:,} {unit} counted{took}")
    st.caption(f"{escape_markdown(result.name)} · {SHAPES.get(result.shape, result.shape)}")
    if result.not_counted:
        st.caption(
            "Not counted: " + "; ".join(f"{escape_markdown(n)} ({r})" for n, r in result.not_counted) + "."
        )
    if not result.models:
        return
    summary_table(result)
    errors_section(result)
    model_details(result)
    _skipped(result)
    downloads(result)
