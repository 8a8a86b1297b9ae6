"""Prompt workspace (home): live token counts for a text or a whole chat request, per model."""

from __future__ import annotations

import streamlit as st

from tokenizer_core import BUILTINS, Tokenizer
from tokenizer_core.workspace.models import Choice, TokenizerGroup
from ui.failures import guarded
from ui.fast_first import ask_for_rest, rest_drawn, whole_run
from ui.models import groups_for, model_select
from ui.saved_work import keep_work
from ui.state import get_tokenizers
from ui.widgets import show_unavailable
from ui.workspace.about import about_tokenizers
from ui.workspace.context_share import context_share_section
from ui.workspace.costs import COST_TABLE, cost_section
from ui.workspace.counts import context_window_input, count_notes, counts_table
from ui.workspace.file import current_workspace, workspace_file_section
from ui.workspace.first_view import end_first_view, first_view, hold
from ui.workspace.prompt import (
    WORKSPACE,
    PromptNow,
    chat_not_counted,
    chat_request,
    chat_tokens,
    prompt_mode,
    prompt_now,
    prompt_version,
    set_prompt_now,
    special_toggle,
    text_box,
    text_controls,
    text_counts,
    text_tokens,
)
from ui.workspace.saved import workspace_extra, workspace_restore
from ui.workspace.share import apply_share_link, forget_link_warnings, link_warnings, share_section
from ui.workspace.token_views import token_views
from ui.workspace.versions import versions, versions_section

VIEWS, SECTIONS = "counter_views", "counter_sections"  # fragments of the rest (ui/fast_first.py)


@st.fragment(key="counter_prompt")
@guarded
def live_counts(
    choices: list[Choice], groups: list[TokenizerGroup], toks: list[Tokenizer], window: int, rest: list[str]
) -> PromptNow:
    """The text box and its counts: a fragment inside the workspace's, which typing reruns alone
    (after the box has written the counts it asked the server for: ui/count_api.py); once they
    are on screen the browser asks for the parts of the `rest` that show an older text
    (ui/fast_first.py)."""
    text, allow_special = text_box(toks, window)
    toks, counts = text_counts(text, choices, groups, toks, window, allow_special=allow_special)
    now = set_prompt_now(
        PromptNow("text", text, allow_special, toks, counts, tokens=text_tokens(counts or [], choices))
    )
    ask_for_rest("counter", now.shows, rest=rest)
    return now


@st.fragment(key=VIEWS)
@guarded
def text_views() -> None:
    """The counts table and chart, and the token views, of the text as last counted."""
    now = prompt_now()
    if now.counts is not None:
        counts_table(now.counts)
        token_views(now.text, now.toks, now.allow_special, rerun=[VIEWS, SECTIONS])
    rest_drawn("counter", VIEWS, now.shows)


@st.fragment(key=SECTIONS)
@guarded
def prompt_sections(choices: list[Choice], toks: dict[str, Tokenizer], window: int) -> None:
    """Versions, the workspace file and the share link, of the prompt as last drawn."""
    now = prompt_now()
    current = prompt_version(now.mode, now.text, now.messages)
    versions_section(current, choices, toks)
    workspace_file_section(current_workspace(choices, now.mode, now.text, now.messages))
    share_section(
        [c.id for c in choices], now.text, window, mode=now.mode, messages=now.messages,
        tools=current.tools, versions=[v.to_json() for v in versions()],
    )  # fmt: skip
    keep_work(
        "workspace", extra=(workspace_extra, workspace_restore), in_fragment=True
    )  # in the browser, for a reload (ui/saved_work.py)
    if now.mode == "text":
        rest_drawn("counter", SECTIONS, now.shows)


@st.fragment(key=WORKSPACE)
@guarded  # a fragment's rerun does not pass through the page's handler
def workspace(
    choices: list[Choice], groups: list[TokenizerGroup], toks: list[Tokenizer], window: int
) -> None:
    """Everything that depends on the prompt. A fragment: editing the chat and the sections
    below rerun only this (not the title, the model picker, the sidebar); typing in the text box
    reruns the box and its counts first (`live_counts`), then only the parts that show the text
    (`text_views`, the cost table, `prompt_sections`). The model picker and the context window
    are outside: changing them reruns the whole page, which calls this with the new values."""
    if st.session_state.pop("counter_full_rerun", False):
        st.rerun()  # a workspace file chose other models: the picker above must show them
    by_id = {t.id: t for t in toks}
    mode = prompt_mode()
    costs = any(c.model for c in choices)
    with whole_run("counter"):
        if mode == "chat":
            messages, rows = chat_request(choices, by_id, window)
            hold("counter")  # a first view: the rest once the browser shows this
            text = st.session_state.get("counter_text", "")  # kept in the link and the file
            set_prompt_now(
                PromptNow(
                    "chat",
                    text,
                    toks=toks,
                    messages=messages,
                    tokens=chat_tokens(rows, choices),
                    not_counted=chat_not_counted(rows, choices),
                )
            )
        else:
            text_controls()
            rest = [VIEWS, *([COST_TABLE] if costs else []), SECTIONS]
            if live_counts(choices, groups, toks, window, rest) is None:
                return  # it failed, and says so
            count_notes(groups, toks)
            special_toggle()
            hold("counter")  # a first view: the rest once the browser shows the counts
            text_views()
        if costs:
            cost_section(choices, window=window)
        prompt_sections(choices, by_id, window)


warnings = apply_share_link()
st.title("Prompt workspace")
st.caption(
    "Exact token counts, as you type, for a text or a whole chat request, per model. "
    "Nothing is sent anywhere: every tokenizer runs on this server, offline."
)
link_warnings(warnings)

s1, s2 = st.columns([3, 2], vertical_alignment="top")
with s1:
    choices = model_select("counter_tokenizers")
with s2:
    window = context_window_input()
groups = groups_for(choices)
toks, errors = get_tokenizers([g.tokenizer_id for g in groups])
show_unavailable(errors)

view = first_view("counter")  # a fresh tab: counts first, then the rest (ui/workspace/first_view.py)
workspace(choices, groups, toks, window)
about_tokenizers()
context_share_section(window, toks, st.session_state.get("counter_text", ""))  # the third mistake
if any(c.id not in BUILTINS and c.model is None for c in choices):
    st.caption("Your own tokenizers have no chat format: they count texts only.")
end_first_view("counter", view)
forget_link_warnings()
