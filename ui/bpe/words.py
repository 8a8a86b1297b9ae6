"""The corpus of the BPE playground after k merges: its distinct words, split into tokens."""

from __future__ import annotations

import streamlit as st

from tokenizer_core import BPEModel
from tokenizer_core.bpe import bpe_words_at_step, bpe_words_html, plural

from .model import encoder_for, session_cached

MAX_WORDS_SHOWN = 300
MAX_TOKENS_SHOWN = 4_000  # tokens drawn in the corpus view: long CJK words made it 10 MB of HTML
MAX_VIEW_WORD_CHARS = 120  # a longer word is drawn split on its first 120 characters (then "…")


def words_section(model: BPEModel, k: int) -> None:
    st.subheader(f"The corpus after {plural(k, 'merge')}")
    if not model.words:
        st.info("A model loaded from a file has no corpus. Probe it below, or train one to see its words.",
                icon=":material/info:")  # fmt: skip
        return
    c1, c2 = st.columns([3, 2], vertical_alignment="bottom")
    order = c2.segmented_control(
        "Order", ["corpus", "frequent"], key="bpe_words_order", persist_state="session", default="corpus",
        format_func={"corpus": "Corpus order", "frequent": "Most frequent"}.get,
    ) or "corpus"  # fmt: skip
    views = session_cached(
        ("words", k, order),
        lambda: bpe_words_at_step(
            model,
            k,
            max_words=MAX_WORDS_SHOWN,
            max_tokens=MAX_TOKENS_SHOWN,
            max_word_chars=MAX_VIEW_WORD_CHARS,
            order=order,
            encoder=encoder_for(model),
        ),
    )
    shown = (
        f"all {len(views):,}" if len(views) == len(model.words) else f"{len(views):,} of {len(model.words):,}"
    )
    c1.caption(
        f"Showing {shown} distinct words (at most {MAX_WORDS_SHOWN:,}, or {MAX_TOKENS_SHOWN:,} tokens), each "
        f"with its count; a word longer than {MAX_VIEW_WORD_CHARS} characters is drawn split on its first "
        f"{MAX_VIEW_WORD_CHARS} (…: its last tokens may differ in the whole word). The corpus is "
        f"{model.corpus_tokens_at(k):,} tokens now ({model.initial_tokens:,} at the start). "
        "Same token, same colour."
    )
    st.html(bpe_words_html(views))
