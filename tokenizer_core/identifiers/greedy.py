"""A greedy longest-match subword tokenizer: the teaching example of the tokenization seed.

Text is first cut into chunks (runs of ASCII letters, runs of digits, single other characters;
whitespace is dropped). At each position of a chunk the longest piece that is in the vocabulary
is taken; a character no piece starts with becomes a token on its own. With the seed's
18-piece vocabulary this reproduces the seed's four printed splits exactly:

    >>> greedy_tokenize("def calculate_total(items):")
    ['def', 'calc', 'ulate', '_', 'total', '(', 'items', ')', ':']

Vocabulary lookups ignore case, as in the seed (``"User"`` matches the piece ``user``).
Real tokenizers learn their pieces (BPE, see the BPE page) instead of taking a fixed list, but the
effect on identifiers is the same: known pieces are cheap, unfamiliar names cost a token per
character. :class:`GreedyTokenizer` wraps the algorithm in the app's ``Tokenizer`` interface so
it can sit next to the real tokenizers in any table.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..tokenizers.encoders import Tokenizer, TokenizerInfo
from ..tokenizers.segments import Segment

# The seed's vocabulary, verbatim (tokenization seed, "Example: Subword Tokenization of Python Code").
SEED_VOCAB: tuple[str, ...] = (
    "calc", "ulate", "total", "get", "user", "by", "id", "_", "(", ")",
    ":", "def", "items", "item", "s", "response", "json", ".",
)  # fmt: skip

# The seed's pre-tokenization: ASCII letter runs, digit runs, or one other non-space character.
CHUNK_PATTERN = re.compile(r"[A-Za-z]+|\d+|[^\sA-Za-z\d]")

MAX_VOCAB_PIECES = 5_000
MAX_PIECE_CHARS = 64


class GreedyVocabError(ValueError):
    """A vocabulary the greedy tokenizer cannot use; the message says how to fix it."""


@dataclass(frozen=True, slots=True)
class GreedyStep:
    """One decision: at `pos` (offset in the text) the longest known piece was `piece`.

    `known` is False when no vocabulary piece starts there and one character was taken alone.
    `tried` is how many candidate lengths were checked, longest first.
    """

    chunk: str
    pos: int
    piece: str
    known: bool
    tried: int


@dataclass(frozen=True, slots=True)
class GreedyResult:
    text: str
    pieces: tuple[str, ...]
    offsets: tuple[tuple[int, int], ...]
    steps: tuple[GreedyStep, ...]

    @property
    def count(self) -> int:
        return len(self.pieces)

    @property
    def unknown(self) -> int:
        """Characters that were not covered by any vocabulary piece."""
        return sum(1 for s in self.steps if not s.known)


def parse_vocab(text: str) -> tuple[str, ...]:
    """Vocabulary pieces from user text: one per line, or separated by spaces or commas.

    ``parse_vocab("get, user\\n_ id") -> ('get', 'user', '_', 'id')``. A comma on a line of its
    own is the piece ``,``. Duplicates are dropped (first kept); pieces are lower-cased because
    matching ignores case. Raises GreedyVocabError for an empty list or absurd sizes.
    """
    pieces: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if stripped == ",":
            pieces.append(",")
            continue
        pieces.extend(p for p in re.split(r"[\s,]+", stripped) if p)
    return normalize_vocab(pieces)


def normalize_vocab(pieces: Iterable[str]) -> tuple[str, ...]:
    """Lower-cased, de-duplicated pieces in their first order; raises GreedyVocabError if unusable.

    ``normalize_vocab(["Get", "get", "id"]) -> ('get', 'id')``
    """
    seen: dict[str, None] = {}
    for piece in pieces:
        if not isinstance(piece, str) or not piece or any(c.isspace() for c in piece):
            raise GreedyVocabError(
                f"vocabulary pieces must be non-empty and without spaces, got {piece!r}; "
                "put one piece per line"
            )
        if len(piece) > MAX_PIECE_CHARS:
            raise GreedyVocabError(
                f"the piece {piece[:20]!r}... has {len(piece)} characters; the limit is {MAX_PIECE_CHARS}"
            )
        seen.setdefault(piece.lower(), None)
    if not seen:
        raise GreedyVocabError("the vocabulary is empty; add at least one piece (e.g. get, user, _)")
    if len(seen) > MAX_VOCAB_PIECES:
        raise GreedyVocabError(
            f"{len(seen):,} pieces is too many for teaching mode; the limit is {MAX_VOCAB_PIECES:,}"
        )
    return tuple(seen)


def _known(vocab: Iterable[str]) -> frozenset[str]:
    return vocab if isinstance(vocab, frozenset) else frozenset(p.lower() for p in vocab)


def _split_chunk(chunk: str, known: frozenset[str], longest: int, offset: int) -> list[GreedyStep]:
    steps: list[GreedyStep] = []
    i = 0
    lowered = chunk.lower()
    while i < len(chunk):
        tried = 0
        for tried, j in enumerate(range(min(len(chunk), i + longest), i, -1), start=1):
            if lowered[i:j] in known:
                steps.append(GreedyStep(chunk, offset + i, chunk[i:j], True, tried))
                i = j
                break
        else:  # no piece starts here: the character is a token on its own
            steps.append(GreedyStep(chunk, offset + i, chunk[i], False, tried))
            i += 1
    return steps


def split_chunk(chunk: str, vocab: Iterable[str] = SEED_VOCAB, *, offset: int = 0) -> list[GreedyStep]:
    """Greedy longest match inside one chunk, as steps.

    ``[s.piece for s in split_chunk("getUserById")] -> ['get', 'User', 'By', 'Id']``
    """
    known = _known(vocab)
    return _split_chunk(chunk, known, max(map(len, known), default=1), offset)


def greedy_split(text: str, vocab: Iterable[str] = SEED_VOCAB) -> GreedyResult:
    """Tokenize `text` and keep every step and each piece's (start, end) offsets.

    ``greedy_split("qx9_zz").pieces -> ('q', 'x', '9', '_', 'z', 'z')``
    """
    known = _known(vocab)
    longest = max(map(len, known), default=1)
    steps: list[GreedyStep] = []
    for m in CHUNK_PATTERN.finditer(text):
        steps.extend(_split_chunk(m.group(), known, longest, m.start()))
    return GreedyResult(
        text=text,
        pieces=tuple(s.piece for s in steps),
        offsets=tuple((s.pos, s.pos + len(s.piece)) for s in steps),
        steps=tuple(steps),
    )


def greedy_tokenize(text: str, vocab: Iterable[str] = SEED_VOCAB) -> list[str]:
    """The pieces only: ``greedy_tokenize("response.json()") -> ['response', '.', 'json', '(', ')']``."""
    return list(greedy_split(text, vocab).pieces)


class GreedyTokenizer(Tokenizer):
    """The greedy longest-match tokenizer behind the app's Tokenizer interface.

    Token ids: a vocabulary piece's id is its position in the vocabulary; a character outside
    the vocabulary gets ``len(vocab) + ord(char)``. Whitespace is dropped (as in the seed), so
    `decode` cannot restore spaces and `segments` shows them as text without tokens.
    """

    def __init__(self, vocab: Sequence[str] = SEED_VOCAB, *, name: str = "Greedy longest match") -> None:
        self.vocab = normalize_vocab(vocab)
        self._ids: Mapping[str, int] = {p: i for i, p in enumerate(self.vocab)}
        self._known = frozenset(self.vocab)
        is_seed = self.vocab == SEED_VOCAB
        suffix = "seed" if is_seed else hashlib.sha256("\n".join(self.vocab).encode()).hexdigest()[:10]
        self.info = TokenizerInfo(
            id=f"greedy-{suffix}",
            name=name if is_seed else f"{name} (your vocabulary)",
            family="Teaching",
            models=(),
            vocab_size=len(self.vocab),
            source="the article “Tokens and Tokenization in LLM”: greedy longest match with a small fixed vocabulary",
            license="n/a",
            kind="custom",
            notes="Case-insensitive lookups; whitespace is dropped; unknown characters are single tokens.",
        )

    @property
    def special_tokens(self) -> Mapping[str, int]:
        return {}

    @property
    def n_vocab(self) -> int:
        return len(self.vocab)

    def _id(self, piece: str) -> int:
        tid = self._ids.get(piece.lower())
        if tid is not None:
            return tid
        return len(self.vocab) + ord(piece)

    def encode(self, text: str, *, allow_special: bool = False) -> list[int]:
        return [self._id(p) for p in greedy_split(text, self._known).pieces]

    def decode(self, ids: Sequence[int]) -> str:
        return "".join(self.token_bytes(i).decode("utf-8", "replace") for i in ids)

    def token_bytes(self, token_id: int) -> bytes:
        if 0 <= token_id < len(self.vocab):
            return self.vocab[token_id].encode("utf-8")
        code = token_id - len(self.vocab)
        if 0 <= code <= 0x10FFFF:
            return chr(code).encode("utf-8", "surrogatepass")
        return b""

    def segments(self, text: str, *, allow_special: bool = False) -> list[Segment]:
        result = greedy_split(text, self._known)
        out: list[Segment] = []
        pos = 0
        for piece, (start, end) in zip(result.pieces, result.offsets):
            if start > pos:
                gap = text[pos:start]
                out.append(Segment(pos, start, (), gap, gap.encode("utf-8", "surrogatepass")))
            out.append(Segment(start, end, (self._id(piece),), piece, piece.encode("utf-8", "surrogatepass")))
            pos = end
        if pos < len(text):
            tail = text[pos:]
            out.append(Segment(pos, len(text), (), tail, tail.encode("utf-8", "surrogatepass")))
        return out
