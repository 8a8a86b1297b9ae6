"""The Layout tab: what comments, docstrings, blank lines and indentation cost, and where the tokens go."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from tokenizer_core import Tokenizer
from tokenizer_core.identifiers import LAYOUT_DEFINITIONS, IdentifierAnalysis
from tokenizer_core.identifiers.charts import indentation_chart, kind_share_chart, layout_breakdown_chart
from tokenizer_core.tokenizers import escape_markdown
from tokenizer_core.tokenizers.vega import vega_lite_spec

from .analysis import cached_layout


def layout_tab(
    code: str, language: str, ids: tuple, analysis: IdentifierAnalysis, toks: list[Tokenizer]
) -> None:
    report = cached_layout(code, language, ids, toks)
    stats = report.stats
    cols = st.columns(5)
    cols[0].metric("Indentation", stats.indentation.describe())
    cols[1].metric("Lines", f"{stats.lines:,}")
    cols[2].metric("Blank lines", f"{stats.blank_lines:,}")
    cols[3].metric("Comment-only lines", f"{stats.comment_lines:,}")
    cols[4].metric("Docstrings", f"{stats.docstrings:,}")
    c1, c2 = st.columns(2)
    c1.vega_lite_chart(
        vega_lite_spec(layout_breakdown_chart(report, analysis.tokenizer_names)), width="stretch"
    )
    c2.vega_lite_chart(vega_lite_spec(indentation_chart(report, analysis.tokenizer_names)), width="stretch")
    st.vega_lite_chart(vega_lite_spec(kind_share_chart(analysis)), width="stretch")
    with st.expander("How these numbers are measured", icon=":material/functions:", expanded=True):
        st.markdown(
            "Every figure is a difference of two exact token counts of whole files:\n\n"
            "- **comments contribute** = tokens(file) − tokens(file *without comments*)\n"
            "- **docstrings contribute** = tokens(file) − tokens(file *without docstrings*) (Python)\n"
            "- **blank lines contribute** = tokens(file) − tokens(file *without blank lines*)\n"
            "- **indentation contributes** = tokens(file) − tokens(file with *no indentation*)\n"
            "- **re-indented**: the level of a line = leading tabs + leading spaces ÷ the detected unit "
            f"({stats.indentation.describe()}); each level rewritten as a tab, 2 or 4 spaces, leftover "
            "alignment spaces kept.\n"
            "- **where the tokens go**: each token counts once, for the most important kind of character it "
            "covers (identifier > keyword > string > comment > number > punctuation > whitespace), so the "
            "kinds add up to the file's tokens.\n\n"
            "Each variant is made from the original file on its own, so the contributions overlap a little "
            "(a comment's indentation is in both) and need not add up.\n\n"
            + "\n".join(
                f"- *{escape_markdown(k)}*: {escape_markdown(v)}" for k, v in LAYOUT_DEFINITIONS.items()
            )
        )
    pivot = pd.DataFrame(report.records()).pivot(index="variant", columns="tokenizer", values="tokens")
    pivot = pivot.reindex([v for v in report.tokens]).rename(
        columns=dict(zip(analysis.tokenizer_ids, analysis.tokenizer_names))
    )
    st.dataframe(pivot, column_config={"variant": "File"})
