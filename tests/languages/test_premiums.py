"""Counts, words and the premium per language and tokenizer, summaries and the published comparison."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import ALL_IDS, builtin
from tests.languages.test_sample import NO_SPACES
from tokenizer_core import InputError, Language, LanguageError, language_table
from tokenizer_core.languages import published_comparison, summarize
from tokenizer_core.languages.premiums import language_order, premium


def test_module_docstring_example_runs():
    import doctest

    from tokenizer_core.languages import premiums as module

    assert doctest.testmod(module).failed == 0


@pytest.mark.parametrize("tid", [pytest.param(i, id=i) for i in ALL_IDS])
def test_counts_equal_the_tokenizers_own_counts(sample, tid):
    tok = builtin(tid)
    rows = language_table(sample, [tok], base="en")
    assert [r.code for r in rows] == [l.code for l in sample]
    for row, lang in zip(rows, sample):
        ids = tok.encode(lang.text)
        assert row.tokens == len(ids) == tok.count(lang.text)
        assert row.characters == len(lang.text)
        assert row.utf8_bytes == len(lang.text.encode("utf-8"))
        assert row.chars_per_token == len(lang.text) / len(ids)
        assert row.bytes_per_token == len(lang.text.encode("utf-8")) / len(ids)
        assert row.tokenizer_id == tid


def test_words_only_where_spaces_separate_words(sample):
    tok = builtin("o200k_base")
    rows = {r.code: r for r in language_table(sample, [tok], base="en")}
    for code in NO_SPACES:
        assert rows[code].words is None and rows[code].tokens_per_word is None
        assert "without spaces" in rows[code].words_note
    en = rows["en"]
    assert en.words == 63  # count the words of the English passage by hand: 63
    assert en.tokens_per_word == en.tokens / 63
    assert "syllable" in rows["vi"].words_note


@pytest.mark.parametrize("base", ["en", "hi", "zh", "ar", "my"])
def test_premium_of_the_base_is_exactly_one(sample, base):
    toks = [builtin(i) for i in ("o200k_base", "cl100k_base", "llama3")]
    rows = language_table(sample, toks, base=base)
    base_rows = [r for r in rows if r.code == base]
    assert len(base_rows) == 3
    assert all(r.premium == 1.0 and type(r.premium) is float and r.is_base for r in base_rows)
    for r in rows:
        assert r.base_code == base
        assert r.premium == r.tokens / r.base_tokens


def test_known_relations_from_the_literature(sample):
    """Petrov et al. 2023 / the seeds: Hindi needs more tokens than English under the GPT-4
    and GPT-2 tokenizers; o200k_base narrowed the gap; Burmese is among the most expensive."""
    toks = [builtin(i) for i in ("o200k_base", "cl100k_base", "r50k_base")]
    rows = {(r.code, r.tokenizer_id): r for r in language_table(sample, toks, base="en")}
    for tid in ("cl100k_base", "r50k_base"):
        assert rows["hi", tid].tokens > rows["en", tid].tokens
        assert rows["hi", tid].premium > 2
    assert rows["hi", "o200k_base"].tokens < rows["hi", "cl100k_base"].tokens
    assert rows["hi", "o200k_base"].premium < rows["hi", "cl100k_base"].premium
    # cl100k: Spanish 1.55 < Chinese 1.91 < Hindi 4.79 < Bengali 5.84 < Tamil 7.65 < Burmese 11.70
    cl = {c: rows[c, "cl100k_base"].premium for c in ("es", "hi", "ta", "my")}
    assert cl["es"] < cl["hi"] < cl["ta"] < cl["my"]
    # GPT-2 (r50k): Hindi 7.46, Burmese 16.89, both worse than under cl100k
    for c in ("hi", "my"):
        assert rows[c, "r50k_base"].premium > rows[c, "cl100k_base"].premium
    # English prose averages about four characters per token (seed 001)
    assert 3.5 <= rows["en", "cl100k_base"].chars_per_token <= 5


def test_published_comparison_lists_both_figures(sample):
    toks = [builtin("cl100k_base"), builtin("r50k_base")]
    comp = published_comparison(language_table(sample, toks, base="en"))
    pairs = {(c["language"], c["tokenizer"]): c for c in comp}
    assert pairs["Hindi", "cl100k_base"]["published (FLORES-200)"] == 4.79
    assert pairs["Burmese", "r50k_base (gpt2)"]["published (FLORES-200)"] == 16.89
    assert len(comp) == 8
    # another base: their figures are relative to English, so no comparison is offered
    assert published_comparison(language_table(sample, toks, base="hi")) == []


def test_summary_and_order(sample):
    tok = builtin("cl100k_base")
    rows = language_table(sample, [tok], base="en")
    (s,) = summarize(rows)
    prems = sorted(r.premium for r in rows if r.code != "en")
    assert s.languages == len(sample) - 1
    assert s.max_premium == prems[-1] and s.min_premium == prems[0]
    order = language_order(rows)
    assert order[0] == "English" and len(order) == len(sample)
    by_name = {r.language: r.premium for r in rows}
    assert [by_name[n] for n in order] == sorted(by_name.values())


@settings(max_examples=40)
@given(
    texts=st.lists(st.text(min_size=1, max_size=60).filter(lambda t: t.strip()), min_size=1, max_size=5),
    base_index=st.integers(min_value=0, max_value=4),
)
def test_premium_property_any_texts(texts, base_index):
    langs = [Language(f"x{i}", f"Lang {i}", "?", t.strip()) for i, t in enumerate(texts)]
    base = langs[base_index % len(langs)].code
    tok = builtin("o200k_base")
    rows = language_table(langs, [tok], base=base)
    base_tokens = tok.count(langs[base_index % len(langs)].text)
    for r, lang in zip(rows, langs):
        assert r.tokens == tok.count(lang.text)
        assert r.premium == r.tokens / base_tokens
        assert (r.premium == 1.0) if r.code == base else True


def test_premium_helper():
    assert premium(146, 73) == 2.0
    assert premium(73, 73) == 1.0
    assert premium(5, 0) is None


def test_empty_text_or_unknown_base_gets_a_clear_message(sample):
    tok = builtin("o200k_base")
    empty = [sample[0], Language("es", "Spanish", "Latin", "   ")]
    with pytest.raises(LanguageError, match="Spanish has no text"):
        language_table(empty, [tok], base="en")
    with pytest.raises(LanguageError, match="base language 'xx' is not among"):
        language_table(sample[:3], [tok], base="xx")
    with pytest.raises(LanguageError, match="No language to compare"):
        language_table([], [tok], base="en")
    with pytest.raises(LanguageError, match="used twice"):
        language_table([sample[0], sample[0]], [tok], base="en")
    with pytest.raises(LanguageError, match="Two languages are named 'English'"):
        language_table([sample[0], Language("en-x", "English", "Latin", "Hi")], [tok], base="en")
    assert issubclass(LanguageError, InputError)


def test_special_token_text_emoji_and_cjk_count_as_plain_text():
    text = "Reply <|endoftext|> now 🚀 你好 <|eot_id|>"
    langs = [Language("en", "English", "Latin", "Reply now"), Language("x", "Mixed", "?", text)]
    for tid in ("o200k_base", "llama3"):
        tok = builtin(tid)
        (_, row) = language_table(langs, [tok], base="en")
        assert row.tokens == len(tok.encode(text)) > 10
