"""Token-level machinery for chunking: where tokens end in characters, batched counts, windows.

Token counts are not additive: ``count(a + b)`` may differ from ``count(a) + count(b)`` when a
token could span the join. So every chunk's count here is the tokenizer's own count of that
chunk's text. The one shortcut used is the rule the encoders already rely on
(:func:`tokenizer_core.tokenizers.encoders.split_for_batch`): for a "newline-safe" tokenizer, a cut right
after ``\\n`` and before an ASCII letter never falls inside a pre-token, so the counts on both
sides of such a cut do add up exactly.
"""

from __future__ import annotations

import re
import threading
import unicodedata
import weakref
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..tokenizers import patterns
from ..tokenizers.encoders import (
    NATIVE_MIN_CHARS,
    SAFE_CUT,
    HFTokenizer,
    TiktokenTokenizer,
    Tokenizer,
    clean_text,
    split_for_batch,
)  # split_for_batch's cut rule: one rule for the package
from .cuts import GraphemeCursor

_NEWLINE_LETTER = re.compile(r"\n(?=[A-Za-z])")
_GROUP_CHARS = 100_000  # texts are counted in groups of about this many characters
_POOL: ThreadPoolExecutor | None = None


def _pool() -> ThreadPoolExecutor:
    global _POOL
    if _POOL is None:
        _POOL = ThreadPoolExecutor(max_workers=2, thread_name_prefix="chunk-count")
    return _POOL


# Patterns whose newline alternative (``\s*[\r\n]``...) takes a whole run of newlines and
# blank-line spaces, and whose word alternatives never start with \r or \n. For them a cut
# after ANY newline, before an ASCII letter, is safe (a blank line between paragraphs
# included). GPT-2's r50k/p50k pattern splits "\n\nA" as "\n", "\n", "A" but "\n\n" alone as
# one piece, so it only gets the package-wide rule (the newline must follow a non-space).
_NEWLINE_RUN_PATTERNS = frozenset(
    {patterns.CL100K, patterns.O200K, patterns.LLAMA3, patterns.QWEN, patterns.TEKKEN}
)


def cut_rule(tokenizer: Tokenizer) -> str | None:
    """Where counts of `tokenizer` add up across a cut, as used by :func:`is_safe_cut`.

    "newline" (after any newline, before an ASCII letter) for the GPT-4-style patterns,
    "lone-newline" (the package rule of split_for_batch) for other newline-safe tiktoken
    encodings and newline-safe Hugging Face built-ins (DeepSeek V4, checked by a property test),
    None (nowhere) for anything else.
    """
    if isinstance(tokenizer, HFTokenizer):
        return "lone-newline" if tokenizer.newline_safe else None
    if not (isinstance(tokenizer, TiktokenTokenizer) and tokenizer.newline_safe):
        return None
    pat = getattr(tokenizer.encoding, "_pat_str", None)
    return "newline" if pat in _NEWLINE_RUN_PATTERNS else "lone-newline"


def is_safe_cut(text: str, pos: int, rule: str | None = "lone-newline") -> bool:
    """True if counts add up across a cut at `pos` under `rule` (see :func:`cut_rule`).

    ``is_safe_cut("a\nb", 2) -> True``; ``is_safe_cut("a\n\nb", 3) -> False`` but
    ``is_safe_cut("a\n\nb", 3, "newline") -> True``.
    """
    if rule is None or not 0 < pos < len(text):
        return False
    if rule == "newline":
        return text[pos - 1] == "\n" and text[pos] < "\x80" and text[pos].isalpha()
    return SAFE_CUT.match(text, pos) is not None


def safe_cuts(
    text: str, start: int = 0, end: int | None = None, rule: str | None = "lone-newline"
) -> list[int]:
    """All safe cuts strictly inside ``(start, end)``: ``("a\nb\n\nc", 0) -> [2]``."""
    end = len(text) if end is None else end
    return [
        m.end() for m in _NEWLINE_LETTER.finditer(text, start, end)
        if start < m.end() < end and is_safe_cut(text, m.end(), rule)
    ]  # fmt: skip


