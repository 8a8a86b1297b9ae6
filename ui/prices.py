"""The app's one price table and its one editor, used by every page that shows money.

Prices come from the pinned price source (`tokenizer_core.catalog.source`); the user's edits sit
on top, kept in ``st.session_state`` for the session (and in the workspace file), keyed by model
and rate option. The rate option (standard, batch, flex...) is one choice for the whole app too.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from datetime import date

import pandas as pd
import streamlit as st

from tokenizer_core.catalog.entries import ModelEntry
from tokenizer_core.catalog.prices import (
    Edits,
    ModelPrice,
    PriceTable,
    edit_summary,
    price_age_days,
    price_table,
    prices_from_records,
)
from tokenizer_core.catalog.rates import FIELDS, money_text
from tokenizer_core.catalog.source import RATE_OPTIONS, peak_hours, price_changes, rate_options
from tokenizer_core.tokenizers import escape_markdown

from .messages import show_notes

EDITS = "prices_edits"  # (model id, rate option) -> {field: Decimal}: this session's edited prices
RATE = "prices_rate"  # the rate option chosen (one for every page)


def pricing_day() -> date:
    """The day prices are read for (the source dates price changes; today's prices apply)."""
    return date.today()


def price_edits() -> Edits:
    return st.session_state.setdefault(EDITS, {})


def set_price_edits(edits: Edits) -> None:
    st.session_state[EDITS] = dict(edits)


def current_rate() -> str:
    rate = st.session_state.get(RATE, "standard")
    return rate if rate in RATE_OPTIONS else "standard"


def prices_for(models: Sequence[ModelEntry], *, tokenizers: Mapping[str, str] | None = None) -> PriceTable:
    """The prices of these models today, under the chosen rate, with this session's edits."""
    return price_table(
        models, on=pricing_day(), rate=current_rate(), edits=price_edits(), tokenizers=tokenizers
    )


def _on_rate(widget: str) -> None:
    st.session_state[RATE] = st.session_state.get(widget) or "standard"


def rate_control(key: str, models: Sequence[ModelEntry]) -> str:
    """The rate option, offered when a model shown has more than the standard rate."""
    day = pricing_day()
    offered = {o for m in models if m.price for o in rate_options(m.price, on=day)}
    options = [o for o in RATE_OPTIONS if o == "standard" or o in offered]
    if current_rate() not in options:
        st.session_state[RATE] = "standard"
    if len(options) < 2:
        return current_rate()
    st.session_state[key] = current_rate()
    st.segmented_control(
        "Rate", options, format_func=lambda o: RATE_OPTIONS[o].label, key=key, persist_state="session", on_change=_on_rate, args=(key,),
        help=" ".join(f"{RATE_OPTIONS[o].label}: {RATE_OPTIONS[o].help}" for o in options),
    )  # fmt: skip
    return current_rate()


def _source_text(p: ModelPrice) -> str:
    if p.source_rates is None:
        return "no price in the source"
    # in the order of the editable columns beside it (input, cached input, output), short enough
    # that the table fits a desktop page: "$2.50 · $1.25 · $10"
    return " · ".join(
        money_text(r.base) if (r := p.source_rates.get(f)) is not None else "none" for f in FIELDS
    )


def _on_reset(key: str) -> None:
    set_price_edits({})
    for k in [k for k in st.session_state if str(k).startswith(f"{key}_") and k != f"{key}_reset"]:
        del st.session_state[k]  # the editors' own cells: redrawn from the source's prices


def price_editor(table: PriceTable, *, key: str) -> None:
    """The one price editor: the models of `table`, their prices (editable) and the source's beside them.

    What is typed becomes this session's edits at once (every page reads them); a cell emptied
    goes back to the source's price. The editor's key follows the models and rate shown, so its
    cells always belong to the rows drawn.
    """
    prices = list(table.prices)
    rows = [
        {"model_id": p.model_id, "model": p.model, "provider": p.provider,
         **{f: _price_cell(p, f) for f in FIELDS},
         "edited": "edited" if p.edited else "", "source": _source_text(p), "checked": p.checked or "not dated"}
        for p in prices
    ]  # fmt: skip
    shown = "|".join(f"{p.model_id}@{p.rate}" for p in prices)
    widget = f"{key}_{hashlib.sha1(shown.encode()).hexdigest()[:10]}"
    money = "US dollars per million tokens; empty: the source's price (or none)."
    edited = st.data_editor(
        pd.DataFrame(rows, columns=list(rows[0]) if rows else ["model_id"]), key=widget, hide_index=True,
        width="stretch", disabled=["model_id", "model", "provider", "edited", "source", "checked"],
        column_config={
            "model_id": None,
            "model": st.column_config.TextColumn("Model", pinned=True),
            "provider": st.column_config.TextColumn("Sold by", help="Who sells the model at this price."),
            # text cells, so a model without a price shows "–", not "None" (typed prices are checked)
            "input": st.column_config.TextColumn("Input $/1M", alignment="right", help=money),
            "cached_input": st.column_config.TextColumn(
                "Cached input $/1M", alignment="right",
                help="A prompt prefix read from the provider's cache. –: the source lists no cached price for "
                "this model, so cached tokens are billed at the input price; type one to set it. " + money,
            ),
            "output": st.column_config.TextColumn(
                "Output $/1M", alignment="right", help=money + " –: none (an embedding model writes no tokens)."
            ),
            "edited": st.column_config.TextColumn("Yours", help="'edited': you changed a price of this model."),
            "source": st.column_config.TextColumn(
                "Source's price", help=f"{table.source}: input · cached input · output, US dollars per million tokens."
            ),
            "checked": st.column_config.TextColumn(
                "Last checked", help="The latest date the source's notes say this model's prices were checked."
            ),
        },
    )  # fmt: skip
    records = [
        {**r, **{f: None if _no_price(r.get(f)) else r.get(f) for f in FIELDS}}
        for r in edited.to_dict("records")
    ]
    found, problems = prices_from_records(records, prices=prices)
    edits = dict(price_edits())
    for p in prices:
        edits.pop((p.model_id, p.rate), None)
    edits.update(found)
    if edits != price_edits():
        set_price_edits(edits)
        st.rerun()  # every figure on the page is drawn again with the edited prices
    show_notes([f"{p} That cell was not used." for p in problems], kind="warning", icon=":material/warning:")
    if price_edits():
        st.button(
            "Reset every price to the source's", key=f"{key}_reset", on_click=_on_reset, args=(key,),
            icon=":material/restart_alt:",
        )  # fmt: skip


NO_PRICE = "–"  # an editor cell for a price the model does not have


def _price_cell(p: ModelPrice, field: str) -> str:
    """A price as the editor shows it: ``"2.5"`` (exact, US dollars per million tokens), or "–"."""
    rate = p.rates.get(field) if p.rates else None
    return NO_PRICE if rate is None else format(rate.base.normalize(), "f")


def _no_price(value: object) -> bool:
    """True for an editor cell that holds no price: empty, "–" or "-" as shown, or a missing value."""
    return (
        value is None
        or (isinstance(value, float) and value != value)
        or str(value).strip() in ("", NO_PRICE, "-")
    )


def price_notes(table: PriceTable, *, today: date | None = None) -> list[str]:
    """Sentences about the prices shown: where they come from, how old, edits, tiers, changes to come."""
    today = today or pricing_day()
    notes = [
        f"Prices: {table.source} (bundled with the app, never updated while it runs), US dollars per "
        "million tokens; the date is each model's last check in the source's notes."
    ]
    edited = [p for p in table.prices if p.edited]
    if edited:
        notes.append("Your edited prices for " + "; ".join(edit_summary(p) for p in edited) + ".")
    dated = [(p.checked, p.model) for p in table.prices if p.checked]
    if dated:
        newest, oldest = max(dated), min(dated)
        age = price_age_days(oldest[0], today=today)
        undated = [p.model for p in table.prices if not p.checked]
        span = f"on {newest[0]}" if newest[0] == oldest[0] else f"between {oldest[0]} and {newest[0]}"
        notes.append(
            f"The source's notes date its last check of these prices {span}"
            + (f" ({age:,} days ago)" if age is not None and newest[0] == oldest[0] else "")
            + (f" (the oldest {age:,} days ago)" if age is not None and newest[0] != oldest[0] else "")
            + (f"; they give no date for {', '.join(undated)}." if undated else ".")
        )
    elif table.prices:
        notes.append("The source's notes give no date for when these prices were last checked.")
    for p in table.prices:
        if p.rates is None:
            notes.append(f"{p.model}: no price in the source; type one in the table to cost it.")
            continue
        if p.rate != current_rate():
            notes.append(
                f"{p.model}: no {RATE_OPTIONS[current_rate()].label.lower()} rate in the source, so its "
                "standard price is used."
            )
        if note := p.rates.tier_note():
            notes.append(f"{p.model}: {note}")
        model_ref = p.ref
        if model_ref:
            for when, rates in price_changes(model_ref, on=today):
                if rates.input and rates.output:
                    notes.append(
                        f"{p.model}: from {when} the source lists {money_text(rates.input.base)} input and "
                        f"{money_text(rates.output.base)} output per million tokens."
                    )
            hours = peak_hours(model_ref, on=today)
            if hours and p.rate != "peak":
                spans = ", ".join(f"{a.strftime('%H:%M')}–{b.strftime('%H:%M')}" for a, b in hours)
                notes.append(
                    f"{p.model}: a higher rate applies at {spans} UTC (choose Peak hours to see it)."
                )
    return notes


def show_price_notes(table: PriceTable) -> None:
    for note in price_notes(table):
        st.caption(escape_markdown(note))
