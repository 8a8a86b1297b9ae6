"""How the chunks were made, and a check of every chunk from scratch on request."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from tokenizer_core import Tokenizer
from tokenizer_core.chunking import STRATEGIES, ChunkResult, check_chunks
from tokenizer_core.tasks import check_chunks_task
from tokenizer_core.tokenizers import escape_markdown

from ..jobs import pooled_result, show_stopped, text_digest
from .chunking import pooled


def details_section(text: str, result: ChunkResult, tok: Tokenizer) -> None:
    """How the chunks were made, and a check of every guarantee from scratch (on request: its
    answer stays until the chunks change)."""
    with st.expander("How these chunks were made", icon=":material/account_tree:"):
        st.dataframe(
            pd.DataFrame([{"step": s.kind, "what": s.name, "count": s.count, "detail": s.detail} for s in result.steps]),
            hide_index=True,
        )  # fmt: skip
        st.caption(
            f"{STRATEGIES[result.strategy].description} Took {result.seconds:.2f} s. Every token count is "
            f"{escape_markdown(tok.info.name)}'s own count of that chunk's text; where a chunk is a join "
            "of pieces at a newline before a letter, the pieces' counts add up exactly and are summed."
        )
        key = ("check", text_digest(text), tok.id, result.strategy, result.size, result.overlap)
        if st.button(
            "Check every chunk again from scratch", key="chunks_check", icon=":material/fact_check:"
        ):
            st.session_state["chunks_check_for"] = key
            st.session_state.pop("chunks_check_done", None)
        if (
            st.session_state.get("chunks_check_for") != key
            or (problems := checked(text, result, tok, key)) is None
        ):
            return
        if problems:
            st.error("Problems found:\n\n" + "\n".join(f"- {escape_markdown(p)}" for p in problems[:20]))
        else:
            st.success(
                f"All {len(result.chunks):,} chunks check out: text[start:end] is each chunk's text, "
                "they cover the document in order, token counts and overlaps are exact, no chunk is "
                "over the budget or cuts a character.", icon=":material/check:",
            )  # fmt: skip


def checked(text: str, result: ChunkResult, tok: Tokenizer, key: tuple) -> list[str] | None:
    """`check_chunks` of the chunks shown, once per chunking (kept for this session); for a large
    document in a worker process (progress bar, Cancel). None, with a message shown, when the
    user cancelled."""
    done = st.session_state.get("chunks_check_done")
    if done is not None and done[0] == key:
        return done[1]
    if (ref := pooled(tok, text, "chunk")) is None:
        problems = check_chunks(text, result.chunks, tok, size=result.size)
    else:
        outcome = pooled_result(
            "chunks_check", key, check_chunks_task, text, result.chunks, ref, result.size, weight=1,
            label="Checking the chunks...",
        )  # fmt: skip
        if outcome.error is not None:
            show_stopped("chunks_check", outcome, "Checking", "document")
            return None
        problems = outcome.value
    st.session_state["chunks_check_done"] = (key, problems)
    return problems
