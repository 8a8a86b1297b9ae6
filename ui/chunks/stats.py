"""The chunk previewer's figures and charts: how many chunks, how large, how much they overlap."""

from __future__ import annotations

import streamlit as st

from tokenizer_core.bpe import plural
from tokenizer_core.chunking import ChunkResult, chunk_stats
from tokenizer_core.chunking.charts import chunk_size_histogram, chunk_sizes_along
from tokenizer_core.tokenizers.vega import vega_lite_spec


def stats_section(result: ChunkResult, doc_tokens: int, limit: int | None) -> None:
    stats = chunk_stats(result.chunks, limit=limit)
    cols = st.columns(6 if result.overlap else 5)
    cols[0].metric(
        "Chunks",
        f"{stats.chunks:,}",
        help=f"Document: {plural(doc_tokens, 'token')}, {plural(result.text_length, 'character')}",
    )
    cols[1].metric("Mean tokens", f"{stats.mean_tokens:,.1f}", help=f"Median {stats.median_tokens:,.0f}")
    cols[2].metric("Min tokens", f"{stats.min_tokens:,}")
    cols[3].metric("Max tokens", f"{stats.max_tokens:,}", help=f"Budget {result.size:,}")
    cols[4].metric("Mean characters", f"{stats.mean_chars:,.0f}")
    if result.overlap:
        cols[5].metric(
            "Mean overlap", f"{stats.mean_overlap_tokens:,.1f}",
            help=f"Setting: {plural(result.overlap, 'token')}. Measured on the shared text of each pair of chunks.",
        )  # fmt: skip
    c1, c2 = st.columns(2)
    c1.vega_lite_chart(
        vega_lite_spec(chunk_size_histogram(result.chunks, size=result.size, limit=limit)), width="stretch"
    )
    c2.vega_lite_chart(vega_lite_spec(chunk_sizes_along(result.chunks, size=result.size)), width="stretch")
