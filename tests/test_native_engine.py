"""The native engine (quicktok) used for large texts gives exactly tiktoken's ids, or is not used."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import builtin
from tokenizer_core import load_builtin, load_sample
from tokenizer_core.encoders import NATIVE_MIN_CHARS

NATIVE_IDS = ["o200k_base", "cl100k_base", "llama3", "qwen"]
PIECES = ["a", "Z", " ", "  ", "\n", "\r\n", "\t", "1", "234", "'s", "don't", "<|endoftext|>", "é", "e\u0301",
          "😀", "👨\u200d👩\u200d👧", "नमस्ते", "你好", "مرحبا", ".", "!?", "\u200b", "\x00", "ǅ", "ſ"]  # fmt: skip
texts = st.lists(st.sampled_from(PIECES) | st.characters(), max_size=60).map("".join) | st.text(max_size=120)


@pytest.mark.parametrize("tid", NATIVE_IDS)
def test_every_quicktok_vocabulary_gets_its_native_engine(tid):
    assert builtin(tid).native is not None


@settings(max_examples=300)
@given(text=texts)
def test_native_ids_equal_tiktoken_on_any_text(text):
    for tid in NATIVE_IDS:
        tok = builtin(tid)
        prepared = tok._prepare(text)
        assert list(tok.native.encode_ordinary(prepared)) == tok.encoding.encode_ordinary(prepared), tid
        assert [a.tolist() for a in tok.ordinary_id_arrays([prepared])] == [tok.encoding.encode_ordinary(prepared)]


def _large_text() -> str:
    base = load_sample("mixed") + "\n" + load_sample("python") + "\n" + load_sample("json")
    return (base * (NATIVE_MIN_CHARS // len(base) + 2))[: NATIVE_MIN_CHARS + 12_345]


@pytest.mark.parametrize("tid", NATIVE_IDS)
def test_large_counts_equal_tiktoken(tid):
    tok = builtin(tid)
    text = _large_text()
    expected = len(tok.encoding.encode_ordinary(tok._prepare(text)))
    assert tok.count(text) == expected
    assert tok.count_many([text, "hello world", ""]) == [expected, len(tok.encode("hello world")), 0]
    if tid == "qwen":
        assert tok.count(unicodedata.normalize("NFD", text)) == expected  # NFC first, as Qwen does


def test_special_tokens_in_large_texts_still_use_tiktoken():
    tok = builtin("o200k_base")
    text = _large_text() + "<|endoftext|>"
    assert tok.count(text, allow_special=True) == len(tok.encoding.encode(text, allowed_special="all"))
    assert tok.count(text) == len(tok.encoding.encode_ordinary(text))


def test_an_engine_that_disagrees_is_never_used():
    tok = load_builtin("cl100k_base")

    class Wrong:
        def encode_ordinary(self, text):
            return [1, 2, 3]

    tok._native_loader = Wrong
    assert tok.native is None
    text = _large_text()
    assert tok.count(text) == len(tok.encoding.encode_ordinary(text))


def test_an_engine_that_fails_to_load_is_never_used():
    tok = load_builtin("llama3")

    def broken():
        raise OSError("quicktok data missing")

    tok._native_loader = broken
    assert tok.native is None
    assert tok.count(_large_text()) == len(tok.encoding.encode_ordinary(_large_text()))
