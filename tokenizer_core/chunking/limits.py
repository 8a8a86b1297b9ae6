"""How many chunks settings make at the least: the page refuses settings that make too many.

Each chunk after the first brings at most ``size - overlap`` new tokens, so overlap multiplies
the count: a 250,000-token document at size 6 and overlap 5 needs at least 249,995 chunks,
not 250,000 / 6.
"""

from __future__ import annotations


def least_chunks(tokens: int, *, size: int, overlap: int) -> int:
    """The fewest chunks of at most `size` tokens, each sharing `overlap` tokens with the one
    before, that cover `tokens` tokens. ``least_chunks(100, size=10, overlap=0) -> 10``;
    ``least_chunks(100, size=6, overlap=5) -> 95``.
    """
    if tokens <= size:
        return 1 if tokens > 0 else 0
    return 1 + -(-(tokens - size) // (size - overlap))


def smallest_size(tokens: int, *, overlap: int, max_chunks: int) -> int:
    """The smallest chunk size above `overlap` whose `least_chunks` is at most `max_chunks`.

    ``smallest_size(1_000, overlap=0, max_chunks=100) -> 10``.
    """
    low, high = overlap + 1, max(overlap + 1, tokens)  # at `high` one chunk holds everything
    while low < high:  # least_chunks only falls as the size grows: binary search
        mid = (low + high) // 2
        if least_chunks(tokens, size=mid, overlap=overlap) <= max_chunks:
            high = mid
        else:
            low = mid + 1
    return low


__all__ = ["least_chunks", "smallest_size"]
