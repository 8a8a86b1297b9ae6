"""Prompt versions side by side, and the workspace file (versions, chat, tools, chosen models)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from tokenizer_core import Tokenizer, escape_markdown
from tokenizer_core.counter.models import Choice
from tokenizer_core.counter.workspace import (
    PromptVersion,
    Workspace,
    WorkspaceError,
    diff_html,
    diff_regions,
    load_workspace,
    save_workspace,
    version_from_json,
    version_tokens,
)

from .chat_editor import set_messages
from .models import known_choice_ids
from .prices import current_prices, prices_for_model

VERSIONS = "counter_versions"  # list of version dicts (JSON-ready), this session


def versions() -> list[PromptVersion]:
    out = []
    for n, v in enumerate(st.session_state.get(VERSIONS, []), start=1):
        try:
            out.append(version_from_json(v, f"version {n}"))
        except WorkspaceError:
            continue
    return out


def _save(current: PromptVersion) -> None:
    name = (st.session_state.get("counter_version_name") or "").strip() or f"v{len(versions()) + 1}"
    vs = st.session_state.setdefault(VERSIONS, [])
    vs.append(PromptVersion(name, current.kind, current.text, current.messages, current.tools).to_json())
    st.session_state["counter_version_name"] = ""


def _load_into_editor(v: dict) -> None:
    pv = version_from_json(v, "version")
    st.session_state["counter_mode"] = pv.kind
    if pv.kind == "text":
        st.session_state["counter_text"] = pv.text
    else:
        set_messages("counter_chat", list(pv.messages))
        st.session_state["counter_chat_tools"] = pv.tools


def _remove(i: int) -> None:
    st.session_state.get(VERSIONS, []).pop(i)


def _on_workspace_file() -> None:
    st.session_state.pop("counter_ws_error", None)
    st.session_state.pop("counter_ws_notes", None)
    file = st.session_state.get("counter_ws_file")
    if file is None:
        return
    try:
        ws, notes = load_workspace(file.getvalue(), known_models=known_choice_ids())
    except WorkspaceError as exc:
        st.session_state["counter_ws_error"] = f"{file.name}: {exc}. Nothing was changed."
        return
    if ws.models:
        st.session_state["counter_tokenizers"] = ws.models
        st.session_state["counter_full_rerun"] = True  # the model picker is outside the page's fragment
    st.session_state["counter_mode"] = ws.mode
    st.session_state["counter_text"] = ws.text
    if ws.messages:
        set_messages("counter_chat", ws.messages)
    st.session_state["counter_chat_tools"] = ws.tools
    st.session_state[VERSIONS] = [v.to_json() for v in ws.versions]
    st.session_state["counter_ws_notes"] = [f"Loaded {file.name}: {len(ws.versions)} versions.", *notes]


def workspace_file_section(current: Workspace) -> None:
    with st.expander(
        "Workspace file (save or load versions, chat, tools and models)", icon=":material/folder_open:"
    ):
        c1, c2 = st.columns(2, vertical_alignment="bottom")
        c1.download_button(
            # built on click, not on every keystroke's rerun (it holds the whole text)
            "Save the workspace (JSON)", lambda: save_workspace(current), file_name="prompt_workspace.json",
            mime="application/json", icon=":material/download:", key="counter_ws_save",
        )  # fmt: skip
        c2.file_uploader(
            "Load a workspace file", type=["json"], key="counter_ws_file", on_change=_on_workspace_file
        )
        if msg := st.session_state.get("counter_ws_error"):
            st.error(escape_markdown(msg), icon=":material/block:")
        for note in st.session_state.get("counter_ws_notes", []):
            st.caption(escape_markdown(note))


def comparison_rows(
    a: PromptVersion, b: PromptVersion, choices: list[Choice], toks: dict[str, Tokenizer]
) -> list[dict]:
    """Per chosen model: tokens of each version, the difference, and the input cost of each."""
    prices = current_prices()
    rows = []
    for c in choices:
        tok = toks.get(c.tokenizer_id)
        if tok is None:
            continue
        fmt = c.chat_format
        ta, tb = version_tokens(a, tok, fmt), version_tokens(b, tok, fmt)
        if ta is None or tb is None:
            continue
        row = {"Model": c.name, a.name: ta, b.name: tb, "Difference": tb - ta,
               "Change %": 100 * (tb - ta) / ta if ta else None}  # fmt: skip
        p = next(iter(prices_for_model(c.name, c.tokenizer_id, prices)), None) if c.model else None
        if p is not None:
            row["Input $ difference per 1,000 requests"] = (tb - ta) * p.input_per_million / 1e6 * 1000
        rows.append(row)
    return rows


def versions_section(current: PromptVersion, choices: list[Choice], toks: dict[str, Tokenizer]) -> None:
    st.subheader("Prompt versions side by side")
    c1, c2 = st.columns([3, 2], vertical_alignment="bottom")
    c1.text_input("Version name", key="counter_version_name", placeholder=f"v{len(versions()) + 1}")
    c2.button("Save the prompt as a version", key="counter_version_save", icon=":material/bookmark_add:",
              on_click=_save, args=(current,))  # fmt: skip
    vs = st.session_state.get(VERSIONS, [])
    pvs = versions()
    for i, v in enumerate(pvs):
        d1, d2, d3 = st.columns([5, 2, 1], vertical_alignment="center")
        size = f"{len(v.text):,} characters" if v.kind == "text" else f"{len(v.messages)} messages"
        d1.markdown(f"**{escape_markdown(v.name)}** · {v.kind} · {size}")
        d2.button("Load into the editor", key=f"counter_version_load_{i}", on_click=_load_into_editor, args=(vs[i],),
                  type="tertiary")  # fmt: skip
        # an icon button: its label, hidden by ui/style.py, is its name for screen readers
        with d3.container(key=f"icons_counter_version_{i}"):
            st.button(f"Remove version {v.name}", key=f"counter_version_rm_{i}", icon=":material/delete:",
                      help="Remove this version", on_click=_remove, args=(i,))  # fmt: skip
    if len(pvs) < 2:
        st.caption(
            "Save two or more versions (edit the prompt between saves) to compare their tokens and cost."
        )
        return
    names = list(range(len(pvs)))
    s1, s2 = st.columns(2)
    ia = s1.selectbox("Compare", names, index=0, format_func=lambda i: pvs[i].name, key="counter_cmp_a")
    ib = s2.selectbox(
        "with", names, index=len(pvs) - 1, format_func=lambda i: pvs[i].name, key="counter_cmp_b"
    )
    a, b = pvs[min(ia or 0, len(pvs) - 1)], pvs[min(ib or 0, len(pvs) - 1)]
    rows = comparison_rows(a, b, choices, toks)
    if rows:
        st.dataframe(pd.DataFrame(rows), hide_index=True, key="counter_cmp_table",
                     column_config={"Change %": st.column_config.NumberColumn(format="%+.1f%%"),
                                    "Input $ difference per 1,000 requests": st.column_config.NumberColumn(
                                        format="$%+.4f")})  # fmt: skip
    if toks:
        tid = st.selectbox("Count the changes with", list(toks), format_func=lambda t: toks[t].info.name,
                           key="counter_cmp_tok")  # fmt: skip
        regions = diff_regions(a.as_text(), b.as_text(), toks.get(tid or "") or next(iter(toks.values())))
        st.html(diff_html(regions))
        added = sum(r.tokens for r in regions if r.tokens > 0)
        saved = -sum(r.tokens for r in regions if r.tokens < 0)
        st.caption(f"Red: only in {escape_markdown(a.name)}; green: only in {escape_markdown(b.name)}. The small "
                   f"numbers are the tokens each change adds (+) or saves (−), counted on the changed words alone "
                   f"({added:,} added, {saved:,} saved); the table above has the exact totals.")  # fmt: skip
