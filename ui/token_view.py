"""The light token view: compact data from tokenizer_core.view_data, drawn in the browser.

One `st.components.v2` component (no build step; its CSS and JS are ui/components/token_view.*).
The server sends the text once and a few number lists per tokenizer; the browser builds one span
per token with shared CSS classes (colour by token id, marks, special tokens) and computes hover
details on demand. Every piece of user text is placed with ``textContent``, never parsed as HTML.

Pages call `token_view` only.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from tokenizer_core.tokenizers import TokenPane, token_view_data, view_payload
from ui.components import read

_COMPONENT = st.components.v2.component(
    "tw_token_view", html='<div class="tw-view"></div>', css=read("token_view.css"), js=read("token_view.js")
)


def token_view(
    text: str,
    panes: Sequence[TokenPane],
    *,
    key: str,
    base: int = 0,
    mode: str = "text",
    show_whitespace: bool = False,
    direction: str = "auto",
    lang: str = "",
    empty: str = "Nothing to show: the text is empty.",
    special_label: str = "special token",
) -> None:
    """Draw `text` (offset `base` in the document) as coloured tokens, one column per pane.

    Two panes per row (one on a phone); hover a token for its ids, bytes and offsets. `mode`
    "ids" shows token ids instead of text; `show_whitespace` draws space ⋅, tab →, newline ↵.
    """
    data = token_view_data(
        text, panes, base=base, mode=mode, show_whitespace=show_whitespace,
        direction=direction, lang=lang, empty=empty, special_label=special_label,
    )  # fmt: skip
    _COMPONENT(data=view_payload(data), key=key, width="stretch", height="content")
