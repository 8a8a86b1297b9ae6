"""Which browser sessions the server has, and emptying the state of one that has ended.

The one module of the app that reaches into Streamlit's runtime beyond its public API
(`streamlit.runtime.Runtime`, its session manager and uploaded-file manager, the script run
context and the session state behind `st.session_state`). Streamlit offers no public hook for
"this session has ended", so the app notes each session when its script runs (`note_session`)
and a sweep (ui/jobs.py, every 2 s) compares the noted sessions with the runtime's connected
ones (`ended_sessions`). A session gone for longer than a grace (a closed tab, not a network
blip) has its state emptied (`forget_session`): its tokenizers, texts, results and uploads go,
whatever Streamlit still keeps of the session object itself (in Streamlit 1.67 the runtime loop
can hold the last closed session for as long as no other session comes: issue #31).

Kept here so that a Streamlit upgrade that moves these internals breaks one file, whose tests
(tests/ui/test_sessions.py, tests/ui/test_session_memory.py) say so.
"""

from __future__ import annotations

import threading
from typing import Any


def current_session_id() -> str | None:
    """The id of the session whose script is running in this thread (None outside a run)."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx(suppress_warning=True)  # no run is no mistake here: the count route asks
    return ctx.session_id if ctx is not None else None


def _runtime() -> Any | None:
    from streamlit.runtime import Runtime

    return Runtime.instance() if Runtime.exists() else None


def has_runtime() -> bool:
    """True on a real server (and in page tests, whose runtime is a stand-in)."""
    from streamlit.runtime import Runtime

    return Runtime.exists()


def session_count() -> int | None:
    """Sessions the server keeps (connected, or closed but kept for a reconnect); None without a
    runtime (page tests)."""
    runtime = _runtime()
    return None if runtime is None else runtime._session_mgr.num_sessions()


def kept_session_ids() -> list[str] | None:
    """The ids of the sessions the server keeps (connected, or closed but kept for a reconnect);
    None without a runtime or where the runtime does not list them."""
    runtime = _runtime()
    try:
        return None if runtime is None else [info.session.id for info in runtime._session_mgr.list_sessions()]
    except AttributeError:
        return None


def is_connected(session_id: str) -> bool:
    """True while a browser tab is connected to the session."""
    runtime = _runtime()
    return runtime is not None and runtime.is_active_session(session_id)


def is_running(session_id: str) -> bool:
    """True while a script run of the session is going: a tab that has left can leave a run behind
    (Streamlit does not stop it), and that run still reads the session's state."""
    runtime = _runtime()
    try:
        info = None if runtime is None else runtime._session_mgr.get_session_info(session_id)
    except AttributeError:  # a runtime (or a test's stand-in) that cannot say: none runs
        return False
    return info is not None and getattr(info.session, "_scriptrunner", None) is not None


def _end_own_tokenizers(state: Any) -> None:
    """End the processes of the session's own tokenizers (each upload runs in one), whatever
    else still holds them."""
    from tokenizer_core.tokenizers.encoders import RemoteTokenizer

    try:
        keys = list(state)
    except Exception:  # noqa: BLE001  (a Streamlit whose state reads otherwise: the finalizers end them)
        return
    for key in keys:
        try:
            value = state[key]
        except Exception:  # noqa: BLE001
            continue
        for item in value.values() if isinstance(value, dict) else (value,):
            if isinstance(item, RemoteTokenizer):
                item.close()


def _clear_widget_metadata(state: Any) -> None:
    """Drop what `SessionState.clear` keeps: the widgets' metadata, whose callbacks and
    `format_func`s close over the page's values (a Datasets page's dropped set, 5 MB, was held
    this way until Streamlit dropped the session, its TTL later)."""
    for holder, name in ((getattr(state, "_new_widget_state", None), "widget_metadata"),
                         (state, "_current_interaction_widget_states")):  # fmt: skip
        value = getattr(holder, name, None)
        if hasattr(value, "clear"):
            value.clear()


class SessionStates:
    """The session state of every session that ran a script, by session id (held until `forget`
    empties it; a connected session's state is Streamlit's to keep anyway)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._states: dict[str, Any] = {}  # session id -> its SessionState (no weakref: it has slots)
        self._gone_since: dict[str, float] = {}
        self._ended: set[str] = set()  # emptied, while Streamlit may still keep them for a reconnect

    def note(self) -> None:
        """Note the session running this script (cheap: call on every run)."""
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        ctx = get_script_run_ctx()
        if ctx is None:
            return
        with self._lock:
            # the SessionState behind st.session_state (the wrapper is made anew for each run)
            self._states[ctx.session_id] = ctx.session_state._state
            self._gone_since.pop(ctx.session_id, None)
            self._ended.discard(ctx.session_id)  # came back after its state was emptied

    def known(self) -> list[str]:
        with self._lock:
            return list(self._states)

    def ended(self, now: float, grace: float) -> list[str]:
        """Noted sessions without a connected tab for more than `grace` seconds, and no run going
        (emptying the state under a run breaks it: "dictionary changed size during iteration")."""
        out = []
        for sid in self.known():
            if is_connected(sid):
                with self._lock:
                    self._gone_since.pop(sid, None)
                continue
            with self._lock:
                since = self._gone_since.setdefault(sid, now)
            if now - since > grace and not is_running(sid):  # a run going: at a sweep after it
                out.append(sid)
        return out

    def live(self, kept: list[str]) -> int:
        """How many of the sessions Streamlit keeps (`kept`) have not ended for the app (a session
        emptied after its grace counts as gone, whatever Streamlit keeps of it)."""
        with self._lock:
            self._ended &= set(kept)
            return sum(1 for sid in kept if sid not in self._ended)

    def forget(self, session_id: str) -> bool:
        """Empty the session's state (every key and widget value) and drop its uploaded files;
        True when there was a state to empty."""
        with self._lock:
            state = self._states.pop(session_id, None)
            self._gone_since.pop(session_id, None)
            self._ended.add(session_id)
        if state is not None:
            # no script of the session runs (`ended` leaves out a session with a run going)
            _end_own_tokenizers(state)
            state.clear()
            _clear_widget_metadata(state)
        runtime = _runtime()
        if runtime is not None:
            runtime.uploaded_file_mgr.remove_session_files(session_id)
        return state is not None
