"""A counted set's results per model: the table, the histogram, the rows over a limit, the
largest rows, fine-tuning and repository figures, and the downloads. Tables drawn are capped."""

from __future__ import annotations

from decimal import Decimal

import pandas as pd
import streamlit as st

from tokenizer_core.catalog.rates import money_text
from tokenizer_core.datasets import DatasetResult, ModelSummary
from tokenizer_core.datasets.charts import histogram_chart, histogram_frame, icicle_chart, icicle_nodes
from tokenizer_core.datasets.detect import shape_label
from tokenizer_core.datasets.result import Cost, RowRef
from tokenizer_core.tokenizers import escape_markdown
from tokenizer_core.tokenizers.vega import vega_lite_spec

from .options import chosen_epochs
from .source import shown_text

SHOWN = 50  # rows of a list drawn on the page (the downloads have every row)


def _money(v: Decimal | None) -> str:
    return money_text(v, places=4) if v is not None else "no price"


def verdict_section(result: DatasetResult) -> None:
    """The provider's verdict before any figure: accepted or not, then each problem in words."""
    v = result.verdict
    if v is None:
        return
    if not v.accepted:
        st.error(f"**{v.headline}**", icon=":material/block:")
    elif v.fails:
        st.warning(f"**{v.headline}**", icon=":material/warning:")
    else:
        st.success(f"**{v.headline}**", icon=":material/check_circle:")
    if v.problems:
        shown = v.problems[:SHOWN]
        total = v.rejects + v.fails + v.warnings
        label = {"reject": "refused", "fail": "would fail", "warn": "warning"}
        lines = [f"- *{label[p.severity]}* · {escape_markdown(shown_text(p.sentence()))}" for p in shown]
        with st.expander(f"The problems ({total:,})", expanded=not v.accepted or bool(v.fails),
                         icon=":material/list:"):  # fmt: skip
            st.markdown("\n".join(lines))
            if total > len(shown):
                st.caption(
                    f"The first {len(shown):,} of {total:,}: the per-row download has a problem column."
                )
    said = []
    if v.checked:
        said.append("Checked: " + "; ".join(v.checked) + ".")
    if v.unchecked:
        said.append("Not checked: " + "; ".join(escape_markdown(u) for u in v.unchecked) + ".")
    if said:
        st.caption(" ".join(said) + " The rules and their sources: docs/preflight-rules.md in the project.")


def notes_section(result: DatasetResult) -> None:
    """What was counted approximately or not at all (audio, files, schemas, images by URL)."""
    if not result.notes:
        return
    lines = []
    for n in result.notes[:12]:
        where = f"line {n.first_line:,}" if n.first_line else "a file"
        rows = f"{n.rows:,} rows, first on {where}" if n.rows > 1 else where
        lines.append(f"- {escape_markdown(shown_text(n.text))} ({rows})")
    st.markdown("**Counted in part**\n" + "\n".join(lines))


def summary_lines(result: DatasetResult) -> None:
    """Each model's figures in a sentence that wraps: readable on a phone, where the tables scroll."""
    lines = []
    for m in result.models[:8]:
        parts = [f"{m.total:,} tokens" + (f" ({m.image_tokens:,} of images)" if m.image_tokens else "")]
        std, bat = m.cost("standard"), m.cost("batch")
        for word, pick in (("expected", lambda c: c.total_usd), ("ceiling", lambda c: c.ceiling_usd)):
            costs = [
                f"{_money(pick(c))} {c.rate}" for c in (std, bat) if c is not None and pick(c) is not None
            ]
            if costs:
                parts.append(f"{word} {' / '.join(costs)}")
        if m.over:
            parts.append(f"{m.over:,} over the limit")
        where = " (in the file)" if m.in_file else ""
        lines.append(f"- **{escape_markdown(m.name)}**{where}: " + " · ".join(parts))
    st.markdown("\n".join(lines))


