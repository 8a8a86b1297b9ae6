"""Safe cuts: where counts on both sides of a cut add up, per tokenizer."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.chunking.test_units import tiny_hf
from tests.conftest import ALL_IDS, builtin
from tokenizer_core.chunking.safe_cuts import cut_rule, first_safe_cut, is_safe_cut, last_safe_cut, safe_cuts


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


def test_the_cut_rule_follows_the_pattern_of_an_uploaded_file():
    """Same vocabulary, two patterns: a blank line is a safe cut only under the cl100k pattern."""
    from importlib import resources

    from tokenizer_core import tokenizer_from_tiktoken_bytes

    data = (resources.files("tokenizer_core") / "data" / "r50k_base.tiktoken").read_bytes()
    assert cut_rule(tokenizer_from_tiktoken_bytes(data, name="a", pattern_id="cl100k")) == "newline"
    assert cut_rule(tokenizer_from_tiktoken_bytes(data, name="b", pattern_id="r50k")) == "lone-newline"
