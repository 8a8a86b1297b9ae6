"""What users choose: a strategy, a chunk size and an overlap, checked before any work.

First stage of the chunker (see the package docstring): settings that cannot work raise
:class:`ChunkSettingsError` with a message that says what to use instead.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_CHUNK_TOKENS = 1_000_000


@dataclass(frozen=True, slots=True)
class Strategy:
    """A chunking strategy as users see it."""

    id: str
    label: str
    description: str


STRATEGIES: dict[str, Strategy] = {
    s.id: s
    for s in (
        Strategy("tokens", "Token windows",
                 "Fixed windows of exactly `size` tokens; each window repeats the last `overlap` "
                 "tokens of the one before. Cuts anywhere between whole characters."),
        Strategy("recursive", "Recursive (paragraphs → lines → sentences → words)",
                 "Keeps paragraphs whole when they fit, otherwise splits them on lines, then "
                 "sentences, then words, then tokens, and packs the pieces up to the budget."),
        Strategy("sentences", "Sentences",
                 "Packs whole sentences (and paragraph ends) up to the budget; only a sentence "
                 "longer than the budget is split, on lines and then words."),
        Strategy("markdown", "Markdown",
                 "Cuts between headings, paragraphs, lists and fenced code; a heading always "
                 "travels with the start of its section when both fit in one chunk."),
        Strategy("code", "Code",
                 "Cuts between top-level functions and classes (Python's `ast`; column-0 lines "
                 "for other languages), then between methods, blank lines and lines."),
    )
}  # fmt: skip


class ChunkSettingsError(ValueError):
    """Chunking settings that cannot work; the message says what to use instead."""


# ------------------------------------------------------------------------------------ settings


def validate_settings(*, strategy: str, size: int, overlap: int) -> None:
    """Raise ChunkSettingsError with a fix for settings that cannot work.

    ``validate_settings(strategy="tokens", size=100, overlap=100)`` raises "Overlap (100) must
    be smaller than the chunk size (100) ...".
    """
    if strategy not in STRATEGIES:
        raise ChunkSettingsError(f"Unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}.")
    if isinstance(size, bool) or not isinstance(size, int):
        raise ChunkSettingsError(f"Chunk size must be a whole number of tokens, not {size!r}.")
    if isinstance(overlap, bool) or not isinstance(overlap, int):
        raise ChunkSettingsError(f"Overlap must be a whole number of tokens, not {overlap!r}.")
    if size < 1:
        raise ChunkSettingsError(
            f"Chunk size must be at least 1 token (got {size:,}). Typical sizes are 256 to 1,024 tokens."
        )
    if size > MAX_CHUNK_TOKENS:
        raise ChunkSettingsError(
            f"Chunk size {size:,} is above the {MAX_CHUNK_TOKENS:,}-token maximum; no embedding "
            "model reads that much at once. Use a smaller size."
        )
    if overlap < 0:
        raise ChunkSettingsError(f"Overlap cannot be negative (got {overlap:,}). Use 0 for no overlap.")
    if overlap >= size:
        raise ChunkSettingsError(
            f"Overlap ({overlap:,}) must be smaller than the chunk size ({size:,}): every chunk has "
            f"to bring some new text. Use at most {size - 1:,} tokens (10-20% of the size is common), "
            "or raise the chunk size."
        )


def overlap_from_percent(size: int, percent: float) -> int:
    """Overlap in tokens for a percentage of the chunk size: ``overlap_from_percent(512, 10) -> 51``."""
    if not 0 <= percent < 100:
        raise ChunkSettingsError(
            f"Overlap must be from 0% to less than 100% of the chunk size (got {percent:g}%); "
            "100% would repeat whole chunks."
        )
    return min(int(round(size * percent / 100)), max(size - 1, 0))


def overlap_tokens(size: int, *, unit: str, value: float) -> int:
    """The overlap in tokens from a setting in tokens or in % of the size:
    ``overlap_tokens(200, unit="%", value=10) -> 20``."""
    if unit == "%":
        return overlap_from_percent(size, float(value))
    return int(value)
