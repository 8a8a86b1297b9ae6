"""Every kind of tokenizer replayed to its own ids: SentencePiece BPE by score (Gemma, the
classic Mistral vocabularies), WordPiece longest-match-first, Unigram's best cut, and
Metaspace + byte-fallback BPE. The references are the tokenizers themselves (splintr's engine
for the built-ins, Hugging Face `tokenizers` for files trained here), the `sentencepiece`
library over Mistral's model files, and Gemma 3's published tokenizer.json."""

from __future__ import annotations

import pytest
import tokenizers
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import builtin
from tests.inside.trained import trained, trained_tokenizer
from tokenizer_core.inside import inspect_text, machine_for, replayed_ids

# Every script the vocabularies hold (and some they lack), spaces of every kind, emoji with
# joiners and skin tones, marks, control characters.
SCRIPTS = st.sampled_from(
    ["the", " The", "STRAWBERRY", "naïve", "e\u0301", "Ελλάδα", "Москва", "नमस्ते", "हिन्दी", "你好世界", "東京",
     "こんにちは", "한국어", "مرحبا", "שלום", "ไทย", "ꙮ", "😀", "👩\u200d👩\u200d👧", "👍🏽", "🍓", "1234567", "3.14",
     " ", "  ", "    ", "\t", "\n", "\r\n", "\n\n", "\u00a0", "\u2581", "\u3000", "!?", "<b>", "[INST]", "def f():\n    ",
     "\x00", "\x7f", "\ufeff", "> </", "x> </y"]
)  # fmt: skip
TEXTS = st.one_of(
    st.text(max_size=40),
    st.lists(st.one_of(SCRIPTS, st.text(max_size=3)), max_size=12).map("".join),
)

SENTENCEPIECE = ["gemma3", "gemma2", "mistral_sp_v1", "mistral_sp_v3", "mistral_sp_v7"]
TRAINED = ["wordpiece", "unigram", "unigram-unk", "metaspace-bpe", "llama2-bpe", "split-bpe"]


def _check(tok, text):
    m = machine_for(tok)
    walk = inspect_text(tok, text)
    assert m.replays
    assert replayed_ids(m, walk.pieces) == tok.encode(text)
    assert walk.replay_same is True
    assert "".join(p.text for p in walk.pieces) == walk.normalised


@pytest.mark.parametrize("tid", SENTENCEPIECE)
@settings(max_examples=200)
@given(text=TEXTS)
def test_sentencepiece_bpe_by_score_gives_the_tokenizers_ids(tid, text):
    _check(builtin(tid), text)


@pytest.mark.parametrize("kind", TRAINED)
@settings(max_examples=200)
@given(text=TEXTS)
def test_a_trained_tokenizer_json_is_replayed_to_its_ids(kind, text):
    _check(trained_tokenizer(kind), text)


def _spm(version: str):
    import sentencepiece

    from tokenizer_core.tokenizers import mistral_spm, package_data

    spec = mistral_spm.SPM_FILES[version]
    path = package_data.package_file("mistral_common", spec.relative, mistral_spm.MISTRAL_PIN, version)
    return sentencepiece.SentencePieceProcessor(model_file=str(path))


@pytest.mark.parametrize("version", ["mistral_sp_v1", "mistral_sp_v3"])
def test_labels_and_fallback_are_the_vocabularys_own(version):
    """The byte tokens of "a\\tb\\nc" and of an emoji are the model file's <0x..> pieces, as the
    `sentencepiece` library reads that file; the lone ▁ is written ▁ and is no byte token."""
    sp, tok = _spm(version), builtin(version)
    m = machine_for(tok)
    walk = inspect_text(tok, "a\tb\nc")
    assert list(walk.ids) == sp.encode("a\tb\nc")
    assert [t.label for t in walk.tokens] == [sp.id_to_piece(i) for i in walk.ids]
    assert [t.label for t in walk.tokens if m.is_byte_token(t.id)] == ["<0x09>", "<0x0A>"]
    assert all(sp.is_byte(t.id) == m.is_byte_token(t.id) for t in walk.tokens)
    assert [s.text for s in walk.fallback.split] == ["\t", "\n"]
    assert "2 places needed byte tokens" in walk.fallback.sentence
    assert "every character had a token" not in walk.fallback.sentence

    walk = inspect_text(tok, "👩\u200d👩")
    assert list(walk.ids) == sp.encode("👩\u200d👩")
    space = sp.piece_to_id("\u2581")
    assert walk.ids[0] == space and walk.tokens[0].label == "\u2581" and not m.is_byte_token(space)
    assert m.label(sp.piece_to_id("<0x20>")) == "<0x20>" and m.is_byte_token(sp.piece_to_id("<0x20>"))
    assert all(sp.id_to_piece(t.id) == t.label for t in walk.tokens)


