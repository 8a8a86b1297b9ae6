"""The merge loop of byte-pair encoding, on any kind of parts (bytes, characters, ids)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


def merge_steps(
    parts: Sequence[Any], rank: Callable[[Any, Any], int | None], join: Callable[[Any, Any], Any]
) -> tuple[list[Any], list[tuple[int, int, Any, Any, tuple[Any, ...]]]]:
    """Merge the lowest-ranked adjacent pair (leftmost on a tie) until no pair has a rank.

    Returns the final parts and ``(rank, position, left, right, parts after)`` per merge.
    ``merge_steps("abc", lambda a, b: {"ab": 0, "abc": 1}.get(a + b), str.__add__)[0] -> ["abc"]``
    """
    cur = list(parts)
    done: list[tuple[int, int, Any, Any, tuple[Any, ...]]] = []
    ranks = [rank(cur[i], cur[i + 1]) for i in range(len(cur) - 1)]
    while True:
        best = -1
        best_rank = 0
        for i, r in enumerate(ranks):
            if r is not None and (best < 0 or r < best_rank):
                best, best_rank = i, r
        if best < 0:
            return cur, done
        left, right = cur[best], cur[best + 1]
        cur[best : best + 2] = [join(left, right)]
        done.append((best_rank, best, left, right, tuple(cur)))
        ranks[best : best + 2] = [None]
        if best > 0:
            ranks[best - 1] = rank(cur[best - 1], cur[best])
        if best < len(cur) - 1:
            ranks[best] = rank(cur[best], cur[best + 1])
