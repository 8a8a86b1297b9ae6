"""A page's fast part first, the rest once the browser shows it.

The prompt workspace's text box and counts are a fragment (`@st.fragment(key=...)`) inside the
fragment that draws the whole workspace. A keystroke reruns the inner one alone: a few elements,
so the counts reach the screen at Streamlit's own pace (bench/bench_live.py) instead of after
the table, the chart, three token views and the cost tables the browser redraws with them. Once
the counts are painted, a small component asks for the rest: its message reruns the fragments
that hold what depends on the text (the rest's parts, each a fragment of its own beside the
fast part), and only those: the widgets between them (the cost inputs, the price editor) stay
as they are. The parts draw from what the fast part left in the session (the text, its counts).

    with whole_run("counter"):                 # in the outer fragment, around everything
        ...fast part (the inner fragment)...   # it calls ask_for_rest("counter", shows, rest=[parts])
        ...each part of the rest, a fragment...  # each ends with rest_drawn("counter", part, shows)

`shows` is whatever the rest depends on that the fast part can change (the text and how special
tokens count). The fast part asks only in a run of its own and only for the parts that show
something else; a run of the whole never asks. A client that runs no JavaScript (AppTest) only
ever runs the whole page. If the user types while the rest is being drawn, Streamlit stops that
run for the new keystroke's, which asks again for the parts not drawn yet.
"""

from __future__ import annotations

import uuid
from collections.abc import Hashable, Iterator, Sequence
from contextlib import contextmanager

import streamlit as st
from streamlit.errors import StreamlitAPIException

# Fires once per request token, after the next paint (two animation frames: the counts drawn by
# this run are on screen by then) and once REST_PAUSE_MS have passed since text was last typed
# on the page: while the user types, the counts alone follow each keystroke, and the browser is
# not busy drawing the rest when the next one comes (that drawing takes ~0.3 s:
# docs/benchmarks.md); a change that is not typed (a button, a toggle) is not held back. Until
# each part asked for says it is drawn (or a run of the whole redraws the request, with no
# token), the page says the rest is on its way: <body data-tw-rest-pending="..."> (tests and
# benchmarks wait on it).
REST_PAUSE_MS = 1000
_JS = """
const PAUSE_MS = __PAUSE_MS__;
const asked = new Map();  // per tab: the last request each page's signal sent
const pending = new Map();  // per tab: the parts each page still waits for
const waiting = new Map();  // per tab: each page's timer for its last request
if (window.__twTyped === undefined) {  // once per tab: when text was last typed on the page
  window.__twTyped = -Infinity;  // (input events cross the components' shadow roots)
  document.addEventListener("input", () => { window.__twTyped = performance.now(); }, true);
}
function show(name) {
  const body = document.body;
  if (pending.get(name)?.size) body.dataset.twRestPending = name;
  else if (body.dataset.twRestPending === name) delete body.dataset.twRestPending;
}
export default function ({ data, setTriggerValue }) {
  if (data.done) {  // a part of the rest, drawn
    pending.get(data.name)?.delete(data.done);
    show(data.name);
    return;
  }
  if (!data.token) {  // a run of the whole page: nothing to ask for
    clearTimeout(waiting.get(data.name));
    pending.delete(data.name);
    show(data.name);
    return;
  }
  if (asked.get(data.name) === data.token) return;
  asked.set(data.name, data.token);
  pending.set(data.name, new Set(data.parts));
  show(data.name);
  clearTimeout(waiting.get(data.name));  // a newer request replaces the one waiting
  let shown = true;  // not once the page has gone (another page, a closed tab)
  const when = () => {  // the counts are on screen: once typing pauses
    const left = window.__twTyped + PAUSE_MS - performance.now();
    if (left > 0) waiting.set(data.name, setTimeout(when, left));
    else if (shown) setTriggerValue("drawn", data.token);
  };
  requestAnimationFrame(() => requestAnimationFrame(when));
  return () => {
    shown = false;
    clearTimeout(waiting.get(data.name));
    pending.delete(data.name);
    show(data.name);
  };
}
""".replace("__PAUSE_MS__", str(REST_PAUSE_MS))

_signal = st.components.v2.component("tw_fast_first", html="<span hidden></span>", js=_JS)


def _drawing_key(key: str) -> str:
    return f"{key}_rest_drawing"


def _shows_key(part: str) -> str:
    return f"{part}_shows"


@contextmanager
def whole_run(key: str) -> Iterator[None]:
    """Around a run that draws the fast part and the rest of page `key`: the fast part asks for
    nothing while it lasts."""
    st.session_state[_drawing_key(key)] = True
    try:
        yield
    finally:
        st.session_state.pop(_drawing_key(key), None)


def rest_drawn(key: str, part: str, shows: Hashable) -> None:
    """The part `part` (a fragment's key) of page `key`'s rest is drawn for `shows`; the browser
    is told (an empty element)."""
    st.session_state[_shows_key(part)] = shows
    _signal(key=f"{part}_rest_done", data={"name": key, "done": part, "run": uuid.uuid4().hex})


def ask_for_rest(key: str, shows: Hashable, *, rest: Sequence[str]) -> None:
    """In the fast part of page `key`, after what it draws: in a run of the fast part alone, if
    parts of the rest (fragment keys) do not show `shows`, ask the browser to rerun those once
    this run is on screen. Draws an empty element either way (the page keeps the same elements)."""
    state = st.session_state.get
    behind = [] if state(_drawing_key(key)) else [p for p in rest if state(_shows_key(p)) != shows]
    _signal(
        key=f"{key}_rest_signal",
        data={"name": key, "token": uuid.uuid4().hex if behind else None, "parts": behind},
        on_drawn_change=lambda: rerun_parts(behind),  # fires only with a token: `behind` has parts
    )


def rerun_parts(fragments: str | Sequence[str]) -> None:
    """In a widget's callback: rerun only these fragments (their keys) instead of what the widget
    would rerun; the whole page if one is not on it (not drawn yet, or gone with its page)."""
    try:
        st.rerun(fragments if isinstance(fragments, str) else list(fragments))
    except StreamlitAPIException:
        st.rerun()
