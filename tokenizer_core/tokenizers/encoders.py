"""One interface over every real tokenizer the app uses: tiktoken encodings and HF `tokenizers`.

Pages and the other core modules only talk to :class:`Tokenizer`: encode, count, decode, the
bytes of a token, and display segments. Special-token text such as ``<|endoftext|>`` counts as
plain text unless ``allow_special=True`` is passed, so user input never raises.
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import regex

from .hf_cost import CostProblem, Growth, pipeline_growth
from .native import check_text, engine_specials, vocabulary_problem
from .segments import Segment, remap_segments, resegment, segments_from_offsets, segments_from_pieces

# A user's tokenizer can panic in Rust on some text (its regex gives up: onig, inside
# `tokenizers`); engine_guard turns that into a message on the page, but Rust's panic hook also
# writes to the server log, and with RUST_BACKTRACE set (as in many shells and images) each
# panic wrote a 40-line backtrace there. The panic is expected and handled, so the log gets its
# message alone. Rust reads the variable at the first panic, after this import.
os.environ["RUST_BACKTRACE"] = "0"

if TYPE_CHECKING:
    import numpy as np
    import tiktoken
    import tokenizers

# Texts from this many characters up are encoded by the native engine when a tokenizer has one.
NATIVE_MIN_CHARS = 500_000
# The native engine must agree with tiktoken on these before it is used.
_NATIVE_CHECK_TEXTS = (
    "hello world",
    "Hello, World! don't STOP 1234567 3.14159 <|endoftext without bars \t\n\n  x",
    " электронной почте iletişime geçtiğiniz ఆఛ\u0c74\u0c5cాాక",
    "naïve café 😀👨\u200d👩\u200d👧 🇮🇳 नमस्ते दुनिया 你好世界 مرحبا بالعالم こんにちは Привет",
    "def f(x):\n    return {'a': [1, 2]}  # comment\r\n\tif x != None:\n        pass\n",
)


@dataclass(frozen=True, slots=True)
class TokenizerInfo:
    """What a user needs to know about a tokenizer before trusting its numbers."""

    id: str
    name: str
    family: str
    models: tuple[str, ...]
    vocab_size: int
    source: str
    license: str
    kind: str = "builtin"  # builtin | custom | trained
    notes: str = ""
    extra: Mapping[str, str] = field(default_factory=dict)


_SURROGATE = re.compile("[\ud800-\udfff]")


def clean_text(text: str) -> str:
    """Replace each lone surrogate (which no UTF-8 text contains) with one U+FFFD.

    ``clean_text("a\\ud800b") -> "a\\ufffdb"``; any other text is returned unchanged (the same
    object). The length never changes, so offsets into the cleaned text are offsets into the
    input. tiktoken does the same to a lone surrogate, so ids match it. A Python string that
    holds a high and a low surrogate side by side (made only by ``surrogatepass`` decoding; a
    browser or a UTF-8 file never sends one) gets two U+FFFD, where tiktoken would join them
    into one character: joining would shift every offset after it.
    """
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", text)


# A cut right after a lone "\n" (preceded by a non-space) and before an ASCII letter never falls
# inside a pre-token of the GPT-style patterns (see tokenizer_core.tokenizers.patterns), and the pre-token
# that ends there is the same whether or not the text goes on; so encoding the pieces separately
# gives the same ids as encoding the whole text. (A run of newlines is not a safe place: r50k's
# `\s+(?!\S)` splits "\n\na" as "\n", "\n", "a" but a piece ending in "\n\n" as one token.)
_THREADS = max(1, min(8, os.cpu_count() or 2))
SAFE_CUT = re.compile(r"(?<=\S\n)(?=[A-Za-z])")


def split_for_batch(text: str, target: int = 100_000) -> list[str]:
    """Cut `text` into pieces of about `target` characters at newline-before-letter points.

    ``"".join(split_for_batch(t)) == t`` always; a text without such points stays whole.
    """
    if len(text) <= target:
        return [text]
    pieces: list[str] = []
    start = 0
    while len(text) - start > target:
        m = SAFE_CUT.search(text, start + target)
        if m is None:
            break
        pieces.append(text[start : m.start()])
        start = m.start()
    pieces.append(text[start:])
    return pieces


def view_windows(text: str, size: int = 12_000) -> list[tuple[int, int, bool]]:
    """Cut `text` into parts of about `size` characters for paging a coloured view.

    Returns ``(start, end, exact)`` triples covering the text in order. Cuts come from
    split_for_batch where possible (exact: tokens match the whole text); a part still longer
    than 3 x `size` is cut after whitespace, where the token next to the cut may differ from
    the whole text's (exact=False). ``view_windows("abc") -> [(0, 3, True)]``.
    """
    out: list[tuple[int, int, bool]] = []
    pos = 0
    for piece in split_for_batch(text, size):
        end = pos + len(piece)
        start = pos
        while end - start > 3 * size:
            cut = text.rfind(" ", start + size // 2, start + size) + 1 or start + size
            out.append((start, cut, False))
            start = cut
        out.append((start, end, start == pos))
        pos = end
    return out or [(0, 0, True)]


class Tokenizer(ABC):
    """A real tokenizer. Subclasses wrap a concrete library."""

    info: TokenizerInfo

    @property
    def id(self) -> str:
        return self.info.id

    @property
    def name(self) -> str:
        return self.info.name

    @property
    @abstractmethod
    def special_tokens(self) -> Mapping[str, int]:
        """Special-token text -> id."""

    @property
    @abstractmethod
    def n_vocab(self) -> int:
        """Number of token ids, special tokens included."""

    @abstractmethod
    def encode(self, text: str, *, allow_special: bool = False) -> list[int]:
        """Token ids of `text`. Special-token text is plain text unless `allow_special`."""

    def count(self, text: str, *, allow_special: bool = False) -> int:
        """Number of tokens in `text` (same rule as encode)."""
        return len(self.encode(text, allow_special=allow_special))

    def count_many(self, texts: Sequence[str], *, allow_special: bool = False) -> list[int]:
        """Token counts of many texts."""
        return [self.count(t, allow_special=allow_special) for t in texts]

    @abstractmethod
    def decode(self, ids: Sequence[int]) -> str:
        """Text of `ids` (invalid UTF-8 shown as U+FFFD)."""

    @abstractmethod
    def token_bytes(self, token_id: int) -> bytes:
        """The raw bytes a single token stands for."""

    @abstractmethod
    def segments(self, text: str, *, allow_special: bool = False) -> list[Segment]:
        """Display segments covering `text` exactly (see tokenizer_core.tokenizers.segments)."""

    def segments_after(
        self, text: str, *, previous: Sequence[Segment], allow_special: bool = False
    ) -> list[Segment]:
        """`segments(text)`, given `previous`: this tokenizer's segments of an earlier version of
        the text (same `allow_special`). A tokenizer that can reuse them (only what changed is
        grouped again) says so by overriding this."""
        return self.segments(text, allow_special=allow_special)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.info.id!r}>"


class TiktokenTokenizer(Tokenizer):
    """A `tiktoken.Encoding`, optionally NFC-normalising its input first (Qwen does)."""

    def __init__(
        self,
        info: TokenizerInfo,
        encoding: tiktoken.Encoding,
        *,
        normalize_nfc: bool = False,
        newline_safe: bool = True,
        native_loader: Callable[[], Any] | None = None,
    ) -> None:
        self.info = info
        self.encoding = encoding
        self.normalize_nfc = normalize_nfc
        self.newline_safe = newline_safe
        self._special_ids = frozenset(encoding._special_tokens.values())
        self._native_loader = native_loader
        self._native: Any = None
        self._native_lock = threading.Lock()

    @property
    def native(self) -> Any:
        """A native batch encoder of the same vocabulary (splintr), loaded on first use, or None.

        Used only for ordinary encoding of large texts (NATIVE_MIN_CHARS and up), where it is
        several times faster than tiktoken. Before first use it must know exactly the ordinary
        ids of this encoding (the hash-checked vocabulary, decoded id by id) and no id past
        them, so it has no special token of its own; and it must give tiktoken's ordinary ids
        on check texts and on a text of NATIVE_MIN_CHARS holding every special-token string
        it or this encoding knows. Otherwise it is never used. The tests compare the two on
        random text.
        """
        if self._native is None and self._native_loader is not None:
            with self._native_lock:
                if self._native is None and self._native_loader is not None:
                    loader, self._native_loader = self._native_loader, None
                    try:
                        engine = loader()
                        ok = self._engine_agrees(engine)
                    except (KeyboardInterrupt, SystemExit):
                        raise
                    except BaseException:  # noqa: BLE001  (a broken optional engine, even one that
                        ok = False  # panics in Rust, a BaseException, is just not used)
                    self._native = engine if ok else None
        return self._native

    def _engine_agrees(self, engine: Any) -> bool:
        """True when `engine` holds this vocabulary and nothing more, and gives tiktoken's ids."""
        import numpy as np

        if vocabulary_problem(engine, self.encoding._mergeable_ranks) is not None:
            return False
        specials = set(self.encoding._special_tokens) | engine_specials(engine)
        large = self._prepare(check_text(_NATIVE_CHECK_TEXTS, specials, min_chars=NATIVE_MIN_CHARS))
        pieces = [*_NATIVE_CHECK_TEXTS, *(split_for_batch(large) if self.newline_safe else [large])]
        arrays = self._native_arrays(pieces, engine)
        if arrays is None:
            return False
        n = len(_NATIVE_CHECK_TEXTS)
        small_ok = all(
            a.tolist() == self.encoding.encode_ordinary(t) for t, a in zip(_NATIVE_CHECK_TEXTS, arrays)
        )
        joined = np.concatenate(arrays[n:]).tolist()
        return small_ok and joined == self.encoding.encode_ordinary(large)

    def _native_arrays(self, pieces: Sequence[str], engine: Any = None) -> list[np.ndarray] | None:
        """Ordinary ids of each (prepared) piece, encoded in parallel by the native engine; None
        without an engine. The engine knows no special token, so special-token text is text."""
        import numpy as np

        engine = engine if engine is not None else self._native
        if engine is None:
            return None
        if not pieces:
            return []
        ids, offsets = engine.encode_batch_flat(list(pieces))
        flat = np.frombuffer(ids, dtype="<u4").astype(np.int64)
        ends = np.frombuffer(offsets, dtype="<u8").astype(np.int64)
        return [flat[ends[i] : ends[i + 1]] for i in range(len(pieces))]

    def ordinary_id_arrays(self, pieces: Sequence[str]) -> list[np.ndarray]:
        """Ordinary token ids of each piece as int64 arrays, encoded in parallel.

        Pieces are encoded as given: no NFC normalisation (callers check it) and special-token
        text stays text. ``ordinary_id_arrays(["hello world"])`` -> ``[array([24912, 2375])]``
        for o200k_base.
        """
        import numpy as np

        pieces = [clean_text(p) for p in pieces]
        if sum(map(len, pieces)) >= NATIVE_MIN_CHARS and self.native is not None:
            arrays = self._native_arrays(pieces)
            if arrays is not None:
                return arrays
        batches = self.encoding.encode_ordinary_batch(pieces, num_threads=_THREADS)
        return [np.asarray(b, dtype=np.int64) for b in batches]

    @property
    def pattern(self) -> str | None:
        """The pre-tokenization regex of this encoding (one of :mod:`patterns` for the built-ins),
        or None if the encoding does not say: ``load_builtin("cl100k_base").pattern == patterns.CL100K``."""
        pat = getattr(self.encoding, "_pat_str", None)  # tiktoken keeps it only as a private attribute
        return pat if isinstance(pat, str) else None

    @property
    def special_tokens(self) -> Mapping[str, int]:
        return dict(self.encoding._special_tokens)

    @property
    def n_vocab(self) -> int:
        return self.encoding.n_vocab

    def _prepare(self, text: str) -> str:
        text = clean_text(text)
        if self.normalize_nfc and not unicodedata.is_normalized("NFC", text):
            text = unicodedata.normalize("NFC", text)
        return text

    def _encode_prepared(self, text: str, allow_special: bool) -> list[int]:
        if allow_special:
            return self.encoding.encode(text, allowed_special="all")
        return self.encoding.encode_ordinary(text)

    def encode(self, text: str, *, allow_special: bool = False) -> list[int]:
        return self._encode_prepared(self._prepare(text), allow_special)

    def count(self, text: str, *, allow_special: bool = False) -> int:
        text = self._prepare(text)
        pieces = split_for_batch(text) if self.newline_safe else [text]
        if not allow_special and len(text) >= NATIVE_MIN_CHARS and self.native is not None:
            arrays = self._native_arrays(pieces)
            if arrays is not None:
                return sum(map(len, arrays))
        if len(pieces) == 1:
            return len(self._encode_prepared(text, allow_special))
        if allow_special:
            batches = self.encoding.encode_batch(pieces, allowed_special="all", num_threads=_THREADS)
        else:
            batches = self.encoding.encode_ordinary_batch(pieces, num_threads=_THREADS)
        return sum(map(len, batches))

    def count_many(self, texts: Sequence[str], *, allow_special: bool = False) -> list[int]:
        prepared = [self._prepare(t) for t in texts]
        total = sum(map(len, prepared))
        if total < 200_000:
            return [len(self._encode_prepared(t, allow_special)) for t in prepared]
        if not allow_special and total >= NATIVE_MIN_CHARS and self.native is not None:
            arrays = self._native_arrays(prepared)
            if arrays is not None:
                return [len(a) for a in arrays]
        if allow_special:
            batches = self.encoding.encode_batch(prepared, allowed_special="all", num_threads=_THREADS)
        else:
            batches = self.encoding.encode_ordinary_batch(prepared, num_threads=_THREADS)
        return [len(b) for b in batches]

    def decode(self, ids: Sequence[int]) -> str:
        return self.encoding.decode(list(ids), errors="replace")

    def token_bytes(self, token_id: int) -> bytes:
        return self.encoding.decode_single_token_bytes(token_id)

    def segments(self, text: str, *, allow_special: bool = False) -> list[Segment]:
        text = clean_text(text)
        if self.normalize_nfc and not unicodedata.is_normalized("NFC", text):
            return self._segments_normalized(text, allow_special)
        ids = self._encode_prepared(text, allow_special)
        pieces = self.encoding.decode_tokens_bytes(ids)
        return segments_from_pieces(ids, pieces, special_ids=self._special_ids)

    def segments_after(
        self, text: str, *, previous: Sequence[Segment], allow_special: bool = False
    ) -> list[Segment]:
        if self.normalize_nfc:  # segments carried back from normalised text: not ids alone
            return self.segments(text, allow_special=allow_special)
        ids = self._encode_prepared(clean_text(text), allow_special)
        return resegment(
            previous, ids, pieces=self.encoding.decode_tokens_bytes, special_ids=self._special_ids
        )

    def _segments_normalized(self, text: str, allow_special: bool) -> list[Segment]:
        # Normalise grapheme by grapheme so offsets can be carried back to the input.
        parts = regex.findall(r"\X", text)
        normalized = []
        boundaries = {0: 0}
        n_pos = o_pos = 0
        for g in parts:
            ng = unicodedata.normalize("NFC", g)
            normalized.append(ng)
            n_pos += len(ng)
            o_pos += len(g)
            boundaries[n_pos] = o_pos
        norm_text = "".join(normalized)
        whole = unicodedata.normalize("NFC", text)
        ids = self._encode_prepared(whole, allow_special)
        if norm_text != whole:  # normalisation crossed a grapheme boundary: one honest segment
            return [Segment(0, len(text), tuple(ids), text, text.encode("utf-8"))]
        pieces = self.encoding.decode_tokens_bytes(ids)
        segs = segments_from_pieces(ids, pieces, special_ids=self._special_ids)
        return remap_segments(segs, text, boundaries)


