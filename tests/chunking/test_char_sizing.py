"""Chunks sized in characters, measured in tokens: the documents' common mistake, shown."""

from __future__ import annotations

from tests.conftest import builtin
from tokenizer_core.chunking.char_sizing import character_sizing

HINDI = "पासवर्ड रीसेट कर दिया गया। कृपया अपना नया पासवर्ड सेट करें। " * 20


def test_chunks_cover_the_text_and_count_for_real():
    tok = builtin("cl100k_base")
    text = "def f(x):\n    return {'a': [1, 2, 3]}\n" * 30
    s = character_sizing(text, tok, budget=16)
    assert s.chars == 64
    assert "".join(text[c.start : c.end] for c in s.chunks) == text
    assert [c.tokens for c in s.chunks] == [tok.count(text[c.start : c.end]) for c in s.chunks]
    assert s.over == sum(c.tokens > 16 for c in s.chunks)


def test_hindi_at_four_characters_a_token_goes_over_the_budget():
    """Seed 000: Hindi and other Indic scripts need more tokens; 4 characters a token is English."""
    s = character_sizing(HINDI, builtin("cl100k_base"), budget=32)
    assert s.over == len(s.chunks)  # about one token per character: every chunk is 4 times over
    assert "go over 32 tokens" in s.sentence()


def test_english_prose_mostly_fits():
    s = character_sizing("The meeting moved to Thursday. " * 40, builtin("o200k_base"), budget=32)
    assert s.over == 0 and "none of the" in s.sentence()
