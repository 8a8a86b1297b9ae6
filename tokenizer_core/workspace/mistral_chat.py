"""Mistral's chat formats, as mistral-common 1.13.1 encodes a request (InstructTokenizerV1, V3
and V7): v3 on Tekken (Mistral NeMo, Pixtral 12B) and the classic models on their SentencePiece
vocabularies.

* v1 (Mistral 7B v0.1/v0.2, Mixtral 8x7B): each user turn is the text ``[INST] {text} [/INST]``,
  with the system messages in front of the first user message; ``[INST]`` is ordinary text
  in this vocabulary. Answers end with ``</s>``.
* v3 (Mistral 7B v0.3, Mixtral 8x22B, Codestral 22B, Mistral Large 2407): as with Tekken, the
  system messages go before the last user message and tools, as a JSON list between
  ``[AVAILABLE_TOOLS]`` and ``[/AVAILABLE_TOOLS]``, just before it.
* v7 (Mistral Large 2411, Pixtral Large): system messages stay where they are, each between
  ``[SYSTEM_PROMPT]`` and ``[/SYSTEM_PROMPT]``; tools as in v3.

mistral-common encodes each stretch of text between control tokens on its own, as the runs of
parts here are counted; consecutive messages of one role are joined with a blank line first.
The tests compare every count with mistral-common's own encoder.

``"".join(p.text for p in MISTRAL_V1.render([Message("user", "hi")]))`` -> ``"<s>[INST] hi [/INST]"``
"""

from __future__ import annotations

import json

from .formats import (
    ChatFormat,
    ChatPart,
    Message,
    _fmt,
    _open_roles,
    _own,
    _special,
)

_TOOLS = "as a JSON list between [AVAILABLE_TOOLS] and [/AVAILABLE_TOOLS], before the last user message"


def _groups(messages: list[Message]) -> list[tuple[str, list[int]]]:
    """Consecutive messages of one role, as mistral-common's normaliser joins them."""
    out: list[tuple[str, list[int]]] = []
    for i, m in enumerate(messages):
        if out and out[-1][0] == m.role:
            out[-1][1].append(i)
        else:
            out.append((m.role, [i]))
    return out


def _joined(messages: list[Message], idx: list[int], *, strip_end: bool = False) -> list[ChatPart]:
    parts: list[ChatPart] = []
    for k, i in enumerate(idx):
        text = messages[i].content
        if strip_end and k == len(idx) - 1:
            text = text.rstrip(" ")
        parts += [_fmt("\n\n")] * bool(k) + [_own(messages, i, text)]
    return parts


def _answer(messages: list[Message], idx: list[int], *, strip_end: bool) -> list[ChatPart]:
    # an answer is encoded on its own, apart from the user turn before it
    parts = _joined(messages, idx, strip_end=strip_end)
    return [ChatPart(p.text, p.kind, True, p.message) for p in parts] + [_special("</s>")]


def render_v3(messages: list[Message], tools: list[dict]) -> list[ChatPart]:
    """Mistral instruct v3 with Tekken (mistral-common's InstructTokenizerV3): system messages
    joined and put before the last user message, tools just before that user message."""
    messages = _open_roles(messages)
    systems = [i for i, m in enumerate(messages) if m.role == "system" and m.content]
    turns = [i for i, m in enumerate(messages) if m.role != "system"]
    last_user = max((i for i in turns if messages[i].role == "user"), default=-1)
    out = [_special("<s>")]
    for i in turns:
        m = messages[i]
        if m.role == "assistant":  # mistral-common encodes an answer without its trailing spaces
            out += [_own(messages, i, m.content.rstrip(" ")), _special("</s>")]
            continue
        if i == last_user and tools:
            out.append(_special("[AVAILABLE_TOOLS]"))
            out.append(ChatPart(json.dumps(tools, ensure_ascii=False), "tools"))
            out.append(_special("[/AVAILABLE_TOOLS]"))
        out.append(_special("[INST]"))
        if i == last_user and systems:
            for k, j in enumerate(systems):
                out += [_fmt("\n\n")] * bool(k) + [_own(messages, j)]
            out.append(_fmt("\n\n"))
        out += [_own(messages, i), _special("[/INST]")]
    return out


def render_v1(messages: list[Message], tools: list[dict]) -> list[ChatPart]:
    messages = _open_roles(messages)
    systems = [i for i, m in enumerate(messages) if m.role == "system" and m.content]
    groups = [g for g in _groups(messages) if g[0] != "system"]
    first_user = next((k for k, g in enumerate(groups) if g[0] == "user"), -1)
    out = [_special("<s>")]
    for k, (role, idx) in enumerate(groups):
        if role == "assistant":
            out += _answer(messages, idx, strip_end=False)
            continue
        body = _joined(messages, idx)
        if k == first_user and systems:
            body = [*_joined(messages, systems), _fmt("\n\n"), *body]
        out += [_fmt("[INST] "), *body, _fmt(" [/INST]")]
    return out


def _tools_block(tools: list[dict]) -> list[ChatPart]:
    return [_special("[AVAILABLE_TOOLS]"), ChatPart(json.dumps(tools, ensure_ascii=False), "tools"),
            _special("[/AVAILABLE_TOOLS]")]  # fmt: skip


def render_v7(messages: list[Message], tools: list[dict]) -> list[ChatPart]:
    messages = _open_roles(messages)
    groups = _groups(messages)
    last_user = max((k for k, g in enumerate(groups) if g[0] == "user"), default=-1)
    out = [_special("<s>")]
    for k, (role, idx) in enumerate(groups):
        if role == "system":
            for i in idx:  # each system message between its own markers
                out += [_special("[SYSTEM_PROMPT]"), _own(messages, i), _special("[/SYSTEM_PROMPT]")]
        elif role == "assistant":
            out += _answer(messages, idx, strip_end=True)
        else:
            if k == last_user and tools:
                out += _tools_block(tools)
            out += [_special("[INST]"), *_joined(messages, idx), _special("[/INST]")]
    return out


MISTRAL_V3 = ChatFormat(
    "mistral_v3", "Mistral instruct v3 (Tekken)", ("tekken",), "Mistral NeMo, Pixtral 12B",
    "mistral-common's InstructTokenizerV3 (checked against it in the tests)", renderer=render_v3, tools=_TOOLS,
)  # fmt: skip
MISTRAL_V1 = ChatFormat(
    "mistral_sp_v1", "Mistral instruct v1", ("mistral_sp_v1",), "Mistral 7B v0.1/v0.2, Mixtral 8x7B",
    "mistral-common's InstructTokenizerV1 (checked against it in the tests)", renderer=render_v1,
)  # fmt: skip
MISTRAL_V3_SP = ChatFormat(
    "mistral_sp_v3", "Mistral instruct v3 (SentencePiece)", ("mistral_sp_v3",),
    "Mistral 7B v0.3, Mixtral 8x22B, Codestral 22B, Mistral Large 2407",
    "mistral-common's InstructTokenizerV3 (checked against it in the tests)", renderer=render_v3, tools=_TOOLS,
)  # fmt: skip
MISTRAL_V7 = ChatFormat(
    "mistral_sp_v7", "Mistral instruct v7", ("mistral_sp_v7",), "Mistral Large 2411, Pixtral Large",
    "mistral-common's InstructTokenizerV7 (checked against it in the tests)", renderer=render_v7, tools=_TOOLS,
)  # fmt: skip
