"""Qwen3 and Qwen 2.5: ChatML as each one's published chat template renders it.

``"".join(p.text for p in QWEN3.render([Message("user", "hi")]))``
-> ``"<|im_start|>user\\nhi<|im_end|>\\n<|im_start|>assistant\\n"``
"""

from __future__ import annotations

from .formats import ChatFormat, ChatPart, Message, _fmt, _open_roles, _own, _special, _tools_json

QWEN25_DEFAULT_SYSTEM = "You are Qwen, created by Alibaba Cloud. You are a helpful assistant."

_QWEN_TOOLS_HEAD = (
    "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
    "You are provided with function signatures within <tools></tools> XML tags:\n<tools>"
)
_QWEN_TOOLS_TAIL = (
    "\n</tools>\n\nFor each function call, return a json object with function name and arguments "
    'within <tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": '
    "<args-json-object>}\n</tool_call>"
)


def _chatml(role: str, body: list[ChatPart]) -> list[ChatPart]:
    return [_special("<|im_start|>"), _fmt(f"{role}\n"), *body, _special("<|im_end|>"), _fmt("\n")]


def _qwen_tools_block(first: list[ChatPart], sep: str, tools: list[dict]) -> list[ChatPart]:
    body = [*first, _fmt(sep + _QWEN_TOOLS_HEAD)]
    for js in _tools_json(tools):
        body += [_fmt("\n"), ChatPart(js, "tools")]
    return _chatml("system", [*body, _fmt(_QWEN_TOOLS_TAIL)])


_CHATML_REPLY = [_special("<|im_start|>"), _fmt("assistant\n")]


def _qwen(messages: list[Message], tools: list[dict], *, default_system: str | None) -> list[ChatPart]:
    messages = _open_roles(messages)
    has_system = bool(messages) and messages[0].role == "system"
    if has_system:
        first = [_own(messages, 0)]
    elif default_system is not None:
        first = [_fmt(default_system)]
    else:
        first = []
    if tools:
        # Qwen 2.5: system text, then "\n\n# Tools"; Qwen3: system text + "\n\n" only if there is one
        sep = "\n\n" if (first and default_system is not None) or has_system else ""
        out = _qwen_tools_block(first, sep, tools)
    else:
        out = _chatml("system", first) if first else []
    last_user = max((i for i, m in enumerate(messages) if m.role == "user"), default=-1)
    for i, m in enumerate(messages):
        if i == 0 and has_system:
            continue
        if default_system is None and m.role == "assistant" and i > last_user:
            # Qwen3 opens an (empty) thinking block in an answer after the last user message
            out += _chatml(
                "assistant", [_fmt("<think>\n\n</think>\n\n"), _own(messages, i, m.content.lstrip("\n"))]
            )
        else:
            out += _chatml(m.role, [_own(messages, i)])
    return out + _CHATML_REPLY


def _qwen3(messages: list[Message], tools: list[dict]) -> list[ChatPart]:
    """ChatML as Qwen3 renders it: no system message unless you give one."""
    return _qwen(messages, tools, default_system=None)


def _qwen25(messages: list[Message], tools: list[dict]) -> list[ChatPart]:
    """ChatML as Qwen 2.5 renders it: a default system message when you give none."""
    return _qwen(messages, tools, default_system=QWEN25_DEFAULT_SYSTEM)


_QWEN_TOOLS = "in the system message under '# Tools', one JSON line per tool inside <tools></tools>"

QWEN3 = ChatFormat(
    "qwen3", "Qwen3 (ChatML)", ("qwen",), "Qwen3 (thinking on)",
    "the chat_template of Qwen3's tokenizer_config.json", renderer=_qwen3, tools=_QWEN_TOOLS,
)  # fmt: skip
QWEN25 = ChatFormat(
    "qwen25", "Qwen 2.5 (ChatML)", ("qwen",), "Qwen 2.5 Instruct",
    "the chat_template of Qwen2.5-Instruct's tokenizer_config.json", renderer=_qwen25, tools=_QWEN_TOOLS,
)  # fmt: skip

__all__ = ["QWEN25", "QWEN25_DEFAULT_SYSTEM", "QWEN3"]
