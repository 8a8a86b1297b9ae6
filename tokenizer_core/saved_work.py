"""A page's work as the browser keeps it between visits: one versioned JSON text per page.

What comes back from the browser (ui/saved_work.py) is untrusted: corrupt, edited by hand, from
another version of the app or another page. `unpack` reads it like any other input: what does not
fit is left out, with a note; nothing raises. ::

    text, left_out = pack("bpe", {"bpe_corpus_text": "low lower"})
    values, notes = unpack(text, "bpe", {"bpe_corpus_text": "str"})
    values == {"bpe_corpus_text": "low lower"} and notes == [] and left_out == []

A value's kind says what it may hold: "str", "int", "float", "bool", "strs" (a list of texts),
or "json" (any JSON value; the page checks it as it uses it, e.g. a workspace version).
"""

from __future__ import annotations

import base64
import json
import math
import zlib
from collections.abc import Mapping
from dataclasses import dataclass

from .tokenizers import PATTERNS, clean_text, is_own_id
from .tokenizers.uploads import MAX_UPLOAD_BYTES
from .workspace.limits import TooDeep, load_json

FORMAT = "tokenizer-workbench/saved-work"
VERSION = 1
MAX_BYTES = 2_000_000  # per page, as UTF-8: local storage holds about 5 MB per site


