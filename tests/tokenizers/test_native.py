"""The native engine (splintr) used for large texts gives exactly tiktoken's ids, or is not used.

References are made apart from the project's code (tests/references.py): stock tiktoken for
OpenAI's encodings, Meta's own Llama 3 tokenizer, splintr's separate copy of Qwen's vocabulary.
"""

from __future__ import annotations

import random
import unicodedata

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import builtin
from tests.references import ordinary_references, splintr_special_strings
from tokenizer_core import load_builtin
from tokenizer_core.tokenizers import TiktokenTokenizer, load_sample, patterns
from tokenizer_core.tokenizers.encoders import NATIVE_MIN_CHARS, split_for_batch
from tokenizer_core.tokenizers.native import SPECIAL_WRAPS, check_text, greedy_pattern

NATIVE_IDS = ["o200k_base", "o200k_harmony", "cl100k_base", "llama3", "qwen"]
PIECES = ["a", "Z", " ", "  ", "\n", "\r\n", "\t", "1", "234", "'s", "don't", "<|endoftext|>", "é", "e\u0301",
          "😀", "👨\u200d👩\u200d👧", "नमस्ते", "你好", "مرحبا", ".", "!?", "\u200b", "\x00", "ǅ", "ſ",
          " электронной", " iletişime", "ఆఛ\u0c74\u0c5c", "\U000e0100", "\ufdd0", "<|im_start|>",
          "<|think|>"]  # fmt: skip
texts = st.lists(st.sampled_from(PIECES) | st.characters(), max_size=60).map("".join) | st.text(max_size=120)


@pytest.fixture(scope="module")
def refs(tmp_path_factory):
    return ordinary_references(tmp_path_factory.mktemp("tiktoken-cache"))


@pytest.fixture(scope="module")
def all_specials() -> list[str]:
    """Every special-token string splintr knows for any of the native-path vocabularies, and every
    one those tokenizers have: each must count as plain text in every family. (A fixture, not a
    module constant: reading them takes seconds, which every test process would spend collecting.)"""
    return sorted(set().union(*(splintr_special_strings(t) for t in NATIVE_IDS)))


def _mixed_lines(n_chars: int, *, seed: int = 0) -> str:
    """About `n_chars` of varied lines: prose, code, emoji, CJK, Indic, odd whitespace, ChatML."""
    rng = random.Random(seed)
    parts = [
        "The river mill kept its ledger in order.", "naïve café 😀👨\u200d👩\u200d👧 🇮🇳", "नमस्ते दुनिया।",
        "你好世界，这是一个测试。", "مرحبا بالعالم", "こんにちは世界", "Привет, мир!", " электронной почте",
        "def f(x):\n    return {'a': [1, 2]}", "\t\tindented\u00a0text\u2003here", "x\r\ny", "1234567 3.14",
        "<|im_start|>user\nhello<|im_end|>", "<|endoftext|>", "ఆఛ\u0c74\u0c5cాాక", "  \u3000 ", "don't stop",
    ]  # fmt: skip
    out: list[str] = []
    size = 0
    while size < n_chars:
        line = " ".join(rng.choice(parts) for _ in range(rng.randint(1, 12)))
        out.append(line + rng.choice(["\n", "\n", "\n\n", " \n", "\r\n", ""]))
        size += len(out[-1])
    return "".join(out)


BASE = _mixed_lines(NATIVE_MIN_CHARS + 20_000)
WRAPS = ["{}", " {}", "{}\n", "\n{}\n", "word{}word", " {} ", "{}{}", "\n\n{}", "{}'s", "1{}2", "\n{}Ab", "é{}\t"]  # fmt: skip


def _with_every_special(base: str, spots: list[int], wraps: list[str], specials: list[str]) -> str:
    """`base` with each of `specials` written in at its spot, in its wrapping."""
    out, pos = [], 0
    for spot, wrap, special in sorted(zip(spots, wraps, specials)):
        out += [base[pos:spot], wrap.replace("{}", special)]
        pos = spot
    out.append(base[pos:])
    return "".join(out)


def _assert_counts_equal(tid: str, text: str, reference) -> None:
    tok = builtin(tid)
    expected = reference(text)
    assert len(text) >= NATIVE_MIN_CHARS
    assert tok.count(text) == len(expected), tid
    assert tok.count_many([text, "<|think|>"]) == [len(expected), len(reference("<|think|>"))], tid
    prepared = tok._prepare(text)
    arrays = tok.ordinary_id_arrays(split_for_batch(prepared))
    assert [int(i) for a in arrays for i in a] == expected, tid


