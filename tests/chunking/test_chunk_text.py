"""Chunking: known answers per strategy on small texts, settings, stats, exports, samples."""

from __future__ import annotations

import csv
import doctest
import io
import json

import pytest

import tokenizer_core.chunking.pack as chunking_module
from tests.conftest import builtin
from tokenizer_core import ChunkSettingsError, chunk_text
from tokenizer_core.chunking import (
    CHUNK_SAMPLES,
    EMBEDDING_MODELS,
    STRATEGIES,
    Chunk,
    check_chunks,
    chunk_stats,
    chunks_to_csv,
    chunks_to_jsonl,
    first_words,
    limit_warning,
    load_chunk_sample,
    long_document,
    markdown_blocks,
    overlap_from_percent,
    validate_settings,
)


@pytest.fixture
def cl100k():
    return builtin("cl100k_base")


def spans(result):
    return [(c.start, c.end) for c in result.chunks]


def test_module_docstring_example_runs():
    assert doctest.testmod(chunking_module).failed == 0


# ----------------------------------------------------------------------------- known answers


def test_token_windows_on_hello_world(cl100k):
    # cl100k: "hello world" -> [15339, 1917] (notes/offline-tokenizers.md)
    r = chunk_text("hello world", cl100k, strategy="tokens", size=1)
    assert [(c.text, c.tokens) for c in r.chunks] == [("hello", 1), (" world", 1)]
    r = chunk_text("hello world", cl100k, strategy="tokens", size=2, overlap=1)
    assert [(c.text, c.tokens) for c in r.chunks] == [("hello world", 2)]


def test_token_windows_overlap_repeats_the_last_tokens(cl100k):
    text = "hello world " * 3 + "hello world"  # eight tokens, one per word
    assert len(cl100k.encode(text)) == 8
    r = chunk_text(text, cl100k, strategy="tokens", size=4, overlap=2)
    assert [c.text for c in r.chunks] == [
        "hello world hello world",
        " hello world hello world",
        " hello world hello world",
    ]
    assert [(c.overlap_tokens, c.overlap_chars) for c in r.chunks] == [(0, 0), (2, 12), (2, 12)]


def test_recursive_keeps_paragraphs_whole_and_packs_them(cl100k):
    p1, p2, p3 = "The mill stopped turning.\n\n", "Flour came by train.\n\n", "The wheel rotted away."
    text = p1 + p2 + p3
    size = cl100k.count(p1 + p2)
    assert cl100k.count(text) > size and cl100k.count(p3) <= size
    r = chunk_text(text, cl100k, strategy="recursive", size=size)
    assert [c.text for c in r.chunks] == [p1 + p2, p3]


def test_recursive_splits_a_long_paragraph_on_sentences_then_words(cl100k):
    s1, s2 = "The river floods every spring. ", "It is the colour of weak tea and runs past the mill."
    text = s1 + s2
    size = max(cl100k.count(s1), 8)
    r = chunk_text(text, cl100k, strategy="recursive", size=size)
    assert r.chunks[0].text == s1  # the sentence fits, so the first cut is at its end
    assert all(c.tokens <= size for c in r.chunks)
    assert all(c.text.endswith(" ") or c.end == len(text) for c in r.chunks)  # whole words only


def test_sentences_strategy_known_answer(cl100k):
    # "One", ".", " Two", ".", " " -> 5 tokens; "Three", "." -> 2 tokens
    assert len(cl100k.encode("One. Two. ")) == 5 and len(cl100k.encode("Three.")) == 2
    r = chunk_text("One. Two. Three.", cl100k, strategy="sentences", size=5)
    assert [(c.text, c.tokens) for c in r.chunks] == [("One. Two. ", 5), ("Three.", 2)]


def test_markdown_cuts_at_headings_and_keeps_them_with_their_text(cl100k):
    a = "# Alpha\n\nThe first section has a few words.\n\n"
    b = "## Beta\n\nThe second one is about as long as the first.\n"
    text = a + b
    size = max(cl100k.count(a), cl100k.count(b))
    assert cl100k.count(text) > size
    r = chunk_text(text, cl100k, strategy="markdown", size=size)
    assert [c.text for c in r.chunks] == [a, b]
    assert [c.section for c in r.chunks] == ["Alpha", "Alpha > Beta"]


def test_markdown_heading_is_not_left_alone_at_the_end_of_a_chunk(cl100k):
    intro = "Some introduction text that fills most of a chunk on its own.\n\n"
    head, para = "## Details\n\n", "Details follow here.\n"
    text = intro + head + para
    size = cl100k.count(intro + head)  # intro and heading fit, but not the paragraph too
    assert cl100k.count(head + para) <= size < cl100k.count(text)
    r = chunk_text(text, cl100k, strategy="markdown", size=size)
    assert [c.text for c in r.chunks] == [intro, head + para]
    # the plain recursive strategy has no such rule: it fills the first chunk
    assert chunk_text(text, cl100k, strategy="recursive", size=size).chunks[0].text == intro + head


