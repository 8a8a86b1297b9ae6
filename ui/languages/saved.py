"""What the language costs page keeps in the browser beyond its widgets' values (ui/saved_work.py):
the texts of the table (the user's own translations)."""

from __future__ import annotations

import streamlit as st

from tokenizer_core.languages import EDITOR_COLUMNS

from .texts import EDITOR, TABLE


def extra() -> dict:
    return {"_texts": st.session_state.get("languages_current") or st.session_state.get(TABLE)}


def restore(values: dict, notes: list[str]) -> bool:
    if isinstance(texts := values.get("_texts"), list):
        records = [{c: r[c] if isinstance(r.get(c), str) else "" for c in EDITOR_COLUMNS} for r in texts[:500] if isinstance(r, dict)]  # fmt: skip
        if len(records) != len(texts):
            notes.append("some saved languages were not rows of the table and were left out")
        st.session_state[TABLE] = records
        for key in ("languages_current", EDITOR):
            st.session_state.pop(key, None)
    return True