@pytest.mark.parametrize("tid", NATIVE_IDS)
def test_every_fast_family_gets_its_checked_native_engine(tid):
    assert builtin(tid).native is not None


@pytest.mark.parametrize("tid", NATIVE_IDS)
def test_the_native_engine_knows_no_id_past_the_ordinary_vocabulary(tid):
    """No special token at all: every id it can give is a rank of the hash-checked vocabulary."""
    tok = builtin(tid)
    ranks = tok.encoding._mergeable_ranks
    assert tok.native.vocab_size == len(ranks) == max(ranks.values()) + 1
    with pytest.raises(ValueError):
        tok.native.decode_token_bytes(len(ranks))


@pytest.mark.parametrize("tid", NATIVE_IDS)
def test_engine_special_token_text_counts_as_text_in_a_large_text(refs, tid):
    """splintr's bundled vocabularies add 54+ "agent" tokens (<|think|>, <|im_start|>...) that
    tiktoken's do not have: in a large text each is plain text, wherever it stands."""
    specials = sorted(splintr_special_strings(tid))
    assert {"<|think|>", "<|im_start|>", "<|plan|>", "<|sep|>"} <= set(specials)
    rng = random.Random(tid)
    n = len(specials) * len(WRAPS)
    spots = [rng.randrange(len(BASE)) for _ in range(n)]
    wraps = [w for w in WRAPS for _ in specials]
    text = _with_every_special(BASE, spots, wraps, specials * len(WRAPS))
    _assert_counts_equal(tid, text, refs[tid])


@settings(max_examples=12)
@given(data=st.data())
def test_every_special_string_is_text_in_random_large_texts(refs, all_specials, data):
    """Property: every special-token string of every native-path engine, each at a random spot
    in a random wrapping, and random text at random spots, in a text above NATIVE_MIN_CHARS."""
    rnd = random.Random(data.draw(st.integers(0, 2**32), label="seed"))
    spots = [rnd.randrange(len(BASE) + 1) for _ in all_specials]
    wraps = [rnd.choice(WRAPS) for _ in all_specials]
    order = rnd.sample(all_specials, len(all_specials))
    extra = data.draw(st.lists(st.tuples(st.integers(0, len(BASE)), texts), max_size=20))
    text = _with_every_special(
        BASE, spots + [s for s, _ in extra], wraps + ["{}"] * len(extra), list(order) + [t for _, t in extra]
    )
    for tid in NATIVE_IDS:
        _assert_counts_equal(tid, text, refs[tid])


def test_greedy_patterns_are_splintrs_own_copies():
    """splintr ships the greedy forms of the published patterns; ours become exactly those."""
    splintr = pytest.importorskip("splintr")
    assert greedy_pattern(patterns.CL100K) == splintr.CL100K_BASE_PATTERN != patterns.CL100K
    assert greedy_pattern(patterns.O200K) == splintr.O200K_BASE_PATTERN == patterns.O200K
    assert greedy_pattern(patterns.LLAMA3) == splintr.LLAMA3_PATTERN
    assert greedy_pattern(patterns.QWEN) == splintr.QWEN2_PATTERN


@pytest.mark.parametrize(
    "pattern, greedy",
    [
        (r"a++|b?+|c*+|\p{N}{1,3}+|d{2}+", r"a+|b?|c*|\p{N}{1,3}|d{2}"),
        (r"(?i:'s)|[+]+|[?+]|\++|\+++|a+?", r"(?i:'s)|[+]+|[?+]|\++|\++|a+?"),  # classes, escapes, lazy: kept
        (r"x{,2}+|}+", r"x{,2}+|}+"),  # not counted quantifiers: a literal "{,2}" and "}"
    ],
)
def test_greedy_pattern_drops_only_possessive_marks(pattern, greedy):
    assert greedy_pattern(pattern) == greedy


