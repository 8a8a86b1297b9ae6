"""This session's texts: the editable table of languages, the CSV upload, reset and restore."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from tokenizer_core import InputError, Language
from tokenizer_core.languages import (
    EDITOR_COLUMNS,
    languages_from_records,
    languages_to_records,
    merge_translations,
    parse_translations_csv,
    translations_csv,
)
from tokenizer_core.tokenizers import MAX_TEXT_BYTES, escape_markdown

from ..failures import guarded_callback
from ..messages import clear_message, leave_message, leave_notes, show_message
from ..uploads import upload_limit_mb
from .cached import sample

TABLE = "languages_table"  # rows behind the text editor (this session's texts)
TABLE_PREV = "languages_table_previous"
EDITOR = "languages_editor"
CSV_MESSAGE = "languages_csv"  # what the last upload did


def _replace_table(records: list[dict]) -> None:
    """New rows behind the editor; the old ones can be restored. Clears the editor's edits."""
    st.session_state[TABLE_PREV] = st.session_state.get("languages_current") or st.session_state[TABLE]
    st.session_state[TABLE] = records
    st.session_state.pop(EDITOR, None)


def _listed(codes: list[str]) -> str:
    """``_listed(["hi", "cy"]) -> "2 (hi, cy)"``: a count and the first eight."""
    return f"{len(codes)} ({', '.join(codes[:8])}{'...' if len(codes) > 8 else ''})"


def _on_csv() -> None:
    clear_message(CSV_MESSAGE)
    file = st.session_state.get("languages_csv")
    if file is None:
        return
    try:
        parsed = parse_translations_csv(file.getvalue(), filename=file.name, known=sample())
    except InputError as exc:
        text = escape_markdown(str(exc)) + " The table below is unchanged."
        leave_message(CSV_MESSAGE, text, kind="error", icon=":material/block:")
        return
    current = st.session_state.get("languages_current") or st.session_state[TABLE]
    merged, replaced, added = merge_translations(current, parsed.languages, known=sample())
    _replace_table(merged)
    parts = []
    if replaced:
        parts.append(f"replaced the text of {_listed(replaced)}")
    if added:
        parts.append(f"added {_listed(added)}")
    notice = escape_markdown(f"{file.name}: " + " and ".join(parts) + ".")
    leave_message(CSV_MESSAGE, notice, kind="success", icon=":material/check:")
    leave_notes(CSV_MESSAGE, parsed.problems, kind="warning", icon=":material/warning:")


def _on_reset_texts() -> None:
    _replace_table(languages_to_records(sample()))


def _on_restore_texts() -> None:
    prev = st.session_state.pop(TABLE_PREV, None)
    if prev is not None:
        _replace_table(prev)


def texts_section() -> tuple[list[Language], list[str]]:
    """The editable table of texts, CSV upload and reset. Returns usable languages + problems."""
    st.session_state.setdefault(TABLE, languages_to_records(sample()))
    with st.expander(
        "Texts: edit any language, add your own, or upload your translations", icon=":material/edit_note:"
    ):
        st.caption(
            "Every text must say the same thing as the others: the premium compares the same content. "
            "Edit a cell to change a text; add a row (at the bottom) for another language. Code and "
            "script are optional for a new language: the script, reading direction and whether "
            "words are separated by spaces are detected from its text."
        )
        c1, c2 = st.columns([3, 2], vertical_alignment="bottom")
        c1.file_uploader(
            "Upload translations (CSV with columns language, text)", type=["csv", "tsv", "txt"],
            key="languages_csv", on_change=guarded_callback(_on_csv), max_upload_size=upload_limit_mb(MAX_TEXT_BYTES // 1_000_000),
            help="UTF-8 CSV; optional columns: code, script, whitespace_words (yes/no). A language "
            "already in the table gets the new text; others are added. Download the texts below "
            "for a file in the right format.",
        )  # fmt: skip
        with c2:
            st.button(
                "Reset to the bundled sample", key="languages_reset", on_click=_on_reset_texts,
                icon=":material/restart_alt:", width="stretch",
            )  # fmt: skip
            if TABLE_PREV in st.session_state:
                st.button(
                    "Restore the table you had before", key="languages_restore",
                    on_click=_on_restore_texts, icon=":material/undo:", width="stretch",
                )  # fmt: skip
        show_message(CSV_MESSAGE)
        df = pd.DataFrame(st.session_state[TABLE], columns=list(EDITOR_COLUMNS))
        df["whitespace_words"] = df["whitespace_words"].astype(object)  # new rows start empty (None)
        edited = st.data_editor(
            df, key=EDITOR, num_rows="dynamic", hide_index=True, width="stretch", height=420,
            column_config={
                "code": st.column_config.TextColumn("Code", help="ISO 639 code, e.g. hi. Optional for a new language.", width="small"),
                "language": st.column_config.TextColumn("Language", required=True, width="medium"),
                "script": st.column_config.TextColumn("Script", help="Detected from the text when empty.", width="small"),
                "whitespace_words": st.column_config.CheckboxColumn(
                    "Spaces between words", help="Off for scripts written without spaces between words "
                    "(Chinese, Japanese, Thai, Burmese): they get no word count. Detected when empty.",
                    width="small",
                ),
                "text": st.column_config.TextColumn("Text", width="large", help="The same content in this language."),
            },
        )  # fmt: skip
        records = edited.to_dict("records")
        st.session_state["languages_current"] = records
        languages, problems = languages_from_records(records, known=sample())
        st.download_button(
            "Download the texts (CSV, the upload format)", translations_csv(languages),
            file_name="translations.csv", mime="text/csv", icon=":material/download:",
            key="languages_texts_csv", disabled=not languages, on_click="ignore",
        )  # fmt: skip
    return languages, problems
