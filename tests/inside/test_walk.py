"""Inside a tokenizer: the replayed steps are the real tokenizers' steps."""

from __future__ import annotations

import unicodedata

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import ALL_IDS, builtin
from tokenizer_core.inside import (
    byte_display,
    byte_to_unicode,
    cut,
    inspect_text,
    machine_for,
    merge_steps,
    replayed_ids,
)
from tokenizer_core.inside.html import chips, pieces_html, text_html
from tokenizer_core.tokenizers import patterns

# Text with the characters tokenizers treat differently: letters (cased, accented, CJK,
# Devanagari), digits, punctuation, spaces, tabs, line ends, emoji, contractions.
WORDS = st.sampled_from(
    ["the", " the", "Total", " TOTAL", "strawberry", "don't", "I'M", "1234567", "3.14", "naïve",
     "a\u0301", "你好", "नमस्ते", "😀", "👨\u200d👩\u200d👧", "  ", "\t", "\r\n", "\n\n", " ", "!?", "<|endoftext|>",
     "calculate_total", "getUserById", "ꙮ", "\u00a0", "é"]
)  # fmt: skip
# Characters assigned since Unicode 14 (U+323B0, CJK extension H: 15.0) are letters to the `regex`
# module the replay splits with, and unassigned to the tokenizers' own engines (and to Python 3.11's
# unicodedata, 14.0): there the replay differs and the page says so
# (test_a_character_newer_than_the_tokenizers_unicode_is_said_to_differ).
NEWER = regex.compile(r"\P{Cn}")
CHARS = st.characters().filter(lambda c: unicodedata.category(c) != "Cn" or not NEWER.match(c))
TEXTS = st.one_of(
    st.text(CHARS, max_size=60),
    st.lists(st.one_of(WORDS, st.text(CHARS, max_size=4)), max_size=14).map("".join),
)


def test_every_builtin_is_replayed():
    machines = {i: machine_for(builtin(i)) for i in ALL_IDS}
    kinds = {i: m.kind for i, m in machines.items()}
    # every built-in: byte-level BPE over ranks, tokenizer.json BPE or SentencePiece BPE by scores
    assert [i for i, m in machines.items() if not m.replays] == []
    assert {"o200k_base", "cl100k_base", "llama3", "qwen", "tekken", "deepseek_v4", "r50k_base"} <= {
        i for i, k in kinds.items() if k in ("byte-bpe", "hf-bpe")
    }
    assert {kinds[i] for i in ("gemma3", "mistral_sp_v1")} == {"sentencepiece"}


# Every built-in (the tokenizers load when a test needs them, not when the tests are collected).
@pytest.mark.parametrize("tid", [pytest.param(i, id=i) for i in ALL_IDS])
@settings(max_examples=60)
@given(text=TEXTS)
def test_the_merge_replay_gives_the_tokenizers_ids(tid, text):
    tok = builtin(tid)
    walk = inspect_text(tok, text)
    assert replayed_ids(machine_for(tok), walk.pieces) == tok.encode(text)
    assert walk.replay_same is True


def test_a_character_newer_than_the_tokenizers_unicode_is_said_to_differ():
    tok = builtin("llama3")
    walk = inspect_text(tok, "\U000323b0/A")  # "/" and "A" apart for llama3, "/A" one piece to the replay
    assert tok.encode("\U000323b0/A")[-2:] == tok.encode("/") + tok.encode("A")
    assert walk.replay_same is False


@pytest.mark.parametrize("tid", [pytest.param(i, id=i) for i in ALL_IDS])
@settings(max_examples=40)
@given(text=TEXTS)
def test_pieces_join_back_to_the_text(tid, text):
    walk = inspect_text(builtin(tid), text)
    assert "".join(p.text for p in walk.pieces) == walk.normalised
    assert [p.start for p in walk.pieces] == [0, *(p.end for p in walk.pieces)][: len(walk.pieces)]
    assert all(p.start < p.end for p in walk.pieces)


def test_the_replay_matches_tiktokens_educational_bpe():
    """tiktoken's `_educational.bpe_encode` merges the lowest-ranked pair until none is left:
    an independent replay of the same rule."""
    from tiktoken._educational import bpe_encode

    m = machine_for(builtin("cl100k_base"))
    for piece in [" strawberry", " tokenization", " calculate_total", " ꙮ", " antidisestablishmentarianism"]:
        replay = m.replay(piece)
        assert list(replay.ids) == bpe_encode(m.ranks, piece.encode("utf-8"), visualise=None)
        if not replay.whole:
            assert replay.steps and replay.steps[-1].parts == replay.parts
            assert "".join(replay.parts) == byte_display(piece.encode("utf-8"))


