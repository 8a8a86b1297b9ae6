"""A link to copy: the address in a read-only box (selected when focused) and a "Copy link" button.

Built with ``st.components.v2`` (its HTML, CSS and JS: ui/components/link_box.*). A code block (st.code) showed the share link before; its
highlighter is drawn again on every run of the page, and with a 10 KB prompt packed into the
link that cost ~14 ms of the browser's time per keystroke (bench/bench_live.py, the link left
out and put back). The link is placed with ``value``, never parsed as HTML.
"""

from __future__ import annotations

import streamlit as st

from ui.components import read

_box = st.components.v2.component(
    "tw_link_box", html=read("link_box.html"), css=read("link_box.css"), js=read("link_box.js")
)


def link_box(link: str, *, key: str, label: str = "Link") -> None:
    """Show `link` to copy (`label` names the box for screen readers)."""
    _box(key=key, data={"link": link, "label": label})
