"""Chunk previewer: token-sized chunks for retrieval, with exact offsets and real overlaps."""

from __future__ import annotations

import streamlit as st

from tokenizer_core import ChunkSettingsError, TokenizerFailed, TokenizerUnavailable
from tokenizer_core.bpe import plural
from tokenizer_core.chunking import (
    EMBEDDING_MODELS,
    STRATEGIES,
    ChunkResult,
    chunk_legend_html,
    chunk_stats,
    chunks_html,
    least_chunks,
    limit_warning,
    overlap_tokens,
    smallest_size,
    suited_strategy,
    validate_settings,
    view_window,
)
from tokenizer_core.chunking.charts import chunk_size_histogram, chunk_sizes_along
from tokenizer_core.tokenizers import escape_markdown
from ui.chunks.sections import (
    SAMPLES,
    chunks_of,
    details_section,
    document_tokens,
    on_model_change,
    table_section,
)
from ui.state import get_tokenizer
from ui.widgets import show_unavailable, text_source, tokenizer_failed, tokenizer_select

MAX_VIEW_CHUNKS = 80  # chunks drawn in the coloured view at a time
MAX_VIEW_CHARS = 60_000  # characters drawn in the coloured view at a time
MAX_CHUNKS = 50_000  # more would make a table nobody reads and a slow page
NO_MODEL = "No model limit"
DEFAULT_SIZE = 128  # small enough that the samples make several chunks


def settings_form() -> tuple[str, str, int, tuple[str, float], str]:
    """Widgets for strategy, tokenizer, model, size, overlap.

    Returns (strategy, tokenizer id, size, (overlap unit, overlap value), model name).
    """
    c1, c2, c3 = st.columns([3, 2, 3], vertical_alignment="bottom")
    with c1:
        strategy = st.selectbox(
            "Strategy", list(STRATEGIES), index=list(STRATEGIES).index("markdown"), key="chunks_strategy",
            format_func=lambda s: STRATEGIES[s].label,
            help="\n\n".join(f"**{s.label}**: {s.description}" for s in STRATEGIES.values()),
        )  # fmt: skip
    with c2:
        tokenizer_id = tokenizer_select(
            "chunks_tokenizer", multi=False, label="Tokenizer", default=("cl100k_base",),
            help="Chunk sizes are counted in this tokenizer's tokens. Use the one your embedding model uses.",
        )  # fmt: skip
    with c3:
        model_name = st.selectbox(
            "Embedding model", [NO_MODEL, *(m.name for m in EMBEDDING_MODELS)], key="chunks_model",
            on_change=on_model_change,
            format_func=lambda n: n if n == NO_MODEL else f"{n} ({next(m.limit for m in EMBEDDING_MODELS if m.name == n):,})",
            help="Sets the chunk size to the model's input limit and warns when chunks exceed it.",
        )  # fmt: skip
    c4, c5, c6, c7 = st.columns([2, 2, 2, 2], vertical_alignment="bottom")
    with c4:
        # The default goes through session state only: the embedding model's callback also sets
        # it, and a widget given both a default and a state value makes Streamlit log a warning.
        st.session_state.setdefault("chunks_size", DEFAULT_SIZE)
        size = st.number_input(
            "Chunk size (tokens)", step=64, key="chunks_size",
            help="The most tokens one chunk may have, counted on the chunk's own text.",
        )  # fmt: skip
    with c5:
        unit = st.segmented_control(
            "Overlap in", ["tokens", "%"], default="tokens", key="chunks_overlap_unit",
            format_func={"tokens": "tokens", "%": "% of size"}.get,
        ) or "tokens"  # fmt: skip
    with c6:
        if unit == "%":
            pct = st.number_input("Overlap (% of size)", value=10.0, step=5.0, key="chunks_overlap_pct")
            overlap_raw = ("%", pct)
        else:
            overlap_raw = (
                "tokens",
                st.number_input("Overlap (tokens)", value=0, step=16, key="chunks_overlap"),
            )
    with c7:
        st.toggle("Show whitespace", key="chunks_ws", help="space ⋅, tab →, newline ↵")
    return strategy, tokenizer_id, int(size), overlap_raw, model_name


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
    c1.altair_chart(chunk_size_histogram(result.chunks, size=result.size, limit=limit), width="stretch")
    c2.altair_chart(chunk_sizes_along(result.chunks, size=result.size), width="stretch")


def document_view(text: str, result: ChunkResult, limit: int | None) -> None:
    st.subheader("Chunks in the document")
    chunks = result.chunks
    first = 0
    if len(chunks) > MAX_VIEW_CHUNKS or result.text_length > MAX_VIEW_CHARS:
        if st.session_state.setdefault("chunks_first", 0) > len(chunks) - 1:  # fewer chunks than before
            st.session_state["chunks_first"] = len(chunks) - 1
        first = int(st.columns([1, 3])[0].number_input(
            "Show chunks from number", min_value=0, max_value=len(chunks) - 1, step=MAX_VIEW_CHUNKS,
            key="chunks_first",
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


def strategy_tip(text: str, strategy: str) -> None:
    """Suggest the strategy that suits a bundled sample or the kind of file uploaded."""
    upload = st.session_state.get("chunks_upload")
    suited = suited_strategy(text, filename=upload.name if upload is not None else None)
    if suited and suited != strategy:
        st.caption(f"Tip: the **{STRATEGIES[suited].label}** strategy suits this document.")


st.title("Chunk previewer")
st.caption(
    "Cut a document into chunks that fit an embedding model, measured in tokens of the tokenizer "
    "you pick. Every chunk has exact offsets, its real token count and its real overlap."
)
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
for w in result.warnings:
    st.info(escape_markdown(w), icon=":material/info:")

limit = model.limit if model else None
stats_section(result, doc_tokens, limit)
document_view(text, result, limit)
table_section(result)
details_section(text, result, tok)
