"""What the prompt costs per request for each chosen model, from the app's one price table."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pyarrow as pa
import streamlit as st

from tokenizer_core.catalog.choices import Choice
from tokenizer_core.catalog.prices import PriceTable
from tokenizer_core.catalog.rates import money_text, round_money
from tokenizer_core.catalog.source import RATE_OPTIONS
from tokenizer_core.catalog.windows import window_for
from tokenizer_core.tokenizers import escape_markdown
from tokenizer_core.workspace.cost_inputs import CostInputs

from ..prices import RATE, current_rate, price_editor, prices_for, rate_control, show_price_notes
from .state import PAGE, WorkspaceState

ENTERED = "workspace_entered_"  # + choice id: a count the user typed for a model nothing here counts
# the cost inputs' widgets (CostInputs field -> key); a share link and a workspace file set them
COST_KEYS = {"output_tokens": "workspace_out_tokens", "cached_tokens": "workspace_cached_tokens",
             "requests": "workspace_requests"}  # fmt: skip


def cost_inputs_now() -> CostInputs:
    """The cost inputs as the page holds them (the defaults until the user changes them)."""
    default = CostInputs()
    values = {f: st.session_state.get(k, getattr(default, f)) for f, k in COST_KEYS.items()}
    return CostInputs(**{f: int(v) for f, v in values.items()}, rate=current_rate())


def set_cost_inputs(found: Mapping[str, int | str]) -> None:
    """Take the cost inputs a link or a file brings (checked there: whole numbers in range)."""
    for field, key in COST_KEYS.items():
        if isinstance(value := found.get(field), int):
            st.session_state[key] = value
    if isinstance(rate := found.get("rate"), str):
        st.session_state[RATE] = rate


def _counter_name(choice: Choice, tokenizer_names: dict[str, str]) -> str:
    if choice.tokenizer_id is None:
        return f"you ({choice.model.maker if choice.model and choice.model.maker else 'the API'}'s count)"
    name = tokenizer_names.get(choice.tokenizer_id, choice.tokenizer_id)
    return f"{name} (your choice)" if choice.users_tokenizer else name


def entered_counts(choices: list[Choice]) -> dict[str, int]:
    """For each chosen model nothing here counts: the count the user enters from the maker's API."""
    uncounted = [c for c in choices if c.model is not None and c.tokenizer_id is None]
    if not uncounted:
        return {}
    st.caption(
        "No public tokenizer for "
        + escape_markdown(", ".join(c.name for c in uncounted))
        + ": type the input "
        "tokens its maker's API counts for this prompt (Anthropic: the Messages API's count_tokens, or usage."
        "input_tokens of a response) to cost it. The app shows no count of its own for these models."
    )
    cols = st.columns(min(len(uncounted), 3))
    out = {}
    for i, c in enumerate(uncounted):
        n = cols[i % len(cols)].number_input(
            f"{c.name}: input tokens (entered by you)", min_value=0, max_value=100_000_000, step=100,
            key=f"{ENTERED}{c.id}", persist_state="session", help="The count you enter is used as is, marked as yours in the table.",
        )  # fmt: skip
        if n:
            out[c.id] = int(n)
    return out


def cost_rows(
    tokens: dict[str, int], choices: list[Choice], *, output_tokens: int, requests: int, cached_tokens: int,
    window: int, tokenizer_names: dict[str, str], entered: dict[str, int],
    images: Mapping[str, int | None] | None = None,
) -> list[dict]:  # fmt: skip
    """One row per chosen model with a price and a count (counted, or entered by the user); the
    counted tokens include the chat's images where `images` (choice id -> their tokens) says so."""
    models = [c for c in choices if c.model is not None]
    users = {c.model.id: c.tokenizer_id for c in models if c.model and c.users_tokenizer and c.tokenizer_id}
    table = prices_for([c.model for c in models if c.model], tokenizers=users)
    by_id = {p.model_id: p for p in table.prices}
    rows = []
    for c in models:
        p = by_id[c.model.id] if c.model else None
        n = entered.get(c.id) if c.tokenizer_id is None else tokens.get(c.id)
        if p is None or p.rates is None or not p.priced or n is None:
            continue
        win = window_for([c], chosen=window)
        cached = min(cached_tokens, n)
        rin, rout = p.rates.input, p.rates.output
        out = output_tokens if rout is not None else 0  # an embedding model writes no tokens
        cost = p.rates.request_cost(n, out, cached_tokens=cached)
        price_text = (
            f"{money_text(rin.at(n)) if rin else 'none'} / {money_text(rout.at(n)) if rout else 'none'}"
        )
        rows.append({
            "choice": c.id, "Model": c.name, "Counted by": _counter_name(c, tokenizer_names),
            "Input tokens": n, "% used": 100 * n / win.tokens,
            "$/1M in / out": price_text,
            # rounded half up here, exactly: the table's format would round the float (15.995 -> 15.99)
            "Per request $": float(round_money(cost, 6)),
            f"Per {requests:,} requests $": float(round_money(cost * requests, 2)),
            "Note": " · ".join(filter(None, (
                "your price" if p.edited else "", "" if p.rate == "standard" else RATE_OPTIONS[p.rate].label.lower(),
                p.rates.tier_status(n) if any(n > s for s in p.rates.tier_starts()) else "",
                "" if rout else "no output tokens (an embedding model)",
                "window chosen above" if win.chosen else "",
                _image_note(images or {}, c.id, entered=c.tokenizer_id is None),
            ))),
        })  # fmt: skip
    return rows


