"""Llama 4 (Scout, Maverick) from Meta's `llama4/tokenizer.model` in PyPI llama-models 0.3.0.

The file is already in tiktoken's format (200,000 ranks); it is read and hashed, never imported
through the package. The pattern and the 2,048 special tokens are those of the package's
`llama_models/llama4/tokenizer.py`: o200k_base's pattern, then the specials from id 200,000.

Meta's reference encoder also cuts a text every 400,000 characters and inside any run of more
than 25,000 spaces or non-spaces (a workaround for a tiktoken limit); this one encodes the text
whole, so on such texts a count can differ from Meta's by a token at each cut.

    >>> load_llama4(LLAMA4).encode("hello world")   # doctest: +SKIP
    [25681, 3817]
"""

from __future__ import annotations

from . import package_data, patterns
from .encoders import TiktokenTokenizer, Tokenizer, TokenizerInfo

LLAMA_MODELS_PIN = "llama-models==0.3.0"
LLAMA4_SHA256 = "d0bdbaf59b0762c8c807617e2d8ea51420eb1b1de266df2495be755c8e0ed6ed"
N_RANKS = 200_000
N_SPECIAL = 2_048


def _reserved(name: str, count: int, start: int = 0) -> list[str]:
    return [f"<|{name}_reserved_special_token_{i}|>" for i in range(start, start + count)]


def llama4_specials() -> dict[str, int]:
    """Llama 4's 2,048 special tokens and their ids, in the order of Meta's tokenizer.py.

    ``llama4_specials()["<|eot|>"] -> 200008``
    """
    text = [
        "<|header_start|>", "<|header_end|>", "<|eom|>", "<|eot|>", "<|step|>",
        *_reserved("text_post_train", 6), "<|python_start|>", "<|python_end|>",
        "<|finetune_right_pad|>", *_reserved("text_post_train", 61, 8),
    ]  # fmt: skip
    vision = [
        "<|image_start|>", "<|image_end|>", *_reserved("vision", 2), "<|tile_x_separator|>",
        "<|tile_y_separator|>", *_reserved("vision", 4, 2), "<|image|>", *_reserved("vision", 1, 6),
        "<|patch|>", *_reserved("vision", 1041, 7),
    ]  # fmt: skip
    reasoning = [*_reserved("reasoning", 8), "<|reasoning_thinking_start|>", "<|reasoning_thinking_end|>"]
    basic = ["<|begin_of_text|>", "<|end_of_text|>", "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>"]
    names = basic + text + vision + reasoning
    names += [f"<|reserved_special_token_{i}|>" for i in range(N_SPECIAL - len(names))]
    return {name: N_RANKS + i for i, name in enumerate(names)}


def load_llama4(info: TokenizerInfo) -> Tokenizer:
    """Llama 4 from the hash-checked file; raises TokenizerUnavailable with the fix."""
    import tiktoken

    ranks = package_data.package_ranks(
        "llama_models",
        "llama4/tokenizer.model",
        LLAMA_MODELS_PIN,
        info.id,
        sha256=LLAMA4_SHA256,
        n_ranks=N_RANKS,
    )
    encoding = tiktoken.Encoding(
        info.id, pat_str=patterns.O200K, mergeable_ranks=ranks, special_tokens=llama4_specials()
    )
    return TiktokenTokenizer(info, encoding)


LLAMA4 = TokenizerInfo(
    "llama4", "Llama 4", "Meta Llama",
    ("Llama 4 Scout", "Llama 4 Maverick"),
    N_RANKS + N_SPECIAL,
    f"Meta's Llama 4 tokenizer from PyPI llama-models 0.3.0, read as data (the package is not "
    f"imported); its sha256 {LLAMA4_SHA256[:8]}... is pinned; pattern and special tokens from the "
    "package's Llama 4 tokenizer code",
    "Llama 4 Community License",
    notes="o200k_base's pattern over Llama 4's own 200,000 ranks (not o200k_base's).",
)  # fmt: skip
