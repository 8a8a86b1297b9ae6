"""A user's own tokenizer, from an uploaded `.tiktoken` file (with a known pattern) or a Hugging
Face `tokenizer.json`, checked before it is used: anything its engine would reject, panic on or
pay too much for is a :class:`VocabularyError` that says what is wrong.

Its id comes from the file's bytes and the settings chosen with it, so results cached by id are
shared by every session that uploads the same tokenizer, and never by two that differ.
"""

from __future__ import annotations

import re
from typing import Any

from . import patterns
from .encoders import TiktokenTokenizer, Tokenizer, TokenizerInfo, engine_problem
from .hf_cost import pipeline_problem
from .hf_engine import HFTokenizer
from .hf_schema import hf_json_problem
from .registry import tiktoken_encoding
from .vocab import VocabularyError, parse_tiktoken, sha256_bytes, validate_ranks

MAX_UPLOAD_BYTES = 60_000_000

# Ordinary texts a user's tokenizer.json must encode before it is accepted. The long runs catch
# a pre-tokenizer regex that backtracks without end: the engine then panics on everyday text.
PROBE_TEXTS = (
    "hello world",
    "The quick brown fox jumps over the lazy dog. It's 3.14159, isn't it?\n\tdef f(x): return x",
    "naïve café 😀 नमस्ते 你好世界 مرحبا Привет",
    "a" * 60 + "!",
    "word " * 60 + "!",
    "1234567890" * 12 + " " + "-" * 80,
)


def _custom_id(data: bytes, *settings: object) -> str:
    """An id from everything that changes what the tokenizer does: the file's bytes and the
    settings chosen with it (pattern, special tokens). Results are cached by id for every
    session, so two uploads that tokenize differently must never share one.
    ``_custom_id(b"x") != _custom_id(b"x", "r50k")``.
    """
    digest = sha256_bytes(data)
    if settings:
        digest = sha256_bytes(digest.encode() + repr(settings).encode("utf-8", "surrogatepass"))
    return "custom-" + digest[:16]


_OWN_ID = re.compile(r"custom-[0-9a-f]{16}")  # as _custom_id makes them


def is_own_id(value: object) -> bool:
    """True for the id of a user's uploaded tokenizer: ``is_own_id("custom-0123456789abcdef")``."""
    return isinstance(value, str) and _OWN_ID.fullmatch(value) is not None


# Special tokens follow the ordinary ranks (cl100k's <|endoftext|> is 100257, two past its last
# rank; Llama 3 reserves 256 ids): an id far past the last rank would size the vocabulary by it.
MAX_RANK_GAP_SPECIAL = 10_000


def tokenizer_from_tiktoken_bytes(
    data: bytes,
    *,
    name: str,
    pattern_id: str,
    special_tokens: dict[str, int] | None = None,
) -> Tokenizer:
    """A user's `.tiktoken` file with one of the known pre-tokenization patterns.

    Raises VocabularyError with a readable message for anything tiktoken would reject or
    panic on (missing single bytes, duplicate ranks, bad lines, unknown pattern).
    """
    if len(data) > MAX_UPLOAD_BYTES:
        raise VocabularyError(f"the file is {len(data):,} bytes; the limit is {MAX_UPLOAD_BYTES:,}")
    if pattern_id not in patterns.PATTERNS:
        raise VocabularyError(f"unknown pattern {pattern_id!r}; choose one of {list(patterns.PATTERNS)}")
    ranks = parse_tiktoken(data)
    validate_ranks(ranks)
    specials = dict(special_tokens or {})
    top = max(ranks.values())
    clash = [s for s, i in specials.items() if i <= top]
    if clash:
        raise VocabularyError(f"special token ids must be above the last rank {top}: {clash[:3]}")
    far = [s for s, i in specials.items() if i > top + MAX_RANK_GAP_SPECIAL]
    if far:
        raise VocabularyError(
            f"special token ids must follow the last rank {top:,} (within {MAX_RANK_GAP_SPECIAL:,}): {far[:3]}"
        )
    name = name.strip() or "my tokenizer"
    info = TokenizerInfo(
        _custom_id(data, pattern_id, sorted(specials.items())), name, "Custom (.tiktoken)", (), len(ranks) + len(specials),
        f"uploaded .tiktoken, sha256 {sha256_bytes(data)[:12]}..., pattern "
        f"{patterns.PATTERNS[pattern_id].label}",
        "as uploaded", kind="custom",
    )  # fmt: skip
    try:
        enc = tiktoken_encoding(info.id, patterns.PATTERNS[pattern_id].regex, ranks, specials)
    except BaseException as exc:  # tiktoken panics are BaseException  # noqa: BLE001
        if isinstance(exc, (KeyboardInterrupt, SystemExit)):
            raise
        raise VocabularyError(f"tiktoken rejected the vocabulary: {exc}") from None
    return TiktokenTokenizer(info, enc, newline_safe=True)


