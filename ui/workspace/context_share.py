"""One context window, shared by your prompt, the retrieved chunks and the answer, as one bar."""

from __future__ import annotations

import streamlit as st

from tokenizer_core.workspace.context_share import context_share, share_bar_html

from .state import WorkspaceState


def _prompt(state: WorkspaceState) -> tuple[int, str] | None:
    """The prompt's tokens as the page counted them, and by which model: the first one chosen."""
    if state.mode == "text":
        return (state.counts[0].tokens, state.counts[0].tokenizer) if state.counts else None
    if not state.tokens:
        return None
    return next(iter(state.tokens.values())), "the first model chosen"


def context_share_section(window: int, state: WorkspaceState) -> None:
    """An expander: the window as one bar, with the chunks and the answer it must also hold."""
    with st.expander("One context window, shared", icon=":material/stacked_bar_chart:"):
        counted = _prompt(state)
        prompt = counted[0] if counted else 0
        st.caption(
            "The system prompt, the chunks a retrieval step adds and the model's answer all come out of the "
            "same window." + (f" Your prompt above is {prompt:,} tokens in {counted[1]}." if counted else "")
        )
        c1, c2, c3 = st.columns(3)
        chunks = c1.number_input(
            "Retrieved chunks", 0, 1_000, 5, key="workspace_share_chunks", persist_state="session"
        )
        size = c2.number_input("Tokens per chunk", 0, 100_000, 512, step=64, key="workspace_share_chunk_tokens",
                               persist_state="session")  # fmt: skip
        answer = c3.number_input("Answer (tokens)", 0, 1_000_000, 1_000, step=100, key="workspace_share_answer",
                                 persist_state="session")  # fmt: skip
        share = context_share(window=window, prompt=prompt, chunks=int(chunks), chunk_tokens=int(size),
                              answer=int(answer))  # fmt: skip
        # st.html, not a markdown with raw HTML: that makes every fresh tab fetch 190 KB more JavaScript
        st.html(share_bar_html(share))
        (st.error if share.over else st.caption)(share.sentence())
