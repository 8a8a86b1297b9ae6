"""A user's own tokenizers kept across a reload (ui/saved_work.py), headless.

AppTest runs no JavaScript: each test reads what the app gives the browser's component (the
entry it keeps) and hands a new session what the component sends back (`SavedWork`)."""

from __future__ import annotations

import base64
import json
import zlib

import pytest
import tiktoken
from streamlit.testing.v1 import AppTest
from tiktoken.load import load_tiktoken_bpe
from tiktoken_ext.openai_public import r50k_pat_str

from tokenizer_core.saved_work import FORMAT, VERSION, unpack_tokenizer
from tokenizer_core.tokenizers import is_own_id, registry

VOCAB = registry.DATA_DIR / "r50k_base.tiktoken"  # GPT-2's own file: tiktoken's gpt2 counts it
TEXT = "The quick brown fox jumps over the lazy dog. It's 3.14159, isn't it?\n\tdef f(x): return x"


class _File:
    def __init__(self, name: str, data: bytes) -> None:
        self.name, self.file_id, self._data = name, name, data

    def getvalue(self) -> bytes:
        return self._data


def _session() -> None:
    """The sidebar's add path, the session's saved work, and the page's tokenizer list."""
    import streamlit as st

    from ui.saved_work import restore_saved_work
    from ui.state import session_tokenizers
    from ui.widgets import (
        _add_custom,
        _remove_own,
        add_own_tokenizer,
        custom_tokenizer_sidebar,
        tokenizer_select,
    )

    if st.session_state.pop("add", False):
        _add_custom("tiktoken")
    if rm := st.session_state.pop("remove", None):
        _remove_own(rm)
    restore_saved_work(add_own_tokenizer)
    custom_tokenizer_sidebar()
    tokenizer_select("workspace_tokenizers")
    for tok in session_tokenizers().values():
        st.write(f"{tok.id} counts {tok.count(st.session_state['text'])}")


def _component_data(at) -> dict:
    for el in at.get("bidi_component"):
        if el.proto.component_name.endswith("tw_saved_work"):
            which = el.proto.WhichOneof("data")
            data = json.loads(el.proto.json if which == "json" else el.proto.mixed.json)
            if "stage" in data:
                return data
    raise AssertionError("no saved-work component")


def _new() -> AppTest:
    at = AppTest.from_function(_session, default_timeout=120)
    at.session_state["workspace_tokenizers"] = ["o200k_base"]
    at.session_state["text"] = TEXT
    return at


def _reloaded(own: dict[str, str], page_work: dict | None = None, *, server_copy: bool = True) -> AppTest:
    """A new session whose browser answered: it keeps the tokenizers `own` (id -> name) and the
    workspace's `page_work`. `server_copy`: the server still has their files."""
    from ui import saved_work

    if not server_copy:
        saved_work._FILES.clear()
    at = _new()
    pages = {
        "workspace": json.dumps(
            {"format": FORMAT, "version": VERSION, "page": "workspace", "values": page_work}
        )
    }
    work = saved_work.SavedWork(stage="files", own=dict(own), saved=pages if page_work else {})
    at.session_state["saved_work"] = work
    return at


def _go(at: AppTest) -> AppTest:
    """The browser's "go": the run that draws the page."""
    at.session_state["saved_work"].stage = "done"
    return _ok(at.run())


def _ok(at: AppTest) -> AppTest:
    assert not at.exception, at.exception
    return at


@pytest.fixture(scope="module")
def added() -> tuple[str, dict]:
    """One session adds GPT-2's file with its own pattern and the name "my gpt2": the id it gets
    and the entry the browser is given to keep."""
    at = _new()
    at.session_state["custom_tok_file"] = _File("r50k_base.tiktoken", VOCAB.read_bytes())
    at.session_state["custom_tok_name"] = "my gpt2"
    at.session_state["custom_tok_pattern"] = "r50k"
    at.session_state["add"] = True
    at = _ok(at.run())
    tid = _only_own(at)
    (entry,) = _component_data(at)["put"]
    return tid, entry


def _only_own(at) -> str:
    ids = [line.value.split()[0] for line in at.markdown if " counts " in line.value]
    assert len(ids) == 1, ids
    return ids[0]


def _counts(at) -> dict[str, int]:
    return {m.value.split()[0]: int(m.value.split()[-1]) for m in at.markdown if " counts " in m.value}


