"""A page's first view: the top of the page first, the rest once the browser shows it.

A fresh browser tab loads the script of each kind of element the first time a run draws one. The
counter page's table, chart and code box need about 3.5 MB of it, against a few hundred KB for
the picker, the text box and the counts; drawn in the same run, the big ones kept the counts off
the screen for seconds (bench/bench_open.py). So a session's first run of such a page draws the
top and then holds: `hold()` waits, up to HOLD_SECONDS, for a small component to report that
what was drawn so far is on screen. Its message is a rerun request, which ends the held run at
once (Streamlit stops a run at its next element); the new run draws the whole page.

Only a run from a browser page holds (one that sends the page's address): AppTest and other
clients that run no JavaScript get the whole page in one run. A client that never answers gets
it after HOLD_SECONDS, in the same run. Either way the same elements end up on the page.

    view = first_view("counter")   # page level, outside any fragment: draws the signal
    ...top of the page...
    hold("counter")                # where the top ends (may be inside a fragment)
    ...the rest...
    end_first_view("counter", view)  # page level, after the rest
"""

from __future__ import annotations

import os
import time

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

# Seconds a first run waits for the browser before drawing the rest itself. Measured: a fresh
# tab shows the counts 1-3 s after the page starts loading on a quiet 2-core server, up to ~15 s
# while others load it heavily. TW_FIRST_VIEW_HOLD_SECONDS=0 turns holding off (for comparisons).
HOLD_SECONDS = float(os.environ.get("TW_FIRST_VIEW_HOLD_SECONDS", "") or 8.0)
_POLL_SECONDS = 1.0

# Sent once the element marked by `hold` is in the page and no element is still loading its
# script (Streamlit draws a placeholder, data-testid="stSkeleton", meanwhile), after two frames:
# the top has been painted.
_JS = """
export default function ({ data, setTriggerValue }) {
  let done = false;
  const drawn = () => {
    const main = document.querySelector('[data-testid="stMain"]') || document.body;
    return main.querySelector("." + data.marker) && !main.querySelector('[data-testid="stSkeleton"]');
  };
  const tick = () => {
    if (done) return;
    if (!drawn()) { requestAnimationFrame(tick); return; }
    done = true;
    requestAnimationFrame(() => requestAnimationFrame(() => setTriggerValue("shown", true)));
  };
  tick();
  return () => { done = true; };
}
"""

_signal = st.components.v2.component("tw_first_view", html="<span hidden></span>", js=_JS)


def _state_key(key: str) -> str:
    return f"{key}_first_view"


def _marker(key: str) -> str:
    return f"{key}_first_view_end"


def first_view(key: str) -> DeltaGenerator | None:
    """On this session's first run of the page `key` in a browser, draw the signal (in the
    sidebar, outside any fragment, so that its message reruns the whole page) and return the
    slot it is in, for `end_first_view`; else None."""
    ss = st.session_state
    if _state_key(key) in ss:
        return None
    if HOLD_SECONDS <= 0 or not st.context.url:
        ss[_state_key(key)] = "done"
        return None
    ss[_state_key(key)] = "pending"
    slot = st.sidebar.empty()
    with slot:
        _signal(key=f"{key}_first_view_signal", data={"marker": f"st-key-{_marker(key)}"})
    return slot


def hold(key: str) -> None:
    """Where the top of page `key` ends: on its first view, wait for the browser (see above)."""
    ss = st.session_state
    if ss.get(_state_key(key)) != "pending":
        return
    ss[_state_key(key)] = "done"  # hold once, whatever ends it
    with st.container(key=_marker(key)):
        slot = st.empty()
    deadline = time.monotonic() + HOLD_SECONDS
    while time.monotonic() < deadline:
        time.sleep(_POLL_SECONDS)
        slot.empty()  # an element: Streamlit ends the run here once the browser has asked for more


def end_first_view(key: str, slot: DeltaGenerator | None) -> None:
    """After the whole page `key` was drawn in one run: remove the signal (a run the browser's
    message ended never gets here; the next run draws no signal)."""
    if slot is None:
        return
    slot.empty()
    st.session_state[_state_key(key)] = "done"  # also when the page never reached its hold
