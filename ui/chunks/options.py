"""The chunk previewer's inputs: the samples, the settings (strategy, tokenizer, embedding model,
size, overlap), and a tip when another strategy suits the document."""

from __future__ import annotations

import streamlit as st

from tokenizer_core.chunking import (
    CHUNK_SAMPLES,
    EMBEDDING_MODELS,
    STRATEGIES,
    load_chunk_sample,
    long_document,
    suited_strategy,
)

from ..widgets import tokenizer_select, uploaded_file_name

NO_MODEL = "No model limit"
DEFAULT_SIZE = 128  # small enough that the samples make several chunks
SAMPLES = {s.label: (lambda k=s.id: load_chunk_sample(k)) for s in CHUNK_SAMPLES.values()}
SAMPLES["Long document (about 1 MB of Markdown)"] = long_document


def settings_form() -> tuple[str, str, int, tuple[str, float], str]:
    """Widgets for strategy, tokenizer, model, size, overlap.

    Returns (strategy, tokenizer id, size, (overlap unit, overlap value), model name).
    """
    c1, c2, c3 = st.columns([3, 2, 3], vertical_alignment="bottom")
    with c1:
        strategy = st.selectbox(
            "Strategy", list(STRATEGIES), index=list(STRATEGIES).index("markdown"), key="chunks_strategy", persist_state="session",
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
            "Embedding model", [NO_MODEL, *(m.name for m in EMBEDDING_MODELS)], key="chunks_model", persist_state="session",
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
            "Chunk size (tokens)", step=64, key="chunks_size", persist_state="session",
            help="The most tokens one chunk may have, counted on the chunk's own text.",
        )  # fmt: skip
    with c5:
        unit = st.segmented_control(
            "Overlap in", ["tokens", "%"], default="tokens", key="chunks_overlap_unit", persist_state="session",
            format_func={"tokens": "tokens", "%": "% of size"}.get,
        ) or "tokens"  # fmt: skip
    with c6:
        if unit == "%":
            pct = st.number_input(
                "Overlap (% of size)", value=10.0, step=5.0, key="chunks_overlap_pct", persist_state="session"
            )
            overlap_raw = ("%", pct)
        else:
            overlap_raw = (
                "tokens",
                st.number_input(
                    "Overlap (tokens)", value=0, step=16, key="chunks_overlap", persist_state="session"
                ),
            )
    with c7:
        st.toggle(
            "Show whitespace", key="chunks_ws", persist_state="session", help="space ⋅, tab →, newline ↵"
        )
    return strategy, tokenizer_id, int(size), overlap_raw, model_name


def on_model_change() -> None:
    """Picking an embedding model sets the chunk size to its limit."""
    model = next((m for m in EMBEDDING_MODELS if m.name == st.session_state.get("chunks_model")), None)
    if model is not None:
        st.session_state["chunks_size"] = model.limit


def strategy_tip(text: str, strategy: str) -> None:
    """Suggest the strategy that suits a bundled sample or the kind of file uploaded."""
    suited = suited_strategy(text, filename=uploaded_file_name("chunks", text))
    if suited and suited != strategy:
        st.caption(f"Tip: the **{STRATEGIES[suited].label}** strategy suits this document.")
