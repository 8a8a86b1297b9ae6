"""Settings that stay put: every setting widget with a key keeps its value for the browser session.

Streamlit forgets the value of a widget that was not drawn in a run: on another page, in a tab
that is not open, in a section shown only in one mode. Streamlit keeps it instead when the widget
is made with ``persist_state="session"`` (a public argument of every setting widget since
Streamlit 1.67), so each page passes it where it makes a setting widget with a key:

    st.toggle("Show whitespace", key="chunks_ws", persist_state="session")

Setting widgets: toggles and checkboxes, radios, select boxes, multiselects, segmented controls
and pills, number and text inputs, text areas, sliders, date and time inputs, colour pickers, and
tabs with a key (`kept_tabs`: st.tabs takes no ``persist_state``). tests/ui/test_settings.py fails
for one made without it in app_pages/, ui/ or the entry file. A widget that must forget when the
user leaves its page says so with ``persist_state="page"``. Buttons (a click is an event, not a
setting), file uploads, data editors, table and chart selections and custom components keep
Streamlit's default: their pages keep what they need themselves.

Kept values are Streamlit's own widget values: a callback or a share link that sets a widget's
key in `st.session_state` before the widget is drawn still decides its value, and the value comes
back when the widget is drawn again (another page, a tab, a mode switch inside a fragment, a
websocket reconnect to the same session) without the "default value and Session State" warning.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import streamlit as st

_OPEN = "_tw_open_tab/"  # + the tabs' key: the label of the tab open when they were last drawn


def kept_tabs(labels: Sequence[str], *, key: str) -> Sequence[Any]:
    """``st.tabs(labels, key=key, on_change="rerun")`` whose open tab is kept for the session.

    Only the open tab's contents run (``tab.open``). Streamlit forgets which tab was open once the
    tabs are not drawn in a run (another page), and st.tabs has no ``persist_state``: so the label
    is noted in the session state on each run and handed back, as a share link would, the next
    time the tabs are drawn without a value of their own.
    """
    kept = st.session_state.get(_OPEN + key)
    if key not in st.session_state and kept in labels:
        st.session_state[key] = kept
    tabs = st.tabs(labels, key=key, on_change="rerun")
    st.session_state[_OPEN + key] = st.session_state.get(key)
    return tabs
