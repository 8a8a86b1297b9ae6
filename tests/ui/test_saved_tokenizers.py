"""A user's own tokenizers kept in the browser across a reload (ui/saved_tokenizers.py), headless.

AppTest runs no JavaScript: each test reads what the app gives the browser's component (the
entry it keeps) and hands the app what the component sends back in a new session."""

from __future__ import annotations

import base64
import json
import zlib

import pytest
import tiktoken
from streamlit.testing.v1 import AppTest
from tiktoken.load import load_tiktoken_bpe
from tiktoken_ext.openai_public import r50k_pat_str

from tokenizer_core.saved_work import FORMAT, VERSION, is_own_id, unpack_tokenizer
from tokenizer_core.tokenizers import registry

VOCAB = registry.DATA_DIR / "r50k_base.tiktoken"  # GPT-2's own file: tiktoken's gpt2 counts it
TEXT = "The quick brown fox jumps over the lazy dog. It's 3.14159, isn't it?\n\tdef f(x): return x"


class _File:
    def __init__(self, name: str, data: bytes) -> None:
        self.name, self.file_id, self._data = name, name, data

    def getvalue(self) -> bytes:
        return self._data


def _session() -> None:
    """The sidebar's add path and the component, a page's restore, and the page's tokenizer list."""
    import streamlit as st

    from ui.saved_tokenizers import add_back
    from ui.saved_work import restore
    from ui.state import session_tokenizers
    from ui.widgets import (
        _add_custom,
        _remove_own,
        add_own_tokenizer,
        custom_tokenizer_sidebar,
        keep_own_tokenizers,
        tokenizer_select,
    )

    if st.session_state.pop("add", False):
        _add_custom("tiktoken")
    if rm := st.session_state.pop("remove", None):
        _remove_own(rm)
    if raw := st.session_state.pop("page_work", None):
        restore("workspace", raw)
    for back in st.session_state.pop("back", []):
        add_back(back, add_own_tokenizer)
    keep_own_tokenizers()
    custom_tokenizer_sidebar()
    tokenizer_select("workspace_tokenizers")
    for tok in session_tokenizers().values():
        st.write(f"{tok.id} counts {tok.count(st.session_state['text'])}")


def _component_data(at) -> dict:
    for el in at.get("bidi_component"):
        if el.proto.component_name.endswith("tw_own_tokenizers"):
            which = el.proto.WhichOneof("data")
            return json.loads(el.proto.json if which == "json" else el.proto.mixed.json)
    raise AssertionError("no own-tokenizers component")


def _new() -> AppTest:
    at = AppTest.from_function(_session, default_timeout=120)
    at.session_state["workspace_tokenizers"] = ["o200k_base"]
    at.session_state["text"] = TEXT
    return at


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


def test_a_new_session_adds_it_again_with_the_same_id_and_counts_and_the_page_finds_it(added):
    """The page's saved work (restored first) chose the tokenizer; the browser sends the
    tokenizer after: the page's list has it again, and it counts as GPT-2 does."""
    tid, entry = added
    at = _new()
    at.session_state["page_work"] = json.dumps(
        {
            "format": FORMAT,
            "version": VERSION,
            "page": "workspace",
            "values": {"workspace_tokenizers": ["o200k_base", tid]},
        }
    )
    at = _ok(at.run())
    assert at.multiselect(key="workspace_tokenizers").value == ["o200k_base"]  # not here yet
    at.session_state["back"] = [{"key": tid, "entry": entry, "more": 0}]
    at = _ok(at.run())
    gpt2 = tiktoken.Encoding(
        "gpt2", pat_str=r50k_pat_str, mergeable_ranks=load_tiktoken_bpe(str(VOCAB)), special_tokens={}
    )  # tiktoken's own GPT-2, over the same file
    assert _counts(at) == {tid: len(gpt2.encode(TEXT))}
    assert at.multiselect(key="workspace_tokenizers").value == ["o200k_base", tid]
    assert tid in _component_data(at)["got"]  # the browser may send the next one
    assert "my gpt2" in " ".join(t.value for t in at.text)  # under its own name in the sidebar


