"""A page's fast part first, the rest once the browser shows it.

The prompt workspace's text box and counts are a fragment (`@st.fragment(key=...)`) inside the
fragment that draws the whole workspace. A keystroke reruns the inner one alone: a few elements,
so the counts reach the screen at Streamlit's own pace (bench/bench_live.py) instead of after
the table, the chart, three token views and the cost tables the browser redraws with them. Once
the counts are painted, a small component asks for the rest: its message reruns the outer
fragment, which draws everything again from the same session state (the counts come from the
session's last rows, not counted twice).

    with whole_run("counter"):                 # in the outer fragment, around everything
        ...fast part (the inner fragment)...   # it calls ask_for_rest("counter", shows, rest=...)
        ...the rest...
        rest_drawn("counter", shows)           # what the rest now shows

`shows` is whatever the rest depends on that the fast part can change (the text and how special
tokens count). The fast part asks only in a run of its own and only when the rest shows
something else; a run of the whole never asks. A client that runs no JavaScript (AppTest) only
ever runs the whole page. If the user types while the rest is being drawn, Streamlit stops that
run for the new keystroke's, which asks again.
"""

from __future__ import annotations

import uuid
from collections.abc import Hashable, Iterator
from contextlib import contextmanager

import streamlit as st
from streamlit.errors import StreamlitAPIException

# Fires once per request token, after the next paint (two animation frames: the counts drawn by
# this run are on screen by then). Until a run of the whole redraws it (with no token), the page
# says the rest is on its way: <body data-tw-rest-pending="..."> (tests and benchmarks wait on it).
_JS = """
const asked = new Map();  // per tab: the last request each page's signal sent
export default function ({ data, setTriggerValue }) {
  const body = document.body;
  if (!data.token) {
    if (body.dataset.twRestPending === data.name) delete body.dataset.twRestPending;
    return;
  }
  if (asked.get(data.name) === data.token) return;
  asked.set(data.name, data.token);
  body.dataset.twRestPending = data.name;
  let shown = true;  // not once the page has gone (another page, a closed tab)
  requestAnimationFrame(() => requestAnimationFrame(() => { if (shown) setTriggerValue("drawn", data.token); }));
  return () => {
    shown = false;
    if (body.dataset.twRestPending === data.name) delete body.dataset.twRestPending;
  };
}
"""

_signal = st.components.v2.component("tw_fast_first", html="<span hidden></span>", js=_JS)


def _drawing_key(key: str) -> str:
    return f"{key}_rest_drawing"


def _shows_key(key: str) -> str:
    return f"{key}_rest_shows"


@contextmanager
def whole_run(key: str) -> Iterator[None]:
    """Around a run that draws the fast part and the rest of page `key`: the fast part asks for
    nothing while it lasts."""
    st.session_state[_drawing_key(key)] = True
    try:
        yield
    finally:
        st.session_state.pop(_drawing_key(key), None)


def rest_drawn(key: str, shows: Hashable) -> None:
    """The rest of page `key` is drawn for `shows`."""
    st.session_state[_shows_key(key)] = shows


def ask_for_rest(key: str, shows: Hashable, *, rest: str) -> None:
    """In the fast part of page `key`, after what it draws: in a run of the fast part alone,
    if the rest does not show `shows`, ask the browser to rerun fragment `rest` once this run
    is on screen. Draws an empty element either way (the page keeps the same elements)."""
    behind = not st.session_state.get(_drawing_key(key)) and st.session_state.get(_shows_key(key)) != shows
    _signal(
        key=f"{key}_rest_signal",
        data={"name": key, "token": uuid.uuid4().hex if behind else None},
        on_drawn_change=lambda: _rerun(rest),
    )


def _rerun(fragment: str) -> None:
    try:
        st.rerun(fragment)
    except StreamlitAPIException:  # the fragment is not registered (yet): the whole page
        st.rerun()
