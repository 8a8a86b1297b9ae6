"""Llama 4's chat format, as Meta's llama_models/llama4/chat_format.py encodes a dialog.

``<|begin_of_text|>``, then per message ``<|header_start|>{role}<|header_end|>\\n\\n{text}<|eot|>``,
then ``<|header_start|>assistant<|header_end|>\\n\\n`` where the reply begins. Meta encodes the
role, the blank line and the text each on its own, so the text is a part of its own (``alone``);
texts are not trimmed. Tool definitions are not part of this format (they go into a system
prompt the caller writes), so they are not counted.

``sum(p.kind == "special" for p in LLAMA4.render([Message("user", "hi")]))`` -> 6
"""

from __future__ import annotations

from .formats import ChatFormat, ChatPart, Message, _fmt, _open_roles, _special


def _header(role: str) -> list[ChatPart]:
    return [_special("<|header_start|>"), _fmt(role), _special("<|header_end|>"), _fmt("\n\n")]


def render_llama4(messages: list[Message], tools: list[dict]) -> list[ChatPart]:
    messages = _open_roles(messages)
    out = [_special("<|begin_of_text|>")]
    for i, m in enumerate(messages):
        out += [*_header(m.role), ChatPart(m.content, m.role, alone=True, message=i), _special("<|eot|>")]
    return out + _header("assistant")


LLAMA4 = ChatFormat(
    "llama4", "Llama 4", ("llama4",), "Llama 4 Scout, Llama 4 Maverick",
    "Meta's llama_models 0.3.0, llama4/chat_format.py (checked against it in the tests)", renderer=render_llama4,
)  # fmt: skip
