"""The models a set is counted for, and the figures that turn counts into limits, time and money."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import streamlit as st

from tokenizer_core import BUILTINS
from tokenizer_core.datasets import Detected
from tokenizer_core.tokenizers import escape_markdown
from ui.models import model_select


def models_section() -> list[str]:
    """The models picked (the shared picker); ids the count can use, in the order picked."""
    choices = model_select("datasets_models", label="Models and tokenizers to count with")
    ids, left = [], []
    for c in choices:
        if c.tokenizer_id is not None and c.tokenizer_id in BUILTINS and not c.users_tokenizer:
            ids.append(c.id)
        elif c.tokenizer_id is not None:
            left.append(c.name)
    if left:
        st.caption(
            "A whole set is counted with the app's built-in tokenizers: "
            + ", ".join(escape_markdown(n) for n in left) + " left out (count them on the workspace)."
        )  # fmt: skip
    return ids


def figures_section(d: Detected) -> dict[str, Any]:
    """Budget, expected output, a tokens-per-minute limit (and, for fine-tuning, a training price):
    options of the count (0 means none)."""
    c1, c2, c3 = st.columns(3)
    budget = c1.number_input(
        "Budget per row (tokens, 0: the window only)", min_value=0, max_value=10_000_000, step=1000,
        key="datasets_budget", persist_state="session",
        help="Rows over the model's context window, or over this budget when it is smaller, are listed.",
    )  # fmt: skip
    output = c2.number_input(
        "Expected output tokens per row", min_value=0, max_value=1_000_000, step=50, key="datasets_output",
        persist_state="session",
        help="Used where a row gives no max_tokens (Batch requests usually do). 0: no output counted.",
    )  # fmt: skip
    tpm = c3.number_input(
        "Tokens-per-minute limit (0: none)", min_value=0, max_value=1_000_000_000, step=10_000,
        key="datasets_tpm", persist_state="session", help="Your rate limit: how long the set takes under it.",
    )  # fmt: skip
    options: dict[str, Any] = {
        "budget": int(budget) or None,
        "output_tokens": int(output) or None,
        "tokens_per_minute": int(tpm) or None,
    }
    if d.shape == "finetune":
        f1, f2 = st.columns(2)
        price = f1.number_input(
            "Training price (USD per 1M training tokens, 0: none)", min_value=0.0, max_value=10_000.0,
            step=1.0, format="%.2f", key="datasets_training_price", persist_state="session",
            help="The price source has no fine-tuning prices: enter your provider's.",
        )  # fmt: skip
        f2.number_input(
            "Epochs (0: OpenAI's default for this many examples)", min_value=0, max_value=50,
            key="datasets_epochs", persist_state="session",
        )  # fmt: skip
        options["training_price"] = Decimal(str(price)) if price else None
    return options


def chosen_epochs() -> int:
    """The epochs entered (0: OpenAI's default, as the count computed it)."""
    return int(st.session_state.get("datasets_epochs") or 0)