def count_texts(texts: Sequence[str], tokenizer: Tokenizer) -> list[int]:
    """Real token counts of many texts, batched.

    Small texts are grouped into lists of about 100 KB, each counted with
    ``Tokenizer.count_many`` on one of two threads (tiktoken releases the GIL). One call per
    tiny text, or one thread-pool task per tiny text, is 2-3x slower.
    ``count_texts(["hello world", ""], tok) -> [2, 0]`` for cl100k.
    """
    texts = list(texts)
    total = sum(map(len, texts))
    if not isinstance(tokenizer, TiktokenTokenizer) or total < 2 * _GROUP_CHARS or len(texts) < 4:
        return list(tokenizer.count_many(texts)) if texts else []
    groups: list[list[str]] = []
    current: list[str] = []
    size = 0
    for t in texts:
        if len(t) > _GROUP_CHARS:  # a big text alone; count() splits it for threads itself
            if current:
                groups.append(current)
                current, size = [], 0
            groups.append([t])
            continue
        current.append(t)
        size += len(t)
        if size >= _GROUP_CHARS:
            groups.append(current)
            current, size = [], 0
    if current:
        groups.append(current)

    def run(group: list[str]) -> list[int]:
        if len(group) == 1:
            return [tokenizer.count(group[0])]
        return list(tokenizer.count_many(group))

    out: list[int] = []
    for counts in _pool().map(run, groups):
        out.extend(counts)
    return out


# ------------------------------------------------------------------------------------- units


@dataclass(frozen=True)
class TokenUnits:
    """Token boundaries that fall between whole characters, as character offsets.

    ``ends[k]`` is a character offset and ``cum[k]`` the number of tokens before it. Both start
    at 0 and end at the text's length / total tokens. A unit (``ends[k-1]..ends[k]``) is one
    token, or the few tokens of a character that a byte-level tokenizer splits (an emoji is
    often 2-3 tokens): the same grouping as :meth:`Tokenizer.segments`.
    `fast` says whether they came from token byte lengths (tiktoken) or from segments.
    """

    ends: np.ndarray
    cum: np.ndarray
    fast: bool

    @property
    def tokens(self) -> int:
        return int(self.cum[-1])

    def index_of(self, offset: int) -> int | None:
        """Index k with ``ends[k] == offset``, or None if no token boundary is there."""
        k = int(np.searchsorted(self.ends, offset))
        return k if k < len(self.ends) and int(self.ends[k]) == offset else None


# Token lengths per encoding (or Hugging Face tokenizer), held only while that object lives: an
# uploaded tokenizer's table goes when its session drops the tokenizer (an lru_cache here used
# to keep both alive).
_LENGTHS: weakref.WeakKeyDictionary[Any, np.ndarray] = weakref.WeakKeyDictionary()
_LENGTHS_LOCK = threading.Lock()


def _cached_lengths(key: Any, compute: Callable[[Any], np.ndarray]) -> np.ndarray:
    """``compute(key)``, computed once per `key` object and forgotten with it."""
    with _LENGTHS_LOCK:
        cached = _LENGTHS.get(key)
    if cached is None:
        cached = compute(key)
        with _LENGTHS_LOCK:
            _LENGTHS[key] = cached
    return cached


def _token_lengths(encoding: Any) -> np.ndarray:
    """UTF-8 length of every token id of a tiktoken encoding (0 for unused ids)."""
    return _cached_lengths(encoding, _compute_token_lengths)


def _compute_token_lengths(encoding: Any) -> np.ndarray:
    """UTF-8 length of every token id of a tiktoken encoding (0 for unused ids)."""
    out = np.zeros(encoding.n_vocab, dtype=np.int64)
    ranks = getattr(encoding, "_mergeable_ranks", None)  # fast path: tiktoken keeps the dict
    if isinstance(ranks, dict) and ranks:
        out[np.fromiter(ranks.values(), dtype=np.int64, count=len(ranks))] = np.fromiter(
            map(len, ranks), dtype=np.int64, count=len(ranks)
        )
        for name, i in getattr(encoding, "_special_tokens", {}).items():
            out[i] = len(name.encode("utf-8"))
        return out
    for i in range(encoding.n_vocab):
        try:
            out[i] = len(encoding.decode_single_token_bytes(i))
        except (KeyError, ValueError):
            pass
    return out


