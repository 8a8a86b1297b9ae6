"""What the BPE playground keeps in the browser beyond its widgets' values (ui/saved_work.py):
the trained model (its merges) and the corpus words it shows."""

from __future__ import annotations

import dataclasses

import streamlit as st

from tokenizer_core.bpe import BPEError, load_bpe_model, save_bpe_model


def extra() -> dict:
    model = st.session_state.get("bpe_model")
    if model is None:
        return {}
    # the corpus's words and counts, which the page shows and a model file does not hold
    words = [list(model.words), list(model.freqs), model.words_cut] if model.source == "trained" else None
    return {"_model": save_bpe_model(model), "_fp": st.session_state.get("bpe_fp") or "", "_words": words}


def restore(values: dict, notes: list[str]) -> bool:
    from .model import set_model

    st.session_state["bpe_initialized"] = True  # the saved options, not the first preset's
    if "_model" not in values:
        return True
    try:
        model = load_bpe_model(values["_model"])
    except BPEError as exc:
        notes.append(f"the saved BPE model was not used: {exc}")
        return True
    words = values.get("_words")
    if (
        isinstance(words, list) and len(words) == 3 and isinstance(words[0], list) and isinstance(words[1], list)
        and len(words[0]) == len(words[1]) and all(isinstance(w, str) for w in words[0])
        and all(isinstance(f, int) and not isinstance(f, bool) and f > 0 for f in words[1])
        and isinstance(words[2], int) and not isinstance(words[2], bool) and words[2] >= 0
    ):  # fmt: skip
        model = dataclasses.replace(model, words=tuple(words[0]), freqs=tuple(words[1]), words_cut=words[2], source="trained")  # fmt: skip
    set_model(model, values.get("_fp") or None)  # (the step: ui/saved_work.py LIGHT)
    return True
