"""The server gives memory back once sessions have left: no drop in the session count is
skipped, and with nobody left the results kept for sharing go too."""

from __future__ import annotations

import types

import pytest
import streamlit as st

import ui.jobs
from tokenizer_core.saved_work import KeptTokenizer
from ui import saved_work


class FakeRuntime:
    sessions = 0

    @classmethod
    def exists(cls) -> bool:
        return True

    @classmethod
    def instance(cls):
        return types.SimpleNamespace(
            _session_mgr=types.SimpleNamespace(num_sessions=lambda: cls.sessions),
            is_active_session=lambda sid: False,
        )


@pytest.fixture
def trims(monkeypatch):
    import streamlit.runtime

    calls: list[int] = []
    monkeypatch.setattr(streamlit.runtime, "Runtime", FakeRuntime)
    monkeypatch.setattr(st.cache_data, "clear", lambda: calls.append(-1))  # cached results dropped
    monkeypatch.setattr(ui.jobs, "_trim_heap", lambda: calls.append(FakeRuntime.sessions))
    return calls


def _at(watch, now: float, sessions: int) -> None:
    FakeRuntime.sessions = sessions
    watch.check(now)


def test_every_session_leaving_gives_memory_back_even_when_they_leave_close_together(trims):
    watch = ui.jobs._SessionWatch()
    _at(watch, 1000.0, 5)
    _at(watch, 1002.0, 3)  # two left: memory back
    _at(watch, 1004.0, 0)  # the rest left 2 s later (within the 10 s between two trims)
    _at(watch, 1006.0, 0)
    _at(watch, 1020.0, 0)  # still nobody: the last departures are not forgotten
    assert trims == [3, -1, 0]  # with nobody left, the cached results went too
    _at(watch, 1040.0, 0)
    assert trims == [3, -1, 0]  # nothing new left: no more work


def test_with_nobody_left_the_shared_results_are_emptied(trims):
    store = ui.jobs.shared_results()
    store.put(("chunks", "digest"), ["a big result"], 10)
    watch = ui.jobs._SessionWatch()
    _at(watch, 2000.0, 2)
    _at(watch, 2020.0, 1)
    assert store.get(("chunks", "digest")) is not None  # someone is still here
    _at(watch, 2040.0, 0)
    assert store.get(("chunks", "digest")) is None and trims == [1, -1, 0]


def test_with_nobody_left_the_copies_of_own_tokenizers_files_go(trims):
    """The server's copy of an own tokenizer's file spares the browser sending it on a reload;
    with nobody left it goes, and a browser that comes back sends its file again."""
    tid = "custom-0123456789abcdef"
    saved_work._file(tid, KeptTokenizer(tid, "hf", b"{}", "t.json", "", "o200k"))
    watch = ui.jobs._SessionWatch()
    _at(watch, 3000.0, 1)
    _at(watch, 3020.0, 1)
    assert saved_work._file(tid) is not None  # the session may reload
    _at(watch, 3040.0, 0)
    assert saved_work._file(tid) is None


class KeepingRuntime:
    """A runtime that lists its sessions: Streamlit keeps a closed tab's session for its TTL."""

    kept: list[str] = []
    connected: set[str] = set()
    files_dropped: list[str] = []

    @classmethod
    def exists(cls) -> bool:
        return True

    @classmethod
    def instance(cls):
        info = [types.SimpleNamespace(session=types.SimpleNamespace(id=s)) for s in cls.kept]
        return types.SimpleNamespace(
            _session_mgr=types.SimpleNamespace(
                num_sessions=lambda: len(cls.kept), list_sessions=lambda: info
            ),
            is_active_session=lambda sid: sid in cls.connected,
            uploaded_file_mgr=types.SimpleNamespace(remove_session_files=cls.files_dropped.append),
        )


def test_sessions_emptied_after_their_grace_count_as_gone_while_streamlit_still_keeps_them(monkeypatch):
    """The shared caches go once the last session's state was emptied (its grace, 20 s), not when
    Streamlit drops the session object (its TTL, 120 s)."""
    import time

    import streamlit.runtime

    calls: list[str] = []
    monkeypatch.setattr(streamlit.runtime, "Runtime", KeepingRuntime)
    monkeypatch.setattr(st.cache_data, "clear", lambda: calls.append("caches"))
    monkeypatch.setattr(ui.jobs, "_trim_heap", lambda: calls.append("trim"))
    KeepingRuntime.kept, KeepingRuntime.connected = ["a", "b"], {"a", "b"}
    watch = ui.jobs._SessionWatch()
    watch.states._states.update(a={"datasets_data": b"x" * 100}, b={"text": "y"})
    t = time.monotonic()
    watch.check(t)
    KeepingRuntime.connected = set()  # both tabs closed; Streamlit keeps both sessions
    watch.check(t + 2)
    watch.check(t + 15)
    assert calls == []  # within the grace: a network blip must not cost them their work
    watch.check(t + 30)
    assert watch.states.known() == [] and KeepingRuntime.kept == ["a", "b"]
    assert calls == ["caches", "trim"]  # nobody left for the app: caches emptied, memory back


class RunningRuntime(KeepingRuntime):
    """A runtime whose sessions may have a script run going (`running`)."""

    running: set[str] = set()

    @classmethod
    def instance(cls):
        runtime = super().instance()
        runtime._session_mgr.get_session_info = lambda sid: types.SimpleNamespace(
            session=types.SimpleNamespace(id=sid, _scriptrunner=object() if sid in cls.running else None)
        )
        return runtime


def test_a_session_whose_run_is_still_going_is_emptied_only_after_the_run(monkeypatch):
    """A tab that left can leave its run going; emptying the state under it broke that run (the
    server logged "dictionary changed size during iteration" from st.selectbox)."""
    import time

    import streamlit.runtime

    monkeypatch.setattr(streamlit.runtime, "Runtime", RunningRuntime)
    monkeypatch.setattr(st.cache_data, "clear", lambda: None)
    monkeypatch.setattr(ui.jobs, "_trim_heap", lambda: None)
    RunningRuntime.kept, RunningRuntime.connected, RunningRuntime.running = ["a", "b"], set(), {"a"}
    watch = ui.jobs._SessionWatch()
    a_state, b_state = {"text": "x"}, {"text": "y"}
    watch.states._states.update(a=a_state, b=b_state)
    t = time.monotonic()
    watch.check(t)
    watch.check(t + 30)  # past the grace: b is emptied, a's run still reads its state
    assert watch.states.known() == ["a"] and a_state == {"text": "x"} and b_state == {}
    RunningRuntime.running = set()  # the run ended
    watch.check(t + 32)
    assert watch.states.known() == [] and a_state == {}
