"""Prompt workspace (home): live token counts for a text or a whole chat request, per model."""

from __future__ import annotations

import streamlit as st

from tokenizer_core import BUILTINS, Tokenizer
from tokenizer_core.catalog.choices import Choice, TokenizerGroup
from ui.failures import guarded
from ui.models import groups_for, model_select
from ui.saved_work import keep_work
from ui.state import get_tokenizers
from ui.widgets import show_unavailable
from ui.workspace.about import about_tokenizers
from ui.workspace.context_share import context_share_section
from ui.workspace.costs import cost_section
from ui.workspace.counts import context_window_input, count_notes, counts_table
from ui.workspace.file import current_workspace, workspace_file_section
from ui.workspace.prompt import (
    chat_prompt,
    prompt_mode,
    prompt_version,
    special_toggle,
    text_controls,
    text_prompt,
)
from ui.workspace.share import apply_share_link, forget_link_warnings, link_warnings, share_section
from ui.workspace.state import PAGE, WORKSPACE, WorkspaceState
from ui.workspace.token_views import token_views
from ui.workspace.versions import versions, versions_section

VIEWS, SECTIONS = "workspace_views", "workspace_sections"  # parts of the rest (ui/fast_first.py)


@PAGE.fast("workspace_prompt")
def live_counts(
    choices: list[Choice], groups: list[TokenizerGroup], toks: list[Tokenizer], window: int
) -> WorkspaceState:
    """The text box and its counts: the fast part, which typing reruns alone (after the box has
    written the counts it asked the server for: ui/count_api.py)."""
    return text_prompt(choices, groups, toks, window)


@PAGE.part(VIEWS)
def text_views(state: WorkspaceState) -> None:
    """The counts table and chart, and the token views, of the text as last counted."""
    if state.counts is not None:
        counts_table(state.counts)
        token_views(state.text, state.toks, state.allow_special, rerun=[VIEWS, SECTIONS])


@PAGE.part(SECTIONS)
def prompt_sections(
    state: WorkspaceState, choices: list[Choice], toks: dict[str, Tokenizer], window: int
) -> None:
    """The window shared with chunks and answer, versions, the workspace file and the share link,
    of the prompt as last drawn."""
    context_share_section(window, state)  # the documents' third common mistake
    current = prompt_version(state.mode, state.text, state.messages)
    versions_section(choices, toks)
    workspace_file_section(current_workspace(choices, state.mode, state.text, state.messages))
    share_section(
        [c.id for c in choices], state.text, window, mode=state.mode, messages=state.messages,
        tools=current.tools, versions=[v.to_json() for v in versions()],
    )  # fmt: skip
    keep_work("workspace")  # in the browser, for a reload (ui/saved_work.py)


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
    by_id = {t.id: t for t in toks}
    mode = prompt_mode()
    with PAGE.whole():
        if mode == "chat":
            PAGE.keep(chat_prompt(choices, toks, by_id, window))
            PAGE.top_drawn()  # a first view: the rest once the browser shows this
        else:
            text_controls()
            if live_counts(choices, groups, toks, window) is None:
                return  # it failed, and says so
            count_notes(groups, toks)
            special_toggle()
            PAGE.top_drawn()  # a first view: the rest once the browser shows the counts
            text_views()
        if any(c.model for c in choices):
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
    choices = model_select("workspace_tokenizers")
with s2:
    window = context_window_input()
groups = groups_for(choices)
toks, errors = get_tokenizers([g.tokenizer_id for g in groups])
show_unavailable(errors)

with PAGE.first_view():  # a fresh tab: counts first, then the rest (ui/fast_first.py)
    workspace(choices, groups, toks, window)
    about_tokenizers()
    if any(c.id not in BUILTINS and c.model is None for c in choices):
        st.caption("Your own tokenizers have no chat format: they count texts only.")
forget_link_warnings()
