"""What the workload costs per month in each language: the models to price, the price table, the
workload inputs, and the cost chart, table and download."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from tokenizer_core import Language
from tokenizer_core.catalog.entries import MODELS, ModelEntry
from tokenizer_core.catalog.rates import exact, round_money
from tokenizer_core.languages.charts import cost_chart
from tokenizer_core.languages.costs import COST_DEFINITION, Workload, cost_rows_csv, cost_table
from tokenizer_core.tokenizers import escape_markdown
from tokenizer_core.tokenizers.vega import vega_lite_spec

from ..model_picker import model_picker
from ..models import PICKER_NOTES, picker_entries
from ..prices import price_editor, prices_for, rate_control, show_price_notes
from ..state import get_tokenizers, named
from ..widgets import show_unavailable, working_tokenizers
from .cached import cached_table

PRICES_EDITOR = "languages_prices_editor"
DEFAULT_COST_MODELS = ("gpt-5-mini", "gpt-4o-mini", "gpt-3.5-turbo", "open-mistral-nemo-2407")
COST_MODELS = "languages_cost_models"


def workload_inputs() -> Workload:
    c1, c2, c3, c4 = st.columns(4)
    requests = c1.number_input(
        "Requests per month",
        min_value=0,
        max_value=10**12,
        value=100_000,
        step=10_000,
        key="languages_requests",
        persist_state="session",
    )
    tin = c2.number_input("Input tokens per request", min_value=0, max_value=10**8, value=1_500, step=100, key="languages_in_tokens", persist_state="session",
                          help="Counted in the base language, with each model's tokenizer.")  # fmt: skip
    tout = c3.number_input("Output tokens per request", min_value=0, max_value=10**8, value=300, step=50, key="languages_out_tokens", persist_state="session",
                           help="Counted in the base language, with each model's tokenizer.")  # fmt: skip
    share = c4.slider(
        "Input in the user's language", min_value=0, max_value=100, value=100, step=5, format="%d%%",
        key="languages_share", persist_state="session", help="The rest of the input (e.g. a fixed English system prompt) does not change with the language.",
    )  # fmt: skip
    return Workload(float(requests), float(tin), float(tout), translated_share=share / 100)


def cost_models() -> list[ModelEntry]:
    """The models the page prices, picked with the app's model picker (catalog models only: a
    premium needs the model's own tokenizer)."""
    if COST_MODELS not in st.session_state:
        st.session_state[COST_MODELS] = list(DEFAULT_COST_MODELS)
    options = [o for o in picker_entries() if o.kind in ("model", "uncounted")]
    ids = model_picker(
        COST_MODELS, options, label="Models to price", notes=PICKER_NOTES,
        placeholder="Type a model",
    )  # fmt: skip
    return [MODELS[i] for i in ids if i in MODELS]


def cost_section(chosen: list[Language], base: str, base_name: str) -> None:
    st.subheader("What it costs per month")
    models = cost_models()
    if not models:
        st.info("Choose at least one model above to see what the workload costs.", icon=":material/sell:")
        return
    rate_control("languages_price_rate", models)
    table = prices_for(models)
    with st.expander(
        "Prices: the source's, and yours (edit any price here; one table for every page)",
        icon=":material/sell:",
        expanded=True,
    ):
        price_editor(table, key=PRICES_EDITOR)
    show_price_notes(table)
    workload = workload_inputs()
    with st.popover("How the cost is computed", icon=":material/functions:"):
        st.markdown(escape_markdown(COST_DEFINITION))
    ids = list(dict.fromkeys(p.tokenizer_id for p in table.prices if p.priced and p.tokenizer_id))
    if not ids:
        st.info(
            "None of the chosen models has both a price and a tokenizer: type a price in the table above, "
            "or choose another model.",
            icon=":material/sell:",
        )
        return
    toks, errors = get_tokenizers(ids)
    show_unavailable(errors)
    toks = working_tokenizers(toks, [l.text for l in chosen])
    if not toks:
        return
    rows = named(cached_table(tuple(chosen), tuple(t.id for t in toks), base, toks), toks)
    costs, skipped = cost_table(rows, list(table.prices), workload)
    for s in skipped:
        st.caption(escape_markdown(s))
    names = list(dict.fromkeys(c.model for c in costs))
    label = (
        f"{workload.requests_per_month:,.0f} requests × ({workload.input_tokens:,.0f} input + "
        f"{workload.output_tokens:,.0f} output tokens in {base_name})"
    )
    if costs:
        st.vega_lite_chart(vega_lite_spec(cost_chart(costs, workload_label=label)), width="stretch")
    # cents rounded half up here, exactly: the table's format would round the float (15.995 -> 15.99)
    pivot = pd.DataFrame(
        [
            {"language": c.language, "model": c.model, "cost": float(round_money(exact(c.monthly_cost)))}
            for c in costs
        ]
    )
    if len(pivot):
        wide = pivot.pivot(index="language", columns="model", values="cost")
        wide = wide.reindex([l.name for l in chosen])[names]
        st.dataframe(
            wide, width="stretch", key="languages_cost_table",
            column_config={m: st.column_config.NumberColumn(m, format="dollar") for m in names},
        )  # fmt: skip
        st.download_button(
            "Download the costs (CSV)", cost_rows_csv(costs), file_name="language_costs.csv",
            mime="text/csv", icon=":material/download:", key="languages_cost_csv", on_click="ignore",
        )  # fmt: skip
