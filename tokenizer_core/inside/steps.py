"""The whole path of one text through one tokenizer, as a record a page draws step by step.

>>> from tokenizer_core.tokenizers import load_builtin
>>> w = inspect_text(load_builtin("cl100k_base"), "Hi \ua66e")
>>> [p.text for p in w.pieces], w.ids
(['Hi', ' \ua66e'], (13347, 8790, 247, 106))
>>> [t.alone for t in w.tokens]
['Hi', None, None, None]
>>> w.round_trip.same
True
"""

from __future__ import annotations

from dataclasses import dataclass

from ..tokenizers.encoders import RemoteTokenizer, Tokenizer, clean_text
from .pattern import Alternative
from .records import Machine, Normalisation, PreTokenPiece
from .walk import machine_for

# Token rows kept in the record (the page draws fewer); all ids are kept.
MAX_TOKEN_ROWS = 2_000
# Pieces checked by the replay when the whole text is inspected (the rest are not checked).
MAX_REPLAY_PIECES = 5_000
# Pieces a page offers to take apart step by step
MAX_CHOOSER_PIECES = 400

STEP_TITLES = (
    "Normalisation",
    "Pre-tokenization: cut into pieces",
    "Bytes",
    "Merges",
    "Fallback: characters the vocabulary lacks",
    "Ids and back",
)


@dataclass(frozen=True, slots=True)
class TokenRow:
    """One token: its id, how the vocabulary writes it, its bytes, and its text when decoded
    alone (None when those bytes are only part of a character)."""

    position: int
    id: int
    label: str
    data: bytes
    alone: str | None


@dataclass(frozen=True, slots=True)
class SplitChar:
    """A character (or a few) written with several byte tokens: `tokens` are their labels."""

    text: str
    tokens: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Fallback:
    """What happens to characters the vocabulary has no token for."""

    sentence: str
    split: tuple[SplitChar, ...]


@dataclass(frozen=True, slots=True)
class RoundTrip:
    """The ids decoded back to text, and whether that is the text put in."""

    decoded: str
    same: bool
    sentence: str


@dataclass(frozen=True)
class Walkthrough:
    """A text's way through a tokenizer. `normalised` is the text the pieces cut (they join back
    to it); `replay_same` is True when the merges replayed on every piece give exactly the
    tokenizer's ids (None when this tokenizer's merges are not replayed)."""

    tokenizer_id: str
    kind: str
    text: str
    normalisation: Normalisation | None
    normalised: str
    patterns: tuple[str, ...]
    alternatives: tuple[Alternative, ...]
    pieces: tuple[PreTokenPiece, ...]
    replay_same: bool | None
    replay_note: str
    ids: tuple[int, ...]
    tokens: tuple[TokenRow, ...]
    fallback: Fallback
    round_trip: RoundTrip
    #: how the replay builds tokens (see Machine.method); "" when it is not replayed
    method: str = ""
    #: the pre-tokenizer's steps in words, in order
    pre_steps: tuple[str, ...] = ()
    #: special tokens the tokenizer's own post-processing adds around a text: (label, id, before)
    added: tuple[tuple[str, int, bool], ...] = ()
    #: ids below this are special tokens (a merge's rank is its id minus this)
    rank_offset: int = 0
    #: where each token's text starts and ends in `text` (characters), per token row
    offsets: tuple[tuple[int, int], ...] = ()
    #: the index of the piece worth taking apart first (see :func:`teaching_piece`)
    first_piece: int = 0
    #: the vocabulary writes bytes in GPT-2's byte alphabet (Ġ for a space)
    byte_level: bool = False

    @property
    def kept(self) -> tuple[PreTokenPiece, ...]:
        """The pieces that get tokens (not the text the pre-tokenizer drops)."""
        return tuple(p for p in self.pieces if not p.dropped)

    @property
    def dropped(self) -> tuple[PreTokenPiece, ...]:
        return tuple(p for p in self.pieces if p.dropped)


def inspect_text(tokenizer: Tokenizer, text: str, *, machine: Machine | None = None) -> Walkthrough:
    """Every step of `text` through `tokenizer` (special-token text counts as plain text)."""
    if isinstance(tokenizer, RemoteTokenizer) and machine is None:
        return tokenizer.run(inspect_text, text)  # where the real tokenizer lives: one message
    m = machine or machine_for(tokenizer)
    text = clean_text(text)
    norm = m.normalise(text)
    # SentencePiece's ▁ is how the step is shown; its pieces are cut from the text itself
    normalised = norm.after if norm is not None and m.kind != "sentencepiece" else text
    pieces = tuple(m.pieces(normalised))
    ids = tuple(tokenizer.encode(text))
    replay_same: bool | None = None
    note = m.no_replay_reason() if not m.replays else ""
    if m.replays:
        checked = pieces[:MAX_REPLAY_PIECES]
        replayed: list[int] = []
        skipped = ""
        for p in checked:
            if not p.dropped:
                r = m.replay(p.seen)
                replayed.extend(r.ids)
                skipped = skipped or r.problem
        if len(checked) == len(pieces):
            replay_same = tuple(replayed) == ids
        else:
            replay_same = tuple(replayed) == ids[: len(replayed)]
            note = f"the first {len(checked):,} of {len(pieces):,} pieces were checked"
        if skipped:  # a piece too long to replay step by step: its ids are not a replay's
            replay_same = None
            note = (
                f"some pieces are not replayed step by step: {skipped}; the ids below are the tokenizer's own"
            )
        elif not replay_same:
            note = (
                "the replay here does not give exactly this tokenizer's ids on this text "
                "(its file may use an option this page does not follow); the ids below are the tokenizer's own"
            )
    rows = tuple(_row(m, i, tid) for i, tid in enumerate(ids[:MAX_TOKEN_ROWS]))
    segs = tokenizer.segments(text)
    return Walkthrough(
        tokenizer.id, m.kind, text, norm, normalised, m.patterns(), m.alternatives(), pieces,
        replay_same, note, ids, rows, _fallback(m, segs), _round_trip(tokenizer, text, normalised, ids),
        m.method, m.pre_steps(), m.added_tokens(text), m.rank_offset, _offsets(segs, len(rows)),
        teaching_piece(m, pieces) if m.replays else next((p.index for p in pieces if not p.dropped), 0),
        m.byte_level,
    )  # fmt: skip