def _piece_units(enc, lengths: np.ndarray, piece: str) -> tuple[np.ndarray, np.ndarray, int] | None:
    """Token units of one piece: (character ends of the tokens that end between characters,
    their token indexes, number of tokens), offsets relative to the piece. None on a mismatch.

    ``encode_to_numpy(..., disallowed_special=())`` is tiktoken's ``encode_ordinary`` without
    building a Python list (special-token text stays plain text). Runs on a worker thread.
    """
    if hasattr(enc, "encode_to_numpy"):
        ids = enc.encode_to_numpy(piece, disallowed_special=())
    else:
        ids = np.asarray(enc.encode_ordinary(piece), dtype=np.int64)
    return _units_from_ids(ids, lengths, piece)


def _units_from_ids(
    ids: np.ndarray, lengths: np.ndarray, piece: str
) -> tuple[np.ndarray, np.ndarray, int] | None:
    """Token units of one piece from its ids (see _piece_units)."""
    n = len(ids)
    if n == 0:
        return (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), 0) if not piece else None
    byte_ends = np.cumsum(lengths[ids])
    if piece.isascii():  # one byte per character: token ends are character offsets
        if int(byte_ends[-1]) != len(piece):
            return None
        return byte_ends, np.arange(n, dtype=np.int64), n
    data = np.frombuffer(piece.encode("utf-8"), dtype=np.uint8)
    if int(byte_ends[-1]) != len(data):
        return None
    # continuation bytes (10xxxxxx) are the bytes that are not the first of a character (non-ASCII
    # text has at least one); a token that ends right before one ends in the middle of a character
    high = np.flatnonzero(data >= 0x80)
    cont = high[(data[high] & 0xC0) == 0x80]
    before = np.searchsorted(cont, byte_ends)  # continuation bytes before each token end
    mid_char = (before < len(cont)) & (cont[np.minimum(before, len(cont) - 1)] == byte_ends)
    valid = np.flatnonzero(~mid_char)
    return byte_ends[valid] - before[valid], valid, n


def _joined_units(pieces: Sequence[str], parts: Sequence[Any]) -> TokenUnits | None:
    """Per-piece units (piece-relative char ends, valid counts, tokens) joined into one
    document's, offset by the pieces before; None if any piece has none."""
    if any(p is None for p in parts):
        return None
    ends, cum = [np.zeros(1, dtype=np.int64)], [np.zeros(1, dtype=np.int64)]
    chars = tokens = 0
    for piece, (char_ends, valid, n) in zip(pieces, parts):
        ends.append(char_ends + chars)
        cum.append(valid + (tokens + 1))
        chars += len(piece)
        tokens += n
    return TokenUnits(np.concatenate(ends), np.concatenate(cum), True)


def _fast_units(tokenizer: TiktokenTokenizer, text: str) -> TokenUnits | None:
    """Units from one pass over the text: ~100 KB pieces, each encoded and mapped to character
    offsets on one of two threads (tiktoken and numpy release the GIL)."""
    clean = clean_text(text)
    if tokenizer.normalize_nfc and not unicodedata.is_normalized("NFC", clean):
        return None  # ids would describe the normalised text; the segments path maps them back
    enc = tokenizer.encoding
    lengths = _token_lengths(enc)
    pieces = split_for_batch(clean) if tokenizer.newline_safe else [clean]
    if len(clean) >= NATIVE_MIN_CHARS and tokenizer.native is not None:
        # one parallel call of the native engine (same ids as tiktoken, 4-8x faster)
        arrays = tokenizer.ordinary_id_arrays(pieces)
        parts = list(_pool().map(lambda a: _units_from_ids(a[0], lengths, a[1]), zip(arrays, pieces)))
    elif len(pieces) == 1:
        parts = [_piece_units(enc, lengths, clean)]
    else:
        parts = list(_pool().map(lambda p: _piece_units(enc, lengths, p), pieces))
    return _joined_units(pieces, parts)


def _hf_token_lengths(tokenizer: HFTokenizer) -> np.ndarray:
    """UTF-8 length of every token id of a Hugging Face tokenizer (added tokens: their text)."""
    return _cached_lengths(tokenizer, _compute_hf_token_lengths)


