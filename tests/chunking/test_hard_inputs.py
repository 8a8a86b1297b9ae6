"""The chunker on inputs that used to break it: long runs of clusters that
a small budget cannot hold, scripts whose tokens end inside grapheme clusters, tiny budgets.

Expected answers come from tiktoken itself (the raw `tiktoken.Encoding` under each built-in)
and from the `regex` module's ``\\X``, never from the chunker: a cluster "fits" when tiktoken's
own encoding of that cluster alone is within the budget.
"""

from __future__ import annotations

import pytest
import regex
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.chunking.test_guarantees import assert_guarantees
from tests.conftest import builtin
from tokenizer_core import chunk_text
from tokenizer_core.chunking import STRATEGIES
from tokenizer_core.tokenizers import TiktokenTokenizer

HINDI = "ज्ञान विज्ञान क्षत्रिय श्रीमान् हिन्दी में लिखा गया पाठ। "
THAI = "ภาษาไทยไม่มีช่องว่างระหว่างคำ"
FLAG = "🇮🇳"
FAMILY = "👨\u200d👩\u200d👧\u200d👦"
JAMO = "\u1100\u1161\u11a8"  # one Hangul syllable written as three conjoining jamo: one cluster


def clusters(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in regex.finditer(r"\X", text)]


def raw_count(tid: str, text: str) -> int:
    """tiktoken's own count: the Encoding object, not our wrapper."""
    return len(builtin(tid).encoding.encode_ordinary(text))


def assert_no_fitting_cluster_cut(tid: str, text: str, chunks, size: int) -> None:
    """No chunk edge inside a cluster that tiktoken counts within the budget, and no note that
    calls such a cluster too big."""
    inside = {p: (a, b) for a, b in clusters(text) for p in range(a + 1, b)}
    for c in chunks:
        for pos in (c.start, c.end):
            if pos in inside:
                a, b = inside[pos]
                n = raw_count(tid, text[a:b])
                assert n > size, f"cut at {pos} inside {text[a:b]!r} ({n} tokens) at size {size}"
        if "grapheme" in c.note:
            cut = [inside[p] for p in (c.start, c.end) if p in inside]
            assert cut, f"note {c.note!r} on a chunk with whole clusters at both ends"
            assert all(raw_count(tid, text[a:b]) > size for a, b in cut), c.note


# --------------------------------------------------------------------- item 9: no recursion


@pytest.mark.parametrize(
    ("text", "strategy", "size"),
    [
        pytest.param(FLAG * 800, "tokens", 1, id="flags-tokens-1"),
        pytest.param(FLAG * 800, "recursive", 2, id="flags-recursive-2"),
        pytest.param(FAMILY * 200, "tokens", 1, id="family-tokens-1"),
        pytest.param(FAMILY * 200, "recursive", 1, id="family-recursive-1"),
        pytest.param(FLAG * 1000, "tokens", 2, id="flags-tokens-2"),
        pytest.param(JAMO * 1000, "tokens", 2, id="jamo-tokens-2"),
        pytest.param(JAMO * 1000, "recursive", 2, id="jamo-recursive-2"),
    ],
)
def test_long_runs_of_clusters_chunk_without_recursion(text, strategy, size):
    tok = builtin("cl100k_base")
    result = chunk_text(text, tok, strategy=strategy, size=size)  # RecursionError before the fix
    assert_guarantees(text, result.chunks, tok, size, 0, strategy)
    assert_no_fitting_cluster_cut("cl100k_base", text, result.chunks, size)


# ------------------------------------------------------------ item 10: linear work at size 1


class _Meter:
    """A tiktoken Encoding that adds up the characters it is asked to encode."""

    def __init__(self, encoding) -> None:
        self._encoding = encoding
        self.chars = 0

    def __getattr__(self, name):
        attr = getattr(self._encoding, name)
        if not name.startswith("encode"):
            return attr

        def metered(arg, *args, **kwargs):
            self.chars += len(arg) if isinstance(arg, str) else sum(map(len, arg))
            return attr(arg, *args, **kwargs)

        return metered


def _encoded_chars(text: str, strategy: str, size: int) -> int:
    tok = builtin("cl100k_base")
    meter = _Meter(tok.encoding)
    metered = TiktokenTokenizer(tok.info, meter, newline_safe=tok.newline_safe)
    chunks = chunk_text(text, metered, strategy=strategy, size=size).chunks
    assert "".join(c.text for c in chunks) == text
    return meter.chars


