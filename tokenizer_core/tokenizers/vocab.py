"""Reading vocabulary files from disk or uploads, checking them, and proving them by hash.

Formats (see docs/tokenizers.md):

* `.tiktoken`: one line per token, ``base64(token bytes) rank``, in rank order.
* quicktok `.vocab` (little-endian): ``u32 N`` then N x (``u16 len``, bytes, ``u32 rank``);
  `.special`: ``u32 N`` then N x (``u32 id``, ``u16 len``, UTF-8 text).
* Mistral `tekken_*.json`: ``config`` {pattern, default_vocab_size, default_num_special_tokens}
  and ``vocab``: a list of {rank, token_bytes (base64)}.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import struct
from collections.abc import Mapping
from pathlib import Path

Ranks = dict[bytes, int]


class VocabularyError(ValueError):
    """A vocabulary file that cannot be used; the message says what is wrong and where."""


class ServerBusy(VocabularyError):
    """The file may well be fine: the server could not read it now (no process could be started
    for it, or its process ended for no reason of the file's). Worth a try later."""


# The file names each kind of vocabulary upload takes (the sidebar's "Format" choice).
VOCABULARY_SUFFIXES = {"tiktoken": (".tiktoken", ".txt"), "hf": (".json",)}
_KIND_WORDS = {"tiktoken": "a .tiktoken vocabulary", "hf": "a Hugging Face tokenizer.json"}


def vocabulary_file_problem(filename: str, kind: str) -> str | None:
    """Why a file of this name is not a vocabulary of `kind` ("tiktoken" or "hf"), or None.

    ``vocabulary_file_problem("x.py", "tiktoken")`` -> "A .tiktoken vocabulary is a .tiktoken
    or .txt file; x.py is not one."
    """
    suffixes = VOCABULARY_SUFFIXES[kind]
    if filename.lower().endswith(suffixes):
        return None
    listed = " or ".join(suffixes)
    message = (
        f"{_KIND_WORDS[kind][0].upper()}{_KIND_WORDS[kind][1:]} is a {listed} file; {filename} is not one."
    )
    for other, other_suffixes in VOCABULARY_SUFFIXES.items():
        if other != kind and filename.lower().endswith(other_suffixes):
            message += f" If it is {_KIND_WORDS[other]}, choose that format above."
    return message


def sha256_bytes(data: bytes) -> str:
    """Hex sha256 of `data`: ``sha256_bytes(b"") -> "e3b0c442...b855"``."""
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: Path) -> str:
    """Hex sha256 of a file's bytes."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def parse_tiktoken(data: bytes) -> Ranks:
    """Parse `.tiktoken` bytes: ``b"aGk= 0\\n" -> {b"hi": 0}``.

    Raises VocabularyError naming the first bad line.
    """
    ranks: Ranks = {}
    for lineno, line in enumerate(data.splitlines(), start=1):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 2:
            raise VocabularyError(f"line {lineno}: expected 'base64-token rank', got {line[:60]!r}")
        try:
            token = base64.b64decode(parts[0], validate=True)
            rank = int(parts[1])
        except (binascii.Error, ValueError):
            raise VocabularyError(f"line {lineno}: {line[:60]!r} is not 'base64-token rank'") from None
        if token in ranks:
            raise VocabularyError(f"line {lineno}: token {token!r} appears twice")
        ranks[token] = rank
    if not ranks:
        raise VocabularyError("the file holds no tokens")
    return ranks


def tiktoken_blob(ranks: Mapping[bytes, int]) -> bytes:
    """Serialise ranks as a `.tiktoken` file in rank order (the inverse of parse_tiktoken)."""
    b64 = binascii.b2a_base64
    ordered = sorted(ranks.items(), key=lambda kv: kv[1])
    return b"".join(b64(tok, newline=False) + b" %d\n" % rank for tok, rank in ordered)


# The highest rank a vocabulary may have: 16 times the largest real one (Gemma 3's 262,144
# tokens). A rank is a token id, so it sets the vocabulary's size: one token at rank
# 4,000,000,000 made a 300-token file "4,000,000,001 tokens".
MAX_RANK = 4_194_303
# Ranks are the numbers 0, 1, 2, ... in order; a vocabulary with some tokens taken out keeps
# gaps, but its highest rank stays within twice its number of tokens (plus this much).
RANK_GAP_ALLOWANCE = 1_024


def validate_ranks(ranks: Ranks) -> None:
    """Check what tiktoken needs before it is handed the ranks, and that they are sane.

    tiktoken panics (a BaseException that ``except Exception`` misses) when a byte has no rank
    or two tokens share one, so both are checked here with a readable message; a rank past
    MAX_RANK, or ranks that skip most numbers, are refused as no real vocabulary has them.
    """
    missing = [b for b in range(256) if bytes([b]) not in ranks]
    if missing:
        shown = ", ".join(f"0x{b:02x}" for b in missing[:8])
        raise VocabularyError(
            f"{len(missing)} of the 256 single bytes have no rank (e.g. {shown}); a byte-level "
            "BPE vocabulary must give every byte a rank, or text containing it cannot be encoded"
        )
    seen: dict[int, bytes] = {}
    for tok, rank in ranks.items():
        if rank < 0:
            raise VocabularyError(f"token {tok!r} has a negative rank {rank}")
        if rank > MAX_RANK:
            raise VocabularyError(
                f"token {tok[:40]!r} has rank {rank:,}; a rank is a token's number, counted from 0, "
                f"and no real vocabulary goes past a few hundred thousand (at most {MAX_RANK:,} "
                "is accepted)"
            )
        if rank in seen:
            raise VocabularyError(f"tokens {seen[rank]!r} and {tok!r} share rank {rank}")
        seen[rank] = tok
    top = max(seen)
    if top > 2 * len(ranks) + RANK_GAP_ALLOWANCE:
        raise VocabularyError(
            f"the ranks go up to {top:,} for {len(ranks):,} tokens; ranks number the tokens 0, 1, "
            "2, ... and these skip most numbers, so the file is not a usable vocabulary"
        )


def read_quicktok_vocab(path: Path) -> Ranks:
    """Read a quicktok `.vocab` file into ranks."""
    data = Path(path).read_bytes()
    try:
        (count,) = struct.unpack_from("<I", data, 0)
        ranks: Ranks = {}
        off = 4
        unpack = struct.unpack_from
        for _ in range(count):
            (length,) = unpack("<H", data, off)
            off += 2
            token = data[off : off + length]
            off += length
            (rank,) = unpack("<I", data, off)
            off += 4
            ranks[token] = rank
    except struct.error:
        raise VocabularyError(f"{path} is truncated") from None
    if off != len(data):
        raise VocabularyError(f"{path} has {len(data) - off} unexpected trailing bytes")
    return ranks


def read_quicktok_special(path: Path) -> dict[str, int]:
    """Read a quicktok `.special` file into {text: id}."""
    data = Path(path).read_bytes()
    try:
        (count,) = struct.unpack_from("<I", data, 0)
        off = 4
        out: dict[str, int] = {}
        for _ in range(count):
            (tid,) = struct.unpack_from("<I", data, off)
            (length,) = struct.unpack_from("<H", data, off + 4)
            off += 6
            out[data[off : off + length].decode("utf-8")] = tid
            off += length
    except (struct.error, UnicodeDecodeError):
        raise VocabularyError(f"{path} is not a quicktok .special file") from None
    return out


def p50k_ranks(r50k: Ranks) -> Ranks:
    """p50k_base = r50k_base plus runs of 2..25 spaces at ranks 50257 + (n - 2)."""
    ranks = dict(r50k)
    for n in range(2, 26):
        ranks[b" " * n] = 50257 + n - 2
    return ranks


def read_tekken(path: Path, *, inner_vocab: int | None = None) -> tuple[Ranks, str, int]:
    """Read a Mistral `tekken_*.json`: (ranks shifted past the specials, pattern, n_specials).

    Tekken keeps `default_vocab_size - default_num_special_tokens` ordinary ranks and puts the
    special tokens first, so ordinary token ids are rank + n_specials.
    """
    doc = json.loads(Path(path).read_bytes())
    config = doc["config"]
    n_special = int(config["default_num_special_tokens"])
    keep = inner_vocab if inner_vocab is not None else int(config["default_vocab_size"]) - n_special
    ranks: Ranks = {}
    for entry in doc["vocab"]:
        rank = int(entry["rank"])
        if rank < keep:
            ranks[base64.b64decode(entry["token_bytes"])] = rank + n_special
    return ranks, config["pattern"], n_special
