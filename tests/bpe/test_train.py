"""BPE training: the seeds' printed answers, and identical merges to the textbook loop (`bpe.reference`).

Known answers are what each program in /work/shared/seeds prints (seed 001's output, which
the seed only sketches in a comment, was obtained by running its program unchanged).
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenizer_core import BPEError, BPEOptions, train_bpe
from tokenizer_core.bpe import BPE_PRESETS, BPETrainer, MergeEncoder, count_words, with_steps
from tokenizer_core.bpe.model import (
    cut_long_words,
    parse_word_counts,
    pieces_with_offsets,
    pretokenize,
    word_counts,
)
from tokenizer_core.bpe.reference import train_reference


def _opts(**kw) -> BPEOptions:
    return BPEOptions(**{"symbols": "chars", **kw})


def _final_words(model) -> list[tuple]:
    enc = MergeEncoder(model)
    return [tuple(model.vocab[i] for i in enc.apply(enc.start_ids(w))[0]) for w in model.words]


# ------------------------------------------------------------------------- the seeds


def test_seed_000_identifier_corpus_smallest_ties():
    # seed 000 prints: Start vocabulary: 7 symbols / Merge 1: e + t -> et (count 19) /
    # Merge 2: s + et -> set (count 11) / Merge 3: g + et -> get (count 8) /
    # Merge 4: e + r -> er (count 4) / Vocabulary size: 11, then the final word splits
    corpus = {"get": 6, "set": 5, "reset": 3, "getter": 2, "setter": 2, "offset": 1}
    model = train_bpe(corpus, _opts(merges=4, tie_break="smallest"), top_n=5)
    assert len(model.base) == 7
    assert [(s.left, s.right, s.new, s.count) for s in model.steps] == [
        ("e", "t", "et", 19), ("s", "et", "set", 11), ("g", "et", "get", 8), ("e", "r", "er", 4),
    ]  # fmt: skip
    assert model.steps[-1].vocab_size == 11
    assert dict(zip(model.words, _final_words(model))) == {
        "get": ("get",), "set": ("set",), "reset": ("r", "e", "set"),
        "getter": ("get", "t", "er"), "setter": ("set", "t", "er"), "offset": ("o", "f", "f", "set"),
    }  # fmt: skip
    # "Two pairs share the fourth-highest count" and the alphabetical rule picks e + r
    assert model.steps[3].tied == 2
    assert [c.count for c in model.steps[3].candidates[:2]] == [4, 4]


def test_seed_001_first_seen_with_underscore_marker():
    # seed 001 runs train_bpe("low low low lower lowest newest newest".split(), 5); its
    # program (run unchanged) prints these merges and list(corpus)
    model = train_bpe(
        "low low low lower lowest newest newest".split(), _opts(end_marker="_", merges=5, tie_break="first")
    )
    assert model.merges == [("l", "o"), ("lo", "w"), ("low", "_"), ("e", "s"), ("es", "t")]
    assert _final_words(model) == [
        ("low_",), ("low", "e", "r", "_"), ("low", "est", "_"), ("n", "e", "w", "est", "_"),
    ]  # fmt: skip


def test_seed_001_diagram_does_not_follow_its_algorithm():
    # after l+o and lo+w the most frequent pair is low+e, not e+r as the diagram shows
    model = train_bpe("lower lowest", _opts(end_marker="_", merges=3, tie_break="first"), top_n=5)
    assert model.merges[:2] == [("l", "o"), ("lo", "w")]
    assert (model.steps[2].left, model.steps[2].right, model.steps[2].count) == ("low", "e", 2)
    er = [c for c in model.steps[2].candidates if (c.left, c.right) == ("e", "r")]
    assert er and er[0].count == 1


def test_seed_002_load_data_stream_largest_ties_and_tokenizations():
    training = (
        "load loader loading loaded reload " * 20 + "data dataset datasets " * 15 + "stream streaming " * 10
    ).split()
    model = train_bpe(training, _opts(end_marker="</w>", merges=12, tie_break="largest"))
    assert len(model.steps) == 12
    # seed 002 prints: first merges: [('o', 'a'), ('oa', 'd'), ('l', 'oad'), ('t', 'a'), ('d', 'a'), ('da', 'ta')]
    assert model.merges[:6] == [("o", "a"), ("oa", "d"), ("l", "oad"), ("t", "a"), ("d", "a"), ("da", "ta")]
    enc = MergeEncoder(model)

    def tokenize(word: str) -> list:
        return [enc.symbol_of(i) or enc.id_bytes(i).decode() for i in enc.encode_word(word)]

    assert tokenize("loading") == ["load", "i", "ng", "</w>"]
    assert tokenize("datasets") == ["data", "set", "s", "</w>"]
    assert tokenize("reloading") == ["re", "load", "i", "ng", "</w>"]
    assert tokenize("streamed") == ["s", "t", "re", "a", "m", "e", "d", "</w>"]
    assert tokenize("dataframe") == ["data", "f", "r", "a", "m", "e", "</w>"]


def test_seed_004_first_seen_no_marker():
    # seed 004 prints: 1 merge ('e', 's') ... 5 merge ('n', 'e') and
    # [('low',), ('low', 'e', 'r'), ('ne', 'w', 'est'), ('w', 'i', 'd', 'est')]
    model = train_bpe({"low": 5, "lower": 2, "newest": 6, "widest": 3}, _opts(merges=5, tie_break="first"))
    assert model.merges == [("e", "s"), ("es", "t"), ("l", "o"), ("lo", "w"), ("n", "e")]
    assert _final_words(model) == [("low",), ("low", "e", "r"), ("ne", "w", "est"), ("w", "i", "d", "est")]


def test_every_seed_preset_reproduces_its_seed():
    expected_first = {
        "get / set / reset": [("e", "t"), ("s", "et"), ("g", "et"), ("e", "r")],  # seed 000
        "low lower lowest newest": [("l", "o"), ("lo", "w"), ("low", "_"), ("e", "s"), ("es", "t")],  # 001
        "load / data / stream": [
            ("o", "a"),
            ("oa", "d"),
            ("l", "oad"),
            ("t", "a"),
            ("d", "a"),
            ("da", "ta"),
        ],  # 002
        "low lower newest widest": [("e", "s"), ("es", "t"), ("l", "o"), ("lo", "w"), ("n", "e")],  # seed 004
    }
    for prefix, merges in expected_first.items():
        preset = BPE_PRESETS[prefix]
        model = train_bpe(preset.corpus(), preset.options)
        assert model.merges[: len(merges)] == merges, prefix


def test_bytes_give_the_same_merges_as_characters_on_ascii():
    corpus = {"low": 5, "lower": 2, "newest": 6, "widest": 3}
    chars = train_bpe(corpus, _opts(merges=8, tie_break="first"))
    byts = train_bpe(corpus, BPEOptions(symbols="bytes", merges=8, tie_break="first"))
    assert [(a.encode(), b.encode()) for a, b in chars.merges] == byts.merges
    assert len(byts.base) == 256


# ----------------------------------------------------------- identical to the textbook

WORD = st.text(alphabet="abé_</w>🚀 ", min_size=1, max_size=7).filter(lambda w: w.strip() == w and w)
CORPUS = st.dictionaries(WORD, st.integers(1, 4), min_size=1, max_size=9)


@settings(max_examples=120)
@given(
    corpus=CORPUS,
    byte_level=st.booleans(),
    marker=st.sampled_from(["", "</w>", "_", "ab"]),
    tie=st.sampled_from(["smallest", "largest", "first"]),
    merges=st.integers(0, 25),
    min_frequency=st.integers(1, 3),
)
def test_incremental_merges_equal_the_textbook_loop(corpus, byte_level, marker, tie, merges, min_frequency):
    ref, final = train_reference(
        corpus, symbols="bytes" if byte_level else "chars", end_marker=marker, tie_break=tie, merges=merges,
        min_frequency=min_frequency,
    )  # fmt: skip
    opts = BPEOptions(
        symbols="bytes" if byte_level else "chars", end_marker=marker, merges=merges,
        min_frequency=min_frequency, tie_break=tie,
    )  # fmt: skip
    model = train_bpe(corpus, opts, top_n=4)
    assert [(s.left, s.right, s.count) for s in model.steps] == ref
    # the final segmentation of every word is the textbook's, and encoding reproduces it
    assert _final_words(model) == list(final)
    # per-step figures: corpus length is the sum of word lengths times counts
    assert model.corpus_tokens_at(len(model.steps)) == sum(len(s) * f for s, f in final.items())
    for step in model.steps:
        assert step.candidates[0].count == step.count
        assert (step.candidates[0].left, step.candidates[0].right) == (step.left, step.right)


@settings(max_examples=60)
@given(corpus=CORPUS, tie=st.sampled_from(["smallest", "largest", "first"]), requested=st.integers(0, 60))
def test_number_of_merges_is_min_of_requested_and_possible(corpus, tie, requested):
    possible, _ = train_reference(corpus, tie_break=tie, merges=10_000)
    model = train_bpe(corpus, _opts(merges=requested, tie_break=tie))
    assert len(model.steps) == min(requested, len(possible))
    if requested > len(possible):
        assert "no pairs left" in model.stop_reason


def test_identical_to_textbook_on_a_real_text_for_every_rule():
    text = BPE_PRESETS["English prose (4 KB)"].corpus()
    counts = count_words(text, pretokenizer="cl100k")
    for tie in ("smallest", "largest", "first"):
        ref, _ = train_reference(counts, symbols="bytes", tie_break=tie, merges=120)
        model = train_bpe(
            counts, BPEOptions(symbols="bytes", pretokenizer="cl100k", merges=120, tie_break=tie)
        )
        assert [(s.left, s.right, s.count) for s in model.steps] == ref, tie


def test_many_ties_first_seen_after_merges_follows_counter_rebuild_order():
    # every pair occurs once, so every merge is a tie. The seed rebuilds its Counter per
    # merge, so a pair made by a merge ranks by where it stands in the corpus (ab+c in the
    # first word), not by when it was created (after e+f in a Counter that was only updated)
    corpus = {"abcd": 1, "efgh": 1}
    model = train_bpe(corpus, _opts(merges=9, tie_break="first"))
    assert model.merges == [("a", "b"), ("ab", "c"), ("abc", "d"), ("e", "f"), ("ef", "g"), ("efg", "h")]
    ref, _ = train_reference(corpus, tie_break="first", merges=9)
    assert model.merges == [(a, b) for a, b, _ in ref]


# ------------------------------------------------------------- options and input


def test_vocab_size_target_stops_at_the_size():
    model = train_bpe(
        "low lower lowest newest widest " * 3, BPEOptions(symbols="bytes", merges=None, vocab_size=260)
    )
    assert len(model.steps) == 4 and model.steps[-1].vocab_size == 260
    assert "target vocabulary" in model.stop_reason
    small = train_bpe("abc", BPEOptions(symbols="bytes", merges=None, vocab_size=100))
    assert small.steps == () and "already has 256" in small.stop_reason


def test_min_frequency_stops_training():
    model = train_bpe({"ab": 3, "cd": 1}, _opts(merges=10, min_frequency=2))
    assert model.merges == [("a", "b")]
    assert "at least 2 times" in model.stop_reason


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"merges": -1}, "merges must be"),
        ({"merges": None, "vocab_size": None}, "exactly one"),
        ({"merges": 5, "vocab_size": 300}, "exactly one"),
        ({"vocab_size": 0, "merges": None}, "vocabulary size"),
        ({"min_frequency": 0}, "minimum pair frequency"),
        ({"tie_break": "random"}, "tie_break"),
        ({"symbols": "words"}, "symbols"),
        ({"pretokenizer": "gpt9"}, "pre-tokenizer"),
        ({"end_marker": "a b"}, "whitespace"),
        ({"end_marker": "x" * 40}, "at most"),
        ({"end_marker": "\x00"}, "printable"),
    ],
)
def test_bad_options_raise_clear_errors(kwargs, message):
    with pytest.raises(BPEError, match=message):
        train_bpe("some text", BPEOptions(**kwargs))


def test_word_counts_accepts_text_mapping_and_lists():
    opts = BPEOptions()
    assert word_counts("b a  b\n", opts) == {"b": 2, "a": 1}
    assert list(word_counts("b a  b\n", opts)) == ["b", "a"]  # first-occurrence order
    assert word_counts(["x", "y", "x", ""], opts) == {"x": 2, "y": 1}
    assert word_counts({"x": 2, "y": 0}, opts) == {"x": 2}
    with pytest.raises(BPEError, match="whole number"):
        word_counts({"x": -1}, opts)
    with pytest.raises(BPEError, match="whole number"):
        word_counts({"x": 1.5}, opts)


def test_regex_pretokenization_keeps_spaces_and_counts_like_one_pass():
    text = "Hello world, hello  world!\n\n  Don't panic: 12345 🚀🚀\n" * 50
    assert pretokenize("Hello world", "cl100k") == ["Hello", " world"]
    for pre in ("cl100k", "o200k", "r50k"):
        chunked = count_words(text, pretokenizer=pre, chunk_chars=64)
        assert chunked == dict(Counter(pretokenize(text, pre)))


def test_pieces_with_offsets_cover_the_text():
    text = "a  b\tc\n"
    pieces = pieces_with_offsets(text)
    assert "".join(p for _, p, _ in pieces) == text
    assert [(p, w) for _, p, w in pieces] == [
        ("a", True),
        ("  ", False),
        ("b", True),
        ("\t", False),
        ("c", True),
        ("\n", False),
    ]
    assert "".join(p for _, p, _ in pieces_with_offsets("x 🚀y", "cl100k")) == "x 🚀y"


def test_parse_word_counts_lines_and_errors():
    assert parse_word_counts("low 5\nlower 2\n\nlow\n") == {"low": 6, "lower": 2}
    for bad, msg in [
        ("low five", "line 1"),
        ("a 1 2", "3 fields"),
        ("a 0", "at least 1"),
        ("\n  \n", "no words"),
    ]:
        with pytest.raises(BPEError, match=msg):
            parse_word_counts(bad)


def test_cut_long_words():
    assert cut_long_words({"abcde": 2, "ab": 1}, 2) == ({"ab": 3, "cd": 2, "e": 2}, 1)
    model = train_bpe("x" * 5000, BPEOptions(merges=3, max_word_chars=100))
    assert model.words_cut == 1 and model.words == ("x" * 100,) and model.freqs == (50,)


def test_empty_and_whitespace_corpus_trains_nothing():
    for corpus in ("", "   \n\t ", {}):
        model = train_bpe(corpus, BPEOptions(merges=10))
        assert model.steps == () and model.initial_tokens == 0
        assert "no pairs left" in model.stop_reason


def test_generator_steps_match_the_final_model_and_progress():
    seen = []
    text = BPE_PRESETS["English prose (4 KB)"].corpus()
    model = train_bpe(text, BPEOptions(merges=10), progress=lambda d, t: seen.append((d, t)))
    assert seen == [(i, 10) for i in range(1, 11)]
    trainer = BPETrainer(text, BPEOptions(merges=10))
    steps = []
    for step in trainer:
        steps.append(step)
        if len(steps) == 4:
            break
    assert [s.rank for s in steps] == [1, 2, 3, 4]
    assert trainer.model().merges == model.merges[:4]


def test_per_step_records_add_up():
    model = train_bpe(
        BPE_PRESETS["Python code (4 KB)"].corpus(), BPEOptions(pretokenizer="cl100k", merges=50)
    )
    tokens = model.initial_tokens
    for s in model.steps:
        assert s.corpus_tokens < tokens  # every merge shortens the corpus
        tokens = s.corpus_tokens
        assert s.vocab_size == 256 + s.rank  # no repeated strings in this corpus
    assert with_steps(model, 7).merges == model.merges[:7]
    assert model.vocab_size_at(0) == 256 and model.corpus_tokens_at(0) == model.initial_tokens
