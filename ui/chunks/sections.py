"""App layer of the chunk previewer: cached chunking and counting (large documents in a worker
process), samples, the model callback."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from tokenizer_core import Tokenizer, chunk_text
from tokenizer_core.chunking import (
    CHUNK_SAMPLES,
    EMBEDDING_MODELS,
    STRATEGIES,
    ChunkResult,
    check_chunks,
    chunk_table,
    chunks_to_csv,
    chunks_to_jsonl,
    load_chunk_sample,
    long_document,
)
from tokenizer_core.portable import TokenizerRef, portable
from tokenizer_core.tasks import check_chunks_task, chunk_task, count_task
from tokenizer_core.tokenizers import escape_markdown

from ..jobs import in_process_max_chars, pooled_result, show_stopped, text_digest

MAX_TABLE_ROWS = 1_000  # rows of the chunk table sent at a time (about 125 KB)

SAMPLES = {s.label: (lambda k=s.id: load_chunk_sample(k)) for s in CHUNK_SAMPLES.values()}
SAMPLES["Long document (about 1 MB of Markdown)"] = long_document


@st.cache_data(max_entries=8, ttl=600, show_spinner="Chunking...")
def cached_chunks(
    text: str, tokenizer_id: str, strategy: str, size: int, overlap: int, _tok: Tokenizer
) -> ChunkResult:
    return chunk_text(text, _tok, strategy=strategy, size=size, overlap=overlap)


@st.cache_data(max_entries=32, ttl=3600, show_spinner=False)
def cached_count(text: str, tokenizer_id: str, _tok: Tokenizer) -> int:
    return _tok.count(text)


def _pooled(tok: Tokenizer, text: str, kind: str) -> TokenizerRef | None:
    """`tok` as a worker can rebuild it when `text` is too large for this process, else None."""
    return portable(tok) if len(text) > in_process_max_chars(kind) else None


def document_tokens(text: str, tok: Tokenizer) -> int | None:
    """The document's token count; a large document is counted in a worker process (progress bar,
    Cancel). None, with a message shown, when the user cancelled."""
    if (ref := _pooled(tok, text, "count")) is None:
        return cached_count(text, tok.id, tok)
    outcome = pooled_result(
        "chunks_count", ("count", text_digest(text), tok.id), count_task, text, (ref,), context_window=1,
        allow_special=False, weight=1, label="Counting the document's tokens...",
    )  # fmt: skip
    if outcome.error is not None:
        show_stopped("chunks_count", outcome, "Counting", "document")
        return None
    return outcome.value[0].tokens


def chunks_of(text: str, tok: Tokenizer, strategy: str, size: int, overlap: int) -> ChunkResult | None:
    """The chunks; a large document is chunked in a worker process (progress bar, Cancel).
    None, with a message shown, when the user cancelled."""
    if (ref := _pooled(tok, text, "chunk")) is None:
        return cached_chunks(text, tok.id, strategy, size, overlap, tok)
    outcome = pooled_result(
        "chunks_job", ("chunks", text_digest(text), tok.id, strategy, size, overlap), chunk_task,
        text, ref, strategy, size, overlap, weight=len(text), label="Chunking...",
    )  # fmt: skip
    if outcome.error is not None:
        show_stopped("chunks_job", outcome, "Chunking", "document")
        return None
    return outcome.value


def checked(text: str, result: ChunkResult, tok: Tokenizer, key: tuple) -> list[str] | None:
    """`check_chunks` of the chunks shown, once per chunking (kept for this session); for a large
    document in a worker process (progress bar, Cancel). None, with a message shown, when the
    user cancelled."""
    ss = st.session_state
    done = ss.get("chunks_check_done")
    if done is not None and done[0] == key:
        return done[1]
    if (ref := _pooled(tok, text, "chunk")) is None:
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
    ss["chunks_check_done"] = (key, problems)
    return problems


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


def details_section(text: str, result: ChunkResult, tok: Tokenizer) -> None:
    """How the chunks were made, and a check of every guarantee from scratch (on request: its
    answer stays until the chunks change)."""
    ss = st.session_state
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
            ss["chunks_check_for"] = key
            ss.pop("chunks_check_done", None)
        if ss.get("chunks_check_for") != key or (problems := checked(text, result, tok, key)) is None:
            return
        if problems:
            st.error("Problems found:\n\n" + "\n".join(f"- {escape_markdown(p)}" for p in problems[:20]))
        else:
            st.success(
                f"All {len(result.chunks):,} chunks check out: text[start:end] is each chunk's text, "
                "they cover the document in order, token counts and overlaps are exact, no chunk is "
                "over the budget or cuts a character.", icon=":material/check:",
            )  # fmt: skip


def on_model_change() -> None:
    """Picking an embedding model sets the chunk size to its limit."""
    model = next((m for m in EMBEDDING_MODELS if m.name == st.session_state.get("chunks_model")), None)
    if model is not None:
        st.session_state["chunks_size"] = model.limit