def teaching_piece(m: Machine, pieces: tuple[PreTokenPiece, ...]) -> int:
    """The first word whose replay teaches something (a few merges, or several tokens for
    WordPiece and Unigram), else the first piece of any kind that does, else the first piece
    that gets tokens. Found where the tokenizer lives (one message for a user's upload)."""
    fallback = None
    for p in pieces[:MAX_CHOOSER_PIECES]:
        if p.marker or p.dropped or len(p.text) < 3:
            continue
        r = m.replay(p.seen)
        if (len(r.ids) < 2) if m.method in ("longest", "viterbi") else (len(r.steps) < 3):
            continue
        if p.text.strip().isalpha():
            return p.index
        fallback = p.index if fallback is None else fallback
    if fallback is not None:
        return fallback
    return next((p.index for p in pieces if not p.dropped), 0)


def _offsets(segs: list, n: int) -> tuple[tuple[int, int], ...]:
    """Each token's characters in the text; a segment of several tokens (a character cut into
    bytes) gives each of them the segment's characters."""
    out: list[tuple[int, int]] = []
    for seg in segs:
        out.extend((seg.start, seg.end) for _ in seg.ids)
        if len(out) >= n:
            break
    return tuple(out[:n])


def _row(m: Machine, position: int, token_id: int) -> TokenRow:
    data = m.tokenizer.token_bytes(token_id)
    try:
        alone: str | None = data.decode("utf-8")
    except UnicodeDecodeError:
        alone = None
    return TokenRow(position, token_id, m.label(token_id), data, alone)


def _fallback(m: Machine, segs: list) -> Fallback:
    """Where this text needed byte tokens: for a byte-level vocabulary, characters written with
    several tokens that are not text alone; for the others, the ``<0x..>`` pieces used."""
    split: list[SplitChar] = []
    for seg in segs:
        if seg.special:
            continue
        if m.byte_level:
            if len(seg.ids) > 1 and any(_alone(m.tokenizer.token_bytes(i)) is None for i in seg.ids):
                split.append(SplitChar(seg.text, tuple(m.label(i) for i in seg.ids)))
        elif any(m.is_byte_token(i) for i in seg.ids):
            split.append(SplitChar(seg.text, tuple(m.label(i) for i in seg.ids)))
        if len(split) >= 50:
            break
    if m.byte_level:
        sentence = (
            "This tokenizer works on bytes: its vocabulary starts with all 256 byte values, so any "
            "character, even one it never saw in training, can be written as its UTF-8 bytes. No "
            "character is ever unknown; a rare one just costs more tokens."
        )
    elif m.byte_fallback:
        sentence = (
            "A character this vocabulary has no piece for falls back to its UTF-8 bytes, one token "
            "per byte, each a piece the vocabulary writes <0x..> (byte fallback), so nothing is lost."
        )
    else:
        sentence = (
            "A character this vocabulary has no token for becomes its unknown token"
            + (f" {m.unk_label}" if m.unk_label else "")
            + (" (for WordPiece, the whole word does)" if m.kind == "wordpiece" else "")
            + ": that text is lost to the model."
        )
    unknown = sum(1 for seg in segs if m.unk_label and any(m.label(i) == m.unk_label for i in seg.ids))
    if split:
        n = f"{len(split)}{'+' if len(split) >= 50 else ''}"
        sentence += f" In this text, {n} {'place' if len(split) == 1 else 'places'} needed byte tokens."
    elif unknown:
        sentence += (
            f" In this text, {unknown} {'place' if unknown == 1 else 'places'} became the unknown token."
        )
    else:
        sentence += " In this text, every character had a token of its own or inside a bigger one."
    return Fallback(sentence, tuple(split))


def _alone(data: bytes) -> str | None:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _round_trip(tokenizer: Tokenizer, text: str, normalised: str, ids: tuple[int, ...]) -> RoundTrip:
    decoded = tokenizer.decode(list(ids))
    if decoded == text:
        return RoundTrip(decoded, True, "Decoding the ids gives back exactly the text you typed.")
    if decoded == normalised:
        return RoundTrip(
            decoded,
            False,
            "Decoding the ids gives back the text after normalisation, not byte for byte what you typed.",
        )
    return RoundTrip(
        decoded,
        False,
        "Decoding the ids does not give back exactly your text: this tokenizer drops or changes something "
        "on the way (see the steps above).",
    )
