"""The picker of models by name (and encodings by their own names), and what it resolves to."""

from __future__ import annotations

import streamlit as st

from tokenizer_core.counter.models import (
    DEFAULT_CHOICES,
    Choice,
    TokenizerGroup,
    choice_label,
    group_by_tokenizer,
    picker_options,
    resolve_choices,
)

from .state import session_tokenizers, tokenizer_infos

PICKER_HELP = (
    "Type a model (GPT-4o, o3, Llama 4, Gemini 2.5, Gemma 3, Qwen3, Mixtral, Mistral NeMo...) or an encoding "
    "(o200k_base, cl100k_base...). Models that share a tokenizer are counted once. Add your own tokenizer in the "
    "sidebar. Gemini: text only, counted as Google's SDK counts locally. Claude: no public tokenizer; its API "
    "counts tokens, so no count is shown here (Opus 4.7 and later use a new tokenizer: no older count carries "
    "over). Not listed: Mistral Small 3 and later (no package ships their tokenizer), Gemma 4 and Gemini 3.1 "
    "and later (nothing to check their tokenizer against)."
)


def _names() -> dict[str, str]:
    return {i.id: i.name for i in tokenizer_infos()}


def model_select(key: str, *, label: str = "Models and tokenizers") -> list[Choice]:
    """Pick models by name or tokenizers; returns the choices, resolved, in the order picked."""
    names = _names()
    options = picker_options(list(names))
    # The choice lives in session state (never also passed as a default), so ids that no longer
    # exist (a removed upload) are dropped without Streamlit's default/state warning.
    current = st.session_state.get(key, list(DEFAULT_CHOICES))
    st.session_state[key] = [i for i in current if i in options]
    own = set(session_tokenizers())

    def fmt(choice_id: str) -> str:
        return choice_label(choice_id, tokenizer_names=names) + (" (yours)" if choice_id in own else "")

    ids = st.multiselect(label, options, key=key, help=PICKER_HELP, format_func=fmt)
    return resolve_choices(ids, tokenizer_names=names)


def groups_for(choices: list[Choice]) -> list[TokenizerGroup]:
    return group_by_tokenizer(choices)


def known_choice_ids() -> list[str]:
    """Every id a share link or workspace file may name (built-in models and tokenizers)."""
    from tokenizer_core import BUILTINS

    return picker_options(list(BUILTINS))
