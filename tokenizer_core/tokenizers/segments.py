"""Token segments: exact pieces of the input text, each with the token ids that produced it.

A byte-level tokenizer may cut one character into several tokens (an emoji is four UTF-8 bytes,
often two or three tokens). Shown one by one, those tokens would be `\\ufffd`. A segment groups
consecutive tokens until their bytes end on a character boundary, so every segment's text is a
real substring of the input and joining all segments gives the input back exactly.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Sequence
from itertools import accumulate, chain, islice, repeat
from operator import itemgetter
from typing import NamedTuple


class Segment(NamedTuple):
    """`text == input[start:end]`, produced by the tokens `ids` whose bytes are `data`.

    `ids` is empty for text the tokenizer dropped (e.g. whitespace in WordPiece). A named
    tuple: immutable, cheap to create (a 100 KB text has ~25,000 of them) and to pickle.
    """

    start: int
    end: int
    ids: tuple[int, ...]
    text: str
    data: bytes
    special: bool = False


def segments_from_pieces(
    ids: Sequence[int],
    pieces: Sequence[bytes],
    *,
    special_ids: frozenset[int] | set[int] = frozenset(),
    offset: int = 0,
) -> list[Segment]:
    """Group tokens into whole-character segments, given each token's bytes.

    ``segments_from_pieces([1, 2], [b"\\xf0\\x9f", b"\\x98\\x80"])`` -> one segment "😀" with
    ids (1, 2). Character offsets start at `offset`. The bytes must be valid UTF-8 once joined
    (true for any str that was encoded); a trailing incomplete character is decoded with
    replacement so a caller never gets an exception.
    """
    if len(ids) != len(pieces):  # zip() below would stop at the shorter one
        ids, pieces = ids[: len(pieces)], pieces[: len(ids)]
    # Most tokens are whole characters: decoded one by one, in one pass. Only a token whose bytes
    # are not valid UTF-8 alone (part of a character) or hold a U+FFFD can start a group.
    texts = [p.decode("utf-8", "replace") for p in pieces]
    odd = [i for i, t in enumerate(texts) if "\ufffd" in t]
    segments: list[Segment] = []
    pos, done = offset, 0
    for i in odd:
        if i < done:
            continue  # a token the group before took in
        pos = _whole(segments, ids, pieces, texts, done, i, pos, special_ids)
        done, pos = _group(segments, ids, pieces, i, pos, special_ids)
    _whole(segments, ids, pieces, texts, done, len(texts), pos, special_ids)
    return segments


def resegment(
    previous: Sequence[Segment],
    ids: Sequence[int],
    *,
    pieces: Callable[[Sequence[int]], Sequence[bytes]],
    special_ids: frozenset[int] | set[int] = frozenset(),
) -> list[Segment]:
    """``segments_from_pieces(ids, pieces(ids), special_ids=special_ids)``, reusing `previous`.

    `previous` are the segments (from offset 0, same tokenizer and special ids) of an earlier
    version of the text: a keystroke changes a few tokens, so only the tokens between the whole
    segments the two share at the start and at the end are grouped again (the ones after are
    moved by the change in length). A segment depends only on its own tokens and where its group
    starts, which is why the result is exactly the full grouping.
    ``resegment(segments_from_pieces([1], [b"a"]), [1, 2], pieces=lambda ids: [b"ab"[i - 1 : i] for i in ids])``
    keeps the segment "a" and groups only token 2 ("b").
    """
    ids = ids if isinstance(ids, list) else list(ids)  # compared as lists below
    old = list(chain.from_iterable(map(_IDS, previous)))
    ends = list(accumulate(map(len, map(_IDS, previous))))  # each previous segment's token end
    head = _common_prefix(old, ids)
    k = bisect_right(ends, head)  # previous[:k] are made of shared tokens only
    t0, pos = (ends[k - 1], previous[k - 1][1]) if k else (0, 0)
    tail = _common_prefix(old[: t0 - 1 : -1] if t0 else old[::-1], ids[: t0 - 1 : -1] if t0 else ids[::-1])
    tail = min(tail, len(old) - t0, len(ids) - t0)
    # the first previous segment from which on every token is shared at the end
    if not tail:
        j = len(previous)
    elif len(old) - tail == t0:
        j = k
    else:
        j = bisect_left(ends, len(old) - tail, k) + 1
    s_old = ends[j - 1] if j > k else t0
    s_new = len(ids) - (len(old) - s_old)
    middle = list(pieces(ids[t0:s_new]))
    if j < len(previous):
        try:  # the middle must end on a character (a segment boundary) for the rest to follow
            b"".join(middle).decode("utf-8")
        except UnicodeDecodeError:
            j, s_new = len(previous), len(ids)
            middle = list(pieces(ids[t0:]))
    out = list(previous[:k])
    out.extend(segments_from_pieces(ids[t0:s_new], middle, special_ids=special_ids, offset=pos))
    if j < len(previous):
        shift = (out[-1][1] if out else 0) - previous[j][0]
        new = tuple.__new__
        out.extend(
            new(Segment, (a + shift, b + shift, i, x, p, f)) for a, b, i, x, p, f in islice(previous, j, None)
        )
    return out


def _common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    """How many items `a` and `b` share at the start (list comparisons run in C)."""
    n = min(len(a), len(b))
    if a[:n] == b[:n]:
        return n
    lo, hi = 0, n  # a[:lo] == b[:lo], a[:hi] != b[:hi]
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid
    return lo


def _whole(
    out: list[Segment],
    ids: Sequence[int],
    pieces: Sequence[bytes],
    texts: list[str],
    start: int,
    stop: int,
    pos: int,
    special_ids: frozenset[int] | set[int],
) -> int:
    """Append one segment per token `start:stop` (each whole characters); returns the end offset."""
    if start >= stop:
        return pos
    part = texts[start:stop]
    ends = list(accumulate(map(len, part), initial=pos))
    tids = ids[start:stop]
    special = [t in special_ids for t in tids] if special_ids else repeat(False)
    new = tuple.__new__
    out.extend(
        new(Segment, (a, b, (t,), x, p, f))
        for a, b, t, x, p, f in zip(ends, islice(ends, 1, None), tids, part, pieces[start:stop], special)
    )
    return ends[-1]


def _group(
    out: list[Segment],
    ids: Sequence[int],
    pieces: Sequence[bytes],
    start: int,
    pos: int,
    special_ids: frozenset[int] | set[int],
) -> tuple[int, int]:
    """Append the segment of the tokens from `start` on that complete a character (or, at the
    end of the input, what is left, decoded with replacement); returns (next token, end offset)."""
    for stop in range(start + 1, len(pieces) + 1):
        data = b"".join(pieces[start:stop])
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            if exc.reason == "unexpected end of data":
                continue  # the character goes on in the next token
            raise
        group = tuple(ids[start:stop])
        special = any(t in special_ids for t in group)
        out.append(Segment(pos, pos + len(text), group, text, data, special))
        return stop, pos + len(text)
    data = b"".join(pieces[start:])
    text = data.decode("utf-8", errors="replace")
    out.append(Segment(pos, pos + len(text), tuple(ids[start:]), text, data))
    return len(pieces), pos + len(text)


def segments_from_offsets(
    text: str,
    ids: Sequence[int],
    offsets: Sequence[tuple[int, int]],
    *,
    special_ids: frozenset[int] | set[int] = frozenset(),
    attach_gap: Callable[[str, tuple[int, ...]], bool] | None = None,
) -> list[Segment]:
    """Segments from per-token character offsets (Hugging Face `tokenizers` style).

    Tokens whose spans overlap are grouped; text no token covers becomes a segment with no ids,
    unless `attach_gap(gap_text, next_ids)` says it belongs to the next token (a leading space
    the tokenizer's offsets trimmed off). Joining the result always gives `text` back.
    """
    n = len(text)
    order: Sequence[int] = range(len(ids))
    prev = None
    for span in offsets:  # tokenizers give offsets in order; sort only when they are not
        if prev is not None and span < prev:
            order = sorted(order, key=lambda i: (offsets[i][0], offsets[i][1]))
            break
        prev = span
    groups: list[tuple[int, int, list[int]]] = []
    g_start = g_end = -1
    g_ids: list[int] | None = None
    for i in order:
        start, end = offsets[i]
        start = 0 if start < 0 else n if start > n else start
        end = 0 if end < 0 else n if end > n else end
        if end < start:
            start, end = end, start
        # overlapping tokens, or a zero-width one at the group's edge, join the group
        if g_ids is not None and (start < g_end or start == end == g_end or g_start == g_end == start):
            if end > g_end:
                g_end = end
            g_ids.append(ids[i])
            continue
        if g_ids is not None:
            groups.append((g_start, g_end, g_ids))
        g_start, g_end, g_ids = start, end, [ids[i]]
    if g_ids is not None:
        groups.append((g_start, g_end, g_ids))
    segments: list[Segment] = []
    pos = 0
    for start, end, gids in groups:
        start = max(start, pos)
        end = max(end, start)
        if start > pos:
            gap = text[pos:start]
            if attach_gap is not None and attach_gap(gap, tuple(gids)):
                start = pos
            else:
                segments.append(Segment(pos, start, (), gap, gap.encode("utf-8", "surrogatepass")))
        piece = text[start:end]
        special = any(t in special_ids for t in gids)
        segments.append(
            Segment(start, end, tuple(gids), piece, piece.encode("utf-8", "surrogatepass"), special)
        )
        pos = end
    if pos < len(text):
        tail = text[pos:]
        segments.append(Segment(pos, len(text), (), tail, tail.encode("utf-8", "surrogatepass")))
    return segments


def remap_segments(segments: Sequence[Segment], original: str, boundaries: dict[int, int]) -> list[Segment]:
    """Carry segments of a transformed text back onto the original text.

    `boundaries` maps offsets in the transformed text to offsets in `original` at the points
    where both agree (e.g. grapheme boundaries around a Unicode normalisation). A segment that
    ends between such points is merged with the next ones until it reaches one.
    """
    out: list[Segment] = []
    ids: list[int] = []
    data: list[bytes] = []
    special = False
    start_t: int | None = None
    for seg in segments:
        if start_t is None:
            start_t = seg.start
        ids.extend(seg.ids)
        data.append(seg.data)
        special = special or seg.special
        if seg.end in boundaries and start_t in boundaries:
            s, e = boundaries[start_t], boundaries[seg.end]
            out.append(Segment(s, e, tuple(ids), original[s:e], b"".join(data), special))
            ids, data, special, start_t = [], [], False, None
    if start_t is not None:
        s = boundaries.get(start_t, out[-1].end if out else 0)
        out.append(Segment(s, len(original), tuple(ids), original[s:], b"".join(data), special))
    return out


def boundary_offsets(segments: Iterable[Segment]) -> frozenset[int]:
    """All character offsets where a segment starts or ends: ``[0:2][2:5] -> {0, 2, 5}``."""
    segs = segments if isinstance(segments, Sequence) else list(segments)
    return frozenset(chain(map(_START, segs), map(_END, segs)))


def unshared_boundaries(*segment_lists: Sequence[Segment]) -> list[frozenset[int]]:
    """For each list, its boundaries that are not boundaries in every other list.

    With two tokenizers this marks exactly the places where their tokens are cut differently.
    """
    sets = [boundary_offsets(s) for s in segment_lists]
    if len(sets) < 2:
        return [frozenset() for _ in sets]
    common = frozenset.intersection(*sets)
    return [s - common for s in sets]


def token_count(segments: Iterable[Segment]) -> int:
    """Number of tokens across segments (a segment may hold several)."""
    return sum(map(len, map(_IDS, segments)))


_START, _END, _IDS = itemgetter(0), itemgetter(1), itemgetter(2)  # Segment's start, end and ids
