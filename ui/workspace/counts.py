"""The counts of a text: a card per tokenizer, the table, the chart and the CSV download,
and the context window they are measured against; the segments of the part on view, kept for
the session."""

from __future__ import annotations

from contextlib import nullcontext

import altair as alt
import pyarrow as pa
import streamlit as st

from tokenizer_core import BUILTINS, CountRow, Segment, Tokenizer
from tokenizer_core.catalog.choices import TokenizerGroup, shared_tokenizer_note
from tokenizer_core.portable import portable_all
from tokenizer_core.tasks import count_task
from tokenizer_core.tokenizers import escape_markdown
from tokenizer_core.workspace import CONTEXT_WINDOWS, rows_to_csv
from tokenizer_core.workspace.charts import token_count_chart, token_count_data
from tokenizer_core.workspace.chat import rule_notes
from tokenizer_core.workspace.count_cards import COUNTS_KEY, CountCard, count_card_markdown

from ..count_api import count_url
from ..jobs import in_process_max_chars, pooled_result, show_stopped, text_digest
from ..state import cached_counts, named

CUSTOM = "Custom..."


COUNTED = "counter_counted"  # this session's last counts: (what was counted, by which tokenizers, rows)
SPINNER_CHARS = 100_000  # texts from this long take a noticeable moment to count: say so meanwhile


def count_rows(text: str, toks: list[Tokenizer], window: int, allow_special: bool) -> list[CountRow] | None:
    """This session's count rows. A very large text is counted in a worker process (this
    session's own tokenizers sent along), with a progress bar and a Cancel button; None (with a
    message shown) when the user cancelled it.

    A keystroke reruns the text box and its counts, then the rest of the workspace (app_pages/
    workspace.py): the session keeps its last rows, so the second run counts nothing (the shared
    cache's lookup alone, ~2-3 ms, hashes the text and rebuilds its key)."""
    ids = tuple(t.id for t in toks)
    refs = portable_all(toks) if len(text) > in_process_max_chars("count") else None
    if refs is None:
        what = (text, ids, window, allow_special)
        kept = st.session_state.get(COUNTED)
        if kept is not None and kept[0] == what and all(a is b for a, b in zip(kept[1], toks)):
            return named(kept[2], toks)
        with st.spinner("Counting...") if len(text) >= SPINNER_CHARS else nullcontext():
            rows = cached_counts(text, ids, window, allow_special, toks)
        st.session_state[COUNTED] = (what, list(toks), rows)
        return named(rows, toks)
    fingerprint = ("count", text_digest(text), ids, window, allow_special)
    outcome = pooled_result(
        "counter_count", fingerprint, count_task, text, refs, context_window=window,
        allow_special=allow_special, weight=1, label="Counting tokens...",
    )  # fmt: skip
    if outcome.error is None:
        return named(outcome.value, toks)
    show_stopped("counter_count", outcome, "Counting", "text", again="Count again")
    return None


SEGMENTS = "counter_segments"  # this session's segments of the part of the text on view


def view_segments(text: str, tok: Tokenizer, *, start: int, end: int, allow_special: bool) -> list[Segment]:
    """`tok`'s segments of ``text[start:end]`` (offsets in `text`), kept for this session while
    the part on view stays the same: reruns that change nothing in it (a view option, the cost
    inputs, another page and back) reuse them. Typing changes the text: a cache shared by every
    session (which pickles what it keeps, ~2-3 ms per 1,000 segments) only cost time there."""
    part = (text, start, end, allow_special)
    kept = st.session_state.get(SEGMENTS)
    if kept is None or kept[0] != part:  # a keystroke: the segments of the text before it help
        earlier = (
            kept[1] if kept is not None and kept[0][1] == start == 0 and kept[0][3] == allow_special else {}
        )
        kept = st.session_state[SEGMENTS] = (part, {}, earlier)
    segs = _made_by(tok, kept[1].get(tok.id))
    if segs is None:
        earlier = _made_by(tok, kept[2].pop(tok.id, None))
        segs = (
            tok.segments(text[start:end], allow_special=allow_special)
            if earlier is None
            else tok.segments_after(text[start:end], previous=earlier, allow_special=allow_special)
        )
        if start:
            segs = [Segment(s.start + start, s.end + start, s.ids, s.text, s.data, s.special) for s in segs]
        kept[1][tok.id] = (tok, segs)
    return segs


def _made_by(tok: Tokenizer, found: tuple[Tokenizer, list[Segment]] | None) -> list[Segment] | None:
    """Segments kept under `tok`'s id if this very tokenizer made them (a user's tokenizer
    replaced under the same id is another one): ``_made_by(tok, (tok, segs)) -> segs``."""
    return found[1] if found is not None and found[0] is tok else None


def context_window_input() -> int:
    # Defaults go through session state (a share link may have set it), never also as a
    # widget default: Streamlit warns when both are given.
    st.session_state.setdefault("counter_ctx", list(CONTEXT_WINDOWS)[2])
    choice = st.selectbox(
        "Context window (for encodings)", [*CONTEXT_WINDOWS, CUSTOM], key="counter_ctx", persist_state="session",
        help="A model is measured against its own context window (the price source's figure); an encoding, "
        "or a model whose window is not known, against this one. Every table shows the window it used.",
    )  # fmt: skip
    if choice == CUSTOM:
        st.session_state.setdefault("counter_ctx_custom", 128_000)
        return int(st.number_input(
            "Tokens in the window", min_value=1, max_value=100_000_000, step=1_000, key="counter_ctx_custom", persist_state="session",
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
        icon=":material/download:", key="counter_csv", on_click="ignore",
    )  # fmt: skip


CHART_DATA = "token_counts"  # the name of the counts chart's dataset in its Vega-Lite spec


@st.cache_data(max_entries=64, ttl=3600, show_spinner=False)
def _chart_template(tokenizers: tuple[tuple[str, str], ...], _rows: list[CountRow]) -> dict:
    # Building the Altair chart and validating its spec took ~40-60 ms of CPU on every keystroke,
    # while only the counts change: the spec depends on the tokenizers (names, colours) alone.
    spec = token_count_chart(_rows).to_dict()
    # Streamlit draws an Altair chart under the "none" theme, not Altair's default, and keeps its
    # data apart from the spec: the same here.
    if alt.theme.active == "default":
        for key, value in alt.theme.get()().get("config", {}).get("view", {}).items():
            if spec.get("config", {}).get("view", {}).get(key) == value:
                del spec["config"]["view"][key]
        if spec.get("config", {}).get("view") == {}:
            del spec["config"]["view"]
        if spec.get("config") == {}:
            del spec["config"]
    spec.pop("datasets", None)
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
