"""The probe of the BPE playground: a text of the user's, split by the first k merges."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from tokenizer_core import BPEModel
from tokenizer_core.bpe import bpe_fired_rows, bpe_tokens_summary, plural, probe_bpe
from tokenizer_core.tokenizers import TokenPane, escape_markdown, legend_html

from ..token_view import token_view
from .model import encoder_for, session_cached

MAX_PROBE_CHARS = 5_000


def probe_section(model: BPEModel, k: int) -> None:
    st.subheader(
        f"Probe: your text with the first {plural(k, 'merge')}" if k else "Probe: your text before any merge"
    )
    st.session_state.setdefault("bpe_probe", "lowest newer")
    text = st.text_input("Probe text", key="bpe_probe", persist_state="session", help="Any text: it is encoded with the merges "
                         "learned so far, in the order they were learned.")  # fmt: skip
    if len(text) > MAX_PROBE_CHARS:
        st.warning(f"The probe is {len(text):,} characters; only the first {MAX_PROBE_CHARS:,} are shown.")
        text = text[:MAX_PROBE_CHARS]
    if not text:
        st.caption("Type something to see how the merges split it.")
        return
    result = session_cached(
        ("probe", k, text), lambda: probe_bpe(model, text, step=k, encoder=encoder_for(model))
    )
    st.caption(escape_markdown(bpe_tokens_summary(result)))
    token_view(
        result.text, [TokenPane("", list(result.segments))], key="bpe_probe_view", show_whitespace=True
    )
    st.html(legend_html([("hover", "token ids, bytes and offsets"), ("⋅ → ↵", "space, tab, newline")]))
    rows = bpe_fired_rows(result)
    if rows:
        st.markdown("**Which merges fired, in order**")
        st.dataframe(
            pd.DataFrame(rows), hide_index=True, width="stretch",
            column_config={"merge": st.column_config.NumberColumn("Merge #", width="small"),
                           "pair": "Pair", "new": "New symbol", "times": "Times",
                           "at characters": "At characters (0-based)"},
        )  # fmt: skip
    else:
        st.caption("No merge applies to this text yet.")
