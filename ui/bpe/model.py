"""The BPE playground's model in the session: set when trained or loaded, with its encoder and the
views of it drawn so far."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import TypeVar

import streamlit as st

from tokenizer_core import BPEModel, BPEOptions
from tokenizer_core.bpe import MergeEncoder, model_id

from ..messages import clear_message

T = TypeVar("T")


def fingerprint(text: str, fmt: str, options: BPEOptions) -> str:
    return hashlib.sha1(f"{fmt}|{options!r}|".encode() + text.encode("utf-8", "surrogatepass")).hexdigest()


def set_model(model: BPEModel, fp: str | None) -> None:
    st.session_state["bpe_model"] = model
    st.session_state["bpe_model_id"] = model_id(model)
    st.session_state["bpe_encoder"] = MergeEncoder(model)
    st.session_state["bpe_fp"] = fp
    st.session_state["bpe_step"] = min(1, model.n_merges)
    st.session_state["bpe_view_cache"] = {}
    clear_message("bpe_reg")


def encoder_for(model: BPEModel) -> MergeEncoder:
    enc = st.session_state.get("bpe_encoder")
    if enc is None or enc.model is not model:
        enc = MergeEncoder(model)
        st.session_state["bpe_encoder"] = enc
    return enc


def session_cached(key: tuple, compute: Callable[[], T]) -> T:
    """Results for the current model, kept in this session only (they show the user's corpus)."""
    cache: dict = st.session_state.setdefault("bpe_view_cache", {})
    if key not in cache:
        if len(cache) >= 48:
            cache.pop(next(iter(cache)))
        cache[key] = compute()
    return cache[key]
