"""Using a model of the BPE playground: as a tokenizer on every page, saved as JSON, or loaded."""

from __future__ import annotations

import streamlit as st

from tokenizer_core import BPEError, BPEModel, load_bpe_model, save_bpe_model, trained_tokenizer
from tokenizer_core.bpe import bpe_tokenizer_size, export_agreement, plural, tiktoken_problem, with_steps
from tokenizer_core.bpe.io import MAX_FILE_BYTES
from tokenizer_core.tokenizers import escape_markdown

from ..failures import guarded_callback
from ..messages import clear_message, leave_message, show_message
from ..state import register_session_tokenizer, session_tokenizers
from ..uploads import upload_limit_mb
from .model import set_model


def _register(k: int | None) -> None:
    model: BPEModel | None = st.session_state.get("bpe_model")
    if model is None:
        return
    if k is not None:
        model = with_steps(model, k)
    name = (
        st.session_state.get("bpe_reg_name") or ""
    ).strip() or f"my BPE ({plural(model.n_merges, 'merge')})"
    try:
        tok = trained_tokenizer(model, name=name)
    except BPEError as exc:
        leave_message(
            "bpe_reg",
            f"Could not make a tokenizer: {escape_markdown(str(exc))}",
            kind="error",
            icon=":material/error:",
        )
        return
    tok = register_session_tokenizer(tok)
    note = ""
    if not tiktoken_problem(model) and model.words:
        ag = export_agreement(model, tok.encoding)
        if ag.all_same:
            note = f" Checked: it splits all {ag.total:,} training words exactly as the merges above do."
        else:
            shown = ", ".join(escape_markdown(repr(w)) for w in ag.examples)
            note = (f" Note: it splits {ag.total - ag.same:,} of {ag.total:,} training words differently from the "
                    f"merges above (e.g. {shown}): the fast engine merges the pieces learned earliest first, "
                    "which can differ from replaying the merges one by one.")  # fmt: skip
    engine = (
        "the fast engine of the built-in tokenizers"
        if not tiktoken_problem(model)
        else "its merges one by one"
    )
    leave_message(
        "bpe_reg",
        f"Added **{escape_markdown(tok.info.name)}** ({bpe_tokenizer_size(model)}; encoded by {engine}) to the "
        f"tokenizer list of every page, for this browser session.{note}",
        kind="success",
        icon=":material/check:",
    )


def _load_upload() -> None:
    clear_message("bpe_upload")
    file = st.session_state.get("bpe_upload")
    if file is None:
        return
    try:
        model = load_bpe_model(file.getvalue())
    except BPEError as exc:
        leave_message("bpe_upload", f"{escape_markdown(file.name)}: {escape_markdown(str(exc))}. "
                      "The model shown before is unchanged.", kind="error", icon=":material/error:")  # fmt: skip
        return
    set_model(model, None)
    leave_message(
        "bpe_upload",
        f"Loaded {plural(model.n_merges, 'merge')} from {escape_markdown(file.name)}.",
        kind="success",
        icon=":material/check:",
    )


def use_section(model: BPEModel | None, k: int) -> None:
    st.subheader("Use, save or load")
    c1, c2 = st.columns(2)
    with c1:
        st.markdown("**Use this tokenizer on every page**")
        if model is None or not model.steps:
            st.caption("Train (or load) a model with at least one merge first.")
        else:
            if tiktoken_problem(model):
                st.caption(
                    "Trained on characters or with an end-of-word marker, this tokenizer applies its merges "
                    "one by one: it counts and splits text exactly, just more slowly on long texts; characters "
                    "it never saw count as their UTF-8 bytes. Train on UTF-8 bytes without a marker to run "
                    "as fast as the built-in tokenizers."
                )
            else:
                st.caption(
                    "Trained on UTF-8 bytes without a marker: it runs as fast as the built-in tokenizers."
                )
            st.text_input(
                "Name",
                key="bpe_reg_name",
                persist_state="session",
                placeholder=f"my BPE ({plural(model.n_merges, 'merge')})",
                max_chars=60,
            )
            partial = st.toggle(f"Only the first {plural(k, 'merge')} (the step shown)", key="bpe_reg_partial", persist_state="session",
                                disabled=k == model.n_merges or k == 0)  # fmt: skip
            st.button(
                "Use this tokenizer on every page", key="bpe_register", type="primary", icon=":material/add_circle:",
                on_click=_register, args=(k if partial and 0 < k < model.n_merges else None,),
            )  # fmt: skip
            show_message("bpe_reg")
            mine = [t for t in session_tokenizers().values() if t.info.kind == "trained"]
            if mine:
                st.caption("Yours in this session: " + ", ".join(escape_markdown(t.info.name) for t in mine))
    with c2:
        st.markdown("**Save or load the merges**")
        if model is not None:
            st.download_button(
                "Download the merges (JSON)", save_bpe_model(model), file_name=f"bpe-{model.n_merges}-merges.json",
                mime="application/json", key="bpe_download", icon=":material/download:", on_click="ignore",
            )  # fmt: skip
            st.caption("Versioned, readable JSON: the options, then one merge per line (left, right, count, "
                       "corpus tokens after it).")  # fmt: skip
        st.file_uploader(
            "Load a saved model (.json)",
            type=["json"],
            key="bpe_upload",
            max_upload_size=upload_limit_mb(MAX_FILE_BYTES // 1_000_000),
            on_change=guarded_callback(_load_upload),
        )
        show_message("bpe_upload")
