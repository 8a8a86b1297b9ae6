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
from .walk import Machine, Normalisation, PreTokenPiece, machine_for

# Token rows kept in the record (the page draws fewer); all ids are kept.
MAX_TOKEN_ROWS = 2_000
# Pieces checked by the replay when the whole text is inspected (the rest are not checked).
MAX_REPLAY_PIECES = 5_000

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
        for p in checked:
            replayed.extend(m.replay(p.text).ids)
        if len(checked) == len(pieces):
            replay_same = tuple(replayed) == ids
        else:
            replay_same = tuple(replayed) == ids[: len(replayed)]
            note = f"the first {len(checked):,} of {len(pieces):,} pieces were checked"
        if not replay_same:
            note = (
                "the merges replayed here do not give exactly this tokenizer's ids on this text "
                "(its file may use an option this page does not follow); the ids below are the tokenizer's own"
            )
    rows = tuple(_row(m, i, tid) for i, tid in enumerate(ids[:MAX_TOKEN_ROWS]))
    return Walkthrough(
        tokenizer.id, m.kind, text, norm, normalised, m.patterns(), m.alternatives(), pieces,
        replay_same, note, ids, rows, _fallback(m, tokenizer, text), _round_trip(tokenizer, text, normalised, ids),
    )  # fmt: skip


def _row(m: Machine, position: int, token_id: int) -> TokenRow:
    data = m.tokenizer.token_bytes(token_id)
    try:
        alone: str | None = data.decode("utf-8")
    except UnicodeDecodeError:
        alone = None
    label = m.label(token_id)
    if alone is None and len(data) == 1 and m.kind == "sentencepiece":
        label = f"<0x{data[0]:02X}>"
    return TokenRow(position, token_id, label, data, alone)


def _byte_label(m: Machine, token_id: int) -> str:
    data = m.tokenizer.token_bytes(token_id)
    if m.kind == "sentencepiece" and len(data) == 1:
        return f"<0x{data[0]:02X}>"
    return m.label(token_id)


def _fallback(m: Machine, tokenizer: Tokenizer, text: str) -> Fallback:
    split: list[SplitChar] = []
    for seg in tokenizer.segments(text):
        if len(seg.ids) < 2 or seg.special:
            continue
        if any(_alone(tokenizer.token_bytes(i)) is None for i in seg.ids):
            split.append(SplitChar(seg.text, tuple(_byte_label(m, i) for i in seg.ids)))
        if len(split) >= 50:
            break
    if m.byte_level:
        sentence = (
            "This tokenizer works on bytes: its vocabulary starts with all 256 byte values, so any "
            "character, even one it never saw in training, can be written as its UTF-8 bytes. No "
            "character is ever unknown; a rare one just costs more tokens."
        )
    elif m.kind == "sentencepiece":
        sentence = (
            "A character this vocabulary has no piece for falls back to its UTF-8 bytes, one token "
            "per byte, written <0x..> (byte fallback), so nothing is lost."
        )
    else:
        sentence = (
            "A character this vocabulary has no token for becomes this tokenizer's fallback: byte "
            "tokens if it has them, else an unknown-token marker."
        )
    if split:
        n = f"{len(split)}{'+' if len(split) >= 50 else ''}"
        sentence += f" In this text, {n} {'place' if len(split) == 1 else 'places'} needed byte tokens."
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
