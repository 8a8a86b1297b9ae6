"""How the premium is defined, what the bundled sample is, and the published premiums beside it."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from tokenizer_core.languages import (
    PREMIUM_CITATION,
    PREMIUM_DEFINITION,
    parallel_sample_info,
    published_comparison,
)
from tokenizer_core.tokenizers import escape_markdown

from ..state import get_tokenizers, named
from .cached import cached_table, sample


def about_section() -> None:
    info = parallel_sample_info()
    with st.expander("How the premium is defined, and what the bundled sample is", icon=":material/info:"):
        st.markdown(f"**Premium.** {escape_markdown(PREMIUM_DEFINITION)}")
        st.caption(f"After {escape_markdown(PREMIUM_CITATION)}")
        st.markdown(
            f"**The bundled sample** ({info.n_languages} languages, {escape_markdown(info.written)}): "
            f"{escape_markdown(info.title.lower())}. {escape_markdown(info.provenance)}"
        )
        st.markdown(
            "**Words** are counted only where spaces separate words. Chinese, Japanese, Thai and "
            "Burmese are written without them, so they have no word count and no tokens per word; "
            "see the Note column for other caveats (Vietnamese spaces separate syllables)."
        )
        toks, _ = get_tokenizers(["cl100k_base", "r50k_base"])
        if len(toks) == 2:
            rows = named(cached_table(tuple(sample()), ("cl100k_base", "r50k_base"), "en", toks), toks)
            st.markdown(
                "**Published premiums** (Petrov et al. 2023, FLORES-200, English base) next to this sample's:"
            )
            st.dataframe(
                pd.DataFrame(published_comparison(rows)), hide_index=True,
                column_config={
                    "published (FLORES-200)": st.column_config.NumberColumn(format="%.2f"),
                    "this sample": st.column_config.NumberColumn(format="%.2f"),
                },
            )  # fmt: skip
            st.caption(
                "One short passage is not FLORES-200: expect the same order of magnitude, not the same "
                "figures. Their cl100k_base median over 203 languages is 2.26."
            )