def pack(page: str, values: Mapping[str, object], *, max_bytes: int = MAX_BYTES) -> tuple[str, list[str]]:
    """The page's values as one JSON text of at most `max_bytes`, and the keys left out to fit.

    Over the cap, the largest values are left out first (what fits is kept):
    ``pack("x", {"a": "1", "b": "2" * 99}, max_bytes=100)[1] == ["b"]``.
    """
    # a text of more characters than the cap has bytes cannot fit: out before any JSON is written
    left_out = [k for k, v in values.items() if isinstance(v, str) and len(v) > max_bytes]
    kept = {k: v for k, v in values.items() if v is not None and k not in left_out}  # None: nothing chosen

    def size(value: object) -> int:
        return len(json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass"))

    doc = {"format": FORMAT, "version": VERSION, "page": page, "values": kept}
    for key in sorted(kept, key=lambda k: size(kept[k]), reverse=True):  # the largest left out first
        if size(doc) <= max_bytes:
            break
        del kept[key]
        left_out.append(key)
    return json.dumps(doc, ensure_ascii=False), sorted(left_out)


def _fits(kind: str, value: object) -> bool:
    number = isinstance(value, int | float) and not isinstance(value, bool)
    return {
        "str": isinstance(value, str), "bool": isinstance(value, bool), "json": True,
        "int": number and isinstance(value, int) and abs(value) < 10**15,
        "float": number and math.isfinite(value) and abs(value) < 1e15,  # type: ignore[arg-type]
        "strs": isinstance(value, list) and all(isinstance(v, str) for v in value),
    }.get(kind, False)  # fmt: skip


def unpack(
    raw: object, page: str, spec: Mapping[str, str], *, max_bytes: int = MAX_BYTES
) -> tuple[dict, list[str]]:
    """The values a saved text holds for `page`, each of the kind `spec` gives its key, and notes
    on what was left out. Never raises: a text that is not a snapshot of this page gives ``{}``
    and one note."""
    if raw is None or raw == "":
        return {}, []
    try:  # as any JSON a user brings in: nesting capped, half an emoji made U+FFFD
        doc = load_json(raw, what="saved work") if isinstance(raw, str) and len(raw) <= max_bytes else None
    except ValueError as exc:  # TooDeep too
        doc = exc
    get = doc.get if isinstance(doc, dict) else {}.get
    problem = (
        "is not text" if not isinstance(raw, str)
        else f"is larger than {max_bytes:,} bytes" if len(raw) > max_bytes  # characters: as many bytes at least
        else "is nested too deep" if isinstance(doc, TooDeep)
        else "is damaged (not JSON)" if isinstance(doc, ValueError)
        else "is not in this app's format" if get("format") != FORMAT
        else "is from another version of the app" if get("version") != VERSION or isinstance(get("version"), bool)
        else "belongs to another page" if get("page") != page
        else "holds no values" if not isinstance(get("values"), dict)
        else None
    )  # fmt: skip
    if problem:
        return {}, [f"the saved work {problem}, so it was not used"]
    values: dict = get("values")  # type: ignore[assignment]
    out = {k: v for k, v in values.items() if _fits(spec.get(k, ""), v)}
    skipped = len(values) - len(out)
    notes = [f"{skipped:,} saved value{'s' * (skipped != 1)} could not be used and {'were' if skipped != 1 else 'was'} left out"] if skipped else []  # fmt: skip
    return out, notes


# ------------------------------------------------------------------ a user's own tokenizer

# A user's own tokenizer is kept in the browser (IndexedDB: local storage holds ~5 MB, a real
# vocabulary 1.5-60 MB) as its file, compressed, with the settings it was added with. It comes
# back to the server as one message, which Streamlit refuses over 25 MB: base64 makes 4 bytes of
# 3, so a file is kept when it is at most 16 MB compressed (most vocabularies compress 2-4 times).
MAX_KEPT_FILE = 16_000_000  # compressed bytes, per file
MAX_KEPT_ALL = 64_000_000  # compressed bytes, all of a browser's own tokenizers (the browser checks)


@dataclass(frozen=True)
class KeptTokenizer:
    """What adds a user's own tokenizer again: its file and the settings it was added with."""

    id: str  # the id it had (tokenizers.uploads._custom_id: the same bytes and settings, the same id)
    kind: str  # "tiktoken" or "hf"
    data: bytes
    file_name: str
    name: str  # the name the user gave ("": the file's name)
    pattern_id: str  # the pre-tokenization pattern of a .tiktoken vocabulary


def pack_tokenizer(kept: KeptTokenizer) -> dict | None:
    """The entry the browser keeps for a tokenizer (JSON-ready: the file compressed, in base64),
    or None when its file is over MAX_KEPT_FILE compressed."""
    if len(packed := zlib.compress(kept.data, 6)) > MAX_KEPT_FILE:
        return None
    return {
        "id": kept.id, "kind": kept.kind, "file_name": kept.file_name, "name": kept.name,
        "pattern": kept.pattern_id, "data": base64.b64encode(packed).decode("ascii"),
    }  # fmt: skip


def unpack_tokenizer(entry: object) -> tuple[KeptTokenizer | None, str | None]:
    """The tokenizer an entry from the browser holds, or None and why it cannot be used (words for
    the user). Never raises: the browser's store may be damaged or edited by hand."""
    get = entry.get if isinstance(entry, dict) else {}.get
    name, file_name = (clean_text(v)[:n] if isinstance(v := get(k), str) else None for k, n in (("name", 200), ("file_name", 255)))  # fmt: skip
    kind, pattern, data, tid = get("kind"), get("pattern"), get("data"), get("id")
    try:
        if (
            name is None or not file_name or kind not in ("tiktoken", "hf") or not is_own_id(tid)
            or not isinstance(pattern, str) or pattern not in PATTERNS
            or not isinstance(data, str) or len(data) > (MAX_KEPT_FILE + 2) // 3 * 4
        ):  # fmt: skip
            raise ValueError("not an entry the app wrote")
        unpacker = zlib.decompressobj()
        raw = unpacker.decompress(base64.b64decode(data, validate=True), MAX_UPLOAD_BYTES + 1)
        if not unpacker.eof or unpacker.unconsumed_tail or len(raw) > MAX_UPLOAD_BYTES:
            raise ValueError("larger than an upload may be")
        return KeptTokenizer(str(tid), str(kind), raw, file_name, name, pattern), None
    except (ValueError, zlib.error):  # binascii.Error is a ValueError
        label = name or file_name or "a saved tokenizer"
        return None, f"{label} is damaged in this browser's store, so it was not added again"


__all__ = [
    "FORMAT", "MAX_BYTES", "MAX_KEPT_ALL", "MAX_KEPT_FILE", "VERSION", "KeptTokenizer",
    "pack", "pack_tokenizer", "unpack", "unpack_tokenizer",
]  # fmt: skip
