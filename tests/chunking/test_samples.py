"""The bundled documents and the strategy that suits a text."""

from __future__ import annotations

import pytest

from tokenizer_core.chunking import CHUNK_SAMPLES, load_chunk_sample, suited_strategy
from tokenizer_core.chunking.cuts import markdown_blocks


def test_samples_are_what_they_say():
    assert set(CHUNK_SAMPLES) == {"markdown", "prose", "python"}
    md = load_chunk_sample("markdown")
    assert sum(b.kind == "heading" for b in markdown_blocks(md)) >= 6
    assert "def " in load_chunk_sample("python") and "class " in load_chunk_sample("python")
    assert "\n\n" in load_chunk_sample("prose")
    with pytest.raises(KeyError):
        load_chunk_sample("nope")


def test_suited_strategy_from_the_sample_or_the_file_name():
    assert suited_strategy(load_chunk_sample("markdown")) == "markdown"
    assert suited_strategy("x = 1\n", filename="job.PY") == "code"
    assert suited_strategy("plain words", filename="notes.txt") is None
    assert suited_strategy("plain words") is None
