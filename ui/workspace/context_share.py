"""One context window, shared by your prompt, the retrieved chunks and the answer, as one bar."""

from __future__ import annotations

import streamlit as st

from tokenizer_core import Tokenizer
from tokenizer_core.tokenizers import clean_text
from tokenizer_core.workspace.context_share import context_share, share_bar_html

MAX_COUNTED = 200_000  # characters counted here; a longer prompt is the counts table's work


@st.cache_data(max_entries=16, ttl=3600, show_spinner=False)
def _prompt_tokens(text: str, tokenizer_id: str, _tok: Tokenizer) -> int:
    return _tok.count(text)


def context_share_section(window: int, toks: list[Tokenizer], text: str) -> None:
    """An expander: the window as one bar, with the chunks and the answer it must also hold."""
    with st.expander("One context window, shared", icon=":material/stacked_bar_chart:"):
        text = clean_text(text)  # a lone surrogate (half an emoji from a link) hashes for the cache
        tok = toks[0] if toks and len(text) <= MAX_COUNTED else None
        prompt = _prompt_tokens(text, tok.id, tok) if tok is not None and text else 0
        st.caption(
            "The system prompt, the chunks a retrieval step adds and the model's answer all come out of the "
            "same window."
            + (f" Your prompt above is {prompt:,} tokens in {tok.info.name}." if tok is not None else "")
        )
        c1, c2, c3 = st.columns(3)
        chunks = c1.number_input("Retrieved chunks", 0, 1_000, 5, key="share_chunks", persist_state="session")
        size = c2.number_input("Tokens per chunk", 0, 100_000, 512, step=64, key="share_chunk_tokens",
                               persist_state="session")  # fmt: skip
        answer = c3.number_input("Answer (tokens)", 0, 1_000_000, 1_000, step=100, key="share_answer",
                                 persist_state="session")  # fmt: skip
        share = context_share(window=window, prompt=prompt, chunks=int(chunks), chunk_tokens=int(size),
                              answer=int(answer))  # fmt: skip
        st.markdown(share_bar_html(share), unsafe_allow_html=True)
        (st.error if share.over else st.caption)(share.sentence())
