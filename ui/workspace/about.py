"""About the tokenizers: where each comes from, and the models no public tokenizer counts."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from tokenizer_core.tokenizers import NO_PUBLIC_TOKENIZER, escape_markdown

from ..state import tokenizer_infos


def about_tokenizers() -> None:
    with st.expander("About these tokenizers", icon=":material/info:"):
        st.table(  # text in every column: a static table wraps it to the page's width
            pd.DataFrame(
                [
                    {  # a static table reads its cells as Markdown: a user's names and file names are escaped
                        k: escape_markdown(v) for k, v in {
                            "Tokenizer": i.name, "Family": i.family, "Used by": ", ".join(i.models),
                            "Vocabulary": f"{i.vocab_size:,}", "Data source": i.source, "License": i.license,
                            "Notes": i.notes,
                        }.items()
                    }
                    for i in tokenizer_infos()
                ]
            ),
            hide_index=True,
        )  # fmt: skip
        st.caption(
            "Counts are of the text alone. A chat API adds tokens per message for roles and "
            'separators: switch the prompt to "Chat request" to see the whole request, per model family.'
        )
        st.caption(
            "Not here, on purpose: "
            + " ".join(escape_markdown(f"{name}: {why}") for name, why in NO_PUBLIC_TOKENIZER.items())
            + " Any number shown for them would be a guess."
        )
