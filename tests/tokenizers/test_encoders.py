"""A user's own tokenizer: a `.tiktoken` file or a Hugging Face `tokenizer.json`."""

from __future__ import annotations

import base64
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenizer_core import VocabularyError, tokenizer_from_hf_json, tokenizer_from_tiktoken_bytes
from tokenizer_core.tokenizers import PATTERNS, known_vocab, load_sample, registry, uploads, vocab
from tokenizer_core.tokenizers.known_vocab import identify_tiktoken

R50K_BYTES = (registry.DATA_DIR / "r50k_base.tiktoken").read_bytes()


def test_uploaded_tiktoken_file_works_like_the_builtin():
    tok = tokenizer_from_tiktoken_bytes(R50K_BYTES, name="my gpt2", pattern_id="r50k")
    assert tok.encode("hello world") == [31373, 995]  # the r50k reference ids
    assert tok.info.kind == "custom" and tok.info.name == "my gpt2"
    assert tok.id.startswith("custom-") and tok.info.vocab_size == 50256
    text = "emoji 😀 and <|endoftext|>"
    assert "".join(s.text for s in tok.segments(text)) == text


def test_same_file_and_settings_same_id_anything_else_different_id():
    # the id keys results cached for every session: all that changes the output is in it, no name
    a = tokenizer_from_tiktoken_bytes(R50K_BYTES, name="a", pattern_id="r50k")
    a2 = tokenizer_from_tiktoken_bytes(R50K_BYTES, name="another name", pattern_id="r50k")
    b = tokenizer_from_tiktoken_bytes(R50K_BYTES, name="b", pattern_id="cl100k")
    small = tokenizer_from_tiktoken_bytes(_byte_vocab(extra=[b"ab"]), name="c", pattern_id="r50k")
    assert a.id == a2.id
    assert len({a.id, b.id, small.id}) == 3


def _byte_vocab(extra: list[bytes] = ()) -> bytes:
    tokens = [bytes([i]) for i in range(256)] + list(extra)
    return b"".join(base64.b64encode(t) + b" %d\n" % r for r, t in enumerate(tokens))


@settings(max_examples=40)
@given(text=st.text(max_size=80))
def test_a_minimal_byte_vocabulary_round_trips_any_text(text):
    tok = tokenizer_from_tiktoken_bytes(_byte_vocab([b"ab", b"abc"]), name="tiny", pattern_id="o200k")
    assert tok.decode(tok.encode(text)) == text
    assert "".join(s.text for s in tok.segments(text)) == text


@pytest.mark.parametrize(
    "data, message",
    [
        (b"", "no tokens"),
        (b"not a vocabulary at all\n", "line 1"),
        (b"aGk= x\n", "line 1"),
        (b"%%%% 1\n", "line 1"),
        (base64.b64encode(b"hi") + b" 0\n", "single bytes have no rank"),
        (_byte_vocab() + base64.b64encode(b"zz") + b" 5\n", "share rank 5"),
        (_byte_vocab() + base64.b64encode(b"a") + b" 300\n", "appears twice"),
        (_byte_vocab() + base64.b64encode(b"zz") + b" -3\n", "negative"),
        # issue #31: accepted as "4,000,000,001 tokens"
        (_byte_vocab() + base64.b64encode(b"zz") + b" 4000000000\n", "has rank 4,000,000,000; a rank is"),
        (_byte_vocab() + base64.b64encode(b"zz") + b" 3000000\n", "go up to 3,000,000 for 257 tokens"),
    ],
)
def test_bad_tiktoken_files_get_a_clear_error(data, message):
    with pytest.raises(VocabularyError, match=message):
        tokenizer_from_tiktoken_bytes(data, name="bad", pattern_id="r50k")


def test_ranks_with_gaps_as_in_a_trimmed_vocabulary_are_accepted():
    # r50k without 1,000 of its tokens keeps its numbering (gaps), as a trimmed vocabulary does
    lines = R50K_BYTES.splitlines(keepends=True)
    trimmed = b"".join(lines[:20_000] + lines[21_000:])
    tok = tokenizer_from_tiktoken_bytes(trimmed, name="trimmed", pattern_id="r50k")
    assert tok.encode("hello world") == [31373, 995]  # the r50k reference ids


