"""The models a set is counted for, and the figures that turn counts into limits, time and money."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import streamlit as st

from tokenizer_core import BUILTINS
from tokenizer_core.catalog.entries import MODELS
from tokenizer_core.catalog.limits import FINE_TUNABLE
from tokenizer_core.datasets import Detected
from tokenizer_core.datasets.checks import PROVIDERS, catalog_model
from tokenizer_core.tokenizers import escape_markdown
from ui.models import model_select

OUTPUT_MODES = {"tokens": "Tokens a row", "share": "Share of each row's max_tokens"}


def file_models(d: Detected) -> tuple[list[str], list[str]]:
    """The models the file's requests name: catalog ids this app counts, and the names it cannot
    count (not known, or known without a public tokenizer)."""
    known, unknown = [], []
    for name in d.models:
        mid = catalog_model(name)
        if mid is not None and MODELS[mid].tokenizer_id in BUILTINS:
            known.append(mid)
        else:
            unknown.append(name)
    return list(dict.fromkeys(known)), unknown


def _not_counted(name: str) -> str:
    """Why a model the file names is not counted, in words."""
    mid = catalog_model(name)
    if mid is not None and MODELS[mid].tokenizer_id is None:
        return f"`{escape_markdown(name)}` (no public tokenizer: its maker's API counts it)"
    return f"`{escape_markdown(name)}` (not a model this app knows: pick the model it is based on below)"


def models_section(d: Detected) -> list[str]:
    """The models to count with: the file's own (a choice of its own, on by default) and any others
    picked as a "what if"; ids the count can use, the file's first."""
    known, unknown = file_models(d)
    ids: list[str] = []
    if known:
        names = ", ".join(MODELS[m].name for m in known)
        if st.toggle(f"The models in the file: {names}", value=True, key="datasets_file_models",
                     persist_state="session", help="The models the requests name (from the first rows). "
                     "The provider's limits are checked against them; any other model is a what if."):  # fmt: skip
            ids.extend(known)
    if unknown:
        st.caption(
            "The file names " + ", ".join(_not_counted(n) for n in unknown[:5])
            + ": its limits are not checked here."
        )  # fmt: skip
    label = "Other models (what if)" if known else "Models and tokenizers to count with"
    choices = model_select("datasets_models", label=label)
    left = []
    for c in choices:
        if c.tokenizer_id is not None and c.tokenizer_id in BUILTINS and not c.users_tokenizer:
            if c.id not in ids:
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
    """Budget, expected output, rate and queue limits (and, for fine-tuning, the training price and
    epochs): options of the count (0 means none)."""
    if d.shape == "finetune":
        return _fine_tuning_figures()
    c1, c2, c3 = st.columns(3)
    budget = c1.number_input(
        "Budget per row (tokens, 0: the window only)", min_value=0, max_value=10_000_000, step=1000,
        key="datasets_budget", persist_state="session",
        help="Rows over the model's context window, or over this budget when it is smaller, are listed.",
    )  # fmt: skip
    tpm = c2.number_input(
        "Tokens-per-minute limit (0: none)", min_value=0, max_value=1_000_000_000, step=10_000,
        key="datasets_tpm", persist_state="session", help="Your rate limit: how long the set takes under it.",
    )  # fmt: skip
    options: dict[str, Any] = {"budget": int(budget) or None, "tokens_per_minute": int(tpm) or None}
    if d.shape == "batch":
        queue = c3.number_input(
            "Enqueued-token limit (0: not checked)", min_value=0, max_value=100_000_000_000, step=1_000_000,
            key="datasets_enqueued", persist_state="session",
            help="Your tier's Batch queue limit for the model, from your organisation's limits page: "
            "OpenAI refuses a batch whose input tokens are over it.",
        )  # fmt: skip
        options["enqueued_limit"] = int(queue) or None
    if d.shape in PROVIDERS or d.shape in ("jsonl", "csv", "tsv", "parquet", "list"):
        options |= _expected_output()
    if d.shape in PROVIDERS:
        options |= _url_images()
    return options


def _url_images() -> dict[str, Any]:
    """How to count an image given by URL: it is not fetched (the app works offline), so its size
    is unknown; by default it costs the most its detail can, else the size the user gives."""
    with st.expander("Images given by URL", icon=":material/link:"):
        st.caption("The app does not fetch them (it works offline), so their size is not known.")
        mode = st.radio(
            "Count each at", ["most", "size"], key="datasets_url_mode", persist_state="session", horizontal=True,
            format_func={"most": "The most its detail can cost", "size": "A size I give"}.get,
        )  # fmt: skip
        if mode != "size":
            return {}
        c1, c2 = st.columns(2)
        w = c1.number_input("Width (px)", min_value=1, max_value=20_000, value=1024, key="datasets_url_w",
                            persist_state="session")  # fmt: skip
        h = c2.number_input("Height (px)", min_value=1, max_value=20_000, value=1024, key="datasets_url_h",
                            persist_state="session")  # fmt: skip
        return {"url_image_size": (int(w), int(h))}


def _expected_output() -> dict[str, Any]:
    """The output the user expects, as tokens a row or a share of max_tokens (the ceiling is shown apart)."""
    c1, c2 = st.columns([2, 3])
    mode = c1.radio(
        "Expected output", list(OUTPUT_MODES), format_func=OUTPUT_MODES.get, key="datasets_output_mode",
        persist_state="session", horizontal=True,
        help="The expected cost uses it; the ceiling cost takes every row's max_tokens.",
    )  # fmt: skip
    if mode == "share":
        share = c2.slider(
            "Share of max_tokens the answers use", min_value=0, max_value=100, step=5, format="%d%%",
            key="datasets_output_share", persist_state="session", value=30,
        )  # fmt: skip
        return {"output_ratio": share / 100 or None}
    output = c2.number_input(
        "Expected output tokens a row (0: none)", min_value=0, max_value=1_000_000, step=50,
        key="datasets_output", persist_state="session",
        help="Your answers' average length. Never more than a row's max_tokens.",
    )  # fmt: skip
    return {"output_tokens": int(output) or None}


def _fine_tuning_figures() -> dict[str, Any]:
    f1, f2 = st.columns(2)
    price = f1.number_input(
        "Training price (USD per 1M training tokens, 0: OpenAI's list price)", min_value=0.0,
        max_value=10_000.0, step=1.0, format="%.2f", key="datasets_training_price", persist_state="session",
        help="Models OpenAI fine-tunes: " + ", ".join(f"{MODELS[m].name} ${p.training_usd_per_million}"
                                                       for m, p in FINE_TUNABLE.items()) + ".",
    )  # fmt: skip
    epochs = f2.number_input(
        "Epochs (0: OpenAI's default for this many examples)", min_value=0, max_value=50,
        key="datasets_epochs", persist_state="session",
    )  # fmt: skip
    del epochs  # read by the results (a change of epochs needs no new count)
    return {"training_price": Decimal(str(price)) if price else None}


def chosen_epochs() -> int:
    """The epochs entered (0: OpenAI's default, as the count computed it)."""
    return int(st.session_state.get("datasets_epochs") or 0)
