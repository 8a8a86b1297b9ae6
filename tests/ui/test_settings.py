"""Settings that stay put (ui/settings.py), on a small app of its own made as the pages make their
widgets (``persist_state="session"``, tabs through `kept_tabs`): every kind of setting widget keeps
its value across a page switch, a closed tab and a mode switch inside a fragment; buttons,
callbacks and values set through st.session_state behave as Streamlit documents them; no
"default value and Session State" warning is logged; and without the argument the same app
forgets. tests/test_streamlit_api.py checks that every page passes it."""

from __future__ import annotations

import datetime as dt
import logging
import textwrap
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]

ENTRY = """
import streamlit as st

nav = st.navigation([st.Page("page_a.py", title="A", default=True), st.Page("page_b.py", title="B", url_path="b")])
nav.run()
"""
PAGE_A = """
import datetime as dt
import streamlit as st
from ui.settings import kept_tabs

S = "session"
st.toggle("Toggle", key="a_toggle", persist_state=S)
st.toggle("On by default", value=True, key="a_on", persist_state=S)
st.checkbox("Checkbox", key="a_check", persist_state=S)
st.radio("Radio", ["r1", "r2", "r3"], index=1, key="a_radio", persist_state=S)
st.selectbox("Select", ["s1", "s2", "s3"], index=2, key="a_select", persist_state=S)
st.multiselect("Multi", ["m1", "m2", "m3"], default=["m1"], key="a_multi", persist_state=S)
st.segmented_control("Segments", ["g1", "g2"], default="g1", key="a_segments", persist_state=S)
st.pills("Pills", ["p1", "p2", "p3"], selection_mode="multi", default=["p1"], key="a_pills", persist_state=S)
st.number_input("Number", 0, 1000, 300, key="a_number", persist_state=S)
st.number_input("Float", 0.0, 1.0, 0.5, key="a_float", persist_state=S)
st.text_input("Text", "hello", key="a_text", persist_state=S)
st.text_area("Area", "some text", key="a_area", persist_state=S)
st.slider("Slider", 0, 100, 15, key="a_slider", persist_state=S)
st.slider("Range", 0, 100, (10, 20), key="a_range", persist_state=S)
st.select_slider("Steps", ["low", "mid", "high"], value="mid", key="a_steps", persist_state=S)
st.date_input("Date", dt.date(2025, 1, 1), key="a_date", persist_state=S)
st.time_input("Time", dt.time(9, 30), key="a_time", persist_state=S)
st.color_picker("Colour", "#112233", key="a_colour", persist_state=S)
if st.session_state.get("a_mode", "x") == "x":
    st.number_input("Shown in mode x only", 1, 10, 2, key="a_hidden", persist_state=S)
st.radio("Mode", ["x", "y"], key="a_mode", persist_state=S)
st.button("Press", key="a_button")
st.write("button", st.session_state.get("a_button"))


def bump() -> None:
    st.session_state["a_by_callback"] = 77


st.session_state.setdefault("a_by_callback", 5)
st.number_input("Set by a callback", 0, 100, key="a_by_callback", persist_state=S)
st.button("Set to 77", key="a_set", on_click=bump)
st.number_input("Forgets on leaving", 0, 10, 1, key="a_page_only", persist_state="page")
tabs = kept_tabs(["one", "two"], key="a_tab")
if tabs[1].open:
    with tabs[1]:
        st.number_input("In tab two", 0, 100, 3, key="a_tab_number", persist_state=S)


@st.fragment
def workspace() -> None:
    mode = st.segmented_control(
        "Fragment mode", ["text", "chat"], default="text", key="a_fmode", persist_state=S
    ) or "text"
    if mode == "text":
        st.toggle("Fragment toggle", value=True, key="a_ftoggle", persist_state=S)
    else:
        st.selectbox("Role", ["system", "user"], key="a_frole", persist_state=S)


workspace()
st.file_uploader("Upload", key="a_upload")
st.data_editor({"x": [1, 2]}, key="a_editor")
st.dataframe({"y": [1, 2]}, key="a_table", on_select="rerun")
"""
# Streamlit's default, which the app's widgets would have without the argument: forgotten on leaving
FORGETFUL = PAGE_A.replace("persist_state=S", "persist_state=None").replace(
    'kept_tabs(["one", "two"], key="a_tab")', 'st.tabs(["one", "two"], key="a_tab", on_change="rerun")'
)
PAGE_B = """
import streamlit as st

st.number_input("On B", 0, 10, 5, key="b_number")
"""

# (key, accessor, value to set: never the widget's default)
SETTINGS = [
    ("a_toggle", "toggle", True),
    ("a_on", "toggle", False),
    ("a_check", "checkbox", True),
    ("a_radio", "radio", "r3"),
    ("a_select", "selectbox", "s1"),
    ("a_multi", "multiselect", ["m2", "m3"]),
    ("a_segments", "button_group", "g2"),
    ("a_pills", "button_group", ["p2", "p3"]),
    ("a_number", "number_input", 42),
    ("a_float", "number_input", 0.25),
    ("a_text", "text_input", "typed"),
    ("a_area", "text_area", "typed\nin two lines"),
    ("a_slider", "slider", 80),
    ("a_range", "slider", (30, 60)),
    ("a_steps", "select_slider", "high"),
    ("a_date", "date_input", dt.date(2026, 2, 3)),
    ("a_time", "time_input", dt.time(17, 5)),
    ("a_colour", "color_picker", "#abcdef"),
]