def test_gemma_labels_are_its_tokenizer_jsons():
    """Gemma's labels are built from the engine's bytes; its published tokenizer.json writes them so."""
    import tokenizers

    from tests.refs import ref_file

    ref = tokenizers.Tokenizer.from_file(str(ref_file("gemma3", "package/models/tokenizer.json")))
    tok = builtin("gemma3")
    m = machine_for(tok)
    walk = inspect_text(tok, "a\tb\n  c 😀 ꙮ\u0378 naïve")
    assert [t.label for t in walk.tokens] == [ref.id_to_token(i) for i in walk.ids]
    for i in (238, 238 + 0x20, 238 + 255, 107, 138):
        assert m.label(i) == ref.id_to_token(i)
        assert m.is_byte_token(i) == (ref.id_to_token(i).startswith("<0x"))


def test_sentencepiece_merges_show_the_pairs_that_competed():
    m = machine_for(builtin("mistral_sp_v1"))
    sp = _spm("mistral_sp_v1")
    replay = m.replay("\u2581strawberry")
    assert list(replay.ids) == sp.encode("strawberry")
    scores = {sp.id_to_piece(i): sp.get_score(i) for i in range(sp.get_piece_size())}
    for step in replay.steps:
        assert step.score == scores[step.left + step.right]  # the model file's own score
        assert step.rivals[0] == (step.left, step.right, step.score)
        assert [r[2] for r in step.rivals] == sorted((r[2] for r in step.rivals), reverse=True)
        assert all(a + b in scores for a, b, _ in step.rivals)


def test_wordpiece_drops_whitespace_and_searches_longest_first():
    tok = trained_tokenizer("wordpiece")
    walk = inspect_text(tok, "the  cat\tsat")
    assert [p.text for p in walk.dropped] == ["  ", " "]  # BERT's normaliser made the tab a space
    assert [p.text for p in walk.kept] == ["the", "cat", "sat"]
    ref = tokenizers.Tokenizer.from_str(trained("wordpiece").decode())
    assert walk.added == (
        ("[CLS]", ref.token_to_id("[CLS]"), True),
        ("[SEP]", ref.token_to_id("[SEP]"), False),
    )
    m = machine_for(tok)
    replay = m.replay("newest")
    assert list(replay.ids) == tok.encode("newest")
    for s in replay.search:
        assert s.tried[-1] == s.found and len({len(t) for t in s.tried}) == len(s.tried)
        assert [len(t) for t in s.tried] == sorted((len(t) for t in s.tried), reverse=True)
    assert all(s.found.startswith("##") for s in replay.search[1:])


def test_unigram_keeps_the_best_cut_and_names_the_runner_up():
    tok = trained_tokenizer("unigram")
    m = machine_for(tok)
    for piece in ["\u2581newest", "\u2581naïve", "\u2581你好世界", "\u2581ꙮ😀"]:
        replay = m.replay(piece)
        assert list(replay.ids) == tok.encode(piece.replace("\u2581", " "))[-len(replay.ids) :]
        assert replay.best is not None and "".join(replay.best.pieces) == piece
        if replay.runner_up is not None:
            assert replay.runner_up.pieces != replay.best.pieces
            assert replay.runner_up.total <= replay.best.total + 1e-9
            assert "".join(replay.runner_up.pieces) == piece


def test_tekken_ranks_are_ids_less_its_special_tokens():
    """mistral-common's Tekken puts 1,000 special tokens before the ordinary ranks."""
    m = machine_for(builtin("tekken"))
    assert m.rank_offset == 1_000
    assert machine_for(builtin("o200k_base")).rank_offset == 0


def test_gemma_is_not_cut_where_a_piece_crosses_a_space():
    """Gemma 3 has a piece with ▁ after another character (">▁</"): the text is not cut there."""
    tok = builtin("gemma3")
    for text in ["> </", "x> </y", "a> </b> c"]:
        walk = inspect_text(tok, text)
        assert walk.replay_same is True and replayed_ids(machine_for(tok), walk.pieces) == tok.encode(text)


def test_each_pre_tokenizer_step_is_named_in_order_and_dropped_text_marked():
    tok = trained_tokenizer("split-bpe")
    walk = inspect_text(tok, "newest  cats, 1234 你好")
    assert [w.split()[0] for w in walk.pre_steps] == ["Cut", "Every", "Digits", "Cut"]
    assert "dropped" in walk.pre_steps[0] and "punctuation" in walk.pre_steps[1]
    assert [p.text for p in walk.dropped] == ["  ", " ", " "]
    assert [p.text for p in walk.kept][:3] == ["newest", "cats", ","]
    assert [p.text for p in walk.kept if p.text.isdigit()] == ["1", "2", "3", "4"]
    assert walk.replay_same is True
    assert "".join(p.text for p in walk.pieces) == walk.normalised
