"""What a user's tokenizer.json may cost: refuse, before it is built, a file that can grow text.

A normalizer or pre-tokenizer rewrites the text before the model sees it, and the model then
makes at least one token per piece: a ``Replace`` of every character (regex ``.``) by 5,000
"Z"s turned "hello" into 25,000 tokens and a 1,000-character text into gigabytes of memory.
Real tokenizers put a character or two in place of one (``" "`` -> ``"▁"``, ``Prepend "▁"``,
NFKC's widest expansion is 18 characters), so each step here is read from the parsed JSON and
given a worst-case growth (characters out per character in); a step whose inserted text is
longer than a small bound, or a pipeline whose growths multiply past a bound no real tokenizer
comes near, is refused with a sentence naming the step. Nothing is built or run to decide.

``pipeline_problem({"normalizer": {"type": "Replace", "pattern": {"Regex": "."},
"content": "Z" * 5000}})`` -> 'its "normalizer" step Replace puts 5,000 characters ...'.
"""

from __future__ import annotations

import base64
import binascii
import math
import struct
from dataclasses import dataclass
from typing import Any

# Longest text a Replace, Prepend or Metaspace step may put in (real ones use one character:
# "▁", " ", or "``" -> '"'); a decoder's Replace and the model's unknown-token text likewise.
MAX_STEP_CHARS = 16
# Longest text a SentencePiece charsmap (``Precompiled``) may map one character to: NFKC's
# widest expansion, U+FDFA, is 18 characters; twice that is left for custom maps.
MAX_CHARSMAP_CHARS = 36
# Longest unknown token, subword prefix or word suffix: each token the model emits carries a copy
# of it ("[UNK]", "<unk>", "##", "</w>", "<|endoftext|>" are 2 to 13 characters).
MAX_MODEL_TEXT_CHARS = 32
# Bound on the product of every step's worst-case growth. Real pipelines: DeepSeek's ByteLevel
# 4, Llama 2's Prepend + Replace 4, Qwen's NFC + ByteLevel 16, T5's charsmap + Metaspace ~40,
# NFKC + Lowercase + ByteLevel 216. Two 16-character Replace steps (17 x 17 = 289) pass this
# and are then refused by the token-per-character check on the probe texts; counting a text
# also measures the real growth first (HFTokenizer), so this bound only keeps those
# measurements (done a few thousand characters at a time) small.
MAX_PIPELINE_GROWTH = 1_000

# Deepest nesting of Sequence steps read (real files nest one level): a step nested deeper could
# not be checked, so the file is refused.
MAX_DEPTH = 8

