"""The figures of the code identifiers page above its tabs: lines, names, uses and tokens."""

from __future__ import annotations

import streamlit as st

from tokenizer_core.identifiers import IdentifierAnalysis
from tokenizer_core.tokenizers import escape_markdown


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
