"""Saving and loading BPE models: a readable, versioned JSON that round-trips exactly."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenizer_core import BPEError, BPEOptions, load_bpe_model, save_bpe_model, train_bpe
from tokenizer_core.bpe import BPE_PRESETS, MergeEncoder

SEED_002 = BPE_PRESETS["load / data / stream"]


def test_saved_file_is_readable_json_with_one_merge_per_line():
    model = train_bpe(SEED_002.corpus(), SEED_002.options)
    text = save_bpe_model(model)
    doc = json.loads(text)
    assert doc["format"] == "tokenizer-workbench/bpe" and doc["version"] == 1
    assert doc["options"]["tie_break"] == "largest" and doc["options"]["end_marker"] == "</w>"
    assert doc["merges"][0] == ["o", "a", 100, model.steps[0].corpus_tokens]
    assert '    ["oa", "d", 100, ' in text  # one merge per line, readable as text
    assert len(doc["merges"]) == 12


@pytest.mark.parametrize(
    "corpus, options",
    [
        (SEED_002.corpus(), SEED_002.options),
        ("héllo wörld 🚀🚀 🚀🚀 \x00 ab", BPEOptions(symbols="bytes", pretokenizer="cl100k", merges=40)),
        ("low lower lowest", BPEOptions(symbols="bytes", end_marker="_", merges=6, tie_break="first")),
    ],
)
def test_round_trip_keeps_merges_vocabulary_and_encoding(corpus, options):
    model = train_bpe(corpus, options)
    loaded = load_bpe_model(save_bpe_model(model).encode("utf-8"))
    assert loaded.options == model.options
    assert loaded.merges == model.merges and loaded.vocab == model.vocab
    assert [s.count for s in loaded.steps] == [s.count for s in model.steps]
    assert [s.corpus_tokens for s in loaded.steps] == [s.corpus_tokens for s in model.steps]
    assert loaded.initial_tokens == model.initial_tokens and loaded.source == "file"
    a, b = MergeEncoder(model), MergeEncoder(loaded)
    for w in ("loading", "héllo", "🚀🚀", "lowest"):
        assert a.encode_word(w) == b.encode_word(w)


def test_a_model_saved_with_its_words_comes_back_trained_on_them():
    model = train_bpe("low low lower newest " + "x" * 30, BPEOptions(merges=4, max_word_chars=10))
    assert model.words_cut == 1  # the 30-character word was cut into pieces
    assert "corpus_words" not in json.loads(save_bpe_model(model))  # a download holds the merges only
    loaded = load_bpe_model(save_bpe_model(model, words=True))
    assert (loaded.words, loaded.freqs, loaded.words_cut) == (model.words, model.freqs, 1)
    assert loaded.source == "trained" and loaded.merges == model.merges


@pytest.mark.parametrize(
    "words",
    [[["low"], [0], 0], [["low"], [1, 2], 0], [["low"], [True], 0], [[1], [1], 0], [["low"], [1], -1], "low"],
)
def test_corpus_words_that_are_not_as_saved_are_refused(words):
    doc = json.loads(save_bpe_model(train_bpe("low lower", BPEOptions(merges=2))))
    with pytest.raises(BPEError, match="corpus_words"):
        load_bpe_model(json.dumps(doc | {"corpus_words": words}))


def test_invalid_utf8_bytes_in_a_symbol_are_written_as_hex():
    model = train_bpe("🚀🚀🚀 🚀🚀", BPEOptions(symbols="bytes", merges=2))
    doc = json.loads(save_bpe_model(model))
    assert {"hex": "9a"} in doc["merges"][0] or {"hex": "9f"} in doc["merges"][0]


def _saved() -> dict:
    return json.loads(save_bpe_model(train_bpe("low low lower", BPEOptions(symbols="chars", merges=3))))


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d.update(version=2), "version 2; this app reads version 1"),
        (lambda d: d.update(format="minbpe"), "not a BPE model saved by this page"),
        (lambda d: d["options"].update(tie_break="coin"), "tie_break"),
        (lambda d: d["options"].update(colour="blue"), "unknown option"),
        (
            lambda d: d["merges"].reverse(),
            "its left symbol 'lo' is neither a start symbol nor made by an earlier",
        ),
        (lambda d: d["merges"][0].__setitem__(2, -3), "count must be"),
        (lambda d: d["merges"].append("l o"), "merge 4: expected"),
        (lambda d: d.pop("start_symbols"), "start_symbols"),
        (lambda d: d["merges"].append([{"hex": "zz"}, "o"]), "a symbol must be text"),
    ],
)
def test_bad_files_give_clear_errors(mutate, message):
    doc = _saved()
    mutate(doc)
    with pytest.raises(BPEError, match=message):
        load_bpe_model(json.dumps(doc))


@pytest.mark.parametrize(
    "data, message",
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00", "not UTF-8"),
        (b"{not json", "not valid JSON"),
        (b"[1, 2]", "not a BPE model"),
        (b"", "not valid JSON"),
    ],
)
def test_non_json_uploads_give_clear_errors(data, message):
    with pytest.raises(BPEError, match=message):
        load_bpe_model(data)


@settings(max_examples=40)
@given(st.binary(max_size=200))
def test_any_bytes_either_load_or_raise_bpe_error(data):
    try:
        load_bpe_model(data)
    except BPEError:
        pass
