"""A page's fast part first, the rest after (ui/fast_first.py), headless: when the fast part asks
the browser for the rest, and that a run of the whole page never asks. The browser's half (the
request sent once the counts are painted, the rest drawn) is in
tests/e2e/test_fast_first_browser.py."""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest

from tests.conftest import ENTRY
from tokenizer_core.tokenizers import load_sample


def _page() -> None:
    import streamlit as st

    from ui.fast_first import ask_for_rest, rest_drawn, whole_run

    shows = st.session_state.get("shows", "a")
    if st.session_state.get("fast_only"):  # stands in for a run of the fast part's fragment alone
        ask_for_rest("t", shows, rest=["t_rest"])
    else:
        with whole_run("t"):
            ask_for_rest("t", shows, rest=["t_rest"])
            if st.session_state.get("fail"):
                raise RuntimeError("the rest broke")
            rest_drawn("t", "t_rest", shows)


def _tokens(at: AppTest) -> list:
    out = []
    for el in at.get("bidi_component"):
        if el.proto.component_name.endswith("tw_fast_first"):
            which = el.proto.WhichOneof("data")
            raw = el.proto.json if which == "json" else el.proto.mixed.json
            if "token" in (data := json.loads(raw)):  # the request (the others: parts drawn)
                out.append(data["token"])
    return out


def test_a_run_of_the_whole_page_never_asks_for_the_rest():
    at = AppTest.from_function(_page).run()
    assert _tokens(at) == [None]
    assert at.session_state["t_rest_shows"] == "a"
    assert "t_rest_drawing" not in at.session_state


def test_the_fast_part_asks_only_when_the_rest_shows_something_else():
    at = AppTest.from_function(_page).run()
    at.session_state["fast_only"] = True
    at.run()
    assert _tokens(at) == [None]  # the rest already shows "a"
    at.session_state["shows"] = "b"  # typed: the fast part counts "b", the rest still shows "a"
    at.run()
    (first,) = _tokens(at)
    assert isinstance(first, str) and first
    at.run()  # typed again before the rest came: ask again, with a new request
    (second,) = _tokens(at)
    assert second and second != first
    at.session_state["fast_only"] = False  # the browser's request: the whole runs, and shows "b"
    at.run()
    assert _tokens(at) == [None] and at.session_state["t_rest_shows"] == "b"


def test_a_run_of_the_whole_that_broke_leaves_the_rest_behind():
    at = AppTest.from_function(_page).run()
    at.session_state["shows"], at.session_state["fail"] = "b", True
    at.run()
    assert at.exception and "t_rest_drawing" not in at.session_state
    assert at.session_state["t_rest_shows"] == "a"
    at.session_state["fast_only"], at.session_state["fail"] = True, False
    at.run()
    assert _tokens(at)[0]  # so the next run of the fast part asks for it


PARTS = ("counter_views", "counter_costs", "counter_sections")  # the home page's rest, each a fragment


def test_the_home_page_drawn_whole_records_what_its_rest_shows():
    at = AppTest.from_file(ENTRY, default_timeout=120).run()
    assert not at.exception
    for part in PARTS:
        assert at.session_state[f"{part}_shows"] == (load_sample("mixed"), False)
    assert _tokens(at) == [None]
    at.session_state["counter_text"] = "a new text"
    at.run()
    for part in PARTS:
        assert at.session_state[f"{part}_shows"] == ("a new text", False)
    assert _tokens(at) == [None]
