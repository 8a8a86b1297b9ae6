"""Gemini's local count, as Google's SDK makes it: each text part counted on its own, summed.

google-genai 3.3.0 (PyPI; google/genai/local_tokenizer.py and _local_tokenizer_loader.py)
counts Gemini text locally with a Gemma vocabulary: Gemma 3's for Gemini 2.0, 2.5 and the 3
previews, Gemma 4's for Gemini 3.1 and 3.5. It encodes every text of the request separately
(each message, the system instruction, and the texts inside tool declarations) and adds the
counts: nothing for roles, turns or the reply. Images, audio and video are not counted. That is
the rule here, on Gemma 3's vocabulary; Gemma 4 is not offered (no independent reference to
check it against), so neither are the Gemini models that use it.

``gemini_count(gemma3, [Message("user", "Hello world")], [])[0] == gemma3.count("Hello world")``
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from ..tokenizers.encoders import Tokenizer
from .formats import ChatFormat, Message

SDK_VERSION = "google-genai 3.3.0"


def _any_texts(value: Any) -> Iterator[str]:
    """The strings the SDK counts in an example value: strings, dict keys and what they hold."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        yield from (str(k) for k in value)
        for v in value.values():
            yield from _any_texts(v)
    elif isinstance(value, list):
        for v in value:
            yield from _any_texts(v)


def schema_texts(schema: Any) -> Iterator[str]:
    """The texts of a parameter schema that the SDK counts (its `add_schema`): format,
    description, enum values, required names, the items' schema, each property's name and
    schema, and the example. Types and titles are not counted.

    ``list(schema_texts({"type": "object", "properties": {"city": {"description": "Name"}}}))
    -> ["city", "Name"]``
    """
    if not isinstance(schema, dict):
        return
    if schema.get("format"):
        yield str(schema["format"])
    if schema.get("description"):
        yield str(schema["description"])
    for item in schema.get("enum") or ():
        yield str(item)
    for name in schema.get("required") or ():
        yield str(name)
    if schema.get("items"):
        yield from schema_texts(schema["items"])
    for key, value in (schema.get("properties") or {}).items():
        yield str(key)
        yield from schema_texts(value)
    if schema.get("example"):
        yield from _any_texts(schema["example"])


def tool_texts(tools: Sequence[dict]) -> list[str]:
    """The texts of tool declarations that the SDK counts: each function's name, description
    and parameter schema texts."""
    out: list[str] = []
    for tool in tools:
        f = tool.get("function", tool) if isinstance(tool, dict) else {}
        out += [str(f[k]) for k in ("name", "description") if f.get(k)]
        out += list(schema_texts(f.get("parameters")))
    return out


def gemini_count(
    tokenizer: Tokenizer, messages: Sequence[Message], tools: Sequence[dict]
) -> tuple[int, tuple[int, ...], int]:
    """(total, each message's tokens, the tools' tokens) by the SDK's rule: every text on its
    own, summed, nothing added."""
    own = tuple(tokenizer.count_many([m.content for m in messages])) if messages else ()
    texts = tool_texts(tools)
    tool_n = sum(tokenizer.count_many(texts)) if texts else 0
    return sum(own) + tool_n, own, tool_n


GEMINI = ChatFormat(
    "gemini", "Gemini (text only)", ("gemma3",),
    "Gemini 2.0 Flash, 2.5 Pro, 2.5 Flash, 2.5 Flash-Lite, 3 Pro and 3 Flash (previews)",
    f"Google's SDK ({SDK_VERSION}, LocalTokenizer): each Gemini model's Gemma vocabulary, every "
    "text counted on its own and summed",
    rule=gemini_count,
    tools="by the texts inside each declaration (names, descriptions, parameter names, enums), as the SDK counts them",
    counted_by="text only, counted as Google's SDK counts locally: images, audio and video are not counted, "
    "tool declarations only by the text in them",
)  # fmt: skip
