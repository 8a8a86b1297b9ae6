"""The seed's greedy longest-match tokenizer: its printed splits are the known answers."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenizer_core.identifiers.greedy import (
    SEED_VOCAB,
    GreedyTokenizer,
    GreedyVocabError,
    greedy_split,
    greedy_tokenize,
    normalize_vocab,
    parse_vocab,
    split_chunk,
)

# Printed in the tokenization seed (000_26095c6fcac99f7e.txt), output of its program.
SEED_SPLITS = [
    ("def calculate_total(items):", 27, ["def", "calc", "ulate", "_", "total", "(", "items", ")", ":"]),
    ("getUserById(id)", 15, ["get", "User", "By", "Id", "(", "id", ")"]),
    ("response.json()", 15, ["response", ".", "json", "(", ")"]),
    ("qx9_zz", 6, ["q", "x", "9", "_", "z", "z"]),
]


@pytest.mark.parametrize(("text", "chars", "pieces"), SEED_SPLITS, ids=[s[0] for s in SEED_SPLITS])
def test_the_seeds_four_splits_exactly(text, chars, pieces):
    assert len(text) == chars
    assert greedy_tokenize(text) == pieces
    assert greedy_tokenize(text, SEED_VOCAB) == pieces
    assert GreedyTokenizer().count(text) == len(pieces)


def test_seed_vocabulary_is_the_seeds_18_pieces():
    assert len(SEED_VOCAB) == 18
    assert set(SEED_VOCAB) == {"calc", "ulate", "total", "get", "user", "by", "id", "_", "(", ")",
                               ":", "def", "items", "item", "s", "response", "json", "."}  # fmt: skip


def test_steps_record_every_decision_with_offsets():
    result = greedy_split("def calculate_total(items):")
    assert [(s.pos, s.piece, s.known) for s in result.steps[:4]] == [
        (0, "def", True), (4, "calc", True), (8, "ulate", True), (13, "_", True),
    ]  # fmt: skip
    for (start, end), piece in zip(result.offsets, result.pieces):
        assert "def calculate_total(items):"[start:end] == piece
    unknown = greedy_split("qx9_zz")
    assert unknown.unknown == 5  # q x 9 z z; "_" is in the vocabulary
    assert [s.known for s in unknown.steps] == [False, False, False, True, False, False]


def test_longest_match_prefers_items_over_item_plus_s():
    assert greedy_tokenize("items") == ["items"]
    assert greedy_tokenize("items", ["item", "s"]) == ["item", "s"]
    assert [s.piece for s in split_chunk("getUserById")] == ["get", "User", "By", "Id"]


def test_case_is_ignored_in_lookups_but_kept_in_pieces():
    assert greedy_tokenize("GETUSER") == ["GET", "USER"]
    assert greedy_tokenize("getuser", ["GET", "User"]) == ["get", "user"]


def test_editing_the_vocabulary_changes_the_split():
    vocab = parse_vocab("\n".join(SEED_VOCAB) + "\ncalculate\n")
    assert greedy_tokenize("def calculate_total(items):", vocab)[1] == "calculate"
    assert greedy_tokenize("qx9_zz", [*SEED_VOCAB, "zz", "qx"]) == ["qx", "9", "_", "zz"]


def test_parse_vocab_formats_and_errors():
    assert parse_vocab("get, user\n_ id\n\n") == ("get", "user", "_", "id")
    assert parse_vocab("a\n,\nb") == ("a", ",", "b")
    assert parse_vocab("Get\nget\nGET") == ("get",)
    with pytest.raises(GreedyVocabError, match="empty"):
        parse_vocab("  \n\n")
    with pytest.raises(GreedyVocabError, match="limit"):
        parse_vocab("x" * 100)
    with pytest.raises(GreedyVocabError, match="too many"):
        parse_vocab("\n".join(f"p{i}" for i in range(6000)))
    with pytest.raises(GreedyVocabError, match="without spaces"):
        normalize_vocab(["a b"])


def test_tokenizer_interface():
    tok = GreedyTokenizer()
    assert tok.info.id == "greedy-seed"
    other = GreedyTokenizer([*SEED_VOCAB, "zz"])
    assert other.info.id != tok.info.id and other.info.id == GreedyTokenizer([*SEED_VOCAB, "zz"]).info.id
    ids = tok.encode("getUserById(id)")
    assert tok.decode(ids) == "getuserbyid(id)"  # vocabulary pieces are stored lower-cased
    assert tok.decode(tok.encode("qx9")) == "qx9"  # unknown characters round-trip
    segs = tok.segments("def  calculate")
    assert "".join(s.text for s in segs) == "def  calculate"
    assert [s.text for s in segs if not s.ids] == ["  "]  # whitespace is dropped, shown without tokens
    assert tok.special_tokens == {} and tok.n_vocab == 18


@settings(max_examples=120)
@given(st.text(max_size=60))
def test_pieces_cover_the_text_without_whitespace(text):
    result = greedy_split(text)
    assert "".join(result.pieces) == "".join(c for m in result.steps for c in m.piece)
    kept = "".join(text[a:b] for a, b in result.offsets)
    assert kept == "".join(result.pieces)
    # every non-space character is in exactly one piece (the seed's chunk pattern skips \s only)
    assert len(kept) == sum(1 for c in text if not c.isspace())
    for piece in result.pieces:
        assert piece.lower() in SEED_VOCAB or len(piece) == 1
    segs = GreedyTokenizer().segments(text)
    assert "".join(s.text for s in segs) == text
