"""The counts of a text on the page (ui/counting.py counts it): a card per tokenizer, the table,
the chart and the CSV download, and the context window they are measured against."""

from __future__ import annotations

import pyarrow as pa
import streamlit as st

from tokenizer_core import BUILTINS, CountRow, Tokenizer
from tokenizer_core.catalog.choices import TokenizerGroup, shared_tokenizer_note
from tokenizer_core.tokenizers import escape_markdown
from tokenizer_core.tokenizers.vega import vega_lite_spec
from tokenizer_core.workspace import CONTEXT_WINDOWS, rows_to_csv
from tokenizer_core.workspace.charts import token_count_chart, token_count_data
from tokenizer_core.workspace.chat import rule_notes
from tokenizer_core.workspace.count_cards import COUNTS_KEY, CountCard, count_card_markdown

from ..count_api import count_url

CUSTOM = "Custom..."


def context_window_input() -> int:
    # Defaults go through session state (a share link may have set it), never also as a
    # widget default: Streamlit warns when both are given.
    st.session_state.setdefault("workspace_ctx", list(CONTEXT_WINDOWS)[2])
    choice = st.selectbox(
        "Context window (for encodings)", [*CONTEXT_WINDOWS, CUSTOM], key="workspace_ctx", persist_state="session",
        help="A model is measured against its own context window (the price source's figure); an encoding, "
        "or a model whose window is not known, against this one. Every table shows the window it used.",
    )  # fmt: skip
    if choice == CUSTOM:
        st.session_state.setdefault("workspace_ctx_custom", 128_000)
        return int(st.number_input(
            "Tokens in the window", min_value=1, max_value=100_000_000, step=1_000, key="workspace_ctx_custom", persist_state="session",
        ))  # fmt: skip
    return CONTEXT_WINDOWS[choice]


def count_cards(rows: list[CountRow], toks: list[Tokenizer], groups: list[TokenizerGroup]) -> None:
    """A card per tokenizer (models that share one are counted once), in Markdown: a fresh tab
    draws it without waiting for a script of its own (tokenizer_core/workspace/count_cards.py)."""
    by_tok = {g.tokenizer_id: g for g in groups}
    line = st.container(horizontal=True, gap="large", key=COUNTS_KEY)
    for row, tok in zip(rows, toks):
        cpt = f"{row.chars_per_token:.2f} characters per token" if row.chars_per_token else "no tokens"
        picked = [c.name for c in by_tok[tok.id].choices if c.model] if tok.id in by_tok else []
        card = CountCard(
            row.tokenizer, row.tokens, models=", ".join(picked or tok.info.models) or tok.info.family
        )
        line.markdown(
            count_card_markdown(card), width="content",
            help=f"{cpt}; {row.context_pct:.2f}% of a {row.context_window:,}-token context window",
        )  # fmt: skip


def live_count_spec(toks: list[Tokenizer], window: int, *, allow_special: bool) -> dict | None:
    """What the text box asks the server's count route for on each pause in typing, and the
    labels of the cards its answer goes on (ui/count_api.py); None when one of `toks` is the
    session's own (the route counts built-in tokenizers only)."""
    if not toks or any(t.id not in BUILTINS for t in toks):
        return None
    return {
        "url": count_url(), "ids": [t.id for t in toks], "window": window, "special": allow_special,
        "cards": COUNTS_KEY, "labels": [t.info.name for t in toks],
    }  # fmt: skip


def count_notes(groups: list[TokenizerGroup], toks: list[Tokenizer]) -> None:
    """What the chosen models' counts share and what they count, under the counts. They depend
    on the models alone: drawn by a run of the workspace, not by each keystroke's."""
    if note := shared_tokenizer_note(groups, tokenizer_names={t.id: t.info.name for t in toks}):
        st.caption(escape_markdown(note), help="The count depends only on the tokenizer.")
    for rule in rule_notes([c for g in groups for c in g.choices]):  # e.g. Gemini: what is counted
        st.caption(escape_markdown(rule))


def counts_table(rows: list[CountRow]) -> None:
    """The counts as a table, a bar chart and a CSV download."""
    # an Arrow table: Streamlit sends it as it is (a pandas frame took ~4 ms more to convert)
    table = pa.Table.from_pylist([_row_dict(r) for r in rows]).drop_columns(["tokenizer_id"])
    st.dataframe(
        table,
        hide_index=True,
        column_config={
            "context_window": st.column_config.NumberColumn(
                "Context window",
                format="localized",
                help="The smallest context window of the models this tokenizer counts for; for an encoding "
                "alone, the window chosen above.",
            ),
            "tokenizer": "Tokenizer",
            "tokens": st.column_config.NumberColumn("Tokens", format="localized"),
            "characters": st.column_config.NumberColumn("Characters", format="localized"),
            "words": st.column_config.NumberColumn("Words", format="localized"),
            "utf8_bytes": st.column_config.NumberColumn("UTF-8 bytes", format="localized"),
            "chars_per_token": st.column_config.NumberColumn("Chars / token", format="%.2f"),
            "context_pct": st.column_config.ProgressColumn(
                "% of context", format="%.2f%%", min_value=0, max_value=100
            ),
        },
    )
    c1, c2 = st.columns([3, 1], vertical_alignment="bottom")
    c1.vega_lite_chart(counts_chart_spec(rows), width="stretch")
    c2.download_button(
        "Download counts (CSV)", rows_to_csv(rows), file_name="token_counts.csv", mime="text/csv",
        icon=":material/download:", key="workspace_csv", on_click="ignore",
    )  # fmt: skip


CHART_DATA = "token_counts"  # the name of the counts chart's dataset in its Vega-Lite spec


@st.cache_data(max_entries=64, ttl=3600, show_spinner=False)
def _chart_template(tokenizers: tuple[tuple[str, str], ...], _rows: list[CountRow]) -> dict:
    # Building the Altair chart took ~40-60 ms of CPU on every keystroke, while only the counts
    # change: the spec depends on the tokenizers (names, colours) alone.
    spec = vega_lite_spec(token_count_chart(_rows))
    spec.pop("datasets")
    spec["data"] = {"name": CHART_DATA}
    return spec


def counts_chart_spec(rows: list[CountRow]) -> dict:
    """`token_count_chart(rows)` as a Vega-Lite spec with its data as a dataset, for
    `st.vega_lite_chart`: the spec comes from a cache of one per set of tokenizers."""
    spec = _chart_template(tuple((r.tokenizer_id, r.tokenizer) for r in rows), rows)  # a copy
    spec["datasets"] = {CHART_DATA: token_count_data(rows)}
    return spec


def _row_dict(row: CountRow) -> dict:
    return {f: getattr(row, f) for f in CountRow.__dataclass_fields__}
