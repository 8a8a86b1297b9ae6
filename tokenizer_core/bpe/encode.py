"""Using learned merges: encode new text with a trace, decode, and become a real Tokenizer.

Encoding applies the merges in the order they were learned, exactly like seed 002's
``tokenize``: merge 1 everywhere in the word (left to right), then merge 2, and so on. Merges
whose pair does not occur are skipped, so a word costs only the merges that fire in it.

A byte-level model without an end-of-word marker exports to a ``tiktoken.Encoding`` (ranks =
the 256 bytes, then each new token in merge order), which encodes at tiktoken's speed. Any other
model (characters, or a marker) becomes a :class:`BPETokenizer` that applies the merges here in
Python; characters never seen in training fall back to their UTF-8 bytes, so every text can be
encoded and decoded back.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..tokenizers.encoders import Tokenizer, TokenizerInfo, clean_text
from ..tokenizers.patterns import PATTERNS
from ..tokenizers.render import visible_whitespace
from ..tokenizers.segments import Segment, segments_from_pieces
from ..tokenizers.uploads import tokenizer_from_encoding
from ..tokenizers.vocab import VocabularyError, validate_ranks
from .model import WHITESPACE, WHITESPACE_EXPORT_PATTERN, BPEError, BPEModel, Symbol, pieces_with_offsets

# (left id, right id) -> ((0-based merge index, new id), ...) ascending: a pair can be merged
# again later when a different merge recreated one of its symbols (symbols are strings).
PairRanks = dict[tuple[int, int], tuple[tuple[int, int], ...]]


def pair_ranks(model: BPEModel) -> PairRanks:
    """Every merge of the model keyed by its pair of ids, in merge order."""
    ids = model.token_ids
    out: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for i, s in enumerate(model.steps):
        out.setdefault((ids[s.left], ids[s.right]), []).append((i, ids[s.new]))
    return {k: tuple(v) for k, v in out.items()}


def bpe_symbol_label(sym: Symbol) -> str:
    """A one-line label for a symbol: ``bpe_symbol_label(b" the") -> "⋅the"``.

    Bytes that are not valid UTF-8 show as ``\\xNN``; spaces, tabs and newlines are visible.
    """
    text = sym.decode("utf-8", "backslashreplace") if isinstance(sym, bytes) else sym
    return visible_whitespace(text).replace("\n", "")


@dataclass(frozen=True, slots=True)
class FiredMerge:
    """One merge that fired while encoding: merge number `rank` (from 1) at char offsets `starts`."""

    rank: int
    left: Symbol
    right: Symbol
    new: Symbol
    starts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ProbeToken:
    """A token of an encoded text: characters [start, end) of the text, its symbol and id."""

    start: int
    end: int
    symbol: Symbol | None
    token_id: int


@dataclass(frozen=True)
class Probe:
    """A text encoded with the first `step` merges: tokens, segments and the merge trace."""

    text: str
    step: int
    tokens: tuple[ProbeToken, ...]
    segments: tuple[Segment, ...]
    fired: tuple[FiredMerge, ...]

    @property
    def n_tokens(self) -> int:
        return len(self.tokens)


class MergeEncoder:
    """Applies a model's merges to words (cached per word), optionally only the first `limit`."""

    def __init__(self, model: BPEModel, *, cache_size: int = 200_000) -> None:
        self.model = model
        self.ranks = pair_ranks(model)
        self.vocab = model.vocab
        self.ids = model.token_ids
        self.byte_level = model.options.byte_level
        self.marker = model.options.end_marker
        self.fallback_base = len(self.vocab)  # char level: byte b of an unseen char is id base + b
        marker_sym: Symbol | None = None
        if self.marker:
            marker_sym = self.marker.encode("utf-8") if self.byte_level else self.marker
        self.marker_id = self.ids.get(marker_sym) if marker_sym is not None else None
        self._cache: dict[tuple[str, bool], list[int]] = {}
        self._cache_size = cache_size

    # ---------------------------------------------------------------- symbols

    def start_ids(self, word: str, *, marker: bool = True) -> list[int]:
        """Start symbols of a word as ids: ``start_ids("hi") -> [104, 105]`` (byte level)."""
        if self.byte_level:
            out = list(word.encode("utf-8"))
        else:
            ids = self.ids
            out = []
            for ch in word:
                i = ids.get(ch)
                if i is None:
                    out.extend(self.fallback_base + b for b in ch.encode("utf-8"))
                else:
                    out.append(i)
        if marker and self.marker_id is not None:
            out.append(self.marker_id)
        return out

    def id_bytes(self, token_id: int) -> bytes:
        """Raw bytes of an id (a marker at the end of a symbol stands for no text)."""
        if token_id >= self.fallback_base:
            return bytes([token_id - self.fallback_base])
        sym = self.vocab[token_id]
        data = sym if isinstance(sym, bytes) else sym.encode("utf-8")
        if self.marker:
            m = self.marker.encode("utf-8")
            if data.endswith(m):
                data = data[: -len(m)]
        return data

    # ---------------------------------------------------------------- merging

    def apply(
        self, ids: list[int], limit: int | None = None
    ) -> tuple[list[int], list[tuple[int, list[int]]]]:
        """Apply merges in learned order; returns (ids, [(merge index, symbol positions)]).

        Only merges with index < `limit` apply (None: all). Positions are indices into the
        symbol list just before that merge. ``apply([108, 111], ...)`` -> ``([new], [(0, [0])])``
        when ``l + o`` is merge 0.
        """
        ranks = self.ranks
        stop = len(self.model.steps) if limit is None else limit
        fired: list[tuple[int, list[int]]] = []
        t = 0
        while len(ids) > 1:
            best = None
            for i in range(len(ids) - 1):
                opts = ranks.get((ids[i], ids[i + 1]))
                if opts is None:
                    continue
                for r, new in opts:
                    if r >= t:
                        if r < stop and (best is None or r < best[0]):
                            best = (r, new, ids[i], ids[i + 1])
                        break
            if best is None:
                break
            r, new, a, b = best
            out: list[int] = []
            where: list[int] = []
            i, n = 0, len(ids)
            while i < n:
                if ids[i] == a and i + 1 < n and ids[i + 1] == b:
                    where.append(i)
                    out.append(new)
                    i += 2
                else:
                    out.append(ids[i])
                    i += 1
            fired.append((r, where))
            ids = out
            t = r + 1
        return ids, fired

    def encode_word(self, word: str, *, marker: bool = True) -> list[int]:
        """Ids of one word with every merge (cached)."""
        key = (word, marker)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        ids, _ = self.apply(self.start_ids(word, marker=marker))
        if len(self._cache) >= self._cache_size:
            self._cache.clear()
        self._cache[key] = ids
        return ids

    def symbol_of(self, token_id: int) -> Symbol | None:
        return self.vocab[token_id] if token_id < self.fallback_base else None


