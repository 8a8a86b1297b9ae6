"""Batched token counts of many texts."""

from __future__ import annotations

from tests.chunking.test_units import tiny_hf
from tests.conftest import builtin
from tokenizer_core.chunking.counting import count_texts


def test_count_texts_matches_one_by_one():
    tok = builtin("o200k_base")
    texts = ["hello world", "", "😀" * 50, "नमस्ते " * 300] + ["the river runs past the mill. " * 40] * 30
    assert count_texts(texts, tok) == [tok.count(t) for t in texts]
    assert count_texts([], tok) == []
    assert count_texts(["hello", "world"], tiny_hf()) == [tiny_hf().count("hello"), tiny_hf().count("world")]
