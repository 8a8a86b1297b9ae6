"""Llama 3 and Llama 3.1-3.3 Instruct: the prompts Meta's published chat templates render.

``"".join(p.text for p in LLAMA3.render([Message("user", "hi")]))``
-> ``"<|begin_of_text|><|start_header_id|>user<|end_header_id|>\\n\\nhi<|eot_id|><|start_header_id|>assistant<|end_header_id|>\\n\\n"``
"""

from __future__ import annotations

from collections.abc import Sequence

from .formats import (
    ChatFormat,
    ChatPart,
    ChatRenderError,
    Message,
    _fmt,
    _open_roles,
    _own,
    _special,
    _tools_json,
)

# Llama 3.1-3.3 templates fill "Today Date" with this when no date is given (3.2 and 3.3 use
# today's date where the renderer offers one; such dates are the same length in tokens).
LLAMA31_DATE = "26 Jul 2024"


def _llama_header(role: str) -> list[ChatPart]:
    return [_special("<|start_header_id|>"), _fmt(role), _special("<|end_header_id|>"), _fmt("\n\n")]


def _llama_message(messages: Sequence[Message], i: int) -> list[ChatPart]:
    # Meta's templates: '<|start_header_id|>' + role + '<|end_header_id|>\n\n' + content | trim + '<|eot_id|>'
    m = messages[i]
    return [*_llama_header(m.role), _own(messages, i, m.content.strip()), _special("<|eot_id|>")]


_LLAMA_REPLY = _llama_header("assistant")


def _llama3(messages: list[Message], tools: list[dict]) -> list[ChatPart]:
    """Meta-Llama-3-*-Instruct: BOS, each message with its header, then the reply's header."""
    messages = _open_roles(messages)
    out = [_special("<|begin_of_text|>")]
    for i in range(len(messages)):
        out += _llama_message(messages, i)
    return out + _LLAMA_REPLY


_LLAMA31_TOOLS_INTRO = (
    "Given the following functions, please respond with a JSON for a function call with its proper "
    "arguments that best answers the given prompt.\n\n"
    'Respond in the format {"name": function name, "parameters": dictionary of argument name and its '
    "value}.Do not use variables.\n\n"
)


def _llama31(messages: list[Message], tools: list[dict]) -> list[ChatPart]:
    """Llama 3.1-3.3 Instruct: a system block is always there, with knowledge cutoff and date;
    tools go into the first user message (the template's default, tools_in_user_message)."""
    messages = _open_roles(messages)
    out = [_special("<|begin_of_text|>"), *_llama_header("system")]
    if tools:
        out.append(_fmt("Environment: ipython\n"))
    out.append(_fmt(f"Cutting Knowledge Date: December 2023\nToday Date: {LLAMA31_DATE}\n\n"))
    rest = range(len(messages))
    if messages and messages[0].role == "system":
        if messages[0].content.strip():
            out.append(_own(messages, 0, messages[0].content.strip()))
        rest = range(1, len(messages))
    out.append(_special("<|eot_id|>"))
    if tools:
        if not rest:
            raise ChatRenderError(
                "Llama 3.1's template puts the tools into the first message after the system "
                "message, and there is none: add a user message."
            )
        first = rest[0]
        out += [*_llama_header("user"), _fmt(_LLAMA31_TOOLS_INTRO)]
        for js in _tools_json(tools, indent=4):
            out += [ChatPart(js, "tools"), _fmt("\n\n")]
        out += [_own(messages, first, messages[first].content.strip()), _special("<|eot_id|>")]
        rest = rest[1:]
    for i in rest:
        out += _llama_message(messages, i)
    return out + _LLAMA_REPLY


_LLAMA31_TOOLS = (
    "in the first user message, as JSON (indent 4) after an instruction to answer with a function call"
)

LLAMA31 = ChatFormat(
    "llama31", "Llama 3.1-3.3 Instruct", ("llama3",), "Llama 3.1, 3.2, 3.3",
    "the chat_template of Meta's Llama 3.1 Instruct tokenizer_config.json", renderer=_llama31,
    tools=_LLAMA31_TOOLS,
)  # fmt: skip
LLAMA3 = ChatFormat(
    "llama3", "Llama 3 Instruct", ("llama3",), "Llama 3",
    "the chat_template of Meta-Llama-3-8B-Instruct's tokenizer_config.json", renderer=_llama3,
)  # fmt: skip

__all__ = ["LLAMA3", "LLAMA31", "LLAMA31_DATE"]
