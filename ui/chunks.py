"""App layer of the chunk previewer: cached chunking and counting (large documents in a worker
process), samples, the model callback."""

from __future__ import annotations

import streamlit as st

from tokenizer_core import (
    BUILTINS,
    CHUNK_SAMPLES,
    EMBEDDING_MODELS,
    ChunkResult,
    Tokenizer,
    chunk_text,
    escape_markdown,
    load_chunk_sample,
    long_document,
)
from tokenizer_core.tasks import chunk_task, count_task

from .jobs import JobOutcome, in_process_max_chars, pooled_result, run_again_button, text_digest

SAMPLES = {s.label: (lambda k=s.id: load_chunk_sample(k)) for s in CHUNK_SAMPLES.values()}
SAMPLES["Long document (about 1 MB of Markdown)"] = long_document


@st.cache_data(max_entries=8, ttl=600, show_spinner="Chunking...")
def cached_chunks(
    text: str, tokenizer_id: str, strategy: str, size: int, overlap: int, _tok: Tokenizer
) -> ChunkResult:
    return chunk_text(text, _tok, strategy=strategy, size=size, overlap=overlap)


@st.cache_data(max_entries=32, ttl=3600, show_spinner=False)
def cached_count(text: str, tokenizer_id: str, _tok: Tokenizer) -> int:
    return _tok.count(text)


def _pooled(tok: Tokenizer, text: str, kind: str) -> bool:
    return tok.id in BUILTINS and len(text) > in_process_max_chars(kind)


def _stopped(key: str, outcome: JobOutcome, what: str) -> None:
    if outcome.cancelled:
        st.info(f"{what} cancelled. The document is still in the box.", icon=":material/cancel:")
        run_again_button(key, f"{what} again")
    else:
        st.error(f"{what} failed: {escape_markdown(outcome.error)}", icon=":material/error:")


def document_tokens(text: str, tok: Tokenizer) -> int | None:
    """The document's token count; a large document is counted in a worker process (progress bar,
    Cancel). None, with a message shown, when the user cancelled."""
    if not _pooled(tok, text, "count"):
        return cached_count(text, tok.id, tok)
    outcome = pooled_result(
        "chunks_count", ("count", text_digest(text), tok.id), count_task, text, (tok.id,), context_window=1,
        allow_special=False, weight=len(text), label="Counting the document's tokens...",
    )  # fmt: skip
    if outcome.error is not None:
        _stopped("chunks_count", outcome, "Counting")
        return None
    return outcome.value[0].tokens


def chunks_of(text: str, tok: Tokenizer, strategy: str, size: int, overlap: int) -> ChunkResult | None:
    """The chunks; a large document is chunked in a worker process (progress bar, Cancel).
    None, with a message shown, when the user cancelled."""
    if not _pooled(tok, text, "chunk"):
        return cached_chunks(text, tok.id, strategy, size, overlap, tok)
    outcome = pooled_result(
        "chunks_job", ("chunks", text_digest(text), tok.id, strategy, size, overlap), chunk_task,
        text, tok.id, strategy, size, overlap, weight=2 * len(text), label="Chunking...",
    )  # fmt: skip
    if outcome.error is not None:
        _stopped("chunks_job", outcome, "Chunking")
        return None
    return outcome.value


def on_model_change() -> None:
    """Picking an embedding model sets the chunk size to its limit."""
    model = next((m for m in EMBEDDING_MODELS if m.name == st.session_state.get("chunks_model")), None)
    if model is not None:
        st.session_state["chunks_size"] = model.limit
