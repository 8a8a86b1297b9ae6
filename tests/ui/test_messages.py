"""The one way to leave a message for the next run (ui/messages.py): left by a callback, drawn by
the page at its spot with its kind and icon, run after run, until replaced or cleared."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

SCRIPT = """
import streamlit as st
from ui.messages import clear_message, leave_message, show_message

def ok():
    leave_message("demo", "Saved **3** merges.", kind="success", icon=":material/check:")

def bad():
    leave_message("demo", "That file is no model.", kind="error", icon=":material/error:")

st.button("ok", key="ok", on_click=ok)
st.button("bad", key="bad", on_click=bad)
st.button("clear", key="clear", on_click=clear_message, args=("demo",))
st.button("other", key="other")
show_message("demo")
"""


def test_a_message_stays_with_its_icon_until_it_is_replaced_or_cleared():
    at = AppTest.from_string(SCRIPT, default_timeout=60).run()
    assert not at.success and not at.error  # nothing left yet
    at.button(key="ok").click().run()
    assert [(s.value, s.icon) for s in at.success] == [("Saved **3** merges.", ":material/check:")]
    at.button(key="other").click().run()  # an unrelated rerun keeps it
    assert [s.value for s in at.success] == ["Saved **3** merges."]
    at.button(key="bad").click().run()  # a new message under the same key replaces it
    assert not at.success
    assert [(e.value, e.icon) for e in at.error] == [("That file is no model.", ":material/error:")]
    at.button(key="clear").click().run()
    assert not at.success and not at.error


def test_a_message_without_an_icon_is_drawn_without_one():
    script = SCRIPT.replace(', icon=":material/check:"', "")
    at = AppTest.from_string(script, default_timeout=60).run()
    at.button(key="ok").click().run()
    assert [(s.value, s.icon) for s in at.success] == [("Saved **3** merges.", "")]
