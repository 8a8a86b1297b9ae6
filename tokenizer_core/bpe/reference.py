"""The textbook BPE loop: short, slow, and the answer the fast trainer (`train`) is tested against.

Every merge recounts each adjacent pair of every distinct word, picks the most frequent pair
(ties by `tie_break`, as in :class:`~tokenizer_core.bpe.model.BPEOptions`), and rewrites every
word with it: O(merges x corpus), fine for teaching and for checking, hopeless past a few hundred
KB. The fast trainer keeps the counts between merges instead and must pick the same merges.

    >>> merges, words = train_reference({"low": 5, "lower": 2, "newest": 6, "widest": 3}, merges=5)
    >>> [(a, b) for a, b, _ in merges]
    [('e', 's'), ('es', 't'), ('l', 'o'), ('lo', 'w'), ('n', 'e')]
    >>> list(words)
    [('low',), ('low', 'e', 'r'), ('ne', 'w', 'est'), ('w', 'i', 'd', 'est')]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from .model import Symbol, TieBreak

Word = tuple[Symbol, ...]
Pair = tuple[Symbol, Symbol]


def split_word(word: str, *, symbols: Literal["bytes", "chars"] = "chars", end_marker: str = "") -> Word:
    """A word as its start symbols: ``split_word("ab", end_marker="_") -> ('a', 'b', '_')``."""
    if symbols == "bytes":
        syms: Word = tuple(bytes([b]) for b in word.encode())
        return syms + (end_marker.encode(),) if end_marker else syms
    return tuple(word) + (end_marker,) if end_marker else tuple(word)


def pair_counts(words: Mapping[Word, int]) -> dict[Pair, int]:
    """Each adjacent pair's count, in first-seen order: ``pair_counts({('a','b','a'): 2}) -> {('a','b'): 2, ('b','a'): 2}``."""
    pairs: dict[Pair, int] = {}
    for syms, count in words.items():
        for pair in zip(syms, syms[1:]):
            pairs[pair] = pairs.get(pair, 0) + count
    return pairs


def best_pair(pairs: Mapping[Pair, int], *, tie_break: TieBreak = "first") -> Pair:
    """The most frequent pair; ties go to the smallest, the largest or the first seen pair.

    ``best_pair({('b', 'c'): 2, ('a', 'b'): 2}, tie_break="smallest") -> ('a', 'b')``
    """
    if tie_break == "smallest":
        return min(pairs, key=lambda p: (-pairs[p], p))
    if tie_break == "largest":
        return max(pairs, key=lambda p: (pairs[p], p))
    return max(pairs, key=lambda p: pairs[p])  # max keeps the first of equal keys


def merge_pair(syms: Word, pair: Pair) -> Word:
    """`syms` with each occurrence of `pair`, left to right, made one symbol.

    ``merge_pair(('a', 'a', 'a'), ('a', 'a')) -> ('aa', 'a')``
    """
    out: list[Symbol] = []
    i = 0
    while i < len(syms):
        if i + 1 < len(syms) and (syms[i], syms[i + 1]) == pair:
            out.append(syms[i] + syms[i + 1])  # type: ignore[operator]  # both str or both bytes
            i += 2
        else:
            out.append(syms[i])
            i += 1
    return tuple(out)


def train_reference(
    counts: Mapping[str, int],
    *,
    symbols: Literal["bytes", "chars"] = "chars",
    end_marker: str = "",
    tie_break: TieBreak = "first",
    merges: int = 10,
    min_frequency: int = 1,
) -> tuple[list[tuple[Symbol, Symbol, int]], dict[Word, int]]:
    """Learn up to `merges` merges from word counts; returns ((left, right, count) per merge, the
    final words with their counts). Stops early when no pair is left or the best occurs fewer than
    `min_frequency` times."""
    words: dict[Word, int] = {}
    for word, count in counts.items():
        syms = split_word(word, symbols=symbols, end_marker=end_marker)
        words[syms] = words.get(syms, 0) + count
    learned: list[tuple[Symbol, Symbol, int]] = []
    for _ in range(merges):
        pairs = pair_counts(words)
        if not pairs:
            break
        best = best_pair(pairs, tie_break=tie_break)
        if pairs[best] < min_frequency:
            break
        learned.append((best[0], best[1], pairs[best]))
        merged: dict[Word, int] = {}
        for syms, count in words.items():
            new = merge_pair(syms, best)
            merged[new] = merged.get(new, 0) + count
        words = merged
    return learned, words