# ------------------------------------------------------------------------- probing


def _sym_len(enc: MergeEncoder, token_id: int) -> int:
    """Bytes a symbol covers in ``word + marker`` (a fallback id covers one byte)."""
    if token_id >= enc.fallback_base:
        return 1
    sym = enc.vocab[token_id]
    return len(sym) if isinstance(sym, bytes) else len(sym.encode("utf-8"))


def encode_pieces(
    enc: MergeEncoder, text: str, *, limit: int | None = None, trace: bool = False
) -> tuple[list[ProbeToken], list[Segment], list[FiredMerge]]:
    """Encode `text` piece by piece; tokens carry char offsets, segments join back to `text`.

    Positions are worked out in bytes of ``piece + marker`` (the symbols of a word always
    join to exactly that), then mapped to characters of `text`; the marker maps to the end
    of its word, so a token holding only the marker has no text.
    """
    model = enc.model
    tokens: list[ProbeToken] = []
    segments: list[Segment] = []
    fired_at: dict[int, list[int]] = {}
    for start, piece, is_word in pieces_with_offsets(text, model.options.pretokenizer):
        start_ids = enc.start_ids(piece, marker=is_word)
        if is_word:
            ids, fired = enc.apply(list(start_ids), limit)
        else:  # whitespace between words: never trained on, kept as start symbols
            ids, fired = start_ids, []
        raw = piece.encode("utf-8")
        byte_char: list[int] = []
        for ci, ch in enumerate(piece):
            byte_char.extend([ci] * len(ch.encode("utf-8")))
        byte_char.append(len(piece))
        n_bytes = len(raw)

        def char_at(b: int) -> int:
            return start + byte_char[min(b, n_bytes)]  # noqa: B023 (used only in this iteration)

        if trace and fired:
            lens = [_sym_len(enc, t) for t in start_ids]
            for r, where in fired:
                offs = [0]
                for ln in lens:
                    offs.append(offs[-1] + ln)
                fired_at.setdefault(r, []).extend(char_at(offs[i]) for i in where)
                ws = set(where)
                new_lens: list[int] = []
                i = 0
                while i < len(lens):
                    if i in ws:
                        new_lens.append(lens[i] + lens[i + 1])
                        i += 2
                    else:
                        new_lens.append(lens[i])
                        i += 1
                lens = new_lens
        pos = 0
        datas: list[bytes] = []
        for tid in ids:
            ln = _sym_len(enc, tid)
            tokens.append(ProbeToken(char_at(pos), char_at(pos + ln), enc.symbol_of(tid), tid))
            datas.append(raw[min(pos, n_bytes) : min(pos + ln, n_bytes)])
            pos += ln
        segments.extend(_fold_empty(segments_from_pieces(ids, datas, offset=start)))
    fired_list = []
    for r in sorted(fired_at):
        st = model.steps[r]
        fired_list.append(FiredMerge(r + 1, st.left, st.right, st.new, tuple(fired_at[r])))
    return tokens, segments, fired_list


