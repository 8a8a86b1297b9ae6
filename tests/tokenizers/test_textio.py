"""Lone surrogates: one U+FFFD each, as tiktoken itself does, so our ids match.

Expected ids come from the raw `tiktoken.Encoding` under each built-in, which replaces a lone
surrogate before encoding (``text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")``).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import builtin
from tokenizer_core.tokenizers import clean_text

TIKTOKEN_IDS = ["cl100k_base", "o200k_base", "r50k_base"]


def test_one_replacement_character_per_lone_surrogate():
    assert clean_text("a\ud800b") == "a\ufffdb"
    assert clean_text("\udfff") == "\ufffd"
    assert clean_text("x \ud83d y") == "x \ufffd y"
    assert clean_text("ab\udc00\ud800") == "ab\ufffd\ufffd"  # low then high: two lone ones
    text = "plain text, émoji 😀"
    assert clean_text(text) is text


@pytest.mark.parametrize("tid", TIKTOKEN_IDS)
def test_ids_match_tiktoken_on_the_reported_text(tid):
    tok = builtin(tid)
    raw = tok.encoding.encode_ordinary("x \ud83d y")
    assert tok.encode("x \ud83d y") == raw
    assert tok.count("x \ud83d y") == len(raw)
    if tid == "cl100k_base":
        assert len(raw) == 3


def _no_pairs(text: str) -> bool:
    """True if no high surrogate is directly followed by a low one (tiktoken would join them)."""
    return not any("\ud800" <= a <= "\udbff" and "\udc00" <= b <= "\udfff" for a, b in zip(text, text[1:]))


surrogates = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
texts = st.lists(st.one_of(surrogates, st.text(max_size=6)), max_size=12).map("".join).filter(_no_pairs)


@given(text=texts, tid=st.sampled_from(TIKTOKEN_IDS))
def test_any_text_with_lone_surrogates_encodes_like_tiktoken(text, tid):
    tok = builtin(tid)
    cleaned = clean_text(text)
    assert len(cleaned) == len(text)  # offsets into the cleaned text are offsets into the input
    assert tok.encode(text) == tok.encoding.encode_ordinary(text)
    assert "".join(s.text for s in tok.segments(text)) == cleaned
