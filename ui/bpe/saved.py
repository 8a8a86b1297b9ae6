"""What the BPE playground keeps in the browser beyond its widgets' values (ui/saved_work.py):
the trained model, with the corpus's words and counts the page shows (a downloaded model has none)."""

from __future__ import annotations

import streamlit as st

from tokenizer_core.bpe import BPEError, load_bpe_model, save_bpe_model

from .model import set_model


def extra() -> dict:
    model = st.session_state.get("bpe_model")
    return {} if model is None else {"_model": save_bpe_model(model, words=True), "_fp": st.session_state.get("bpe_fp") or ""}  # fmt: skip


def restore(values: dict, notes: list[str]) -> bool:
    st.session_state["bpe_initialized"] = True  # the saved options, not the first preset's
    if "_model" in values:
        try:
            set_model(load_bpe_model(values["_model"]), values.get("_fp") or None)  # (the step: LIGHT)
        except BPEError as exc:
            notes.append(f"the saved BPE model was not used: {exc}")
    return True