class TokenizerFailed(RuntimeError):
    """A user's tokenizer broke inside its engine on some text; other tokenizers are unaffected.

    `problem` says what went wrong in a user's words; pages put the tokenizer's name in front.
    """

    def __init__(self, tokenizer_id: str, problem: str) -> None:
        self.tokenizer_id = tokenizer_id
        self.problem = problem
        super().__init__(f"{tokenizer_id} could not tokenize the text: {problem}")


def engine_problem(exc: BaseException) -> str:
    """A user's words for an engine failure: ``PanicException("...retry-limit-in-match...")`` ->
    "its pre-tokenization regex gives up on this text (...)"."""
    first = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:160]
    if "retry-limit" in first or "Regex" in first or "regex" in first:
        return "its pre-tokenization regular expression gives up on this text (it backtracks too much)"
    return f"its engine stopped with an internal error ({first})"


@contextlib.contextmanager
def engine_guard(tokenizer_id: str) -> Iterator[None]:
    """Turn any failure inside a tokenizer engine into TokenizerFailed.

    Rust engines panic with `pyo3_runtime.PanicException`, a BaseException that `except
    Exception` (and Streamlit's script runner) does not catch: the script thread would die.
    Interrupts and exits pass through.
    """
    try:
        yield
    except (KeyboardInterrupt, SystemExit, GeneratorExit, TokenizerFailed):
        raise
    except BaseException as exc:  # noqa: BLE001  (PanicException derives from BaseException)
        raise TokenizerFailed(tokenizer_id, engine_problem(exc)) from None


