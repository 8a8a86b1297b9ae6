"""From a text to ids and back, step by step, for a real tokenizer.

The steps are those the source documents teach ("How tokenization works"): normalisation,
pre-tokenization (the pieces the tokenizer's own pattern cuts), bytes, merges, fallback, ids and
detokenization. Each is a record (data, not prints) so a page can draw it.

:func:`machine_for` finds how a tokenizer works inside and returns a :class:`Machine` that can
replay it: byte-level BPE over ranks (every tiktoken tokenizer, built-in or uploaded, and a
byte-level model trained in the playground), BPE from a ``tokenizer.json`` (merges in file
order), SentencePiece (whose choice of pieces by score is not replayed here: the page says so) and
any other tokenizer (its tokens are shown, its inner steps are not).

    >>> from tokenizer_core.tokenizers import load_builtin
    >>> m = machine_for(load_builtin("cl100k_base"))
    >>> [p.text for p in m.pieces("Hello world")]
    ['Hello', ' world']
    >>> r = m.replay(" world")
    >>> r.whole, r.ids
    (True, (1917,))
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import regex

from ..tokenizers.encoders import RemoteTokenizer, TiktokenTokenizer, Tokenizer, engine_guard
from ..tokenizers.hf_engine import HFTokenizer
from ..tokenizers.patterns import PATTERNS
from ..tokenizers.sentencepiece_model import NORMAL, UNUSED, USER_DEFINED
from ..tokenizers.splintr_engine import SplintrTokenizer
from .byte_alphabet import byte_display
from .merges import Merge, merge_steps
from .pattern import Alternative, alternatives, cut

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


class TiktokenMachine(Machine):
    """Byte-level BPE over ranks: a tiktoken encoding (the id of a token is its rank, plus the
    number of special tokens placed before the ordinary ones, as in Tekken)."""

    kind = "byte-bpe"
    method = "merges"
    replays = True
    byte_level = True

    def __init__(self, tokenizer: TiktokenTokenizer) -> None:
        super().__init__(tokenizer)
        self.encoding = tokenizer.encoding
        self.ranks: dict[bytes, int] = tokenizer.encoding._mergeable_ranks
        self.pattern: str = tokenizer.encoding._pat_str
        self.nfc = tokenizer.normalize_nfc
        self.rank_offset = min(self.ranks.values(), default=0)

    def normalise(self, text: str) -> Normalisation | None:
        if not self.nfc:
            return None
        return Normalisation(
            text,
            unicodedata.normalize("NFC", text),
            "Unicode NFC: a letter written as a base letter plus a separate accent becomes one "
            "character (e + \u0301 becomes \u00e9), so the same word always gives the same tokens.",
        )

    def patterns(self) -> tuple[str, ...]:
        return (self.pattern,)

    def pieces(self, text: str) -> list[PreTokenPiece]:
        return [
            PreTokenPiece(i, s, e, text[s:e], rule) for i, (s, e, rule) in enumerate(cut(self.pattern, text))
        ]

    def replay(self, piece: str) -> Replay:
        data = piece.encode("utf-8")
        start = tuple(byte_display(bytes([b])) for b in data)
        if data in self.ranks:
            return Replay(piece, start, (), True, (self.ranks[data],))
        if len(data) > MAX_REPLAY_BYTES:
            return Replay(piece, start, (), False, tuple(self.encoding._encode_single_piece(data)),
                          problem=f"this piece is {len(data):,} bytes long; merges are shown for pieces "
                          f"of up to {MAX_REPLAY_BYTES} bytes")  # fmt: skip
        ranks = self.ranks
        final, done = merge_steps(
            [bytes([b]) for b in data], lambda a, b: ranks.get(a + b), lambda a, b: a + b
        )
        return Replay(piece, start, _steps(done, byte_display), False, tuple(ranks[p] for p in final))

    def piece_ids(self, piece: str) -> list[int]:
        """The tokenizer's own ids for one piece (its BPE step alone, without cutting)."""
        return list(self.encoding._encode_single_piece(piece.encode("utf-8")))


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