def test_special_token_ids_far_past_the_ranks_are_refused():
    with pytest.raises(VocabularyError, match="must follow the last rank 256"):
        tokenizer_from_tiktoken_bytes(
            _byte_vocab([b"ab"]), name="x", pattern_id="r50k", special_tokens={"<|x|>": 4_000_000_000}
        )


def test_unknown_pattern_is_refused():
    with pytest.raises(VocabularyError, match="unknown pattern"):
        tokenizer_from_tiktoken_bytes(R50K_BYTES, name="x", pattern_id="perl6")


def _hf_json() -> bytes:
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tk = Tokenizer(models.BPE())
    tk.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tk.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=400, special_tokens=["<|endoftext|>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False,
    )  # fmt: skip
    tk.train_from_iterator(["the cat sat on the mat", "the dog ate the cat food"] * 50, trainer)
    return tk.to_str().encode("utf-8")


@pytest.fixture(scope="module")
def hf_tok():
    return tokenizer_from_hf_json(_hf_json(), name="tiny hf")


def test_hf_tokenizer_json_works(hf_tok):
    from tokenizers import Tokenizer

    ref = Tokenizer.from_str(_hf_json().decode())
    text = "the cat ate 😀 food"
    assert hf_tok.encode(text) == ref.encode(text, add_special_tokens=False).ids
    assert hf_tok.decode(hf_tok.encode(text)) == text
    assert hf_tok.info.family == "Custom (tokenizer.json, BPE)"
    segs = hf_tok.segments(text)
    assert "".join(s.text for s in segs) == text
    assert [i for s in segs for i in s.ids] == hf_tok.encode(text)
    assert b"".join(hf_tok.token_bytes(i) for i in hf_tok.encode(text)) == text.encode()


@settings(max_examples=60)
@given(text=st.text(max_size=60))
def test_hf_segments_cover_any_text_and_keep_every_id(hf_tok, text):
    segs = hf_tok.segments(text)
    assert "".join(s.text for s in segs) == text
    assert [i for s in segs for i in s.ids] == hf_tok.encode(text)


def test_hf_special_tokens_are_text_unless_allowed(hf_tok):
    eot = hf_tok.special_tokens["<|endoftext|>"]
    assert eot not in hf_tok.encode("a <|endoftext|> b")
    assert eot in hf_tok.encode("a <|endoftext|> b", allow_special=True)


@pytest.mark.parametrize(
    "data, message",
    [
        (b"\xff\xfe\x00garbage", "UTF-8"),
        (b"{not json", "not a usable Hugging Face tokenizer.json"),
        (json.dumps({"model": {"type": "Nope"}}).encode(), "not a usable"),
    ],
)
def test_bad_tokenizer_json_gets_a_clear_error(data, message):
    with pytest.raises(VocabularyError, match=message):
        tokenizer_from_hf_json(data, name="bad")


def test_oversized_uploads_are_refused(monkeypatch):
    monkeypatch.setattr(uploads, "MAX_UPLOAD_BYTES", 10)
    with pytest.raises(VocabularyError, match="limit"):
        tokenizer_from_hf_json(b"{}" * 10, name="big")
    with pytest.raises(VocabularyError, match="limit"):
        tokenizer_from_tiktoken_bytes(R50K_BYTES, name="big", pattern_id="r50k")


# --- recognising an uploaded file as a built-in vocabulary, and its pattern ------------------


@pytest.fixture(scope="module")
def stock(tmp_path_factory):
    from tests.references import stock_tiktoken

    return stock_tiktoken(tmp_path_factory.mktemp("tiktoken-cache"))


