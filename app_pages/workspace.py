"""Prompt workspace (home): live token counts for a text or a whole chat request, per model."""

from __future__ import annotations

import streamlit as st

from tokenizer_core import BUILTINS, Tokenizer
from tokenizer_core.tokenizers import escape_markdown, load_sample
from tokenizer_core.workspace import CONTEXT_WINDOWS, read_share_params
from tokenizer_core.workspace.file import PromptVersion, Workspace
from tokenizer_core.workspace.model_prices import with_windows
from tokenizer_core.workspace.models import Choice, TokenizerGroup, names_by_tokenizer
from ui.failures import guarded
from ui.models import groups_for, known_choice_ids, model_select
from ui.prices import current_rate, price_edits
from ui.state import get_tokenizers
from ui.widgets import show_unavailable, text_source, working_tokenizers
from ui.workspace.chat_editor import chat_editor, current_messages, current_tools, set_messages
from ui.workspace.chat_view import message_labels, request_counts, request_section
from ui.workspace.costs import cost_section
from ui.workspace.counts import (
    CUSTOM,
    about_tokenizers,
    context_window_input,
    count_metrics,
    count_rows,
    counts_table,
    share_section,
    token_views,
)
from ui.workspace.first_view import end_first_view, first_view, hold
from ui.workspace.versions import set_versions, versions, versions_section, workspace_file_section

SAMPLES = {
    "Mixed: prose, code, numbers, emoji, Hindi": lambda: load_sample("mixed"),
    "Support reply (English prose)": lambda: load_sample("prose"),
    "Python code": lambda: load_sample("python"),
    "JSON order": lambda: load_sample("json"),
}
PROMPT_MODES = {"text": "Text", "chat": "Chat request"}
MAX_LINK_WARNINGS = 12  # a crafted link can hold thousands of problems: the first ones, then a count


def apply_share_link() -> None:
    """On a session's first run, take settings, text and chat from the URL's query parameters."""
    if st.session_state.get("counter_link_read"):
        return
    st.session_state["counter_link_read"] = True
    if not st.query_params:
        return
    ss = st.session_state
    state = read_share_params(st.query_params.to_dict(), known_tokenizers=known_choice_ids())
    if state.text is not None:
        ss["counter_text"] = state.text
    if state.tokenizers:
        ss["counter_tokenizers"] = state.tokenizers
    for attr, key in (("view", "counter_view"), ("whitespace", "counter_ws"), ("allow_special", "counter_special"),
                      ("mode", "counter_mode"), ("tools", "counter_chat_tools")):  # fmt: skip
        if getattr(state, attr) is not None:
            ss[key] = getattr(state, attr)
    if state.messages is not None:
        set_messages("counter_chat", state.messages)
    elif state.chat:  # an older link: one user message (the text) and an optional system message
        ss["counter_mode"] = "chat"
        set_messages(
            "counter_chat",
            [("system", state.system or "")] * bool(state.system) + [("user", state.text or "")],
        )
    if state.versions is not None:
        set_versions(state.versions)  # checked by the link reader: the bad ones are left out
    if state.context_window:
        match = [k for k, v in CONTEXT_WINDOWS.items() if v == state.context_window]
        ss["counter_ctx"] = match[0] if match else CUSTOM
        ss["counter_ctx_custom"] = state.context_window
    ss["counter_link_warnings"] = state.warnings


