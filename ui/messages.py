"""A message for the next run: what a callback or an upload learnt, shown where the page draws it.

A callback runs before the page and cannot draw in its place; a button's work ends with a rerun
that would wipe a message drawn at once. So the message is left in the session under a key and
drawn by the page at its spot, run after run, until the same key gets a new message or is
cleared (the user's next action of that kind):

    leave_message("bpe_upload", "model.json: 120 merges loaded.", kind="success")  # in a callback
    ...
    show_message("bpe_upload")  # in the page, where the upload's result belongs
"""

from __future__ import annotations

from typing import Literal

import streamlit as st

Kind = Literal["info", "success", "warning", "error"]
_PREFIX = "message_"


def leave_message(key: str, text: str, *, kind: Kind = "info", icon: str | None = None) -> None:
    """Leave `text` (Markdown the caller has escaped) for `show_message(key)`, drawn with `icon`."""
    st.session_state[_PREFIX + key] = (kind, text, icon)


def clear_message(key: str) -> None:
    st.session_state.pop(_PREFIX + key, None)


def has_message(key: str) -> bool:
    return _PREFIX + key in st.session_state


def show_message(key: str) -> None:
    """Draw the message left under `key`, if any (it stays until replaced or cleared)."""
    if (left := st.session_state.get(_PREFIX + key)) is None:
        return
    kind, text, icon = left
    {"info": st.info, "success": st.success, "warning": st.warning, "error": st.error}[kind](text, icon=icon)
