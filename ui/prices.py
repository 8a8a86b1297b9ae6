"""The app's one price table, shared by every page: shown and edited on the Language costs page,
kept in st.session_state (this session only), read here by the prompt workspace."""

from __future__ import annotations

from datetime import date

import streamlit as st

from tokenizer_core import ModelPrice, default_prices, price_age_days, prices_from_records, prices_to_records

from .state import tokenizer_infos

EDITED = "prices_edited"  # the table as last edited (records), set by the Language costs page


def price_records() -> list[dict]:
    """The table as the user last left it (the shipped prices until they edit it)."""
    return st.session_state.get(EDITED) or prices_to_records(default_prices().models)


def remember_edited(records: list[dict]) -> None:
    """Called by the editor after each run, so every page sees the edited prices."""
    st.session_state[EDITED] = records


def current_prices() -> list[ModelPrice]:
    prices, _ = prices_from_records(price_records(), known_tokenizers=[i.id for i in tokenizer_infos()])
    return prices


def price_age_note() -> str:
    """Where the prices come from and how old they are, in one sentence."""
    table = default_prices()
    age = price_age_days(table.as_of, today=date.today())
    edited = st.session_state.get(EDITED) not in (None, prices_to_records(table.models))
    when = f"list prices as of {table.as_of}" + (f" ({age:,} days ago)" if age is not None else "")
    return ("Your edited prices" if edited else f"Prices: {when}") + (
        ". Check the providers' pages; edit the table on the Language costs page (one table for the whole app)."
    )


def prices_for_model(name: str, tokenizer_id: str, prices: list[ModelPrice]) -> list[ModelPrice]:
    """Rows of the price table for a model picked by name: the same name, or its mini/nano sizes,
    counted with the same tokenizer. ``GPT-4o`` -> GPT-4o and GPT-4o mini (never GPT-4o's cousins)."""
    key = name.casefold()
    out = []
    for p in prices:
        m = p.model.casefold()
        if p.tokenizer_id == tokenizer_id and (
            m == key or (m.startswith(key + " ") and m[len(key) + 1 :] in ("mini", "nano"))
        ):
            out.append(p)
    return out
