"""Saving and loading trained BPE models as versioned, human-readable JSON.

The file holds the options, the start symbols (character level) and one merge per line:
``[left, right, count, corpus tokens after the merge]``. Byte-level symbols are written as
text when their bytes are valid UTF-8, else as ``{"hex": "e2 82"}``. Everything else (the
vocabulary, ids, the tokenizer) is derived from the merges when the file is loaded. A trained
model may also carry its corpus's distinct words and their counts (``words=True``), which the BPE
playground shows and keeps across a reload.
"""

from __future__ import annotations

import json
from dataclasses import asdict, fields, replace

from ..tokenizers.textio import read_json_file
from .model import BPEError, BPEModel, BPEOptions, MergeStep, Symbol

FORMAT = "tokenizer-workbench/bpe"
VERSION = 1
MAX_FILE_BYTES = 50_000_000
MAX_MERGES = 1_000_000
MAX_TOKENS = 10**18  # counts and corpus sizes must fit the 64-bit integers of tables and charts


def _sym_json(sym: Symbol) -> str | dict[str, str]:
    if isinstance(sym, str):
        return sym
    try:
        return sym.decode("utf-8")
    except UnicodeDecodeError:
        return {"hex": sym.hex(" ")}


def _dump(obj) -> str:
    return json.dumps(obj, ensure_ascii=False)


def save_bpe_model(model: BPEModel, *, words: bool = False) -> str:
    """The model as JSON text (one merge per line), with its corpus's words when `words` and it
    was trained: ``json.loads(save_bpe_model(m))["version"] == 1``."""
    opts = asdict(model.options)
    head = {
        "format": FORMAT,
        "version": VERSION,
        "options": opts,
        "stop_reason": model.stop_reason,
        "trained_on": {"distinct_words": len(model.words), "words": model.total_words,
                       "start_tokens": model.initial_tokens},
        "merge_fields": ["left", "right", "count", "corpus tokens after"],
    }  # fmt: skip
    lines = ["{"]
    for key, value in head.items():
        lines.append(f"  {_dump(key)}: {_dump(value)},")
    if not model.options.byte_level:
        lines.append(f'  "start_symbols": {_dump(list(model.base))},')
    if words and model.source == "trained":
        lines.append(f'  "corpus_words": {_dump([list(model.words), list(model.freqs), model.words_cut])},')
    lines.append('  "merges": [')
    rows = [
        f"    {_dump([_sym_json(s.left), _sym_json(s.right), s.count, s.corpus_tokens])}" for s in model.steps
    ]
    lines.append(",\n".join(rows))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(line for line in lines if line) + "\n"


def _symbol(value, *, byte_level: bool, where: str) -> Symbol:
    if isinstance(value, str):
        if not value:
            raise BPEError(f"{where}: a symbol cannot be empty")
        return value.encode("utf-8") if byte_level else value
    if byte_level and isinstance(value, dict) and set(value) == {"hex"} and isinstance(value["hex"], str):
        try:
            data = bytes.fromhex(value["hex"])
        except ValueError:
            raise BPEError(f"{where}: {value['hex'][:30]!r} is not hex bytes") from None
        if not data:
            raise BPEError(f"{where}: a symbol cannot be empty")
        return data
    allowed = 'text or {"hex": "..."}' if byte_level else "text"
    raise BPEError(f"{where}: a symbol must be {allowed}, not {value!r:.40}")