def _fold_empty(segs: list[Segment]) -> list[Segment]:
    """Attach zero-length segments (a lone end-of-word marker) to the segment before them."""
    out: list[Segment] = []
    for s in segs:
        if s.start == s.end and out:
            prev = out[-1]
            out[-1] = Segment(prev.start, prev.end, prev.ids + s.ids, prev.text, prev.data, prev.special)
        elif s.start == s.end and not out:
            out.append(s)
        elif out and out[-1].start == out[-1].end:
            lone = out.pop()
            out.append(Segment(s.start, s.end, lone.ids + s.ids, s.text, s.data, s.special))
        else:
            out.append(s)
    return out


def probe_bpe(
    model: BPEModel, text: str, *, step: int | None = None, encoder: MergeEncoder | None = None
) -> Probe:
    """Encode `text` with the first `step` merges (None: all) and trace which merge fired where.

    ``probe_bpe(m, "lowest", step=2).fired`` -> merge 1 (l + o) at [0], merge 2 (lo + w) at [0].
    """
    enc = encoder or MergeEncoder(model)
    k = len(model.steps) if step is None else max(0, min(step, len(model.steps)))
    text = clean_text(text)
    tokens, segments, fired = encode_pieces(enc, text, limit=k, trace=True)
    return Probe(text, k, tuple(tokens), tuple(segments), tuple(fired))


@dataclass(frozen=True, slots=True)
class WordView:
    """A training word split at some step: its count and (symbol, id) tokens."""

    word: str
    count: int
    tokens: tuple[tuple[Symbol, int], ...]
    cut: bool = False  # only the word's first characters were split (see bpe_words_at_step)


