"""What a chat request costs on top of its text: each model family's chat format, in tokens.

A chat API never sends your text alone. It wraps every message in the model's chat format
(role headers, separators, special tokens) and opens the reply. That is why an API's reported
prompt tokens exceed the count of the text: users' most common "my count doesn't match"
question. This module counts a request of an optional system message and one user message.

Two kinds of format:

* rendered: the exact prompt the model's published chat template produces, tokenized by the
  model's tokenizer (special tokens as their ids, everything else as ordinary text, so a user's
  ``<|eot_id|>`` stays text). Llama 3, Qwen, Mistral Tekken, gpt-oss (harmony, see
  tokenizer_core.counter.harmony) and DeepSeek V4.
* rule: OpenAI does not publish the rendered format of its chat models; it documents a
  counting rule in the OpenAI Cookbook ("How to count tokens with tiktoken"): 3 tokens per
  message, plus the tokens of the role, plus 3 that prime the reply. o200k_base, cl100k_base.

``count_chat(load_builtin("o200k_base"), "Hello world").overhead -> 7`` (3 + "user" + 3).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..tokenizers.encoders import Tokenizer

# Llama 3.1-3.3 templates fill "Today Date" with this when no date is given (3.2 and 3.3 use
# today's date where the renderer offers one; such dates are the same length in tokens).
LLAMA31_DATE = "26 Jul 2024"
QWEN25_DEFAULT_SYSTEM = "You are Qwen, created by Alibaba Cloud. You are a helpful assistant."


@dataclass(frozen=True, slots=True)
class ChatPart:
    """A piece of a rendered request: a special token, format text, or a message's own text."""

    text: str
    kind: str  # "special" | "format" | "system" | "user" | ... (a role: the messages' own text)
    # Tokenized on its own, not joined with neighbouring text (harmony encodes each header piece
    # separately, so "assistant" + " to=functions.f" may cut differently from the joined text).
    alone: bool = False


@dataclass(frozen=True, slots=True)
class ChatFormat:
    """One model family's chat format, as users pick it."""

    id: str
    name: str
    tokenizer_ids: tuple[str, ...]
    models: str
    source: str
    rendered: bool  # False: the documented counting rule, not a rendered prompt

    def parts(self, user: str, system: str = "") -> list[ChatPart]:
        """The request as parts (rendered formats only): ``[]`` for a rule-based format."""
        return _RENDER[self.id](user, system) if self.rendered else []


@dataclass(frozen=True, slots=True)
class ChatCount:
    """Tokens of a chat request: the messages' texts alone, and the whole request."""

    format: ChatFormat
    content_tokens: int
    total: int
    parts: tuple[ChatPart, ...]

    @property
    def overhead(self) -> int:
        """Tokens the format adds (may differ from a fixed number: Llama trims messages)."""
        return self.total - self.content_tokens


def _special(text: str) -> ChatPart:
    return ChatPart(text, "special")


def _fmt(text: str) -> ChatPart:
    return ChatPart(text, "format")


def _llama_message(role: str, content: str) -> list[ChatPart]:
    # Meta's templates: '<|start_header_id|>' + role + '<|end_header_id|>\n\n' + content | trim + '<|eot_id|>'
    return [
        _special("<|start_header_id|>"), _fmt(role), _special("<|end_header_id|>"), _fmt("\n\n"),
        ChatPart(content.strip(), role), _special("<|eot_id|>"),
    ]  # fmt: skip


_LLAMA_REPLY = [
    _special("<|start_header_id|>"),
    _fmt("assistant"),
    _special("<|end_header_id|>"),
    _fmt("\n\n"),
]


def _llama3(user: str, system: str) -> list[ChatPart]:
    """Meta-Llama-3-*-Instruct: BOS, each message with its header, then the reply's header."""
    out = [_special("<|begin_of_text|>")]
    if system:
        out += _llama_message("system", system)
    return out + _llama_message("user", user) + _LLAMA_REPLY


def _llama31(user: str, system: str) -> list[ChatPart]:
    """Llama 3.1-3.3 Instruct: a system block is always there, with knowledge cutoff and date."""
    head = [
        _special("<|begin_of_text|>"), _special("<|start_header_id|>"), _fmt("system"),
        _special("<|end_header_id|>"),
        _fmt(f"\n\nCutting Knowledge Date: December 2023\nToday Date: {LLAMA31_DATE}\n\n"),
    ]  # fmt: skip
    if system.strip():
        head.append(ChatPart(system.strip(), "system"))
    return [*head, _special("<|eot_id|>"), *_llama_message("user", user), *_LLAMA_REPLY]