# Worst-case characters out per character in, for the steps that need no reading of their fields.
_NORMALIZER_GROWTH = {
    "NFKC": 18, "NFKD": 18, "NFC": 4, "NFD": 4,  # U+FDFA -> 18 characters; U+1F82 -> 4 (NFD)
    "Lowercase": 3, "BertNormalizer": 3,  # "İ" -> 2 characters; spaces put around CJK characters
    "ByteLevel": 4,  # one character per UTF-8 byte
    "Strip": 1, "StripAccents": 1, "Nmt": 1,
}  # fmt: skip
_PRE_TOKENIZER_GROWTH = {
    "ByteLevel": 4, "Metaspace": 2,
    "Split": 1, "Whitespace": 1, "WhitespaceSplit": 1, "BertPreTokenizer": 1, "Punctuation": 1,
    "Digits": 1, "UnicodeScripts": 1, "CharDelimiterSplit": 1, "FixedLength": 1,
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Growth:
    """Worst-case characters out per character in of a tokenizer.json's normalizer and
    pre-tokenizer: ``Growth(4, 4).total == 16`` (NFC then ByteLevel)."""

    normalizer: float = 1
    pre_tokenizer: float = 1

    @property
    def total(self) -> float:
        return self.normalizer * self.pre_tokenizer


class CostProblem(ValueError):
    """A step that can make a text grow beyond what any real tokenizer does; the message says
    which and why, in a user's words."""


def _nested(section: str, step: Any, depth: int) -> bool:
    """True for a step to read; raises CostProblem past MAX_DEPTH."""
    if depth > MAX_DEPTH:
        raise CostProblem(
            f'its "{section}" nests Sequence steps more than {MAX_DEPTH} levels deep (real tokenizers '
            "nest one), so its steps cannot be checked and the file is refused"
        )
    return isinstance(step, dict)


def _length(value: Any) -> int:
    return len(value) if isinstance(value, str) else 0


def _too_long(section: str, kind: str, what: str, n: int, limit: int) -> CostProblem:
    return CostProblem(
        f'its "{section}" step {kind} puts {n:,} characters {what}, where real tokenizers put one '
        f"or two (at most {limit} are accepted): such a step makes a short text into an enormous "
        "one, so the file is refused"
    )


def _replace_growth(section: str, step: dict[str, Any]) -> float:
    content = _length(step.get("content"))
    if content > MAX_STEP_CHARS:
        raise _too_long(section, "Replace", "in place of each match", content, MAX_STEP_CHARS)
    pattern = step.get("pattern")
    literal = pattern.get("String") if isinstance(pattern, dict) else None
    if isinstance(literal, str) and literal:  # a literal match of n characters gives `content`
        return max(1, math.ceil(content / len(literal)))
    return 1 + content  # a regex may match each character, or the empty text between two


def _charsmap_longest(blob: Any) -> int:
    """Longest replacement in a SentencePiece precompiled charsmap (base64): a u32 trie size,
    the trie, then the replacement strings, each ending in a NUL byte."""
    if not isinstance(blob, str) or not blob:
        return 0
    try:
        data = base64.b64decode(blob)
        (trie_size,) = struct.unpack_from("<I", data, 0)
    except (binascii.Error, ValueError, struct.error):
        return 0  # not a charsmap: the tokenizers library refuses the file
    strings = data[4 + trie_size :]
    return max((len(s.decode("utf-8", "replace")) for s in strings.split(b"\0")), default=0)


def _normalizer_growth(step: Any, depth: int = 0) -> float:
    if not _nested("normalizer", step, depth):
        return 1  # null, or a shape the tokenizers library refuses
    kind = step.get("type")
    if kind == "Sequence":
        parts = step.get("normalizers")
        return math.prod(_normalizer_growth(p, depth + 1) for p in parts) if isinstance(parts, list) else 1
    if kind == "Replace":
        return _replace_growth("normalizer", step)
    if kind == "Prepend":
        n = _length(step.get("prepend"))
        if n > MAX_STEP_CHARS:
            raise _too_long("normalizer", "Prepend", "in front of the text", n, MAX_STEP_CHARS)
        return 1 + n
    if kind == "Precompiled":
        n = _charsmap_longest(step.get("precompiled_charsmap"))
        if n > MAX_CHARSMAP_CHARS:
            raise _too_long("normalizer", "Precompiled (its character map)", "in place of a character",
                            n, MAX_CHARSMAP_CHARS)  # fmt: skip
        return max(1, n)
    return _NORMALIZER_GROWTH.get(kind, 1) if isinstance(kind, str) else 1


def _pre_tokenizer_growth(step: Any, depth: int = 0) -> float:
    if not _nested("pre_tokenizer", step, depth):
        return 1
    kind = step.get("type")
    if kind == "Sequence":
        parts = step.get("pretokenizers")
        return math.prod(_pre_tokenizer_growth(p, depth + 1) for p in parts) if isinstance(parts, list) else 1
    if kind == "Metaspace":
        n = _length(step.get("replacement"))
        if n > MAX_STEP_CHARS:
            raise _too_long("pre_tokenizer", "Metaspace", "in place of each space", n, MAX_STEP_CHARS)
    return _PRE_TOKENIZER_GROWTH.get(kind, 1) if isinstance(kind, str) else 1


def _check_decoder(step: Any, depth: int = 0) -> None:
    """A decoder's Replace grows decoded text (the token view decodes tokens)."""
    if not _nested("decoder", step, depth):
        return
    if step.get("type") == "Sequence" and isinstance(step.get("decoders"), list):
        for part in step["decoders"]:
            _check_decoder(part, depth + 1)
    elif step.get("type") == "Replace":
        _replace_growth("decoder", step)


def _check_model(model: Any) -> None:
    """Text the model adds to every token it emits (unknown token, subword prefix, suffix)."""
    if not isinstance(model, dict):
        return
    texts = {
        k: _length(model.get(k)) for k in ("unk_token", "continuing_subword_prefix", "end_of_word_suffix")
    }
    unk_id, vocab = model.get("unk_id"), model.get("vocab")
    if model.get("type") == "Unigram" and isinstance(unk_id, int) and isinstance(vocab, list):
        entry = vocab[unk_id] if 0 <= unk_id < len(vocab) else None
        texts["unk_token"] = _length(entry[0]) if isinstance(entry, list) and entry else 0
    for key, n in texts.items():
        if n > MAX_MODEL_TEXT_CHARS:
            raise CostProblem(
                f'its "model" has a {key} of {n:,} characters, copied into every token it makes '
                f"(real ones are a few characters; at most {MAX_MODEL_TEXT_CHARS} are accepted)"
            )


def pipeline_growth(doc: dict[str, Any]) -> Growth:
    """The worst-case growth of a parsed tokenizer.json's normalizer and pre-tokenizer, after
    checking each step; raises CostProblem for a step or pipeline that can grow text too much.

    ``pipeline_growth({"pre_tokenizer": {"type": "ByteLevel"}}) -> Growth(1, 4)``.
    """
    _check_model(doc.get("model"))
    _check_decoder(doc.get("decoder"))
    growth = Growth(
        _normalizer_growth(doc.get("normalizer")), _pre_tokenizer_growth(doc.get("pre_tokenizer"))
    )
    if growth.total > MAX_PIPELINE_GROWTH:
        raise CostProblem(
            f"its normalizer and pre-tokenizer steps together can make a text up to {growth.total:,.0f} "
            f"times longer (real tokenizers stay under {MAX_PIPELINE_GROWTH:,}), so the file is refused"
        )
    return growth


def pipeline_problem(doc: dict[str, Any]) -> str | None:
    """Why the tokenizer.json `doc` (parsed) may cost too much, or None."""
    try:
        pipeline_growth(doc)
    except CostProblem as exc:
        return str(exc)
    return None


__all__ = [
    "MAX_PIPELINE_GROWTH", "MAX_STEP_CHARS", "CostProblem", "Growth", "pipeline_growth", "pipeline_problem",
]  # fmt: skip
