"""Gemma's chat format: ``<start_of_turn>user ... <end_of_turn>``, as its chat templates render it.

Gemma 2 and Gemma 3 publish a Jinja chat template in their tokenizer_config.json. Both start
with ``<bos>``, wrap each turn as ``<start_of_turn>{role}\\n{text, trimmed}<end_of_turn>\\n``
(the assistant's role is ``model``), insist that user and model turns alternate starting with
the user, and open the reply with ``<start_of_turn>model\\n``. Gemma 3 puts a system message in
front of the first user turn (its text, then a blank line); Gemma 2's template refuses one.
The tests render the published template and compare.

``"".join(p.text for p in GEMMA3.render([Message("user", " hi ")]))``
-> ``"<bos><start_of_turn>user\\nhi<end_of_turn>\\n<start_of_turn>model\\n"``
"""

from __future__ import annotations

from .formats import (
    ChatFormat,
    ChatPart,
    ChatRenderError,
    Message,
    _fmt,
    _open_roles,
    _own,
    _special,
)


def _turn(role: str, body: list[ChatPart]) -> list[ChatPart]:
    return [_special("<start_of_turn>"), _fmt(f"{role}\n"), *body, _special("<end_of_turn>"), _fmt("\n")]


def _gemma(messages: list[Message], *, system_role: bool) -> list[ChatPart]:
    messages = _open_roles(messages)
    prefix: list[ChatPart] = []
    start = 0
    if messages and messages[0].role == "system":
        if not system_role:
            raise ChatRenderError(
                "Gemma 2's template has no system role: put the instructions at the start of the first "
                "user message instead."
            )
        prefix = [_own(messages, 0), _fmt("\n\n")]  # the template adds the blank line, no trim
        start = 1
    out = [_special("<bos>")]
    for k, i in enumerate(range(start, len(messages))):
        m = messages[i]
        if (m.role == "user") != (k % 2 == 0):
            raise ChatRenderError(
                "Gemma's template needs user and assistant turns to alternate, starting with a user "
                f"message (message {i + 1} is a{'n' if m.role[0] in 'aeiou' else ''} {m.role} message)."
            )
        role = "model" if m.role == "assistant" else m.role
        out += _turn(role, [*(prefix if k == 0 else []), _own(messages, i, m.content.strip())])
    return [*out, _special("<start_of_turn>"), _fmt("model\n")]


def render_gemma3(messages: list[Message], tools: list[dict]) -> list[ChatPart]:
    """Gemma 3: a system message joins the first user turn."""
    return _gemma(messages, system_role=True)


def render_gemma2(messages: list[Message], tools: list[dict]) -> list[ChatPart]:
    """Gemma 2: no system role."""
    return _gemma(messages, system_role=False)


GEMMA3 = ChatFormat(
    "gemma3", "Gemma 3", ("gemma3",), "Gemma 3",
    "the chat_template of Gemma 3's tokenizer_config.json (checked against it in the tests)", renderer=render_gemma3,
)  # fmt: skip
GEMMA2 = ChatFormat(
    "gemma2", "Gemma 2", ("gemma2",), "Gemma 2",
    "the chat_template of Gemma 2's tokenizer_config.json: no system role", renderer=render_gemma2,
)  # fmt: skip