def _compute_hf_token_lengths(tokenizer: HFTokenizer) -> np.ndarray:
    out = np.zeros(tokenizer.n_vocab, dtype=np.int64)
    if tokenizer.byte_level:  # one character of the byte alphabet per byte
        for token, i in tokenizer.tokenizer.get_vocab(with_added_tokens=False).items():
            out[i] = len(token)
        for i in tokenizer.tokenizer.get_added_tokens_decoder():
            out[i] = len(tokenizer.token_bytes(i))
        return out
    for i in range(tokenizer.n_vocab):
        out[i] = len(tokenizer.token_bytes(i))
    return out


def _hf_units(tokenizer: HFTokenizer, text: str) -> TokenUnits | None:
    """Units of a newline-safe Hugging Face tokenizer from ids and token byte lengths (no
    offsets, no segments): the text in ~100 KB pieces, one batch call. None if the bytes of the
    ids do not add up to the text (a normalising tokenizer): then the segments path is used."""
    if not tokenizer.newline_safe:
        return None
    clean = clean_text(text)
    pieces = split_for_batch(clean)
    lengths = _hf_token_lengths(tokenizer)
    parts = [_units_from_ids(ids, lengths, p) for ids, p in zip(tokenizer.ordinary_id_arrays(pieces), pieces)]
    return _joined_units(pieces, parts)


def fast_token_units(tokenizer: Tokenizer, text: str) -> TokenUnits | None:
    """Token units from one parallel pass of a tiktoken encoding (or a newline-safe Hugging Face
    built-in), or None when that path does not apply (another kind of tokenizer, or text its
    normalisation would change)."""
    if isinstance(tokenizer, HFTokenizer):
        return _hf_units(tokenizer, text)
    return _fast_units(tokenizer, text) if isinstance(tokenizer, TiktokenTokenizer) else None


class SafeCutSet:
    """The safe cuts of one text (plus its two ends) for fast membership tests.

    ``SafeCutSet("ab\nCd", "newline").contains([0, 2, 3]) -> [True, False, True]``.
    """

    def __init__(self, text: str, rule: str | None) -> None:
        cuts = safe_cuts(text, rule=rule) if rule else []
        self.positions = np.asarray([0, *cuts, len(text)], dtype=np.int64)

    def contains(self, offsets: Sequence[int] | np.ndarray) -> np.ndarray:
        offsets = np.asarray(offsets, dtype=np.int64)
        k = np.minimum(np.searchsorted(self.positions, offsets), len(self.positions) - 1)
        return self.positions[k] == offsets


def counts_between(
    units: TokenUnits, cuts: SafeCutSet, starts: Sequence[int], ends: Sequence[int]
) -> np.ndarray:
    """Token counts of ``text[s:e]`` read from the whole text's units, where both ends are safe
    cuts (counts add up there); -1 where the span has to be counted on its own."""
    starts = np.asarray(starts, dtype=np.int64)
    ends = np.asarray(ends, dtype=np.int64)
    last = len(units.ends) - 1
    ks = np.minimum(np.searchsorted(units.ends, starts), last)
    ke = np.minimum(np.searchsorted(units.ends, ends), last)
    ok = cuts.contains(starts) & cuts.contains(ends) & (units.ends[ks] == starts) & (units.ends[ke] == ends)
    return np.where(ok, units.cum[ke] - units.cum[ks], -1)


def token_units(tokenizer: Tokenizer, text: str) -> TokenUnits:
    """Where the tokens of `text` end, in characters (see :class:`TokenUnits`).

    ``token_units(cl100k, "hello world").ends -> [0, 5, 11]``. Uses token byte lengths for
    tiktoken encodings (fast) and :meth:`Tokenizer.segments` otherwise.
    """
    units = fast_token_units(tokenizer, text)
    if units is not None:
        return units
    segs = tokenizer.segments(text)
    ends = np.fromiter((s.end for s in segs), dtype=np.int64, count=len(segs))
    counts = np.fromiter((len(s.ids) for s in segs), dtype=np.int64, count=len(segs))
    return TokenUnits(np.concatenate([[0], ends]), np.concatenate([[0], np.cumsum(counts)]), False)


# ------------------------------------------------------------------------------------ fitting

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