def test_gpt2s_own_file_is_recognised_and_counted_with_gpt2s_pattern(stock):
    """GPT-2's r50k_base.tiktoken with o200k's pattern counted the mixed sample 483, GPT-2 485."""
    known = identify_tiktoken(R50K_BYTES)
    assert known is not None and known.exact
    assert (known.tokenizer_id, known.pattern_id, known.n_ranks) == ("r50k_base", "r50k", 50_256)
    text = load_sample("mixed")
    own = tokenizer_from_tiktoken_bytes(R50K_BYTES, name="gpt2", pattern_id=known.pattern_id)
    assert own.count(text) == len(stock["r50k_base"].encode_ordinary(text)) == 485
    other = tokenizer_from_tiktoken_bytes(R50K_BYTES, name="gpt2", pattern_id="o200k")
    assert other.count(text) == 483  # why the pattern matters


@pytest.mark.parametrize(
    "tid", ["o200k_base", "cl100k_base", "llama3", "qwen", "qwen35", "p50k_base", "r50k_base"]
)
def test_every_builtin_tiktoken_vocabulary_is_recognised_with_its_own_pattern(tid):
    from tests.conftest import builtin

    enc = builtin(tid).encoding
    known = identify_tiktoken(vocab.tiktoken_blob(enc._mergeable_ranks))
    assert known is not None and known.exact and known.tokenizer_id == tid
    assert PATTERNS[known.pattern_id].regex == enc._pat_str  # the built-in's own pattern
    assert known.n_ranks == len(enc._mergeable_ranks)


def test_qwens_entry_is_the_hash_of_qwens_own_file():
    """Qwen's own qwen.tiktoken (as dashscope==2.0.2 ships it) hashes to b2b1b8df...; that
    prefix is in ../shared/notes/offline-tokenizers.md, taken from the file itself."""
    from tests.conftest import builtin

    blob = vocab.tiktoken_blob(builtin("qwen").encoding._mergeable_ranks)
    assert known_vocab.QWEN_TIKTOKEN_SHA256.startswith("b2b1b8df")
    assert vocab.sha256_bytes(blob) == known_vocab.QWEN_TIKTOKEN_SHA256


def test_the_same_ranks_written_otherwise_are_recognised():
    lines = R50K_BYTES.splitlines()
    shuffled = b"\r\n".join(lines[1000:] + lines[:1000]) + b"\r\n"
    assert shuffled != R50K_BYTES
    known = identify_tiktoken(shuffled)
    assert known is not None and known.exact and known.tokenizer_id == "r50k_base"


def test_an_extended_vocabulary_is_recognised_by_its_first_ranks():
    extra = base64.b64encode(b"zzzqqq") + b" 50256\n"
    known = identify_tiktoken(R50K_BYTES + extra)
    assert known is not None and not known.exact
    assert (known.tokenizer_id, known.pattern_id, known.n_ranks) == ("r50k_base", "r50k", 50_256)


TRUNCATED_R50K = b"".join(R50K_BYTES.splitlines(keepends=True)[:-5000])  # its first 45,256 ranks


@pytest.mark.parametrize("data", [_byte_vocab([b"ab"]), TRUNCATED_R50K])
def test_other_files_are_not_taken_for_a_builtin(data):
    assert identify_tiktoken(data) is None


def test_a_file_that_is_not_a_tiktoken_file_says_where():
    with pytest.raises(VocabularyError, match="line 1"):
        identify_tiktoken(b"not a vocabulary\n")


def _upload(at, data: bytes, name: str = "r50k_base.tiktoken"):
    at.file_uploader(key="custom_tok_file").upload(name, data, "application/octet-stream")
    at.run()
    assert not at.exception, at.exception
    return at


def _texts(elements) -> str:
    """The messages' text as shown (markdown escapes taken out)."""
    return " ".join(e.value for e in elements).replace("\\", "")


