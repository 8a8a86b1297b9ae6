"""One interface over every real tokenizer the app uses, and the tiktoken encodings behind it
(Hugging Face `tokenizers` behind it: `hf_engine`).

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

from .native import check_text, engine_specials, vocabulary_problem
from .segments import Segment, remap_segments, resegment, segments_from_pieces

# A user's tokenizer can panic in Rust on some text (its regex gives up: onig, inside
# `tokenizers`); engine_guard turns that into a message on the page, but Rust's panic hook also
# writes to the server log, and with RUST_BACKTRACE set (as in many shells and images) each
# panic wrote a 40-line backtrace there. The panic is expected and handled, so the log gets its
# message alone. Rust reads the variable at the first panic, after this import.
os.environ["RUST_BACKTRACE"] = "0"

if TYPE_CHECKING:
    import numpy as np
    import tiktoken

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

    def token_bytes_many(self, token_ids: Sequence[int]) -> list[bytes]:
        """`token_bytes` of each id, in one call (one message for a tokenizer in another process)."""
        return [self.token_bytes(i) for i in token_ids]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.info.id!r}>"


class RemoteTokenizer(Tokenizer):
    """A tokenizer whose real one lives in another process (a user's upload:
    tokenizer_core.hosted.HostedTokenizer). Code that reads a real tokenizer's internals (the
    inside pages) runs there with `run`; `cut_rule` is the real one's chunking rule
    (tokenizer_core.chunking.safe_cuts.cut_rule)."""

    cut_rule: str | None = None

    @abstractmethod
    def run(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        """``fn(real_tokenizer, *args, **kwargs)`` in the other process (a module-level `fn`,
        picklable arguments and answer)."""


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
