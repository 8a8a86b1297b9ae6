"""The Code view tab: the code coloured by what each name costs where it stands."""

from __future__ import annotations

import streamlit as st

from tokenizer_core import Tokenizer
from tokenizer_core.identifiers import (
    MAX_VIEW_CHARS,
    MAX_VIEW_LINES,
    IdentifierAnalysis,
    code_view_window,
    cost_legend_html,
)

from .analysis import cached_code_view


def code_view_tab(code: str, language: str, ids: tuple, strings: bool, comments: bool,
                  analysis: IdentifierAnalysis, toks: list[Tokenizer]) -> None:  # fmt: skip
    lines = max(1, code.count("\n") + (0 if code.endswith("\n") else 1))
    c1, c2 = st.columns([2, 1], vertical_alignment="bottom")
    tid = c1.selectbox("Colour by the tokens of", list(analysis.tokenizer_ids), key="identifiers_view_tok", persist_state="session",
                       format_func=dict(zip(analysis.tokenizer_ids, analysis.tokenizer_names)).get)  # fmt: skip
    start = int(
        c2.number_input(
            f"Start at line (of {lines:,})",
            1,
            max(1, lines),
            1,
            key="identifiers_view_line",
            persist_state="session",
        )
    )
    first, last = code_view_window(code, start)
    last = min(last, lines)
    st.html(cost_legend_html())
    st.html(cached_code_view(code, language, ids, strings, comments, tid, first, last, toks))
    more = (f" At most {MAX_VIEW_LINES:,} lines (about {MAX_VIEW_CHARS:,} characters) are drawn at once so the "
            "page stays fast: change the start line to move.") if (first > 1 or last < lines) else ""  # fmt: skip
    st.caption(
        f"Lines {first:,}–{last:,} of {lines:,}.{more} Each name is coloured by what it costs where it stands "
        "(tokens overlapping it, so a leading space or dot merged into its first token counts). "
        "Comments are grey and strings blue; hover a name for details."
    )