def test_a_step_shows_the_pair_its_real_rank_and_the_parts_left():
    m = machine_for(builtin("r50k_base"))
    replay = m.replay(" tokenization")
    ranks = m.ranks
    parts = list(replay.start)
    for step in replay.steps:
        left, right = parts[step.position], parts[step.position + 1]
        assert (left, right) == (step.left, step.right)
        from tokenizer_core.inside.byte_alphabet import display_bytes

        merged = display_bytes(left + right)
        assert merged is not None and ranks[merged] == step.rank
        parts[step.position : step.position + 2] = [left + right]
        assert tuple(parts) == step.parts
    assert replay.ids == tuple(builtin("r50k_base").encode(" tokenization"))


def test_merge_steps_takes_the_lowest_rank_first_and_the_leftmost_on_a_tie():
    ranks = {"ab": 1, "bc": 0, "aa": 2}
    final, done = merge_steps("abc", lambda a, b: ranks.get(a + b), lambda a, b: a + b)
    assert final == ["a", "bc"] and [d[:2] for d in done] == [(0, 1)]
    final, done = merge_steps("aaaa", lambda a, b: ranks.get(a + b), lambda a, b: a + b)
    assert final == ["aa", "aa"] and [d[1] for d in done] == [0, 1]


def test_gpt2_byte_alphabet():
    """GPT-2's encoder.py: printable bytes keep their character; space is Ġ, newline Ċ, tab ĉ."""
    table = byte_to_unicode()
    assert len(set(table.values())) == 256
    assert (table[ord(" ")], table[ord("\n")], table[ord("\t")], table[ord("a")]) == ("Ġ", "Ċ", "ĉ", "a")
    assert byte_display(" é".encode()) == "ĠÃ©"


def test_pieces_are_the_published_pattern_cuts():
    text = "Hello world 12345 don't  stop"
    pieces = [text[s:e] for s, e, _ in cut(patterns.CL100K, text)]
    assert pieces == ["Hello", " world", " ", "123", "45", " don", "'t", " ", " stop"]
    qwen = ["12345"[s:e] for s, e, _ in cut(patterns.QWEN, "12345")]
    assert qwen == ["1", "2", "3", "4", "5"]


def test_sentencepiece_byte_fallback_shows_the_utf8_bytes():
    walk = inspect_text(builtin("mistral_sp_v1"), "Hi ꙮ")
    # ꙮ (U+A66E) is E A 9 9 A E in UTF-8
    assert [s.tokens for s in walk.fallback.split] == [("<0xEA>", "<0x99>", "<0xAE>")]
    assert walk.normalisation is not None and walk.normalisation.after == "▁Hi▁ꙮ"
    assert walk.replay_same is True and walk.method == "scores"
    assert walk.round_trip.same


def test_a_lone_id_that_is_part_of_a_character_says_so():
    walk = inspect_text(builtin("cl100k_base"), "ꙮ")
    assert len(walk.ids) > 1 and all(t.alone is None for t in walk.tokens[1:])
    assert b"".join(t.data for t in walk.tokens) == "ꙮ".encode()
    assert "No character is ever unknown" in walk.fallback.sentence


def test_qwen_normalises_to_nfc():
    walk = inspect_text(builtin("qwen"), "cafe\u0301")
    assert walk.normalisation is not None and walk.normalisation.after == "café"
    assert walk.normalised == "café" and walk.replay_same


def test_html_escapes_user_text_and_caps_what_it_draws():
    hostile = "<img src=x onerror=alert(1)>"
    walk = inspect_text(builtin("o200k_base"), hostile)
    for out in (pieces_html(walk.pieces), chips([hostile]), text_html(hostile)):
        assert "<img" not in out and "&lt;img" in out
    big = inspect_text(builtin("o200k_base"), "word " * 3000)
    out = pieces_html(big.pieces, limit=200)
    assert out.count("tw-chip") == 200 and "2,801 more pieces" in out  # 3,000 words and the last space
    assert len(out) < 40_000