_BYTE_TOKEN = re.compile(r"^<0x([0-9A-Fa-f]{2})>$")

# A user's tokenizer.json may turn a text into at most this many characters per character before
# its model makes tokens (checked on each text before it is encoded; at most one token per UTF-8
# byte follows, so at most 4 per character). Real ones stay near 1: byte-level turns a character
# into at most 4 (one per UTF-8 byte), Metaspace adds one marker per word; only a text made of
# rare NFKC expansions such as U+FDFA (18 characters) goes past. Past this, the engine's memory
# grows with the output (about 1.4 GB for 5 million tokens), so the text is not counted.
MAX_GROWTH_PER_CHAR = 8
_GROWTH_CHUNK = 1024  # characters normalised at a time while measuring the growth


def _gpt2_byte_decoder() -> dict[str, int]:
    """The printable-character alphabet byte-level BPE vocabularies use for the 256 bytes."""
    keep = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    chars = list(keep)
    n = 0
    for b in range(256):
        if b not in keep:
            keep.append(b)
            chars.append(256 + n)
            n += 1
    return {chr(c): b for b, c in zip(keep, chars)}


def _own_growth(tokenizer: tokenizers.Tokenizer) -> Growth:
    """The worst-case growth of a loaded tokenizer's normaliser and pre-tokenizer (hf_cost)."""
    import json

    steps = {
        key: json.loads(step.__getstate__()) if step is not None else None
        for key, step in (("normalizer", tokenizer.normalizer), ("pre_tokenizer", tokenizer.pre_tokenizer))
    }
    try:
        return pipeline_growth(steps)
    except CostProblem:  # refused at upload; one built some other way is measured, as the worst
        return Growth(normalizer=MAX_GROWTH_PER_CHAR + 1, pre_tokenizer=8)  # ByteLevel + Metaspace


