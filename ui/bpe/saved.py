"""What the BPE playground keeps in the browser beyond its widgets' values (ui/saved_work.py):
the trained model (its merges) and the corpus words it shows."""

from __future__ import annotations

import dataclasses

import streamlit as st

from tokenizer_core.bpe import BPEError, load_bpe_model, save_bpe_model


def bpe_extra() -> dict:
    model = st.session_state.get("bpe_model")
    if model is None:
        return {}
    return {
        "_model": save_bpe_model(model),
        "_fp": st.session_state.get("bpe_fp") or "",
        # the corpus's words and counts, which the page shows and a model file does not hold
        "_words": [list(model.words), list(model.freqs), model.words_cut]
        if model.source == "trained"
        else None,
    }


def bpe_restore(values: dict, notes: list[str]) -> bool:
    from ..jobs import cancel_job
    from .model import set_model

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
        model = dataclasses.replace(
            model, words=tuple(words[0]), freqs=tuple(words[1]), words_cut=words[2], source="trained"
        )
    cancel_job("bpe")  # the first visit's training of the default corpus: the saved model wins
    st.session_state.pop("bpe_job", None)
    st.session_state.pop("bpe_autotrain", None)
    set_model(model, values.get("_fp") or None)
    # the step shown is not kept: it changes with every click, and each change would send the
    # whole snapshot (corpus and model, up to 2 MB) to the browser again
    st.session_state["bpe_step"] = min(1, model.n_merges)
    return True
