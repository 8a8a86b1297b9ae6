"""Prompt versions side by side: saved, loaded into the editor, compared in tokens and cost.

The session holds checked `PromptVersion`s only: a share link and a workspace file are read
(and their bad values left out) where they enter, so a button never meets an unchecked value.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from tokenizer_core import Tokenizer, TokenizerFailed
from tokenizer_core.catalog.choices import Choice
from tokenizer_core.catalog.rates import money_text
from tokenizer_core.tokenizers import escape_markdown
from tokenizer_core.workspace.diff import diff_sections, regions_of, sections_html
from tokenizer_core.workspace.limits import MAX_VERSIONS
from tokenizer_core.workspace.versions import PromptVersion, version_tokens

from ..failures import show_failure
from ..fast_first import rerun_parts
from ..prices import prices_for
from .chat_editor import set_messages
from .prompt import prompt_now
from .state import WORKSPACE

VERSIONS = "workspace_versions"  # list of PromptVersion (checked), this session
PRICE_COLUMN = "Input $ difference per 1,000 requests"


def versions() -> list[PromptVersion]:
    """This session's saved versions."""
    return [v for v in st.session_state.get(VERSIONS, []) if isinstance(v, PromptVersion)]


def set_versions(vs: list[PromptVersion]) -> None:
    """Replace the saved versions (from a link or a file, already checked)."""
    st.session_state[VERSIONS] = list(vs[:MAX_VERSIONS])


def _save() -> None:
    current = prompt_now()  # not the prompt this button was drawn with: typing may have gone on
    vs = versions()
    if len(vs) >= MAX_VERSIONS:
        return
    name = (st.session_state.get("workspace_version_name") or "").strip() or f"v{len(vs) + 1}"
    set_versions([*vs, PromptVersion(name, current.kind, current.text, current.messages, current.tools)])
    st.session_state["workspace_version_name"] = ""


def _load_into_editor(pv: PromptVersion) -> None:
    st.session_state["workspace_mode"] = pv.kind
    if pv.kind == "text":
        st.session_state["workspace_text"] = pv.text
    else:
        set_messages("workspace_chat", list(pv.messages))
        st.session_state["workspace_chat_tools"] = pv.tools
    rerun_parts(WORKSPACE)  # the editor is above this section's fragment


def _remove(i: int) -> None:
    vs = versions()
    if 0 <= i < len(vs):
        set_versions(vs[:i] + vs[i + 1 :])


def _columns(a: PromptVersion, b: PromptVersion) -> tuple[str, str]:
    """Table columns for the two versions: their names, made distinct from each other and the
    table's own columns. ``_columns(PromptVersion("x"), PromptVersion("x")) -> ("x (1)", "x (2)")``"""
    taken = {"Model", "Difference", "Change %", PRICE_COLUMN}
    ca, cb = a.name, b.name
    if ca == cb or ca in taken or cb in taken:
        ca, cb = f"{ca} (1)", f"{cb} (2)"
    return ca, cb


def comparison_rows(
    a: PromptVersion, b: PromptVersion, choices: list[Choice], toks: dict[str, Tokenizer]
) -> tuple[list[dict], list[TokenizerFailed]]:
    """Per chosen model: tokens of each version, the difference, and the input cost of each; and
    the user tokenizers that failed on a version (left out of the rows)."""
    table = prices_for([c.model for c in choices if c.model])
    prices = {p.model_id: p for p in table.prices}
    ca, cb = _columns(a, b)
    rows, failed = [], {}
    for c in choices:
        tok = toks.get(c.tokenizer_id)
        if tok is None or tok.id in failed:
            continue
        fmt = c.chat_format
        try:
            ta, tb = version_tokens(a, tok, fmt), version_tokens(b, tok, fmt)
        except TokenizerFailed as exc:
            failed[tok.id] = exc
            continue
        if ta is None or tb is None:
            continue
        row = {"Model": c.name, ca: ta, cb: tb, "Difference": tb - ta,
               "Change %": 100 * (tb - ta) / ta if ta else None}  # fmt: skip
        p = prices.get(c.model.id) if c.model else None
        row[PRICE_COLUMN] = None
        if p is not None and p.rates is not None and p.priced:
            row[PRICE_COLUMN] = (p.rates.request_cost(tb, 0) - p.rates.request_cost(ta, 0)) * 1000
        rows.append(row)
    return rows, list(failed.values())


