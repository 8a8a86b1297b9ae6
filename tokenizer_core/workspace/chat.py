"""What a chat request costs on top of its text: each model family's chat format, in tokens.

A chat API never sends your text alone. It wraps every message in the model's chat format
(role headers, separators, special tokens) and opens the reply. That is why an API's reported
prompt tokens exceed the count of the text: users' most common "my count doesn't match"
question. This module holds the registry of formats and counts a request of any number of
messages (and tools) in one of them.

Two kinds of format (one :class:`~tokenizer_core.workspace.formats.ChatFormat` record each,
kept with its family's module):

* rendered: the exact prompt the model's published chat template produces, tokenized by the
  model's tokenizer (special tokens as their ids, everything else as ordinary text, so a user's
  ``<|eot_id|>`` stays text). Llama 3 and 4, Qwen, Mistral, gpt-oss (harmony), DeepSeek V4, Gemma.
* rule: a documented counting rule where no rendered format is published. OpenAI's (the OpenAI
  Cookbook: 3 tokens per message, plus the role, plus 3 that prime the reply; `openai_rule`) and
  Gemini's (Google's SDK counts each text on its own; `gemini_rule`).

``count_request([Message("user", "Hello world")], load_builtin("o200k_base"), "openai").total -> 9``
(3 + "user" + 2 + 3).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..catalog.choices import Choice
from ..catalog.lookup import as_tokenizer, chat_format_of
from ..tokenizers.encoders import Tokenizer
from ..tokenizers.segments import Segment
from .deepseek_chat import DEEPSEEK_V4, DEEPSEEK_V4_THINKING
from .formats import ROLES, ChatFormat, ChatPart, ChatRenderError, Message, _special
from .gemini_rule import GEMINI
from .gemma_chat import GEMMA2, GEMMA3
from .harmony import HARMONY
from .llama3_chat import LLAMA3, LLAMA31
from .llama4_chat import LLAMA4
from .mistral_chat import MISTRAL_V1, MISTRAL_V3, MISTRAL_V3_SP, MISTRAL_V7
from .openai_rule import OPENAI
from .qwen_chat import QWEN3, QWEN25

# Every chat format, in the order pages list them.
CHAT_FORMATS: dict[str, ChatFormat] = {
    f.id: f
    for f in (
        OPENAI, LLAMA31, LLAMA3, QWEN3, QWEN25, MISTRAL_V3, HARMONY, DEEPSEEK_V4, DEEPSEEK_V4_THINKING,
        GEMINI, GEMMA3, GEMMA2, LLAMA4, MISTRAL_V1, MISTRAL_V3_SP, MISTRAL_V7,
    )
}  # fmt: skip


def chat_formats_for(tokenizer_id: str) -> list[ChatFormat]:
    """The chat formats known for a tokenizer (none for completion-only or your own ones).

    ``[f.id for f in chat_formats_for("qwen")] -> ["qwen3", "qwen25"]``
    """
    return [f for f in CHAT_FORMATS.values() if tokenizer_id in f.tokenizer_ids]


def rule_notes(choices: Sequence[Choice]) -> list[str]:
    """What a counting rule counts, once per rule among the chosen models (Gemini's).

    ``rule_notes(resolve_choices(["gemini-2.5-pro"]))[0].startswith("Gemini 2.5 Pro: text only")``
    """
    by_format: dict[str, list[str]] = {}
    for c in choices:
        fmt = CHAT_FORMATS.get(c.chat_format or "")
        if fmt is not None and fmt.counted_by:
            by_format.setdefault(fmt.id, []).append(c.name)
    return [f"{', '.join(names)}: {CHAT_FORMATS[fid].counted_by}." for fid, names in by_format.items()]


@lru_cache(maxsize=64)
def _specials_pattern(specials: frozenset[str]) -> re.Pattern[str] | None:
    """One pattern for a tokenizer's special tokens, the longest first where two start alike:
    ``frozenset({"<|a|>", "<|ab|>"})`` -> ``<\\|ab\\|>|<\\|a\\|>``. Kept per set of specials: a
    set counted row by row renders the same template thousands of times."""
    if not specials:
        return None
    return re.compile("|".join(re.escape(t) for t in sorted(specials, key=lambda t: (-len(t), t))))


def _split_template_specials(tokenizer: Tokenizer, parts: Sequence[ChatPart]) -> list[ChatPart]:
    """Special tokens written inside a template's own text (e.g. Qwen's ``<tool_call>``) are
    single tokens, as the model's tokenizer reads them; the messages' text is left as text."""
    pattern = _specials_pattern(frozenset(tokenizer.special_tokens))
    out: list[ChatPart] = []
    for part in parts:
        if pattern is None or part.kind != "format":
            out.append(part)
            continue
        pos = 0
        for m in pattern.finditer(part.text):
            if m.start() > pos:
                out.append(ChatPart(part.text[pos : m.start()], "format", part.alone))
            out.append(_special(m.group()))
            pos = m.end()
        if pos == 0:
            out.append(part)  # no special token in it: the part as it was
        elif pos < len(part.text):
            out.append(ChatPart(part.text[pos:], "format", part.alone))
    return out


def count_parts(tokenizer: Tokenizer, parts: Sequence[ChatPart]) -> int:
    """Tokens of a rendered request: each special token is one id, the text between them is
    encoded as ordinary text (specials split a prompt, so this equals encoding it whole)."""
    specials = tokenizer.special_tokens
    total, run = 0, list[str]()
    for part in _split_template_specials(tokenizer, parts):
        if part.kind == "special" or part.alone:
            if part.kind == "special" and part.text not in specials:
                raise KeyError(f"{tokenizer.info.name} has no special token {part.text!r}")
            total += 1 if part.kind == "special" else tokenizer.count(part.text)
            total += tokenizer.count("".join(run)) if run else 0
            run = []
        else:
            run.append(part.text)
    return total + (tokenizer.count("".join(run)) if run else 0)


_PLACEHOLDERS = {"user": "⟨your text⟩", "system": "⟨system message⟩"}


@dataclass(frozen=True, slots=True)
class RequestCount:
    """A whole request in one format: every message's own tokens, the tools', and the total
    (the prompt tokens an API reports, up to the start of the reply)."""

    format: ChatFormat
    total: int
    message_tokens: tuple[int, ...]
    tools_tokens: int
    tools_counted: bool
    parts: tuple[ChatPart, ...]

    @property
    def template_tokens(self) -> int:
        """Tokens the format itself adds: special tokens, role headers, fixed text."""
        return self.total - sum(self.message_tokens) - self.tools_tokens


def count_request(
    messages: Sequence[Message],
    tokenizer: Tokenizer | str,
    chat_format: ChatFormat | str | None = None,
    *,
    tools: Sequence[dict] = (),
) -> RequestCount:
    """Count a request of any number of messages (and tools) in one chat format (a ChatFormat
    or its id in CHAT_FORMATS). `tokenizer` may be a model's name, whose chat format is then the
    default: ``count_request(chat, "llama-3.1-8b")`` is ``count_request(chat, llama3, "llama31")``.

    ``count_request([Message("user", "Hi")], load_builtin("llama3"), "llama31").total -> 36``
    (with Llama 3.1's default system header). Raises ChatRenderError when the format's template
    refuses the request.
    """
    if chat_format is None:
        chat_format = chat_format_of(tokenizer) if isinstance(tokenizer, str) else None
        if chat_format is None:
            named = tokenizer if isinstance(tokenizer, str) else tokenizer.info.id
            raise ValueError(
                f"{named} implies no chat format: pass a model name such as 'gpt-4o' or a chat format, "
                f"one of {', '.join(CHAT_FORMATS)}"
            )
    tokenizer = as_tokenizer(tokenizer)
    fmt = CHAT_FORMATS[chat_format] if isinstance(chat_format, str) else chat_format
    tools_counted = bool(tools) and bool(fmt.tools)
    if fmt.rule is not None:
        total, own, tool_n = fmt.rule(tokenizer, messages, tools if tools_counted else ())
        return RequestCount(fmt, total, own, tool_n, tools_counted, ())
    parts = tuple(fmt.render(messages, tools))
    own_list = [0] * len(messages)
    tool_n = 0
    for p in parts:
        if p.message is not None:
            own_list[p.message] += tokenizer.count(p.text)
        elif p.kind == "tools":
            tool_n += tokenizer.count(p.text)
    return RequestCount(fmt, count_parts(tokenizer, parts), tuple(own_list), tool_n, tools_counted, parts)


def request_segments(tokenizer: Tokenizer, parts: Sequence[ChatPart]) -> list[Segment]:
    """The rendered request as token segments (offsets into ``"".join(p.text for p in parts)``).

    Everything the format adds (special tokens and template text) has ``special=True``, so a
    view can mark it apart from the messages' and tools' own text. A token that starts in the
    template's text counts as the template's.
    """
    out: list[Segment] = []
    specials = tokenizer.special_tokens
    pos = 0
    run: list[ChatPart] = []

    def flush(run_start: int) -> None:
        text = "".join(p.text for p in run)
        if not text:
            return
        bounds, off = [], run_start
        for p in run:
            bounds.append((off, off + len(p.text), p.kind == "format"))
            off += len(p.text)
        for seg in tokenizer.segments(text):
            start = seg.start + run_start
            is_format = next((f for a, b, f in bounds if a <= start < b), False)
            out.append(Segment(start, seg.end + run_start, seg.ids, seg.text, seg.data, is_format))

    run_start = 0
    for part in _split_template_specials(tokenizer, parts):
        if part.kind == "special":
            flush(run_start)
            run = []
            out.append(Segment(pos, pos + len(part.text), (specials[part.text],), part.text,
                               part.text.encode("utf-8"), True))  # fmt: skip
            pos += len(part.text)
            run_start = pos
        elif part.alone:  # tokenized on its own (harmony's header pieces)
            flush(run_start)
            run = [part]
            flush(pos)
            run = []
            pos += len(part.text)
            run_start = pos
        else:
            run.append(part)
            pos += len(part.text)
    flush(run_start)
    return out


def chat_template_text(parts: Sequence[ChatPart]) -> str:
    """The rendered request with the messages' own text replaced by placeholders, for display.

    ``chat_template_text(CHAT_FORMATS["mistral_v3"].parts("hi")) -> "<s>[INST]⟨your text⟩[/INST]"``
    """
    return "".join(_PLACEHOLDERS.get(p.kind, p.text) for p in parts)


__all__ = [
    "CHAT_FORMATS", "ROLES", "ChatFormat", "ChatPart", "ChatRenderError", "Message", "RequestCount",
    "chat_formats_for", "chat_template_text", "count_parts", "count_request", "request_segments", "rule_notes",
]  # fmt: skip