class HFBPEMachine(Machine):
    """A ``tokenizer.json``: its normaliser, its pre-tokenizer, then its model: BPE (merges in
    file order), WordPiece (longest match first) or Unigram (the best cut by score)."""

    kind = "hf-bpe"

    def __init__(self, tokenizer: HFTokenizer) -> None:
        super().__init__(tokenizer)
        inner = tokenizer.tokenizer
        self.inner = inner
        self.byte_level = tokenizer.byte_level
        model = json.loads(inner.model.__getstate__())
        self.model_type = model.get("type", "")
        self._problem = ""
        self.vocab: dict[str, int] = {}
        self.unk = model.get("unk_token")
        self.byte_fallback = bool(model.get("byte_fallback"))
        if self.model_type == "BPE":
            self.method = "merges"
            if (
                model.get("dropout")
                or model.get("continuing_subword_prefix")
                or model.get("end_of_word_suffix")
            ):
                self._problem = "this tokenizer's file uses BPE options this page does not replay"
            else:
                self.vocab = model.get("vocab", {})
        elif self.model_type == "WordPiece":
            self.kind, self.method = "wordpiece", "longest"
            self.vocab = model.get("vocab", {})
            self.prefix = model.get("continuing_subword_prefix") or ""
            self.max_chars = int(model.get("max_input_chars_per_word") or 100)
        elif self.model_type == "Unigram":
            self.kind, self.method = "unigram", "viterbi"
            entries = model.get("vocab", [])
            self.scores = [float(sc) for _, sc in entries]
            for i, (piece, _) in enumerate(entries):
                self.vocab.setdefault(piece, i)
            self.unk_id = model.get("unk_id")
            self.unk = entries[self.unk_id][0] if self.unk_id is not None else None
            self.unk_score = min(self.scores, default=0.0) - 10.0  # tokenizers' own penalty
            self.longest = max(map(len, self.vocab), default=1)
        else:
            self._problem = (
                f"this tokenizer is a {self.model_type or 'different'} model, which this page does not replay"
            )
        self.replays = not self._problem
        self.unk_label = str(self.unk) if self.unk is not None else ""
        self.merge_ranks: dict[tuple[str, str], int] = {}
        for rank, m in enumerate(model.get("merges", []) if self.method == "merges" and self.replays else []):
            pair = tuple(m.split(" ", 1)) if isinstance(m, str) else tuple(m)
            self.merge_ranks.setdefault(pair, rank)  # type: ignore[arg-type]
        self.ignore_merges = bool(model.get("ignore_merges"))
        added = inner.get_added_tokens_decoder()
        self.markers = {t.content: i for i, t in added.items() if not t.special and t.content}
        self._marker_re = (
            regex.compile("|".join(regex.escape(m) for m in sorted(self.markers, key=len, reverse=True)))
            if self.markers
            else None
        )
        pre = inner.pre_tokenizer
        self._pre = json.loads(pre.__getstate__()) if pre is not None else None
        self._patterns = _split_patterns(self._pre)

    def normalise(self, text: str) -> Normalisation | None:
        norm = self.inner.normalizer
        if norm is None:
            return None
        steps = json.loads(norm.__getstate__())
        if steps.get("type") == "Sequence" and not steps.get("normalizers"):
            return None
        with engine_guard(self.tokenizer.id):  # a user's file may panic in Rust: a message, not a crash
            after = norm.normalize_str(text)
        return Normalisation(text, after, _normaliser_words(steps))

    def patterns(self) -> tuple[str, ...]:
        return self._patterns

    def pre_steps(self) -> tuple[str, ...]:
        return tuple(_pre_tokenizer_words(self._pre)) if self._pre is not None else ()

    def pieces(self, text: str) -> list[PreTokenPiece]:
        out: list[PreTokenPiece] = []
        spans: list[tuple[int, int, bool]] = []
        pos = 0
        if self._marker_re is not None:
            for m in self._marker_re.finditer(text):
                spans.append((pos, m.start(), False))
                spans.append((m.start(), m.end(), True))
                pos = m.end()
        spans.append((pos, len(text), False))
        pre = self.inner.pre_tokenizer
        single = alternatives(self._patterns[0]) if len(self._patterns) == 1 else ()
        for s, e, marker in spans:
            if s == e:
                continue
            if marker:
                out.append(PreTokenPiece(len(out), s, e, text[s:e], marker=True))
                continue
            stretch = text[s:e]
            with engine_guard(self.tokenizer.id):
                cuts = [(stretch, (0, len(stretch)))] if pre is None else pre.pre_tokenize_str(stretch)
            at = 0
            for form, (a, b) in cuts:
                if a > at:  # text the pre-tokenizer dropped: shown, but it gets no token
                    out.append(PreTokenPiece(len(out), s + at, s + a, stretch[at:a], dropped=True))
                if a < at:  # pieces that overlap (a step that repeats text): not drawn twice
                    a = at
                if b <= a and not form:
                    continue
                # a byte-level model is given the piece's bytes in its own alphabet, made here
                seen = "" if self.byte_level or form == stretch[a:b] else form
                out.append(PreTokenPiece(len(out), s + a, s + max(a, b), stretch[a:b],
                                         _rule_of(single, stretch, a, b), form=seen))  # fmt: skip
                at = max(at, b)
            if at < len(stretch):
                out.append(PreTokenPiece(len(out), s + at, e, stretch[at:], dropped=True))
        return out

    def no_replay_reason(self) -> str:
        return self._problem or super().no_replay_reason()

    def replay(self, piece: str) -> Replay:
        if piece in self.markers:
            return Replay(piece, (piece,), (), True, (self.markers[piece],))
        if not self.replays:
            return super().replay(piece)
        if self.method == "longest":
            return self._wordpiece(piece)
        if self.method == "viterbi":
            return self._unigram(piece)
        word = byte_display(piece.encode("utf-8")) if self.byte_level else piece
        start: list[str] = []
        for ch in word:
            if ch in self.vocab:
                start.append(ch)
            elif self.byte_fallback and all(f"<0x{b:02X}>" in self.vocab for b in ch.encode("utf-8")):
                start.extend(f"<0x{b:02X}>" for b in ch.encode("utf-8"))
            elif self.unk is not None and self.unk in self.vocab:
                start.append(self.unk)
            else:
                return Replay(piece, tuple(word), (), False, tuple(self.tokenizer.encode(piece)),
                              problem="a character of this piece is in no token of the vocabulary")  # fmt: skip
        if (self.ignore_merges or len(start) == 1) and word in self.vocab:
            return Replay(piece, tuple(start), (), True, (self.vocab[word],))
        if len(start) > MAX_REPLAY_BYTES:
            return Replay(piece, tuple(start), (), False, tuple(self.tokenizer.encode(piece)),
                          problem=f"this piece has {len(start):,} parts; merges are shown for pieces of "
                          f"up to {MAX_REPLAY_BYTES}")  # fmt: skip
        ranks = self.merge_ranks
        final, done = merge_steps(start, lambda a, b: ranks.get((a, b)), lambda a, b: a + b)
        return Replay(piece, tuple(start), _steps(done, str), False, tuple(self.vocab[p] for p in final))

    def _wordpiece(self, word: str) -> Replay:
        """Greedy longest-match-first, as BERT's WordPiece: from each point, the longest entry
        of the vocabulary that starts there (``##`` in front after the first), else the whole
        word is the unknown token."""
        unk = (self.vocab[self.unk],) if self.unk in self.vocab else ()
        if len(word) > self.max_chars:
            return Replay(word, (), (), False, unk, search=(PrefixSearch(0, (), None),))
        found: list[str] = []
        search: list[PrefixSearch] = []
        start = 0
        while start < len(word):
            tried: list[str] = []
            hit = None
            at = start
            for end in range(len(word), at, -1):
                cand = (self.prefix if at else "") + word[at:end]
                tried.append(cand)
                if cand in self.vocab:
                    hit, start = cand, end
                    break
            search.append(PrefixSearch(at, tuple(tried), hit))
            if hit is None:
                return Replay(word, (), (), False, unk, search=tuple(search))
            found.append(hit)
        whole = len(found) == 1
        return Replay(
            word, tuple(found), (), whole, tuple(self.vocab[f] for f in found), search=tuple(search)
        )

    def _unigram(self, piece: str) -> Replay:
        """The cut of `piece` whose scores sum highest (Viterbi), as tokenizers' Unigram does it:
        a character no entry starts with alone costs the unknown token's score; unknown
        characters in a row become one unknown token; with byte fallback, their bytes."""
        if len(piece) > MAX_REPLAY_BYTES * 4:
            return Replay(piece, (), (), False, tuple(self.tokenizer.encode(piece)),
                          problem=f"this piece is {len(piece):,} characters long; the best cut is shown for "
                          f"pieces of up to {MAX_REPLAY_BYTES * 4:,}")  # fmt: skip
        n = len(piece)
        unk = -1
        # best[e]: (score, start, entry id) of the best way to reach character e; two per point
        # (the best and the next best) give the best other cut.
        best: list[tuple[float, int, int] | None] = [None] * (n + 1)
        best[0] = (0.0, 0, unk)
        top2: list[list[tuple[float, int, int, int]]] = [[] for _ in range(n + 1)]
        top2[0] = [(0.0, 0, unk, 0)]
        for s in range(n):
            here = best[s]
            if here is None:
                continue
            single = False
            for e in range(s + 1, min(n, s + self.longest) + 1):
                tid = self.vocab.get(piece[s:e])
                if tid is None:
                    continue
                single = single or e == s + 1
                self._reach(best, top2, s, e, tid, self.scores[tid])
            if not single:
                self._reach(best, top2, s, s + 1, unk, self.unk_score)
        cut = self._path(best, n)
        chosen = Segmentation(tuple(piece[s:e] if t != unk else piece[s:e] for s, e, t in cut),
                              tuple(self.scores[t] if t != unk else self.unk_score for s, e, t in cut))  # fmt: skip
        other = self._other(top2, n, cut, piece)
        ids: list[int] = []
        labels: list[str] = []
        fused: list[tuple[int, int, int]] = []
        for s, e, t in cut:  # unknown characters in a row are one unknown token
            if t == unk and fused and fused[-1][2] == unk:
                fused[-1] = (fused[-1][0], e, unk)
            else:
                fused.append((s, e, t))
        for s, e, t in fused:
            if t != unk:
                ids.append(t)
                labels.append(piece[s:e])
                continue
            data = piece[s:e].encode("utf-8")
            names = [f"<0x{b:02X}>" for b in data]
            if self.byte_fallback and all(x in self.vocab for x in names):
                ids.extend(self.vocab[x] for x in names)
                labels.extend(names)
            elif self.unk_id is not None:
                ids.append(self.unk_id)
                labels.append(str(self.unk))
            else:
                return Replay(piece, tuple(piece), (), False, tuple(self.tokenizer.encode(piece)),
                              problem="a character of this piece is in no token of the vocabulary")  # fmt: skip
        shown = tuple(labels) if tuple(labels) != chosen.pieces else ()
        return Replay(piece, chosen.pieces, (), len(cut) == 1 and not shown, tuple(ids), fallback=shown,
                      best=chosen, runner_up=other)  # fmt: skip

    @staticmethod
    def _reach(best: list, top2: list, s: int, e: int, tid: int, score: float) -> None:
        here = best[s]
        cand = here[0] + score
        if best[e] is None or cand > best[e][0]:
            best[e] = (cand, s, tid)
        for k, (sc, _, _, _) in enumerate(top2[s]):
            row = top2[e]
            row.append((sc + score, s, tid, k))
            row.sort(key=lambda r: -r[0])
            del row[2:]

    @staticmethod
    def _path(best: list, n: int) -> list[tuple[int, int, int]]:
        out = []
        e = n
        while e > 0:
            _, s, t = best[e]
            out.append((s, e, t))
            e = s
        return out[::-1]

    def _other(self, top2: list, n: int, chosen: list, piece: str) -> Segmentation | None:
        """The best cut other than `chosen` (from the two best ways to reach each point)."""
        for k in range(len(top2[n])):
            path: list[tuple[int, int, int, float]] = []
            e, kk = n, k
            while e > 0:
                sc, s, t, prev = top2[e][kk]
                before = top2[s][prev][0]
                path.append((s, e, t, sc - before))
                e, kk = s, prev
            path.reverse()
            if [(s, e, t) for s, e, t, _ in path] != chosen:
                return Segmentation(tuple(piece[s:e] for s, e, _, _ in path), tuple(x for *_, x in path))
        return None

    def label(self, token_id: int) -> str:
        tok = self.inner.id_to_token(token_id)
        return tok if tok is not None else super().label(token_id)

    def added_tokens(self, text: str) -> tuple[tuple[str, int, bool], ...]:
        if self.inner.post_processor is None or not text:
            return ()
        held: Any = self.tokenizer
        with held._lock, engine_guard(self.tokenizer.id):
            self.inner.encode_special_tokens = True
            enc = self.inner.encode(text[:200], add_special_tokens=True)
        ids, toks, mask = enc.ids, enc.tokens, enc.special_tokens_mask
        body = [i for i, m in enumerate(mask) if not m]
        if not body:
            return ()
        lo, hi = body[0], body[-1]
        return tuple((toks[i], ids[i], i < lo) for i in range(len(ids)) if mask[i] and (i < lo or i > hi))


