"""Language costs: what the same content costs in tokens, and in money, in each language."""

from __future__ import annotations

import streamlit as st

from tokenizer_core.languages import language_rows_csv
from tokenizer_core.languages.charts import premium_heatmap, tokens_chart
from tokenizer_core.tokenizers.vega import vega_lite_spec
from ui.languages.about import about_section
from ui.languages.cached import cached_table
from ui.languages.choices import base_select, languages_select
from ui.languages.costs import cost_section
from ui.languages.pair_view import pair_section
from ui.languages.premiums import summary_metrics, table_section
from ui.languages.texts import texts_section
from ui.languages.why import why_section
from ui.messages import show_notes
from ui.saved_work import keep_work
from ui.state import get_tokenizers, named
from ui.widgets import show_unavailable, tokenizer_select, working_tokenizers

DEFAULT_TOKENIZERS = ("o200k_base", "cl100k_base", "llama3", "qwen", "tekken")

st.title("Language costs")
st.caption(
    "The same content costs a different number of tokens in each language. Measure it on a bundled "
    "support reply in 26 languages or on your own translations, with every tokenizer the app has, "
    "and see what it means for your bill."
)
about_section()

languages, problems = texts_section()
show_notes(problems, kind="warning", icon=":material/warning:")

c1, c2, c3 = st.columns([4, 3, 2], vertical_alignment="bottom")
with c1:
    chosen = languages_select(languages)
with c2:
    ids = tokenizer_select("languages_tokenizers", default=DEFAULT_TOKENIZERS)
with c3:
    base = base_select(chosen)

toks, errors = get_tokenizers(ids)
show_unavailable(errors)
if chosen:
    toks = working_tokenizers(toks, [l.text for l in chosen])
if not languages:
    st.info(
        "No language has a text: reset to the bundled sample or type a text in the table above.",
        icon=":material/edit_note:",
    )
elif not chosen:
    st.info("Choose at least one language above.", icon=":material/arrow_upward:")
elif not ids:
    st.info("Choose at least one tokenizer above.", icon=":material/arrow_upward:")
elif toks and base:
    base_name = next(l.name for l in chosen if l.code == base)
    rows = named(cached_table(tuple(chosen), tuple(t.id for t in toks), base, toks), toks)
    summary_metrics(rows, base_name)
    st.vega_lite_chart(
        vega_lite_spec(premium_heatmap(rows, base_name=base_name)), width="stretch", key="languages_heatmap"
    )
    st.vega_lite_chart(vega_lite_spec(tokens_chart(rows)), width="stretch", key="languages_bars")
    why_section(chosen, toks, base)  # bytes per character, pieces per script, byte fallback
    with st.expander(
        "The full table: tokens, characters, bytes, words and premium per language and tokenizer",
        icon=":material/table:",
    ):
        table_section(rows)
    st.download_button(
        "Download the full table (CSV)", language_rows_csv(rows), file_name="language_premiums.csv",
        mime="text/csv", icon=":material/download:", key="languages_table_csv", on_click="ignore",
    )  # fmt: skip
    cost_section(chosen, base, base_name)
    pair_section(chosen, toks, rows, base)
keep_work("languages")  # in the browser, for a reload (ui/saved_work.py)
