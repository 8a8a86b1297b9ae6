"""A prompt version: a text, or a chat (messages and tools), and its tokens for one model."""

from __future__ import annotations

from dataclasses import dataclass

from ..tokenizers.encoders import Tokenizer
from .chat import CHAT_FORMATS, ChatRenderError, Message, count_request
from .tools import parse_tools

KINDS = ("text", "chat")
ROLE_NAMES = {"system": "System", "developer": "Developer", "user": "User", "assistant": "Assistant"}


@dataclass(frozen=True)
class PromptVersion:
    """One version of a prompt: a text, or a chat (messages as (role, text) pairs, tools as JSON)."""

    name: str
    kind: str = "text"
    text: str = ""
    messages: tuple[tuple[str, str], ...] = ()
    tools: str = ""

    def as_text(self) -> str:
        """The version as one text: the text, or each message as "[role]" then its text."""
        if self.kind == "text":
            return self.text
        body = "\n\n".join(f"[{role}]\n{content}" for role, content in self.messages)
        return body + (f"\n\n[tools]\n{self.tools.strip()}" if self.tools.strip() else "")

    def sections(self) -> list[tuple[str, str]]:
        """What a diff compares, labelled: the text, or each message under its role, then the tools.

        ``PromptVersion("v", "chat", messages=(("user", "hi"),), tools="[]").sections()
        -> [("User", "hi"), ("Tools", "[]")]``
        """
        if self.kind == "text":
            return [("Text", self.text)]
        out = [(ROLE_NAMES.get(role, role), content) for role, content in self.messages]
        return out + [("Tools", self.tools.strip())] * bool(self.tools.strip())

    def to_json(self) -> dict:
        return {"name": self.name, "kind": self.kind, "text": self.text,
                "messages": [list(m) for m in self.messages], "tools": self.tools}  # fmt: skip


def version_tokens(version: PromptVersion, tokenizer: Tokenizer, chat_format: str | None) -> int | None:
    """Tokens of a version for one model: a text alone, or the whole chat request in the model's
    chat format (None when the request cannot be counted for it)."""
    if version.kind == "text":
        return tokenizer.count(version.text)
    if chat_format is None:
        return None
    try:
        tools = parse_tools(version.tools)
    except ValueError:
        tools = []
    msgs = [Message(r, c) for r, c in version.messages]
    try:
        return count_request(msgs, tokenizer, CHAT_FORMATS[chat_format], tools=tools).total
    except ChatRenderError:
        return None
