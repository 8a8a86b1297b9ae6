"""The share link: read from the address on a session's first run, and kept in the address bar
(and shown) so that it reproduces the page."""

from __future__ import annotations

from urllib.parse import urlencode

import streamlit as st

from tokenizer_core.tokenizers import escape_markdown
from tokenizer_core.workspace import CONTEXT_WINDOWS, read_share_params
from tokenizer_core.workspace.share import PACKED, share_link

from ..link_box import link_box
from ..messages import clear_message, leave_message, leave_notes, show_message
from ..models import known_choice_ids
from ..state import session_tokenizers
from .chat_editor import current_images, set_messages
from .costs import cost_inputs_now, set_cost_inputs
from .counts import CUSTOM
from .versions import set_versions

LINK, ICON = "workspace_link", ":material/link_off:"
LEFT_OUT = "workspace_link_left_out"  # what the sender's link could not carry, said at the page's top


def apply_share_link() -> list[str]:
    """On a session's first run, take settings, text and chat from the URL's query parameters;
    returns what the link had wrong (to show once)."""
    if st.session_state.get("workspace_link_read"):
        return []
    st.session_state["workspace_link_read"] = True
    if not st.query_params:
        return []
    state = read_share_params(st.query_params.to_dict(), known_tokenizers=known_choice_ids())
    if state.text is not None:
        st.session_state["workspace_text"] = state.text
    if state.tokenizers:
        st.session_state["workspace_tokenizers"] = state.tokenizers
    for attr, key in (("view", "workspace_view"), ("whitespace", "workspace_ws"), ("allow_special", "workspace_special"),
                      ("mode", "workspace_mode"), ("tools", "workspace_chat_tools")):  # fmt: skip
        if getattr(state, attr) is not None:
            st.session_state[key] = getattr(state, attr)
    if state.messages is not None:
        set_messages("workspace_chat", state.messages)
    elif state.chat:  # an older link: one user message (the text) and an optional system message
        st.session_state["workspace_mode"] = "chat"
        set_messages(
            "workspace_chat",
            [("system", state.system or "")] * bool(state.system) + [("user", state.text or "")],
        )
    set_cost_inputs(state.costs)
    if state.left_out:
        st.session_state[LEFT_OUT] = state.left_out
    if state.versions is not None:
        set_versions(state.versions)  # checked by the link reader: the bad ones are left out
    if state.context_window:
        match = [k for k, v in CONTEXT_WINDOWS.items() if v == state.context_window]
        st.session_state["workspace_ctx"] = match[0] if match else CUSTOM
        st.session_state["workspace_ctx_custom"] = state.context_window
    return state.warnings


def link_warnings(warnings: list[str]) -> None:
    """What a shared link had wrong: the first few, then how many more. Kept for the session's
    runs until the page has been drawn whole once (`forget_link_warnings` at the page's end): a
    fresh tab's first run may stop before that (the first view), and the link is read only once."""
    left_out = st.session_state.pop(LEFT_OUT, None)
    if warnings or left_out:
        clear_message(LINK)
    if left_out:  # the receiver must not take the sample (or nothing) for the sender's text
        names = " and ".join([", ".join(left_out[:-1]), left_out[-1]] if len(left_out) > 1 else left_out)
        leave_message(
            LINK, escape_markdown(
                f"This link leaves out {names}: too long for a link. What the page shows instead "
                "is not the sender's; ask them for the workspace file, which keeps everything."
            ), kind="info", icon=":material/content_cut:", add=True,
        )  # fmt: skip
    if warnings:
        leave_notes(LINK, warnings, kind="warning", icon=ICON, prefix="Shared link: ")
    show_message(LINK)


def forget_link_warnings() -> None:
    """At the end of a page drawn whole: the warnings stay on screen until the page is left
    (typing reruns only the workspace below them) and are not drawn again."""
    clear_message(LINK)


def share_section(
    ids: list[str],
    text: str,
    window: int,
    *,
    mode: str = "text",
    messages=(),
    tools: str = "",
    versions=(),
) -> None:
    """Keep the address bar on a link that reproduces the page (text or chat, and versions)."""
    known = set(known_choice_ids())
    link = share_link(
        tokenizers=[i for i in ids if i in known], text=text,
        view=st.session_state.get("workspace_view") or "text", context_window=window,
        whitespace=bool(st.session_state.get("workspace_ws")),
        allow_special=bool(st.session_state.get("workspace_special")),
        mode=mode, messages=[(m.role, m.content) for m in messages], tools=tools, versions=versions,
        costs=cost_inputs_now(),
    )  # fmt: skip
    params = link.params
    try:
        st.query_params.from_dict(params)
    except Exception:  # noqa: BLE001, S110  (an unusual host must not break the page)
        pass
    with st.expander("Share this view", icon=":material/link:"):
        base = (st.context.url or "").split("?")[0]
        link_box(f"{base}?{urlencode(params)}", key="workspace_share_link", label="Link to this view")
        notes = ["The address bar always holds this link: copy either."]
        if link.left_out:
            parts = "; ".join(f"{PACKED[key]} ({why})" for key, why in link.left_out)
            notes.append(
                f"Left out of the link: {parts}. A workspace file keeps everything. The link says so "
                "at the top of the page it opens."
            )
        if n_images := len(current_images("workspace_chat")) if mode == "chat" else 0:
            notes.append(
                f"The chat's {n_images} image{'s' * (n_images != 1)} {'are' if n_images != 1 else 'is'} not in "
                "the link (a link holds text); a workspace file keeps them."
            )
        if any(i in session_tokenizers() for i in ids):
            notes.append("Your own tokenizers are private to this session and are not in the link.")
        st.caption(" ".join(notes))
