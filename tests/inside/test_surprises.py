"""The surprises are built from the real tokenizers on the user's words."""

from __future__ import annotations

import re

import pytest

from tests.conftest import builtin
from tokenizer_core.inside.surprises import (
    all_surprises,
    case_and_space,
    digit_grouping,
    first_word,
    indentation,
    letters,
    longest_word,
    numbers,
    trim,
    whitespace,
    words_vs_tokens,
)

IDS = ["o200k_base", "cl100k_base", "qwen", "gemma3", "mistral_sp_v1", "deepseek_v4"]


@pytest.fixture(scope="module")
def toks():
    return [builtin(i) for i in IDS]


def test_every_cut_is_the_tokenizers_own(toks):
    text = "Pay Total 1,234,567 by 2024-03-15  please\r\nthanks   "
    for s in all_surprises(text, toks):
        assert [r.tokenizer_id for r in s.rows] == IDS
        for tok, row in zip(toks, s.rows):
            assert len(row.cuts) == len(s.texts)
            for t, c in zip(s.texts, row.cuts):
                assert c.text == t and "".join(c.pieces) == t
                assert list(c.ids) == tok.encode(t)


def test_case_and_space_uses_the_users_word(toks):
    s = case_and_space("Total", toks)
    assert s.texts == ("total", " total", "Total", " TOTAL")
    for tok, row in zip(toks, s.rows):
        distinct = len({tuple(tok.encode(t)) for t in s.texts})
        assert row.finding.startswith(f"{distinct} different")


def test_digit_grouping_follows_each_pattern():
    # the published patterns: \p{N}{1,3} (cl100k, o200k, Llama 3), \p{N} (Qwen), r50k digit runs
    assert digit_grouping(builtin("cl100k_base")).startswith("groups of 3 from the left")
    assert digit_grouping(builtin("o200k_base")).startswith("groups of 3 from the left")
    assert digit_grouping(builtin("qwen")) == "one digit at a time"
    assert digit_grouping(builtin("r50k_base")).startswith("pieces it learned from data")


def test_numbers_from_the_users_text_come_first(toks):
    s = numbers("Call 0800 123 456 or pay 99.95", toks)
    assert s.texts[:3] == ("0800", "123", "456") and s.labels[0] == "from your text"
    assert "1234567" in s.texts


def test_strawberry_has_three_r(toks):
    s = letters("strawberry", toks)
    assert s.texts == ("strawberry", " strawberry")
    for tok, row in zip(toks, s.rows):
        assert '3 × "r"' in row.finding
        assert f"as {len(tok.encode(' strawberry'))} token" in row.finding


def test_trim_keeps_indentation_and_words():
    assert trim("a  b \r\n\r\n\r\n  c   d\t") == "a b\n\n  c d"
    assert trim("def f():\n    return 1\n") == "def f():\n    return 1\n"


def test_whitespace_tokens_saved_are_real_counts(toks):
    text = "Send   the report \r\n\r\n\r\n\r\ntoday   please  "
    s = whitespace(text, toks)
    assert s.extra == trim(text)
    for tok, row in zip(toks, s.rows):
        before, after = tok.count(text), tok.count(trim(text))
        assert f"{before:,} tokens, {after:,} trimmed ({before - after:,} saved)" in row.finding
        assert before >= after


def test_words_vs_tokens_states_the_rule_and_the_real_count(toks):
    s = words_vs_tokens("one two three four", toks)
    assert s.labels[0] == "Your text" and "Python code" in s.labels
    for tok, row in zip(toks, s.rows):
        n = len(tok.encode("one two three four"))
        assert row.finding.startswith(f"Your text: 4 words, the rule says 5 tokens, really {n}")


def test_hostile_and_empty_text_give_surprises_not_errors(toks):
    for text in [
        "",
        "   ",
        "<|endoftext|>",
        "<img src=x onerror=alert(1)>",
        "😀👨\u200d👩\u200d👧 你好",
        "x" * 30_000,
    ]:
        out = all_surprises(text, toks[:2])
        assert len(out) == 6


def test_words_of_every_script_are_kept_whole():
    """Devanagari's vowel signs and virama are combining marks (Unicode category M): part of the word."""
    assert first_word("Hi, नमस्ते दुनिया", "x") == "नमस्ते"
    assert longest_word("a हिन्दी text", "x") == "हिन्दी"


def test_case_variants_only_for_a_script_with_case(toks):
    cased = case_and_space("Ελλάδα", toks)
    assert cased.texts == ("ελλάδα", " ελλάδα", "Ελλάδα", " ΕΛΛΆΔΑ")
    plain = case_and_space("नमस्ते", toks)
    assert plain.texts == ("नमस्ते", " नमस्ते", "\nनमस्ते") and "CAPITALS" not in " ".join(plain.labels)


def test_one_token_is_not_tokens(toks):
    s = words_vs_tokens("one", toks)
    assert all(not re.search(r"\b1 (tokens|words)", row.finding) for row in s.rows)
    assert all("Your text: 1 word, the rule says 1 token" in row.finding for row in s.rows)
    assert "two or three ids" not in letters("strawberry", toks).why


def test_indentation_counts_are_the_tokenizers_own(toks):
    s = indentation("def f():\n    return x + 1\n", toks)
    assert s.texts[1] == "if ok:\n    return x + 1" and s.texts[2] == "if ok:\n\treturn x + 1"
    for tok, row in zip(toks, s.rows):
        n = [len(tok.encode(t)) for t in s.texts]
        assert f"4 spaces {n[1] - n[0]:+d}" in row.finding and f"3 spaces {n[5] - n[0]:+d}" in row.finding
