"""A message for the next run: what a callback or an upload learnt, shown where the page draws it.

A callback runs before the page and cannot draw in its place; a button's work ends with a rerun
that would wipe a message drawn at once. So the message is left in the session under a key and
drawn by the page at its spot, run after run, until the same key gets a new message or is
cleared (the user's next action of that kind):

    leave_message("bpe_upload", "model.json: 120 merges loaded.", kind="success")  # in a callback
    ...
    show_message("bpe_upload")  # in the page, where the upload's result belongs

A key can hold several messages, drawn in the order they were left (``add=True``): an upload's
result, then ONE box for the lines it skipped (`leave_notes`: however many there are, the box
lists a few and counts the rest, `tokenizer_core.tokenizers.summarised`).
"""

from __future__ import annotations

from typing import Literal

import streamlit as st

from tokenizer_core.tokenizers import escape_markdown, summarised

Kind = Literal["info", "success", "warning", "error"]
_PREFIX = "message_"


def leave_message(
    key: str, text: str, *, kind: Kind = "info", icon: str | None = None, add: bool = False
) -> None:
    """Leave `text` (Markdown the caller has escaped) for `show_message(key)`, in place of what
    was left under `key` before, or after it with ``add=True``."""
    left = st.session_state.get(_PREFIX + key, []) if add else []
    st.session_state[_PREFIX + key] = [*left, (kind, text, icon)]


def notes_markdown(notes: list[str], *, prefix: str = "") -> str:
    """A list of notes (plain text) as ONE escaped Markdown box: a few, then a count of the rest."""
    lines = summarised([prefix + n for n in notes])
    if len(lines) == 1:
        return escape_markdown(lines[0])
    return "\n".join(f"- {escape_markdown(line)}" for line in lines)


def leave_notes(
    key: str, notes: list[str], *, kind: Kind = "warning", icon: str | None = None, prefix: str = ""
) -> None:
    """Add one box for `notes` (plain text, escaped here) after what `key` holds; nothing if none."""
    if notes:
        leave_message(key, notes_markdown(notes, prefix=prefix), kind=kind, icon=icon, add=True)


def show_notes(
    notes: list[str], *, kind: Kind = "warning", icon: str | None = None, prefix: str = ""
) -> None:
    """Draw `notes` (plain text) now as one box: a few of them and a count of the rest."""
    if notes:
        draw = {"info": st.info, "success": st.success, "warning": st.warning, "error": st.error}
        draw[kind](notes_markdown(notes, prefix=prefix), icon=icon)


def clear_message(key: str) -> None:
    st.session_state.pop(_PREFIX + key, None)


def show_message(key: str) -> None:
    """Draw the messages left under `key`, if any (they stay until replaced or cleared)."""
    draw = {"info": st.info, "success": st.success, "warning": st.warning, "error": st.error}
    for kind, text, icon in st.session_state.get(_PREFIX + key, []):
        draw[kind](text, icon=icon)
