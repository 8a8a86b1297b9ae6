"""App-wide CSS: a few fixes to Streamlit's own widgets, injected once per run by the entry file."""

from __future__ import annotations

import streamlit as st

from tokenizer_core.workspace.count_cards import COUNTS_KEY

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


# Icon buttons: a button inside a container whose key starts with "icons_" shows its icon only.
# Its label stays in the page, visually hidden, so that it is the button's accessible name (an
# icon-only st.button is named after the icon's ligature: a screen reader said "delete icon").
ICON_BUTTON_CSS = """
[class*="st-key-icons_"] button [data-testid="stMarkdownContainer"] {
  position: absolute !important; width: 1px !important; height: 1px !important; margin: -1px;
  padding: 0; overflow: hidden; clip: rect(0 0 0 0); clip-path: inset(50%); white-space: nowrap; border: 0;
}
"""
# Static tables (st.table) on a phone: tighter cells, and headers and names may wrap anywhere,
# so a table of a few columns fits the screen instead of scrolling sideways.
TABLE_CSS = """
@media (max-width: 640px) {
  div.stTable table th, div.stTable table td { padding: 0.3rem 0.35rem; font-size: 0.8rem; }
  div.stTable table th, div.stTable table td, div.stTable table :is(th, td) * {
    white-space: normal !important; overflow-wrap: anywhere !important;
  }
}
"""

# The workspace's count cards (tokenizer_core/workspace/count_cards.py): the count is a Markdown
# heading, for its size; not a link target, and close to its name.
_CARDS = f".st-key-{COUNTS_KEY}"
COUNT_CARDS_CSS = f"""
{_CARDS} h3 {{ padding: 0.1rem 0 0.25rem 0; }}
{_CARDS} [data-testid="stHeaderActionElements"] {{ display: none; }}
{_CARDS} [data-testid="stMarkdownContainer"] p {{ margin-bottom: 0; }}
"""


def app_style() -> None:
    """Inject the app's CSS (a style-only `st.html` takes no space on the page)."""
    st.html(f"<style>{MULTISELECT_CSS}{ICON_BUTTON_CSS}{TABLE_CSS}{COUNT_CARDS_CSS}</style>")
