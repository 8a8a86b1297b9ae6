"""The chunk previewer's report functions: overlap setting, table of chunks, suited strategy."""

from __future__ import annotations

from tests.conftest import builtin
from tokenizer_core import chunk_text
from tokenizer_core.chunking import chunk_table, load_chunk_sample, overlap_tokens, suited_strategy


def test_overlap_in_tokens_or_percent():
    assert overlap_tokens(200, unit="%", value=10) == 20
    assert overlap_tokens(200, unit="tokens", value=16.0) == 16


def test_table_has_one_record_per_chunk_and_only_useful_columns():
    text = load_chunk_sample("markdown")
    tok = builtin("cl100k_base")
    plain = chunk_text(text, tok, strategy="markdown", size=128)
    rows = chunk_table(plain)
    assert len(rows) == len(plain.chunks)
    assert [(r["start"], r["end"], r["tokens"]) for r in rows] == [
        (c.start, c.end, c.tokens) for c in plain.chunks
    ]
    assert "overlap tokens" not in rows[0] and "section" in rows[0]  # Markdown headings give sections
    lapped = chunk_table(chunk_text(text, tok, strategy="tokens", size=64, overlap=16))
    assert "overlap tokens" in lapped[0] and "section" not in lapped[0]
    # a slice of the rows: the same records, columns still decided by every chunk
    part = chunk_table(plain, first=3, rows=2)
    assert part == rows[3:5]
    assert chunk_table(plain, first=len(plain.chunks) - 1, rows=50) == rows[-1:]


def test_suited_strategy_from_the_sample_or_the_file_name():
    assert suited_strategy(load_chunk_sample("markdown")) == "markdown"
    assert suited_strategy("x = 1\n", filename="job.PY") == "code"
    assert suited_strategy("plain words", filename="notes.txt") is None
    assert suited_strategy("plain words") is None
