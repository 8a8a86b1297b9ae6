"""Naming styles: one name in every style, and the Naming styles tab (the styles found in the code,
the file rewritten in each style, a name to try)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from tokenizer_core import Tokenizer, split_identifier
from tokenizer_core.identifiers import IdentifierAnalysis, style_summary
from tokenizer_core.identifiers.charts import rewrite_chart, style_tokens_chart
from tokenizer_core.tokenizers import escape_markdown, markdown_code
from tokenizer_core.tokenizers.vega import vega_lite_spec

from .analysis import cached_naming, cached_rewrites


def naming_table(name: str, toks: list[Tokenizer], *, caption: str) -> None:
    costs = cached_naming(name, tuple(t.id for t in toks), toks)
    records = []
    for c in costs:
        # a static table reads its headers and cells as Markdown (`__init__`, a user's tokenizer name)
        rec: dict[str, object] = {
            "style": c.style + (" (as written)" if c.original else ""),
            "name": escape_markdown(c.text),
        }
        for t in toks:
            rec[escape_markdown(t.info.name)] = c.tokens[t.id]
            rec[escape_markdown(f"{t.info.name} after a space")] = c.tokens_after_space[t.id]
        records.append(rec)
    st.markdown(caption)
    # a static table: its headers wrap, so every tokenizer's columns fit the page (a data grid
    # cut "Llama 3 after a space" at 1400 px and needed sideways scrolling on a phone)
    st.table(pd.DataFrame(records), hide_index=True)
    if len(costs) == 1:
        st.caption("A single word reads the same in every style except for its case.")
    st.caption("kebab-case is a valid name only in shell, CSS, Lisp and URLs; it is shown for comparison.")


def styles_tab(
    code: str, language: str, ids: tuple, analysis: IdentifierAnalysis, toks: list[Tokenizer]
) -> None:
    builtins = st.session_state.get("identifiers_builtins", True)
    summaries = style_summary(analysis, include_builtins=builtins)
    c1, c2 = st.columns(2)
    with c1:
        if summaries:
            chart = style_tokens_chart(summaries, analysis.tokenizer_ids, analysis.tokenizer_names)
            st.vega_lite_chart(vega_lite_spec(chart), width="stretch")
            st.caption("Mean tokens of a name alone in each style found in the code. Styles differ in length "
                       "too: hover a bar for the mean characters and tokens per character.")  # fmt: skip
        else:
            st.info("No identifiers in code to group by style.")
    with c2:
        rewrites = cached_rewrites(code, language, ids, toks)
        st.vega_lite_chart(
            vega_lite_spec(rewrite_chart(rewrites, analysis.tokenizer_ids, analysis.tokenizer_names)),
            width="stretch",
        )
        st.caption(
            "Every identifier of two or more words in the code (builtins left alone) rewritten in one style, and "
            "the whole file counted again. A what-if for counting: the result need not compile."
        )
    st.dataframe(
        pd.DataFrame([{"style": r.style, "names renamed": r.renamed,
                       **{n: r.tokens[t] for t, n in zip(analysis.tokenizer_ids, analysis.tokenizer_names)}}
                      for r in rewrites]),
        hide_index=True,
    )  # fmt: skip
    st.subheader("Try a name")
    typed = st.text_input(
        "Identifier",
        value="get_user_by_id",
        key="identifiers_try_name",
        persist_state="session",
        max_chars=200,
    )
    name = "_".join(typed.split())
    if not name:
        st.info("Type an identifier to see it in every naming style.")
    elif not split_identifier(name).words:
        st.warning("That name has no letters or digits to rewrite. Try e.g. get_user_by_id.")
    else:
        note = " (spaces read as word breaks)" if name != typed.strip() else ""
        naming_table(name, toks, caption=f"{markdown_code(name)}{note} in every naming style")
