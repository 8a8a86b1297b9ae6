"""App-wide CSS: a few fixes to Streamlit's own widgets (ui/components/style.css, which says what
each one is for), injected once per run by the entry file."""

from __future__ import annotations

import re

import streamlit as st

from tokenizer_core.workspace.count_cards import COUNTS_KEY
from ui.components import read

# Read once; its comments are for readers of the file, not for every run's message.
CSS = re.sub(r"/\*.*?\*/\s*", "", read("style.css"), flags=re.S).replace(
    ".st-key-COUNTS_KEY", f".st-key-{COUNTS_KEY}"
)


def app_style() -> None:
    """Inject the app's CSS (a style-only `st.html` takes no space on the page)."""
    st.html(f"<style>{CSS}</style>")
