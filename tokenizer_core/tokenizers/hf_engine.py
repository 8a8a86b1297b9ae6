"""A Hugging Face `tokenizers` tokenizer (a `tokenizer.json`) behind the one :class:`Tokenizer`
interface: built-ins such as Llama 3 and Qwen, and the files users upload.

A user's file is measured before each text is encoded: its normaliser and pre-tokenizer may
grow a text at most :data:`MAX_GROWTH_PER_CHAR` times, else the text is not counted (see
`hf_cost`).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from .encoders import Tokenizer, TokenizerFailed, TokenizerInfo, clean_text, engine_guard, split_for_batch
from .hf_cost import CostProblem, Growth, pipeline_growth
from .segments import Segment, segments_from_offsets

if TYPE_CHECKING:
    import numpy as np
    import tokenizers


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
