"""The code identifiers page's inputs: the samples, the options row, and the language of the code."""

from __future__ import annotations

import streamlit as st

from tokenizer_core.identifiers import (
    CODE_EXTENSIONS,
    CODE_LANGUAGES,
    CODE_SAMPLES,
    detect_code_language,
    load_code_sample,
)
from tokenizer_core.tokenizers import TEXT_EXTENSIONS

from ..widgets import tokenizer_select, uploaded_file_name

AUTO = "auto"
SAMPLES = {label: (lambda label=label: load_code_sample(label)[0]) for label in CODE_SAMPLES}
EXTENSIONS = tuple(dict.fromkeys((*TEXT_EXTENSIONS, *CODE_EXTENSIONS)))


def options_row() -> tuple[list[str], bool, bool, bool]:
    c1, c2 = st.columns([2, 1], vertical_alignment="bottom")
    with c1:
        ids = tokenizer_select("identifiers_tokenizers")
    with c2:
        st.selectbox(
            "Language", [AUTO, *CODE_LANGUAGES], key="identifiers_language", persist_state="session",
            format_func=lambda k: "Detect (file name, then content)" if k == AUTO else CODE_LANGUAGES[k].name,
            help="Detected from the uploaded file's name, else guessed from the code. Choose it if the guess is wrong.",
        )  # fmt: skip
    t1, t2, t3 = st.columns([1, 1, 2])
    strings = t1.toggle("Count words in strings", key="identifiers_strings", persist_state="session",
                        help="Off: text inside string literals is skipped, as it is not code.")  # fmt: skip
    comments = t2.toggle("Count words in comments", key="identifiers_comments", persist_state="session",
                         help="Off: comments are skipped. Keywords never count as identifiers.")  # fmt: skip
    greedy = t3.toggle(
        "Compare with the teaching tokenizer",
        key="identifiers_add_greedy",
        persist_state="session",
        help="Adds the small greedy longest-match tokenizer of the Teaching mode tab (its vocabulary is there).",
    )
    return ids, strings, comments, greedy


@st.cache_data(max_entries=8, show_spinner=False)
def sample_languages() -> dict[str, str]:
    return {text: lang for text, lang in (load_code_sample(label) for label in CODE_SAMPLES)}


def resolve_language(code: str) -> tuple[str, str]:
    choice = st.session_state.get("identifiers_language", AUTO)
    if choice != AUTO and choice in CODE_LANGUAGES:
        return choice, "chosen by you"
    sample = sample_languages().get(code)
    if sample:
        return sample, "the sample's language"
    return detect_code_language(code, filename=uploaded_file_name("identifiers", code))
