"""Token-level chunking machinery: token units, batched counts, safe cuts, token windows."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import ALL_IDS, builtin
from tokenizer_core import tokenizer_from_hf_json
from tokenizer_core.chunking.costs import (
    count_texts,
    cut_rule,
    first_safe_cut,
    fit_prefix,
    is_safe_cut,
    last_safe_cut,
    safe_cuts,
    token_units,
    token_windows,
)

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


def test_count_texts_matches_one_by_one():
    tok = builtin("o200k_base")
    texts = ["hello world", "", "😀" * 50, "नमस्ते " * 300] + ["the river runs past the mill. " * 40] * 30
    assert count_texts(texts, tok) == [tok.count(t) for t in texts]
    assert count_texts([], tok) == []
    assert count_texts(["hello", "world"], tiny_hf()) == [tiny_hf().count("hello"), tiny_hf().count("world")]


def test_cut_rules_per_tokenizer():
    assert cut_rule(builtin("cl100k_base")) == "newline"
    assert cut_rule(builtin("o200k_base")) == "newline"
    assert cut_rule(builtin("r50k_base")) == "lone-newline"  # GPT-2 splits "\n\nA" as \n, \n, A
    assert cut_rule(tiny_hf()) is None


def test_safe_cut_helpers():
    text = "ab\nCd\n\nEf x\nGh\n1"
    assert safe_cuts(text) == [3, 12]
    assert safe_cuts(text, rule="newline") == [3, 7, 12]
    assert first_safe_cut(text, 3, len(text), "newline") == 7
    assert last_safe_cut(text, 0, len(text)) == 12
    assert last_safe_cut(text, 0, 12) == 3
    assert not is_safe_cut(text, 7) and is_safe_cut(text, 7, "newline")
    assert not is_safe_cut(text, 3, None)


@pytest.mark.parametrize("tid", [pytest.param(i, id=i) for i in ALL_IDS])
@settings(max_examples=60)
@given(
    text=st.lists(
        st.sampled_from(
            ["\n", "\n\n", "\r\n", " \n", "A", "b", " ", ".", "'s", "1", "é", "\u2028", "x\u0301", "\t"]
        ),
        max_size=25,
    ).map("".join)
)
def test_counts_add_up_across_safe_cuts(tid, text):
    tok = builtin(tid)
    rule = cut_rule(tok)
    whole = tok.count(text)
    for p in safe_cuts(text, rule=rule):
        assert tok.count(text[:p]) + tok.count(text[p:]) == whole, (text, p)


def test_token_windows_known_answer():
    tok = builtin("cl100k_base")
    # "hello world" is [15339, 1917]: one token per window at size 1
    wins = token_windows("hello world", tok, size=1)
    assert [(w.start, w.end, w.tokens) for w in wins] == [(0, 5, 1), (5, 11, 1)]
    wins = token_windows("hello world", tok, size=2)
    assert [(w.start, w.end, w.tokens) for w in wins] == [(0, 11, 2)]


def test_token_windows_never_split_a_cluster_that_fits():
    tok = builtin("cl100k_base")
    family = "👨\u200d👩\u200d👧"
    text = "ab " + family + " cd"
    n = tok.count(family)
    wins = token_windows(text, tok, size=n + 1)
    for w in wins:
        assert w.tokens <= n + 1
        assert not (w.start < 3 < w.end < 3 + len(family)) and not (3 < w.start < 3 + len(family))


def test_token_windows_cut_a_cluster_above_the_budget_between_characters():
    tok = builtin("cl100k_base")
    family = "👨\u200d👩\u200d👧"
    wins = token_windows(family, tok, size=3)
    assert "".join(family[w.start : w.end] for w in wins) == family
    assert all(w.tokens <= 3 for w in wins)
    assert any("grapheme" in w.note for w in wins)


def test_fit_prefix():
    tok = builtin("cl100k_base")
    text = "hello world again"
    end, n, note = fit_prefix(text, tok, 0, len(text), 2)
    assert (text[:end], n, note) == ("hello world", 2, "")
    end, n, note = fit_prefix("😀x", tok, 0, 2, 1)  # the emoji alone is more than one token
    assert end == 1 and n == tok.count("😀") > 1 and "over budget" in note


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
