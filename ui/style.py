"""App-wide CSS: a few fixes to Streamlit's own widgets, injected once per run by the entry file."""

from __future__ import annotations

import streamlit as st

# Multiselect chips: Streamlit keeps them on one line that scrolls sideways behind a fade, so
# with several chosen the labels read "Po…", "Lla…". Wrap the chips onto more lines instead,
# each chip showing its whole label (a label longer than the box wraps inside its chip).
MULTISELECT_CSS = """
.stMultiSelect [data-testid="stMultiSelectTagsContainer"] {
  flex-wrap: wrap; overflow: visible; height: auto; row-gap: 4px;
  mask-image: none; -webkit-mask-image: none;
}
.stMultiSelect .react-aria-ComboBox > div:has([data-testid="stMultiSelectTagsContainer"]) {
  max-height: none; height: auto; min-height: 40px;
}
.stMultiSelect [data-testid="stMultiSelectTagsContainer"] span:has(> button) {
  max-width: 100%; height: auto; min-height: 28px;
}
.stMultiSelect [data-testid="stMultiSelectTagsContainer"] span:has(> button) > span {
  white-space: normal; overflow-wrap: anywhere; text-overflow: clip; overflow: visible;
}
"""


def app_style() -> None:
    """Inject the app's CSS (a style-only `st.html` takes no space on the page)."""
    st.html(f"<style>{MULTISELECT_CSS}</style>")
