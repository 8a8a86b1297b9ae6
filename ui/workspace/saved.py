"""What the prompt workspace keeps in the browser beyond its widgets' values (ui/saved_work.py):
the chat (its images as their names, sizes and detail levels: never the files), the versions and
the edited prices."""

from __future__ import annotations

import streamlit as st

from tokenizer_core.catalog.prices import PriceError, edits_from_json, edits_to_json
from tokenizer_core.workspace.images import read_images
from tokenizer_core.workspace.intake import read_messages, read_versions

from ..prices import price_edits, set_price_edits
from ..saved_work import saved_work
from .chat_editor import current_images, current_messages, set_messages
from .versions import set_versions, versions


def extra() -> dict:
    out: dict = {"_versions": [v.to_json() for v in versions()], "_prices": edits_to_json(price_edits())}
    if "workspace_chat_msgs" in st.session_state:
        out["_chat"] = [[m.role, m.content] for m in current_messages("workspace_chat")]
        out["_chat_images"] = [img.to_json() for img in current_images("workspace_chat")]
    return out


def restore(values: dict, notes: list[str]) -> bool:
    """Put the workspace's extras back; False: the page was opened on a share link, which wins
    (a reload of the page is not that: its address bar holds the user's own work)."""
    if st.query_params.to_dict() and not saved_work().reloaded:
        return False
    st.session_state["workspace_link_read"] = True  # the address bar of a reloaded tab: the saved work wins
    if "_chat" in values:  # each reader says what it left out, whatever it was given
        messages, found = read_messages(values["_chat"], where="the saved chat")
        images, found_images = read_images(values.get("_chat_images", []), n_messages=len(messages))
        notes += found + found_images
        set_messages("workspace_chat", messages, images)
    if "_versions" in values:
        vs, found = read_versions(values["_versions"])
        notes += found
        set_versions(vs)
    if "_prices" in values:
        try:
            set_price_edits(edits_from_json(values["_prices"], where="the saved prices"))
        except PriceError as exc:
            notes.append(str(exc))
    return True