def _chatml_message(role: str, content: str, kind: str | None = None) -> list[ChatPart]:
    part = ChatPart(content, kind or role)
    return [_special("<|im_start|>"), _fmt(f"{role}\n"), part, _special("<|im_end|>"), _fmt("\n")]


_CHATML_REPLY = [_special("<|im_start|>"), _fmt("assistant\n")]


def _qwen3(user: str, system: str) -> list[ChatPart]:
    """ChatML as Qwen3 renders it: no system message unless you give one."""
    out = _chatml_message("system", system) if system else []
    return out + _chatml_message("user", user) + _CHATML_REPLY


def _qwen25(user: str, system: str) -> list[ChatPart]:
    """ChatML as Qwen 2.5 renders it: a default system message when you give none."""
    out = (
        _chatml_message("system", system)
        if system
        else _chatml_message("system", QWEN25_DEFAULT_SYSTEM, "format")
    )
    return out + _chatml_message("user", user) + _CHATML_REPLY


def _harmony(user: str, system: str) -> list[ChatPart]:
    from .harmony import harmony_request

    return harmony_request(user, system)


def _deepseek_v4(user: str, system: str, *, thinking: bool) -> list[ChatPart]:
    """DeepSeek V4 (encoding_dsv4's encode_messages): BOS, the system text as is, the user turn,
    then the reply's start: ``</think>`` in chat mode, ``<think>`` in thinking mode."""
    out = [_special("<｜begin▁of▁sentence｜>")]
    if system:
        out.append(ChatPart(system, "system"))
    reply = "<think>" if thinking else "</think>"
    return [
        *out,
        _special("<｜User｜>"),
        ChatPart(user, "user"),
        _special("<｜Assistant｜>"),
        _special(reply),
    ]


def _mistral_v3(user: str, system: str) -> list[ChatPart]:
    """Mistral instruct v3 with Tekken: the system message goes before the last user message."""
    user_part = ChatPart(user, "user")
    content = [ChatPart(system, "system"), _fmt("\n\n"), user_part] if system else [user_part]
    return [_special("<s>"), _special("[INST]"), *content, _special("[/INST]")]


_RENDER = {
    "llama3": _llama3, "llama31": _llama31, "qwen3": _qwen3, "qwen25": _qwen25, "mistral_v3": _mistral_v3,
    "harmony": _harmony,
    "deepseek_v4": lambda user, system: _deepseek_v4(user, system, thinking=False),
    "deepseek_v4_thinking": lambda user, system: _deepseek_v4(user, system, thinking=True),
}  # fmt: skip

_COOKBOOK = "OpenAI Cookbook, 'How to count tokens with tiktoken' (num_tokens_from_messages)"

CHAT_FORMATS: dict[str, ChatFormat] = {
    f.id: f
    for f in (
        ChatFormat("openai", "OpenAI chat (documented rule)", ("o200k_base", "cl100k_base"),
                   "GPT-4o, GPT-4.1, GPT-4, GPT-3.5 Turbo", _COOKBOOK, rendered=False),
        ChatFormat("llama31", "Llama 3.1-3.3 Instruct", ("llama3",), "Llama 3.1, 3.2, 3.3",
                   "the chat_template of Meta's Llama 3.1 Instruct tokenizer_config.json (no tools)", rendered=True),
        ChatFormat("llama3", "Llama 3 Instruct", ("llama3",), "Llama 3",
                   "the chat_template of Meta-Llama-3-8B-Instruct's tokenizer_config.json", rendered=True),
        ChatFormat("qwen3", "Qwen3 (ChatML)", ("qwen",), "Qwen3 (thinking on)",
                   "the chat_template of Qwen3's tokenizer_config.json", rendered=True),
        ChatFormat("qwen25", "Qwen 2.5 (ChatML)", ("qwen",), "Qwen 2.5 Instruct",
                   "the chat_template of Qwen2.5-Instruct's tokenizer_config.json", rendered=True),
        ChatFormat("mistral_v3", "Mistral instruct v3 (Tekken)", ("tekken",), "Mistral NeMo, Pixtral 12B",
                   "mistral-common's InstructTokenizerV3 (checked against it in the tests)", rendered=True),
        ChatFormat("harmony", "Harmony (gpt-oss)", ("o200k_harmony",), "gpt-oss-20b, gpt-oss-120b",
                   "OpenAI's harmony format: default system message (reasoning: medium), your system "
                   "message as developer instructions (checked against openai-harmony in the tests)",
                   rendered=True),
        ChatFormat("deepseek_v4", "DeepSeek V4 (thinking off)", ("deepseek_v4",),
                   "DeepSeek-V4-Pro, DeepSeek-V4-Flash",
                   "encode_messages of DeepSeek V4's encoding_dsv4.py, chat mode", rendered=True),
        ChatFormat("deepseek_v4_thinking", "DeepSeek V4 (thinking)", ("deepseek_v4",),
                   "DeepSeek-V4-Pro, DeepSeek-V4-Flash",
                   "encode_messages of DeepSeek V4's encoding_dsv4.py, thinking mode", rendered=True),
    )
}  # fmt: skip


