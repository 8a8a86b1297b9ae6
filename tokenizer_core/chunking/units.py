"""Token units: where the tokens of a text end, in characters, from one pass over the text."""

from __future__ import annotations

import threading
import unicodedata
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..tokenizers.encoders import NATIVE_MIN_CHARS, TiktokenTokenizer, Tokenizer, clean_text, split_for_batch
from ..tokenizers.hf_engine import HFTokenizer
from .counting import thread_pool
from .safe_cuts import SafeCutSet


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
        parts = list(thread_pool().map(lambda a: _units_from_ids(a[0], lengths, a[1]), zip(arrays, pieces)))
    elif len(pieces) == 1:
        parts = [_piece_units(enc, lengths, clean)]
    else:
        parts = list(thread_pool().map(lambda p: _piece_units(enc, lengths, p), pieces))
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


def counts_between(
    units: TokenUnits, cuts: SafeCutSet, starts: Sequence[int] | np.ndarray, ends: Sequence[int] | np.ndarray
) -> np.ndarray:
    """Token counts of ``text[s:e]`` read from the whole text's units, where both ends are safe
    cuts (counts add up there); -1 where the span has to be counted on its own."""
    a = np.asarray(starts, dtype=np.int64)
    b = np.asarray(ends, dtype=np.int64)
    last = len(units.ends) - 1
    ka = np.minimum(np.searchsorted(units.ends, a), last)
    kb = np.minimum(np.searchsorted(units.ends, b), last)
    ok = cuts.contains(a) & cuts.contains(b) & (units.ends[ka] == a) & (units.ends[kb] == b)
    return np.where(ok, units.cum[kb] - units.cum[ka], -1)