def _cells(row: dict) -> dict:
    """A comparison row as shown: the change and the cost as text, with a word where there is no
    number (no price in the table; no change in % from 0 tokens), never "None"."""
    pct, cost = row["Change %"], row[PRICE_COLUMN]
    return {**row, "Change %": "—" if pct is None else f"{pct:+.1f}%",
            PRICE_COLUMN: "no price" if cost is None else money_text(cost, sign=True)}  # fmt: skip


def _table(rows: list[dict]) -> None:
    right = st.column_config.TextColumn(alignment="right")
    st.dataframe(pd.DataFrame([_cells(r) for r in rows]), hide_index=True, key="workspace_cmp_table",
                 column_config={"Change %": right, PRICE_COLUMN: right})  # fmt: skip
    if any(r[PRICE_COLUMN] is None for r in rows):
        st.caption("No price: the price source has none for this model (an encoding has none); enter one in "
                   "the price editor beside the cost table.")  # fmt: skip


def versions_section(choices: list[Choice], toks: dict[str, Tokenizer]) -> None:
    st.subheader("Prompt versions side by side")
    pvs = versions()
    c1, c2 = st.columns([3, 2], vertical_alignment="bottom")
    c1.text_input(
        "Version name", key="workspace_version_name", persist_state="session", placeholder=f"v{len(pvs) + 1}"
    )
    c2.button("Save the prompt as a version", key="workspace_version_save", icon=":material/bookmark_add:",
              on_click=_save, disabled=len(pvs) >= MAX_VERSIONS)  # fmt: skip
    if len(pvs) >= MAX_VERSIONS:
        st.caption(
            f"{MAX_VERSIONS} versions saved, the most the workspace holds: remove one to save another."
        )
    for i, v in enumerate(pvs):
        d1, d2, d3 = st.columns([5, 2, 1], vertical_alignment="center")
        size = f"{len(v.text):,} characters" if v.kind == "text" else f"{len(v.messages)} messages"
        d1.markdown(f"**{escape_markdown(v.name)}** · {v.kind} · {size}")
        d2.button("Load into the editor", key=f"workspace_version_load_{i}", on_click=_load_into_editor, args=(v,),
                  type="tertiary")  # fmt: skip
        # an icon button: its label, hidden by ui/style.py, is its name for screen readers
        with d3.container(key=f"icons_workspace_version_{i}"):
            st.button(f"Remove version {escape_markdown(v.name)}", key=f"workspace_version_rm_{i}", icon=":material/delete:",
                      help="Remove this version", on_click=_remove, args=(i,))  # fmt: skip
    if len(pvs) < 2:
        st.caption(
            "Save two or more versions (edit the prompt between saves) to compare their tokens and cost."
        )
        return
    names = list(range(len(pvs)))
    s1, s2 = st.columns(2)
    ia = s1.selectbox(
        "Compare",
        names,
        index=0,
        format_func=lambda i: pvs[i].name,
        key="workspace_cmp_a",
        persist_state="session",
    )
    ib = s2.selectbox(
        "with",
        names,
        index=len(pvs) - 1,
        format_func=lambda i: pvs[i].name,
        key="workspace_cmp_b",
        persist_state="session",
    )
    a, b = pvs[min(ia or 0, len(pvs) - 1)], pvs[min(ib or 0, len(pvs) - 1)]
    rows, failed = comparison_rows(a, b, choices, toks)
    for exc in failed:
        show_failure(exc)
    if rows:
        _table(rows)
    usable = {tid: t for tid, t in toks.items() if tid not in {f.tokenizer_id for f in failed}}
    if not usable:
        return
    tid = st.selectbox("Count the changes with", list(usable), format_func=lambda t: usable[t].info.name,
                       key="workspace_cmp_tok", persist_state="session")  # fmt: skip
    tok = usable.get(tid or "") or next(iter(usable.values()))
    try:
        sections = diff_sections(a.sections(), b.sections(), tok)
    except TokenizerFailed as exc:
        show_failure(exc)
        sections = diff_sections(a.sections(), b.sections())
    st.html(sections_html(sections))
    regions = regions_of(sections)
    added = sum(r.tokens for r in regions if r.tokens > 0)
    saved = -sum(r.tokens for r in regions if r.tokens < 0)
    st.caption(f"Red: only in {escape_markdown(a.name)}; green: only in {escape_markdown(b.name)}. The small "
               f"numbers are the tokens each change adds (+) or saves (−), counted on the changed words alone "
               f"({added:,} added, {saved:,} saved); the table above has the exact totals.")  # fmt: skip
