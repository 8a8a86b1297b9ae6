"""The browser side of the app's own components (``st.components.v2``): their HTML, CSS and
JavaScript, in files of their own in this folder, named after the module that makes the
component (``live_text.js`` for ui/live_text.py; ``style.css`` is the app-wide CSS of ui/style.py).

A module reads its files once, when it is imported (the component is made then), and hands the
text to Streamlit as before:

    st.components.v2.component("tw_link_box", html=read("link_box.html"), css=read("link_box.css"),
                               js=read("link_box.js"))

The files are linted by the tests (tests/ui/test_front_end.py): ESLint for the JavaScript, a
parser for the CSS and the HTML.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

HERE = Path(__file__).parent


@cache
def read(name: str) -> str:
    """The text of one file of this folder: ``read("link_box.js")`` -> ``"export default ..."``."""
    return (HERE / name).read_text(encoding="utf-8")
