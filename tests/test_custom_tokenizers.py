"""A user's own tokenizer: a `.tiktoken` file or a Hugging Face `tokenizer.json`."""

from __future__ import annotations

import base64
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenizer_core import (
    VocabularyError,
    tokenizer_from_hf_json,
    tokenizer_from_tiktoken_bytes,
)
from tokenizer_core.tokenizers import registry

R50K_BYTES = (registry.DATA_DIR / "r50k_base.tiktoken").read_bytes()


def test_uploaded_tiktoken_file_works_like_the_builtin():
    tok = tokenizer_from_tiktoken_bytes(R50K_BYTES, name="my gpt2", pattern_id="r50k")
    assert tok.encode("hello world") == [31373, 995]  # the r50k reference ids
    assert tok.info.kind == "custom" and tok.info.name == "my gpt2"
    assert tok.id.startswith("custom-") and tok.info.vocab_size == 50256
    text = "emoji 😀 and <|endoftext|>"
    assert "".join(s.text for s in tok.segments(text)) == text


def test_same_file_and_settings_same_id_anything_else_different_id():
    # the id keys results cached for every session: all that changes the output is in it, no name
    a = tokenizer_from_tiktoken_bytes(R50K_BYTES, name="a", pattern_id="r50k")
    a2 = tokenizer_from_tiktoken_bytes(R50K_BYTES, name="another name", pattern_id="r50k")
    b = tokenizer_from_tiktoken_bytes(R50K_BYTES, name="b", pattern_id="cl100k")
    small = tokenizer_from_tiktoken_bytes(_byte_vocab(extra=[b"ab"]), name="c", pattern_id="r50k")
    assert a.id == a2.id
    assert len({a.id, b.id, small.id}) == 3


def _byte_vocab(extra: list[bytes] = ()) -> bytes:
    tokens = [bytes([i]) for i in range(256)] + list(extra)
    return b"".join(base64.b64encode(t) + b" %d\n" % r for r, t in enumerate(tokens))


@settings(max_examples=40)
@given(text=st.text(max_size=80))
def test_a_minimal_byte_vocabulary_round_trips_any_text(text):
    tok = tokenizer_from_tiktoken_bytes(_byte_vocab([b"ab", b"abc"]), name="tiny", pattern_id="o200k")
    assert tok.decode(tok.encode(text)) == text
    assert "".join(s.text for s in tok.segments(text)) == text


@pytest.mark.parametrize(
    "data, message",
    [
        (b"", "no tokens"),
        (b"not a vocabulary at all\n", "line 1"),
        (b"aGk= x\n", "line 1"),
        (b"%%%% 1\n", "line 1"),
        (base64.b64encode(b"hi") + b" 0\n", "single bytes have no rank"),
        (_byte_vocab() + base64.b64encode(b"zz") + b" 5\n", "share rank 5"),
        (_byte_vocab() + base64.b64encode(b"a") + b" 300\n", "appears twice"),
        (_byte_vocab() + base64.b64encode(b"zz") + b" -3\n", "negative"),
    ],
)
def test_bad_tiktoken_files_get_a_clear_error(data, message):
    with pytest.raises(VocabularyError, match=message):
        tokenizer_from_tiktoken_bytes(data, name="bad", pattern_id="r50k")


def test_unknown_pattern_is_refused():
    with pytest.raises(VocabularyError, match="unknown pattern"):
        tokenizer_from_tiktoken_bytes(R50K_BYTES, name="x", pattern_id="perl6")


def _hf_json() -> bytes:
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tk = Tokenizer(models.BPE())
    tk.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tk.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=400, special_tokens=["<|endoftext|>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False,
    )  # fmt: skip
    tk.train_from_iterator(["the cat sat on the mat", "the dog ate the cat food"] * 50, trainer)
    return tk.to_str().encode("utf-8")


@pytest.fixture(scope="module")
def hf_tok():
    return tokenizer_from_hf_json(_hf_json(), name="tiny hf")


def test_hf_tokenizer_json_works(hf_tok):
    from tokenizers import Tokenizer

    ref = Tokenizer.from_str(_hf_json().decode())
    text = "the cat ate 😀 food"
    assert hf_tok.encode(text) == ref.encode(text, add_special_tokens=False).ids
    assert hf_tok.decode(hf_tok.encode(text)) == text
    assert hf_tok.info.family == "Custom (tokenizer.json, BPE)"
    segs = hf_tok.segments(text)
    assert "".join(s.text for s in segs) == text
    assert [i for s in segs for i in s.ids] == hf_tok.encode(text)
    assert b"".join(hf_tok.token_bytes(i) for i in hf_tok.encode(text)) == text.encode()


@settings(max_examples=60)
@given(text=st.text(max_size=60))
def test_hf_segments_cover_any_text_and_keep_every_id(hf_tok, text):
    segs = hf_tok.segments(text)
    assert "".join(s.text for s in segs) == text
    assert [i for s in segs for i in s.ids] == hf_tok.encode(text)


def test_hf_special_tokens_are_text_unless_allowed(hf_tok):
    eot = hf_tok.special_tokens["<|endoftext|>"]
    assert eot not in hf_tok.encode("a <|endoftext|> b")
    assert eot in hf_tok.encode("a <|endoftext|> b", allow_special=True)


@pytest.mark.parametrize(
    "data, message",
    [
        (b"\xff\xfe\x00garbage", "UTF-8"),
        (b"{not json", "not a usable Hugging Face tokenizer.json"),
        (json.dumps({"model": {"type": "Nope"}}).encode(), "not a usable"),
    ],
)
def test_bad_tokenizer_json_gets_a_clear_error(data, message):
    with pytest.raises(VocabularyError, match=message):
        tokenizer_from_hf_json(data, name="bad")


def test_oversized_uploads_are_refused(monkeypatch):
    monkeypatch.setattr(registry, "MAX_UPLOAD_BYTES", 10)
    with pytest.raises(VocabularyError, match="limit"):
        tokenizer_from_hf_json(b"{}" * 10, name="big")
    with pytest.raises(VocabularyError, match="limit"):
        tokenizer_from_tiktoken_bytes(R50K_BYTES, name="big", pattern_id="r50k")
