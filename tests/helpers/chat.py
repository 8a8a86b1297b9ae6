"""A one-message chat request counted in a format: the shape most chat tests check.

``count_chat(tok, user, system)`` is ``count_request`` of an optional system message and one user
message, with the messages' own tokens counted as they are typed (before a template trims them),
so ``overhead`` is everything the format adds.
"""

from __future__ import annotations

from dataclasses import dataclass

from tokenizer_core.tokenizers.encoders import Tokenizer
from tokenizer_core.workspace.chat import CHAT_FORMATS, chat_formats_for, count_request
from tokenizer_core.workspace.formats import ChatFormat, ChatPart, Message


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


def _count(tokenizer: Tokenizer, fmt: ChatFormat, user: str, system: str) -> ChatCount:
    messages = [Message("system", system)] * bool(system) + [Message("user", user)]
    request = count_request(messages, tokenizer, fmt)
    content = tokenizer.count(user) + (tokenizer.count(system) if system else 0)
    return ChatCount(fmt, content, request.total, request.parts)


def count_chats(tokenizer: Tokenizer, user: str, system: str = "") -> list[ChatCount]:
    """The request counted in every chat format known for the tokenizer; ``[]`` if it has none."""
    return [_count(tokenizer, f, user, system) for f in chat_formats_for(tokenizer.id)]


def count_chat(
    tokenizer: Tokenizer, user: str, system: str = "", *, format_id: str | None = None
) -> ChatCount | None:
    """The request in one format (the tokenizer's first unless `format_id`), or None if the
    tokenizer has no such chat format."""
    formats = chat_formats_for(tokenizer.id)
    fmt = CHAT_FORMATS.get(format_id) if format_id else (formats[0] if formats else None)
    if fmt is None or fmt not in formats:
        return None
    return _count(tokenizer, fmt, user, system)
