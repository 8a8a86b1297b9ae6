"""From a text to ids and back, step by step, for a real tokenizer.

The steps are those the source documents teach ("How tokenization works"): normalisation,
pre-tokenization (the pieces the tokenizer's own pattern cuts), bytes, merges, fallback, ids and
detokenization. Each is a record (data, not prints) so a page can draw it.

:func:`machine_for` finds how a tokenizer works inside and returns a :class:`Machine` that can
replay it: byte-level BPE over ranks (every tiktoken tokenizer, built-in or uploaded, and a
byte-level model trained in the playground), a ``tokenizer.json`` (BPE with merges in file order,
WordPiece, Unigram: :mod:`.hf_machine`), SentencePiece BPE by score (:mod:`.sp_machine`) and any
other tokenizer (its tokens are shown, its inner steps are not).

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
import re
import unicodedata
import weakref
from collections.abc import Sequence
from typing import Any

from ..tokenizers.encoders import RemoteTokenizer, TiktokenTokenizer, Tokenizer
from ..tokenizers.hf_engine import HFTokenizer
from ..tokenizers.patterns import PATTERNS
from ..tokenizers.splintr_engine import SplintrTokenizer
from .byte_alphabet import byte_display
from .hf_machine import HFBPEMachine
from .merges import merge_steps
from .pattern import Alternative, cut
from .records import (
    MAX_REPLAY_BYTES,
    AppliedMerge,
    Machine,
    Normalisation,
    PreTokenPiece,
    Replay,
    _steps,
)
from .sp_machine import SentencePieceMachine


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
