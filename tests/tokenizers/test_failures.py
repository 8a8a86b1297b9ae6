"""A user's tokenizer that breaks inside its engine never stops a page.

A tokenizer.json whose pre-tokenizer `Split` regex is `(\\w+\\s?)*$` loads, encodes "hello
world", then panics in the regex engine on ordinary text (`PanicException`, a BaseException
that `except Exception` and Streamlit's script runner do not catch).
"""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import ENTRY, shown_counts
from tests.picker_helpers import choose
from tests.tokenizers.test_encoders import _hf_json
from tokenizer_core import TokenizerFailed, VocabularyError, tokenizer_from_hf_json
from tokenizer_core.tokenizers import HFTokenizer, TokenizerInfo

BAD_TEXT = "word " * 40 + "!"
NAME = "ALICE-SECRET-BPE **bold** [x](https://evil.example)"


def _panicky_json() -> bytes:
    d = json.loads(_hf_json())
    split = {"type": "Split", "pattern": {"Regex": r"(\w+\s?)*$"}, "behavior": "Isolated", "invert": False}
    d["pre_tokenizer"] = {"type": "Sequence", "pretokenizers": [split, d["pre_tokenizer"]]}
    return json.dumps(d).encode()


def _panicky() -> HFTokenizer:
    """The crafted file as a tokenizer, as it was before the upload check learned to refuse it."""
    import tokenizers

    tk = tokenizers.Tokenizer.from_str(_panicky_json().decode())
    info = TokenizerInfo("custom-panicky", NAME, "Custom (tokenizer.json, BPE)", (), 400, "test", "test")
    return HFTokenizer(info, tk)


def test_the_engine_really_panics_with_a_base_exception():
    import tokenizers

    tk = tokenizers.Tokenizer.from_str(_panicky_json().decode())
    assert tk.encode("hello world").ids  # the old upload check passed
    with pytest.raises(BaseException) as info:
        tk.encode(BAD_TEXT)
    assert not isinstance(info.value, Exception)


def test_upload_refuses_a_tokenizer_json_that_panics_on_ordinary_text():
    with pytest.raises(VocabularyError, match="regular expression gives up"):
        tokenizer_from_hf_json(_panicky_json(), name="x")


def test_every_call_turns_a_panic_into_a_normal_exception_with_a_clear_message():
    tok = _panicky()
    assert tok.encode("hello world")  # ordinary short text still works
    for call in (tok.encode, tok.count, tok.segments, lambda t: tok.count_many([t])):
        with pytest.raises(TokenizerFailed) as info:
            call(BAD_TEXT)
        assert info.value.tokenizer_id == "custom-panicky"
        assert "regular expression gives up on this text" in info.value.problem
    assert tok.encode("hello world")  # and keeps working afterwards


def _session(page: str, tokenizer_key: str) -> AppTest:
    import streamlit as st

    st.cache_data.clear()
    bad = _panicky()
    at = AppTest.from_file(ENTRY, default_timeout=60)
    at.session_state["session_tokenizers"] = {bad.id: bad}
    at.run()
    if page != "counter":
        at.switch_page(f"app_pages/{page}.py").run()
    assert not at.exception, at.exception
    return at


def _errors(at: AppTest) -> str:
    return "\n".join(e.value for e in at.error).replace("\\", "")


@pytest.mark.parametrize("page, text_key, tokenizer_key", [
    ("counter", "workspace_text", "workspace_tokenizers"),
    ("identifiers", "identifiers_text", "identifiers_tokenizers"),
])  # fmt: skip
def test_two_tokenizers_selected_the_broken_one_gets_a_message_the_other_counts(
    page, text_key, tokenizer_key
):
    at = _session(page, tokenizer_key)
    code = f"def f():\n    return '{BAD_TEXT}'\n"
    if page == "counter":  # the counter's box is a live component: its text lives in session state
        at.session_state[text_key] = code
        at.run()
    else:
        at.text_area(key=text_key).input(code).run()
    choose(at, tokenizer_key, ["o200k_base", "custom-panicky"])
    assert not at.exception, at.exception
    errors = _errors(at)
    assert NAME.replace("\\", "") in errors.replace("\u2060", "") and "gives up on this text" in errors
    labels = list(shown_counts(at))
    assert any(label.startswith("o200k") for label in labels)  # the other tokenizer still counts
    assert not any("ALICE" in label for label in labels)


def test_languages_page_keeps_the_other_tokenizers():
    at = _session("languages", "languages_tokenizers")
    at.multiselect(key="languages_tokenizers").set_value(["o200k_base", "custom-panicky"]).run()
    assert not at.exception, at.exception
    errors = _errors(at)
    assert "gives up on this text" in errors
    assert [m.label for m in at.metric] == ["o200k\\_base"]


def test_chunks_page_says_what_is_wrong():
    at = _session("chunks", "chunks_tokenizer")
    at.text_area(key="chunks_text").input(BAD_TEXT).run()
    select = at.selectbox(key="chunks_tokenizer")
    select.select_index(select.options.index(f"{NAME} (yours)")).run()
    assert not at.exception, at.exception
    assert "gives up on this text" in _errors(at)


@pytest.mark.parametrize("setting", ["1", "full"])
def test_a_panic_puts_its_message_in_the_log_without_a_backtrace(setting):
    # issue #31: with RUST_BACKTRACE set, each failing regex printed a 40-line backtrace
    import os
    import subprocess
    import sys
    from pathlib import Path

    script = (
        "from tests.tokenizers.test_failures import BAD_TEXT, _panicky\n"
        "from tokenizer_core import TokenizerFailed\n"
        "tok = _panicky()\n"
        "for _ in range(3):\n"
        "    try:\n"
        "        tok.count(BAD_TEXT)\n"
        "    except TokenizerFailed:\n"
        "        pass\n"
    )
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "RUST_BACKTRACE": setting}
    out = subprocess.run([sys.executable, "-c", script], cwd=root, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    lines = [line for line in out.stderr.splitlines() if line.strip()]
    assert "stack backtrace" not in out.stderr
    assert sum("retry-limit-in-match" in line for line in lines) == 3  # each panic is still told
    assert len(lines) <= 3 * 2 + 1  # "panicked at ...", the message; one note the first time
