"""Settings that stay put: every widget with a key keeps its value for the whole browser session.

Streamlit forgets the value of a widget that was not drawn in a run: on another page, in a tab
that is not open, in a section shown only in one mode. Streamlit can keep it instead, one widget
at a time (``persist_state="session"``). `keep_settings()`, called by the entry file on every run,
makes that the default for every widget that has a key and holds a setting, on every page: a new
widget is covered as soon as it has a key, with no list to update.

Kept: toggles and checkboxes, radios, select boxes, multiselects, segmented controls and pills,
number and text inputs, text areas, sliders, date and time inputs, colour pickers, and the open
tab of tabs with a key. Left as Streamlit has them: buttons (a click is an event, not a setting),
file uploads, data editors, table and chart selections and custom components (their pages keep
what they need themselves). A widget that must forget when the user leaves its page says so with
``persist_state="page"``.

Kept values are Streamlit's own widget values: a callback or a share link that sets a widget's
key in `st.session_state` before the widget is drawn still decides its value, and the value
comes back when the widget is drawn again (another page, a tab, a mode switch inside a
fragment, a websocket reconnect to the same session) without the "default value and Session
State" warning.

Why not copy the values aside and write them back at the start of each run: a value written in
the run that draws its widget makes Streamlit log that warning for every widget with a default,
and a fragment's reruns (the prompt workspace) never run the entry file, so widgets hidden by a
mode switch inside the fragment would lose their values anyway. Both were seen in Chromium with
Streamlit 1.67.
"""

from __future__ import annotations

import dataclasses
import threading
from typing import Any

from streamlit.runtime.state.common import WidgetMetadata
from streamlit.runtime.state.session_state import SessionState

# The widget kinds that hold a setting, by the class Streamlit reads their value with
# (streamlit 1.67: each widget command has its own). Everything else keeps Streamlit's default.
SETTING_KINDS = frozenset(
    {
        "CheckboxSerde",  # st.checkbox, st.toggle
        "RadioSerde",
        "SelectboxSerde",
        "MultiSelectSerde",
        "_SingleSelectButtonGroupSerde",  # st.segmented_control, st.pills
        "_MultiSelectButtonGroupSerde",
        "NumberInputSerde",
        "TextInputSerde",
        "TextAreaSerde",
        "SliderSerde",
        "SelectSliderSerde",
        "DateInputSerde",
        "TimeInputSerde",
        "DateTimeInputSerde",
        "ColorPickerSerde",
        "_TabsSerde",  # st.tabs(..., key=..., on_change="rerun")
    }
)
_INSTALLED = "_tw_keeps_settings"
_lock = threading.Lock()


def widget_kind(metadata: Any) -> str:
    """The class a widget's value is read with: ``"SelectboxSerde"`` for an st.selectbox."""
    owner = getattr(metadata.deserializer, "__self__", None)
    return type(owner).__name__ if owner is not None else ""


def keeps_value(metadata: Any, user_key: str | None) -> bool:
    """True for a widget whose value is kept for the session: a key, a setting kind, and no
    ``persist_state`` of its own."""
    return bool(user_key) and metadata.persist_state is None and widget_kind(metadata) in SETTING_KINDS


def keep_settings() -> None:
    """Make every setting widget with a key keep its value for the session (see the module doc).

    Idempotent and cheap: the entry file calls it on every run, before the page runs.
    """
    if getattr(SessionState.register_widget, _INSTALLED, False):
        return
    with _lock:
        register = SessionState.register_widget
        if getattr(register, _INSTALLED, False):
            return
        if "persist_state" not in {f.name for f in dataclasses.fields(WidgetMetadata)}:
            raise RuntimeError(
                "This Streamlit has no per-widget persist_state, which settings rely on: install the "
                "version in requirements.txt (pip install -r requirements.txt)."
            )

        def register_widget(self: SessionState, metadata: Any, user_key: str | None) -> Any:
            if keeps_value(metadata, user_key):
                metadata = dataclasses.replace(metadata, persist_state="session")
            return register(self, metadata, user_key)

        setattr(register_widget, _INSTALLED, True)
        register_widget.__wrapped__ = register  # type: ignore[attr-defined]
        SessionState.register_widget = register_widget  # type: ignore[method-assign]