# Tokens per character no real tokenizer reaches on the probe texts. A byte-level or byte-fallback
# model makes at most one token per UTF-8 byte, and a character is at most 4 bytes, so 4 is the
# worst honest case (the probes' emoji, Devanagari and CJK, all as single bytes, stay under it);
# twice that leaves room for a Prepend or Metaspace marker per word.
MAX_PROBE_TOKENS_PER_CHAR = 8


def _parsed_json(text: str) -> Any:
    """The JSON of an upload, or None when it does not parse (hf_json_problem then says why)."""
    import json

    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def tokenizer_from_hf_json(data: bytes, *, name: str) -> Tokenizer:
    """A user's Hugging Face `tokenizer.json`. Raises VocabularyError for a bad file.

    Before anything is built, its steps are checked for what they may cost (hf_cost): a step
    that can grow the text is refused. Then it must encode the probe texts without failing
    and with no more than MAX_PROBE_TOKENS_PER_CHAR tokens per character.
    """
    if len(data) > MAX_UPLOAD_BYTES:
        raise VocabularyError(f"the file is {len(data):,} bytes; the limit is {MAX_UPLOAD_BYTES:,}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise VocabularyError("a tokenizer.json must be UTF-8 JSON; this file is not") from None
    doc = _parsed_json(text)
    if isinstance(doc, dict) and (problem := pipeline_problem(doc)):
        raise VocabularyError(f"this tokenizer.json cannot be used: {problem}")
    del doc
    import tokenizers

    try:
        tk = tokenizers.Tokenizer.from_str(text)
    except Exception as exc:  # the Rust side raises plain Exception subclasses
        problem = hf_json_problem(text, str(exc))
        raise VocabularyError(f"not a usable Hugging Face tokenizer.json: {problem}") from None
    for probe in PROBE_TEXTS:
        try:
            n_tokens = len(tk.encode(probe, add_special_tokens=False).ids)
        except BaseException as exc:  # a Rust panic is a BaseException  # noqa: BLE001
            if isinstance(exc, (KeyboardInterrupt, SystemExit)):
                raise
            raise VocabularyError(
                f"it fails on ordinary text such as {probe[:24]!r}: {engine_problem(exc)}. "
                "Fix the pattern of its pre-tokenizer's Split step, or use another file"
            ) from None
        if n_tokens > MAX_PROBE_TOKENS_PER_CHAR * len(probe):
            raise VocabularyError(
                f"this tokenizer.json cannot be used: it makes {n_tokens:,} tokens of the "
                f"{len(probe)} characters {probe[:24]!r}, more than {MAX_PROBE_TOKENS_PER_CHAR} "
                "per character, which no real tokenizer does (one per byte is the most)"
            )
    model = type(tk.model).__name__
    name = name.strip() or "my tokenizer"
    info = TokenizerInfo(
        _custom_id(data), name, f"Custom (tokenizer.json, {model})", (),
        tk.get_vocab_size(with_added_tokens=True),
        f"uploaded tokenizer.json, sha256 {sha256_bytes(data)[:12]}...", "as uploaded",
        kind="custom",
    )  # fmt: skip
    return HFTokenizer(info, tk)


def tokenizer_from_encoding(encoding, info: TokenizerInfo) -> Tokenizer:
    """Wrap a ready `tiktoken.Encoding` (e.g. one trained in the BPE playground)."""
    return TiktokenTokenizer(info, encoding, newline_safe=False)
