"""What is wrong with a tokenizer.json that Hugging Face `tokenizers` refuses, in a user's words.

The Rust loader reports serde errors about the whole file ("expected `,` or `}` at line 1
column 7", "data did not match any variant of untagged enum ModelUntagged"). Here the file is
read as JSON first, its outline checked, and then each section tried on its own inside a
minimal valid tokenizer, so the message names the section and the problem:
``hf_json_problem('{"hello": 0}')`` -> "this looks like a vocab.json (token -> id) ...".
"""

from __future__ import annotations

import json
import re
from typing import Any

MODEL_TYPES = ("BPE", "Unigram", "WordLevel", "WordPiece")
SECTIONS = (
    "model", "normalizer", "pre_tokenizer", "post_processor", "decoder", "added_tokens",
    "truncation", "padding",
)  # fmt: skip
_MINIMAL: dict[str, Any] = {
    "version": "1.0", "truncation": None, "padding": None, "added_tokens": [], "normalizer": None,
    "pre_tokenizer": None, "post_processor": None, "decoder": None,
    "model": {"type": "WordLevel", "vocab": {"a": 0}, "unk_token": "a"},
}  # fmt: skip
_POSITION = re.compile(r" at line \d+ column \d+$")
_JSON_WORDS = {"sequence": "a list", "a sequence": "a list", "map": "an object", "a map": "an object"}


def _json_word(serde: str) -> str:
    return _JSON_WORDS.get(serde, serde)


_PHRASES = (
    (re.compile(r"untagged enum MergeType"),
     lambda m: 'each merge must be "left right" or ["left", "right"]'),
    (re.compile(r"data did not match any variant of untagged enum (\w+?)(Untagged)?(Type)?$"),
     lambda m: 'a step has a missing or unknown "type", or a field it needs is missing or of the wrong kind'),
    (re.compile(r"missing field `(\w+)`"), lambda m: f'the field "{m.group(1)}" is missing'),
    (re.compile(r"unknown variant `(\w+)`, expected (.*)"),
     lambda m: f'"{m.group(1)}" is not a known type (expected {m.group(2).replace("`", chr(34))})'),
    (re.compile(r"invalid type: (.+?), expected (.+)"),
     lambda m: f"found {_json_word(m.group(1))} where {_json_word(m.group(2))} belongs"),
    (re.compile(r"Token `(.*)` out of vocabulary"),
     lambda m: f"a merge uses the token {m.group(1)!r}, which is not in the vocabulary"),
)  # fmt: skip


def _words(rust_message: str) -> str:
    """A serde/tokenizers message without positions, in plainer words where it is a known one."""
    first = _POSITION.sub("", (rust_message.strip().splitlines() or [""])[0])[:200]
    for pattern, say in _PHRASES:
        if m := pattern.search(first):
            return say(m)
    return first


def _section_problem(doc: dict[str, Any], key: str) -> str | None:
    import tokenizers

    try:
        tokenizers.Tokenizer.from_str(json.dumps({**_MINIMAL, key: doc[key]}))
    except Exception as exc:  # noqa: BLE001  (serde errors are plain Exceptions)
        return _words(str(exc))
    return None


def hf_json_problem(text: str, rust_message: str = "") -> str:
    """Why `text` is not a usable tokenizer.json, for the person who uploaded it."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        return f"it is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
    except RecursionError:
        return "it nests lists or objects thousands of levels deep, which no tokenizer.json does"
    if not isinstance(doc, dict):
        return f'a tokenizer.json is one JSON object with a "model" section; this file holds a {type(doc).__name__}'
    if "model" not in doc:
        if doc and all(isinstance(v, int) for v in doc.values()):
            return (
                "this looks like a vocab.json (token -> id) alone; upload the tokenizer.json that comes "
                'with the model (it has "model", "pre_tokenizer", "added_tokens" ...)'
            )
        found = ", ".join(f'"{k}"' for k in list(doc)[:6]) or "nothing"
        return f'it has no "model" section (found {found}): upload the tokenizer.json a model ships with'
    model = doc["model"]
    if not isinstance(model, dict):
        return f'its "model" section must be an object with a "type", not a {type(model).__name__}'
    if model.get("type") not in MODEL_TYPES:
        kind = model.get("type")
        got = f'"type" {kind!r}' if kind is not None else 'no "type"'
        return f'its "model" section has {got}; this app reads {", ".join(MODEL_TYPES)} models'
    for key in SECTIONS:
        if key in doc and (problem := _section_problem(doc, key)):
            return f'its "{key}" section is not valid: {problem}'
    if rust_message:
        return f"the tokenizers library refused it: {_words(rust_message)}"
    return "the tokenizers library refused it"


__all__ = ["MODEL_TYPES", "hf_json_problem"]
