"""Fitting a prefix to a budget: the longest piece of text, on grapheme boundaries, within a
number of tokens, found by real counts of its prefixes."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..tokenizers.encoders import Tokenizer
from .cuts import GraphemeCursor

Counter = Callable[[int, int], int]  # (start, end) -> token count of text[start:end]


def cluster_note(cluster: str, n: int, size: int) -> str:
    """The note on a chunk cut inside `cluster`, which alone is `n` tokens, above `size`."""
    shown = cluster if len(cluster) <= 24 else cluster[:20] + "…"
    return f"cuts a grapheme cluster: {shown!r} alone is {n:,} tokens, above the budget of {size:,}"


def _search_prefix(count: Counter, start: int, cands: Sequence[int], budget: int) -> tuple[int, int] | None:
    """The furthest candidate end p with ``count(start, p) <= budget``, with its count (None
    if none fits). `cands` are increasing ends.

    Gallops from the shortest prefix (1, 2, 4, ... candidates) and then bisects, so a window
    of w candidates costs about log w counts of at most twice its length, however far the
    candidates reach. Then a short look ahead: a longer prefix can count fewer tokens
    ("hello worl" is 3 tokens, "hello world" 2).
    """
    m = len(cands)
    best: tuple[int, int] | None = None
    lo, hi, i, step = 0, m, 0, 1
    while i < m:
        n = count(start, cands[i])
        if n > budget:
            hi = i
            break
        best, lo = (i, n), i + 1
        i, step = i + step, step * 2
    while lo < hi:
        mid = (lo + hi) // 2
        n = count(start, cands[mid])
        if n <= budget:
            best, lo = (mid, n), mid + 1
        else:
            hi = mid
    k0 = best[0] + 2 if best else 1
    for k in range(k0, min(m, k0 + 3)):
        n = count(start, cands[k])
        if n <= budget:
            best = (k, n)
    return (cands[best[0]], best[1]) if best else None


def fit_within(
    text: str, count: Counter, graphemes: GraphemeCursor, start: int, hi: int, end: int, budget: int
) -> tuple[int, int, str]:
    """The longest ``text[start:p]`` within `budget`, p a grapheme boundary in ``(start, end]``
    (or `end`), searched up to `hi` first and further while everything up to there fits.

    Returns ``(p, tokens, note)``. When not even the first cluster fits, the cut falls between
    its code points and the note names the cluster and its count; when not even one code point
    fits, that one character is returned over budget with a note saying so.
    """
    best: tuple[int, int] | None = None
    lo = start
    while True:
        found = _search_prefix(count, start, graphemes.between(lo, hi) + [hi], budget)
        if found is None:
            break
        best = found
        if found[0] != hi or hi >= end:
            break
        lo, hi = hi, min(end, graphemes.next_after(min(end, hi + 2 * (hi - start)) - 1))

    def note_for(pos: int) -> str:
        a, b = graphemes.at_or_before(pos), min(graphemes.next_after(pos), len(text))
        return cluster_note(text[a:b], count(a, b), budget)

    if best is not None:
        p, n = best
        inside = [q for q in (start, p) if q != end and not graphemes.is_boundary(q)]
        return p, n, note_for(inside[0]) if inside else ""
    first = min(graphemes.next_after(start), end)
    best = _search_prefix(count, start, range(start + 1, first), budget)
    if best is not None:
        return best[0], best[1], note_for(best[0])
    p = start + 1
    n = count(start, p)
    return p, n, f"over budget: the character {text[start]!r} alone is {n:,} tokens"


def fit_prefix(text: str, tokenizer: Tokenizer, start: int, end: int, budget: int) -> tuple[int, int, str]:
    """The longest ``text[start:p]`` (p a grapheme boundary in ``(start, end]``) within `budget`.

    Returns ``(p, tokens, note)``: ``fit_prefix("hello world again", cl100k, 0, 17, 2) ->
    (11, 2, "")``. When not even one cluster fits, the cut falls between code points of the
    cluster (the note says which cluster and its count), and when not even one character fits,
    that single character is returned over budget with a note saying so.
    """

    def count(a: int, b: int) -> int:
        return tokenizer.count(text[a:b])

    return fit_within(text, count, GraphemeCursor(text), start, end, end, budget)
