"""Token windows: known answers and grapheme clusters."""

from __future__ import annotations

from tests.conftest import builtin
from tokenizer_core.chunking.windows import token_windows


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
