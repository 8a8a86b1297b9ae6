"""Chunk previewer: token-sized chunks for retrieval, with exact offsets and real overlaps."""

from __future__ import annotations

import streamlit as st

from tokenizer_core import ChunkSettingsError, TokenizerFailed, TokenizerUnavailable
from tokenizer_core.chunking import (
    EMBEDDING_MODELS,
    least_chunks,
    limit_warning,
    overlap_tokens,
    smallest_size,
    validate_settings,
)
from tokenizer_core.tokenizers import escape_markdown
from ui.chunks.char_sizing import char_sizing_section
from ui.chunks.chunking import chunks_of, document_tokens
from ui.chunks.details import details_section
from ui.chunks.document import document_view
from ui.chunks.options import SAMPLES, settings_form, strategy_tip
from ui.chunks.stats import stats_section
from ui.chunks.table import table_section
from ui.messages import show_notes
from ui.saved_work import keep_work
from ui.state import get_tokenizer
from ui.widgets import show_unavailable, text_source, tokenizer_failed

MAX_CHUNKS = 50_000  # more would make a table nobody reads and a slow page

st.title("Chunk previewer")
st.caption(
    "Cut a document into chunks that fit an embedding model, measured in tokens of the tokenizer "
    "you pick. Every chunk has exact offsets, its real token count and its real overlap."
)
keep_work("chunks")  # in the browser, for a reload (ui/saved_work.py); before any st.stop
text = text_source("chunks", samples=SAMPLES, default_sample=next(iter(SAMPLES)), height=200)
strategy, tokenizer_id, size, overlap_raw, model_name = settings_form()
model = next((m for m in EMBEDDING_MODELS if m.name == model_name), None)

try:
    overlap = overlap_tokens(size, unit=overlap_raw[0], value=overlap_raw[1])
    validate_settings(strategy=strategy, size=size, overlap=overlap)
except ChunkSettingsError as exc:
    st.error(escape_markdown(str(exc)), icon=":material/tune:")
    st.stop()

try:
    tok = get_tokenizer(tokenizer_id)
except TokenizerUnavailable as exc:
    show_unavailable([exc])
    st.stop()

if not text.strip():
    st.info(
        "Paste a document, upload a file or load a sample to see its chunks. "
        + ("(The text is only whitespace, which makes no chunks.)" if text else ""),
        icon=":material/edit:",
    )  # fmt: skip
    st.stop()

try:
    doc_tokens = document_tokens(text, tok)
except TokenizerFailed as exc:
    tokenizer_failed(exc, tok.info.name)
    st.stop()
if doc_tokens is None:  # cancelled: the page said so
    st.stop()
if (least := least_chunks(doc_tokens, size=size, overlap=overlap)) > MAX_CHUNKS:
    with_overlap = f" with an overlap of {overlap:,}" if overlap else ""
    st.error(
        f"A chunk size of {size:,}{with_overlap} would cut this {doc_tokens:,}-token document into at "
        f"least {least:,} chunks (the page shows at most {MAX_CHUNKS:,}). Use a chunk size of at least "
        f"{smallest_size(doc_tokens, overlap=overlap, max_chunks=MAX_CHUNKS):,} tokens"
        + (", or less overlap." if overlap else "."), icon=":material/tune:",
    )  # fmt: skip
    st.stop()

result = chunks_of(text, tok, strategy, size, overlap)
if result is None:
    st.stop()
if len(result.chunks) > MAX_CHUNKS:  # boundaries can make more chunks than the fewest possible
    st.error(
        f"These settings cut the document into {len(result.chunks):,} chunks (the page shows at most "
        f"{MAX_CHUNKS:,}). Use a larger chunk size or less overlap.", icon=":material/tune:",
    )  # fmt: skip
    st.stop()
strategy_tip(text, strategy)
if model is not None:
    if (msg := limit_warning(result.chunks, model, tok.id)) is not None:
        st.warning(msg, icon=":material/warning:")
    if model.tokenizer_id and model.tokenizer_id != tok.id:
        st.info(
            f"{model.name} counts with **{model.tokenizer_id}**; you are counting with "
            f"**{escape_markdown(tok.info.name)}**, so its numbers may differ.", icon=":material/info:",
        )  # fmt: skip
    elif not model.tokenizer_id:
        st.caption(
            f"{model.name}: {model.note}. Counts here are in {escape_markdown(tok.info.name)} tokens, an estimate."
        )
show_notes(result.warnings, kind="info", icon=":material/info:")

limit = model.limit if model else None
stats_section(result, doc_tokens, limit)
document_view(text, result, limit)
table_section(result)
details_section(text, result, tok)
char_sizing_section(text, tok, size)  # the documents' common mistake, on this document