def _rule_of(alts: tuple[Alternative, ...], text: str, a: int, b: int) -> int | None:
    for alt in alts:
        m = regex.compile(alt.source).match(text, a)
        if m is not None and m.end() == b:
            return alt.index
    return None


def _split_patterns(pre: dict | None) -> tuple[str, ...]:
    """The regular expressions of a tokenizer.json pre-tokenizer (its JSON), in order (ByteLevel's
    own GPT-2 pattern when it uses one)."""
    if pre is None:
        return ()
    found: list[str] = []

    def visit(step: dict) -> None:
        kind = step.get("type")
        if kind == "Sequence":
            for s in step.get("pretokenizers", []):
                visit(s)
        elif kind == "Split":
            pat = step.get("pattern", {})
            found.append(pat.get("Regex") or regex.escape(pat.get("String", "")))
        elif kind == "ByteLevel" and step.get("use_regex", True):
            from ..tokenizers.patterns import R50K

            found.append(R50K)
        elif kind in ("Whitespace", "WhitespaceSplit"):
            found.append(r"\w+|[^\w\s]+" if kind == "Whitespace" else r"\S+")

    visit(pre)
    return tuple(found)


_BEHAVIOUR = {
    "Removed": "the matches are dropped",
    "Isolated": "each match is a piece of its own",
    "MergedWithPrevious": "each match joins the piece before it",
    "MergedWithNext": "each match joins the piece after it",
    "Contiguous": "matches in a row make one piece",
}


