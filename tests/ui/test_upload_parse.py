"""An uploaded tokenizer is never parsed, built or run in the server's process (issue #31: parsing
a 60 MB tokenizer.json there stretched every other user's rerun from 0.3 s to 2.2 s, and the
built tokenizer, about 1 GB, lived in the server's memory): it lives in a process of its own.
Through the sidebar's real uploader, a spy on this process sees no `tokenizers.Tokenizer.from_str`
and no parse of `.tiktoken` ranks, and the tokenizer the session gets counts as the file says;
removing it ends its process."""

from __future__ import annotations

import pytest
import tokenizers
from streamlit.testing.v1 import AppTest

import tokenizer_core.tokenizers.known_vocab as known_vocab
import tokenizer_core.tokenizers.uploads as uploads
import tokenizer_core.tokenizers.vocab as vocab
from bench.bench_memory import big_tokenizer_json
from tests.helpers.processes import alive
from tokenizer_core.tokenizers import load_builtin, registry
from ui.state import MAX_OWN_TOKENIZERS

TEXT = "The quick brown fox jumps over the lazy dog. It's 3.14159, isn't it?"


class _SpyTokenizer:
    """Stands for `tokenizers.Tokenizer` in this process: notes each `from_str`."""

    def __init__(self, real: type, calls: list[str]) -> None:
        self._real, self._calls = real, calls

    def from_str(self, text: str):
        self._calls.append(f"from_str {len(text):,}")
        return self._real.from_str(text)

    def __getattr__(self, name: str):
        return getattr(self._real, name)


@pytest.fixture
def parsed_here(monkeypatch) -> list[str]:
    """Each parse of an uploaded file in this (the server's) process."""
    calls: list[str] = []
    monkeypatch.setattr(tokenizers, "Tokenizer", _SpyTokenizer(tokenizers.Tokenizer, calls))
    real_parse = vocab.parse_tiktoken

    def parse(data: bytes):
        calls.append(f"parse_tiktoken {len(data):,}")
        return real_parse(data)

    monkeypatch.setattr(uploads, "parse_tiktoken", parse)
    monkeypatch.setattr(known_vocab, "parse_tiktoken", parse)  # telling which vocabulary it is
    real_encoding = uploads.tiktoken_encoding

    def encoding(*args, **kwargs):
        calls.append("tiktoken_encoding")
        return real_encoding(*args, **kwargs)

    monkeypatch.setattr(uploads, "tiktoken_encoding", encoding)
    return calls


def _page() -> None:
    import streamlit as st

    from ui.state import remove_session_tokenizer, session_tokenizers
    from ui.widgets import custom_tokenizer_sidebar

    custom_tokenizer_sidebar()
    for tid, tok in list(session_tokenizers().items()):
        st.write(f"tokens: {tok.count(st.session_state.get('text', ''))}")
        if st.session_state.get("remove"):
            remove_session_tokenizer(tid)


def _add(at: AppTest, kind: str, name: str, data: bytes, **settings: str) -> AppTest:
    at.radio(key="custom_tok_kind").set_value(kind).run()
    at.file_uploader(key="custom_tok_file").upload(name, data)
    at.run()
    for key, value in settings.items():
        at.selectbox(key=key).set_value(value)
    at.button(key="custom_tok_add").click().run()
    return at


def _app() -> AppTest:
    at = AppTest.from_function(_page, default_timeout=300)
    at.session_state["text"] = TEXT
    return at.run()


def _close_all(at: AppTest) -> None:
    for tok in at.session_state["session_tokenizers"].values():
        tok.close()


def test_a_large_tokenizer_json_is_never_parsed_here_and_counts_as_the_file_says(parsed_here):
    data = big_tokenizer_json(3_000_000)
    at = _add(_app(), "hf", "big.json", data)
    assert not at.exception and not at.error, (at.exception, at.error)
    assert parsed_here == []  # the parse, the checks and the tokenizer are in another process
    real = tokenizers.Tokenizer._real  # type: ignore[attr-defined]
    reference = len(real.from_str(data.decode()).encode(TEXT, add_special_tokens=False).ids)
    assert [m.value for m in at.markdown if m.value.startswith("tokens")] == [f"tokens: {reference}"]
    _close_all(at)


def test_a_small_tokenizer_json_and_a_tiktoken_file_are_never_parsed_here(parsed_here):
    at = _app()
    _add(at, "hf", "small.json", big_tokenizer_json(50_000))
    data = (registry.DATA_DIR / "r50k_base.tiktoken").read_bytes() + b"\n"  # not the published bytes
    _add(at, "tiktoken", "mine.tiktoken", data, custom_tok_pattern="r50k")
    # told, from a worker, which vocabulary it is (its ranks are r50k_base's)
    assert "This file is the **r50k\\_base" in " ".join(i.value for i in at.info)
    assert not at.exception and not at.error, (at.exception, at.error)
    assert parsed_here == []
    assert len(at.session_state["session_tokenizers"]) == 2
    builtin = load_builtin("r50k_base").count(TEXT)  # the same vocabulary and pattern, built in
    assert [m.value for m in at.markdown if m.value.startswith("tokens")][1] == f"tokens: {builtin}"
    _close_all(at)


