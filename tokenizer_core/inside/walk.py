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
from ..tokenizers.splintr_engine import SplintrTokenizer
from .byte_alphabet import byte_display
from .merges import merge_steps
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
    `marker` is True for a marker token the tokenizer matches before cutting (``<think>``).
    """

    index: int
    start: int
    end: int
    text: str
    rule: int | None = None
    marker: bool = False

    @property
    def data(self) -> bytes:
        return self.text.encode("utf-8")

    @property
    def display(self) -> str:
        return byte_display(self.data)


@dataclass(frozen=True, slots=True)
class AppliedMerge:
    """One merge: `left` + `right` (labels) joined at part `position`, the pair's `rank` in the
    vocabulary (lower merges first), and the `parts` left after it."""

    number: int
    left: str
    right: str
    rank: int
    position: int
    parts: tuple[str, ...]


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

    #: "byte-bpe" (byte-level BPE over ranks), "hf-bpe", "sentencepiece" or "other"
    kind = "other"
    #: True when the replay of merges is exact (checked against the tokenizer on every text)
    replays = False
    #: GPT-2's byte-to-unicode alphabet is how this tokenizer's vocabulary writes bytes
    byte_level = False

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


class TiktokenMachine(Machine):
    """Byte-level BPE over ranks: a tiktoken encoding (the rank of a token is its id)."""

    kind = "byte-bpe"
    replays = True
    byte_level = True

    def __init__(self, tokenizer: TiktokenTokenizer) -> None:
        super().__init__(tokenizer)
        self.encoding = tokenizer.encoding
        self.ranks: dict[bytes, int] = tokenizer.encoding._mergeable_ranks
        self.pattern: str = tokenizer.encoding._pat_str
        self.nfc = tokenizer.normalize_nfc

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


def _steps(
    done: list[tuple[int, int, Any, Any, tuple[Any, ...]]], label: Callable[[Any], str]
) -> tuple[AppliedMerge, ...]:
    """Merge records from :func:`merge_steps` as labelled steps."""
    return tuple(
        AppliedMerge(n, label(left), label(right), rank, pos, tuple(map(label, parts)))
        for n, (rank, pos, left, right, parts) in enumerate(done, 1)
    )


class HFBPEMachine(Machine):
    """BPE from a ``tokenizer.json``: its normaliser, its pre-tokenizer, merges in file order."""

    kind = "hf-bpe"

    def __init__(self, tokenizer: HFTokenizer) -> None:
        super().__init__(tokenizer)
        inner = tokenizer.tokenizer
        self.inner = inner
        self.byte_level = tokenizer.byte_level
        model = json.loads(inner.model.__getstate__())
        self.model_type = model.get("type", "")
        self._problem = ""
        if self.model_type != "BPE":
            self._problem = (
                f"this tokenizer is a {self.model_type or 'non-BPE'} model: it does not merge pairs, "
                "so there are no merges to replay"
            )
        elif (
            model.get("dropout") or model.get("continuing_subword_prefix") or model.get("end_of_word_suffix")
        ):
            self._problem = "this tokenizer's file uses BPE options this page does not replay"
        self.replays = not self._problem
        self.vocab: dict[str, int] = model.get("vocab", {}) if self.replays else {}
        merges = model.get("merges", []) if self.replays else []
        self.merge_ranks: dict[tuple[str, str], int] = {}
        for rank, m in enumerate(merges):
            pair = tuple(m.split(" ", 1)) if isinstance(m, str) else tuple(m)
            self.merge_ranks.setdefault(pair, rank)  # type: ignore[arg-type]
        self.ignore_merges = bool(model.get("ignore_merges"))
        self.byte_fallback = bool(model.get("byte_fallback"))
        self.unk = model.get("unk_token")
        added = inner.get_added_tokens_decoder()
        self.markers = {t.content: i for i, t in added.items() if not t.special and t.content}
        self._marker_re = (
            regex.compile("|".join(regex.escape(m) for m in sorted(self.markers, key=len, reverse=True)))
            if self.markers
            else None
        )
        self._patterns = _split_patterns(inner.pre_tokenizer)

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
                cuts = [(0, len(stretch))] if pre is None else [o for _, o in pre.pre_tokenize_str(stretch)]
            at = 0
            for a, b in cuts:
                if a > at:  # text the pre-tokenizer dropped (kept so pieces join back)
                    out.append(PreTokenPiece(len(out), s + at, s + a, stretch[at:a]))
                out.append(
                    PreTokenPiece(len(out), s + a, s + b, stretch[a:b], _rule_of(single, stretch, a, b))
                )
                at = b
            if at < len(stretch):
                out.append(PreTokenPiece(len(out), s + at, e, stretch[at:]))
        return out

    def no_replay_reason(self) -> str:
        return self._problem or super().no_replay_reason()

    def replay(self, piece: str) -> Replay:
        if piece in self.markers:
            return Replay(piece, (piece,), (), True, (self.markers[piece],))
        if not self.replays:
            return super().replay(piece)
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
        if self.ignore_merges and word in self.vocab:
            return Replay(piece, tuple(start), (), True, (self.vocab[word],))
        if len(start) > MAX_REPLAY_BYTES:
            return Replay(piece, tuple(start), (), False, tuple(self.tokenizer.encode(piece)),
                          problem=f"this piece has {len(start):,} parts; merges are shown for pieces of "
                          f"up to {MAX_REPLAY_BYTES}")  # fmt: skip
        ranks = self.merge_ranks
        final, done = merge_steps(start, lambda a, b: ranks.get((a, b)), lambda a, b: a + b)
        return Replay(piece, tuple(start), _steps(done, str), False, tuple(self.vocab[p] for p in final))

    def label(self, token_id: int) -> str:
        tok = self.inner.id_to_token(token_id)
        return tok if tok is not None else super().label(token_id)


def _rule_of(alts: tuple[Alternative, ...], text: str, a: int, b: int) -> int | None:
    for alt in alts:
        m = regex.compile(alt.source).match(text, a)
        if m is not None and m.end() == b:
            return alt.index
    return None


def _split_patterns(pre: Any) -> tuple[str, ...]:
    """The regular expressions of a tokenizer.json pre-tokenizer, in order (ByteLevel's own
    GPT-2 pattern when it uses one)."""
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

    visit(json.loads(pre.__getstate__()))
    return tuple(found)


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
    """SentencePiece (Mistral's classic vocabularies, Gemma): spaces become ▁, then the model
    picks pieces of the whole text by their scores, with byte tokens for what it lacks."""

    kind = "sentencepiece"

    def __init__(self, tokenizer: SplintrTokenizer) -> None:
        super().__init__(tokenizer)
        self.prefix = tokenizer.dummy_prefix

    def normalise(self, text: str) -> Normalisation | None:
        after = text.replace(" ", SPACE_MARK)
        if self.prefix and text:
            after = SPACE_MARK + after
        rule = "every space becomes \u2581 (a visible space mark), so a space is part of the word after it"
        if self.prefix:
            rule += "; one \u2581 is also put in front of the text, so its first word looks like every other"
        return Normalisation(text, after, rule)

    def no_replay_reason(self) -> str:
        return (
            "this tokenizer (SentencePiece) chooses its pieces from the whole text by the score of each "
            "vocabulary entry, not by a list of merges; the tokens it chose are shown below, the choice "
            "itself is not replayed here"
        )


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
    return m.kind, m.replays, m.byte_level, (m.no_replay_reason(), m.patterns(), m.alternatives())


def _machine_call(tokenizer: Tokenizer, method: str, *args: Any) -> Any:
    return getattr(machine_for(tokenizer), method)(*args)


class RemoteMachine(Machine):
    """The machine of a tokenizer in another process (a user's upload): its real one's, run there."""

    def __init__(self, tokenizer: RemoteTokenizer) -> None:
        super().__init__(tokenizer)
        self.kind, self.replays, self.byte_level, self._facts = tokenizer.run(_machine_facts)
        for method in ("normalise", "pieces", "replay", "label"):  # each step is one message
            setattr(self, method, functools.partial(tokenizer.run, _machine_call, method))

    def no_replay_reason(self) -> str:
        return self._facts[0]

    def patterns(self) -> tuple[str, ...]:
        return self._facts[1]

    def alternatives(self) -> tuple[Alternative, ...]:
        return self._facts[2]


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
        out.extend(machine.replay(p.text).ids)
    return out
