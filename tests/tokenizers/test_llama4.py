"""Llama 4: Meta's tokenizer.model (PyPI llama-models 0.3.0) read directly, against Meta's own
code over the same file: `llama_models.llama4.tokenizer.Tokenizer` for ids and
`llama_models.llama4.chat_format.ChatFormat` for whole requests (the package is installed
without its dependencies for the tests; its chat format imports torch and Pillow at the top,
which the text path never uses, so stand-ins are put in their place)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import builtin
from tokenizer_core import TokenizerUnavailable, load_builtin
from tokenizer_core.tokenizers import package_data
from tokenizer_core.tokenizers.llama4 import LLAMA4_SHA256
from tokenizer_core.tokenizers.vocab import sha256_file
from tokenizer_core.workspace.chat import CHAT_FORMATS, Message, count_request

meta_tok = pytest.importorskip("llama_models.llama4.tokenizer")


@pytest.fixture(scope="module")
def meta():
    return meta_tok.Tokenizer.get_instance()


@pytest.fixture(scope="module")
def meta_chat(meta):
    stand_ins = {n: mock.MagicMock(name=n) for n in ("torch", "torchvision", "torchvision.transforms",
                                                      "torchvision.transforms.functional")}  # fmt: skip
    with mock.patch.dict(sys.modules, {k: v for k, v in stand_ins.items() if k not in sys.modules}):
        from llama_models.datatypes import RawMessage
        from llama_models.llama4.chat_format import ChatFormat

        fmt = ChatFormat(meta)
    return lambda msgs: (
        fmt.encode_dialog_prompt([RawMessage(role=m.role, content=m.content) for m in msgs]).tokens
    )


def test_file_is_the_pinned_one():
    path = Path(meta_tok.__file__).parent / "tokenizer.model"
    assert sha256_file(path) == LLAMA4_SHA256
    assert path.stat().st_size == 3_622_230


def test_specials_and_size_are_metas(meta):
    tok = builtin("llama4")
    assert tok.special_tokens == meta.special_tokens
    assert tok.n_vocab == meta.n_words == 202_048 == tok.info.vocab_size
    assert tok.special_tokens["<|eot|>"] == meta.eot_id


# ids written out from Meta's Tokenizer (encode, bos=False, eos=False)
FIXED = {
    "hello world": [25681, 3817],
    "Hello, World! 1234567 don't you'll": [19873, 24, 7353, 13, 220, 7235, 19596, 35, 5863, 19070],
    "naïve café 😀 नमस्ते 你好世界 مرحبا": [1499, 164301, 49652, 51358, 222, 150844, 23194, 790, 52131, 4219, 14287,
                                       75881, 57896],
    "    indented\n\n\tcode()  \r\n": [277, 1747, 21565, 368, 106572, 504, 256, 13266],
    "<|eot|> stays text": [40, 104, 81, 359, 159276, 51431, 2032],
}  # fmt: skip


@pytest.mark.parametrize("text", list(FIXED))
def test_fixed_ids(meta, text):
    assert builtin("llama4").encode(text) == FIXED[text] == meta.encode(text, bos=False, eos=False)


@settings(max_examples=100)
@given(text=st.text(max_size=150))
def test_random_text_matches_metas_tokenizer(meta, text):
    tok = builtin("llama4")
    assert tok.encode(text) == meta.encode(text, bos=False, eos=False)
    assert tok.encode(text, allow_special=True) == meta.encode(
        text, bos=False, eos=False, allowed_special="all"
    )


def test_a_changed_file_is_refused(tmp_path, monkeypatch):
    real = package_data.package_file

    def tampered(package, relative, pin, tokenizer_id):
        path = real(package, relative, pin, tokenizer_id)
        if relative != "llama4/tokenizer.model":
            return path
        copy = tmp_path / "tokenizer.model"
        shutil.copy(path, copy)
        data = bytearray(copy.read_bytes())
        data[-10] ^= 1
        copy.write_bytes(bytes(data))
        return copy

    monkeypatch.setattr(package_data, "package_file", tampered)
    with pytest.raises(TokenizerUnavailable) as exc:
        load_builtin("llama4")
    assert (
        "pinned" in exc.value.problem and exc.value.fix == "pip install --force-reinstall llama-models==0.3.0"
    )


CHATS = [
    [Message("user", "Hello world")],
    [Message("system", "You are terse.\n"), Message("user", "\nWhat's 2+2?  "), Message("assistant", "4 "),
     Message("user", "Rain <|eot|> in Oslo? 😀")],
    [Message("developer", "Answer in French."), Message("user", "Hi")],
]  # fmt: skip


@pytest.mark.parametrize("chat", CHATS, ids=["one", "four", "developer"])
def test_requests_are_metas_chat_format(meta_chat, chat):
    expected = meta_chat([Message("system", m.content) if m.role == "developer" else m for m in chat])
    count = count_request(chat, builtin("llama4"), CHAT_FORMATS["llama4"])
    assert count.total == len(expected)
    assert count.message_tokens == tuple(builtin("llama4").count(m.content) for m in chat)


plain = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)


@settings(max_examples=40)
@given(user=plain, system=plain)
def test_random_requests_are_metas(meta_chat, user, system):
    chat = [Message("system", system), Message("user", user)]
    assert count_request(chat, builtin("llama4"), CHAT_FORMATS["llama4"]).total == len(meta_chat(chat))


def test_no_family_engine_or_file_is_loaded_at_import():
    """A family nobody selects costs nothing at start-up: importing the core touches none of
    the new engines (the check runs in a fresh interpreter)."""
    import subprocess

    code = ("import sys, tokenizer_core, tokenizer_core.workspace.chat; "
            "print(sorted(m for m in ('splintr', 'sentencepiece', 'llama_models', 'google.genai', 'tiktoken') "
            "if m in sys.modules))")  # fmt: skip
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