def test_a_bad_large_tokenizer_json_is_refused_with_a_sentence(parsed_here):
    data = big_tokenizer_json(3_000_000).replace(b'"type": "BPE"', b'"type": "NoSuchModel"', 1)
    at = _add(_app(), "hf", "big.json", data)
    assert not at.exception
    assert parsed_here == []
    [error] = at.error
    said = error.value.replace("\\", "")  # markdown escapes
    assert said.startswith('big.json: not a usable Hugging Face tokenizer.json: its "model" section')
    assert "Traceback" not in said and "tokenizer_core" not in said


def test_removing_a_tokenizer_ends_its_process():
    at = _add(_app(), "hf", "small.json", big_tokenizer_json(50_000))
    [pid] = [t.pid for t in at.session_state["session_tokenizers"].values()]
    assert alive(pid)
    at.session_state["remove"] = True
    at.run()
    assert not at.session_state["session_tokenizers"]
    assert not alive(pid)


def test_a_session_has_at_most_so_many_own_tokenizers():
    at = _app()
    for i in range(MAX_OWN_TOKENIZERS + 1):
        _add(at, "hf", f"t{i}.json", big_tokenizer_json(20_000, seed=i))
    assert len(at.session_state["session_tokenizers"]) == MAX_OWN_TOKENIZERS
    [error] = at.error
    assert f"already have {MAX_OWN_TOKENIZERS} of your own tokenizers" in error.value
    _close_all(at)


def test_a_session_that_ends_has_its_tokenizers_processes_ended():
    from streamlit.runtime.state.session_state import SessionState

    from tokenizer_core.hosted import HostedTokenizer
    from ui.sessions import SessionStates

    tok = HostedTokenizer("hf", big_tokenizer_json(50_000), name="left behind")
    pid = tok.pid
    assert pid is not None and alive(pid)
    state = SessionState()
    state["session_tokenizers"] = {tok.id: tok}
    states = SessionStates()
    states._states["gone"] = state  # as `note` keeps it for a session that ran a script
    held = tok  # noqa: F841  (whatever else still holds the tokenizer, its process ends)
    assert states.forget("gone")
    assert not alive(pid)


def test_an_ended_session_keeps_nothing_its_widgets_closed_over():
    """`SessionState.clear` keeps the widgets' metadata, whose callbacks close over the page's
    values: forgetting a session drops them too, so a set dropped on the Datasets page goes."""
    import gc
    import weakref

    from streamlit.runtime.state.common import WidgetMetadata
    from streamlit.runtime.state.session_state import SessionState

    from ui.sessions import SessionStates

    class Dropped:
        data = b"x" * 1_000

    dropped = Dropped()
    gone = weakref.ref(dropped)
    state = SessionState()
    meta = WidgetMetadata(
        "$$ID-shape", lambda v: v, lambda v: v, "string_value", callback=lambda held=dropped: held.data
    )  # a widget whose callback closes over the dropped set
    state._new_widget_state.widget_metadata["$$ID-shape"] = meta
    del dropped, meta
    states = SessionStates()
    states._states["gone"] = state
    assert states.forget("gone")
    gc.collect()
    assert gone() is None


def test_a_file_being_read_is_read_once_when_the_next_run_asks_too(monkeypatch):
    """A rerun that comes while a worker reads an upload starts the next run beside the one that
    asked (Streamlit's fast reruns); that run waits for the same reading instead of sending the
    file (15 MB, say) to a worker again. Two runs as two threads, the reading held until both ask."""
    import threading

    import ui.widgets as widgets

    asked, release, reads = threading.Barrier(2), threading.Event(), []

    def slow_read(fn, data):
        reads.append(len(data))
        release.wait(10)
        return fn(data)

    class Upload:
        def getvalue(self) -> bytes:
            return registry.DATA_DIR.joinpath("r50k_base.tiktoken").read_bytes()

    monkeypatch.setattr(widgets, "run_in_worker", slow_read)
    found: list[object] = []

    def run() -> None:
        asked.wait(10)
        found.append(widgets._identity("upload-7f3a", Upload()))

    runs = [threading.Thread(target=run) for _ in range(2)]
    for t in runs:
        t.start()
    threading.Timer(1.0, release.set).start()  # both runs have asked by then
    for t in runs:
        t.join(20)
    assert len(reads) == 1
    assert [(k.pattern_id, k.exact) for k in found] == [("r50k", True)] * 2  # type: ignore[attr-defined]