def summary_table(result: DatasetResult) -> None:
    """Tokens per model; costs in a table of their own, so both fit a laptop's width."""
    summary_lines(result)
    rows = []
    for m in result.models:
        rows.append({
            "Model": m.name, "In the file": m.in_file, "Rows": m.rows, "Total tokens": m.total,
            "Image tokens": m.image_tokens, "Min": m.min, "Median": round(m.median, 1), "p99": round(m.p99, 1), "Max": m.max,
            "Window": m.window, "Output limit": m.output_limit, "Budget": m.budget, "Over the limit": m.over,
            "Minutes at your TPM": None if m.minutes is None else round(m.minutes, 1),
        })  # fmt: skip
    frame = pd.DataFrame(rows)
    for empty in ("Budget", "Minutes at your TPM", "Output limit"):
        if frame[empty].isna().all():
            frame = frame.drop(columns=empty)
    if not frame["Image tokens"].any():
        frame = frame.drop(columns="Image tokens")
    if not frame["In the file"].any():
        frame = frame.drop(columns="In the file")
    number = st.column_config.NumberColumn
    config = {c: number(format="localized") for c in ("Rows", "Total tokens", "Image tokens", "Min", "Max", "Window",
                                                       "Output limit", "Budget", "Over the limit")}  # fmt: skip
    config["In the file"] = st.column_config.CheckboxColumn(help="A model the file's requests name")
    config["Over the limit"] = number(
        format="localized", help="Rows whose input and max_tokens are over the window or output limit, "
        "or whose input is over the budget",
    )  # fmt: skip
    st.dataframe(frame, hide_index=True, width="stretch", key="datasets_summary", column_config=config)
    counted: dict[str, list[str]] = {}  # how a row is counted -> the models counting it so
    for m in result.models:
        counted.setdefault(m.counted_as, []).append(m.name)
    how = "; ".join(f"{', '.join(names)}: {escape_markdown(way)}" for way, names in counted.items())
    images = next((m for m in result.models if m.images), None)
    seen = f" {images.images:,} images counted by each model's maker's rule." if images else ""
    st.caption(f"Each row counted as {how}. Median and percentiles are of the tokens per row.{seen}")
    if result.shape != "finetune":
        cost_table(result)


def cost_table(result: DatasetResult) -> None:
    """Two costs a model: the expectation (input + the output you expect) and the ceiling (input +
    every row's output at its max_tokens), at the standard and the batch rate, with the price's source."""
    rows = []
    for m in result.models:
        std, bat = m.cost("standard"), m.cost("batch")
        priced = next((c for c in (std, bat) if c is not None and c.total_usd is not None), None)
        source = (f"{priced.note}, checked {priced.as_of}" if priced.as_of else priced.note) if priced else ""
        rows.append({
            "Model": m.name, "Expected (standard)": _money(std.total_usd if std else None),
            "Expected (batch)": _money(bat.total_usd if bat else None),
            "Ceiling (standard)": _ceiling(std, m), "Ceiling (batch)": _ceiling(bat, m),
            "Price": source or (std.note if std else "no price"),
        })  # fmt: skip
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", key="datasets_costs")
    first = result.models[0] if result.models else None
    expected = f"{first.output_tokens:,} output tokens in all for {first.name}" if first else ""
    st.caption(
        f"Expected: input plus the output you expect ({expected}; set it above). Ceiling: input plus every "
        "row's output at its max_tokens, or at the model's output limit where a row sets none, never past "
        "that limit or what the context window leaves after the input; a row asking for n answers (n > 1) "
        "counts n outputs, as each is billed. Prices from the price source, by the provider named."
    )  # fmt: skip
    notes = [c.note for m in result.models for c in m.costs if c.total_usd is None]
    if notes:
        st.caption("No price: " + "; ".join(dict.fromkeys(escape_markdown(n) for n in notes)) + ".")


def _ceiling(cost: Cost | None, m: ModelSummary) -> str:
    if cost is None or cost.input_usd is None:
        return "no price"
    if cost.ceiling_usd is None:
        return "no ceiling"  # some row sets no max_tokens and the model's output limit is not known
    return _money(cost.ceiling_usd)


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
    st.vega_lite_chart(vega_lite_spec(panel), width="stretch", height=240, key="datasets_histogram")
    if histogram_frame([m])["limit"].notna().any():
        st.caption("The red dashed line is the limit (the window, or the budget when smaller).")


