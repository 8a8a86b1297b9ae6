"""The table of all chunks, and their downloads as JSONL and CSV."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from tokenizer_core.chunking import ChunkResult, chunk_table, chunks_to_csv, chunks_to_jsonl

MAX_TABLE_ROWS = 1_000  # rows of the chunk table sent at a time (about 125 KB)


def table_section(result: ChunkResult) -> None:
    st.subheader("All chunks")
    n, first = len(result.chunks), 0
    if n > MAX_TABLE_ROWS:  # the rows from where the view above starts: the page stays light
        first = max(0, min(int(st.session_state.get("chunks_first", 0)), n - MAX_TABLE_ROWS))
        st.caption(f"Rows {first:,}–{first + MAX_TABLE_ROWS - 1:,} of {n:,}, from the chunk the view above "
                   "starts at. The downloads have every chunk.")  # fmt: skip
    df = pd.DataFrame(chunk_table(result, first=first, rows=MAX_TABLE_ROWS))
    st.dataframe(
        df, hide_index=True, height=min(420, 38 + 35 * len(df)),
        column_config={
            "tokens": st.column_config.ProgressColumn("tokens", format="%d", min_value=0, max_value=max(result.size, 1)),
            "start": st.column_config.NumberColumn("start", format="%d"),
            "end": st.column_config.NumberColumn("end", format="%d"),
            # fixed widths for the text columns: the table fits the page; hover a cell for all of it
            "section": st.column_config.TextColumn("section", width="medium"),
            "first words": st.column_config.TextColumn("first words", width="large"),
        },
    )  # fmt: skip
    stem = f"chunks_{result.strategy}_{result.tokenizer_id}_{result.size}"
    c1, c2, _ = st.columns([1, 1, 2])
    # Each file is built when its button is clicked (it is about the document's size), and a click
    # does not rerun the page: a rerun gives every button a new file id and retires the old ones,
    # so a second click that left the browser before the rerun's new ids arrived found no file.
    c1.download_button(
        "Download JSONL", lambda: chunks_to_jsonl(result.chunks, tokenizer_id=result.tokenizer_id, strategy=result.strategy),
        file_name=f"{stem}.jsonl", mime="application/jsonl", icon=":material/download:", key="chunks_jsonl",
        on_click="ignore",
    )  # fmt: skip
    c2.download_button(
        "Download CSV", lambda: chunks_to_csv(result.chunks), file_name=f"{stem}.csv", mime="text/csv",
        icon=":material/download:", key="chunks_csv", on_click="ignore",
    )  # fmt: skip
