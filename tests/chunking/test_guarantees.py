"""Property tests: the chunking guarantees hold for arbitrary text, every strategy, several tokenizers.

The assertions are written out here from the definitions (not by calling the module's own
`check_chunks`), using the tokenizer's own counts and a full `regex` \\X scan for graphemes.

Cover: with text that is not empty or whitespace-only, the union of the chunk spans is exactly
[0, len(text)); chunks are in order (starts and ends strictly increase); with overlap 0 each
chunk starts where the previous ended (whitespace between pieces belongs to the chunk before);
with overlap > 0 each chunk starts inside the previous one, never before the end of the one
before that.
"""

from __future__ import annotations

import pytest
import regex
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import builtin
from tokenizer_core import chunk_text
from tokenizer_core.chunking import STRATEGIES

TOKENIZERS = ["cl100k_base", "o200k_base", "qwen", "r50k_base"]

# pieces that trip splitters: CRLF, emoji, ZWJ sequences, flags, combining marks, CJK,
# abbreviations, Markdown and code structure, special-token text, odd whitespace
PIECES = [
    "\r\n", "\n", "\n\n", "\n\n\n", " ", "  ", "\t", "\u00a0", "\u3000", "😀", "👨\u200d👩\u200d👧",
    "🇫🇷", "🇯🇵🇫🇷", "e\u0301", "é", "x\u0301\u0302\u0303", "\u200d", "中文字符", "。", "！", "नमस्ते",
    "Hello world. ", "Dr. Smith said so. ", "e.g. this", "Why? Because! ", "# Heading\n", "## Sub\n\n",
    "```\ncode block\n```\n", "- item\n", "def f(x):\n    return x\n", "class A:\n    pass\n",
    "@dec\n", "<|endoftext|>", "'s", "1234567", "...", "https://example.com/a_b", "ABC", "word ",
]  # fmt: skip

text_strategy = st.one_of(
    st.text(max_size=60),
    st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=4)), max_size=30).map("".join),
)


def grapheme_bounds(text: str) -> set[int]:
    out = {0}
    for m in regex.finditer(r"\X", text):
        out.add(m.end())
    return out


def cluster_at(text: str, pos: int) -> str:
    for m in regex.finditer(r"\X", text):
        if m.start() < pos < m.end():
            return m.group()
    raise AssertionError(f"{pos} is a grapheme boundary")


def assert_guarantees(text: str, chunks, tok, size: int, overlap: int, strategy: str) -> None:
    if not text or text.isspace():
        assert chunks == ()
        return
    assert chunks, "text with content must give chunks"
    assert chunks[0].start == 0
    assert chunks[-1].end == len(text)
    bounds = grapheme_bounds(text)
    over = set()
    for k, c in enumerate(chunks):
        assert c.index == k
        assert 0 <= c.start < c.end <= len(text)
        assert text[c.start : c.end] == c.text  # offsets by construction
        assert c.tokens == tok.count(c.text)  # the tokenizer's own count of this chunk
        if c.tokens > size:
            # only a single character that alone needs more tokens than the budget
            assert len(c.text) == 1, (c, size)
            over.add(k)
        if k:
            prev = chunks[k - 1]
            assert prev.start < c.start <= prev.end < c.end  # in order, no gap, progress
            if overlap == 0:
                assert c.start == prev.end
            if k > 1:
                assert c.start >= chunks[k - 2].end  # a character is in at most two chunks
            shared = prev.end - c.start
            assert c.overlap_chars == shared
            assert c.overlap_tokens == (tok.count(text[c.start : prev.end]) if shared else 0)
            if strategy != "tokens":
                assert c.overlap_tokens <= overlap
        else:
            assert c.overlap_chars == 0 and c.overlap_tokens == 0
    # no cut inside a grapheme cluster, unless that cluster alone is above the budget
    for k, c in enumerate(chunks):
        for pos in (c.start, c.end):
            if (
                pos in bounds
                or k in over
                or (k + 1 in over and pos == c.end)
                or (k - 1 in over and pos == c.start)
            ):
                continue
            cluster = cluster_at(text, pos)
            assert tok.count(cluster) > size, (pos, cluster, size)


@pytest.mark.parametrize("strategy", [pytest.param(s, id=s) for s in STRATEGIES])
@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(
    text=text_strategy,
    tid=st.sampled_from(TOKENIZERS),
    size=st.integers(1, 48),
    overlap_frac=st.sampled_from([0.0, 0.0, 0.1, 0.5, 0.95]),
)
def test_guarantees_hold_for_any_text(strategy, text, tid, size, overlap_frac):
    tok = builtin(tid)
    overlap = min(size - 1, int(size * overlap_frac))
    result = chunk_text(text, tok, strategy=strategy, size=size, overlap=overlap)
    assert_guarantees(text, result.chunks, tok, size, overlap, strategy)