def _pre_tokenizer_words(step: dict) -> list[str]:
    """The steps of a tokenizer.json pre-tokenizer (its JSON) in order, one sentence each.

    ``_pre_tokenizer_words({"type": "WhitespaceSplit"}) -> ["Cut at spaces, tabs and line breaks, which are dropped."]``
    """
    kind = step.get("type", "")
    if kind == "Sequence":
        return [w for s in step.get("pretokenizers", []) for w in _pre_tokenizer_words(s)]
    if kind == "Metaspace":
        mark = step.get("replacement", SPACE_MARK)
        first = step.get("prepend_scheme", "always" if step.get("add_prefix_space", True) else "never")
        words = f"Each space becomes {mark} (a visible space mark)"
        if first in ("always", "first"):
            words += f", one {mark} is put in front of the text"
        return [words + (f", and the text is cut before each {mark}." if step.get("split", True) else
                         "; the text is not cut.")]  # fmt: skip
    if kind == "BertPreTokenizer":
        return ["Cut at spaces, tabs and line breaks, which are dropped, and around every punctuation "
                "mark, which becomes a piece of its own (BERT's rule)."]  # fmt: skip
    if kind == "Whitespace":
        return ["Cut into runs of letters, digits and _ and runs of other visible characters; spaces, tabs "
                "and line breaks are dropped."]  # fmt: skip
    if kind == "WhitespaceSplit":
        return ["Cut at spaces, tabs and line breaks, which are dropped."]
    if kind == "ByteLevel":
        words = "Every byte is written as one printable character (GPT-2's alphabet: a space is Ġ)"
        if step.get("add_prefix_space"):
            words += ", a space is put in front of the text"
        return [words + (", and the text is cut by GPT-2's pattern." if step.get("use_regex", True) else ".")]
    if kind == "Split":
        pat = step.get("pattern", {})
        what = (
            f"the pattern {pat['Regex']}"
            if "Regex" in pat
            else json.dumps(pat.get("String", ""), ensure_ascii=False)
        )
        behaviour = _BEHAVIOUR.get(step.get("behavior", ""), "")
        invert = " (the pattern matches the pieces kept)" if step.get("invert") else ""
        return [f"Cut at {what}{invert}" + (f": {behaviour}." if behaviour else ".")]
    if kind == "Digits":
        return ["Digits are cut from the rest" + (", each digit a piece of its own." if step.get("individual_digits")
                                                   else ", a run of digits one piece.")]  # fmt: skip
    if kind == "Punctuation":
        return ["Every punctuation mark is cut from the text around it."]
    if kind == "UnicodeScripts":
        return ["Cut where the script changes (Latin, Han, Cyrillic...)."]
    if kind == "CharDelimiterSplit":
        return [
            f"Cut at every {json.dumps(step.get('delimiter', ''), ensure_ascii=False)}, which is dropped."
        ]
    return [f"A {kind} step."]