def _uses_byte_level(tokenizer: tokenizers.Tokenizer) -> bool:
    """True when a step around the model (normalizer, pre-tokenizer, post-processor, decoder) is
    ByteLevel. Each step's JSON is read alone: the whole tokenizer's (``to_str``) is the size of
    the file, and serialising a 60 MB vocabulary holds the interpreter for seconds."""
    steps = (tokenizer.normalizer, tokenizer.pre_tokenizer, tokenizer.post_processor, tokenizer.decoder)
    return any(step is not None and b'"ByteLevel"' in step.__getstate__() for step in steps)


class HFTokenizer(Tokenizer):
    """A Hugging Face `tokenizers.Tokenizer` loaded from a `tokenizer.json`.

    `added_are_special`: treat every added token as a special token (shown and counted as one),
    for vocabularies whose non-special added tokens are chat-format markers (DeepSeek's
    ``<｜User｜>``). tokenizers matches such tokens in any text, so a user's ``<think>`` is one
    token either way, as in the model's own tokenizer.

    `newline_safe`: the pre-tokenizer never joins a lone newline after a non-space with the
    letter that follows, and no added token contains one (see split_for_batch), so a large
    text is counted in pieces encoded in parallel, with the ids of a single call. Only for
    built-ins whose tests check it.
    """

    def __init__(
        self,
        info: TokenizerInfo,
        tokenizer: tokenizers.Tokenizer,
        *,
        added_are_special: bool = False,
        newline_safe: bool = False,
    ) -> None:
        self.info = info
        self.tokenizer = tokenizer
        self.newline_safe = newline_safe
        added = tokenizer.get_added_tokens_decoder()
        self._special = {tok.content: tid for tid, tok in added.items() if tok.special or added_are_special}
        self._special_ids = frozenset(self._special.values())
        self._byte_level = _uses_byte_level(tokenizer)
        self._byte_decoder = _gpt2_byte_decoder() if self._byte_level else {}
        # a user's file: the growth its steps allow, to measure texts before encoding them
        self._growth = _own_growth(tokenizer) if info.kind != "builtin" else None
        # `encode_special_tokens` is state on the shared object: set it and encode under a lock
        self._lock = threading.Lock()

    @property
    def byte_level(self) -> bool:
        """True for a byte-level BPE (GPT-2's byte alphabet: one vocabulary character per byte)."""
        return self._byte_level

    @property
    def special_tokens(self) -> Mapping[str, int]:
        return dict(self._special)

    @property
    def n_vocab(self) -> int:
        return self.tokenizer.get_vocab_size(with_added_tokens=True)

    def _check_growth(self, texts: Sequence[str]) -> None:
        """Raise TokenizerFailed before a user's tokenizer would make `texts` more than
        MAX_GROWTH_PER_CHAR times longer: its normaliser's output is measured a chunk at a time
        (bounded memory); the pre-tokenizer's worst case is known from its steps."""
        growth = self._growth
        if growth is None or growth.total <= MAX_GROWTH_PER_CHAR:
            return  # a built-in, or steps that cannot grow a text past the bound
        normalizer = self.tokenizer.normalizer
        n_chars = sum(map(len, texts))
        limit = MAX_GROWTH_PER_CHAR * n_chars + 64
        grown = 0.0
        with engine_guard(self.info.id):
            for text in texts:
                for start in range(0, len(text), _GROWTH_CHUNK):
                    chunk = clean_text(text[start : start + _GROWTH_CHUNK])
                    size = len(normalizer.normalize_str(chunk)) if normalizer is not None else len(chunk)
                    grown += size * growth.pre_tokenizer
                    if grown > limit:
                        raise TokenizerFailed(
                            self.info.id,
                            f"its normalizer makes this text more than {MAX_GROWTH_PER_CHAR} times "
                            "longer, which no real tokenizer does, so it was not counted (a "
                            "Replace or Prepend step of the file inserts too much text)",
                        )

    def _encode(self, text: str, allow_special: bool):
        self._check_growth([text])
        with self._lock, engine_guard(self.info.id):
            self.tokenizer.encode_special_tokens = not allow_special
            return self.tokenizer.encode(clean_text(text), add_special_tokens=False)

    def encode(self, text: str, *, allow_special: bool = False) -> list[int]:
        return list(self._encode(text, allow_special).ids)

    def count(self, text: str, *, allow_special: bool = False) -> int:
        if self.newline_safe and len(text) > 200_000:
            pieces = split_for_batch(clean_text(text))
            if len(pieces) > 1:
                return sum(self.count_many(pieces, allow_special=allow_special))
        return len(self._encode(text, allow_special).ids)

    def count_many(self, texts: Sequence[str], *, allow_special: bool = False) -> list[int]:
        self._check_growth(texts)
        with self._lock, engine_guard(self.info.id):
            self.tokenizer.encode_special_tokens = not allow_special
            # counts need no offsets: the offset-free batch call is about 2x faster
            batch = getattr(self.tokenizer, "encode_batch_fast", self.tokenizer.encode_batch)
            encs = batch([clean_text(t) for t in texts], add_special_tokens=False)
        return [len(e.ids) for e in encs]

    def ordinary_id_arrays(self, pieces: Sequence[str]) -> list[np.ndarray]:
        """Token ids of each piece as int64 arrays (special-token text as text), one batch call
        without offsets. ``ordinary_id_arrays(["hello world"])`` -> ``[array([33310, 2058])]``
        for DeepSeek V4."""
        import numpy as np

        self._check_growth(pieces)
        with self._lock:
            self.tokenizer.encode_special_tokens = True
            batch = getattr(self.tokenizer, "encode_batch_fast", self.tokenizer.encode_batch)
            encs = batch([clean_text(p) for p in pieces], add_special_tokens=False)
        return [np.asarray(e.ids, dtype=np.int64) for e in encs]

    def decode(self, ids: Sequence[int]) -> str:
        with engine_guard(self.info.id):
            return self.tokenizer.decode(list(ids), skip_special_tokens=False)

    def token_bytes(self, token_id: int) -> bytes:
        with engine_guard(self.info.id):
            tok = self.tokenizer.id_to_token(token_id)
        if tok is None:
            return b""
        if token_id in self._special_ids:
            return tok.encode("utf-8")
        m = _BYTE_TOKEN.match(tok)
        if m:
            return bytes([int(m.group(1), 16)])
        if self._byte_level and all(c in self._byte_decoder for c in tok):
            return bytes(self._byte_decoder[c] for c in tok)
        return tok.replace("\u2581", " ").removeprefix("##").encode("utf-8")

    def segments(self, text: str, *, allow_special: bool = False) -> list[Segment]:
        text = clean_text(text)
        enc = self._encode(text, allow_special)

        def attach(gap: str, ids: tuple[int, ...]) -> bool:
            return gap.isspace() and self.decode(list(ids)).startswith(gap)

        return segments_from_offsets(
            text, enc.ids, enc.offsets, special_ids=self._special_ids, attach_gap=attach
        )
