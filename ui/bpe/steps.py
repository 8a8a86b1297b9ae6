"""Stepping through the merges of the BPE playground: the model's figures, the step controls, the
charts, the merge at the step (and the pairs that competed for it) and the merges so far."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from tokenizer_core import BPEModel
from tokenizer_core.bpe import (
    bpe_candidate_rows,
    bpe_merge_rows,
    bpe_symbol_label,
    bpe_vocabulary_help,
    explain_bpe_choice,
    plural,
)
from tokenizer_core.bpe.charts import merge_count_chart, training_chart
from tokenizer_core.tokenizers import escape_markdown, markdown_code
from tokenizer_core.tokenizers.vega import vega_lite_spec

from .options import MAX_WORD_CHARS


def results_header(model: BPEModel) -> None:
    n = model.n_merges
    start, end = model.initial_tokens, model.corpus_tokens_at(n)
    cols = st.columns(5)
    cols[0].metric("Merges learned", f"{n:,}")
    cols[1].metric("Vocabulary", f"{model.vocab_size_at(n):,}", help=bpe_vocabulary_help(model, n))
    if model.source == "file":
        cols[2].metric("Corpus tokens", f"{end:,}" if end else "–", help="As saved in the file")
        cols[3].metric("Distinct words", "–", help="A model loaded from a file has no corpus")
        cols[4].metric("Source", "file")
    else:
        pct = f"-{100 * (start - end) / start:.1f}%" if start else None
        cols[2].metric(
            "Corpus tokens", f"{end:,}", pct, delta_color="inverse", help=f"{start:,} before any merge"
        )
        cols[3].metric(
            "Distinct words", f"{len(model.words):,}", help=f"{plural(model.total_words, 'word')} in all"
        )
        cols[4].metric("Training time", f"{model.seconds:.2f} s")
    notes = [f"Stopped: {model.stop_reason}." if model.stop_reason else ""]
    if model.words_cut:
        notes.append(
            f"{model.words_cut:,} words longer than {MAX_WORD_CHARS:,} characters were cut into pieces."
        )
    notes.append(f"Options: {model.options.describe()}.")
    st.caption(escape_markdown(" ".join(n for n in notes if n)))


def shift_step(delta: int, n: int) -> None:
    st.session_state["bpe_step"] = max(0, min(n, int(st.session_state.get("bpe_step", 0)) + delta))


def step_controls(n: int) -> int:
    if int(st.session_state.get("bpe_step", 0)) > n:
        st.session_state["bpe_step"] = n
    k = int(st.session_state.get("bpe_step", min(1, n)))
    c1, c2, c3 = st.columns([2, 9, 2], vertical_alignment="bottom")
    c1.button("Previous", key="bpe_prev", on_click=shift_step, args=(-1, n), disabled=k <= 0,
              width="stretch", help="One merge back")  # fmt: skip
    if n > 0:
        k = int(c2.slider("Merges applied (step k)", 0, n, key="bpe_step", persist_state="session",
                          help="Everything below shows the corpus and the probe after the first k merges."))  # fmt: skip
    else:
        c2.caption("No merges were learned, so there is nothing to step through.")
    c3.button("Next", key="bpe_next", on_click=shift_step, args=(1, n), disabled=k >= n,
              width="stretch", help="One merge forward")  # fmt: skip
    return k


def charts(model: BPEModel, k: int) -> None:
    c1, c2, c3 = st.columns(3)
    c1.vega_lite_chart(
        vega_lite_spec(training_chart(model, measure="vocabulary size", step=k)), width="stretch"
    )
    c2.vega_lite_chart(
        vega_lite_spec(training_chart(model, measure="corpus tokens", step=k)), width="stretch"
    )
    c3.vega_lite_chart(vega_lite_spec(merge_count_chart(model, step=k)), width="stretch")


def _highlight_chosen(row: pd.Series) -> list[str]:
    style = "background-color:#fff3b0;font-weight:600" if row.get("chosen") else ""
    return [style] * len(row)


def merge_detail(model: BPEModel, k: int) -> None:
    if not model.steps:
        return
    step = model.steps[max(k, 1) - 1]
    new = markdown_code(bpe_symbol_label(step.new))
    if k == 0:
        st.markdown(f"**Before any merge.** The pairs competing for merge 1 (it makes {new}):")
    else:
        st.markdown(
            f"**Merge {k}:** {markdown_code(bpe_symbol_label(step.left))} + "
            f"{markdown_code(bpe_symbol_label(step.right))} → {new} "
            f"({plural(step.count, 'occurrence')})"
        )
    if not step.candidates:
        st.caption("This model was loaded from a file: the pairs that competed were not saved.")
        return
    st.markdown(escape_markdown(explain_bpe_choice(model, step)))
    df = pd.DataFrame(bpe_candidate_rows(model, step))
    st.dataframe(
        df.style.apply(_highlight_chosen, axis=1), hide_index=True, width="content",
        column_config={
            "place": st.column_config.NumberColumn("#", width=40),
            "pair": st.column_config.TextColumn("Pair (left + right)", width=150),
            "count": st.column_config.NumberColumn("Count", format="localized", width=76),
            "chosen": st.column_config.CheckboxColumn("Merged", width=70),
            "tied": st.column_config.CheckboxColumn("Tied", width=56, help="As frequent as the merged pair"),
            "first seen": st.column_config.TextColumn("First seen", width=210),
        },
    )  # fmt: skip


def merge_table(model: BPEModel, k: int) -> None:
    if not model.steps:
        return
    rows = bpe_merge_rows(model, k)
    st.markdown(f"**Merges so far** ({len(rows):,} of {model.n_merges:,})")
    if not rows:
        st.caption("No merge applied yet: step forward.")
        return
    st.dataframe(
        pd.DataFrame(rows), hide_index=True, width="content", height=min(35 * (len(rows) + 1) + 3, 360),
        column_config={
            "rank": st.column_config.NumberColumn("Rank", width=56),
            "left": st.column_config.TextColumn("Left", width=72),
            "right": st.column_config.TextColumn("Right", width=72),
            "new": st.column_config.TextColumn("New symbol", width=96),
            "count": st.column_config.NumberColumn("Count", format="localized", width=80),
            "id": st.column_config.NumberColumn("Token id", width=72),
        },
    )  # fmt: skip
