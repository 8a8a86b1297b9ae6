"""The premiums in numbers: a median premium per tokenizer, and the full table."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from tokenizer_core.languages import LanguageRow, summarize
from tokenizer_core.tokenizers import escape_markdown


def summary_metrics(rows: list[LanguageRow], base_name: str) -> None:
    sums = summarize(rows)
    if not sums:
        st.info(
            f"Add a second language to compare it with {escape_markdown(base_name)}.", icon=":material/info:"
        )
        return
    cols = st.columns(min(len(sums), 5))
    for i, s in enumerate(sums):
        with cols[i % len(cols)]:
            st.metric(
                escape_markdown(s.tokenizer), f"{s.median_premium:.2f}×",
                help=f"Median premium over {s.languages} languages: tokens ÷ tokens in "
                f"{escape_markdown(base_name)}.",
            )  # fmt: skip
            st.caption(
                f"median premium  \nmost: {escape_markdown(s.max_language)} {s.max_premium:.2f}×  \n"
                f"least: {escape_markdown(s.min_language)} {s.min_premium:.2f}×"
            )


def table_section(rows: list[LanguageRow]) -> None:
    df = pd.DataFrame([{f: getattr(r, f) for f in LanguageRow.__dataclass_fields__} for r in rows])
    # a language's note is the same on each of its rows: said once under the table, not in a column
    notes = dict.fromkeys((r.language, r.words_note) for r in rows if r.words_note)
    df = df.drop(columns=["base_code", "base_tokens", "is_base", "code", "words_note"])
    st.dataframe(
        df, hide_index=True, width="stretch", height=360,
        column_config={
            "language": st.column_config.TextColumn("Language", pinned=True), "script": "Script",
            "tokenizer_id": None, "tokenizer": st.column_config.TextColumn("Tokenizer", pinned=True),
            "tokens": st.column_config.NumberColumn("Tokens", format="localized"),
            "characters": st.column_config.NumberColumn("Characters", format="localized"),
            "utf8_bytes": st.column_config.NumberColumn("UTF-8 bytes", format="localized"),
            "words": st.column_config.NumberColumn("Words", help="Whitespace-delimited; empty for scripts without spaces between words (see the notes under the table)."),
            "chars_per_token": st.column_config.NumberColumn("Chars / token", format="%.2f"),
            "bytes_per_token": st.column_config.NumberColumn("Bytes / token", format="%.2f"),
            "tokens_per_word": st.column_config.NumberColumn("Tokens / word", format="%.2f"),
            "premium": st.column_config.NumberColumn("Premium", format="%.3f×"),
        },
    )  # fmt: skip
    if notes:
        st.caption(
            "  \n".join(f"**{escape_markdown(lang)}**: {escape_markdown(note)}" for lang, note in notes)
        )
