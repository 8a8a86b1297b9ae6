"""Cost per request for the chosen models, from the app's one dated price table."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from tokenizer_core.counter.models import Choice

from .prices import current_prices, price_age_note, prices_for_model


def cost_rows(tokens: dict[str, int], choices: list[Choice], output_tokens: int, requests: int) -> list[dict]:
    """One row per priced model variant: input tokens (this prompt), output tokens (expected),
    USD per request and per `requests` requests. `tokens` maps a choice id to its input tokens."""
    prices = current_prices()
    rows = []
    for c in choices:
        if c.model is None or c.id not in tokens:
            continue
        for p in prices_for_model(c.name, c.tokenizer_id, prices):
            cin = tokens[c.id] * p.input_per_million / 1e6
            cout = output_tokens * p.output_per_million / 1e6
            rows.append({
                "choice": c.id, "Model": p.model, "Input tokens": tokens[c.id], "Input $": cin, "Output $": cout,
                "Per request $": cin + cout, f"Per {requests:,} requests $": (cin + cout) * requests,
                "Price as of": p.as_of,
            })  # fmt: skip
    return rows


def cost_section(tokens: dict[str, int], choices: list[Choice]) -> None:
    st.subheader("Cost per request")
    c1, c2 = st.columns(2)
    out = int(c1.number_input("Expected output tokens per request", min_value=0, max_value=10**7, value=300,
                              step=50, key="counter_out_tokens"))  # fmt: skip
    n = int(c2.number_input("Number of requests", min_value=1, max_value=10**12, value=1_000, step=1_000,
                            key="counter_requests"))  # fmt: skip
    rows = cost_rows(tokens, choices, out, n)
    priced = {r.pop("choice") for r in rows}
    unpriced = [c.name for c in choices if c.model and c.id in tokens and c.id not in priced]
    if rows:
        money = st.column_config.NumberColumn(format="$%.6f")
        st.dataframe(
            pd.DataFrame(rows), hide_index=True, key="counter_cost_table",
            column_config={"Input $": money, "Output $": money, "Per request $": money,
                           f"Per {n:,} requests $": st.column_config.NumberColumn(format="$%.2f"),
                           "Input tokens": st.column_config.NumberColumn(format="localized")},
        )  # fmt: skip
    st.caption(price_age_note())
    if unpriced:
        st.caption(
            "No price in the table for " + ", ".join(unpriced) + ": add one on the Language costs page."
        )
    if not any(c.model for c in choices):
        st.caption("Pick a model (not only an encoding) to see what the prompt costs.")
    st.page_link("app_pages/languages.py", label="Edit the price table", icon=":material/sell:")
