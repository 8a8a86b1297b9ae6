"""The document with its chunks coloured in, a window of them at a time."""

from __future__ import annotations

import streamlit as st

from tokenizer_core.chunking import ChunkResult, chunk_legend_html, chunks_html, view_window

MAX_VIEW_CHUNKS = 80  # chunks drawn in the coloured view at a time
MAX_VIEW_CHARS = 60_000  # characters drawn in the coloured view at a time


def document_view(text: str, result: ChunkResult, limit: int | None) -> None:
    st.subheader("Chunks in the document")
    chunks = result.chunks
    first = 0
    if len(chunks) > MAX_VIEW_CHUNKS or result.text_length > MAX_VIEW_CHARS:
        if st.session_state.setdefault("chunks_first", 0) > len(chunks) - 1:  # fewer chunks than before
            st.session_state["chunks_first"] = len(chunks) - 1
        first = int(st.columns([1, 3])[0].number_input(
            "Show chunks from number", min_value=0, max_value=len(chunks) - 1, step=MAX_VIEW_CHUNKS,
            key="chunks_first", persist_state="session",
        ))  # fmt: skip
    window = view_window(chunks, first=first, max_chunks=MAX_VIEW_CHUNKS, max_chars=MAX_VIEW_CHARS)
    if window.partial:
        st.caption(
            f"Showing chunks {window.first:,}–{window.last - 1:,} of {len(chunks):,} (characters "
            f"{window.start:,}–{window.end:,} of {result.text_length:,}). The coloured view draws at "
            f"most {MAX_VIEW_CHUNKS} chunks or about {MAX_VIEW_CHARS:,} characters at a time so the page "
            "stays fast; the stats, table and downloads cover every chunk."
        )
    st.html(chunk_legend_html(overlap=result.overlap > 0, limit=limit))
    st.html(
        chunks_html(
            text, chunks, window=window, show_whitespace=bool(st.session_state.get("chunks_ws")), limit=limit
        )
    )
