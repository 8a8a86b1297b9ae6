"""Why premiums differ, beside the charts: measured on the texts shown, for each tokenizer."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from tokenizer_core.languages import Language
from tokenizer_core.languages.why import PremiumReason, premium_reasons, why_sentence
from tokenizer_core.tokenizers import Tokenizer, escape_markdown


@st.cache_data(max_entries=16, ttl=3600, show_spinner=False)
def _reasons(
    languages: tuple[Language, ...], ids: tuple[str, ...], base: str, _toks: list[Tokenizer]
) -> list[PremiumReason]:
    return premium_reasons(list(languages), _toks, base=base)


def why_section(languages: list[Language], toks: list[Tokenizer], base: str) -> None:
    """An expander: for each tokenizer, why its dearest language costs more; a table of the measures."""
    with st.expander("Why premiums differ", icon=":material/help:"):
        rows = _reasons(tuple(languages), tuple(t.id for t in toks), base, toks)
        names = {t.id: t.info.name for t in toks}
        st.write(
            "Three things make a language cost more tokens, measured here on the texts above: how many "
            "UTF-8 bytes each character takes, how long the pieces of its script are in the tokenizer's "
            "vocabulary, and how many of its characters have no token at all and fall back to bytes."
        )
        for tid in names:
            mine = [r for r in rows if r.tokenizer_id == tid]
            base_row = next((r for r in mine if r.code == base), None)
            others = [r for r in mine if r.code != base and r.premium is not None]
            if base_row is None or not others:
                continue
            dearest = max(others, key=lambda r: r.premium or 0.0)
            st.markdown(
                f"**{escape_markdown(names[tid])}**: {escape_markdown(why_sentence(dearest, base_row))}"
            )
        table = pd.DataFrame(
            {
                "Tokenizer": [names.get(r.tokenizer_id, r.tokenizer_id) for r in rows],
                "Language": [r.language for r in rows],
                "Premium": [round(r.premium, 2) if r.premium is not None else None for r in rows],
                "UTF-8 bytes per character": [round(r.bytes_per_char, 2) for r in rows],
                "Characters per token": [round(r.chars_per_token, 2) for r in rows],
                "Characters as byte pieces": [f"{r.byte_piece_share:.0%}" for r in rows],
            }
        )
        st.dataframe(table, hide_index=True, width="stretch")
