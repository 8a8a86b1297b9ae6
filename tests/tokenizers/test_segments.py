"""Display segments: exact substrings that join back to the input, for every tokenizer."""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import ALL_IDS, builtin
from tokenizer_core import Segment
from tokenizer_core.tokenizers import split_for_batch, unshared_boundaries, view_windows
from tokenizer_core.tokenizers.segments import (
    boundary_offsets,
    remap_segments,
    segments_from_offsets,
    segments_from_pieces,
)

# text that stresses byte-level tokenizers: multi-byte characters, joiners, marks, controls
PIECES = list("ab Z09\n\t\r.,'<|>") + [
    "\u00e9", "e\u0301", "😀", "👨\u200d👩\u200d👧", "🇮🇳", "न", "्", "你", "ع", "\u200b", "\x00", "<|endoftext|>",
]  # fmt: skip
# SentencePiece vocabularies: a space is written "\u2581" in them, so "\u2581" in a text decodes as a space
SENTENCEPIECE = {"gemma2", "gemma3", "mistral_sp_v1", "mistral_sp_v3", "mistral_sp_v7"}
tricky_text = st.lists(st.sampled_from(PIECES) | st.characters(), max_size=40).map("".join)


def check_segments(text: str, segments: list[Segment]) -> None:
    assert "".join(s.text for s in segments) == text
    pos = 0
    for s in segments:
        assert s.start == pos and s.end >= s.start
        assert text[s.start : s.end] == s.text
        pos = s.end
    assert pos == len(text)


@settings(max_examples=80)
@given(text=tricky_text)
def test_segments_join_back_to_the_input_for_any_text(text):
    for tid in ALL_IDS:
        tok = builtin(tid)
        segs = tok.segments(text)
        check_segments(text, segs)
        ids = [i for s in segs for i in s.ids]
        expected_text = unicodedata.normalize("NFC", text) if tid in ("qwen", "qwen35") else text
        assert ids == tok.encode(expected_text), tid
        # valid input never shows a replacement character
        assert all("\ufffd" not in s.text for s in segs) or "\ufffd" in text


@settings(max_examples=80)
@given(text=tricky_text)
def test_ids_round_trip_through_decode(text):
    # A lone surrogate (half an emoji, which st.characters() may draw) has no UTF-8 bytes: the
    # tokenizers read it as U+FFFD, as a browser does.
    text_read = "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in text)
    for tid in ALL_IDS:
        tok = builtin(tid)
        expected = unicodedata.normalize("NFC", text_read) if tid in ("qwen", "qwen35") else text_read
        if tid in SENTENCEPIECE:  # its space mark "\u2581" in the text is a space to it
            expected = expected.replace("\u2581", " ")
        assert tok.decode(tok.encode(text)) == expected, tid


def test_an_emoji_split_over_tokens_is_one_segment():
    tok = builtin("cl100k_base")
    text = "a 🦜 b"
    ids = tok.encode("🦜")
    assert len(ids) > 1  # the parrot is several byte tokens in cl100k_base
    segs = tok.segments(text)
    parrot = [s for s in segs if "🦜" in s.text]
    assert len(parrot) == 1 and len(parrot[0].ids) >= len(ids)
    assert parrot[0].data == parrot[0].text.encode("utf-8")


def test_special_tokens_are_marked_when_allowed():
    tok = builtin("o200k_base")
    segs = tok.segments("x<|endoftext|>y", allow_special=True)
    special = [s for s in segs if s.special]
    assert [s.text for s in special] == ["<|endoftext|>"] and special[0].ids == (199999,)
    assert not any(s.special for s in tok.segments("x<|endoftext|>y"))


def test_segments_from_pieces_groups_partial_characters():
    data = "😀".encode()
    segs = segments_from_pieces([1, 2], [data[:2], data[2:]])
    assert segs == [Segment(0, 1, (1, 2), "😀", data)]
    # an incomplete character at the very end is decoded with replacement, never raised
    tail = segments_from_pieces([7], [data[:3]])
    assert tail[0].ids == (7,) and tail[0].text == "\ufffd"


def test_qwen_segments_map_back_to_unnormalised_input():
    text = "cafe\u0301 ok"  # e + combining acute: NFC composes it
    segs = builtin("qwen").segments(text)
    check_segments(text, segs)
    assert any("e\u0301" in s.text for s in segs)


