"""A page's work as the browser keeps it between visits: one versioned JSON text per page.

The app keeps each page's inputs in the browser's local storage so that a reload or a browser
restart finds them again (ui/saved_work.py). What comes back from the browser is untrusted: it
may be corrupt, edited by hand, from another version of the app or of another page. `unpack`
reads it the way every other input is read: what does not fit is left out, with a note; nothing
raises. ::

    text, left_out = pack("bpe", {"bpe_corpus_text": "low lower"})
    values, notes = unpack(text, "bpe", {"bpe_corpus_text": "str"})
    values == {"bpe_corpus_text": "low lower"} and notes == [] and left_out == []

A value's kind says what it may hold: "str", "int", "float", "bool", "strs" (a list of texts),
or "json" (any JSON value; the page checks it as it uses it, e.g. a workspace version).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import math
import re
import zlib
from collections.abc import Mapping
from dataclasses import dataclass

from .tokenizers import PATTERNS, clean_text
from .tokenizers.uploads import MAX_UPLOAD_BYTES
from .workspace.limits import MAX_DEPTH, nesting_depth, no_lone_surrogates

FORMAT = "tokenizer-workbench/saved-work"
VERSION = 1
MAX_BYTES = 2_000_000  # per page, as UTF-8: local storage holds about 5 MB per site
KINDS = ("str", "int", "float", "bool", "strs", "json")


def digest(text: str) -> str:
    """A short fingerprint of a snapshot: ``len(digest("x")) == 16``."""
    return hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _size(value: object) -> int:
    return len(json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass"))


def pack(page: str, values: Mapping[str, object], *, max_bytes: int = MAX_BYTES) -> tuple[str, list[str]]:
    """The page's values as one JSON text of at most `max_bytes`, and the keys left out to fit.

    Over the cap, the largest values are left out first (what fits is kept):
    ``pack("x", {"a": "1", "b": "2" * 99}, max_bytes=100)[1] == ["b"]``.
    """
    kept = {k: v for k, v in values.items() if v is not None}  # None: nothing chosen, nothing to keep
    # a text of more characters than the cap has bytes cannot fit: out before any JSON is written
    left_out = [k for k, v in kept.items() if isinstance(v, str) and len(v) > max_bytes]
    for key in left_out:
        del kept[key]

    def doc() -> str:
        return json.dumps(
            {"format": FORMAT, "version": VERSION, "page": page, "values": kept}, ensure_ascii=False
        )

    text = doc()
    if len(text.encode("utf-8", "surrogatepass")) > max_bytes:  # what is left out is the largest
        for key in sorted(kept, key=lambda k: _size(kept[k]), reverse=True):
            del kept[key]
            left_out.append(key)
            text = doc()
            if len(text.encode("utf-8", "surrogatepass")) <= max_bytes:
                break
    return text, sorted(left_out)


def _fits(kind: str, value: object) -> bool:
    if kind == "str":
        return isinstance(value, str)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10**15
    if kind == "float":
        return (
            isinstance(value, int | float)
            and not isinstance(value, bool)
            and math.isfinite(value)
            and abs(value) < 1e15
        )
    if kind == "strs":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    return kind == "json"


def kind_of(key: str, spec: Mapping[str, str]) -> str | None:
    """The kind a key holds by `spec` (keys or regular expressions of keys), None if not one of its:
    ``kind_of("chat_text_3", {r"chat_text_\\d+": "str"}) == "str"``."""
    if key in spec:
        return spec[key]
    return next((kind for pattern, kind in spec.items() if re.fullmatch(pattern, key)), None)


def unpack(
    raw: object, page: str, spec: Mapping[str, str], *, max_bytes: int = MAX_BYTES
) -> tuple[dict, list[str]]:
    """The values a saved text holds for `page`, each of the kind `spec` gives its key, and notes
    on what was left out. Never raises: a text that is not a snapshot of this page gives ``{}``
    and one note."""
    if raw is None or raw == "":
        return {}, []
    if not isinstance(raw, str):
        return {}, ["the saved work is not text, so it was not used"]
    if len(raw) > max_bytes:  # characters: at least as many bytes
        return {}, [f"the saved work is larger than {max_bytes:,} bytes, so it was not used"]
    try:
        doc = json.loads(clean_text(raw))
    except (ValueError, RecursionError):
        return {}, ["the saved work is damaged (not JSON), so it was not used"]
    if nesting_depth(doc) > MAX_DEPTH:
        return {}, ["the saved work is nested too deep, so it was not used"]
    doc = no_lone_surrogates(doc)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        return {}, ["the saved work is not in this app's format, so it was not used"]
    version = doc.get("version")
    if version != VERSION or isinstance(version, bool):
        return {}, ["the saved work is from another version of the app, so it was not used"]
    if doc.get("page") != page:
        return {}, ["the saved work belongs to another page, so it was not used"]
    values = doc.get("values")
    if not isinstance(values, dict):
        return {}, ["the saved work holds no values, so it was not used"]
    out: dict = {}
    skipped = 0
    for key, value in values.items():
        kind = kind_of(key, spec)
        if kind is not None and _fits(kind, value):
            out[key] = value
        else:
            skipped += 1
    notes = [f"{skipped:,} saved value{'s' * (skipped != 1)} could not be used and {'were' if skipped != 1 else 'was'} left out"] if skipped else []  # fmt: skip
    return out, notes


# ------------------------------------------------------------------ a user's own tokenizer

# A user's own tokenizer is kept in the browser (IndexedDB: local storage holds ~5 MB, a real
# vocabulary 1.5-60 MB) as its file, compressed, with the settings it was added with. It comes
# back to the server as one message, which Streamlit refuses over 25 MB: base64 makes 4 bytes of
# 3, so a file is kept when it is at most 16 MB compressed (most vocabularies compress 2-4 times).
MAX_KEPT_FILE = 16_000_000  # compressed bytes, per file
MAX_KEPT_ALL = 64_000_000  # compressed bytes, all of a browser's own tokenizers (the browser checks)
_ID = re.compile(r"custom-[0-9a-f]{16}")


@dataclass(frozen=True)
class KeptTokenizer:
    """What adds a user's own tokenizer again: its file and the settings it was added with."""

    id: str  # the id it had (tokenizers.uploads._custom_id: the same bytes and settings, the same id)
    kind: str  # "tiktoken" or "hf"
    data: bytes
    file_name: str
    name: str  # the name the user gave ("": the file's name)
    pattern_id: str  # the pre-tokenization pattern of a .tiktoken vocabulary


