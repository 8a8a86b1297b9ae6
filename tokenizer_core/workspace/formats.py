"""What every chat format is made of.

A request is a list of :class:`Message` (one of :data:`ROLES` and a text); a format renders it
as :class:`ChatPart` pieces (special tokens, format text, tools, the messages' own text) or, for
a counting rule, counts it without rendering. :class:`ChatFormat` is one model family's format as
users pick it, with its renderer or its rule: one record per format. Each family's formats live
in a module of their own (`openai_rule`, `llama3_chat`, `qwen_chat`, `mistral_chat`, `harmony`,
`deepseek_chat`, `gemini_rule`, `gemma_chat`, `llama4_chat`), which imports only this one; the
registry (:data:`tokenizer_core.workspace.chat.CHAT_FORMATS`) lists them in one place.

    >>> Message("user", "hi")
    Message(role='user', content='hi')
    >>> [p.kind for p in [_special("<s>"), _own([Message("user", "hi")], 0)]]
    ['special', 'user']
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..tokenizers.encoders import Tokenizer

ROLES = ("system", "developer", "user", "assistant")


@dataclass(frozen=True, slots=True)
class Message:
    """One chat message. `role` is one of :data:`ROLES`."""

    role: str
    content: str


@dataclass(frozen=True, slots=True)
class ChatPart:
    """A piece of a rendered request: a special token, format text, tool definitions, or a
    message's own text (`message` is then its index in the request)."""

    text: str
    kind: str  # "special" | "format" | "tools" | a role (the messages' own text)
    # Tokenized on its own, not joined with neighbouring text (harmony encodes each header piece
    # separately, so "assistant" + " to=functions.f" may cut differently from the joined text).
    alone: bool = False
    message: int | None = None


class ChatRenderError(ValueError):
    """A request a format cannot render (e.g. tools without a user message); says what to change."""


Render = Callable[[list[Message], list[dict]], list[ChatPart]]
# A counting rule: (tokenizer, messages, tools) -> (total, each message's own tokens, the tools' tokens).
RuleCount = Callable[[Tokenizer, Sequence[Message], Sequence[dict]], tuple[int, tuple[int, ...], int]]


@dataclass(frozen=True, slots=True)
class ChatFormat:
    """One model family's chat format, as users pick it: rendered by its `renderer` (the exact
    prompt of the published template) or counted by its `rule` (a documented counting rule)."""

    id: str
    name: str
    tokenizer_ids: tuple[str, ...]
    models: str
    source: str
    renderer: Render | None = field(default=None, repr=False, compare=False)
    rule: RuleCount | None = field(default=None, repr=False, compare=False)
    tools: str = ""  # how tools enter the prompt; "" = the format does not say (not counted)
    counted_by: str = ""  # how a rule counts, in a user's words ("" = OpenAI's documented rule)

    def __post_init__(self) -> None:
        if (self.renderer is None) == (self.rule is None):
            raise ValueError(
                f"{self.id}: give a renderer for a rendered format or a rule for a counting rule"
            )

    @property
    def rendered(self) -> bool:
        """True for a rendered prompt, False for a counting rule."""
        return self.renderer is not None

    def parts(self, user: str, system: str = "") -> list[ChatPart]:
        """One optional system message and one user message, rendered ([] for a rule)."""
        return self.render(_simple(user, system))

    def render(self, messages: Sequence[Message], tools: Sequence[dict] = ()) -> list[ChatPart]:
        """The request as parts (rendered formats only): ``[]`` for a rule-based format.

        Tools are rendered only where the format publishes how (``self.tools``); raises
        ChatRenderError for a request the format's template refuses.
        """
        if self.renderer is None:
            return []
        return self.renderer(list(messages), list(tools) if self.tools else [])


def _simple(user: str, system: str) -> list[Message]:
    return [Message("system", system)] * bool(system) + [Message("user", user)]


def _special(text: str) -> ChatPart:
    return ChatPart(text, "special")


def _fmt(text: str) -> ChatPart:
    return ChatPart(text, "format")


def _own(messages: Sequence[Message], i: int, text: str | None = None) -> ChatPart:
    """Message i's own text (optionally transformed, e.g. trimmed) as a part."""
    m = messages[i]
    return ChatPart(m.content if text is None else text, m.role, message=i)


def _open_roles(messages: Sequence[Message]) -> list[Message]:
    """Open models have no developer role: it is sent as a system message."""
    return [Message("system", m.content) if m.role == "developer" else m for m in messages]


def _tools_json(tools: Sequence[dict], **kw) -> list[str]:
    # Hugging Face's chat templates call `tojson`, which (in transformers) is json.dumps with
    # ensure_ascii=False and the keys in the order given.
    return [json.dumps(t, ensure_ascii=False, **kw) for t in tools]
