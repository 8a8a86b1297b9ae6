"""Prompt workspace (home): live token counts for a text or a whole chat request, per model."""

from __future__ import annotations

import streamlit as st

from tokenizer_core import BUILTINS, CountRow, Tokenizer
from tokenizer_core.workspace.models import Choice, TokenizerGroup
from ui.failures import guarded
from ui.fast_first import ask_for_rest, rest_drawn, whole_run
from ui.models import groups_for, model_select
from ui.state import get_tokenizers
from ui.widgets import show_unavailable
from ui.workspace.about import about_tokenizers
from ui.workspace.costs import cost_section
from ui.workspace.counts import context_window_input, counts_table
from ui.workspace.file import current_workspace, workspace_file_section
from ui.workspace.first_view import end_first_view, first_view, hold
from ui.workspace.prompt import (
    chat_request,
    chat_tokens,
    prompt_mode,
    prompt_version,
    text_box,
    text_controls,
    text_counts,
    text_tokens,
)
from ui.workspace.share import apply_share_link, forget_link_warnings, link_warnings, share_section
from ui.workspace.token_views import token_views
from ui.workspace.versions import versions, versions_section


@st.fragment(key="counter_prompt")
@guarded
def live_counts(
    choices: list[Choice], groups: list[TokenizerGroup], toks: list[Tokenizer], window: int
) -> tuple[str, bool, list[Tokenizer], list[CountRow] | None]:
    """The text box and its counts: a fragment inside the workspace's, which typing reruns alone
    so that the counts follow at Streamlit's own pace; once they are on screen the browser asks
    for the rest (ui/fast_first.py). The text, how special tokens count, the tokenizers that
    counted it and their rows."""
    text, allow_special = text_box()
    toks, counts = text_counts(text, choices, groups, toks, window, allow_special=allow_special)
    ask_for_rest("counter", (text, allow_special), rest="counter_workspace")
    return text, allow_special, toks, counts


@st.fragment(key="counter_workspace")
@guarded  # a fragment's rerun does not pass through the page's handler
def workspace(
    choices: list[Choice], groups: list[TokenizerGroup], toks: list[Tokenizer], window: int
) -> None:
    """Everything that depends on the prompt. A fragment: editing the chat and the sections
    below rerun only this (not the title, the model picker, the sidebar); typing in the text box
    reruns the box and its counts first (`live_counts`), then this. The model picker and the
    context window are outside: changing them reruns the whole page, which calls this with the
    new values."""
    if st.session_state.pop("counter_full_rerun", False):
        st.rerun()  # a workspace file chose other models: the picker above must show them
    by_id = {t.id: t for t in toks}
    mode = prompt_mode()
    text, messages = st.session_state.get("counter_text", ""), []
    with whole_run("counter"):
        if mode == "chat":
            messages, rows = chat_request(choices, by_id, window)
            hold("counter")  # a first view: the rest once the browser shows this
            tokens = chat_tokens(rows, choices)
        else:
            text_controls()
            if (prompt := live_counts(choices, groups, toks, window)) is None:
                return  # it failed, and says so
            text, allow_special, toks, counts = prompt
            hold("counter")  # a first view: the rest once the browser shows the counts
            if counts is not None:
                counts_table(counts)
                token_views(text, toks, allow_special)
            tokens = text_tokens(counts or [], choices)

        if any(c.model for c in choices):
            cost_section(tokens, choices, window=window, tokenizer_names={t.id: t.info.name for t in toks})
        current = prompt_version(mode, text, messages)
        versions_section(current, choices, by_id)
        workspace_file_section(current_workspace(choices, mode, text, messages))
        share_section(
            [c.id for c in choices], text, window, mode=mode, messages=messages,
            tools=current.tools, versions=[v.to_json() for v in versions()],
        )  # fmt: skip
        if mode == "text":
            rest_drawn("counter", (text, allow_special))


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
if any(c.id not in BUILTINS and c.model is None for c in choices):
    st.caption("Your own tokenizers have no chat format: they count texts only.")
end_first_view("counter", view)
forget_link_warnings()