def test_segments_from_offsets_fills_gaps_and_groups_overlaps():
    text = "ab  cd"
    segs = segments_from_offsets(text, [1, 2, 3], [(0, 2), (4, 6), (4, 6)])
    check_segments(text, segs)
    assert [(s.text, s.ids) for s in segs] == [("ab", (1,)), ("  ", ()), ("cd", (2, 3))]
    attached = segments_from_offsets(text, [1, 2], [(0, 2), (4, 6)], attach_gap=lambda gap, ids: True)
    assert [(s.text, s.ids) for s in attached] == [("ab", (1,)), ("  cd", (2,))]


offset = st.integers(min_value=-3, max_value=30)


@given(text=st.text(max_size=25), spans=st.lists(st.tuples(offset, offset), max_size=20))
def test_segments_from_offsets_on_any_offsets(text, spans):
    """Unsorted, reversed, overlapping, empty or out-of-range offsets: the text always comes
    back whole and every id appears once, in the order of its (clamped) start."""
    ids = list(range(len(spans)))
    segs = segments_from_offsets(text, ids, spans)
    check_segments(text, segs)
    n = len(text)
    clamp = [tuple(sorted(max(0, min(x, n)) for x in span)) for span in spans]
    assert [i for s in segs for i in s.ids] == sorted(ids, key=lambda i: (spans[i][0], spans[i][1]))
    for seg in segs:
        for i in seg.ids:  # a token's clamped span lies inside its segment unless an earlier one covered it
            assert clamp[i][1] <= seg.end or clamp[i][0] < seg.start


def test_remap_merges_until_a_shared_boundary():
    segs = [Segment(0, 1, (1,), "x", b"x"), Segment(1, 2, (2,), "y", b"y"), Segment(2, 3, (3,), "z", b"z")]
    out = remap_segments(segs, "XYZW", {0: 0, 2: 3, 3: 4})
    assert [(s.start, s.end, s.ids) for s in out] == [(0, 3, (1, 2)), (3, 4, (3,))]


def test_unshared_boundaries_marks_only_differences():
    a = [Segment(0, 2, (1,), "ab", b"ab"), Segment(2, 4, (2,), "cd", b"cd")]
    b = [Segment(0, 1, (5,), "a", b"a"), Segment(1, 4, (6,), "bcd", b"bcd")]
    assert boundary_offsets(a) == {0, 2, 4}
    assert unshared_boundaries(a, b) == [frozenset({2}), frozenset({1})]
    assert unshared_boundaries(a) == [frozenset()]


lines = st.lists(
    st.lists(st.sampled_from(list("aZ 9.,'\t-") + ["\u00e9", "😀", "न", "\r"]), max_size=12).map("".join),
    max_size=30,
)


@settings(max_examples=100)
@given(parts=lines, target=st.integers(min_value=1, max_value=40))
def test_batch_split_gives_exactly_the_ids_of_one_call(parts, target):
    text = "\n".join(parts)
    pieces = split_for_batch(text, target)
    assert "".join(pieces) == text
    for tid in ("o200k_base", "cl100k_base", "r50k_base", "llama3", "qwen", "tekken"):
        tok = builtin(tid)
        assert sum((tok.encode(p) for p in pieces), []) == tok.encode(text), (tid, pieces)


def test_count_of_a_large_text_equals_len_encode():
    text = ("Large input line with words, numbers 12345 and emoji 😀.\n" * 6000) + "tail"
    assert len(split_for_batch(text)) > 1
    for tid in ("o200k_base", "cl100k_base", "qwen"):
        tok = builtin(tid)
        assert tok.count(text) == len(tok.encode(text))
        assert tok.count(text, allow_special=True) == len(tok.encode(text, allow_special=True))


@settings(max_examples=100)
@given(text=st.text(max_size=300), size=st.integers(min_value=1, max_value=50))
def test_view_windows_cover_the_text_in_order(text, size):
    windows = view_windows(text, size)
    pos = 0
    for start, end, _exact in windows:
        assert start == pos and end >= start
        pos = end
    assert pos == len(text)
    assert all(end - start <= 3 * size or exact for start, end, exact in windows) or len(windows) == 1
