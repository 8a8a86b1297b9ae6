"""The records of a text's way through a tokenizer, and the :class:`Machine` every kind of
tokenizer fills in (:mod:`.walk` finds the machine of a tokenizer)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..tokenizers.encoders import Tokenizer
from .byte_alphabet import byte_display
from .merges import Merge
from .pattern import Alternative, alternatives

# A piece longer than this many bytes is not replayed merge by merge (the replay is quadratic in
# its length); the page says so. Real pieces are words: a few bytes.
MAX_REPLAY_BYTES = 256
SPACE_MARK = "\u2581"  # SentencePiece's visible space: ▁


# ------------------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class Normalisation:
    """The text before and after the tokenizer's normalisation, and what that step does."""

    before: str
    after: str
    rule: str

    @property
    def changed(self) -> bool:
        return self.before != self.after


@dataclass(frozen=True, slots=True)
class PreTokenPiece:
    """One pre-tokenization piece: characters [start, end) of the normalised text.

    `rule` is the number of the pattern's alternative that cut it (None when unknown);
    `marker` is True for a marker token the tokenizer matches before cutting (``<think>``);
    `form` is the piece as the tokenizer's model receives it when that is not `text` (``▁Hello``
    for ``Hello`` after SentencePiece's space mark); `dropped` is True for text the
    pre-tokenizer throws away (WordPiece's spaces): it gets no token.
    """

    index: int
    start: int
    end: int
    text: str
    rule: int | None = None
    marker: bool = False
    form: str = ""
    dropped: bool = False

    @property
    def data(self) -> bytes:
        return self.text.encode("utf-8")

    @property
    def seen(self) -> str:
        """What the model receives: ``PreTokenPiece(0, 0, 5, "Hello", form="▁Hello").seen -> "▁Hello"``."""
        return self.form or self.text

    @property
    def display(self) -> str:
        return byte_display(self.data)


@dataclass(frozen=True, slots=True)
class AppliedMerge:
    """One merge: `left` + `right` (labels) joined at part `position`, the pair's `rank` in the
    vocabulary (lower merges first), and the `parts` left after it. SentencePiece merges by the
    score of the joined piece (higher first): then `score` is that score and `rank` the piece's id.
    `rivals`: the pairs that could have merged at that moment, ``(left, right, rank or score)``,
    best first (the chosen pair is the first)."""

    number: int
    left: str
    right: str
    rank: int
    position: int
    parts: tuple[str, ...]
    score: float | None = None
    rivals: tuple[tuple[str, str, float], ...] = ()


@dataclass(frozen=True, slots=True)
class PrefixSearch:
    """One token of WordPiece's greedy longest-match-first search: from character `start` of the
    word, the candidates `tried` longest first (continuations carry ``##``), the one `found`
    (None: nothing matched, the whole word becomes the unknown token)."""

    start: int
    tried: tuple[str, ...]
    found: str | None


@dataclass(frozen=True, slots=True)
class Segmentation:
    """A way to cut a piece into vocabulary entries, with each entry's score and the sum
    (Unigram keeps the cut whose sum is highest)."""

    pieces: tuple[str, ...]
    scores: tuple[float, ...]

    @property
    def total(self) -> float:
        return sum(self.scores)


@dataclass(frozen=True, slots=True)
class Replay:
    """A piece encoded merge by merge: the start parts, each merge, and the ids at the end.

    `whole`: the whole piece is a token of the vocabulary and is taken as it is (tiktoken does
    this before any merge). `problem`: why it was not replayed (then `steps` is empty and `ids`
    are the tokenizer's own).
    """

    piece: str
    start: tuple[str, ...]
    steps: tuple[AppliedMerge, ...]
    whole: bool
    ids: tuple[int, ...]
    problem: str = ""
    #: the tokens' labels when parts the vocabulary lacks fell back to byte tokens (<0xF0>...)
    fallback: tuple[str, ...] = ()
    #: WordPiece: each token's search
    search: tuple[PrefixSearch, ...] = ()
    #: Unigram: the cut chosen, and the best other cut (None when there is no other)
    best: Segmentation | None = None
    runner_up: Segmentation | None = None

    @property
    def parts(self) -> tuple[str, ...]:
        """The parts left at the end (the tokens' labels)."""
        return self.steps[-1].parts if self.steps else self.start

    def parts_at(self, step: int) -> tuple[str, ...]:
        """The parts after `step` merges (0: the start)."""
        if step <= 0 or not self.steps:
            return self.start
        return self.steps[min(step, len(self.steps)) - 1].parts


