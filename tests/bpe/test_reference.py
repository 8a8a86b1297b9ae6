"""The textbook BPE loop reproduces what each program in /work/shared/seeds prints."""

from __future__ import annotations

import doctest
from collections import Counter

from tokenizer_core.bpe import reference
from tokenizer_core.bpe.reference import best_pair, merge_pair, pair_counts, split_word, train_reference


def test_the_examples_run():
    result = doctest.testmod(reference)
    assert result.attempted >= 3 and result.failed == 0


def test_seed_000_smallest_ties_with_counts():
    corpus = {"get": 6, "set": 5, "reset": 3, "getter": 2, "setter": 2, "offset": 1}
    merges, words = train_reference(corpus, tie_break="smallest", merges=4)
    assert merges == [("e", "t", 19), ("s", "et", 11), ("g", "et", 8), ("e", "r", 4)]
    assert list(words) == [
        ("get",), ("set",), ("r", "e", "set"), ("get", "t", "er"), ("set", "t", "er"), ("o", "f", "f", "set"),
    ]  # fmt: skip


def test_seed_001_first_seen_with_an_end_marker():
    counts = Counter("low low low lower lowest newest newest".split())
    merges, words = train_reference(counts, end_marker="_", tie_break="first", merges=5)
    assert [(a, b) for a, b, _ in merges] == [("l", "o"), ("lo", "w"), ("low", "_"), ("e", "s"), ("es", "t")]
    assert list(words) == [
        ("low_",),
        ("low", "e", "r", "_"),
        ("low", "est", "_"),
        ("n", "e", "w", "est", "_"),
    ]


def test_seed_002_largest_ties():
    text = (
        "load loader loading loaded reload " * 20 + "data dataset datasets " * 15 + "stream streaming " * 10
    )
    merges, _ = train_reference(Counter(text.split()), end_marker="</w>", tie_break="largest", merges=12)
    assert len(merges) == 12
    assert [(a, b) for a, b, _ in merges[:6]] == [
        ("o", "a"), ("oa", "d"), ("l", "oad"), ("t", "a"), ("d", "a"), ("da", "ta"),
    ]  # fmt: skip


def test_bytes_and_stops():
    assert split_word("é", symbols="bytes", end_marker="_") == (b"\xc3", b"\xa9", b"_")
    merges, words = train_reference({"ab": 1}, symbols="bytes", merges=5)
    assert merges == [(b"a", b"b", 1)] and words == {(b"ab",): 1}  # no pairs left after one merge
    assert train_reference({"ab": 1, "cd": 1}, merges=5, min_frequency=2) == (
        [],
        {("a", "b"): 1, ("c", "d"): 1},
    )


def test_helpers():
    assert merge_pair(("a", "a", "a", "a"), ("a", "a")) == ("aa", "aa")
    assert pair_counts({("a", "b"): 2, ("b", "a", "b"): 1}) == {("a", "b"): 3, ("b", "a"): 1}
    assert list(pair_counts({("b", "a", "b"): 1, ("a", "b"): 2})) == [("b", "a"), ("a", "b")]
    pairs = {("b", "c"): 2, ("a", "b"): 2, ("c", "d"): 1}
    assert best_pair(pairs, tie_break="first") == ("b", "c")
    assert best_pair(pairs, tie_break="smallest") == ("a", "b")
    assert best_pair(pairs, tie_break="largest") == ("b", "c")