def test_check_text_holds_every_special_in_every_wrapping():
    text = check_text(["hello"], ["<|a|>", "<|b|>"], min_chars=1000)
    assert len(text) >= 1000 and text.startswith("hello ")
    for special in ("<|a|>", "<|b|>"):
        for wrap in SPECIAL_WRAPS:
            assert wrap.replace("{}", special) in text


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
def test_large_counts_equal_tiktoken(refs, tid):
    tok = builtin(tid)
    text = _large_text()
    expected = len(refs[tid](text))
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

    def __init__(self, real, *, wrong_bytes=False, wrong_ids=False, extra_id=False, knows_think=False):
        self.real, self.wrong_bytes, self.wrong_ids = real, wrong_bytes, wrong_ids
        self.vocab_size = real.vocab_size + (1 if extra_id else 0)
        self.knows_think = knows_think

    def decode_token_bytes(self, i):
        return b"?" if self.wrong_bytes and i == 1000 else self.real.decode_token_bytes(i)

    def special_tokens(self):
        return {"<|think|>": 7} if self.knows_think else {}

    def encode_batch_flat(self, pieces):
        if self.knows_think:  # reads its own special-token text as one id, as a bundled vocabulary would
            rows = [self._with_think(p) for p in pieces]
            offsets = np.cumsum([0] + [len(r) for r in rows], dtype="<u8")
            return np.asarray([i for r in rows for i in r], dtype="<u4").tobytes(), offsets.tobytes()
        ids, offsets = self.real.encode_batch_flat(pieces)
        return (ids[:-4] + (7).to_bytes(4, "little"), offsets) if self.wrong_ids and ids else (ids, offsets)

    def _with_think(self, text):
        parts = text.split("<|think|>")
        ids, offsets = self.real.encode_batch_flat(parts)
        ids, offsets = np.frombuffer(ids, dtype="<u4").tolist(), np.frombuffer(offsets, dtype="<u8")
        row = []
        for k in range(len(parts)):
            row += ([7] if k else []) + ids[offsets[k] : offsets[k + 1]]
        return row


class _Panic(BaseException):
    """What a Rust panic arrives as (pyo3's PanicException derives from BaseException)."""


@pytest.mark.parametrize(
    "flaw", ["wrong_bytes", "wrong_ids", "extra_id", "knows_think", "fails_to_load", "panics"]
)
def test_a_flawed_engine_is_never_used(flaw):
    real = builtin("cl100k_base").native
    tok = load_builtin("cl100k_base")  # a fresh instance, not the shared one

    def loader():
        if flaw == "fails_to_load":
            raise OSError("engine missing")
        if flaw == "panics":
            raise _Panic("called `Result::unwrap()` on an `Err` value")
        return _Engine(real, **{flaw: True})

    tok._native_loader = loader
    assert tok.native is None
    text = _large_text() + " <|think|>"
    assert tok.count(text) == len(tok.encoding.encode_ordinary(text))


def test_a_sound_stand_in_engine_is_used():
    """The flaws above are what makes an engine fail the check, not the stand-in itself."""
    real = builtin("cl100k_base").native
    tok = load_builtin("cl100k_base")
    tok._native_loader = lambda: _Engine(real)
    assert tok.native is not None


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
def test_splintrs_bundled_vocabulary_is_never_used(name):
    """It turns <|think|>, <|im_start|>... into special ids no real model has."""
    splintr = pytest.importorskip("splintr")
    tok = load_builtin(name)
    tok._native_loader = lambda: splintr.Tokenizer.from_pretrained(name)
    assert tok.native is None


class _MeteredEncoding:
    """A tiktoken Encoding that adds up the characters it encodes in batches or whole."""

    def __init__(self, encoding) -> None:
        self._encoding = encoding
        self.chars = 0

    def __getattr__(self, name):
        return getattr(self._encoding, name)

    def encode_ordinary_batch(self, texts, **kwargs):
        self.chars += sum(map(len, texts))
        return self._encoding.encode_ordinary_batch(texts, **kwargs)

    def encode_ordinary(self, text):
        self.chars += len(text)
        return self._encoding.encode_ordinary(text)


def _documents(line: str, n_chars: int, *, where: str) -> str:
    """Lines of ~7 KB with special-token text in them: a dump of documents or a training file."""
    doc = (line * (7000 // len(line) + 1))[:7000]
    special = {"end": doc + " <|endoftext|>\n", "middle": doc[:3500] + " <|im_start|> " + doc[3500:] + "\n",
               "no newlines": doc + " <|endoftext|> "}[where]  # fmt: skip
    return special * (n_chars // len(special) + 1)


@pytest.mark.parametrize("tid", ["o200k_base", "cl100k_base"])
@pytest.mark.parametrize("where", ["end", "middle", "no newlines"])
def test_special_token_text_anywhere_keeps_a_large_count_on_the_native_engine(tid, where):
    """Special-token text, however often and wherever it stands, sends no text to tiktoken."""
    shared = builtin(tid)
    meter = _MeteredEncoding(shared.encoding)
    tok = TiktokenTokenizer(shared.info, meter, native_loader=lambda: shared.native)
    assert tok.native is shared.native
    meter.chars = 0  # the check before first use encodes its own text
    text = _documents(
        "The river mill kept its ledger in order. Every spring the water rose. ", 600_000, where=where
    )
    assert tok.count(text) == len(shared.encoding.encode_ordinary(text))
    assert meter.chars == 0