# ------------------------------------------------------------------------------------ machines


class Machine:
    """How one tokenizer works inside. Subclasses fill in what their tokenizer allows."""

    #: "byte-bpe" (byte-level BPE over ranks), "hf-bpe", "sentencepiece", "wordpiece",
    #: "unigram", "trained-bpe" or "other"
    kind = "other"
    #: how the replay builds tokens: "merges" (by rank), "scores" (SentencePiece BPE, by the
    #: joined piece's score), "longest" (WordPiece), "viterbi" (Unigram) or "" (not replayed)
    method = ""
    #: True when the replay is exact (checked against the tokenizer on every text)
    replays = False
    #: GPT-2's byte-to-unicode alphabet is how this tokenizer's vocabulary writes bytes
    byte_level = False
    #: ids below this are special tokens, so a merge's rank is its id minus this (Tekken: 1,000)
    rank_offset = 0
    #: a character with no token becomes its bytes as ``<0x..>`` pieces
    byte_fallback = False
    #: how the vocabulary writes its unknown token ("" when it has none)
    unk_label = ""

    def __init__(self, tokenizer: Tokenizer) -> None:
        self.tokenizer = tokenizer

    def normalise(self, text: str) -> Normalisation | None:
        """The normalisation step, or None when the tokenizer has none."""
        return None

    def patterns(self) -> tuple[str, ...]:
        """The pre-tokenization patterns, in the order they are applied (empty: none)."""
        return ()

    def alternatives(self) -> tuple[Alternative, ...]:
        pats = self.patterns()
        return alternatives(pats[-1]) if len(pats) == 1 else ()

    def pieces(self, text: str) -> list[PreTokenPiece]:
        """The pieces the normalised `text` is cut into; they join back to it."""
        return [PreTokenPiece(0, 0, len(text), text)] if text else []

    def pre_steps(self) -> tuple[str, ...]:
        """The pre-tokenization steps in order, in words (empty: the tokenizer's pattern, or none)."""
        return ()

    def added_tokens(self, text: str) -> tuple[tuple[str, int, bool], ...]:
        """Special tokens the tokenizer's own post-processing puts around `text` when a model
        reads it: ``(label, id, before the text)``. Counts on this page leave them out."""
        return ()

    def is_byte_token(self, token_id: int) -> bool:
        """True for a byte-fallback token: the vocabulary writes it ``<0x..>``."""
        return _BYTE_PIECE.fullmatch(self.label(token_id)) is not None and not self.byte_level

    def replay(self, piece: str) -> Replay:
        """`piece` (from :meth:`pieces`) encoded merge by merge."""
        ids = tuple(self.tokenizer.encode(piece))
        return Replay(piece, (), (), False, ids, problem=self.no_replay_reason())

    def no_replay_reason(self) -> str:
        return "this kind of tokenizer does not build its tokens by merging pairs, so there are no merges to show"

    def label(self, token_id: int) -> str:
        """A token as the vocabulary writes it (``Ġworld`` for byte-level)."""
        data = self.tokenizer.token_bytes(token_id)
        return byte_display(data) if self.byte_level else data.decode("utf-8", "backslashreplace")


_BYTE_PIECE = re.compile(r"<0x[0-9A-Fa-f]{2}>")


def _steps(done: list[Merge], label: Callable[[Any], str]) -> tuple[AppliedMerge, ...]:
    """Merge records from :func:`merge_steps` as labelled steps."""
    return tuple(
        AppliedMerge(
            n,
            label(left),
            label(right),
            rank,
            pos,
            tuple(map(label, parts)),
            rivals=tuple((label(a), label(b), r) for a, b, r in rivals),
        )  # fmt: skip
        for n, (rank, pos, left, right, parts, rivals) in enumerate(done, 1)
    )
