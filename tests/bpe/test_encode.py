"""Encoding with learned merges: traces, real tokenizers, the tiktoken export and its checks."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenizer_core import BPEError, BPEModel, BPEOptions, train_bpe, trained_tokenizer
from tokenizer_core.bpe import BPE_PRESETS, MergeEncoder, export_agreement, probe_bpe, tiktoken_problem
from tokenizer_core.bpe.encode import BPETokenizer, tiktoken_ranks, to_tiktoken
from tokenizer_core.tokenizers import TiktokenTokenizer

PROSE = BPE_PRESETS["English prose (4 KB)"].corpus()
CODE = BPE_PRESETS["Python code (4 KB)"].corpus()
SEED_002 = BPE_PRESETS["load / data / stream"]


def _byte_model(text: str = PROSE, pre: str = "cl100k", merges: int = 200):
    return train_bpe(text, BPEOptions(symbols="bytes", pretokenizer=pre, merges=merges))


BYTE_MODEL = _byte_model()
BYTE_WS_MODEL = _byte_model(PROSE + CODE, pre="whitespace", merges=150)
CHAR_MODEL = train_bpe(SEED_002.corpus(), SEED_002.options)


def test_probe_trace_shows_which_merge_fired_where():
    # seed 002's merges on "reloading": o+a, oa+d, l+oad make "load" at character 2
    result = probe_bpe(CHAR_MODEL, "reloading")
    fired = {(f.left, f.right): (f.rank, f.starts) for f in result.fired}
    assert fired[("o", "a")] == (1, (3,))
    assert fired[("l", "oad")] == (3, (2,))
    assert [t.symbol for t in result.tokens] == ["re", "load", "i", "ng", "</w>"]
    assert [(t.start, t.end) for t in result.tokens] == [(0, 2), (2, 6), (6, 7), (7, 9), (9, 9)]
    assert "".join(s.text for s in result.segments) == "reloading"


def test_probe_at_an_earlier_step_uses_only_those_merges():
    at3 = probe_bpe(CHAR_MODEL, "loading datasets", step=3)
    assert [f.rank for f in at3.fired] == [1, 2, 3]
    assert [t.symbol for t in at3.tokens][:2] == ["load", "i"]
    assert "data" not in [t.symbol for t in at3.tokens]  # d+a and da+ta are merges 5 and 6
    at0 = probe_bpe(CHAR_MODEL, "load", step=0)
    assert at0.fired == () and [t.symbol for t in at0.tokens] == ["l", "o", "a", "d", "</w>"]


def test_probe_with_unseen_characters_and_html():
    text = "<img src=x onerror=alert(1)> 🚀 é"
    result = probe_bpe(CHAR_MODEL, text)
    assert "".join(s.text for s in result.segments) == text
    rocket = [s for s in result.segments if "🚀" in s.text]
    assert rocket and len(rocket[0].ids) >= 4  # four fallback bytes, grouped as one character


def test_byte_level_model_exports_to_tiktoken_with_identical_ids():
    assert tiktoken_problem(BYTE_MODEL) == ""
    enc = to_tiktoken(BYTE_MODEL)
    assert enc.n_vocab == 256 + 200
    py = MergeEncoder(BYTE_MODEL)
    from tokenizer_core.bpe.model import pretokenize

    for text in (PROSE[:1500], CODE[:1500], "Hello 🚀 wörld"):
        expected = [i for piece in pretokenize(text, "cl100k") for i in py.encode_word(piece)]
        assert enc.encode_ordinary(text) == expected
    agreement = export_agreement(BYTE_MODEL, enc)
    assert agreement.all_same and agreement.total == len(BYTE_MODEL.words)


def test_whitespace_model_exports_with_the_same_split_as_python():
    enc = to_tiktoken(BYTE_WS_MODEL)
    tok = BPETokenizer(trained_tokenizer(BYTE_WS_MODEL, name="py").info, BYTE_WS_MODEL)
    # every character Python's str.split() treats as whitespace, between words
    spaces = "".join(chr(c) for c in range(0x3001) if chr(c).isspace())
    text = "the harbour" + spaces + "item.quantity\x1cself"
    assert enc.encode_ordinary(text) == tok.encode(text)
    assert enc.decode(enc.encode_ordinary(text)) == text


def test_trained_tokenizer_is_tiktoken_for_bytes_and_python_for_chars():
    tok = trained_tokenizer(BYTE_MODEL, name="  my prose bpe ")
    assert isinstance(tok, TiktokenTokenizer)
    assert tok.info.kind == "trained" and tok.info.name == "my prose bpe" and tok.n_vocab == 456
    text = "The harbour town wakes before the light does."
    assert tok.count(text) < len(text.encode())
    assert "".join(s.text for s in tok.segments(text)) == text
    char_tok = trained_tokenizer(CHAR_MODEL, name="seed 002")
    assert isinstance(char_tok, BPETokenizer) and char_tok.info.kind == "trained"
    assert "characters" in tiktoken_problem(CHAR_MODEL)
    assert char_tok.id != tok.id and char_tok.id.startswith("trained-")


@settings(max_examples=150)
@given(text=st.text())
def test_byte_level_decode_encode_round_trips_any_text(text):
    tok = trained_tokenizer(BYTE_MODEL, name="x")
    from tokenizer_core.tokenizers import clean_text

    assert tok.decode(tok.encode(text)) == clean_text(text)


@settings(max_examples=100)
@given(text=st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=60))
def test_character_level_tokenizer_round_trips_and_segments_cover(text):
    tok = trained_tokenizer(CHAR_MODEL, name="x")
    ids = tok.encode(text)
    if "</w>" not in text:  # the marker written as text is ambiguous, as in the seeds
        assert tok.decode(ids) == text
    segs = tok.segments(text)
    assert "".join(s.text for s in segs) == text
    assert [i for s in segs for i in s.ids] == ids
    assert all(0 <= i < tok.n_vocab for i in ids)


@settings(max_examples=60)
@given(text=st.text(max_size=80))
def test_byte_level_python_tokenizer_with_marker_round_trips(text):
    model = train_bpe(PROSE[:800], BPEOptions(symbols="bytes", end_marker="</w>", merges=60))
    tok = trained_tokenizer(model, name="m")
    assert isinstance(tok, BPETokenizer) and "marker" in tiktoken_problem(model)
    from tokenizer_core.tokenizers import clean_text

    if "</w>" not in text:
        assert tok.decode(tok.encode(text)) == clean_text(text)
    assert "".join(s.text for s in tok.segments(text)) == clean_text(text)


def test_ranks_are_validated_before_tiktoken_is_called():
    broken = BPEModel(BPEOptions(symbols="bytes", merges=0), tuple(bytes([i]) for i in range(200)), ())
    with pytest.raises(BPEError, match="single bytes have no rank"):
        tiktoken_ranks(broken)
    duplicated = BPEModel(
        BPEOptions(symbols="bytes", merges=0), tuple(bytes([i]) for i in range(256)) + (b"a",), ()
    )
    with pytest.raises(BPEError, match="repeated"):
        to_tiktoken(duplicated)
    with pytest.raises(BPEError, match="characters"):
        to_tiktoken(CHAR_MODEL)


def _hand_model(pairs: list[tuple[bytes, bytes]], words: tuple[str, ...] = ()) -> BPEModel:
    """A byte-level model with the given merges (as a saved file could hold them)."""
    from tokenizer_core.bpe.model import MergeStep

    base = tuple(bytes([i]) for i in range(256))
    steps, ids = [], {s: i for i, s in enumerate(base)}
    for n, (a, b) in enumerate(pairs, start=1):
        ids.setdefault(a + b, len(ids))
        steps.append(MergeStep(n, a, b, a + b, ids[a + b], 1, len(ids), 0, 0))
    return BPEModel(
        BPEOptions(symbols="bytes", merges=len(pairs)), base, tuple(steps), words, (1,) * len(words)
    )


def test_a_string_made_twice_is_one_token_with_one_rank():
    # a+b, ab+c, b+c, a+bc: "abc" is made by two merges; it gets a single id and rank
    model = _hand_model([(b"a", b"b"), (b"ab", b"c"), (b"b", b"c"), (b"a", b"bc")])
    assert model.vocab[256:] == (b"ab", b"abc", b"bc")
    ranks = tiktoken_ranks(model)
    assert ranks[b"abc"] == 257 and len(ranks) == 259
    enc = to_tiktoken(model)
    assert enc.decode(enc.encode("abc bcd")) == "abc bcd"
    assert MergeEncoder(model).encode_word("abc") == [257]


def test_agreement_check_finds_where_tiktoken_and_merge_order_differ():
    # merge order: a+b first, so "abc" -> ab|c and a+bc never fires. tiktoken merges by the
    # rank of the joined bytes, and "abc" has one, so it makes abc: the check reports it
    model = _hand_model([(b"a", b"b"), (b"b", b"c"), (b"a", b"bc")], words=("abc", "bc", "ab"))
    assert [model.vocab[i] for i in MergeEncoder(model).encode_word("abc")] == [b"ab", b"c"]
    agreement = export_agreement(model, to_tiktoken(model))
    assert (agreement.same, agreement.total, agreement.examples) == (2, 3, ("abc",))
    assert not agreement.all_same


def test_words_at_step_segments_training_words():
    from tokenizer_core.bpe import bpe_words_at_step

    views = bpe_words_at_step(CHAR_MODEL, 3)
    first = views[0]
    assert first.word == "load" and first.count == 20
    assert [sym for sym, _ in first.tokens] == ["load", "</w>"]
    assert [v.word for v in bpe_words_at_step(CHAR_MODEL, 0, order="frequent", max_words=2)] == [
        "load",
        "loader",
    ]
