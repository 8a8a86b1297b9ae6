"""What is wrong with a JSON text, in words for the page (not the decoder's own wording).

>>> import json
>>> try:
...     json.loads("{'a': 1}")
... except json.JSONDecodeError as exc:
...     json_problem(exc)
'a key is in single quotes at character 2: JSON needs double quotes'
"""

from __future__ import annotations

import json


def _where(exc: json.JSONDecodeError) -> str:
    if exc.lineno > 1:
        return f"at line {exc.lineno:,}, character {exc.colno:,}"
    return f"at character {exc.colno:,}"


def _at(exc: json.JSONDecodeError) -> str:
    """The character the decoder stopped at ("" past the end)."""
    return exc.doc[exc.pos] if 0 <= exc.pos < len(exc.doc) else ""


def decode_problem(exc: json.JSONDecodeError) -> str:
    """A JSONDecodeError in words, with where it is (character N, 1-based, of the line).

    ``{"a": 1,}`` -> ``"a comma before the closing } at character 9"``
    """
    msg, at, where = exc.msg, _at(exc), _where(exc)
    if msg.startswith("Expecting property name"):
        if at == "}":
            return f"a comma before the closing }} {where}"
        if at == "'":
            return f"a key is in single quotes {where}: JSON needs double quotes"
        return f"a key is not in double quotes {where}"
    if msg.startswith("Illegal trailing comma"):
        return f"a comma before the closing {'}' if 'object' in msg else ']'} {where}"
    if msg.startswith("Expecting ':'"):
        return f"a colon (:) is missing after a key {where}"
    if msg.startswith("Expecting ','"):
        return f"a comma is missing between two items {where}"
    if msg.startswith("Expecting value"):
        if not exc.doc[exc.pos :].strip():
            return "it ends where a value should follow (the line is cut short?)"
        if at == "]":
            return f"a comma before the closing ] {where}"
        if at == "'":
            return f"a text in single quotes {where}: JSON needs double quotes"
        return (f"no JSON value {where} (a value is text in double quotes, a number, true, false, null, "
                "an object or a list)")  # fmt: skip
    if msg.startswith("Unterminated string"):
        return f"a text in double quotes starts {where} and never ends"
    if msg.startswith("Invalid control character"):
        return f"a tab or line break inside a text {where}: JSON writes them as \\t and \\n"
    if msg.startswith("Invalid \\u") or msg.startswith("Invalid \\uXXXX"):
        return f"a \\u escape without four hex digits {where}"
    if msg.startswith("Invalid \\escape"):
        return f"a backslash escape JSON does not have {where} (a backslash itself is written \\\\)"
    if msg.startswith("Extra data"):
        return f"more follows the end of the JSON value {where} (one value a line)"
    return f"it is not JSON {where}"


def json_problem(exc: BaseException) -> str:
    """What a failed ``json.loads`` of one line means, in words: its JSONDecodeError (see
    :func:`decode_problem`), text that is not UTF-8, or nesting too deep to read."""
    if isinstance(exc, json.JSONDecodeError):
        return decode_problem(exc)
    if isinstance(exc, UnicodeDecodeError):
        return f"byte {exc.start + 1:,} of the line is not UTF-8 text"
    if isinstance(exc, RecursionError):
        return "the JSON is nested too deeply to read"
    return "it is not JSON"


__all__ = ["decode_problem", "json_problem"]
