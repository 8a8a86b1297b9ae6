"""The one handler for a user's tokenizer that fails (ui/failures.py), on each of Streamlit's
paths: a page run, a fragment, a button's callback. Without it each shows an exception."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

SCRIPT = """
import streamlit as st
from tokenizer_core import TokenizerFailed
from ui.failures import failures_shown, guarded, guarded_callback

GUARD = {guard}

def boom():
    raise TokenizerFailed("custom-broken", "it gives up on this text")

def plain(fn):
    return fn

with (failures_shown() if GUARD else __import__("contextlib").nullcontext()):
    st.button("callback", key="callback", on_click=guarded_callback(boom) if GUARD else boom)

    @st.fragment
    @(guarded if GUARD else plain)
    def part():
        if st.button("fragment", key="fragment"):
            boom()
        st.write("the fragment drew this")

    part()
    if st.button("page", key="page"):
        boom()
    st.write("the page drew this")
"""


def _app(guard: bool) -> AppTest:
    at = AppTest.from_string(SCRIPT.format(guard=guard), default_timeout=60)
    at.run()
    assert not at.exception
    return at


@pytest.mark.parametrize("button", ["callback", "fragment", "page"])
def test_each_path_shows_the_message_not_an_exception(button):
    at = _app(guard=True)
    at.button(key=button).click().run()
    assert not at.exception, [e.value for e in at.exception]
    (error,) = [e.value.replace("\\", "") for e in at.error]
    assert "custom-broken" in error and "it gives up on this text" in error
    at.run()  # shown once: the next run is clean
    assert not at.exception and not at.error


@pytest.mark.parametrize("button", ["callback", "fragment", "page"])
def test_without_the_handler_each_path_shows_an_exception(button):
    at = _app(guard=False)
    at.button(key=button).click().run()
    assert [e.value for e in at.exception] == [
        "custom-broken could not tokenize the text: it gives up on this text"
    ]


CALLBACK_RAISES = """
import streamlit as st
from ui.failures import failures_shown, guarded_callback

def oops():
    st.session_state["half_done"] = True  # what a callback changed before it broke stays
    raise TypeError("unhashable type: 'list'")

with failures_shown():
    st.session_state.setdefault("kept", "the user's text")
    st.button("callback", key="callback", on_click=guarded_callback(oops))
    st.write("the page drew this")
"""


def test_a_callback_that_raises_anything_gives_one_sentence_and_one_log_line(caplog):
    at = AppTest.from_string(CALLBACK_RAISES, default_timeout=60)
    at.run()
    with caplog.at_level("ERROR", logger="ui.failures"):
        at.button(key="callback").click().run()
    assert not at.exception, [e.value for e in at.exception]
    (error,) = [e.value for e in at.error]
    assert "did not expect" in error and "unhashable" not in error and "TypeError" not in error
    assert at.session_state["kept"] == "the user's text" and "the page drew this" in [
        m.value for m in at.markdown
    ]
    assert [r.levelname for r in caplog.records if r.name == "ui.failures"] == ["ERROR"]  # logged once
    at.run()  # shown once
    assert not at.exception and not at.error