def test_code_cuts_between_top_level_definitions(cl100k):
    text = load_chunk_sample("python")
    r = chunk_text(text, cl100k, strategy="code", size=160)
    starts = [c.start for c in r.chunks[1:]]
    lines = {text[s:].split("\n", 1)[0] for s in starts}
    # every cut is at a line start, and most at a definition (or the comment / decorator above one)
    assert all(text[s - 1] == "\n" for s in starts)
    assert "class Inventory:" in lines or any(line.startswith("    def ") for line in lines)
    assert any(line.startswith(("def ", "@", "# ", "class ")) for line in lines)
    assert "in Inventory" in " ".join(c.section for c in r.chunks) or "Inventory" in " ".join(
        c.section for c in r.chunks
    )
    assert check_chunks(text, r.chunks, cl100k, size=160) == []


def test_code_strategy_for_a_non_python_file(cl100k):
    js = (
        "function a() {\n  return 1;\n}\n\nfunction b() {\n  return 2;\n}\n\nfunction c() {\n  return 3;\n}\n"
    )
    size = cl100k.count("function a() {\n  return 1;\n}\n\n")
    r = chunk_text(js, cl100k, strategy="code", size=size)
    assert [c.text.split("\n")[0] for c in r.chunks] == ["function a() {", "function b() {", "function c() {"]
    assert any(s.name == "code (indentation)" for s in r.steps)


def test_a_size_larger_than_the_document_gives_one_chunk_and_says_so(cl100k):
    r = chunk_text("A short note.", cl100k, strategy="recursive", size=100_000)
    assert spans(r) == [(0, 13)]
    assert any("fits in one chunk" in w for w in r.warnings)


@pytest.mark.parametrize("strategy", list(STRATEGIES))
def test_empty_and_whitespace_text_give_no_chunks(cl100k, strategy):
    for text in ("", "   ", "\n\n\t \r\n"):
        assert chunk_text(text, cl100k, strategy=strategy, size=10).chunks == ()


def test_special_token_text_is_plain_text(cl100k):
    text = "before <|endoftext|> after"
    r = chunk_text(text, cl100k, strategy="tokens", size=3)
    assert "".join(c.text for c in r.chunks) == text
    assert sum(c.tokens for c in r.chunks) >= cl100k.count(text)  # never one special token


# ----------------------------------------------------------------------------- settings


@pytest.mark.parametrize(
    ("size", "overlap", "message"),
    [
        (0, 0, "at least 1 token"),
        (-5, 0, "at least 1 token"),
        (10**9, 0, "above the 1,000,000-token maximum"),
        (100, -1, "cannot be negative"),
        (100, 100, "must be smaller than the chunk size"),
        (100, 250, "Use at most 99 tokens"),
    ],
)
def test_bad_settings_have_clear_messages(cl100k, size, overlap, message):
    with pytest.raises(ChunkSettingsError, match=message):
        validate_settings(strategy="tokens", size=size, overlap=overlap)
    with pytest.raises(ChunkSettingsError):
        chunk_text("some text", cl100k, strategy="tokens", size=size, overlap=overlap)


def test_unknown_strategy_and_non_integers():
    with pytest.raises(ChunkSettingsError, match="Unknown strategy"):
        validate_settings(strategy="magic", size=10, overlap=0)
    with pytest.raises(ChunkSettingsError, match="whole number"):
        validate_settings(strategy="tokens", size=10.5, overlap=0)


def test_overlap_from_percent():
    assert overlap_from_percent(512, 10) == 51
    assert overlap_from_percent(512, 0) == 0
    assert overlap_from_percent(1, 50) == 0  # never as large as the chunk
    assert overlap_from_percent(10, 99.9) == 9
    for bad in (100, 150, -1):
        with pytest.raises(ChunkSettingsError, match="less than 100%"):
            overlap_from_percent(512, bad)


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


# ----------------------------------------------------------------------------- stats and export


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


# ----------------------------------------------------------------------------- samples


def test_samples_are_what_they_say():
    assert set(CHUNK_SAMPLES) == {"markdown", "prose", "python"}
    md = load_chunk_sample("markdown")
    assert sum(b.kind == "heading" for b in markdown_blocks(md)) >= 6
    assert "def " in load_chunk_sample("python") and "class " in load_chunk_sample("python")
    assert "\n\n" in load_chunk_sample("prose")
    with pytest.raises(KeyError):
        load_chunk_sample("nope")


@pytest.mark.parametrize("strategy", list(STRATEGIES))
def test_a_one_megabyte_document_chunks_correctly(cl100k, strategy):
    text = long_document(1_000_000)
    assert len(text) >= 1_000_000
    r = chunk_text(text, cl100k, strategy=strategy, size=512, overlap=32)
    assert len(r.chunks) > 400
    assert check_chunks(text, r.chunks, cl100k, size=512) == []