def _fine_tuning(result: DatasetResult, m: ModelSummary) -> None:
    ft = m.fine_tuning
    if ft is None:
        if result.shape == "finetune":
            st.info(f"OpenAI does not fine-tune {m.name}: its token counts only, no training cost.",
                    icon=":material/info:")  # fmt: skip
        return
    c = st.columns(4)
    c[0].metric(
        "Epochs",
        f"{ft.epochs:,}",
        help=f"OpenAI's default for {ft.examples:,} examples: {ft.default_epochs}.",
    )
    c[1].metric("Billed training tokens", f"{ft.billed_tokens:,}",
                help=f"Each example up to {ft.example_limit:,} tokens, x epochs.")  # fmt: skip
    c[2].metric(
        "Trained tokens (one epoch)", f"{ft.trained_tokens:,}", help="Assistant messages with weight 1."
    )
    c[3].metric("Training cost", _money(ft.training_usd) if ft.training_usd is not None else "no price",
                help=f"At ${ft.training_price} per 1M training tokens: {ft.price_note}." if ft.training_price else None)  # fmt: skip
    st.caption(
        f"{ft.weight0_messages:,} assistant messages have weight 0 ({ft.weight0_tokens:,} tokens): not trained on. "
        f"{ft.over_cap:,} examples are over {ft.example_limit:,} tokens (cut when trained). Training only: "
        "using the fine-tuned model is priced apart."
    )  # fmt: skip


def _repository(result: DatasetResult, m: ModelSummary) -> None:
    repo = m.repository
    if repo is None:
        return
    paths, tokens = list(result.ids), result.per_model[m.id].tolist()
    depths = len({n.depth for n in icicle_nodes(paths, tokens)}) or 1
    # an explicit height: a chart at the container's width is otherwise drawn with no room for its bands
    chart = icicle_chart(paths, tokens).properties(height=36 * depths)
    st.vega_lite_chart(vega_lite_spec(chart), width="stretch", height=36 * depths + 70, key="datasets_icicle")
    st.caption("Folders and files by tokens: each band is a folder depth, each box as wide as its tokens.")
    if repo.fits is None:
        st.info(f"{m.name} has no known context window.", icon=":material/info:")
    elif repo.fits:
        st.success(f"The whole repository ({m.total:,} tokens) fits in {m.name}'s window of {m.window:,}.")
    else:
        drop = ", ".join(escape_markdown(shown_text(d)) for d in repo.drop)
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
    _fine_tuning(result, m)
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
    """Rows that could not be counted (for a provider's file, those the verdict has not listed)."""
    errors = [e for e in result.errors if result.verdict is None or e.stage == "count"]
    count = result.error_count if result.verdict is None else len(errors)
    if count:
        with st.expander(f"{count:,} rows could not be counted", icon=":material/error:"):
            st.markdown("\n".join(f"- {escape_markdown(shown_text(e.text()))}" for e in errors[:SHOWN]))
            if count > min(len(errors), SHOWN):
                st.caption(f"The first {min(len(errors), SHOWN):,} of {count:,}.")


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


def took_text(seconds: float | None) -> str:
    """``took_text(0.02) -> " in under 0.1 s"``, ``took_text(12.34) -> " in 12.3 s"``"""
    if seconds is None:
        return ""
    return " in under 0.1 s" if seconds < 0.05 else f" in {seconds:,.1f} s"


def results_section(result: DatasetResult, seconds: float | None) -> None:
    result = result.with_epochs(chosen_epochs())  # the page's epochs, in the figures and the downloads
    unit = "files" if result.shape == "repository" else "rows"
    st.subheader(f"{result.rows:,} {unit} counted{took_text(seconds)}")
    st.caption(f"{escape_markdown(shown_text(result.name))} · {shape_label(result.shape, result.name)}")
    verdict_section(result)
    if result.not_counted:
        st.caption(
            "Not counted: " + "; ".join(f"{escape_markdown(n)} ({r})" for n, r in result.not_counted) + "."
        )
    notes_section(result)
    if not result.models:
        errors_section(result)
        return
    summary_table(result)
    errors_section(result)
    model_details(result)
    _skipped(result)
    downloads(result)