@st.fragment
@guarded  # a fragment's rerun does not pass through the page's handler
def workspace(
    choices: list[Choice], groups: list[TokenizerGroup], toks: list[Tokenizer], window: int
) -> None:
    """Everything that depends on the prompt. A fragment: typing in the box, editing the chat and the
    sections below rerun only this (not the title, the model picker, the sidebar). The model picker
    and the context window are outside: changing them reruns the whole page, which calls this with
    the new values."""
    if st.session_state.pop("counter_full_rerun", False):
        st.rerun()  # a workspace file chose other models: the picker above must show them
    by_id = {t.id: t for t in toks}
    st.session_state.setdefault("counter_mode", "text")
    mode = st.segmented_control(
        "Prompt", list(PROMPT_MODES), format_func=PROMPT_MODES.get, key="counter_mode",
        help="Text: count a text alone. Chat request: messages with roles (and tools), counted the way each "
        "model's chat format wraps them.",
    ) or "text"  # fmt: skip

    messages, tools, tokens = [], [], {}
    text = st.session_state.get("counter_text", "")
    if mode == "chat":
        messages = current_messages("counter_chat")
        tools, _ = current_tools("counter_chat")
        rows = request_counts(messages, tools, choices, by_id)
        messages, tools = chat_editor(
            "counter_chat",
            message_tokens=message_labels(rows, len(messages), names_by_tokenizer(choices)),
        )
        rows = request_counts(messages, tools, choices, by_id)
        if choices and toks:
            request_section(rows, messages, tools, window, by_id)
        hold("counter")  # a first view: the rest once the browser shows this
        totals = {(r["tokenizer_id"], r["format_id"]): r["total"] for r in rows if "total" in r}
        tokens = {
            c.id: totals[(c.tokenizer_id, c.chat_format)]
            for c in choices
            if (c.tokenizer_id, c.chat_format) in totals
        }
    else:
        text = text_source(
            "counter", samples=SAMPLES, default_sample=next(iter(SAMPLES)), height=240, live=True
        )
        st.toggle(
            "Count special tokens as special", key="counter_special",
            help="Off: text such as <|endoftext|> is counted as ordinary text (what an API does with "
            "user content). On: it becomes the single special token the tokenizer reserves for it.",
        )  # fmt: skip
        allow_special = bool(st.session_state.get("counter_special"))
        counts = None
        if not choices:
            st.info("Choose at least one model or tokenizer above.", icon=":material/arrow_upward:")
        elif not text:
            st.info(
                "Paste some text, upload a file or load a sample to see its tokens.", icon=":material/edit:"
            )
        elif (toks := working_tokenizers(toks, [text])) and (
            counts := count_rows(text, toks, window, allow_special)
        ) is not None:
            counts = with_windows(counts, groups, chosen=window)
            count_metrics(counts, toks, groups)
        hold("counter")  # a first view: the rest once the browser shows the counts
        if counts is not None:
            counts_table(counts)
            token_views(text, toks, allow_special)
            by_tok = {r.tokenizer_id: r.tokens for r in counts}
            tokens = {c.id: by_tok[c.tokenizer_id] for c in choices if c.tokenizer_id in by_tok}

    if any(c.model for c in choices):
        cost_section(tokens, choices, window=window, tokenizer_names={t.id: t.info.name for t in toks})
    tools_text = st.session_state.get("counter_chat_tools", "") or ""
    pairs = tuple((m.role, m.content) for m in messages)
    current = PromptVersion(
        "current", mode, text if mode == "text" else "", pairs, tools_text if mode == "chat" else ""
    )
    versions_section(current, choices, by_id)
    workspace_file_section(
        Workspace(
            [c.id for c in choices], mode, text, list(pairs), tools_text, versions(),
            price_edits=price_edits(), price_rate=current_rate(),
        )
    )  # fmt: skip
    share_section(
        [c.id for c in choices], text, window, mode=mode, messages=messages,
        tools=tools_text if mode == "chat" else "", versions=[v.to_json() for v in versions()],
    )  # fmt: skip


apply_share_link()
st.title("Prompt workspace")
st.caption(
    "Exact token counts, as you type, for a text or a whole chat request, per model. "
    "Nothing is sent anywhere: every tokenizer runs on this server, offline."
)
link_warnings = st.session_state.pop("counter_link_warnings", [])
for warning in link_warnings[:MAX_LINK_WARNINGS]:
    st.warning(f"Shared link: {escape_markdown(warning)}", icon=":material/link_off:")
if len(link_warnings) > MAX_LINK_WARNINGS:
    st.warning(f"Shared link: {len(link_warnings) - MAX_LINK_WARNINGS:,} more problems like these.",
               icon=":material/link_off:")  # fmt: skip

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