def _fit(
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

    return _fit(text, count, GraphemeCursor(text), start, end, end, budget)


@dataclass(frozen=True, slots=True)
class Window:
    """One token window: ``text[start:end]`` with its real token count and overlap."""

    start: int
    end: int
    tokens: int
    overlap_tokens: int = 0
    note: str = ""


@dataclass
class WindowStats:
    """What the window builder did, for the trace shown to users."""

    counted_texts: int = 0
    counted_chars: int = 0
    repaired: int = 0


def first_safe_cut(text: str, start: int, end: int, rule: str | None = "lone-newline") -> int | None:
    """The first safe cut strictly inside ``(start, end)``, or None: ``("a\nb", 0, 3) -> 2``."""
    for m in _NEWLINE_LETTER.finditer(text, start, end):
        if start < m.end() < end and is_safe_cut(text, m.end(), rule):
            return m.end()
    return None


def last_safe_cut(text: str, start: int, end: int, rule: str | None = "lone-newline") -> int | None:
    """The last safe cut strictly inside ``(start, end)``, or None: ``("a\nb\nc", 0, 5) -> 4``."""
    q = text.rfind("\n", start, end - 1)
    while q >= start:
        if q + 1 > start and is_safe_cut(text, q + 1, rule):
            return q + 1
        q = text.rfind("\n", start, q)
    return None


def _split_count(
    text: str, units: TokenUnits, start: int, end: int, rule: str | None
) -> tuple[list[tuple[int, int]], int] | None:
    """Pieces to count for ``text[start:end]`` and the tokens known without counting.

    With safe cuts c1 <= c2 inside the span, the count is count(head) + tokens between c1 and
    c2 (read from the units) + count(tail). Returns None when the whole span must be counted.
    """
    c1 = first_safe_cut(text, start, end, rule)
    if c1 is None:
        return None
    c2 = last_safe_cut(text, c1 - 1, end, rule)
    if c2 is None or c2 < c1:
        return None
    k1, k2 = units.index_of(c1), units.index_of(c2)
    if k1 is None or k2 is None:
        return None
    return [(start, c1), (c2, end)], int(units.cum[k2] - units.cum[k1])


def _real_counts(
    text: str, tokenizer: Tokenizer, units: TokenUnits, spans: list[tuple[int, int]], stats: WindowStats
) -> list[int]:
    """Real token counts of ``text[s:e]`` for each span, batched, with the safe-cut shortcut."""
    rule = cut_rule(tokenizer)
    texts: list[str] = []
    plan: list[tuple[int, int, int]] = []  # (first text index, number of texts, known tokens)
    for s, e in spans:
        split = _split_count(text, units, s, e, rule) if rule and e - s > 200 else None
        if split is None:
            plan.append((len(texts), 1, 0))
            texts.append(text[s:e])
        else:
            pieces, known = split
            plan.append((len(texts), len(pieces), known))
            texts.extend(text[a:b] for a, b in pieces)
    counts = count_texts(texts, tokenizer)
    stats.counted_texts += len(texts)
    stats.counted_chars += sum(map(len, texts))
    return [known + sum(counts[i : i + n]) for i, n, known in plan]


def token_windows(
    text: str,
    tokenizer: Tokenizer,
    *,
    size: int,
    overlap: int = 0,
    start: int = 0,
    end: int | None = None,
    units: TokenUnits | None = None,
    stats: WindowStats | None = None,
    graphemes: GraphemeCursor | None = None,
) -> list[Window]:
    """Cut ``text[start:end]`` into windows of at most `size` tokens, `overlap` tokens shared.

    Windows end on grapheme boundaries: a window never cuts a character or a cluster such as
    an emoji ZWJ sequence, unless that cluster alone is above `size` (the window's note then
    names it). Each window's count is the tokenizer's count of the window's own text. A
    position is in at most two windows. ``token_windows("a b c d", cl100k, size=2)`` -> "a b" |
    " c d". The work grows linearly with the text at every size (see :class:`_WindowBuilder`).
    A caller cutting many ranges of one text in order passes one `graphemes` cursor for all.
    """
    stats = stats if stats is not None else WindowStats()
    end = len(text) if end is None else end
    if end <= start:
        return []
    if units is None:
        units = token_units(tokenizer, text[start:end])
        if start:
            units = TokenUnits(units.ends + start, units.cum, units.fast)
    if int(units.ends[0]) != start or int(units.ends[-1]) != end:
        raise ValueError("token units do not cover the text range")
    graphemes = graphemes if graphemes is not None and graphemes.text is text else GraphemeCursor(text)
    windows = _WindowBuilder(text, tokenizer, size, overlap, start, end, units, stats, graphemes).run()
    return _with_overlaps(text, tokenizer, windows, units, stats)


class _WindowBuilder:
    """Token windows, left to right, in one loop (no recursion, whatever the text).

    Where a window starts on a token unit, its end is planned from the units (the furthest
    unit end within the budget that is also a grapheme boundary) and planned windows are
    counted in batches; a window whose own count is above the budget is shortened by units.
    Where units cannot plan a window (no grapheme boundary among the unit ends in reach, as in
    scripts whose tokens end inside clusters, or a start that is not a unit end), the window is
    fitted by real counts of its own prefixes over grapheme boundaries (:func:`_fit`), up to a
    limit read from the units. Either way a window costs a few counts of about its own length,
    so the whole text costs about linear work at every size.
    """

    _SHORTEN_TRIES = 8  # shortening by units this many times without fitting: fit by counts
    _STEP_BACK = 64  # unit ends looked at for a grapheme boundary before fitting by counts

    def __init__(
        self,
        text: str,
        tok: Tokenizer,
        size: int,
        overlap: int,
        start: int,
        end: int,
        units: TokenUnits,
        stats: WindowStats,
        graphemes: GraphemeCursor,
    ) -> None:
        self.text, self.tok, self.size, self.overlap = text, tok, size, overlap
        self.start, self.end, self.units, self.stats = start, end, units, stats
        self.ends, self.cum, self.last = units.ends, units.cum, len(units.ends) - 1
        self.graphemes = graphemes
        self._fitted: tuple[int, Window] | None = None  # the last window fitted by counts

    def count(self, a: int, b: int) -> int:
        self.stats.counted_texts += 1
        self.stats.counted_chars += b - a
        return self.tok.count(self.text[a:b])

    def whole(self, pos: int) -> bool:
        """True where a window may end: a grapheme boundary, or the end of the range."""
        return pos == self.end or self.graphemes.is_boundary(pos)

    def planned_end(self, s_idx: int) -> int | None:
        """Unit index where the window from unit `s_idx` ends by the units' counts, or None."""
        top = min(int(np.searchsorted(self.cum, self.cum[s_idx] + self.size, side="right")) - 1, self.last)
        for j in range(top, max(s_idx, top - self._STEP_BACK), -1):
            if self.whole(int(self.ends[j])):
                return j
        return None

    def fitted(self, s: int) -> Window:
        """The window from `s` fitted by real counts (see :func:`_fit`)."""
        if self._fitted is not None and self._fitted[0] == s:
            return self._fitted[1]
        k = min(int(np.searchsorted(self.ends, s, side="right")), self.last)
        j = min(int(np.searchsorted(self.cum, self.cum[k] + self.size + 1)), self.last)
        hi = int(self.ends[j])
        hi = hi if self.whole(hi) else min(self.end, self.graphemes.next_after(hi))
        p, n, note = _fit(self.text, self.count, self.graphemes, s, hi, self.end, self.size)
        window = Window(s, p, n, note=note)
        self._fitted = (s, window)
        return window

    def end_from(self, s: int) -> tuple[int, bool]:
        """Where the window from `s` ends (planned or fitted) and whether it cuts a cluster."""
        s_idx = self.units.index_of(s)
        e_idx = self.planned_end(s_idx) if s_idx is not None else None
        if e_idx is not None:
            return int(self.ends[e_idx]), False
        window = self.fitted(s)
        return window.end, bool(window.note)

    def next_start(self, s: int, e: int, before: int) -> int:
        """Where the window after ``[s, e)`` starts; `before` ended the window before that one.

        About `overlap` tokens before `e`, on a grapheme boundary, never before `before` (a
        position is in at most two windows); at `e` when that window would bring no new text
        or would have to cut a cluster.
        """
        if self.overlap == 0 or e >= self.end:
            return e
        lo = max(s + 1, before)
        e_idx = self.units.index_of(e)
        if e_idx is not None:
            n_idx = int(np.searchsorted(self.cum, self.cum[e_idx] - self.overlap, side="left"))
            n_idx = max(n_idx, int(np.searchsorted(self.ends, lo, side="left")))
            while n_idx < e_idx and not self.whole(int(self.ends[n_idx])):
                n_idx += 1
            q = int(self.ends[n_idx])
        else:  # the smallest whole-cluster start whose tail up to e fits the overlap
            cands = ([lo] if self.whole(lo) else []) + self.graphemes.between(lo, e)
            first, last = 0, len(cands)
            while first < last:
                mid = (first + last) // 2
                if self.count(cands[mid], e) <= self.overlap:
                    last = mid
                else:
                    first = mid + 1
            q = cands[first] if first < len(cands) else e
        if q >= e:
            return e
        nxt, cut = self.end_from(q)
        return e if nxt <= e or cut else q

    def plan(self, s: int, before: int, limit: int) -> list[tuple[int, int, int]]:
        """Up to `limit` windows ``(start, end, before)`` planned from units, starting at `s`."""
        out: list[tuple[int, int, int]] = []
        while len(out) < limit and s < self.end:
            s_idx = self.units.index_of(s)
            e_idx = self.planned_end(s_idx) if s_idx is not None else None
            if e_idx is None:
                break
            e = int(self.ends[e_idx])
            out.append((s, e, before))
            s, before = self.next_start(s, e, before), e
        return out

    def shorten(self, a: int, b: int, n: int) -> Window | None:
        """Step the end of the planned window ``[a, b)`` back over units until its own count fits."""
        s_idx, e_idx = self.units.index_of(a), self.units.index_of(b)
        if s_idx is None or e_idx is None:
            return None
        for _ in range(self._SHORTEN_TRIES):
            target = self.cum[e_idx] - max(1, n - self.size)
            e2 = min(int(np.searchsorted(self.cum, target, side="right")) - 1, e_idx - 1)
            while e2 > s_idx and not self.whole(int(self.ends[e2])):
                e2 -= 1
            if e2 <= s_idx:
                return None
            e_idx = e2
            n = self.count(a, int(self.ends[e_idx]))
            if n <= self.size:
                return Window(a, int(self.ends[e_idx]), n)
        return None

    def accept(self, out: list[Window], window: Window, before: int) -> tuple[int, int]:
        """Add a repaired or fitted window; returns the next (start, before)."""
        if out and window.end <= out[-1].end:  # it brings nothing new: go on from the last end
            return out[-1].end, out[-1].end
        out.append(window)
        if window.note:  # never overlap into a cut cluster
            return window.end, window.end
        return self.next_start(window.start, window.end, before), window.end

    def run(self) -> list[Window]:
        out: list[Window] = []
        s = before = self.start
        batch = 64  # planned windows counted per call; shrinks after a miss, grows after a hit
        while s < self.end:
            plan = self.plan(s, before, batch)
            if not plan:
                s, before = self.accept(out, self.fitted(s), before)
                continue
            counts = _real_counts(self.text, self.tok, self.units, [(a, b) for a, b, _ in plan], self.stats)
            bad = next((k for k, n in enumerate(counts) if n > self.size), None)
            out.extend(Window(a, b, n) for (a, b, _), n in zip(plan[:bad], counts[:bad]))
            if bad is None:
                a, b, bf = plan[-1]
                s, before = self.next_start(a, b, bf), b
                batch = min(1024, batch * 2)
                continue
            a, b, bf = plan[bad]
            self.stats.repaired += 1
            s, before = self.accept(out, self.shorten(a, b, counts[bad]) or self.fitted(a), bf)
            batch = max(1, batch // 4)
        return out


def _with_overlaps(
    text: str, tokenizer: Tokenizer, windows: list[Window], units: TokenUnits, stats: WindowStats
) -> list[Window]:
    """Measure each window's real overlap with the one before (a count of the shared text)."""
    spans = [(w.start, prev.end) for prev, w in zip(windows, windows[1:]) if w.start < prev.end]
    if not spans:
        return windows
    counts = iter(_real_counts(text, tokenizer, units, spans, stats))
    out = [windows[0]]
    for prev, w in zip(windows, windows[1:]):
        if w.start < prev.end:
            w = Window(w.start, w.end, w.tokens, next(counts), w.note)
        out.append(w)
    return out