def _normaliser_words(step: dict) -> str:
    """What a tokenizer.json normaliser does, in words."""
    kind = step.get("type", "")
    words = {
        "NFC": "Unicode NFC (accents joined to their letters)",
        "NFKC": "Unicode NFKC (accents joined, look-alike characters such as ﬁ or full-width letters made plain)",
        "NFD": "Unicode NFD (accents split from their letters)",
        "NFKD": "Unicode NFKD",
        "Lowercase": "everything lower-cased",
        "Strip": "spaces at the ends removed",
        "StripAccents": "accents removed",
        "Prepend": f"{step.get('prepend', '')!r} put in front",
        "Replace": "a replacement ({} becomes {})".format(
            json.dumps(step.get("pattern", {}).get("String", "…"), ensure_ascii=False),
            json.dumps(step.get("content", ""), ensure_ascii=False),
        ),
        "BertNormalizer": "BERT's clean-up (control characters removed, Chinese characters spaced, optional lower-casing)",
        "Precompiled": "SentencePiece's own character table (NFKC-like)",
    }
    if kind == "Sequence":
        return "; ".join(_normaliser_words(s) for s in step.get("normalizers", [])) or "nothing"
    return words.get(kind, f"a {kind} step")


class SentencePieceMachine(Machine):
    """SentencePiece BPE (Mistral's classic vocabularies, Gemma): spaces become ▁, then the
    adjacent pair whose joined piece has the highest score is merged (leftmost on a tie) until
    no joined pair is a piece; a character with no piece falls back to its UTF-8 bytes
    (``<0x..>`` pieces). The model file's scores are used where it was read (Mistral); a
    vocabulary compiled into the engine (Gemma) lists its pieces best score first, so there a
    piece's place stands for its score (checked against the tokenizer's ids in the tests)."""

    kind = "sentencepiece"
    method = "scores"
    replays = True

    def __init__(self, tokenizer: SplintrTokenizer) -> None:
        super().__init__(tokenizer)
        self.splintr = tokenizer
        self.prefix = tokenizer.dummy_prefix
        self.markers = dict(tokenizer._whole)
        self.labels: dict[int, str] = {}
        self.score: dict[str, tuple[float, int]] = {}  # piece -> (score, id), pieces that merge
        self.scores_known = tokenizer.vocabulary is not None
        if tokenizer.vocabulary is not None:
            for i, (piece, score, kind) in enumerate(tokenizer.vocabulary):
                self.labels[i] = piece
                if kind in (NORMAL, USER_DEFINED, UNUSED):
                    self.score.setdefault(piece, (score, i))
            self.byte0 = next((i for i, v in enumerate(tokenizer.vocabulary) if v[0] == "<0x00>"), -1)
        else:
            table = [tokenizer.token_bytes(i) for i in range(tokenizer.base_vocab)]
            # the 256 byte pieces are 256 ids in a row whose bytes are 0x00..0xFF
            self.byte0 = next(
                (k for k, b in enumerate(table) if b == b"\x00"
                 and all(table[k + x : k + x + 1] == [bytes([x])] for x in range(256))), -1)  # fmt: skip
            special = set(tokenizer._names)
            for i, data in enumerate(table):
                if i in special:
                    self.labels[i] = tokenizer._names[i]
                    continue
                if self.byte0 <= i < self.byte0 + 256:
                    self.labels[i] = f"<0x{data[0]:02X}>"
                    continue
                try:
                    piece = data.decode("utf-8").replace(" ", SPACE_MARK)
                except UnicodeDecodeError:
                    continue
                if not piece:
                    continue
                self.labels[i] = piece
                self.score.setdefault(piece, (-float(i), i))
        if self.byte0 < 0:
            self.replays = False
        self.byte_fallback = self.byte0 >= 0

    def normalise(self, text: str) -> Normalisation | None:
        after = text.replace(" ", SPACE_MARK)
        if self.prefix and text:
            after = SPACE_MARK + after
        rule = "every space becomes \u2581 (a visible space mark), so a space is part of the word after it"
        if self.prefix:
            rule += "; one \u2581 is also put in front of the text, so its first word looks like every other"
        return Normalisation(text, after, rule)

    def pre_steps(self) -> tuple[str, ...]:
        return (
            "SentencePiece has no pattern: it reads the whole text with \u2581 for each space. No piece "
            "of this vocabulary has \u2581 after another character, so the text is shown cut before each "
            "run of \u2581: the merges inside one such piece never reach another.",
        )

    def pieces(self, text: str) -> list[PreTokenPiece]:
        out: list[PreTokenPiece] = []
        spans: list[tuple[int, int, bool]] = []
        pos = 0
        found = self.splintr._whole_re
        if found is not None:
            for m in found.finditer(text):
                if m.group() in self.markers:
                    spans += [(pos, m.start(), False), (m.start(), m.end(), True)]
                    pos = m.end()
        spans.append((pos, len(text), False))
        first = True
        for s, e, marker in spans:
            if s == e:
                continue
            lead = SPACE_MARK if self.prefix and first and s == 0 else ""
            first = False
            if marker:
                out.append(PreTokenPiece(len(out), s, e, text[s:e], marker=True, form=lead + text[s:e]))
                continue
            for m in _SP_WORD.finditer(text, s, e):
                form = (lead if m.start() == 0 else "") + m.group().replace(" ", SPACE_MARK)
                out.append(PreTokenPiece(len(out), m.start(), m.end(), m.group(),
                                         form=form if form != m.group() else ""))  # fmt: skip
        return out

    def replay(self, piece: str) -> Replay:
        name = piece.removeprefix(SPACE_MARK)
        if name in self.markers:  # a marker, after the ▁ SentencePiece puts in front of a text
            lead = (self.score[SPACE_MARK][1],) if name != piece else ()
            return Replay(piece, (piece,), (), True, (*lead, self.markers[name]))
        if not self.replays:
            return super().replay(piece)
        start = tuple(piece)
        if len(start) > MAX_REPLAY_BYTES:
            return Replay(piece, start, (), False, tuple(self.splintr.encode(piece.replace(SPACE_MARK, " "))),
                          problem=f"this piece has {len(start):,} characters; merges are shown for pieces of "
                          f"up to {MAX_REPLAY_BYTES}")  # fmt: skip
        score = self.score
        final, done = merge_steps(
            start, lambda a, b: -score[a + b][0] if a + b in score else None, lambda a, b: a + b
        )
        steps = tuple(
            AppliedMerge(
                n,
                left,
                right,
                score[left + right][1],
                pos,
                parts,
                score=-rank,
                rivals=tuple((a, b, -r) for a, b, r in rivals),
            )  # fmt: skip
            for n, (rank, pos, left, right, parts, rivals) in enumerate(done, 1)
        )
        ids: list[int] = []
        labels: list[str] = []
        for part in final:
            if part in score:
                ids.append(score[part][1])
                labels.append(part)
            else:  # no piece for this character: its bytes
                for b in part.encode("utf-8"):
                    ids.append(self.byte0 + b)
                    labels.append(f"<0x{b:02X}>")
        whole = len(final) == 1 and not steps and final[0] in score
        return Replay(piece, start, steps, whole, tuple(ids),
                      fallback=tuple(labels) if labels != list(final) else ())  # fmt: skip

    def label(self, token_id: int) -> str:
        return self.labels.get(token_id) or super().label(token_id)

    def is_byte_token(self, token_id: int) -> bool:
        return self.byte0 >= 0 and self.byte0 <= token_id < self.byte0 + 256

    def added_tokens(self, text: str) -> tuple[tuple[str, int, bool], ...]:
        names = self.splintr._special  # control tokens: a model's request starts with its BOS
        for bos in ("<bos>", "<s>"):
            if bos in names:
                return ((bos, names[bos], True),)
        return ()