def load_bpe_model(data: bytes | str) -> BPEModel:
    """Read a saved model; raises BPEError saying what is wrong and where."""
    doc = read_json_file(
        data, max_bytes=MAX_FILE_BYTES, error=BPEError, kind="a .json file saved by this page"
    )
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise BPEError(f'not a BPE model saved by this page (expected "format": "{FORMAT}")')
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise BPEError('the file has no valid "version" number')
    if version > VERSION:
        raise BPEError(
            f"the file is format version {version}; this app reads version {VERSION}: update the app"
        )
    if version < 1:
        raise BPEError(f"unknown format version {version}")
    raw_opts = doc.get("options")
    if not isinstance(raw_opts, dict):
        raise BPEError('the file has no "options" object')
    known = {f.name for f in fields(BPEOptions)}
    unknown = sorted(set(raw_opts) - known)
    if unknown:
        raise BPEError(f"unknown option(s) {unknown}; expected some of {sorted(known)}")
    try:
        options = BPEOptions(**raw_opts).validate()
    except TypeError as exc:
        raise BPEError(f"bad options: {exc}") from None
    byte_level = options.byte_level
    marker = options.end_marker
    if byte_level:
        base: list[Symbol] = [bytes([i]) for i in range(256)]
        if marker and marker.encode("utf-8") not in base:
            base.append(marker.encode("utf-8"))
    else:
        raw_base = doc.get("start_symbols")
        if not isinstance(raw_base, list):
            raise BPEError('a character-level model needs a "start_symbols" list')
        base = [_symbol(v, byte_level=False, where=f"start symbol {i + 1}") for i, v in enumerate(raw_base)]
        if len(set(base)) != len(base):
            raise BPEError('"start_symbols" lists a symbol twice')
        if marker and marker not in base:
            raise BPEError(f'the end-of-word marker {marker!r} is missing from "start_symbols"')
    merges = doc.get("merges")
    if not isinstance(merges, list):
        raise BPEError('the file has no "merges" list')
    if len(merges) > MAX_MERGES:
        raise BPEError(f"the file has {len(merges):,} merges; the limit is {MAX_MERGES:,}")
    known_syms = set(base)
    ids = {s: i for i, s in enumerate(base)}
    steps: list[MergeStep] = []
    tokens = (
        doc.get("trained_on", {}).get("start_tokens", 0) if isinstance(doc.get("trained_on"), dict) else 0
    )
    tokens = (
        tokens
        if isinstance(tokens, int) and not isinstance(tokens, bool) and 0 <= tokens <= MAX_TOKENS
        else 0
    )
    for n, row in enumerate(merges, start=1):
        where = f"merge {n}"
        if not isinstance(row, list) or len(row) < 2:
            raise BPEError(f"{where}: expected [left, right, count, tokens], got {row!r:.60}")
        left = _symbol(row[0], byte_level=byte_level, where=where)
        right = _symbol(row[1], byte_level=byte_level, where=where)
        for side, sym in (("left", left), ("right", right)):
            if sym not in known_syms:
                raise BPEError(
                    f"{where}: its {side} symbol {sym!r:.40} is neither a start symbol nor made by an "
                    "earlier merge; the merges are out of order or the file was edited"
                )
        count = row[2] if len(row) > 2 else 0
        after = row[3] if len(row) > 3 else 0
        for label, v in (("count", count), ("corpus tokens", after)):
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise BPEError(f"{where}: the {label} must be a whole number >= 0, not {v!r:.30}")
            if v > MAX_TOKENS:
                raise BPEError(
                    f"{where}: the {label} {v:.3g} is above the largest this page takes ({MAX_TOKENS:.0e})"
                )
        new = left + right
        if new not in known_syms:
            known_syms.add(new)
            ids[new] = len(ids)
        steps.append(
            MergeStep(
                rank=n,
                left=left,
                right=right,
                new=new,
                token_id=ids[new],
                count=count,
                vocab_size=len(ids),
                corpus_tokens=after,
                words_changed=0,
            )  # fmt: skip
        )
    model = BPEModel(
        options=options, base=tuple(base), steps=tuple(steps), initial_tokens=tokens,
        stop_reason=str(doc.get("stop_reason", ""))[:200], source="file",
    )  # fmt: skip
    if "corpus_words" not in doc:
        return model
    words, freqs, cut = _corpus_words(doc["corpus_words"])
    return replace(model, words=words, freqs=freqs, words_cut=cut, source="trained")


def _corpus_words(value: object) -> tuple[tuple[str, ...], tuple[int, ...], int]:
    """``[words, their counts, how many were cut]`` as saved, checked."""
    count = lambda v, least: isinstance(v, int) and not isinstance(v, bool) and least <= v <= MAX_TOKENS  # noqa: E731
    if not (
        isinstance(value, list) and len(value) == 3 and isinstance(value[0], list) and isinstance(value[1], list)
        and len(value[0]) == len(value[1]) and all(isinstance(w, str) for w in value[0])
        and all(count(f, 1) for f in value[1]) and count(value[2], 0)
    ):  # fmt: skip
        raise BPEError('"corpus_words" is not [words, their counts, words cut] as this page saves it')
    return tuple(value[0]), tuple(value[1]), value[2]


__all__ = ["FORMAT", "VERSION", "load_bpe_model", "save_bpe_model"]