def test_an_added_tokenizer_is_given_to_the_browser_with_its_file_and_settings(added):
    tid, entry = added
    assert is_own_id(tid) and entry["id"] == tid
    kept, problem = unpack_tokenizer(entry)
    assert problem is None
    assert kept.data == VOCAB.read_bytes()  # the file itself, compressed for the browser
    assert (kept.kind, kept.file_name, kept.name, kept.pattern_id) == (
        "tiktoken",
        "r50k_base.tiktoken",
        "my gpt2",
        "r50k",
    )
    assert len(json.dumps(entry)) < len(VOCAB.read_bytes())  # compressed, even as base64


def test_a_new_session_adds_it_again_from_the_servers_copy_with_the_same_id_and_counts(added):
    """The page's saved work chose the tokenizer: the page draws only once it is back, chosen,
    counting as GPT-2 does, and the browser sent no file (the server kept one by its id)."""
    tid, _ = added
    at = _reloaded({tid: "my gpt2"}, {"workspace_tokenizers": ["o200k_base", tid]})
    at = _ok(at.run())
    assert _component_data(at)["need"] == [] and not at.multiselect
    at = _go(at)
    gpt2 = tiktoken.Encoding(
        "gpt2", pat_str=r50k_pat_str, mergeable_ranks=load_tiktoken_bpe(str(VOCAB)), special_tokens={}
    )  # tiktoken's own GPT-2, over the same file
    assert _counts(at) == {tid: len(gpt2.encode(TEXT))}
    assert at.multiselect(key="workspace_tokenizers").value == ["o200k_base", tid]
    assert "my gpt2" in " ".join(t.value for t in at.text)  # under its own name in the sidebar


def test_the_browser_sends_the_file_only_when_the_server_no_longer_has_it(added):
    from ui.saved_work import take_file

    tid, entry = added
    at = _reloaded({tid: "my gpt2"}, {"workspace_tokenizers": ["o200k_base", tid]}, server_copy=False)
    at = _ok(at.run())
    assert _component_data(at)["need"] == [tid] and not at.multiselect  # asked for, the page waits
    take_file(at.session_state["saved_work"], {"id": tid, "entry": entry})  # the browser's answer
    at = _ok(at.run())
    assert _component_data(at)["need"] == []
    at = _go(at)
    assert list(_counts(at)) == [tid]
    assert at.multiselect(key="workspace_tokenizers").value == ["o200k_base", tid]


def test_a_choice_naming_a_tokenizer_that_never_comes_keeps_the_ones_that_came(added):
    """The workspace chose GPT-2's file and another of the user's own tokenizers that this browser
    did not keep (too large, say): GPT-2's is chosen again, the other left out."""
    tid, _ = added
    never = "custom-0123456789abcdef"
    at = _reloaded({tid: "my gpt2"}, {"workspace_tokenizers": ["o200k_base", never, tid]})
    at = _go(_ok(at.run()))
    assert at.multiselect(key="workspace_tokenizers").value == ["o200k_base", tid]
    at.multiselect(key="workspace_tokenizers").set_value([tid])  # the user's change stands
    at = _ok(at.run())
    at = _ok(at.run())
    assert at.multiselect(key="workspace_tokenizers").value == [tid]


@pytest.mark.parametrize(
    "entry",
    [
        pytest.param("not a dict", id="not-an-object"),
        pytest.param({"id": "custom-0123456789abcdef", "kind": "tiktoken"}, id="fields-missing"),
        pytest.param({"kind": "exe"}, id="wrong-kind"),
        pytest.param("base64-damaged", id="damaged-bytes"),
        pytest.param("zip-bomb", id="inflates-past-the-upload-limit"),
    ],
)
def test_a_damaged_entry_is_skipped_with_a_quiet_note(added, entry):
    tid, good = added
    if entry == "base64-damaged":
        entry = dict(good, data="%%%" + good["data"][3:])
    elif entry == "zip-bomb":
        entry = dict(good, data=base64.b64encode(zlib.compress(b"\0" * 61_000_000, 9)).decode())
    elif isinstance(entry, dict):
        entry = dict(entry, id=entry.get("id", tid))
    from ui.saved_work import take_file

    at = _ok(_reloaded({tid: "my gpt2"}, server_copy=False).run())
    take_file(at.session_state["saved_work"], {"id": tid, "entry": entry})
    at = _go(_ok(at.run()))
    assert _counts(at) == {}
    notes = " ".join(t.value for t in at.toast)
    assert "not added again" in notes and "Traceback" not in notes


