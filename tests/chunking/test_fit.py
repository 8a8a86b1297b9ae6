"""The longest prefix within a token budget."""

from __future__ import annotations

from tests.conftest import builtin
from tokenizer_core.chunking.fit import fit_prefix


def test_fit_prefix():
    tok = builtin("cl100k_base")
    text = "hello world again"
    end, n, note = fit_prefix(text, tok, 0, len(text), 2)
    assert (text[:end], n, note) == ("hello world", 2, "")
    end, n, note = fit_prefix("😀x", tok, 0, 2, 1)  # the emoji alone is more than one token
    assert end == 1 and n == tok.count("😀") > 1 and "over budget" in note
