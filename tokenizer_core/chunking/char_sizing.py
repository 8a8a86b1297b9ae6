"""The documents' common mistake, shown: chunks sized in characters, then measured in tokens.

A splitter that cuts every N characters (N from the "about 4 characters per token" rule for a
token budget) makes chunks whose real token counts vary with the text: code, numbers and most
non-English scripts take more tokens per character, and those chunks go over the budget (an
embedding model then cuts them off).

    >>> from tokenizer_core.tokenizers import load_builtin
    >>> s = character_sizing("word " * 100, load_builtin("cl100k_base"), budget=20)
    >>> s.chars, len(s.chunks), s.over
    (80, 7, 0)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..tokenizers.encoders import Tokenizer

RULE_CHARS_PER_TOKEN = 4  # "about 4 characters per token" for English (the source documents)
MAX_CHAR_CHUNKS = 5_000


@dataclass(frozen=True, slots=True)
class CharChunk:
    """Characters [start, end) of the document and their real token count."""

    index: int
    start: int
    end: int
    tokens: int
    over: bool


@dataclass(frozen=True)
class CharSizing:
    """The document cut every `chars` characters, measured against a `budget` of tokens."""

    chars: int
    budget: int
    chunks: tuple[CharChunk, ...]
    cut_short: bool  # more than MAX_CHAR_CHUNKS chunks: only the first ones were measured

    @property
    def over(self) -> int:
        return sum(c.over for c in self.chunks)

    @property
    def largest(self) -> int:
        return max((c.tokens for c in self.chunks), default=0)

    def sentence(self) -> str:
        """What the cut shows, in one sentence."""
        n = len(self.chunks)
        if not n:
            return "The document is empty."
        head = (
            f'Cut every {self.chars:,} characters (the "about {RULE_CHARS_PER_TOKEN} characters per token" '
            f"rule for {self.budget:,} tokens), "
        )
        if not self.over:
            return (
                head
                + f"none of the {n:,} chunks goes over {self.budget:,} tokens on this text (largest {self.largest:,})."
            )
        return head + (
            f"{self.over:,} of {n:,} chunks go over {self.budget:,} tokens (the largest has {self.largest:,}): "
            "an embedding model with that limit would cut off their ends."
        )


def character_sizing(
    text: str, tokenizer: Tokenizer, *, budget: int, chars_per_token: int = RULE_CHARS_PER_TOKEN
) -> CharSizing:
    """`text` cut every ``budget * chars_per_token`` characters, each chunk counted for real."""
    if budget < 1:
        raise ValueError("the budget must be at least 1 token")
    chars = budget * chars_per_token
    starts = list(range(0, len(text), chars))[:MAX_CHAR_CHUNKS]
    pieces = [text[s : s + chars] for s in starts]
    counts = tokenizer.count_many(pieces) if pieces else []
    chunks = tuple(
        CharChunk(i, s, min(s + chars, len(text)), n, n > budget)
        for i, (s, n) in enumerate(zip(starts, counts))
    )
    return CharSizing(chars, budget, chunks, cut_short=len(text) > MAX_CHAR_CHUNKS * chars)
