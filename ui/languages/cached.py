"""The bundled sample and the language table, cached for every session (labelled by id: a page
puts this session's tokenizer names on the rows)."""

from __future__ import annotations

import streamlit as st

from tokenizer_core import Language, Tokenizer, language_table
from tokenizer_core.languages import LanguageRow, load_parallel_sample

from ..state import unnamed


@st.cache_data(show_spinner=False)
def sample() -> list[Language]:
    return load_parallel_sample()


@st.cache_data(max_entries=64, ttl=3600, show_spinner="Counting tokens in every language...")
def cached_table(
    languages: tuple[Language, ...], ids: tuple[str, ...], base: str, _toks: list[Tokenizer]
) -> list[LanguageRow]:
    return unnamed(language_table(list(languages), _toks, base=base))
