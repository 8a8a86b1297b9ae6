"""The chunk view's HTML: escaping, overlaps, hover text, limits, legend."""

from __future__ import annotations

import html
import re

from tests.conftest import builtin
from tokenizer_core import chunk_text
from tokenizer_core.chunking import Chunk, chunk_legend_html, chunks_html, long_document, view_window
from tokenizer_core.chunking.view import chunk_colour


def source_text(fragment: str) -> str:
    """The HTML source between tags, with the chunk badges (index numbers) dropped."""
    fragment = re.sub(r"<style>.*?</style>", "", fragment)
    fragment = re.sub(r'<span class="b"[^>]*>\d+</span>', "", fragment)
    return re.sub(r"<[^>]+>", "", fragment)


def visible_text(fragment: str) -> str:
    """The text a browser shows: tags removed, entities decoded, badges dropped."""
    return html.unescape(source_text(fragment))


def test_user_text_is_escaped_everywhere():
    text = '<img src=x onerror=alert(1)> and <script>alert("x")</script> & "quotes"'
    tok = builtin("cl100k_base")
    chunks = chunk_text(text, tok, strategy="tokens", size=6, overlap=2).chunks
    out = chunks_html(text, chunks)
    assert "<img" not in out and "<script" not in out
    escaped = source_text(out)
    assert "&lt;img src=x onerror=alert(1)&gt;" in escaped and "&lt;script&gt;" in escaped
    assert visible_text(out) == text  # every character shown once, in order


def test_section_and_note_in_titles_are_escaped():
    text = "abc"
    chunks = [Chunk(0, 0, 3, "abc", 1, section='"><script>x</script>', note="<b>")]
    out = chunks_html(text, chunks)
    assert "<script>" not in out and "<b>" not in out
    assert "&quot;&gt;&lt;script&gt;" in out


def test_overlaps_are_striped_and_described():
    text = "one two three four five six"
    chunks = [Chunk(0, 0, 13, text[0:13], 3), Chunk(1, 8, 27, text[8:27], 4, 1, 5)]
    out = chunks_html(text, chunks)
    assert out.count("repeating-linear-gradient") == 1  # one pair of colours striped ...
    assert out.count('class="o0-1"') == 1  # ... on one shared piece: "three"
    assert "overlap of chunks 0 and 1: 1 tokens, 5 chars (8–13)" in out
    assert f"background:{chunk_colour(0)}" in out and f"background:{chunk_colour(1)}" in out
    assert 'title="chunk 0 | 3 tokens | chars 0–13"' in out
    assert visible_text(out) == text


def test_colours_are_classes_of_one_stylesheet():
    text = long_document(20_000)
    chunks = chunk_text(text, builtin("cl100k_base"), strategy="tokens", size=64, overlap=8).chunks
    out = chunks_html(text, chunks)
    assert out.count("<style>") == 1 and "background:hsl" not in out.split("</style>", 1)[1]
    assert ' style="' not in out.split("</style>", 1)[1]
    assert visible_text(out) == text[: view_window(chunks).end]


def test_neighbouring_chunks_never_share_a_colour():
    assert all(chunk_colour(i) != chunk_colour(i + 1) for i in range(100))


def test_whitespace_can_be_made_visible():
    text = "a b\tc\nd"
    chunks = [Chunk(0, 0, len(text), text, 4)]
    assert "⋅" in chunks_html(text, chunks, show_whitespace=True)
    assert "⋅" not in chunks_html(text, chunks)


def test_over_limit_chunks_are_outlined():
    text = "abcdef"
    chunks = [Chunk(0, 0, 3, "abc", 10), Chunk(1, 3, 6, "def", 2)]
    out = chunks_html(text, chunks, limit=5)
    assert out.count('class="k0 over"') == 1 and 'class="k1"' in out
    assert "outline:2px solid" in out


def test_empty_view():
    assert "No chunks" in chunks_html("", [])


def test_view_window_limits_a_big_document():
    text = long_document(1_000_000)
    chunks = chunk_text(text, builtin("cl100k_base"), strategy="tokens", size=256).chunks
    win = view_window(chunks, first=0, max_chunks=80, max_chars=60_000)
    assert win.first == 0 and 1 <= win.last <= 80 and win.partial
    assert win.end - win.start <= 60_000 + max(c.chars for c in chunks)
    out = chunks_html(text, chunks, window=win)
    assert len(out) < 400_000  # the page gets a bounded amount of HTML
    assert visible_text(out) == text[win.start : win.end]
    later = view_window(chunks, first=len(chunks) - 3, max_chunks=80)
    assert (later.first, later.last) == (len(chunks) - 3, len(chunks))
    assert view_window(chunks, first=10**9).first == len(chunks) - 1


def test_legend():
    assert "overlap" in chunk_legend_html(overlap=True)
    assert "overlap" not in chunk_legend_html(overlap=False)
    assert "512" in chunk_legend_html(overlap=False, limit=512)