def test_a_file_that_no_longer_adds_says_so_in_words(added):
    tid, good = added
    from ui.saved_work import take_file

    junk = dict(good, data=base64.b64encode(zlib.compress(b"not a vocabulary\n")).decode())
    at = _ok(_reloaded({tid: "my gpt2"}, server_copy=False).run())
    take_file(at.session_state["saved_work"], {"id": tid, "entry": junk})
    at = _go(_ok(at.run()))
    assert _counts(at) == {}
    (note,) = [t.value for t in at.toast]
    assert note.startswith("Your tokenizer my gpt2 was kept in this browser but could not be added again: ")


def test_removing_it_removes_it_from_the_browser(added):
    tid, _ = added
    at = _go(_ok(_reloaded({tid: "my gpt2"}).run()))
    at.session_state["remove"] = tid
    at = _ok(at.run())
    assert _counts(at) == {}
    assert _component_data(at)["drop"] == [tid]


def test_a_file_too_large_to_keep_is_named_in_the_sidebar(monkeypatch):
    import tokenizer_core.saved_work as saved_work

    monkeypatch.setattr(saved_work, "MAX_KEPT_FILE", 1_000)
    at = _new()
    at.session_state["custom_tok_file"] = _File("r50k_base.tiktoken", VOCAB.read_bytes())
    at.session_state["custom_tok_pattern"] = "r50k"
    at.session_state["add"] = True
    at = _ok(at.run())
    assert _component_data(at)["put"] == []
    assert any(
        "Not kept in this browser: **r50k\\_base\\.tiktoken** (larger than" in c.value
        and "Add it again after a reload" in c.value
        for c in at.caption
    )


def test_every_run_asks_the_browser_for_what_it_kept_with_the_sessions_mark():
    """Until the answer is here (a run cut short by the next never reaches the browser, and an
    answer can be lost: the browser sends it again while the stage is the same). A new session
    has a new mark."""
    from ui.saved_work import SavedWork

    at = _new()
    at.session_state["saved_work"] = SavedWork()
    at = _ok(at.run())
    data = _component_data(at)
    assert data["stage"] == "asking" and isinstance(data["mark"], str) and len(data["mark"]) >= 8
    at = _ok(at.run())
    assert _component_data(at)["stage"] == "asking" and _component_data(at)["mark"] == data["mark"]
    other = _new()
    other.session_state["saved_work"] = SavedWork()
    assert _component_data(_ok(other.run()))["mark"] != data["mark"]


def _busy_for(monkeypatch, times: int) -> list[int]:
    """The server cannot start a process for the next `times` tokenizers (as when it is out of
    memory or of process slots for a moment: `Process.start` raises OSError); returns how many
    starts were tried."""
    import multiprocessing as mp

    import tokenizer_core.hosted as hosted

    tried = [0]
    real = mp.get_context

    def get_context(method=None):
        ctx = real(method)

        class Context:
            def __getattr__(self, name):
                return getattr(ctx, name)

            def Process(self, *args, **kwargs):  # noqa: N802  (multiprocessing's name)
                proc = ctx.Process(*args, **kwargs)

                def busy_start():
                    tried[0] += 1
                    if tried[0] <= times:
                        raise OSError(11, "Resource temporarily unavailable")
                    del proc.start  # the process object is pickled for the child: its own start
                    proc.start()

                proc.start = busy_start
                return proc

        return Context()

    monkeypatch.setattr(hosted.mp, "get_context", get_context)
    return tried


def test_a_tokenizer_the_server_was_too_busy_to_add_is_tried_again(added, monkeypatch):
    """A second later, in the same run (no note meanwhile)."""
    tid, _ = added
    tried = _busy_for(monkeypatch, 1)
    at = _go(_ok(_reloaded({tid: "my gpt2"}).run()))
    assert tried == [2] and list(_counts(at)) == [tid] and not at.toast


def test_a_tokenizer_the_server_stays_too_busy_to_add_says_so_after_the_last_try(added, monkeypatch):
    from ui.saved_work import TRIES

    tid, _ = added
    tried = _busy_for(monkeypatch, 99)
    at = _go(_ok(_reloaded({tid: "my gpt2"}).run()))
    assert tried == [TRIES] and _counts(at) == {}
    (note,) = [t.value for t in at.toast]
    assert note == (
        "Your tokenizer my gpt2 was kept in this browser but could not be added again: the server "
        "could not start a process for it; try again in a minute"
    )
