"""Reference encoders made apart from the project's own code, usable offline in tests.

* OpenAI's encodings: stock ``tiktoken.get_encoding``, its download cache pre-filled with the
  project's rebuilt files. tiktoken checks the official sha256 of a cached file before it uses
  it, and takes the pattern and special tokens from its own ``tiktoken_ext``, so the encodings
  are OpenAI's definitions.
* Llama 3: Meta's ``llama_models.llama3.tokenizer.Tokenizer`` (its own ``tokenizer.model`` file
  and pattern; it needs only tiktoken).
* Qwen: splintr's own ``qwen3`` vocabulary through its ``encode_ordinary`` call (a separate copy
  of the vocabulary compiled into splintr, and a call that matches no special token), after NFC
  normalisation, as Qwen's tokenizer does.
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Callable
from pathlib import Path

from tests.conftest import builtin
from tokenizer_core.tokenizers import vocab

# Keys of tiktoken's download cache: sha1 of each encoding's official blob URL
# (../shared/notes/offline-tokenizers.md). o200k_harmony reads o200k_base's file.
TIKTOKEN_CACHE_KEYS = {
    "cl100k_base": "9b5ad71b2ce5302211f9c61530b329a4922fc6a4",
    "o200k_base": "fb374d419588a4632f3f557e76b4b70aebbca790",
    "r50k_base": "0ea1e91bbb3a60f729a8dc8f777fd2fc07cd8df4",
    "p50k_base": "ec7223a39ce59f226a68acc30dc1af2788490e15",
}
STOCK_NAMES = (*TIKTOKEN_CACHE_KEYS, "o200k_harmony")

# The name splintr bundles each native-path family's vocabulary under.
SPLINTR_NAMES = {
    "o200k_base": "o200k_base",
    "o200k_harmony": "o200k_base",
    "cl100k_base": "cl100k_base",
    "llama3": "llama3",
    "qwen": "qwen3",
}


def stock_tiktoken(cache: Path) -> dict:
    """Stock tiktoken encodings by name, loaded offline through a cache folder filled in `cache`."""
    import tiktoken
    import tiktoken.registry

    for tid, key in TIKTOKEN_CACHE_KEYS.items():
        (cache / key).write_bytes(vocab.tiktoken_blob(builtin(tid).encoding._mergeable_ranks))
    old = os.environ.get("TIKTOKEN_CACHE_DIR")
    os.environ["TIKTOKEN_CACHE_DIR"] = str(cache)
    try:
        return {name: tiktoken.get_encoding(name) for name in STOCK_NAMES}
    finally:
        if old is None:
            os.environ.pop("TIKTOKEN_CACHE_DIR")
        else:
            os.environ["TIKTOKEN_CACHE_DIR"] = old
        for name in STOCK_NAMES:  # do not leave them registered for other tests
            tiktoken.registry.ENCODINGS.pop(name, None)


def ordinary_references(cache: Path) -> dict[str, Callable[[str], list[int]]]:
    """For each family on the native path: text -> the ids of its reference, special-token text
    counted as text."""
    import splintr
    from llama_models.llama3.tokenizer import Tokenizer as MetaLlama3

    stock = stock_tiktoken(cache)
    qwen = splintr.Tokenizer.from_pretrained("qwen3")
    return {
        "o200k_base": stock["o200k_base"].encode_ordinary,
        "o200k_harmony": stock["o200k_harmony"].encode_ordinary,
        "cl100k_base": stock["cl100k_base"].encode_ordinary,
        "llama3": MetaLlama3.get_instance().model.encode_ordinary,
        "qwen": lambda text: qwen.encode_ordinary(unicodedata.normalize("NFC", _as_tiktoken_reads(text))),
    }


def _as_tiktoken_reads(text: str) -> str:
    """A lone surrogate made U+FFFD, as tiktoken's `encode_ordinary` does before encoding (splintr,
    in Rust, cannot take a string that holds one)."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def splintr_special_strings(tid: str) -> set[str]:
    """Every special-token string splintr's bundled copy of the family's vocabulary knows
    (its 54 or more "agent" tokens included) and every one the tokenizer itself has."""
    import splintr

    known = set(splintr.Tokenizer.from_pretrained(SPLINTR_NAMES[tid]).special_tokens())
    return known | set(builtin(tid).special_tokens)