def is_own_id(value: object) -> bool:
    """True for the id of a user's uploaded tokenizer: ``is_own_id("custom-0123456789abcdef")``."""
    return isinstance(value, str) and _ID.fullmatch(value) is not None


def pack_tokenizer(kept: KeptTokenizer) -> dict | None:
    """The entry the browser keeps for a tokenizer (JSON-ready: the file compressed, in base64),
    or None when its file is over MAX_KEPT_FILE compressed."""
    packed = zlib.compress(kept.data, 6)
    if len(packed) > MAX_KEPT_FILE:
        return None
    return {
        "id": kept.id, "kind": kept.kind, "file_name": kept.file_name, "name": kept.name,
        "pattern": kept.pattern_id, "data": base64.b64encode(packed).decode("ascii"),
    }  # fmt: skip


def _short_text(value: object, limit: int) -> str | None:
    return clean_text(value)[:limit] if isinstance(value, str) else None


def unpack_tokenizer(entry: object) -> tuple[KeptTokenizer | None, str | None]:
    """The tokenizer an entry from the browser holds, or None and why it cannot be used (words for
    the user). Never raises: the browser's store may be damaged or edited by hand."""
    if not isinstance(entry, dict):
        return None, "a saved tokenizer is damaged, so it was not added again"
    name = _short_text(entry.get("name"), 200)
    file_name = _short_text(entry.get("file_name"), 255)
    kind, pattern, data, tid = entry.get("kind"), entry.get("pattern"), entry.get("data"), entry.get("id")
    label = name or file_name or "a saved tokenizer"
    if (
        name is None or not file_name or kind not in ("tiktoken", "hf") or not is_own_id(tid)
        or not isinstance(pattern, str) or pattern not in PATTERNS
        or not isinstance(data, str) or len(data) > (MAX_KEPT_FILE + 2) // 3 * 4
    ):  # fmt: skip
        return None, f"{label} is damaged in this browser's store, so it was not added again"
    try:
        packed = base64.b64decode(data, validate=True)
        unpacker = zlib.decompressobj()
        raw = unpacker.decompress(packed, MAX_UPLOAD_BYTES + 1)
        whole = unpacker.eof and not unpacker.unconsumed_tail and len(raw) <= MAX_UPLOAD_BYTES
    except (binascii.Error, ValueError, zlib.error):
        whole = False
    if not whole:
        return None, f"{label} is damaged in this browser's store, so it was not added again"
    return KeptTokenizer(str(tid), str(kind), raw, file_name, name, pattern), None


__all__ = [
    "FORMAT", "KINDS", "MAX_BYTES", "MAX_KEPT_ALL", "MAX_KEPT_FILE", "VERSION", "KeptTokenizer",
    "digest", "is_own_id", "kind_of", "pack", "pack_tokenizer", "unpack", "unpack_tokenizer",
]  # fmt: skip
