"""What the page compares: the languages (of this session's texts) and the base language."""

from __future__ import annotations

import streamlit as st

from tokenizer_core import Language

SELECTED = "languages_selected"
SEEN = "languages_seen_codes"  # the codes the table had last run: a code not among them is new


def keep_valid(key: str, options: list[str], *, default: list[str], add_new: bool = False) -> None:
    """Session value of a multiselect limited to `options`; new options appear selected."""
    if key not in st.session_state:
        st.session_state[key] = default
        return
    current = [c for c in st.session_state[key] if c in options]
    if add_new:
        seen = set(st.session_state.get(SEEN, options))
        current += [c for c in options if c not in seen and c not in current]
    st.session_state[key] = current


def languages_select(languages: list[Language]) -> list[Language]:
    """The languages to compare, in the table's order; a language new in the table is chosen."""
    codes = [l.code for l in languages]
    names = {l.code: l.name for l in languages}
    keep_valid(SELECTED, codes, default=codes, add_new=True)
    st.session_state[SEEN] = codes
    selected = st.multiselect(
        "Languages", codes, format_func=lambda c: names.get(c, c), key=SELECTED, persist_state="session"
    )
    return [l for l in languages if l.code in selected]


def base_select(chosen: list[Language]) -> str | None:
    """The base language (English when chosen, else the first); None when nothing is chosen."""
    codes = [l.code for l in chosen]
    names = {l.code: l.name for l in chosen}
    if codes and st.session_state.get("languages_base") not in codes:
        st.session_state["languages_base"] = "en" if "en" in codes else codes[0]
    return st.selectbox(
        "Base language", codes, format_func=lambda c: names.get(c, c), key="languages_base", persist_state="session",
        help="Premiums are relative to this language (premium 1.00).", disabled=not codes,
    )  # fmt: skip
