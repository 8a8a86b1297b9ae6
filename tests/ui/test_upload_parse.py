"""A large uploaded tokenizer.json is read and checked in a worker process, not in the server's
interpreter (issue #31: parsing a 60 MB file there stretched every other user's rerun from 0.3 s
to 2.2 s); the tokenizer the session gets counts as the file says, and a bad large file is
refused with the same sentence as before."""

from __future__ import annotations

import pytest
import tokenizers
from streamlit.testing.v1 import AppTest

import ui.widgets
from bench.bench_memory import big_tokenizer_json

TEXT = "The quick brown fox jumps over the lazy dog. It's 3.14159, isn't it?"


def _add_page() -> None:
    import streamlit as st

    from ui.state import session_tokenizers
    from ui.widgets import _add_custom

    if st.session_state.get("add"):
        _add_custom("hf")
    for tok in session_tokenizers().values():
        st.write(f"tokens: {tok.count(st.session_state['text'])}")
    if msg := st.session_state.get("custom_tok_error"):
        st.error(msg)


class _File:
    def __init__(self, name: str, data: bytes) -> None:
        self.name, self.file_id, self._data = name, name, data

    def getvalue(self) -> bytes:
        return self._data


@pytest.fixture
def checked_in_server(monkeypatch) -> list[int]:
    """Each read and check of a tokenizer.json in this (the server's) process."""
    calls: list[int] = []
    real = ui.widgets.tokenizer_from_hf_json

    def noted(data: bytes, *, name: str):
        calls.append(len(data))
        return real(data, name=name)

    monkeypatch.setattr(ui.widgets, "tokenizer_from_hf_json", noted)
    return calls


def _upload(data: bytes) -> AppTest:
    at = AppTest.from_function(_add_page, default_timeout=300)
    at.session_state["custom_tok_file"] = _File("big.json", data)
    at.session_state["custom_tok_name"] = "big"
    at.session_state["text"] = TEXT
    at.session_state["add"] = True
    return at.run()


def test_a_large_tokenizer_json_is_checked_in_a_worker_and_counts_as_the_file_says(checked_in_server):
    data = big_tokenizer_json(3_000_000)
    assert len(data) > ui.widgets.UPLOAD_IN_PROCESS_MAX_BYTES
    at = _upload(data)
    assert not at.exception and not at.error, (at.exception, at.error)
    assert checked_in_server == []  # the heavy check ran elsewhere
    reference = len(tokenizers.Tokenizer.from_str(data.decode()).encode(TEXT, add_special_tokens=False).ids)
    assert [m.value for m in at.markdown] == [f"tokens: {reference}"]


def test_a_bad_large_tokenizer_json_is_refused_with_a_sentence(checked_in_server):
    data = big_tokenizer_json(3_000_000).replace(b'"type": "BPE"', b'"type": "NoSuchModel"', 1)
    at = _upload(data)
    assert not at.exception
    assert checked_in_server == []
    [error] = at.error
    said = error.value.replace("\\", "")  # markdown escapes
    assert said.startswith('big.json: not a usable Hugging Face tokenizer.json: its "model" section')
    assert "Traceback" not in said and "tokenizer_core" not in said
