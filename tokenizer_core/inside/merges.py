"""The merge loop of byte-pair encoding, on any kind of parts (bytes, characters, ids)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

# Pairs kept per merge as "the pairs that competed" (the winner first).
RIVALS = 6

Merge = tuple[Any, int, Any, Any, tuple[Any, ...], tuple[tuple[Any, Any, Any], ...]]


def merge_steps(
    parts: Sequence[Any], rank: Callable[[Any, Any], Any], join: Callable[[Any, Any], Any]
) -> tuple[list[Any], list[Merge]]:
    """Merge the lowest-ranked adjacent pair (leftmost on a tie) until no pair has a rank.

    Returns the final parts and, per merge, ``(rank, position, left, right, parts after,
    rivals)``; `rivals` are the best :data:`RIVALS` pairs that could have merged at that moment,
    ``(left, right, rank)``, best first (the winner is the first).
    ``merge_steps("abc", lambda a, b: {"ab": 0, "abc": 1}.get(a + b), str.__add__)[0] -> ["abc"]``
    """
    cur = list(parts)
    done: list[Merge] = []
    ranks = [rank(cur[i], cur[i + 1]) for i in range(len(cur) - 1)]
    while True:
        best = -1
        best_rank = 0
        for i, r in enumerate(ranks):
            if r is not None and (best < 0 or r < best_rank):
                best, best_rank = i, r
        if best < 0:
            return cur, done
        ranked = sorted((r, i) for i, r in enumerate(ranks) if r is not None)[:RIVALS]
        rivals = tuple((cur[i], cur[i + 1], r) for r, i in ranked)
        left, right = cur[best], cur[best + 1]
        cur[best : best + 2] = [join(left, right)]
        done.append((best_rank, best, left, right, tuple(cur), rivals))
        ranks[best : best + 2] = [None]
        if best > 0:
            ranks[best - 1] = rank(cur[best - 1], cur[best])
        if best < len(cur) - 1:
            ranks[best] = rank(cur[best], cur[best + 1])
