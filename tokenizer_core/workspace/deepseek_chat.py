"""DeepSeek V4, thinking off or on: the prompt of encode_messages in DeepSeek V4's encoding_dsv4.py.

``"".join(p.text for p in DEEPSEEK_V4.render([Message("user", "hi")]))``
-> ``"<｜begin▁of▁sentence｜><｜User｜>hi<｜Assistant｜></think>"``
"""

from __future__ import annotations

from .formats import ChatFormat, ChatPart, ChatRenderError, Message, _open_roles, _own, _special


def _deepseek_v4(messages: list[Message], tools: list[dict], *, thinking: bool) -> list[ChatPart]:
    """DeepSeek V4 (encoding_dsv4's encode_messages): BOS, the system text as is, the user turn,
    then the reply's start: ``</think>`` in chat mode, ``<think>`` in thinking mode. Rendered here
    for one optional system message and one user message."""
    messages = _open_roles(messages)
    shape = [m.role for m in messages]
    if shape not in (["user"], ["system", "user"]):
        raise ChatRenderError(
            "DeepSeek V4's format is rendered here for one system and one user message only: "
            "count a longer conversation with another model, or shorten it to those two"
        )
    out = [_special("<｜begin▁of▁sentence｜>")]
    if shape[0] == "system" and messages[0].content:
        out.append(_own(messages, 0))
    reply = "<think>" if thinking else "</think>"
    return [*out, _special("<｜User｜>"), _own(messages, len(messages) - 1), _special("<｜Assistant｜>"),
            _special(reply)]  # fmt: skip


DEEPSEEK_V4 = ChatFormat(
    "deepseek_v4", "DeepSeek V4 (thinking off)", ("deepseek_v4",), "DeepSeek-V4-Pro, DeepSeek-V4-Flash",
    "encode_messages of DeepSeek V4's encoding_dsv4.py, chat mode",
    renderer=lambda messages, tools: _deepseek_v4(messages, tools, thinking=False),
)  # fmt: skip
DEEPSEEK_V4_THINKING = ChatFormat(
    "deepseek_v4_thinking", "DeepSeek V4 (thinking)", ("deepseek_v4",), "DeepSeek-V4-Pro, DeepSeek-V4-Flash",
    "encode_messages of DeepSeek V4's encoding_dsv4.py, thinking mode",
    renderer=lambda messages, tools: _deepseek_v4(messages, tools, thinking=True),
)  # fmt: skip

__all__ = ["DEEPSEEK_V4", "DEEPSEEK_V4_THINKING"]
