"""The Identifiers tab: the table of names and what they cost, the chart of the most expensive,
their coloured splits, and one identifier up close."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from tokenizer_core import Tokenizer, split_identifier
from tokenizer_core.identifiers import (
    IDENTIFIER_ORDERS,
    STYLES,
    IdentifierAnalysis,
    IdentifierRow,
    filter_rows,
    identifier_costs_html,
    identifier_records,
    identifiers_csv,
    sort_identifiers,
    split_table_html,
)
from tokenizer_core.identifiers.charts import top_identifiers_chart
from tokenizer_core.tokenizers import markdown_code
from tokenizer_core.tokenizers.vega import vega_lite_spec

from .naming import naming_table

SPLIT_ROWS = 60


def identifiers_tab(analysis: IdentifierAnalysis, toks: list[Tokenizer]) -> None:
    # two rows, so that every box is wide enough for its label and its longest choice
    f1, f2, f5 = st.columns([3, 3, 4], vertical_alignment="bottom")
    f3, f4, b1, b2 = st.columns([1.3, 1.3, 1.8, 4], vertical_alignment="bottom")
    query = f1.text_input(
        "Filter",
        key="identifiers_filter",
        persist_state="session",
        placeholder="part of a name or word, e.g. user",
    )
    styles = f2.multiselect(
        "Styles", list(STYLES), key="identifiers_styles", persist_state="session", placeholder="all styles"
    )
    min_chars = int(f3.number_input(
        "Min. length", 1, 200, 3, key="identifiers_min_chars", persist_state="session",
        help="Names shorter than this are hidden. One- and two-letter names (i, x, db) cost one token and so "
        "always top a tokens-per-character sort; set 1 to see them.",
    ))  # fmt: skip
    min_occ = int(
        f4.number_input("Min. uses", 1, 100_000, 1, key="identifiers_min_occ", persist_state="session")
    )
    sort = f5.selectbox(
        "Sort by", list(IDENTIFIER_ORDERS), key="identifiers_sort", persist_state="session", format_func=IDENTIFIER_ORDERS.get,
        help="Most expensive first. Tokens in this file: what the name costs where it stands, times its uses.",
    )  # fmt: skip
    builtins = b1.toggle("Show builtins", value=True, key="identifiers_builtins", persist_state="session",
                         help="print, len, console, String, COUNT... are identifiers but not yours.")  # fmt: skip
    rows = [r for r in filter_rows(analysis.rows, query=query, styles=styles, min_occurrences=min_occ,
                                   include_builtins=builtins) if r.length >= min_chars]  # fmt: skip
    rows = sort_identifiers(rows, by=sort)
    b2.caption(
        f"{len(rows):,} of {len(analysis.rows):,} identifiers, sorted by {IDENTIFIER_ORDERS[sort]}. **tokens** = the name alone; "
        "**in code** = average tokens where it stands, with the space or punctuation before it."
    )
    if not rows:
        st.info("No identifier matches these filters.", icon=":material/filter_alt_off:")
        return
    records = identifier_records(analysis, rows)
    df = pd.DataFrame(records)
    config = {
        "identifier": st.column_config.TextColumn("identifier", pinned=True),
        "tokens/char": st.column_config.NumberColumn("tokens/char", format="%.2f"),
    }
    for tid, name in zip(analysis.tokenizer_ids, analysis.tokenizer_names):
        config[f"{tid} tokens"] = st.column_config.NumberColumn(f"{name} tokens")
        config[f"{tid} in code"] = st.column_config.NumberColumn(f"{name} in code", format="%.2f")
        config[f"{tid} split"] = st.column_config.TextColumn(f"{name} split")
        config[f"{tid} aligned"] = st.column_config.CheckboxColumn(f"{name} aligned",
                                                                   help="No token boundary inside a word")  # fmt: skip
    event = st.dataframe(
        df, hide_index=True, column_config=config, height=380, key="identifiers_table",
        on_select="rerun", selection_mode="single-row",
    )  # fmt: skip
    picked = (getattr(event, "selection", None) or {}).get("rows", []) if event is not None else []
    if (
        picked
        and picked[0] < len(rows)
        and st.session_state.get("identifiers_picked") != rows[picked[0]].name
    ):
        st.session_state["identifiers_picked"] = rows[picked[0]].name
        st.session_state["identifiers_inspect"] = rows[picked[0]].name
    st.download_button(
        "Download this table (CSV)", identifiers_csv(analysis, rows), file_name="identifiers.csv", mime="text/csv",
        icon=":material/download:", key="identifiers_csv", on_click="ignore",
    )  # fmt: skip

    st.subheader("The most expensive names")
    top_n = st.slider(
        "Identifiers in the chart (from the top of the table)",
        5,
        40,
        15,
        key="identifiers_top_n",
        persist_state="session",
    )
    measure = "file" if sort == "file" else "alone"
    chart = top_identifiers_chart(
        rows, analysis.tokenizer_ids, analysis.tokenizer_names, top_n=top_n, measure=measure
    )
    st.vega_lite_chart(vega_lite_spec(chart), width="stretch")
    st.subheader("Coloured token splits")
    mode = st.segmented_control(
        "Split of", ["the name alone", "the name in the code"], default="the name alone", key="identifiers_split_mode", persist_state="session",
        help="In the code: the tokens at the first use, with the space (⋅) or punctuation merged before it.",
    ) or "the name alone"  # fmt: skip
    st.html(split_table_html(rows, analysis.tokenizer_ids, analysis.tokenizer_names,
                             context=mode != "the name alone", max_rows=SPLIT_ROWS))  # fmt: skip
    shown = f"The first {SPLIT_ROWS} rows of the table are drawn. " if len(rows) > SPLIT_ROWS else ""
    st.caption(shown + "Colours follow the token ids (same token, same colour); ✂ marks a token boundary inside a "
               "word. Hover a piece for its id.")  # fmt: skip
    inspect_section(rows, analysis, toks)


def inspect_section(rows: list[IdentifierRow], analysis: IdentifierAnalysis, toks: list[Tokenizer]) -> None:
    st.subheader("One identifier up close")
    names = [r.name for r in rows]
    if st.session_state.get("identifiers_inspect") not in names:
        st.session_state["identifiers_inspect"] = names[0]
    name = st.selectbox("Identifier", names, key="identifiers_inspect", persist_state="session",
                        help="Or click a row of the table above.")  # fmt: skip
    row = next(r for r in rows if r.name == name)
    split = split_identifier(name)
    st.markdown(
        f"{markdown_code(name)} · **{row.style}** · words: "
        + (" · ".join(markdown_code(w) for w in split.words) or "none")
        + f" · {row.occurrences:,} use{'s' if row.occurrences != 1 else ''}, first on line {row.first_line}"
        + (" · builtin" if row.builtin else "")
    )
    st.html(identifier_costs_html(row, analysis.tokenizer_names))
    naming_table(name, toks, caption=f"{markdown_code(name)} in every naming style")