class Warnings(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@pytest.fixture
def warnings():
    """Streamlit's warnings, including the "default value and Session State" one (logged once per
    process, so its flag is reset here)."""
    from streamlit.elements.lib import policies

    policies._shown_default_value_warning = False
    handler = Warnings()
    logger = logging.getLogger("streamlit")
    logger.addHandler(handler)
    try:
        yield handler.messages
    finally:
        logger.removeHandler(handler)


def make_app(tmp_path: Path, page_a: str = PAGE_A) -> AppTest:
    (tmp_path / "entry.py").write_text(textwrap.dedent(ENTRY))
    (tmp_path / "page_a.py").write_text(textwrap.dedent(page_a))
    (tmp_path / "page_b.py").write_text(textwrap.dedent(PAGE_B))
    at = AppTest.from_file(str(tmp_path / "entry.py"), default_timeout=30)
    at.run()
    assert not at.exception, at.exception
    return at


def widget(at: AppTest, accessor: str, key: str):
    if accessor == "button_group":
        return next(w for w in at.get("button_group") if w.key == key)
    return getattr(at, accessor)(key=key)


def value(at: AppTest, accessor: str, key: str):
    v = widget(at, accessor, key).value
    return list(v) if isinstance(v, (list, tuple)) and accessor != "slider" else v


def away_and_back(at: AppTest) -> None:
    at.switch_page("page_b.py").run()
    assert "a_number" not in [w.key for w in at.number_input]
    at.switch_page("page_a.py").run()
    assert not at.exception, at.exception


def set_all(at: AppTest) -> None:
    for key, accessor, new in SETTINGS:
        widget(at, accessor, key).set_value(new).run()
        assert value(at, accessor, key) == (list(new) if isinstance(new, list) else new), key


def test_every_kind_of_setting_survives_a_page_switch(tmp_path, warnings):
    at = make_app(tmp_path)
    set_all(at)
    away_and_back(at)
    for key, accessor, new in SETTINGS:
        assert value(at, accessor, key) == (list(new) if isinstance(new, list) else new), key
    at.switch_page("page_b.py").run()
    at.switch_page("page_a.py").run()  # and a second time
    expected = [list(v) if isinstance(v, list) else v for _, _, v in SETTINGS]
    assert [value(at, a, k) for k, a, _ in SETTINGS] == expected
    assert not [m for m in warnings if "default value" in m], warnings


def test_without_it_the_same_app_forgets(tmp_path):
    """The test above fails without ``persist_state="session"`` and `kept_tabs`: Streamlit's default."""
    at = make_app(tmp_path, FORGETFUL)
    at.number_input(key="a_number").set_value(42).run()
    at.toggle(key="a_on").set_value(False).run()
    at.session_state["a_tab"] = "two"
    at.run()
    assert at.number_input(key="a_tab_number").value == 3
    away_and_back(at)
    assert at.number_input(key="a_number").value == 300
    assert at.toggle(key="a_on").value is True
    assert "a_tab_number" not in [w.key for w in at.number_input]  # back on tab one


def test_the_open_tab_is_kept_across_pages(tmp_path, warnings):
    at = make_app(tmp_path)
    assert "a_tab_number" not in [w.key for w in at.number_input]  # tab one is open at first
    at.session_state["a_tab"] = "two"  # as a click on the tab does
    at.run()
    at.number_input(key="a_tab_number").set_value(42).run()
    away_and_back(at)
    assert at.session_state["a_tab"] == "two"
    assert at.number_input(key="a_tab_number").value == 42
    at.session_state["a_tab"] = "one"
    at.run()
    away_and_back(at)
    assert "a_tab_number" not in [w.key for w in at.number_input]
    assert not [m for m in warnings if "default value" in m], warnings


def test_a_widget_hidden_on_its_own_page_keeps_its_value(tmp_path, warnings):
    at = make_app(tmp_path)
    at.number_input(key="a_hidden").set_value(9).run()
    at.radio(key="a_mode").set_value("y").run()
    assert "a_hidden" not in [w.key for w in at.number_input]
    at.radio(key="a_mode").set_value("x").run()
    assert at.number_input(key="a_hidden").value == 9
    assert not [m for m in warnings if "default value" in m], warnings


def test_tabs_and_a_fragment_keep_their_widgets(tmp_path, warnings):
    at = make_app(tmp_path)
    at.toggle(key="a_ftoggle").set_value(False).run()
    widget(at, "button_group", "a_fmode").set_value("chat").run()
    at.selectbox(key="a_frole").set_value("user").run()
    widget(at, "button_group", "a_fmode").set_value("text").run()
    assert at.toggle(key="a_ftoggle").value is False
    away_and_back(at)
    assert at.toggle(key="a_ftoggle").value is False
    widget(at, "button_group", "a_fmode").set_value("chat").run()
    assert at.selectbox(key="a_frole").value == "user"
    assert not [m for m in warnings if "default value" in m], warnings


def test_callbacks_links_and_buttons_behave_as_in_streamlit(tmp_path, warnings):
    at = make_app(tmp_path)
    at.button(key="a_set").click().run()  # a callback sets a kept widget
    assert at.number_input(key="a_by_callback").value == 77
    at.session_state["a_number"] = 11  # as a share link does, before the widget is drawn
    at.run()
    assert at.number_input(key="a_number").value == 11
    at.button(key="a_button").click().run()
    assert "True" in at.markdown[0].value or at.session_state["a_button"] is True
    at.number_input(key="a_page_only").set_value(7).run()
    away_and_back(at)
    assert at.number_input(key="a_by_callback").value == 77
    assert at.number_input(key="a_number").value == 11
    assert at.session_state["a_button"] is False  # a click is an event: never replayed
    assert at.number_input(key="a_page_only").value == 1  # persist_state="page" is left alone
    assert not [m for m in warnings if "default value" in m], warnings