def chat_formats_for(tokenizer_id: str) -> list[ChatFormat]:
    """The chat formats known for a tokenizer (none for completion-only or your own ones).

    ``[f.id for f in chat_formats_for("qwen")] -> ["qwen3", "qwen25"]``
    """
    return [f for f in CHAT_FORMATS.values() if tokenizer_id in f.tokenizer_ids]


def count_parts(tokenizer: Tokenizer, parts: Sequence[ChatPart]) -> int:
    """Tokens of a rendered request: each special token is one id, the text between them is
    encoded as ordinary text (specials split a prompt, so this equals encoding it whole)."""
    specials = tokenizer.special_tokens
    total, run = 0, list[str]()
    for part in parts:
        if part.kind == "special" or part.alone:
            if part.kind == "special" and part.text not in specials:
                raise KeyError(f"{tokenizer.info.name} has no special token {part.text!r}")
            total += 1 if part.kind == "special" else tokenizer.count(part.text)
            total += tokenizer.count("".join(run)) if run else 0
            run = []
        else:
            run.append(part.text)
    return total + (tokenizer.count("".join(run)) if run else 0)


def _count_format(
    tokenizer: Tokenizer, fmt: ChatFormat, user: str, system: str, counts: tuple[int, int]
) -> ChatCount:
    """One format's count, given the messages' own token counts (user, system)."""
    user_n, system_n = counts
    if not fmt.rendered:
        roles = [("system", system_n)] * bool(system) + [("user", user_n)]
        total = sum(3 + tokenizer.count(role) + n for role, n in roles) + 3
        return ChatCount(fmt, user_n + system_n, total, ())
    parts = tuple(fmt.parts(user, system))
    return ChatCount(fmt, user_n + system_n, count_parts(tokenizer, parts), parts)


def count_chats(tokenizer: Tokenizer, user: str, system: str = "") -> list[ChatCount]:
    """The request counted in every chat format known for the tokenizer (the messages' own
    text is encoded once for all of them); ``[]`` if it has none."""
    formats = chat_formats_for(tokenizer.id)
    if not formats:
        return []
    counts = (tokenizer.count(user), tokenizer.count(system) if system else 0)
    return [_count_format(tokenizer, f, user, system, counts) for f in formats]


def count_chat(
    tokenizer: Tokenizer, user: str, system: str = "", *, format_id: str | None = None
) -> ChatCount | None:
    """Tokens of a request with `system` (optional) and one `user` message, or None if the
    tokenizer has no known chat format. The first format for the tokenizer unless `format_id`."""
    formats = chat_formats_for(tokenizer.id)
    fmt = CHAT_FORMATS.get(format_id) if format_id else (formats[0] if formats else None)
    if fmt is None or fmt not in formats:
        return None
    counts = (tokenizer.count(user), tokenizer.count(system) if system else 0)
    return _count_format(tokenizer, fmt, user, system, counts)


_PLACEHOLDERS = {"user": "⟨your text⟩", "system": "⟨system message⟩"}


def chat_template_text(parts: Sequence[ChatPart]) -> str:
    """The rendered request with the messages' own text replaced by placeholders, for display.

    ``chat_template_text(CHAT_FORMATS["mistral_v3"].parts("hi")) -> "<s>[INST]⟨your text⟩[/INST]"``
    """
    return "".join(_PLACEHOLDERS.get(p.kind, p.text) for p in parts)


__all__ = [
    "CHAT_FORMATS", "ChatCount", "ChatFormat", "ChatPart", "LLAMA31_DATE", "QWEN25_DEFAULT_SYSTEM",
    "chat_formats_for", "chat_template_text", "count_chat", "count_chats", "count_parts",
]  # fmt: skip
