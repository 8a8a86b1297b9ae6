"""Inside a user's own tokenizer: a .tiktoken file, a tokenizer.json, a model trained in the BPE
playground. The replay must give the tokenizer's ids, or the page must say it does not replay."""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tokenizer_core as tc
from tests.inside.test_walk import TEXTS
from tokenizer_core.inside import inspect_text, machine_for, replayed_ids
from tokenizer_core.tokenizers import registry, tokenizer_from_hf_json, tokenizer_from_tiktoken_bytes

CORPUS = ["the cat sat on the mat", "the dog ate the cat food", "lower lowest newer newest widest"] * 40


def _trained_json(model, *, pre, normalizer=None, decoder=None, trainer_kind="bpe") -> bytes:
    from tokenizers import Tokenizer, trainers

    tk = Tokenizer(model)
    tk.pre_tokenizer = pre
    if normalizer is not None:
        tk.normalizer = normalizer
    if decoder is not None:
        tk.decoder = decoder
    if trainer_kind == "bpe":
        from tokenizers import pre_tokenizers

        trainer = trainers.BpeTrainer(
            vocab_size=400, show_progress=False, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
        )
    else:
        trainer = trainers.WordPieceTrainer(vocab_size=300, show_progress=False, special_tokens=["[UNK]"])
    tk.train_from_iterator(CORPUS, trainer)
    return tk.to_str().encode("utf-8")


@functools.cache
def own(kind: str) -> tc.Tokenizer:
    from tokenizers import decoders, models, normalizers, pre_tokenizers

    if kind == "tiktoken":
        data = (registry.DATA_DIR / "r50k_base.tiktoken").read_bytes()
        return tokenizer_from_tiktoken_bytes(data, name="my gpt2", pattern_id="cl100k")
    if kind == "json-bytelevel":
        data = _trained_json(
            models.BPE(), pre=pre_tokenizers.ByteLevel(add_prefix_space=False), decoder=decoders.ByteLevel()
        )
        return tokenizer_from_hf_json(data, name="my byte-level")
    if kind == "json-nfkc-split":
        pre = pre_tokenizers.Sequence(
            [pre_tokenizers.Digits(individual_digits=True), pre_tokenizers.ByteLevel(add_prefix_space=False)]
        )
        data = _trained_json(
            models.BPE(), pre=pre, normalizer=normalizers.NFKC(), decoder=decoders.ByteLevel()
        )
        return tokenizer_from_hf_json(data, name="my nfkc")
    if kind == "json-wordpiece":
        data = _trained_json(
            models.WordPiece(unk_token="[UNK]"), pre=pre_tokenizers.Whitespace(), trainer_kind="wordpiece"
        )
        return tokenizer_from_hf_json(data, name="my wordpiece")
    symbols, marker, pre = {
        "trained-chars": ("chars", "", "whitespace"),
        "trained-chars-marker": ("chars", "</w>", "whitespace"),
        "trained-bytes-marker": ("bytes", "</w>", "whitespace"),
        "trained-bytes": ("bytes", "", "whitespace"),
        "trained-bytes-o200k": ("bytes", "", "o200k"),
    }[kind]
    words = tc.bpe.count_words(" ".join(CORPUS))
    model = tc.train_bpe(
        words, tc.BPEOptions(symbols=symbols, end_marker=marker, merges=60, pretokenizer=pre)
    )
    return tc.trained_tokenizer(model, name=kind)


REPLAYED = [
    "tiktoken", "json-bytelevel", "json-nfkc-split", "trained-chars", "trained-chars-marker",
    "trained-bytes-marker", "trained-bytes", "trained-bytes-o200k",
]  # fmt: skip


@pytest.mark.parametrize("kind", REPLAYED)
@settings(max_examples=60)
@given(text=TEXTS)
def test_a_users_bpe_is_replayed_to_its_own_ids(kind, text):
    tok = own(kind)
    m = machine_for(tok)
    assert m.replays
    walk = inspect_text(tok, text)
    assert "".join(p.text for p in walk.pieces) == walk.normalised
    assert replayed_ids(m, walk.pieces) == tok.encode(text)
    assert walk.replay_same is True


def test_a_trained_model_shows_its_merges_in_learned_order():
    tok = own("trained-chars-marker")
    replay = machine_for(tok).replay("newest")
    assert replay.start == ("n", "e", "w", "e", "s", "t", "</w>")
    assert replay.steps and replay.parts[-1].endswith("</w>")
    assert list(replay.ids) == tok.encode("newest")


def test_nfkc_is_shown_before_and_after():
    walk = inspect_text(own("json-nfkc-split"), "ﬁne ２０２４")
    assert walk.normalisation is not None and walk.normalisation.after == "fine 2024"
    assert "NFKC" in walk.normalisation.rule
    assert [p.text for p in walk.pieces if p.text.strip().isdigit()] == ["2", "0", "2", "4"]
    assert walk.replay_same


def test_a_wordpiece_file_is_replayed_longest_match_first():
    walk = inspect_text(own("json-wordpiece"), "the cat sat")
    assert walk.replay_same is True and walk.method == "longest"
    assert walk.ids == tuple(own("json-wordpiece").encode("the cat sat"))
    assert [p.text for p in walk.dropped] == [" ", " "]


@pytest.mark.parametrize("kind", ["tiktoken", "json-bytelevel", "trained-chars"])
def test_hostile_text_in_a_users_tokenizer(kind):
    for text in ["", "<|endoftext|>", "<img src=x onerror=alert(1)>", "😀" * 50, " " * 500, "x" * 2_000]:
        walk = inspect_text(own(kind), text)
        assert "".join(p.text for p in walk.pieces) == walk.normalised


_ = st  # hypothesis strategies come from test_walk
