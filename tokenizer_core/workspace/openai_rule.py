"""OpenAI's chat models, counted by the rule OpenAI documents (it publishes no rendered format).

The OpenAI Cookbook ("How to count tokens with tiktoken", num_tokens_from_messages): 3 tokens per
message, plus the tokens of the role, plus the message's own tokens, plus 3 that prime the reply;
tools (num_tokens_for_tools) per function, per property, per enum item, and at the end.
o200k_base and cl100k_base.

``openai_count(o200k, [Message("user", "Hello world")], [])[0] == 3 + 1 + 2 + 3``
"""

from __future__ import annotations

from collections.abc import Sequence

from ..tokenizers.encoders import Tokenizer
from .formats import ChatFormat, Message

# The OpenAI Cookbook's estimate for function definitions ("How to count tokens with tiktoken",
# num_tokens_for_tools): per function, per property, per enum item, and at the end.
_TOOL_RULE = {
    "o200k_base": {"func_init": 7, "prop_init": 3, "prop_key": 3, "enum_init": -3, "enum_item": 3, "func_end": 12},
    "cl100k_base": {"func_init": 10, "prop_init": 3, "prop_key": 3, "enum_init": -3, "enum_item": 3, "func_end": 12},
}  # fmt: skip


def _function(tool: dict) -> dict:
    return tool.get("function", tool) if isinstance(tool, dict) else {}


def openai_tool_tokens(tokenizer: Tokenizer, tools: Sequence[dict]) -> int:
    """Tokens the OpenAI Cookbook's rule estimates for these tool (function) definitions."""
    if not tools:
        return 0
    k = _TOOL_RULE.get(tokenizer.id, _TOOL_RULE["o200k_base"])
    total = 0
    for tool in tools:
        f = _function(tool)
        total += k["func_init"]
        desc = str(f.get("description", "")).removesuffix(".")
        total += tokenizer.count(f"{f.get('name', '')}:{desc}")
        props = (f.get("parameters") or {}).get("properties") or {}
        if props:
            total += k["prop_init"]
            for name, spec in props.items():
                spec = spec if isinstance(spec, dict) else {}
                total += k["prop_key"]
                if "enum" in spec:
                    total += k["enum_init"]
                    for item in spec["enum"]:
                        total += k["enum_item"] + tokenizer.count(str(item))
                pdesc = str(spec.get("description", "")).removesuffix(".")
                total += tokenizer.count(f"{name}:{spec.get('type', '')}:{pdesc}")
    return total + k["func_end"]


def openai_count(
    tokenizer: Tokenizer, messages: Sequence[Message], tools: Sequence[dict]
) -> tuple[int, tuple[int, ...], int]:
    """(total, each message's own tokens, the tools' tokens) by the Cookbook's rule."""
    own = tuple(tokenizer.count(m.content) for m in messages)
    tool_n = openai_tool_tokens(tokenizer, tools)
    total = sum(3 + tokenizer.count(m.role) + n for m, n in zip(messages, own)) + 3 + tool_n
    return total, own, tool_n


_COOKBOOK = "OpenAI Cookbook, 'How to count tokens with tiktoken' (num_tokens_from_messages)"

OPENAI = ChatFormat(
    "openai", "OpenAI chat (documented rule)", ("o200k_base", "cl100k_base"),
    "GPT-4o, GPT-4.1, GPT-4, GPT-3.5 Turbo", _COOKBOOK, rule=openai_count,
    tools="estimated with the OpenAI Cookbook's rule for function definitions",
)  # fmt: skip

__all__ = ["OPENAI", "openai_count", "openai_tool_tokens"]