def _image_note(images: Mapping[str, int | None], choice_id: str, *, entered: bool) -> str:
    if entered or choice_id not in images:
        return ""
    n = images[choice_id]
    return "images not counted" if n is None else f"of which {n:,} image tokens"


def _by_reason(choices: Iterable[Choice], reasons: dict[str, str]) -> dict[str, list[str]]:
    """The choices' names grouped by the reason given for each: ``{"reason": ["A", "B"]}``."""
    out: dict[str, list[str]] = {}
    for c in choices:
        out.setdefault(reasons[c.id], []).append(c.name)
    return out


COST_TABLE = "workspace_costs"  # the cost table's fragment


def cost_section(choices: list[Choice], *, window: int) -> None:
    """The cost inputs, the cost table (a fragment: typing reruns it alone, see ui/fast_first.py),
    the price editor and the notes on the prices."""
    st.subheader("Cost per request")
    models = [c.model for c in choices if c.model is not None]
    if not models:
        st.caption("Pick a model (not only an encoding) to see what the prompt costs.")
        return
    entered = entered_counts(choices)
    for field, key in COST_KEYS.items():  # their values come from here, a link or a file: no value=
        st.session_state.setdefault(key, getattr(CostInputs(), field))
    c1, c2, c3 = st.columns(3)
    out = int(c1.number_input("Expected output tokens per request", min_value=0, max_value=10**7,
                              step=50, key="workspace_out_tokens", persist_state="session"))  # fmt: skip
    cached = int(c2.number_input(
        "Of the input, tokens read from the cache", min_value=0, max_value=10**8, step=100,
        key="workspace_cached_tokens", persist_state="session", help="A prompt prefix the provider has cached (a repeated system prompt): "
        "billed at the cached input price where the model has one.",
    ))  # fmt: skip
    n = int(c3.number_input("Number of requests", min_value=1, max_value=10**12, step=1_000,
                            key="workspace_requests", persist_state="session"))  # fmt: skip
    rate_control("workspace_price_rate", models)
    table = prices_for(models)
    cost_table(
        choices, table, output_tokens=out, cached_tokens=cached, requests=n, window=window, entered=entered
    )
    with st.expander("Prices: the source's, and yours (edit any price here; one table for every page)",
                     icon=":material/sell:", expanded=True):  # fmt: skip
        price_editor(table, key="workspace_prices_editor")
    show_price_notes(table)


@PAGE.part(COST_TABLE)
def cost_table(
    now: WorkspaceState, choices: list[Choice], table: PriceTable, *, output_tokens: int, cached_tokens: int,
    requests: int, window: int, entered: dict[str, int],
) -> None:  # fmt: skip
    """The cost of the prompt as last drawn, per chosen model, and why a model has none. A part
    of the page's rest (ui/fast_first.py): its other arguments change only in a run of the
    whole workspace."""
    rows = cost_rows(now.tokens, choices, output_tokens=output_tokens, requests=requests, cached_tokens=cached_tokens,
                     window=window, tokenizer_names=now.tokenizer_names, entered=entered,
                     images=now.image_tokens)  # fmt: skip
    priced = {r.pop("choice") for r in rows}
    if rows:
        money = st.column_config.NumberColumn(format="$%.6f")
        st.dataframe(
            pa.Table.from_pylist(rows), hide_index=True, key="workspace_cost_table",  # Arrow: no conversion
            column_config={
                "$/1M in / out": st.column_config.TextColumn(
                    help="US dollars per million input / output tokens that this request pays (its tier, its rate)"
                ),
                "Per request $": money, f"Per {requests:,} requests $": st.column_config.NumberColumn(format="$%.2f"),
                "Model": st.column_config.TextColumn(pinned=True),
                "Input tokens": st.column_config.NumberColumn(format="localized"),
                "Note": st.column_config.TextColumn(width="medium"),
                "% used": st.column_config.ProgressColumn(format="%.2f%%", min_value=0, max_value=100, width="small",
                                                               help="Of the model's context window (the counts above "
                                                               "and the chat table show it)"),
            },
        )  # fmt: skip
    unpriced = [c.name for c in choices if c.model and c.id not in priced]
    no_price = {p.model for p in table.prices if not p.priced}
    if missing := [m for m in unpriced if m in no_price]:
        st.caption(
            "No price in the source for "
            + escape_markdown(", ".join(missing))
            + ": type one in the price table."
        )
    waiting = [c for c in choices if c.model and c.id not in priced and c.name not in no_price]
    if uncounted := [c.name for c in waiting if c.tokenizer_id is None]:
        st.caption(
            escape_markdown(", ".join(uncounted))
            + ": no count yet (enter one above, or choose its tokenizer)."
        )
    for reason, names in _by_reason([c for c in waiting if c.id in now.not_counted], now.not_counted).items():
        st.caption(
            f"{escape_markdown(', '.join(names))}: the request is not counted: {escape_markdown(reason)}."
        )
    if no_format := [c.name for c in waiting if c.tokenizer_id is not None and c.id not in now.not_counted]:
        st.caption(
            escape_markdown(", ".join(no_format)) + ": no chat format known, so the request is not counted "
            "for it (the Text prompt counts a text alone)."
        )
