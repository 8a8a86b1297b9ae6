"""The native engine (splintr) used for large texts gives exactly tiktoken's ids, or is not used."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import builtin
from tokenizer_core import TiktokenTokenizer, load_builtin, load_sample
from tokenizer_core.tokenizers.encoders import NATIVE_MIN_CHARS

NATIVE_IDS = ["o200k_base", "cl100k_base", "llama3", "qwen"]
PIECES = ["a", "Z", " ", "  ", "\n", "\r\n", "\t", "1", "234", "'s", "don't", "<|endoftext|>", "é", "e\u0301",
          "😀", "👨\u200d👩\u200d👧", "नमस्ते", "你好", "مرحبا", ".", "!?", "\u200b", "\x00", "ǅ", "ſ",
          " электронной", " iletişime", "ఆఛ\u0c74\u0c5c", "\U000e0100", "\ufdd0"]  # fmt: skip
texts = st.lists(st.sampled_from(PIECES) | st.characters(), max_size=60).map("".join) | st.text(max_size=120)


@pytest.mark.parametrize("tid", NATIVE_IDS)
def test_every_fast_family_gets_its_checked_native_engine(tid):
    assert builtin(tid).native is not None


@settings(max_examples=400)
@given(text=texts)
def test_native_ids_equal_tiktoken_on_any_text(text):
    for tid in NATIVE_IDS:
        tok = builtin(tid)
        prepared = tok._prepare(text)
        arrays = tok._native_arrays([prepared, "x " + prepared])
        assert [a.tolist() for a in arrays] == tok.encoding.encode_ordinary_batch(
            [prepared, "x " + prepared]
        ), tid
        assert [a.tolist() for a in tok.ordinary_id_arrays([prepared])] == [
            tok.encoding.encode_ordinary(prepared)
        ]


@pytest.mark.parametrize(
    "tid, text",
    [
        ("llama3", " электронной почте, iletişime geçtiğiniz için"),  # where quicktok differs
        ("o200k_base", " ఆఛ\u0c74\u0c5cాాక౿౮౦\u0c50\u0c4f"),  # unassigned code points
    ],
)
def test_known_hard_cases(tid, text):
    tok = builtin(tid)
    assert tok._native_arrays([text])[0].tolist() == tok.encoding.encode_ordinary(text)


def _large_text() -> str:
    base = load_sample("prose") + "\n" + load_sample("python") + "\n" + load_sample("json")
    base += "\nПривет, мир! Türkçe iletişim. नमस्ते दुनिया। 你好世界。\n"
    return (base * (NATIVE_MIN_CHARS // len(base) + 2))[: NATIVE_MIN_CHARS + 12_345]


@pytest.mark.parametrize("tid", NATIVE_IDS)
def test_large_counts_equal_tiktoken(tid):
    tok = builtin(tid)
    text = _large_text()
    expected = len(tok.encoding.encode_ordinary(tok._prepare(text)))
    assert tok.count(text) == expected
    assert tok.count_many([text, "hello world", ""]) == [expected, len(tok.encode("hello world")), 0]
    if tid == "qwen":
        assert tok.count(unicodedata.normalize("NFD", text)) == expected  # NFC first, as Qwen does


def test_special_token_text_in_large_texts_stays_exact():
    tok = builtin("o200k_base")
    text = _large_text() + "<|endoftext|>"
    pieces = [text[:1000] + "<|endoftext|>", "plain", text]
    assert [a.tolist() for a in tok._native_arrays(pieces)] == tok.encoding.encode_ordinary_batch(pieces)
    assert tok.count(text) == len(tok.encoding.encode_ordinary(text))
    assert tok.count(text, allow_special=True) == len(tok.encoding.encode(text, allowed_special="all"))


class _Engine:
    """A stand-in engine: the real one's vocabulary, with one thing wrong."""

    def __init__(self, real, *, wrong_bytes=False, wrong_ids=False):
        self.real, self.wrong_bytes, self.wrong_ids = real, wrong_bytes, wrong_ids

    def decode_token_bytes(self, i):
        return b"?" if self.wrong_bytes and i == 1000 else self.real.decode_token_bytes(i)

    def encode_batch_flat(self, pieces):
        ids, offsets = self.real.encode_batch_flat(pieces)
        return (ids[:-4] + (7).to_bytes(4, "little"), offsets) if self.wrong_ids and ids else (ids, offsets)


@pytest.mark.parametrize("flaw", ["wrong_bytes", "wrong_ids", "fails_to_load"])
def test_a_flawed_engine_is_never_used(flaw):
    real = builtin("cl100k_base").native
    tok = load_builtin("cl100k_base")  # a fresh instance, not the shared one

    def loader():
        if flaw == "fails_to_load":
            raise OSError("engine missing")
        return _Engine(real, **{flaw: True})

    tok._native_loader = loader
    assert tok.native is None
    text = _large_text()
    assert tok.count(text) == len(tok.encoding.encode_ordinary(text))


class _MeteredEncoding:
    """A tiktoken Encoding that adds up the characters it encodes in batches."""

    def __init__(self, encoding) -> None:
        self._encoding = encoding
        self.batch_chars = 0

    def __getattr__(self, name):
        return getattr(self._encoding, name)

    def encode_ordinary_batch(self, texts, **kwargs):
        self.batch_chars += sum(map(len, texts))
        return self._encoding.encode_ordinary_batch(texts, **kwargs)


@pytest.mark.parametrize("tid", ["o200k_base", "cl100k_base"])
def test_special_token_text_now_and_then_keeps_a_large_count_on_the_native_engine(tid):
    """Issue 10, item 13: `<|endoftext|>` once per ~7 KB used to send every ~100 KB piece to
    tiktoken. Only the stretches around it (out to the nearest safe cuts) may go there now."""
    shared = builtin(tid)
    meter = _MeteredEncoding(shared.encoding)
    tok = TiktokenTokenizer(shared.info, meter, native_loader=lambda: shared.native)
    line = "The river mill kept its ledger in order.\nEvery spring the water rose again.\n"
    text = "".join(
        line * 90 + ("<|endoftext|>\n" if k % 2 else "a note on <|endoftext|> in the text ")
        for k in range(NATIVE_MIN_CHARS // (len(line) * 90) + 2)
    )
    assert len(text) >= NATIVE_MIN_CHARS and text.count("<|endoftext|>") > 60
    assert tok.count(text) == len(shared.encoding.encode_ordinary(text))
    assert meter.batch_chars <= 0.05 * len(text), meter.batch_chars / len(text)


@settings(max_examples=200)
@given(
    text=st.lists(
        st.sampled_from(["<|endoftext|>", "<|fim_prefix|>", "\n", "\nAb", "x\nY", " ", "word", "\n\n", "é"]),
        max_size=40,
    ).map("".join)
)
def test_special_stretches_keep_native_ids_exact(text):
    for tid in ("o200k_base", "cl100k_base"):
        tok = builtin(tid)
        pieces = [text, "Top\n" + text + "\nEnd"]
        assert [a.tolist() for a in tok._native_arrays(pieces)] == tok.encoding.encode_ordinary_batch(pieces)