# SentencePiece text cut before each run of spaces (the ▁ marks) that follows another character
_SP_WORD = re.compile(r"[ \u2581]*[^ \u2581]+|[ \u2581]+")


class TrainedMachine(Machine):
    """A model trained in the BPE playground that is not byte-level without a marker (those
    become tiktoken encodings): characters (or bytes) with an optional end-of-word marker, merges
    applied in the order they were learned. Read through the tokenizer's own merge encoder (its
    ``model`` and ``_enc``), so this package needs nothing from the playground's."""

    kind = "trained-bpe"
    replays = True

    def __init__(self, tokenizer: Tokenizer) -> None:
        super().__init__(tokenizer)
        held: Any = tokenizer  # a BPETokenizer of the playground's package, read by its attributes
        self.model: Any = held.model
        self.enc: Any = held._enc
        self.byte_level = bool(self.model.options.byte_level)
        pre = self.model.options.pretokenizer
        self.whitespace = pre not in PATTERNS
        self.pattern = _WORDS_AND_SPACES if self.whitespace else PATTERNS[pre].regex

    def patterns(self) -> tuple[str, ...]:
        return (self.pattern,)

    def alternatives(self) -> tuple[Alternative, ...]:
        if self.whitespace:
            return (
                Alternative(1, r"\S+", "a word: everything up to the next space (punctuation included)"),
                Alternative(2, r"\s+", "a run of spaces, tabs or line breaks (kept as it is, never merged)"),
            )
        return super().alternatives()

    def pieces(self, text: str) -> list[PreTokenPiece]:
        if self.whitespace:  # Python's own idea of a space (str.isspace), as the playground cuts
            return [
                PreTokenPiece(i, m.start(), m.end(), m.group(), 2 if m.group()[0].isspace() else 1)
                for i, m in enumerate(_WORDS_AND_SPACES_RE.finditer(text))
            ]
        return [
            PreTokenPiece(i, s, e, text[s:e], rule) for i, (s, e, rule) in enumerate(cut(self.pattern, text))
        ]

    def _label(self, token_id: int) -> str:
        sym = self.enc.symbol_of(token_id)
        if sym is None:  # a character never seen in training: one of its bytes
            return f"<0x{self.enc.id_bytes(token_id)[0]:02X}>"
        return byte_display(sym) if isinstance(sym, bytes) else str(sym)

    def label(self, token_id: int) -> str:
        return self._label(token_id)

    def replay(self, piece: str) -> Replay:
        is_word = not (self.whitespace and piece[:1].isspace())
        ids = list(self.enc.start_ids(piece, marker=is_word))
        start = tuple(self._label(i) for i in ids)
        if not is_word:
            return Replay(piece, start, (), False, tuple(ids))
        if len(ids) > MAX_REPLAY_BYTES:
            final, _ = self.enc.apply(ids)
            return Replay(piece, start, (), False, tuple(final),
                          problem=f"this piece has {len(ids):,} parts; merges are shown for pieces of up to "
                          f"{MAX_REPLAY_BYTES}")  # fmt: skip
        final, fired = self.enc.apply(list(ids))
        cur = list(ids)
        steps: list[AppliedMerge] = []
        for rank, where in fired:
            for k, p in enumerate(where):
                q = p - k  # each merge before this one in the same rule shortened the list by one
                left, right = cur[q], cur[q + 1]
                new = next(n for r, n in self.enc.ranks[(left, right)] if r == rank)
                cur[q : q + 2] = [new]
                steps.append(AppliedMerge(len(steps) + 1, self._label(left), self._label(right), rank, q,
                                          tuple(map(self._label, cur))))  # fmt: skip
        return Replay(piece, start, tuple(steps), False, tuple(final))


