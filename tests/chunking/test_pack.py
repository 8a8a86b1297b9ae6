"""Chunks from chunk_text: known answers per strategy on small texts, and a one-megabyte document."""

from __future__ import annotations

import doctest

import pytest

import tokenizer_core.chunking.pack as chunking_module
from tests.conftest import builtin
from tokenizer_core import chunk_text
from tokenizer_core.chunking import STRATEGIES, check_chunks, load_chunk_sample, long_document


@pytest.fixture
def cl100k():
    return builtin("cl100k_base")


def spans(result):
    return [(c.start, c.end) for c in result.chunks]


def test_module_docstring_example_runs():
    assert doctest.testmod(chunking_module).failed == 0


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


@pytest.mark.parametrize("strategy", list(STRATEGIES))
def test_a_one_megabyte_document_chunks_correctly(cl100k, strategy):
    text = long_document(1_000_000)
    assert len(text) >= 1_000_000
    r = chunk_text(text, cl100k, strategy=strategy, size=512, overlap=32)
    assert len(r.chunks) > 400
    assert check_chunks(text, r.chunks, cl100k, size=512) == []
