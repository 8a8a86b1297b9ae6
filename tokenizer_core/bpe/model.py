"""Byte-pair encoding training: the merges, their counts, and every step as a record.

BPE starts from single symbols (characters, or the 256 UTF-8 byte values as GPT tokenizers
do) and repeatedly merges the most frequent adjacent pair into a new symbol. Pairs are counted
inside words only, each occurrence weighted by how often its word occurs (the definition the
seeds in ``/work/shared/seeds`` use). Symbols are identified by their text: a merge whose
result equals an existing symbol reuses it, exactly as the seeds' string-based programs do.

Tie-breaks between equally frequent pairs:

* ``"smallest"``: the alphabetically smallest pair ``(left, right)`` (seed 000:
  ``min(counts, key=lambda p: (-counts[p], p))``);
* ``"largest"``: the alphabetically largest pair (seed 002: ``max(pairs, key=lambda p:
  (pairs[p], p))``);
* ``"first"``: the pair seen first when scanning the distinct words in order of first
  occurrence in the corpus, each word left to right, in its segmentation at that step (seeds
  001 and 004: ``max(pairs, key=pairs.get)`` / ``most_common(1)`` over a Counter rebuilt per
  merge, whose insertion order is exactly that scan).

Strings compare by code point, bytes by byte value (UTF-8 keeps code point order).

The trainer is incremental: pair counts plus an index pair -> words, a heap with lazy
deletion, and per merge only the words that contain the pair are rewritten. The textbook loop
that recounts everything per merge gives the same merges (a property test checks it) but is
hundreds of times slower on a real corpus.

    >>> from tokenizer_core.bpe.train import train_bpe
    >>> model = train_bpe("low low low lower lowest newest newest".split(),
    ...                   BPEOptions(symbols="chars", end_marker="_", merges=2, tie_break="first"))
    >>> [(s.left, s.right, s.count) for s in model.steps]
    [('l', 'o', 5), ('lo', 'w', 5)]
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

import regex

from ..tokenizers.encoders import split_for_batch
from ..tokenizers.patterns import PATTERNS

Symbol = str | bytes
TieBreak = Literal["smallest", "largest", "first"]

WHITESPACE = "whitespace"
TIE_BREAKS: dict[str, str] = {
    "smallest": "alphabetically smallest pair",
    "largest": "alphabetically largest pair",
    "first": "first seen (corpus order, left to right)",
}
SYMBOL_KINDS: dict[str, str] = {"bytes": "UTF-8 bytes (byte-level)", "chars": "characters"}
MARKER_PRESETS: dict[str, str] = {"": "none", "</w>": "</w>", "_": "_"}
MAX_MARKER_CHARS = 12
# Largest count of one word. Counts and corpus sizes stay far below 2**63 (tables, charts and
# saved files hold 64-bit integers): 10**12 x a 2 M-character corpus < 9.2 * 10**18.
MAX_WORD_COUNT = 10**12

# Python's str.split() / re's \s: every character with str.isspace()
_SPACE_CHARS = "".join(chr(c) for c in range(0x110000) if chr(c).isspace())
_WHITESPACE_RE = re.compile(r"\S+")


def _rust_class(chars: str) -> str:
    """A regex character class listing `chars` with \\x{..} escapes (fancy-regex syntax)."""
    return "".join(f"\\x{{{ord(c):x}}}" for c in chars)


# The same split for tiktoken (Rust fancy-regex, whose \s is Unicode White_Space, a slightly
# different set): non-whitespace runs are the training words, whitespace runs stay bytes.
WHITESPACE_EXPORT_PATTERN = f"[^{_rust_class(_SPACE_CHARS)}]+|[{_rust_class(_SPACE_CHARS)}]+"
WHITESPACE_PIECES_RE = re.compile(r"\S+|\s+")


def plural(n: int, noun: str, nouns: str | None = None) -> str:
    """``plural(1, "merge") -> "1 merge"``, ``plural(1200, "merge") -> "1,200 merges"``."""
    return f"{n:,} {noun if n == 1 else (nouns or noun + 's')}"


def pretokenizer_labels() -> dict[str, str]:
    """Pre-tokenizer id -> label: ``"whitespace"`` then the GPT-style regex patterns."""
    labels = {WHITESPACE: "split on whitespace (spaces and line breaks)"}
    labels.update({pid: f"regex: {p.label}" for pid, p in PATTERNS.items()})
    return labels


class BPEError(ValueError):
    """Options or input the trainer cannot use; the message says how to fix it."""


@dataclass(frozen=True, slots=True)
class BPEOptions:
    """How to train. Exactly one of `merges` / `vocab_size` sets when to stop.

    ``BPEOptions(symbols="chars", end_marker="</w>", merges=12, tie_break="largest")`` is
    seed 002's trainer.
    """

    symbols: Literal["bytes", "chars"] = "bytes"
    end_marker: str = ""
    pretokenizer: str = WHITESPACE
    merges: int | None = 100
    vocab_size: int | None = None
    min_frequency: int = 1
    tie_break: TieBreak = "smallest"
    max_word_chars: int | None = None

    def validate(self) -> BPEOptions:
        """Return self, or raise BPEError naming the bad option and the fix."""
        if self.symbols not in SYMBOL_KINDS:
            raise BPEError(f"symbols must be 'bytes' or 'chars', not {self.symbols!r}")
        if self.tie_break not in TIE_BREAKS:
            raise BPEError(f"tie_break must be one of {list(TIE_BREAKS)}, not {self.tie_break!r}")
        if self.pretokenizer != WHITESPACE and self.pretokenizer not in PATTERNS:
            raise BPEError(
                f"unknown pre-tokenizer {self.pretokenizer!r}; use 'whitespace' or one of {list(PATTERNS)}"
            )
        marker = self.end_marker
        if not isinstance(marker, str):
            raise BPEError("the end-of-word marker must be text")
        if len(marker) > MAX_MARKER_CHARS:
            raise BPEError(
                f"the end-of-word marker is {len(marker)} characters; use at most {MAX_MARKER_CHARS}"
            )
        if marker and (marker != marker.strip() or any(c.isspace() for c in marker)):
            raise BPEError("the end-of-word marker cannot contain spaces or other whitespace")
        if marker and any(not c.isprintable() for c in marker):
            raise BPEError("the end-of-word marker must be printable text (no control characters)")
        if (self.merges is None) == (self.vocab_size is None):
            raise BPEError("set exactly one of merges (a number of merges) or vocab_size (a target size)")
        if self.merges is not None and (not isinstance(self.merges, int) or self.merges < 0):
            raise BPEError(f"the number of merges must be a whole number >= 0, not {self.merges!r}")
        if self.vocab_size is not None and (not isinstance(self.vocab_size, int) or self.vocab_size < 1):
            raise BPEError(f"the target vocabulary size must be a whole number >= 1, not {self.vocab_size!r}")
        if not isinstance(self.min_frequency, int) or self.min_frequency < 1:
            raise BPEError(
                f"the minimum pair frequency must be a whole number >= 1, not {self.min_frequency!r}"
            )
        if self.max_word_chars is not None and (
            not isinstance(self.max_word_chars, int) or self.max_word_chars < 1
        ):
            raise BPEError("max_word_chars must be a whole number >= 1, or None for no limit")
        return self

    @property
    def byte_level(self) -> bool:
        return self.symbols == "bytes"

    def describe(self) -> str:
        """One line: ``"bytes, no marker, whitespace, 100 merges, min 1, ties: smallest"``."""
        stop = plural(self.merges, "merge") if self.merges is not None else f"vocabulary {self.vocab_size:,}"
        marker = f"marker {self.end_marker}" if self.end_marker else "no marker"
        return (
            f"{self.symbols}, {marker}, {self.pretokenizer}, {stop}, min frequency "
            f"{self.min_frequency}, ties: {self.tie_break}"
        )


@dataclass(frozen=True, slots=True)
class PairCount:
    """A candidate pair at one step. `first_seen` = (word index, offset) for tie_break "first"."""

    left: Symbol
    right: Symbol
    count: int
    first_seen: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class MergeStep:
    """One merge: what was merged, how often the pair occurred, and the state after it.

    `rank` counts from 1. `candidates` are the top pairs just before this merge, best first
    (the chosen pair first); `tied` is how many of them share the chosen count, and
    `tied_more` is True when every candidate recorded shares it (there may be more ties).
    """

    rank: int
    left: Symbol
    right: Symbol
    new: Symbol
    token_id: int
    count: int
    vocab_size: int
    corpus_tokens: int
    words_changed: int
    candidates: tuple[PairCount, ...] = ()
    tied: int = 1
    tied_more: bool = False


@dataclass(frozen=True)
class BPEModel:
    """A trained (or loaded) BPE model: its options, start symbols and ordered merges.

    Everything else derives from the merges. `words`/`freqs` hold the training corpus's
    distinct words in first-occurrence order (empty for a model loaded from a file).
    """

    options: BPEOptions
    base: tuple[Symbol, ...]
    steps: tuple[MergeStep, ...]
    words: tuple[str, ...] = ()
    freqs: tuple[int, ...] = ()
    initial_tokens: int = 0
    stop_reason: str = ""
    seconds: float = 0.0
    words_cut: int = 0
    source: str = "trained"

    @property
    def merges(self) -> list[tuple[Symbol, Symbol]]:
        """``[(left, right), ...]`` in learned order."""
        return [(s.left, s.right) for s in self.steps]

    @cached_property
    def vocab(self) -> tuple[Symbol, ...]:
        """Start symbols, then each new symbol in merge order (a repeated string counts once)."""
        seen = set(self.base)
        out = list(self.base)
        for s in self.steps:
            if s.new not in seen:
                seen.add(s.new)
                out.append(s.new)
        return tuple(out)

    @cached_property
    def token_ids(self) -> dict[Symbol, int]:
        """Symbol -> id (its index in `vocab`)."""
        return {sym: i for i, sym in enumerate(self.vocab)}

    @cached_property
    def pair_ranks(self) -> dict[tuple[int, int], tuple[int, int]]:
        """(left id, right id) -> (0-based merge index, new id); the first merge of a pair wins."""
        ids = self.token_ids
        out: dict[tuple[int, int], tuple[int, int]] = {}
        for i, s in enumerate(self.steps):
            out.setdefault((ids[s.left], ids[s.right]), (i, ids[s.new]))
        return out

    @property
    def n_merges(self) -> int:
        return len(self.steps)

    @property
    def total_words(self) -> int:
        return sum(self.freqs)

    def corpus_tokens_at(self, k: int) -> int:
        """Tokens in the training corpus after the first `k` merges (k=0: start symbols)."""
        if k <= 0 or not self.steps:
            return self.initial_tokens
        return self.steps[min(k, len(self.steps)) - 1].corpus_tokens

    def vocab_size_at(self, k: int) -> int:
        """Vocabulary size after the first `k` merges."""
        if k <= 0 or not self.steps:
            return len(self.base)
        return self.steps[min(k, len(self.steps)) - 1].vocab_size


# ----------------------------------------------------------------------- pre-tokenization


def pretokenize(text: str, pretokenizer: str = WHITESPACE) -> list[str]:
    """Cut text into words: ``pretokenize("a  b\\n") -> ["a", "b"]``; a regex keeps spaces."""
    if pretokenizer == WHITESPACE:
        return text.split()
    if pretokenizer not in PATTERNS:
        raise BPEError(f"unknown pre-tokenizer {pretokenizer!r}; use 'whitespace' or one of {list(PATTERNS)}")
    return _compiled(pretokenizer).findall(text)


def pieces_with_offsets(text: str, pretokenizer: str = WHITESPACE) -> list[tuple[int, str, bool]]:
    """Cover `text` with (start, piece, is_word) in order; whitespace mode keeps the gaps.

    ``pieces_with_offsets("hi  you") -> [(0, "hi", True), (2, "  ", False), (4, "you", True)]``
    (a regex pre-tokenizer returns only words: its pieces already cover the text).
    """
    if pretokenizer == WHITESPACE:
        return [
            (m.start(), m.group(), not m.group()[0].isspace()) for m in WHITESPACE_PIECES_RE.finditer(text)
        ]
    return [(m.start(), m.group(), True) for m in _compiled(pretokenizer).finditer(text)]


_COMPILED: dict[str, regex.Pattern] = {}


def _compiled(pretokenizer: str) -> regex.Pattern:
    if pretokenizer not in _COMPILED:
        _COMPILED[pretokenizer] = regex.compile(PATTERNS[pretokenizer].regex)
    return _COMPILED[pretokenizer]


def count_words(
    text: str,
    *,
    pretokenizer: str = WHITESPACE,
    chunk_chars: int = 1_000_000,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, int]:
    """Word -> count, in order of first occurrence: ``count_words("b a b") -> {"b": 2, "a": 1}``.

    Large texts are counted in pieces cut where no pre-token can span the cut (see
    split_for_batch), so the counts equal those of the whole text. `progress(done, total)` is
    called with characters counted so far.
    """
    if pretokenizer != WHITESPACE and pretokenizer not in PATTERNS:
        raise BPEError(f"unknown pre-tokenizer {pretokenizer!r}; use 'whitespace' or one of {list(PATTERNS)}")
    counts: Counter[str] = Counter()
    done = 0
    for piece in split_for_batch(text, chunk_chars):
        counts.update(piece.split() if pretokenizer == WHITESPACE else _compiled(pretokenizer).findall(piece))
        done += len(piece)
        if progress is not None:
            progress(done, len(text))
    return dict(counts)


def cut_long_words(counts: Mapping[str, int], max_chars: int) -> tuple[dict[str, int], int]:
    """Cut words longer than `max_chars` into pieces of at most that length.

    ``cut_long_words({"abcde": 2}, 2) -> ({"ab": 2, "cd": 2, "e": 2}, 1)``; returns the new
    counts (first-occurrence order kept) and how many distinct words were cut.
    """
    out: dict[str, int] = {}
    cut = 0
    for w, f in counts.items():
        if len(w) <= max_chars:
            out[w] = out.get(w, 0) + f
            continue
        cut += 1
        for i in range(0, len(w), max_chars):
            part = w[i : i + max_chars]
            out[part] = out.get(part, 0) + f
    return out, cut


def parse_word_counts(text: str) -> dict[str, int]:
    """Parse one ``word count`` per line: ``"low 5\\nlower 2" -> {"low": 5, "lower": 2}``.

    A line with a word only counts 1; a repeated word adds up. Raises BPEError naming the
    first bad line.
    """
    out: dict[str, int] = {}
    for lineno, line in enumerate(text.splitlines(), start=1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) > 2:
            raise BPEError(f"line {lineno}: expected 'word count', got {len(parts)} fields ({line[:40]!r})")
        word = parts[0]
        count = 1
        if len(parts) == 2:
            try:
                count = int(parts[1])
            except ValueError:
                raise BPEError(f"line {lineno}: the count {parts[1][:20]!r} is not a whole number") from None
            if count < 1:
                raise BPEError(f"line {lineno}: the count must be at least 1, not {count}")
        out[word] = out.get(word, 0) + count
        if out[word] > MAX_WORD_COUNT:
            raise BPEError(
                f"line {lineno}: the count of {word[:20]!r} adds up to more than {MAX_WORD_COUNT:,}, "
                "the largest count this playground takes"
            )
    if not out:
        raise BPEError("no words: write one 'word count' per line, e.g. 'low 5'")
    return out


def word_counts(corpus: str | Mapping[str, int] | Iterable[str], options: BPEOptions) -> dict[str, int]:
    """Word -> count from raw text (pre-tokenized), a mapping, or a list of words.

    ``word_counts(["a", "b", "a"], BPEOptions()) -> {"a": 2, "b": 1}``; empty words and zero
    counts are dropped; bad counts raise BPEError.
    """
    if isinstance(corpus, str):
        return count_words(corpus, pretokenizer=options.pretokenizer)
    if isinstance(corpus, Mapping):
        out: dict[str, int] = {}
        for w, f in corpus.items():
            if not isinstance(w, str):
                raise BPEError(f"words must be text, not {type(w).__name__}")
            if isinstance(f, bool) or not isinstance(f, int) or f < 0:
                raise BPEError(f"the count of {w[:30]!r} must be a whole number >= 0, not {f!r}")
            if f and w:
                out[w] = out.get(w, 0) + f
        return out
    words = list(corpus)
    if any(not isinstance(w, str) for w in words):
        raise BPEError("a word list must hold text only")
    return dict(Counter(w for w in words if w))


__all__ = [
    "BPEError", "BPEModel", "BPEOptions", "MergeStep", "PairCount", "Symbol", "TIE_BREAKS",
    "SYMBOL_KINDS", "MARKER_PRESETS", "WHITESPACE", "WHITESPACE_EXPORT_PATTERN", "count_words",
    "cut_long_words", "parse_word_counts", "pieces_with_offsets", "plural", "pretokenize", "pretokenizer_labels",
    "word_counts",
]  # fmt: skip