def bpe_words_at_step(
    model: BPEModel,
    step: int,
    *,
    max_words: int = 300,
    max_tokens: int | None = None,
    max_word_chars: int | None = None,
    order: str = "auto",
    encoder: MergeEncoder | None = None,
) -> list[WordView]:
    """Training words segmented after `step` merges.

    order "corpus" keeps first-occurrence order, "frequent" sorts by count (ties: corpus
    order), "auto" uses corpus order when every word fits in `max_words`. With `max_tokens`,
    words stop once they hold that many tokens together (a word that would pass it is left
    out, but the first word is always shown): a corpus of long words (Chinese or Japanese
    under whitespace pre-tokenization, cut at 1,000 characters) would otherwise draw hundreds
    of thousands of tokens. With `max_word_chars`, a longer word is split on its first
    `max_word_chars` characters only (`cut=True`): applying thousands of merges to a
    1,000-character word takes a large fraction of a second in Python, per word and step.
    """
    enc = encoder or MergeEncoder(model)
    idx = list(range(len(model.words)))
    if order == "frequent" or (order == "auto" and len(idx) > max_words):
        idx.sort(key=lambda i: -model.freqs[i])
    out: list[WordView] = []
    shown = 0
    for i in idx[:max_words]:
        w = model.words[i]
        cut = max_word_chars is not None and len(w) > max_word_chars
        shown_word = w[:max_word_chars] if cut else w
        ids, _ = enc.apply(enc.start_ids(shown_word, marker=not cut), step)
        if max_tokens is not None and out and shown + len(ids) > max_tokens:
            break
        shown += len(ids)
        tokens = tuple((enc.symbol_of(t) or enc.id_bytes(t), t) for t in ids)
        out.append(WordView(w, model.freqs[i], tokens, cut=cut))
    return out


# ------------------------------------------------------------------ real tokenizers


def model_id(model: BPEModel) -> str:
    """A stable id from the options and merges: ``"trained-3f9a0c1b2d4e"``."""
    h = hashlib.sha256(repr((model.options, model.base, model.merges)).encode("utf-8", "surrogatepass"))
    return "trained-" + h.hexdigest()[:12]


def tiktoken_problem(model: BPEModel) -> str:
    """Empty if the model can become a tiktoken Encoding, else the reason it cannot."""
    if not model.options.byte_level:
        return (
            "it was trained on characters: tiktoken needs byte-level merges (every one of the 256 "
            "byte values must be a token, or text with an unseen character cannot be encoded)"
        )
    if model.options.end_marker:
        return "it uses an end-of-word marker, which tiktoken has no way to express"
    return ""


def tiktoken_ranks(model: BPEModel) -> dict[bytes, int]:
    """Ranks for tiktoken: the 256 single bytes (0-255), then each new token in merge order.

    Checked before use (every byte has a rank, no two tokens share one); raises BPEError.
    """
    reason = tiktoken_problem(model)
    if reason:
        raise BPEError(f"this model cannot be exported to tiktoken: {reason}")
    ranks = {sym: i for i, sym in enumerate(model.vocab) if isinstance(sym, bytes)}  # others: refused below
    if len(ranks) != len(model.vocab) or any(not isinstance(s, bytes) for s in ranks):
        raise BPEError("the vocabulary has a repeated or non-byte token; retrain with byte-level symbols")
    try:
        validate_ranks(ranks)
    except VocabularyError as exc:
        raise BPEError(f"the ranks are not usable by tiktoken: {exc}") from None
    return ranks


def export_pattern(model: BPEModel) -> str:
    """The pre-tokenization regex the exported Encoding uses (same split as training)."""
    pre = model.options.pretokenizer
    return WHITESPACE_EXPORT_PATTERN if pre == WHITESPACE else PATTERNS[pre].regex


def to_tiktoken(model: BPEModel, *, name: str | None = None):
    """A `tiktoken.Encoding` with the model's merges as ranks. Raises BPEError, never panics."""
    import tiktoken

    ranks = tiktoken_ranks(model)
    try:
        return tiktoken.Encoding(
            name or model_id(model), pat_str=export_pattern(model), mergeable_ranks=ranks, special_tokens={}
        )
    except BaseException as exc:  # pyo3 PanicException derives from BaseException  # noqa: BLE001
        if isinstance(exc, (KeyboardInterrupt, SystemExit)):
            raise
        raise BPEError(f"tiktoken rejected the vocabulary: {exc}") from None


@dataclass(frozen=True, slots=True)
class Agreement:
    """How often tiktoken's rank rule gives the same tokens as the merge list, per training word."""

    same: int
    total: int
    examples: tuple[str, ...]

    @property
    def all_same(self) -> bool:
        return self.same == self.total