@pytest.mark.parametrize("strategy", ["tokens", "recursive"])
@pytest.mark.parametrize(
    "unit", [pytest.param(THAI, id="thai"), pytest.param("e\u0301" * 15 + " n\u0303\u0323" * 3, id="marks")]
)
def test_work_per_character_does_not_grow_with_the_text_at_size_1(strategy, unit):
    """Characters handed to the encoder per character of text: the same for a text 4x longer
    (a quadratic chunker re-encodes the rest of the text after every hard cut)."""
    short, long = unit * 10, unit * 40
    per_short = _encoded_chars(short, strategy, 1) / len(short)
    per_long = _encoded_chars(long, strategy, 1) / len(long)
    assert per_long <= 1.25 * per_short + 1, (per_short, per_long)
    assert per_long <= 40, per_long  # a handful of short counts per window, not a re-encode


# ---------------------------------------------------- item 11: a cluster that fits is whole


@pytest.mark.parametrize(
    ("tid", "text", "strategy", "size"),
    [
        pytest.param("cl100k_base", "ज्ञान", "tokens", 5, id="jnyana-cl100k-tokens-5"),
        pytest.param("o200k_base", "ว่าง", "recursive", 1, id="thai-o200k-recursive-1"),
    ],
)
def test_the_reported_cases(tid, text, strategy, size):
    result = chunk_text(text, builtin(tid), strategy=strategy, size=size)
    assert "".join(c.text for c in result.chunks) == text
    assert_no_fitting_cluster_cut(tid, text, result.chunks, size)


def test_jnyana_is_cut_after_its_first_cluster_when_that_cluster_fits():
    tid, text = "cl100k_base", "ज्ञान"
    first = clusters(text)[0]
    assert text[slice(*first)] == "ज्ञा" and raw_count(tid, "ज्ञा") == 5  # tiktoken's count
    chunks = chunk_text(text, builtin(tid), strategy="tokens", size=5).chunks
    assert [c.text for c in chunks] == ["ज्ञा", "न"]
    assert all(c.note == "" for c in chunks)


@pytest.mark.parametrize("strategy", list(STRATEGIES))
@pytest.mark.parametrize("tid", ["cl100k_base", "o200k_base"])
@pytest.mark.parametrize("text", [pytest.param(HINDI, id="hindi"), pytest.param(THAI * 2, id="thai")])
def test_no_strategy_cuts_a_cluster_that_fits(strategy, tid, text):
    tok = builtin(tid)
    for size in (1, 2, 3, 4, 5, 6, 8):
        for overlap in {0, size // 2}:
            result = chunk_text(text, tok, strategy=strategy, size=size, overlap=overlap)
            assert_guarantees(text, result.chunks, tok, size, overlap, strategy)
            assert_no_fitting_cluster_cut(tid, text, result.chunks, size)


CLUSTERY = [
    "ज्ञा", "न", "क्ष", "श्री", "हि", "न्दी", "ว่", "า", "ง", "ภา", "ษา", "ไท", "ย", "ไม่", FLAG, FAMILY,
    JAMO, "e\u0301", "n\u0303\u0323", "👍🏽", " ", "\n", "a", "。", "中",
]  # fmt: skip


@pytest.mark.parametrize("strategy", list(STRATEGIES))
@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(
    parts=st.lists(st.sampled_from(CLUSTERY), min_size=1, max_size=40),
    tid=st.sampled_from(["cl100k_base", "o200k_base"]),
    size=st.integers(1, 12),
    overlap_frac=st.sampled_from([0.0, 0.0, 0.5]),
)
def test_clusters_are_cut_only_when_they_alone_exceed_the_budget(strategy, parts, tid, size, overlap_frac):
    text = "".join(parts)
    if text.isspace():
        return
    overlap = min(size - 1, int(size * overlap_frac))
    tok = builtin(tid)
    result = chunk_text(text, tok, strategy=strategy, size=size, overlap=overlap)
    assert_guarantees(text, result.chunks, tok, size, overlap, strategy)
    assert_no_fitting_cluster_cut(tid, text, result.chunks, size)
