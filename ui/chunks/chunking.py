"""The chunk previewer's work: the document's tokens and its chunks, cached for every session, a
large document counted and chunked in a worker process."""

from __future__ import annotations

import streamlit as st

from tokenizer_core import Tokenizer, chunk_text
from tokenizer_core.chunking import ChunkResult
from tokenizer_core.portable import TokenizerRef, portable
from tokenizer_core.tasks import chunk_task, count_task

from ..jobs import in_process_max_chars, pooled_result, show_stopped, text_digest


@st.cache_data(max_entries=8, ttl=600, show_spinner="Chunking...")
def cached_chunks(
    text: str, tokenizer_id: str, strategy: str, size: int, overlap: int, _tok: Tokenizer
) -> ChunkResult:
    return chunk_text(text, _tok, strategy=strategy, size=size, overlap=overlap)


@st.cache_data(max_entries=32, ttl=3600, show_spinner=False)
def cached_count(text: str, tokenizer_id: str, _tok: Tokenizer) -> int:
    return _tok.count(text)


def pooled(tok: Tokenizer, text: str, kind: str) -> TokenizerRef | None:
    """`tok` as a worker can rebuild it when `text` is too large for this process, else None."""
    return portable(tok) if len(text) > in_process_max_chars(kind) else None


def document_tokens(text: str, tok: Tokenizer) -> int | None:
    """The document's token count; a large document is counted in a worker process (progress bar,
    Cancel). None, with a message shown, when the user cancelled."""
    if (ref := pooled(tok, text, "count")) is None:
        return cached_count(text, tok.id, tok)
    outcome = pooled_result(
        "chunks_count", ("count", text_digest(text), tok.id), count_task, text, (ref,), context_window=1,
        allow_special=False, weight=1, label="Counting the document's tokens...",
    )  # fmt: skip
    if outcome.error is not None:
        show_stopped("chunks_count", outcome, "Counting", "document")
        return None
    return outcome.value[0].tokens


def chunks_of(text: str, tok: Tokenizer, strategy: str, size: int, overlap: int) -> ChunkResult | None:
    """The chunks; a large document is chunked in a worker process (progress bar, Cancel).
    None, with a message shown, when the user cancelled."""
    if (ref := pooled(tok, text, "chunk")) is None:
        return cached_chunks(text, tok.id, strategy, size, overlap, tok)
    outcome = pooled_result(
        "chunks_job", ("chunks", text_digest(text), tok.id, strategy, size, overlap), chunk_task,
        text, ref, strategy, size, overlap, weight=len(text), label="Chunking...",
    )  # fmt: skip
    if outcome.error is not None:
        show_stopped("chunks_job", outcome, "Chunking", "document")
        return None
    return outcome.value