@pytest.mark.parametrize("strategy", [pytest.param(s, id=s) for s in STRATEGIES])
@settings(max_examples=25)
@given(ws=st.text(alphabet=" \t\n\r\u00a0\u3000\u2028\x0b\x0c", max_size=50), tid=st.sampled_from(TOKENIZERS))
def test_empty_and_whitespace_only_give_no_chunks(strategy, ws, tid):
    assert chunk_text(ws, builtin(tid), strategy=strategy, size=8).chunks == ()


@settings(max_examples=40)
@given(
    sections=st.lists(
        st.tuples(
            st.integers(1, 3),
            st.text(alphabet="abcdefghij ", min_size=1, max_size=12).map(str.strip).filter(bool),
            st.lists(
                st.sampled_from(["alpha", "beta", "gamma", "delta", "épsilon", "中文", "😀"]),
                min_size=1,
                max_size=30,
            ),
        ),
        min_size=1,
        max_size=6,
    ),
    size=st.integers(4, 80),
    tid=st.sampled_from(TOKENIZERS),
)
def test_markdown_heading_stays_with_its_first_paragraph(sections, size, tid):
    tok = builtin(tid)
    parts, pairs = [], []
    pos = 0
    for level, title, words in sections:
        heading = "#" * level + " " + title + "\n\n"
        para = " ".join(words) + ".\n\n"
        pairs.append((pos, pos + len(heading) + len(para)))
        parts += [heading, para]
        pos += len(heading) + len(para)
    text = "".join(parts)
    chunks = chunk_text(text, tok, strategy="markdown", size=size).chunks
    assert_guarantees(text, chunks, tok, size, 0, "markdown")
    for start, end in pairs:
        if tok.count(text[start:end]) <= size:  # heading + first paragraph fit together
            assert any(c.start <= start and end <= c.end for c in chunks), (text[start:end], size)


@settings(max_examples=40)
@given(
    bodies=st.lists(st.integers(1, 6), min_size=2, max_size=7),
    decorated=st.lists(st.booleans(), min_size=7, max_size=7),
    tid=st.sampled_from(TOKENIZERS),
)
def test_code_cuts_only_between_top_level_definitions(bodies, decorated, tid):
    tok = builtin(tid)
    defs, starts = [], []
    pos = 0
    for k, n in enumerate(bodies):
        src = f"# helper number {k}\n" + ("@cache\n" if decorated[k] else "")
        src += (
            f"def f{k}(x):\n" + "".join(f"    x = x * {i} + {k}\n" for i in range(n)) + "    return x\n\n\n"
        )
        starts.append(pos)
        defs.append(src)
        pos += len(src)
    text = "import functools\n\n\n" + "".join(defs)
    starts = [s + len("import functools\n\n\n") for s in starts]
    size = max(tok.count(d) for d in defs) + 8  # every definition fits on its own
    chunks = chunk_text(text, tok, strategy="code", size=size).chunks
    assert_guarantees(text, chunks, tok, size, 0, "code")
    for c in chunks[1:]:
        assert c.start in starts, (c.start, text[c.start : c.start + 30])


@pytest.mark.parametrize("tid", ["cl100k_base", "o200k_base"])
def test_token_windows_overlap_is_exactly_the_setting_on_plain_words(tid):
    tok = builtin(tid)
    words = ["alpha", "beta", "gamma", "delta", "river", "mill", "ledger", "town"] * 20
    text = " ".join(words)
    assert all(tok.count(" " + w) == 1 for w in set(words))  # each word is one token
    for size, overlap in [(10, 3), (16, 8), (7, 1)]:
        chunks = chunk_text(text, tok, strategy="tokens", size=size, overlap=overlap).chunks
        assert all(c.tokens == size for c in chunks[:-1])
        assert all(c.overlap_tokens == overlap for c in chunks[1:])


@pytest.mark.parametrize("strategy", [pytest.param(s, id=s) for s in STRATEGIES if s != "tokens"])
@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(
    text=text_strategy,
    tid=st.sampled_from(TOKENIZERS),
    size=st.integers(1, 48),
    overlap=st.sampled_from([0, 3]),
)
def test_guarantees_hold_when_counts_come_from_one_pass_over_the_text(strategy, text, tid, size, overlap):
    """Long documents read piece counts from the whole text's tokens (between safe cuts); force
    that path on short texts so the properties above cover it too."""
    from tokenizer_core.chunking import atoms

    old = atoms.Counts.UNITS_FROM
    atoms.Counts.UNITS_FROM = 0
    try:
        overlap = min(overlap, size - 1)
        result = chunk_text(text, builtin(tid), strategy=strategy, size=size, overlap=overlap)
    finally:
        atoms.Counts.UNITS_FROM = old
    assert_guarantees(text, result.chunks, builtin(tid), size, overlap, strategy)
