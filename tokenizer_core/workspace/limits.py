"""How much a share link or a workspace file may bring into the prompt workspace.

Bytes alone do not bound the work: 3,600 bytes of ``["user",""],`` are 300 chat messages,
each a box on the page, and 3,000 bytes of ``{},`` 1,000 versions, each compared on every
keystroke. So the
counts are capped too, and JSON nesting, where the link or the file enters; what is over a cap
is left out with a message that names it.

``MAX_TOOLS`` is the OpenAI API's own limit (its reference for ``tools``: "A max of 128
functions are supported").
"""

from __future__ import annotations

import json
import re

from ..tokenizers import clean_text

MAX_MESSAGES = 50  # chat messages in the editor, a link, a file or a saved version
MAX_VERSIONS = 50  # saved prompt versions
MAX_TOOLS = 128  # tool definitions in one request
MAX_DEPTH = 64  # levels of lists and objects in any JSON a user brings in


class JSONInputError(ValueError):
    """JSON a user brought in that is valid syntax but more than the workspace reads."""


class TooDeep(JSONInputError):
    """JSON nested deeper than the workspace reads; the message names what and the limit."""


def too_deep_message(what: str, *, limit: int = MAX_DEPTH) -> str:
    """``too_deep_message("tools") -> "The tools are nested too deeply (more than 64 levels)."``"""
    return f"The {what} are nested too deeply (more than {limit} levels)."


def nesting_depth(value: object, *, limit: int = MAX_DEPTH) -> int:
    """Levels of lists and objects in a parsed JSON value, counted up to ``limit + 1`` (no recursion).

    ``nesting_depth([1, {"a": [2]}]) -> 3``; ``nesting_depth("x") -> 0``
    """
    deepest = 0
    todo: list[tuple[object, int]] = [(value, 0)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, (list, dict)):
            depth += 1
            if depth > limit:
                return depth
            deepest = max(deepest, depth)
            todo.extend((child, depth) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def load_json(text: str, *, what: str, limit: int = MAX_DEPTH) -> object:
    """``json.loads`` that refuses more than ``limit`` levels of nesting with TooDeep.

    Python's decoder raises RecursionError somewhere near 1,000 levels, and code that walks the
    value later (rendering, copying session state) may recurse sooner: nothing deeper than
    ``limit`` gets past here. A number of more than 4,300 digits (Python refuses to convert it)
    raises JSONInputError; other bad JSON raises json.JSONDecodeError as usual.
    ``load_json("[[1]]", what="tools") -> [[1]]``
    """
    try:
        value = json.loads(clean_text(text))
    except RecursionError:
        raise TooDeep(too_deep_message(what, limit=limit)) from None
    except json.JSONDecodeError:
        raise
    except ValueError:  # int("1" * 5000): Python's limit on digits
        raise JSONInputError(f"The {what} hold a number too long to read (thousands of digits).") from None
    if nesting_depth(value, limit=limit) > limit:
        raise TooDeep(too_deep_message(what, limit=limit))
    return no_lone_surrogates(value) if _ESCAPED_SURROGATE.search(text) else value


_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


def no_lone_surrogates(value: object) -> object:
    """`value` with each lone surrogate in its strings (half an emoji, written ``\\ud83d`` in
    JSON) made U+FFFD, as every tokenizer reads it: Python's caches cannot hash such a string.
    ``no_lone_surrogates({"a\\ud800": ["\\udfff"]}) -> {"a\\ufffd": ["\\ufffd"]}``"""
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, list):
        return [no_lone_surrogates(v) for v in value]
    if isinstance(value, dict):
        return {clean_text(k): no_lone_surrogates(v) for k, v in value.items()}
    return value


def shown(value: object, *, width: int = 40) -> str:
    """A value named in a message, short and safe for any input (no repr of a deep or huge value).

    ``shown("poem") -> "'poem'"``; ``shown([1, [2]]) -> "a list"``; ``shown(5) -> "the number 5"``
    """
    if isinstance(value, str):
        return repr(value if len(value) <= width else value[:width] + "…")
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, (int, float)):
        try:
            text = repr(value)
        except ValueError:  # an int of thousands of digits
            return "a very long number"
        return "the number " + (text if len(text) <= width else text[:width] + "…")
    if isinstance(value, list):
        return "a list"
    return "an object" if isinstance(value, dict) else "a value"
