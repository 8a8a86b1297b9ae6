"""The common mistake beside the chunks: the same document cut in characters, measured in tokens."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from tokenizer_core.chunking.char_sizing import MAX_CHAR_CHUNKS, CharSizing, character_sizing
from tokenizer_core.tokenizers import Tokenizer

SHOWN = 200


@st.cache_data(max_entries=16, ttl=3600, show_spinner=False)
def _sizing(text: str, tokenizer_id: str, budget: int, _tok: Tokenizer) -> CharSizing:
    return character_sizing(text, _tok, budget=budget)


def char_sizing_section(text: str, tok: Tokenizer, budget: int) -> None:
    """An expander: the document cut every 4 x budget characters, chunks over the budget marked."""
    with st.expander("The common mistake: chunks sized in characters", icon=":material/straighten:"):
        sizing = _sizing(text, tok.id, budget, tok)
        (st.warning if sizing.over else st.info)(sizing.sentence(), icon=":material/straighten:")
        rows = pd.DataFrame(
            {
                "Chunk": [c.index + 1 for c in sizing.chunks[:SHOWN]],
                "Characters": [f"{c.start:,}-{c.end:,}" for c in sizing.chunks[:SHOWN]],
                "Tokens": [c.tokens for c in sizing.chunks[:SHOWN]],
                "Over the budget": ["yes" if c.over else "" for c in sizing.chunks[:SHOWN]],
            }
        )
        st.dataframe(rows, hide_index=True, width="stretch")
        more = []
        if len(sizing.chunks) > SHOWN:
            more.append(f"The first {SHOWN:,} of {len(sizing.chunks):,} chunks are listed.")
        if sizing.cut_short:
            more.append(f"Only the first {MAX_CHAR_CHUNKS:,} chunks were measured.")
        st.caption(
            " ".join([*more, "The page's own chunks (above) are cut in tokens, so none of them goes over."])
        )
