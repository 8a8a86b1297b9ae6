"""The chunk previewer's work: the document's tokens (counted by ui/counting.py) and its chunks,
cached for every session, a large document counted and chunked in a worker process."""

from __future__ import annotations

import streamlit as st

from tokenizer_core import Tokenizer, chunk_text
from tokenizer_core.chunking import ChunkResult
from tokenizer_core.portable import TokenizerRef, portable
from tokenizer_core.tasks import chunk_task

from ..counting import counts
from ..jobs import in_process_max_chars, pooled_result, show_stopped, text_digest


@st.cache_data(max_entries=8, ttl=600, show_spinner="Chunking...")
def cached_chunks(
    text: str, tokenizer_id: str, strategy: str, size: int, overlap: int, _tok: Tokenizer
) -> ChunkResult:
    return chunk_text(text, _tok, strategy=strategy, size=size, overlap=overlap)


def pooled(tok: Tokenizer, text: str, kind: str) -> TokenizerRef | None:
    """`tok` as a worker can rebuild it when `text` is too large for this process, else None."""
    return portable(tok) if len(text) > in_process_max_chars(kind) else None


def document_tokens(text: str, tok: Tokenizer) -> int | None:
    """The document's token count (ui/counting.py; a large document is counted in a worker
    process, with a progress bar and Cancel). None, with a message shown, when the user cancelled."""
    rows = counts(text, [tok], special=False, where="chunks", what="document")
    return None if rows is None else rows[0].tokens


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
