"""App layer of the chunk previewer: cached chunking and counting, samples, the model callback."""

from __future__ import annotations

import streamlit as st

from tokenizer_core import (
    CHUNK_SAMPLES,
    EMBEDDING_MODELS,
    ChunkResult,
    Tokenizer,
    chunk_text,
    load_chunk_sample,
    long_document,
)

SAMPLES = {s.label: (lambda k=s.id: load_chunk_sample(k)) for s in CHUNK_SAMPLES.values()}
SAMPLES["Long document (about 1 MB of Markdown)"] = long_document


@st.cache_data(max_entries=8, ttl=600, show_spinner="Chunking...")  # chunks of up to 20 MB of text
def cached_chunks(
    text: str, tokenizer_id: str, strategy: str, size: int, overlap: int, _tok: Tokenizer
) -> ChunkResult:
    return chunk_text(text, _tok, strategy=strategy, size=size, overlap=overlap)


@st.cache_data(max_entries=32, ttl=3600, show_spinner=False)
def cached_count(text: str, tokenizer_id: str, _tok: Tokenizer) -> int:
    return _tok.count(text)


def on_model_change() -> None:
    """Picking an embedding model sets the chunk size to its limit."""
    model = next((m for m in EMBEDDING_MODELS if m.name == st.session_state.get("chunks_model")), None)
    if model is not None:
        st.session_state["chunks_size"] = model.limit
