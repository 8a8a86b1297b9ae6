"""What every chat format is made of, and the registry of formats.

A request is a list of :class:`Message` (one of :data:`ROLES` and a text); a format renders it
as :class:`ChatPart` pieces (special tokens, format text, tools, the messages' own text) or, for
a counting rule, counts it without rendering. :class:`ChatFormat` describes one model family's
format as users pick it. The registry (:data:`CHAT_FORMATS` with each format's renderer or rule)
is filled in one place, `tokenizer_core.workspace.chat`; the modules of single families
(`harmony`, `gemma_chat`, `llama4_chat`, `mistral_spm_chat`, `gemini_rule`) import only this one.

    >>> Message("user", "hi")
    Message(role='user', content='hi')
    >>> [p.kind for p in [_special("<s>"), _own([Message("user", "hi")], 0)]]
    ['special', 'user']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

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


@dataclass(frozen=True, slots=True)
class ChatFormat:
    """One model family's chat format, as users pick it."""

    id: str
    name: str
    tokenizer_ids: tuple[str, ...]
    models: str
    source: str
    rendered: bool  # False: the documented counting rule, not a rendered prompt
    tools: str = ""  # how tools enter the prompt; "" = the format does not say (not counted)
    counted_by: str = ""  # how a rule counts, in a user's words ("" = OpenAI's documented rule)

    def parts(self, user: str, system: str = "") -> list[ChatPart]:
        """One optional system message and one user message, rendered ([] for a rule)."""
        return self.render(_simple(user, system)) if self.rendered else []

    def render(self, messages: Sequence[Message], tools: Sequence[dict] = ()) -> list[ChatPart]:
        """The request as parts (rendered formats only): ``[]`` for a rule-based format.

        Tools are rendered only where the format publishes how (``self.tools``); raises
        ChatRenderError for a request the format's template refuses.
        """
        if not self.rendered:
            return []
        return RENDERERS[self.id](list(messages), list(tools) if self.tools else [])


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


Render = Callable[[list[Message], list[dict]], list[ChatPart]]
CHAT_FORMATS: dict[str, ChatFormat] = {}
RENDERERS: dict[str, Render] = {}

# A counting rule other than OpenAI's: (tokenizer, messages, tools) -> (total, each message's
# own tokens, the tools' tokens).
RuleCount = Callable[[Tokenizer, Sequence[Message], Sequence[dict]], tuple[int, tuple[int, ...], int]]
RULES: dict[str, RuleCount] = {}


def register_format(
    fmt: ChatFormat,
    *,
    render: Render | None = None,
    rule: RuleCount | None = None,
) -> None:
    """Add a chat format kept in a module of its own: a rendered one with its `render`, or a
    counting rule (``rendered=False``) with its `rule`."""
    if (render is None) == (rule is None) or fmt.rendered != (render is not None):
        raise ValueError(f"{fmt.id}: give a render for a rendered format or a rule for a counting rule")
    CHAT_FORMATS[fmt.id] = fmt
    if render is not None:
        RENDERERS[fmt.id] = render
    if rule is not None:
        RULES[fmt.id] = rule