def export_agreement(model: BPEModel, encoding, *, max_words: int = 200_000) -> Agreement:
    """Compare tiktoken's encoding of each distinct training word with the merge list's.

    tiktoken merges by the rank of the joined bytes, the merge list by the rank of the pair;
    they agree unless a token's bytes can be built from two different pairs.
    """
    enc = MergeEncoder(model)
    same = total = 0
    examples: list[str] = []
    for w in model.words[:max_words]:
        ids = enc.encode_word(w)
        got = encoding._encode_single_piece(w.encode("utf-8"))
        total += 1
        if list(got) == ids:
            same += 1
        elif len(examples) < 5:
            examples.append(w)
    return Agreement(same, total, tuple(examples))


def tokenizer_info(model: BPEModel, *, name: str) -> TokenizerInfo:
    """The TokenizerInfo of a trained model (kind "trained")."""
    opts = model.options
    n_vocab = len(model.vocab) + (0 if opts.byte_level else 256)
    where = f"{model.total_words:,} words" if model.words else "a saved file"
    engine = "tiktoken" if not tiktoken_problem(model) else "Python (merges applied in order)"
    return TokenizerInfo(
        model_id(model), name.strip() or "my BPE", "Trained here (BPE)", (), n_vocab,
        f"BPE playground: {len(model.steps):,} merges learned from {where}; {opts.describe()}; "
        f"encodes with {engine}",
        "yours", kind="trained",
        notes="" if opts.byte_level else "Characters unseen in training fall back to their UTF-8 bytes.",
    )  # fmt: skip


class BPETokenizer(Tokenizer):
    """A trained model as a Tokenizer, applying its merges in Python.

    Ids: the model's vocabulary (start symbols, then new tokens in merge order), then for a
    character-level model 256 byte ids for characters never seen in training. Whitespace
    between words (whitespace pre-tokenization) is encoded as its own symbols, so
    ``decode(encode(text)) == text`` for any text (unless a custom marker also occurs as text).
    """

    def __init__(self, info: TokenizerInfo, model: BPEModel) -> None:
        self.info = info
        self.model = model
        self._enc = MergeEncoder(model)

    @property
    def special_tokens(self) -> Mapping[str, int]:
        return {}

    @property
    def n_vocab(self) -> int:
        return len(self.model.vocab) + (0 if self.model.options.byte_level else 256)

    def encode(self, text: str, *, allow_special: bool = False) -> list[int]:
        text = clean_text(text)
        enc = self._enc
        out: list[int] = []
        for _, piece, is_word in pieces_with_offsets(text, self.model.options.pretokenizer):
            if is_word:
                out.extend(enc.encode_word(piece))
            else:
                out.extend(enc.start_ids(piece, marker=False))
        return out

    def decode(self, ids: Sequence[int]) -> str:
        return b"".join(self.token_bytes(i) for i in ids).decode("utf-8", "replace")

    def token_bytes(self, token_id: int) -> bytes:
        if not 0 <= token_id < self.n_vocab:
            raise KeyError(f"token id {token_id} is outside this vocabulary (0-{self.n_vocab - 1})")
        return self._enc.id_bytes(token_id)

    def segments(self, text: str, *, allow_special: bool = False) -> list[Segment]:
        _, segments, _ = encode_pieces(self._enc, clean_text(text))
        return segments


def trained_tokenizer(model: BPEModel, *, name: str) -> Tokenizer:
    """The model as a Tokenizer for every page: tiktoken when exportable, else BPETokenizer."""
    if not model.steps and not model.base:
        raise BPEError("the model is empty: train it first")
    info = tokenizer_info(model, name=name)
    if tiktoken_problem(model):  # a reason it cannot be tiktoken
        return BPETokenizer(info, model)
    return tokenizer_from_encoding(to_tiktoken(model, name=info.id), info)


__all__ = [
    "Agreement", "BPETokenizer", "FiredMerge", "MergeEncoder", "Probe", "ProbeToken", "WordView",
    "encode_pieces", "export_agreement", "export_pattern", "tiktoken_problem", "model_id", "pair_ranks",
    "probe_bpe", "bpe_symbol_label", "tiktoken_ranks", "to_tiktoken", "tokenizer_info", "trained_tokenizer",
    "bpe_words_at_step",
]  # fmt: skip
