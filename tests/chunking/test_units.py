"""Token units: where tokens end in characters, from one pass or from segments."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import ALL_IDS, builtin
from tokenizer_core import tokenizer_from_hf_json
from tokenizer_core.chunking.units import token_units

MIXED = st.lists(
    st.sampled_from(
        [
            "hello",
            " world",
            "\n",
            "\n\n",
            " ",
            "é",
            "e\u0301",
            "😀",
            "👨\u200d👩\u200d👧",
            "中文",
            "नमस्ते",
            "\r\n",
            "<|endoftext|>",
            "123456",
            "A",
            "\t",
            "  \n",
            ".",
            "Ω\u0344",
        ]  # fmt: skip
    ),
    max_size=30,
).map("".join)


@functools.cache
def tiny_hf():
    """A small byte-level BPE trained here with `tokenizers`, loaded as a user's tokenizer.json."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tk = Tokenizer(models.BPE())
    tk.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tk.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=400, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False
    )
    tk.train_from_iterator(["hello world, the river runs past the mill. 中文 😀 héllo"] * 20, trainer)
    return tokenizer_from_hf_json(tk.to_str().encode("utf-8"), name="tiny bpe")


def test_known_units():
    units = token_units(builtin("cl100k_base"), "hello world")  # ids [15339, 1917]
    assert list(units.ends) == [0, 5, 11]
    assert list(units.cum) == [0, 1, 2]
    assert units.tokens == 2 and units.fast


@pytest.mark.parametrize("tid", [pytest.param(i, id=i) for i in ALL_IDS])
@settings(max_examples=40)
@given(text=MIXED)
def test_fast_units_match_segments(tid, text):
    tok = builtin(tid)
    units = token_units(tok, text)
    segs = tok.segments(text)
    assert list(units.ends) == [0] + [s.end for s in segs]
    assert list(units.cum) == [0, *np.cumsum([len(s.ids) for s in segs]).tolist()]


@settings(max_examples=40)
@given(text=MIXED)
def test_units_of_a_hugging_face_tokenizer(text):
    tok = tiny_hf()
    units = token_units(tok, text)
    assert not units.fast
    assert int(units.ends[-1]) == len(text) and units.tokens == tok.count(text)


def test_chunking_does_not_keep_an_uploaded_tokenizer_alive():
    """A per-encoding cache (an lru_cache once) must not pin a session's tokenizer."""
    import gc
    import weakref
    from importlib import resources

    from tokenizer_core import chunk_text, tokenizer_from_tiktoken_bytes

    data = (resources.files("tokenizer_core") / "data" / "r50k_base.tiktoken").read_bytes()
    tok = tokenizer_from_tiktoken_bytes(data, name="my upload", pattern_id="r50k")
    text = "An uploaded vocabulary, used once for chunking.\nThen the session ends.\n" * 400
    assert chunk_text(text, tok, strategy="tokens", size=64).chunks
    assert chunk_text(text, tok, strategy="recursive", size=64).chunks
    gone = weakref.ref(tok.encoding)
    del tok
    gc.collect()
    assert gone() is None