def test_upload_preselects_the_pattern_and_says_so(app, stock):
    at = _upload(app, R50K_BYTES)
    assert at.selectbox(key="custom_tok_pattern").value == "r50k"
    assert "This file is the **r50k_base (gpt2)** vocabulary, so its own pattern" in _texts(at.info)
    assert "selected below" in _texts(at.info) and not at.warning
    at.text_input(key="custom_tok_name").input("mine").run()
    at.button(key="custom_tok_add").click().run()
    assert not at.exception, at.exception
    assert "pattern r50k_base / p50k_base" in _texts(at.success)
    own = next(iter(at.session_state["session_tokenizers"].values()))
    text = load_sample("mixed")
    assert own.count(text) == len(stock["r50k_base"].encode_ordinary(text))


def test_choosing_another_pattern_for_a_known_file_is_warned(app):
    at = _upload(app, R50K_BYTES)
    at.selectbox(key="custom_tok_pattern").set_value("o200k").run()
    assert at.selectbox(key="custom_tok_pattern").value == "o200k"  # the choice is kept
    assert "counts will differ from its own" in _texts(at.warning)


def test_an_unknown_vocabulary_is_told_the_pattern_decides(app):
    at = _upload(app, _byte_vocab([b"ab", b"abc"]), name="tiny.tiktoken")
    assert "The pattern decides the counts" in _texts(at.warning)
    assert "trained with" in _texts(at.warning) and not at.info


def test_a_file_that_cannot_be_read_is_told_at_once(app):
    at = _upload(app, b"[PAD]\n[UNK]\nhello\n", name="vocab.txt")  # a WordPiece list, not ranks
    assert "vocab.txt: line 1: expected 'base64-token rank'" in _texts(at.error)
    assert not at.warning and not at.info


@pytest.mark.parametrize(
    ("kind", "name", "message"),
    [
        ("tiktoken", "x.py", "A .tiktoken vocabulary is a .tiktoken or .txt file; x.py is not one."),
        ("hf", "x.py", "A Hugging Face tokenizer.json is a .json file; x.py is not one."),
        ("tiktoken", "tokenizer.json", "If it is a Hugging Face tokenizer.json, choose that format above."),
    ],
)
def test_a_file_of_another_kind_is_told_what_a_vocabulary_file_is(app, kind, name, message):
    # issue #31: Streamlit's own type filter answered "application/octet-stream files are not allowed"
    app.radio(key="custom_tok_kind").set_value(kind).run()
    at = _upload(app, b"print('hello')\n", name=name)
    assert message in _texts(at.error)
    at.button(key="custom_tok_add").click().run()
    assert not at.exception and not at.success and not at.session_state["session_tokenizers"]
    assert _texts(at.error).count(message) == 1  # said once, by the file box


def test_an_extended_vocabulary_gets_its_base_pattern_and_a_caution(app):
    at = _upload(app, R50K_BYTES + base64.b64encode(b"zzzqqq") + b" 50256\n", name="gpt2-plus.tiktoken")
    assert at.selectbox(key="custom_tok_pattern").value == "r50k"
    assert "The first 50,256 tokens" in _texts(at.info) and "trained with it" in _texts(at.info)


@pytest.mark.parametrize(
    ("tid", "name"),
    [("o200k_base", "O200K"), ("cl100k_base", "CL100K"), ("r50k_base", "R50K"), ("p50k_base", "R50K"),
     ("llama3", "LLAMA3"), ("qwen", "QWEN"), ("tekken", "TEKKEN"), ("llama4", "O200K"),
     ("qwen35", "QWEN35")],
)  # fmt: skip
def test_a_tiktoken_tokenizer_tells_its_pre_tokenization_pattern(tid, name):
    """The published pattern of each family (p50k reuses GPT-2's; Llama 4 reuses o200k's)."""
    from tests.conftest import builtin
    from tokenizer_core.tokenizers import patterns

    assert builtin(tid).pattern == getattr(patterns, name)


def test_an_uploaded_tiktoken_file_tells_the_pattern_chosen_for_it():
    from tokenizer_core.tokenizers import patterns

    tok = tokenizer_from_tiktoken_bytes(R50K_BYTES, name="mine", pattern_id="cl100k")
    assert tok.pattern == patterns.CL100K
