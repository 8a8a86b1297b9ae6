"""Bad input gets a clear message, never a traceback (issue 10, items 4-6)."""

from __future__ import annotations

import json

import pytest
from tokenizer_core.bpe_io import FORMAT

from tokenizer_core import BPEError, load_bpe_model, parse_word_counts


def _model(merges: list, **extra) -> str:
    doc = {
        "format": FORMAT, "version": 1,
        "options": {"symbols": "chars", "end_marker": "", "pretokenizer": "whitespace"},
        "start_symbols": ["a", "b"], "merges": merges, **extra,
    }  # fmt: skip
    return json.dumps(doc)


# ----------------------------------------------------------------------------- item 4


def test_a_word_count_too_large_for_a_table_is_refused_with_the_line():
    with pytest.raises(BPEError, match=r"line 2: .*more than 1,000,000,000,000"):
        parse_word_counts("low 5\nlower " + "1" + "0" * 23)
    with pytest.raises(BPEError, match="line 3"):  # repeated words add up
        parse_word_counts("a 999999999999\nb 1\na 2")
    assert parse_word_counts("low 1000000000000") == {"low": 10**12}


@pytest.mark.parametrize("row", [["a", "b", 10**30, 5], ["a", "b", 5, 10**30]])
def test_a_saved_model_with_a_huge_count_is_refused(row):
    assert load_bpe_model(_model([["a", "b", 5, 5]])).steps[0].count == 5
    with pytest.raises(BPEError, match="merge 1: the (count|corpus tokens) 1e\\+30 is above"):
        load_bpe_model(_model([row]))


def test_a_deeply_nested_file_is_a_bpe_error_not_a_recursion_error():
    with pytest.raises(BPEError, match="nests lists or objects"):
        load_bpe_model("[" * 100_000)
    with pytest.raises(BPEError, match="nests lists or objects"):
        load_bpe_model(b'{"merges": ' + b"[" * 100_000 + b"]" * 100_000 + b"}")


def test_bpe_page_word_counts_of_ten_to_the_23_give_a_message(app):
    at = app.switch_page("app_pages/bpe.py").run()
    at.radio(key="bpe_format").set_value("counts").run()
    at.text_area(key="bpe_corpus_text").input("low 5\nlower 100000000000000000000000").run()
    at.button(key="bpe_train").click().run()
    assert not at.exception, at.exception
    assert any("Line 2" in e.value and "1,000,000,000,000" in e.value for e in at.error)


# ----------------------------------------------------------------------------- item 5


def _bpe(app):
    at = app.switch_page("app_pages/bpe.py").run()
    assert not at.exception, at.exception
    return at


def _captions(at) -> str:
    return "\n".join(c.value for c in at.caption).replace("\\", "")


def test_bpe_number_inputs_say_their_range_and_training_says_what_it_uses(app):
    at = _bpe(app)
    merges = at.number_input(key="bpe_merges")
    assert (merges.min, merges.max) == (0, 10_000)  # Streamlit refuses a value outside
    assert "0 to 10,000" in merges.label
    assert "1 to 1,000,000,000" in at.number_input(key="bpe_minfreq").label
    merges.set_value(40).run()
    assert "Trains for 40 merges" in _captions(at)
    at.radio(key="bpe_stop").set_value("vocab").run()
    vocab = at.number_input(key="bpe_vocab")
    assert (vocab.min, vocab.max) == (1, 10_000) and "1 to 10,000" in vocab.label
    vocab.set_value(300).run()
    assert "Trains for a vocabulary of 300" in _captions(at)
    assert not at.exception
