"""What the language costs page keeps in the browser beyond its widgets' values (ui/saved_work.py):
the texts of the table (the user's own translations)."""

from __future__ import annotations

import streamlit as st

from tokenizer_core.languages import editor_row

from .texts import EDITOR, TABLE


def extra() -> dict:
    return {"_texts": st.session_state.get("languages_current") or st.session_state.get(TABLE)}


def restore(values: dict, notes: list[str]) -> bool:
    if isinstance(texts := values.get("_texts"), list):
        st.session_state[TABLE] = [editor_row(r) for r in texts[:500] if isinstance(r, dict)]
        if len(st.session_state[TABLE]) != len(texts):
            notes.append("some saved languages were left out (rows of the table, at most 500)")
        for key in ("languages_current", EDITOR):
            st.session_state.pop(key, None)
    return True
