"""A page's fast part first, the rest after (ui/fast_first.py, `FastFirst`), headless: when the
fast part asks the browser for the rest and for which parts, that a run of the whole page never
asks, and that the parts are handed the page's state. The browser's half (the
request sent once the counts are painted, the rest drawn) is in
tests/e2e/test_fast_first_browser.py."""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest

from tests.conftest import ENTRY
from tokenizer_core.tokenizers import load_sample


def _page() -> None:
    from dataclasses import dataclass

    import streamlit as st

    from ui.fast_first import FastFirst

    @dataclass(frozen=True)
    class State:
        text: str = ""

        @property
        def shows(self) -> str:
            return self.text

    page = FastFirst("t", State)

    @page.fast("t_fast")
    def fast() -> State:
        return State(st.session_state.get("shows", "a"))

    @page.part("t_rest")
    def rest(state: State) -> None:
        st.session_state["t_rest_saw"] = state.text
        if st.session_state.get("fail"):
            raise RuntimeError("the rest broke")

    @page.part("t_other")
    def other(state: State) -> None:
        st.write(state.text)

    if st.session_state.get("fast_only"):  # stands in for a run of the fast part's fragment alone
        fast()
    else:
        with page.whole():
            fast()
            rest()
            if st.session_state.get("other", True):
                other()


def _tokens(at: AppTest) -> list:
    out = []
    for el in at.get("bidi_component"):
        if el.proto.component_name.endswith("tw_fast_first"):
            which = el.proto.WhichOneof("data")
            raw = el.proto.json if which == "json" else el.proto.mixed.json
            if "token" in (data := json.loads(raw)):  # the request (the others: parts drawn)
                out.append(data["token"])
    return out


def _asked(at: AppTest) -> list:
    for el in at.get("bidi_component"):
        if el.proto.component_name.endswith("tw_fast_first"):
            which = el.proto.WhichOneof("data")
            data = json.loads(el.proto.json if which == "json" else el.proto.mixed.json)
            if "token" in data:
                return data["parts"]
    return []


def test_a_run_of_the_whole_page_never_asks_for_the_rest():
    at = AppTest.from_function(_page).run()
    assert _tokens(at) == [None]
    assert at.session_state["t_rest_shows"] == "a" and at.session_state["t_rest_saw"] == "a"
    assert "t_rest_drawing" not in at.session_state


def test_the_parts_asked_for_are_those_the_last_whole_run_drew():
    at = AppTest.from_function(_page).run()
    at.session_state["fast_only"], at.session_state["shows"] = True, "b"
    at.run()
    assert _asked(at) == ["t_rest", "t_other"]
    at.session_state["fast_only"], at.session_state["other"] = False, False  # the page without that part
    at.run()
    at.session_state["fast_only"], at.session_state["shows"] = True, "c"
    at.run()
    assert _asked(at) == ["t_rest"]  # asking for a part not on the page would rerun it all


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
    assert at.session_state["t_rest_shows"] == "a" and at.session_state["t_rest_saw"] == "b"
    at.session_state["fast_only"], at.session_state["fail"] = True, False
    at.run()
    assert _tokens(at)[0]  # so the next run of the fast part asks for it


PARTS = ("workspace_views", "workspace_costs", "workspace_sections")  # the home page's rest, each a fragment


def test_the_home_page_drawn_whole_records_what_its_rest_shows():
    at = AppTest.from_file(ENTRY, default_timeout=120).run()
    assert not at.exception
    for part in PARTS:
        assert at.session_state[f"{part}_shows"] == (load_sample("mixed"), False)
    assert _tokens(at) == [None]
    at.session_state["workspace_text"] = "a new text"
    at.run()
    for part in PARTS:
        assert at.session_state[f"{part}_shows"] == ("a new text", False)
    assert _tokens(at) == [None]
