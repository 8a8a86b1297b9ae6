"""A page's fast part first, the rest once the browser shows it: one helper, `FastFirst`.

The prompt workspace's text box and counts are a fragment inside the fragment that draws the
whole workspace. A keystroke reruns the inner one alone: a few elements, so the counts reach the
screen at Streamlit's own pace (bench/bench_live.py) instead of after the table, the chart, three
token views and the cost tables the browser redraws with them. Once the counts are painted, a
small component asks for the rest: its message reruns the parts that show an older text (each a
fragment of its own beside the fast part), and only those: the widgets between them (the cost
inputs, the price editor) stay as they are.

A fresh browser tab also loads the script of each kind of element the first time a run draws
one: the workspace's table, chart and code box need about 3.5 MB of it, against a few hundred KB
for the picker, the text box and the counts (bench/bench_open.py). So a session's first run of
the page draws the top and holds (`top_drawn`): it waits, up to HOLD_SECONDS, for a small
component to report that the top is on screen. Its message is a rerun request, which ends the
held run at once (Streamlit stops a run at its next element: the wait draws an empty element
each second); the new run draws the whole page. Only a run from a browser page holds (one that
sends the page's address): AppTest and other clients that run no JavaScript get the whole page in
one run, and a client that never answers gets it after HOLD_SECONDS, in the same run.

A page lists its parts and the helper does the rest::

    PAGE = FastFirst("workspace", WorkspaceState)   # the page's state: a dataclass with `shows`

    @PAGE.fast("workspace_prompt")      # a fragment: draws the box and counts, returns the state
    def live_counts(...) -> WorkspaceState: ...

    @PAGE.part("workspace_views")       # a fragment of the rest: called with the state first
    def text_views(state: WorkspaceState) -> None: ...

    with PAGE.first_view():             # page level, around the workspace
        ...                             # in the workspace's fragment:
        with PAGE.whole():              #   a run of the whole workspace
            live_counts(...)            #   (or PAGE.keep(state) where no fast part runs)
            PAGE.top_drawn()            #   where the top ends: a first view holds here
            text_views()

The state's `shows` is what the rest depends on that the fast part can change (the text and how
special tokens count; None where nothing is typed ahead of the rest, as in a chat). The fast part
asks only in a run of its own and only for the parts, drawn by the last run of the whole, that
show something else; a run of the whole never asks. If the user types while the rest is being
drawn, Streamlit stops that run for the new keystroke's, which asks again for the parts not
drawn yet.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from typing import Concatenate, Generic, ParamSpec, Protocol, TypeVar

import streamlit as st
from streamlit.errors import StreamlitAPIException

from .components import read
from .failures import guarded

# Fires once per request token, after the next paint (two animation frames: the counts drawn by
# this run are on screen by then) and once REST_PAUSE_MS have passed since text was last typed
# on the page: while the user types, the counts alone follow each keystroke, and the browser is
# not busy drawing the rest when the next one comes (that drawing takes ~0.3 s:
# docs/benchmarks.md); a change that is not typed (a button, a toggle) is not held back. Until
# each part asked for says it is drawn (or a run of the whole redraws the request, with no
# token), the page says the rest is on its way: <body data-tw-rest-pending="..."> (tests and
# benchmarks wait on it).
REST_PAUSE_MS = 1000
_JS = read("fast_first.js").replace("__PAUSE_MS__", str(REST_PAUSE_MS))

_signal = st.components.v2.component("tw_fast_first", html="<span hidden></span>", js=_JS)

# Seconds a first run waits for the browser before drawing the rest itself. Measured: a fresh
# tab shows the counts 1-3 s after the page starts loading on a quiet 2-core server, up to ~15 s
# while others load it heavily. TW_FIRST_VIEW_HOLD_SECONDS=0 turns holding off (for comparisons).
HOLD_SECONDS = float(os.environ.get("TW_FIRST_VIEW_HOLD_SECONDS", "") or 8.0)
_HOLD_POLL_SECONDS = 1.0

# Sent once the element marked by `hold` is in the page and no element is still loading its
# script (Streamlit draws a placeholder, data-testid="stSkeleton", meanwhile), after two frames:
# the top has been painted.
_FIRST_VIEW_JS = read("fast_first_view.js")

_first_view_signal = st.components.v2.component(
    "tw_first_view", html="<span hidden></span>", js=_FIRST_VIEW_JS
)

P = ParamSpec("P")
R = TypeVar("R")


class PageState(Protocol):
    @property
    def shows(self) -> Hashable | None: ...


S = TypeVar("S", bound=PageState)


class FastFirst(Generic[S]):
    """The fast-first handshake of the page `key`, and the one place its state lives between
    its fragments' runs (under ``{key}_state``): the fast part hands it over, the parts get it."""

    def __init__(self, key: str, empty: Callable[[], S]) -> None:
        self.key, self._empty = key, empty

    # -- the page's state --------------------------------------------------------------------
    def state(self) -> S:
        """The state as last kept (`empty()` before a run kept one)."""
        found = st.session_state.get(f"{self.key}_state")
        return found if found is not None else self._empty()

    def keep(self, state: S) -> S:
        """Keep the state the top of the page drew, for the parts below it."""
        st.session_state[f"{self.key}_state"] = state
        return state

    # -- the fast part and the rest ----------------------------------------------------------
    @contextmanager
    def whole(self) -> Iterator[None]:
        """Around a run that draws the fast part and the rest: the fast part asks for nothing
        while it lasts, and the parts it draws are the rest the next keystroke may ask for."""
        drawn: list[str] = []
        st.session_state[f"{self.key}_rest_drawing"] = drawn
        try:
            yield
            st.session_state[f"{self.key}_rest"] = drawn  # a run stopped half-way keeps the last list
        finally:
            st.session_state.pop(f"{self.key}_rest_drawing", None)

    def fast(self, key: str) -> Callable[[Callable[P, S | None]], Callable[P, S | None]]:
        """The fast part: a fragment (`key`) that draws the box and its counts and returns the
        page's state; the state is kept, and in a run of the fragment alone the browser is asked
        for the parts that show something else, once this run is on screen."""

        def wrap(fn: Callable[P, S | None]) -> Callable[P, S | None]:
            def run(*args: P.args, **kwargs: P.kwargs) -> S | None:
                state = fn(*args, **kwargs)
                if state is not None:
                    self._ask(self.keep(state).shows)
                return state

            run.__name__, run.__qualname__, run.__doc__ = fn.__name__, fn.__qualname__, fn.__doc__
            return st.fragment(guarded(run), key=key)  # type: ignore[return-value]

        return wrap

    def part(self, key: str) -> Callable[[Callable[Concatenate[S, P], None]], Callable[P, None]]:
        """A part of the rest: a fragment (`key`) called with the page's state as last kept,
        then its other arguments; once drawn, the browser is told."""

        def wrap(fn: Callable[Concatenate[S, P], None]) -> Callable[P, None]:
            def run(*args: P.args, **kwargs: P.kwargs) -> None:
                drawing = st.session_state.get(f"{self.key}_rest_drawing")
                if drawing is not None and key not in drawing:
                    drawing.append(key)
                state = self.state()
                fn(state, *args, **kwargs)
                if (shows := state.shows) is not None:
                    st.session_state[_shows_key(key)] = shows
                    _signal(
                        key=f"{key}_rest_done", data={"name": self.key, "done": key, "run": uuid.uuid4().hex}
                    )

            run.__name__, run.__qualname__, run.__doc__ = fn.__name__, fn.__qualname__, fn.__doc__
            return st.fragment(guarded(run), key=key)  # type: ignore[return-value]

        return wrap

    def _ask(self, shows: Hashable | None) -> None:
        """In the fast part, after what it draws: in a run of the fast part alone, if parts of
        the rest do not show `shows`, ask the browser to rerun those once this run is on screen.
        Draws an empty element either way (the page keeps the same elements)."""
        rest = st.session_state.get(f"{self.key}_rest", [])
        drawing = st.session_state.get(f"{self.key}_rest_drawing") is not None
        behind = (
            []
            if drawing or shows is None
            else [p for p in rest if st.session_state.get(_shows_key(p)) != shows]
        )
        _signal(
            key=f"{self.key}_rest_signal",
            data={"name": self.key, "token": uuid.uuid4().hex if behind else None, "parts": behind},
            on_drawn_change=lambda: rerun_parts(behind),  # fires only with a token: `behind` has parts
        )

    # -- the first view ----------------------------------------------------------------------
    @contextmanager
    def first_view(self) -> Iterator[None]:
        """Page level, outside any fragment, around what follows the top: on this session's first
        run of the page in a browser, draw the signal (in the sidebar, so that its message reruns
        the whole page), and remove it once the whole page was drawn in this run (a run the
        browser's message ended never gets there; the next run draws no signal)."""
        state = f"{self.key}_first_view"
        slot = None
        if state not in st.session_state:
            if HOLD_SECONDS <= 0 or not st.context.url:
                st.session_state[state] = "done"
            else:
                st.session_state[state] = "pending"
                slot = st.sidebar.empty()
                with slot:
                    _first_view_signal(
                        key=f"{self.key}_first_view_signal", data={"marker": f"st-key-{self._marker}"}
                    )
        yield
        if slot is not None:
            slot.empty()
            st.session_state[state] = "done"  # also when the page never reached its hold

    def top_drawn(self) -> None:
        """Where the top of the page ends (may be inside a fragment): on its first view, wait for
        the browser to show it (see above)."""
        state = f"{self.key}_first_view"
        if st.session_state.get(state) != "pending":
            return
        st.session_state[state] = "done"  # hold once, whatever ends it
        with st.container(key=self._marker):
            slot = st.empty()
        deadline = time.monotonic() + HOLD_SECONDS
        while time.monotonic() < deadline:
            time.sleep(_HOLD_POLL_SECONDS)
            slot.empty()  # an element: Streamlit ends the run here once the browser has asked for more

    @property
    def _marker(self) -> str:
        return f"{self.key}_first_view_end"


def _shows_key(part: str) -> str:
    return f"{part}_shows"


def rerun_parts(fragments: str | Sequence[str]) -> None:
    """In a widget's callback: rerun only these fragments (their keys) instead of what the widget
    would rerun; the whole page if one is not on it (not drawn yet, or gone with its page)."""
    try:
        st.rerun(fragments if isinstance(fragments, str) else list(fragments))
    except StreamlitAPIException:
        st.rerun()
