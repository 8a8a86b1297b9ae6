"""What users do with the chunks: statistics, the from-scratch check, model limits, the table, export."""

from __future__ import annotations

import csv
import io
import json

import pytest

from tests.conftest import builtin
from tokenizer_core import chunk_text
from tokenizer_core.chunking import (
    EMBEDDING_MODELS,
    Chunk,
    check_chunks,
    chunk_stats,
    chunk_table,
    chunks_to_csv,
    chunks_to_jsonl,
    limit_warning,
    load_chunk_sample,
)
from tokenizer_core.chunking.report import first_words


@pytest.fixture
def cl100k():
    return builtin("cl100k_base")


def test_embedding_presets():
    openai = next(m for m in EMBEDDING_MODELS if "text-embedding-3" in m.name)
    assert openai.limit == 8_191 and openai.tokenizer_id == "cl100k_base"
    assert any(m.limit == 512 for m in EMBEDDING_MODELS)
    assert len({m.name for m in EMBEDDING_MODELS}) == len(EMBEDDING_MODELS)


def test_limit_warning(cl100k):
    model = next(m for m in EMBEDDING_MODELS if m.limit == 512)
    text = "word " * 2000
    over = chunk_text(text, cl100k, strategy="tokens", size=1000).chunks
    msg = limit_warning(over, model, "cl100k_base")
    assert msg is not None and "512" in msg and f"of {len(over)} chunks" in msg
    fine = chunk_text(text, cl100k, strategy="tokens", size=500).chunks
    assert limit_warning(fine, model, "cl100k_base") is None


def _chunk(i, s, e, text, tokens, ov=0, ovc=0):
    return Chunk(i, s, e, text, tokens, ov, ovc)


def test_chunk_stats():
    chunks = [_chunk(0, 0, 4, "abcd", 10), _chunk(1, 2, 8, "cdefgh", 20, 3, 2), _chunk(2, 8, 9, "i", 6)]
    st = chunk_stats(chunks, limit=15)
    assert (st.chunks, st.min_tokens, st.max_tokens, st.mean_tokens, st.median_tokens) == (
        3,
        6,
        20,
        12.0,
        10.0,
    )
    assert st.mean_chars == round((4 + 6 + 1) / 3, 1)
    assert st.mean_overlap_tokens == 1.5 and st.over_limit == 1
    assert chunk_stats([]).chunks == 0


def test_jsonl_and_csv_round_trip(cl100k):
    text = 'Line one, with "quotes".\n\nSecond, 😀 <b>bold</b>\r\nthird\n'
    r = chunk_text(text, cl100k, strategy="tokens", size=5, overlap=1)
    records = [
        json.loads(line)
        for line in chunks_to_jsonl(r.chunks, tokenizer_id="cl100k_base", strategy="tokens").splitlines()
    ]
    assert [(d["start"], d["end"], d["text"], d["tokens"]) for d in records] == [
        (c.start, c.end, c.text, c.tokens) for c in r.chunks
    ]
    assert all(text[d["start"] : d["end"]] == d["text"] and d["tokenizer"] == "cl100k_base" for d in records)
    rows = list(csv.DictReader(io.StringIO(chunks_to_csv(r.chunks), newline="")))
    assert [r_["text"] for r_ in rows] == [c.text for c in r.chunks]
    assert [int(r_["tokens"]) for r_ in rows] == [c.tokens for c in r.chunks]
    assert chunks_to_jsonl([]) == ""


def test_first_words():
    assert first_words("  Hello   big\nworld") == "Hello big world"
    assert (
        first_words("one two three four five six seven eight nine ten")
        == "one two three four five six seven eight …"
    )
    assert first_words("x" * 100).endswith("…") and len(first_words("x" * 100)) == 60


def test_check_chunks_finds_problems(cl100k):
    text = "hello world"
    good = chunk_text(text, cl100k, strategy="tokens", size=1).chunks
    assert check_chunks(text, good, cl100k, size=1) == []
    bad = [Chunk(0, 0, 5, "hello", 2), Chunk(1, 6, 11, "world", 1)]
    problems = check_chunks(text, bad, cl100k, size=1)
    assert any("reports 2 tokens" in p for p in problems)
    assert any("does not follow" in p for p in problems)


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
