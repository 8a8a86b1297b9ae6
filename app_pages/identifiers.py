"""Code identifiers: what names and code layout cost in tokens, per tokenizer."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from tokenizer_core import Tokenizer, split_identifier
from tokenizer_core.identifiers import (
    CODE_LANGUAGES,
    IDENTIFIER_ORDERS,
    STYLES,
    TARGET_STYLES,
    GreedyTokenizer,
    IdentifierAnalysis,
    IdentifierRow,
    filter_rows,
    identifier_costs_html,
    identifier_records,
    identifiers_csv,
    sort_identifiers,
    split_table_html,
)
from tokenizer_core.identifiers.charts import (
    top_identifiers_chart,
)
from tokenizer_core.jobs import JobError
from tokenizer_core.tokenizers import escape_markdown, markdown_code
from ui.identifiers.sections import (
    EXTENSIONS,
    SAMPLES,
    cached_analysis,
    code_view_tab,
    greedy_vocab,
    layout_tab,
    naming_table,
    options_row,
    resolve_language,
    styles_tab,
    teaching_tab,
    with_names,
)
from ui.state import get_tokenizers
from ui.widgets import show_unavailable, text_source, working_tokenizers

MAX_CODE_CHARS = 1_000_000
SPLIT_ROWS = 60
TABS = ["Identifiers", "Code view", "Naming styles", "Layout", "Teaching mode"]


def summary_metrics(code: str, analysis: IdentifierAnalysis) -> None:
    lines = code.count("\n") + (0 if code.endswith("\n") else 1)
    n = len(analysis.tokenizer_ids)
    cols = list(st.columns(3 + min(n, 4)))
    cols[0].metric("Lines", f"{lines:,}")
    cols[1].metric("Identifiers", f"{len(analysis.rows):,}", help="Distinct names")
    cols[2].metric("Uses", f"{analysis.occurrences:,}", help="Occurrences of all the names")
    for extra in range(4, n, 7):  # more tokenizers: further rows of up to 7
        cols += list(st.columns(7))[: min(7, n - extra)]
    for k, (tid, name) in enumerate(zip(analysis.tokenizer_ids, analysis.tokenizer_names)):
        cols[3 + k].metric(
            f"{escape_markdown(name)} tokens", f"{analysis.file_tokens[tid]:,}",
            f"{100 * analysis.identifier_share(tid):.1f}% on names", delta_color="off", delta_arrow="off",
            help="Tokens of the whole file. The share counts each token once, for the most important kind of "
            "character it covers (an identifier character first).",
        )  # fmt: skip


# ------------------------------------------------------------------ tabs


def identifiers_tab(analysis: IdentifierAnalysis, toks: list[Tokenizer]) -> None:
    # two rows, so that every box is wide enough for its label and its longest choice
    f1, f2, f5 = st.columns([3, 3, 4], vertical_alignment="bottom")
    f3, f4, b1, b2 = st.columns([1.3, 1.3, 1.8, 4], vertical_alignment="bottom")
    query = f1.text_input("Filter", key="identifiers_filter", placeholder="part of a name or word, e.g. user")
    styles = f2.multiselect("Styles", list(STYLES), key="identifiers_styles", placeholder="all styles")
    min_chars = int(f3.number_input(
        "Min. length", 1, 200, 3, key="identifiers_min_chars",
        help="Names shorter than this are hidden. One- and two-letter names (i, x, db) cost one token and so "
        "always top a tokens-per-character sort; set 1 to see them.",
    ))  # fmt: skip
    min_occ = int(f4.number_input("Min. uses", 1, 100_000, 1, key="identifiers_min_occ"))
    sort = f5.selectbox(
        "Sort by", list(IDENTIFIER_ORDERS), key="identifiers_sort", format_func=IDENTIFIER_ORDERS.get,
        help="Most expensive first. Tokens in this file: what the name costs where it stands, times its uses.",
    )  # fmt: skip
    builtins = b1.toggle("Show builtins", value=True, key="identifiers_builtins",
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
        "Identifiers in the chart (from the top of the table)", 5, 40, 15, key="identifiers_top_n"
    )
    measure = "file" if sort == "file" else "alone"
    st.altair_chart(top_identifiers_chart(rows, analysis.tokenizer_ids, analysis.tokenizer_names, top_n=top_n,
                                          measure=measure), width="stretch")  # fmt: skip
    st.subheader("Coloured token splits")
    mode = st.segmented_control(
        "Split of", ["the name alone", "the name in the code"], default="the name alone", key="identifiers_split_mode",
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
    name = st.selectbox("Identifier", names, key="identifiers_inspect",
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


# ------------------------------------------------------------------ page

st.title("Code identifiers")
st.caption(
    "What your names and your code layout cost in tokens, for each tokenizer: every identifier split into "
    "words and tokens, snake_case vs camelCase, comments, indentation and blank lines."
)
code = text_source(
    "identifiers", samples=SAMPLES, default_sample=next(iter(SAMPLES)), height=260, extensions=EXTENSIONS,
    label="Code", placeholder="Paste source code: Python, TypeScript, JavaScript, Go, Rust, Java, C, C++, C#, SQL, shell...",
)  # fmt: skip
ids, strings, comments, add_greedy = options_row()
toks, errors = get_tokenizers(ids)
show_unavailable(errors)
if code.strip() and len(code) <= MAX_CODE_CHARS:
    toks = working_tokenizers(toks, [code])
if add_greedy:
    vocab, _err = greedy_vocab()
    toks = [*toks, GreedyTokenizer(vocab)]
tok_ids = tuple(t.id for t in toks)

analysis: IdentifierAnalysis | None = None
language = ""
if not toks:
    st.info("Choose at least one tokenizer above.", icon=":material/arrow_upward:")
elif not code.strip():
    st.info(
        "Paste code, upload a source file or load a sample to see what its names cost.",
        icon=":material/code:",
    )
elif len(code) > MAX_CODE_CHARS:
    st.error(
        f"The code has {len(code):,} characters; this page analyses up to {MAX_CODE_CHARS:,} (about 30,000 lines). "
        "Paste one file or a part of it. Your text is kept above.", icon=":material/block:",
    )  # fmt: skip
else:
    language, reason = resolve_language(code)
    st.caption(f"Language: **{CODE_LANGUAGES[language].name}** ({escape_markdown(reason)}). "
               "Choose another above if this is wrong.")  # fmt: skip
    try:
        analysis = with_names(cached_analysis(code, language, tok_ids, strings, comments, toks), toks)
    except JobError as exc:
        st.error(f"The analysis failed: {escape_markdown(str(exc))} Your code is kept above.",
                 icon=":material/error:")  # fmt: skip
        st.stop()
    for note in analysis.notes:
        st.warning(escape_markdown(note), icon=":material/warning:")
    if not analysis.rows:
        st.info("No identifiers found in this code (keywords, strings and comments are not identifiers).",
                icon=":material/search_off:")  # fmt: skip
    summary_metrics(code, analysis)

tabs = st.tabs(TABS, key="identifiers_tab", on_change="rerun")
for tab, label in zip(tabs, TABS):
    if not tab.open:
        continue
    with tab:
        if label == "Teaching mode":
            teaching_tab(toks)
        elif analysis is None:
            st.info("Nothing to show yet: add code above.", icon=":material/code:")
        elif label == "Identifiers":
            if analysis.rows:
                identifiers_tab(analysis, toks)
            else:
                st.info("No identifiers to list.")
        elif label == "Code view":
            code_view_tab(code, language, tok_ids, strings, comments, analysis, toks)
        elif label == "Naming styles":
            styles_tab(code, language, tok_ids, analysis, toks)
        elif label == "Layout":
            layout_tab(code, language, tok_ids, analysis, toks)
st.caption(
    "Keywords are never identifiers; builtins (print, len, console, String, COUNT...) are, and can be hidden. "
    f"Naming styles: {', '.join(TARGET_STYLES)}, single word and mixed."
)