_WORDS_AND_SPACES = r"\S+|\s+"
_WORDS_AND_SPACES_RE = re.compile(_WORDS_AND_SPACES)


def _machine_facts(tokenizer: Tokenizer) -> tuple:
    m = machine_for(tokenizer)  # run where the tokenizer lives, as _machine_call
    return m.kind, m.replays, m.byte_level, (m.no_replay_reason(), m.patterns(), m.alternatives(),
                                             m.method, m.rank_offset, m.pre_steps())  # fmt: skip


def _machine_call(tokenizer: Tokenizer, method: str, *args: Any) -> Any:
    return getattr(machine_for(tokenizer), method)(*args)


class RemoteMachine(Machine):
    """The machine of a tokenizer in another process (a user's upload): its real one's, run there."""

    def __init__(self, tokenizer: RemoteTokenizer) -> None:
        super().__init__(tokenizer)
        self.kind, self.replays, self.byte_level, self._facts = tokenizer.run(_machine_facts)
        self.method, self.rank_offset = self._facts[3], self._facts[4]
        for method in (
            "normalise",
            "pieces",
            "replay",
            "label",
            "added_tokens",
            "is_byte_token",
        ):  # each step is one message
            setattr(self, method, functools.partial(tokenizer.run, _machine_call, method))

    def no_replay_reason(self) -> str:
        return self._facts[0]

    def patterns(self) -> tuple[str, ...]:
        return self._facts[1]

    def alternatives(self) -> tuple[Alternative, ...]:
        return self._facts[2]

    def pre_steps(self) -> tuple[str, ...]:
        return self._facts[5]