def test_a_choice_that_names_a_tokenizer_still_to_come_gets_the_ones_here_as_they_come(added):
    """The workspace chose GPT-2's file and another of the user's own tokenizers that this browser
    did not keep (too large, say): GPT-2's comes back, is chosen again at once, and the browser
    is told so (it sends the next one only then). Before: the choice waited for both, for ever."""
    tid, entry = added
    never = "custom-0123456789abcdef"
    at = _new()
    at.session_state["page_work"] = json.dumps(
        {
            "format": FORMAT,
            "version": VERSION,
            "page": "workspace",
            "values": {"workspace_tokenizers": ["o200k_base", never, tid]},
        }
    )
    at = _ok(at.run())
    assert at.multiselect(key="workspace_tokenizers").value == ["o200k_base"]
    at.session_state["back"] = [{"key": tid, "entry": entry, "more": 0}]
    at = _ok(at.run())
    assert at.multiselect(key="workspace_tokenizers").value == ["o200k_base", tid]
    assert tid in _component_data(at)["got"]
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
    at = _new()
    at.session_state["back"] = [{"key": tid, "entry": entry, "more": 0}]
    at = _ok(at.run())
    assert _counts(at) == {}
    notes = " ".join(t.value for t in at.toast)
    assert "not added again" in notes and "Traceback" not in notes


def test_a_file_that_no_longer_adds_says_so_in_words(added):
    tid, good = added
    junk = dict(good, data=base64.b64encode(zlib.compress(b"not a vocabulary\n")).decode())
    at = _new()
    at.session_state["back"] = [{"key": tid, "entry": junk, "more": 0}]
    at = _ok(at.run())
    assert _counts(at) == {}
    (note,) = [t.value for t in at.toast]
    assert note.startswith("Your tokenizer my gpt2 was kept in this browser but could not be added again: ")


def test_removing_it_removes_it_from_the_browser(added):
    tid, entry = added
    at = _new()
    at.session_state["back"] = [{"key": tid, "entry": entry, "more": 0}]
    at = _ok(at.run())
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


def test_every_run_asks_the_browser_for_its_kept_tokenizers_with_the_sessions_mark():
    """Not the first run only: a run cut short by the next never reaches the browser (Streamlit
    drops its messages), and the tokenizers would then never come back. The browser reads once per
    mark; a new session has a new one."""
    at = _ok(_new().run())
    mark = _component_data(at)["load"]
    at = _ok(at.run())
    assert _component_data(at)["load"] == mark and isinstance(mark, str) and len(mark) >= 8
    assert _component_data(_ok(_new().run()))["load"] != mark


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


def test_a_tokenizer_the_server_was_too_busy_to_add_is_tried_again_when_the_browser_sends_it_again(
    added, monkeypatch
):
    """Not noted as here, so the browser sends it again (10 s later), and that try adds it; no
    note meanwhile (before: a toast, and never tried again)."""
    tid, entry = added
    tried = _busy_for(monkeypatch, 1)
    at = _new()
    at.session_state["back"] = [{"key": tid, "entry": entry, "more": 0}]
    at = _ok(at.run())
    assert tried == [1] and _counts(at) == {}
    assert tid not in _component_data(at)["got"] and not at.toast
    at.session_state["back"] = [{"key": tid, "entry": entry, "more": 0}]  # the browser's resend
    at = _ok(at.run())
    assert tried == [2] and list(_counts(at)) == [tid]
    assert tid in _component_data(at)["got"]


def test_a_tokenizer_the_server_stays_too_busy_to_add_says_so_after_the_last_try(added, monkeypatch):
    from ui.saved_tokenizers import TRIES

    tid, entry = added
    tried = _busy_for(monkeypatch, 99)
    at = _new()
    for n in range(1, TRIES + 1):
        at.session_state["back"] = [{"key": tid, "entry": entry, "more": 0}]
        at = _ok(at.run())
        assert tried == [n] and _counts(at) == {}
        assert (tid in _component_data(at)["got"]) == (n == TRIES)  # the browser sends the next one
    (note,) = [t.value for t in at.toast]
    assert note == (
        "Your tokenizer my gpt2 was kept in this browser but could not be added again: the server "
        "could not start a process for it; try again in a minute"
    )