_machines: weakref.WeakKeyDictionary[Tokenizer, Machine] = weakref.WeakKeyDictionary()


def machine_for(tokenizer: Tokenizer) -> Machine:
    """The :class:`Machine` of a tokenizer (built once per tokenizer object and kept while it lives)."""
    found = _machines.get(tokenizer)
    if found is None:
        if isinstance(tokenizer, RemoteTokenizer):
            found = RemoteMachine(tokenizer)
        elif isinstance(tokenizer, TiktokenTokenizer):
            found = TiktokenMachine(tokenizer)
        elif isinstance(tokenizer, HFTokenizer):
            found = HFBPEMachine(tokenizer)
        elif isinstance(tokenizer, SplintrTokenizer):
            found = SentencePieceMachine(tokenizer)
        elif tokenizer.info.kind == "trained" and hasattr(tokenizer, "_enc") and hasattr(tokenizer, "model"):
            found = TrainedMachine(tokenizer)
        else:
            found = Machine(tokenizer)
        _machines[tokenizer] = found
    return found


def replayed_ids(machine: Machine, pieces: Sequence[PreTokenPiece]) -> list[int]:
    """The ids of all pieces by the replay, joined: for a replaying machine, the tokenizer's ids."""
    out: list[int] = []
    for p in pieces:
        if not p.dropped:
            out.extend(machine.replay(p.seen).ids)
    return out
