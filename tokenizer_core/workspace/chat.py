"""What a chat request costs on top of its text: each model family's chat format, in tokens.

A chat API never sends your text alone. It wraps every message in the model's chat format
(role headers, separators, special tokens) and opens the reply. That is why an API's reported
prompt tokens exceed the count of the text: users' most common "my count doesn't match"
question. This module counts a request of an optional system message and one user message.

Two kinds of format:

* rendered: the exact prompt the model's published chat template produces, tokenized by the
  model's tokenizer (special tokens as their ids, everything else as ordinary text, so a user's
  ``<|eot_id|>`` stays text). Llama 3, Qwen, Mistral Tekken, gpt-oss (harmony, see
  tokenizer_core.workspace.harmony) and DeepSeek V4.
* rule: OpenAI does not publish the rendered format of its chat models; it documents a
  counting rule in the OpenAI Cookbook ("How to count tokens with tiktoken"): 3 tokens per
  message, plus the tokens of the role, plus 3 that prime the reply. o200k_base, cl100k_base.

``count_chat(load_builtin("o200k_base"), "Hello world").overhead -> 7`` (3 + "user" + 3).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..catalog.choices import Choice
from ..tokenizers.encoders import Tokenizer
from ..tokenizers.segments import Segment
from ..tokenizers.textio import json_problem
from . import gemini_rule, gemma_chat, llama4_chat, mistral_spm_chat
from .formats import (
    CHAT_FORMATS,
    RENDERERS,
    ROLES,
    RULES,
    ChatFormat,
    ChatPart,
    ChatRenderError,
    Message,
    _fmt,
    _open_roles,
    _own,
    _simple,
    _special,
    register_format,
)
from .harmony import HarmonyMessage, HarmonyTool, harmony_parts
from .limits import MAX_TOOLS, JSONInputError, load_json

# Llama 3.1-3.3 templates fill "Today Date" with this when no date is given (3.2 and 3.3 use
# today's date where the renderer offers one; such dates are the same length in tokens).
LLAMA31_DATE = "26 Jul 2024"
QWEN25_DEFAULT_SYSTEM = "You are Qwen, created by Alibaba Cloud. You are a helpful assistant."


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


def _tools_json(tools: Sequence[dict], **kw) -> list[str]:
    # Hugging Face's chat templates call `tojson`, which (in transformers) is json.dumps with
    # ensure_ascii=False and the keys in the order given.
    return [json.dumps(t, ensure_ascii=False, **kw) for t in tools]


def _llama_header(role: str) -> list[ChatPart]:
    return [_special("<|start_header_id|>"), _fmt(role), _special("<|end_header_id|>"), _fmt("\n\n")]


def _llama_message(messages: Sequence[Message], i: int) -> list[ChatPart]:
    # Meta's templates: '<|start_header_id|>' + role + '<|end_header_id|>\n\n' + content | trim + '<|eot_id|>'
    m = messages[i]
    return [*_llama_header(m.role), _own(messages, i, m.content.strip()), _special("<|eot_id|>")]


_LLAMA_REPLY = _llama_header("assistant")


def _llama3(messages: list[Message], tools: list[dict]) -> list[ChatPart]:
    """Meta-Llama-3-*-Instruct: BOS, each message with its header, then the reply's header."""
    messages = _open_roles(messages)
    out = [_special("<|begin_of_text|>")]
    for i in range(len(messages)):
        out += _llama_message(messages, i)
    return out + _LLAMA_REPLY


_LLAMA31_TOOLS_INTRO = (
    "Given the following functions, please respond with a JSON for a function call with its proper "
    "arguments that best answers the given prompt.\n\n"
    'Respond in the format {"name": function name, "parameters": dictionary of argument name and its '
    "value}.Do not use variables.\n\n"
)


def _llama31(messages: list[Message], tools: list[dict]) -> list[ChatPart]:
    """Llama 3.1-3.3 Instruct: a system block is always there, with knowledge cutoff and date;
    tools go into the first user message (the template's default, tools_in_user_message)."""
    messages = _open_roles(messages)
    out = [_special("<|begin_of_text|>"), *_llama_header("system")]
    if tools:
        out.append(_fmt("Environment: ipython\n"))
    out.append(_fmt(f"Cutting Knowledge Date: December 2023\nToday Date: {LLAMA31_DATE}\n\n"))
    rest = range(len(messages))
    if messages and messages[0].role == "system":
        if messages[0].content.strip():
            out.append(_own(messages, 0, messages[0].content.strip()))
        rest = range(1, len(messages))
    out.append(_special("<|eot_id|>"))
    if tools:
        if not rest:
            raise ChatRenderError(
                "Llama 3.1's template puts the tools into the first message after the system "
                "message, and there is none: add a user message."
            )
        first = rest[0]
        out += [*_llama_header("user"), _fmt(_LLAMA31_TOOLS_INTRO)]
        for js in _tools_json(tools, indent=4):
            out += [ChatPart(js, "tools"), _fmt("\n\n")]
        out += [_own(messages, first, messages[first].content.strip()), _special("<|eot_id|>")]
        rest = rest[1:]
    for i in rest:
        out += _llama_message(messages, i)
    return out + _LLAMA_REPLY


_QWEN_TOOLS_HEAD = (
    "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
    "You are provided with function signatures within <tools></tools> XML tags:\n<tools>"
)
_QWEN_TOOLS_TAIL = (
    "\n</tools>\n\nFor each function call, return a json object with function name and arguments "
    'within <tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": '
    "<args-json-object>}\n</tool_call>"
)


def _chatml(role: str, body: list[ChatPart]) -> list[ChatPart]:
    return [_special("<|im_start|>"), _fmt(f"{role}\n"), *body, _special("<|im_end|>"), _fmt("\n")]


def _qwen_tools_block(first: list[ChatPart], sep: str, tools: list[dict]) -> list[ChatPart]:
    body = [*first, _fmt(sep + _QWEN_TOOLS_HEAD)]
    for js in _tools_json(tools):
        body += [_fmt("\n"), ChatPart(js, "tools")]
    return _chatml("system", [*body, _fmt(_QWEN_TOOLS_TAIL)])


_CHATML_REPLY = [_special("<|im_start|>"), _fmt("assistant\n")]


def _qwen(messages: list[Message], tools: list[dict], *, default_system: str | None) -> list[ChatPart]:
    messages = _open_roles(messages)
    has_system = bool(messages) and messages[0].role == "system"
    if has_system:
        first = [_own(messages, 0)]
    elif default_system is not None:
        first = [_fmt(default_system)]
    else:
        first = []
    if tools:
        # Qwen 2.5: system text, then "\n\n# Tools"; Qwen3: system text + "\n\n" only if there is one
        sep = "\n\n" if (first and default_system is not None) or has_system else ""
        out = _qwen_tools_block(first, sep, tools)
    else:
        out = _chatml("system", first) if first else []
    last_user = max((i for i, m in enumerate(messages) if m.role == "user"), default=-1)
    for i, m in enumerate(messages):
        if i == 0 and has_system:
            continue
        if default_system is None and m.role == "assistant" and i > last_user:
            # Qwen3 opens an (empty) thinking block in an answer after the last user message
            out += _chatml(
                "assistant", [_fmt("<think>\n\n</think>\n\n"), _own(messages, i, m.content.lstrip("\n"))]
            )
        else:
            out += _chatml(m.role, [_own(messages, i)])
    return out + _CHATML_REPLY


def _qwen3(messages: list[Message], tools: list[dict]) -> list[ChatPart]:
    """ChatML as Qwen3 renders it: no system message unless you give one."""
    return _qwen(messages, tools, default_system=None)


def _qwen25(messages: list[Message], tools: list[dict]) -> list[ChatPart]:
    """ChatML as Qwen 2.5 renders it: a default system message when you give none."""
    return _qwen(messages, tools, default_system=QWEN25_DEFAULT_SYSTEM)


def _harmony(messages: list[Message], tools: list[dict]) -> list[ChatPart]:
    """gpt-oss (harmony): system and developer messages become the developer's instructions (as
    gpt-oss's chat template does), tools the developer message's TypeScript-like namespace."""
    messages = _open_roles(messages)
    systems = [i for i, m in enumerate(messages) if m.role == "system" and m.content]
    turns = [i for i, m in enumerate(messages) if m.role != "system"]
    funcs = [t.get("function", t) for t in tools]
    parts = harmony_parts(
        [HarmonyMessage(messages[i].role, messages[i].content, channel="final" if messages[i].role == "assistant"
                        else None) for i in turns],
        instructions="\n\n".join(messages[i].content for i in systems),
        tools=[HarmonyTool(f["name"], f.get("description", ""), f.get("parameters")) for f in funcs],
    )  # fmt: skip
    # give each message's own text its index (instructions: the first system message's)
    owners = iter(turns)
    out = []
    for p in parts:
        if p.kind == "system" and systems:
            p = ChatPart(p.text, p.kind, p.alone, systems[0])
        elif p.kind in ("user", "assistant"):
            p = ChatPart(p.text, p.kind, p.alone, next(owners, None))
        elif p.kind == "format" and funcs and "namespace functions" in p.text:
            p = ChatPart(p.text, "tools", p.alone)
        out.append(p)
    return out


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


def _mistral_v3(messages: list[Message], tools: list[dict]) -> list[ChatPart]:
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


RENDERERS.update({
    "llama3": _llama3, "llama31": _llama31, "qwen3": _qwen3, "qwen25": _qwen25, "mistral_v3": _mistral_v3,
    "harmony": _harmony,
    "deepseek_v4": lambda messages, tools: _deepseek_v4(messages, tools, thinking=False),
    "deepseek_v4_thinking": lambda messages, tools: _deepseek_v4(messages, tools, thinking=True),
})  # fmt: skip

_COOKBOOK = "OpenAI Cookbook, 'How to count tokens with tiktoken' (num_tokens_from_messages)"

_LLAMA31_TOOLS = (
    "in the first user message, as JSON (indent 4) after an instruction to answer with a function call"
)
_QWEN_TOOLS = "in the system message under '# Tools', one JSON line per tool inside <tools></tools>"

CHAT_FORMATS.update({
    f.id: f
    for f in (
        ChatFormat("openai", "OpenAI chat (documented rule)", ("o200k_base", "cl100k_base"),
                   "GPT-4o, GPT-4.1, GPT-4, GPT-3.5 Turbo", _COOKBOOK, rendered=False,
                   tools="estimated with the OpenAI Cookbook's rule for function definitions"),
        ChatFormat("llama31", "Llama 3.1-3.3 Instruct", ("llama3",), "Llama 3.1, 3.2, 3.3",
                   "the chat_template of Meta's Llama 3.1 Instruct tokenizer_config.json", rendered=True,
                   tools=_LLAMA31_TOOLS),
        ChatFormat("llama3", "Llama 3 Instruct", ("llama3",), "Llama 3",
                   "the chat_template of Meta-Llama-3-8B-Instruct's tokenizer_config.json", rendered=True),
        ChatFormat("qwen3", "Qwen3 (ChatML)", ("qwen",), "Qwen3 (thinking on)",
                   "the chat_template of Qwen3's tokenizer_config.json", rendered=True, tools=_QWEN_TOOLS),
        ChatFormat("qwen25", "Qwen 2.5 (ChatML)", ("qwen",), "Qwen 2.5 Instruct",
                   "the chat_template of Qwen2.5-Instruct's tokenizer_config.json", rendered=True,
                   tools=_QWEN_TOOLS),
        ChatFormat("mistral_v3", "Mistral instruct v3 (Tekken)", ("tekken",), "Mistral NeMo, Pixtral 12B",
                   "mistral-common's InstructTokenizerV3 (checked against it in the tests)", rendered=True,
                   tools="as a JSON list between [AVAILABLE_TOOLS] and [/AVAILABLE_TOOLS], before the last user message"),
        ChatFormat("harmony", "Harmony (gpt-oss)", ("o200k_harmony",), "gpt-oss-20b, gpt-oss-120b",
                   "OpenAI's harmony format: default system message (reasoning: medium), your system "
                   "message as developer instructions (checked against openai-harmony in the tests)",
                   rendered=True, tools="in the developer message, as a TypeScript-like 'namespace functions'"),
        ChatFormat("deepseek_v4", "DeepSeek V4 (thinking off)", ("deepseek_v4",),
                   "DeepSeek-V4-Pro, DeepSeek-V4-Flash",
                   "encode_messages of DeepSeek V4's encoding_dsv4.py, chat mode", rendered=True),
        ChatFormat("deepseek_v4_thinking", "DeepSeek V4 (thinking)", ("deepseek_v4",),
                   "DeepSeek-V4-Pro, DeepSeek-V4-Flash",
                   "encode_messages of DeepSeek V4's encoding_dsv4.py, thinking mode", rendered=True),
    )
})  # fmt: skip

# The formats kept in modules of their own, after the ones above, in the order pages list them.
register_format(gemini_rule.GEMINI, rule=gemini_rule.gemini_count)
register_format(gemma_chat.GEMMA3, render=gemma_chat.render_gemma3)
register_format(gemma_chat.GEMMA2, render=gemma_chat.render_gemma2)
register_format(llama4_chat.LLAMA4, render=llama4_chat.render_llama4)
register_format(mistral_spm_chat.MISTRAL_V1, render=mistral_spm_chat.render_v1)
register_format(mistral_spm_chat.MISTRAL_V3_SP, render=_mistral_v3)  # the same request as with Tekken
register_format(mistral_spm_chat.MISTRAL_V7, render=mistral_spm_chat.render_v7)


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


def _split_template_specials(tokenizer: Tokenizer, parts: Sequence[ChatPart]) -> list[ChatPart]:
    """Special tokens written inside a template's own text (e.g. Qwen's ``<tool_call>``) are
    single tokens, as the model's tokenizer reads them; the messages' text is left as text."""
    specials = tokenizer.special_tokens
    out: list[ChatPart] = []
    for part in parts:
        found = [t for t in specials if t in part.text] if part.kind == "format" else []
        if not found:
            out.append(part)
            continue
        pattern = re.compile("|".join(re.escape(t) for t in sorted(found, key=len, reverse=True)))
        pos = 0
        for m in pattern.finditer(part.text):
            if m.start() > pos:
                out.append(ChatPart(part.text[pos : m.start()], "format", part.alone))
            out.append(_special(m.group()))
            pos = m.end()
        if pos < len(part.text):
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


def _count_format(
    tokenizer: Tokenizer, fmt: ChatFormat, user: str, system: str, counts: tuple[int, int]
) -> ChatCount:
    """One format's count, given the messages' own token counts (user, system)."""
    user_n, system_n = counts
    if fmt.id in RULES:
        return ChatCount(
            fmt, user_n + system_n, count_request(_simple(user, system), tokenizer, fmt).total, ()
        )
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


# ---- whole requests: any number of messages, and tools ---------------------------------------

# The OpenAI Cookbook's estimate for function definitions ("How to count tokens with tiktoken",
# num_tokens_for_tools): per function, per property, per enum item, and at the end.
_TOOL_RULE = {
    "o200k_base": {"func_init": 7, "prop_init": 3, "prop_key": 3, "enum_init": -3, "enum_item": 3, "func_end": 12},
    "cl100k_base": {"func_init": 10, "prop_init": 3, "prop_key": 3, "enum_init": -3, "enum_item": 3, "func_end": 12},
}  # fmt: skip


def _function(tool: dict) -> dict:
    return tool.get("function", tool) if isinstance(tool, dict) else {}


def openai_tool_tokens(tokenizer: Tokenizer, tools: Sequence[dict]) -> int:
    """Tokens the OpenAI Cookbook's rule estimates for these tool (function) definitions."""
    if not tools:
        return 0
    k = _TOOL_RULE.get(tokenizer.id, _TOOL_RULE["o200k_base"])
    total = 0
    for tool in tools:
        f = _function(tool)
        total += k["func_init"]
        desc = str(f.get("description", "")).removesuffix(".")
        total += tokenizer.count(f"{f.get('name', '')}:{desc}")
        props = (f.get("parameters") or {}).get("properties") or {}
        if props:
            total += k["prop_init"]
            for name, spec in props.items():
                spec = spec if isinstance(spec, dict) else {}
                total += k["prop_key"]
                if "enum" in spec:
                    total += k["enum_init"]
                    for item in spec["enum"]:
                        total += k["enum_item"] + tokenizer.count(str(item))
                pdesc = str(spec.get("description", "")).removesuffix(".")
                total += tokenizer.count(f"{name}:{spec.get('type', '')}:{pdesc}")
    return total + k["func_end"]


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
    tokenizer: Tokenizer,
    chat_format: ChatFormat | str,
    *,
    tools: Sequence[dict] = (),
) -> RequestCount:
    """Count a request of any number of messages (and tools) in one chat format (a ChatFormat
    or its id in CHAT_FORMATS).

    ``count_request([Message("user", "Hi")], load_builtin("llama3"), "llama31").total -> 36``
    (with Llama 3.1's default system header). Raises ChatRenderError when the format's template
    refuses the request.
    """
    fmt = CHAT_FORMATS[chat_format] if isinstance(chat_format, str) else chat_format
    tools_counted = bool(tools) and bool(fmt.tools)
    if fmt.id in RULES:
        total, own, tool_n = RULES[fmt.id](tokenizer, messages, tools if tools_counted else ())
        return RequestCount(fmt, total, own, tool_n, tools_counted, ())
    if not fmt.rendered:
        own = tuple(tokenizer.count(m.content) for m in messages)
        tool_n = openai_tool_tokens(tokenizer, tools) if tools_counted else 0
        total = sum(3 + tokenizer.count(m.role) + n for m, n in zip(messages, own)) + 3 + tool_n
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


class ToolsError(ValueError):
    """Tool definitions that are not usable; the message says where and how to fix them."""


def parse_tools(text: str) -> list[dict]:
    """Tool definitions from JSON text: a list (or one object) of OpenAI-style tools
    (``{"type": "function", "function": {...}}``) or bare functions (``{"name": ..., "parameters": ...}``).

    Returns them in the OpenAI form; ``""`` gives ``[]``. Raises ToolsError saying what is wrong.
    """
    if not text.strip():
        return []
    try:
        data = load_json(text, what="tools")
    except json.JSONDecodeError as exc:
        raise ToolsError(f"The tools are not valid JSON: {json_problem(exc)}.") from None
    except JSONInputError as exc:
        raise ToolsError(str(exc)) from None
    items = data if isinstance(data, list) else [data]
    if len(items) > MAX_TOOLS:
        raise ToolsError(f"There are {len(items):,} tools; a request holds at most {MAX_TOOLS}: remove some.")
    out = []
    for n, item in enumerate(items, start=1):
        where = f"Tool {n}"
        if not isinstance(item, dict):
            raise ToolsError(
                f'{where} is not an object: each tool is {{"name": ..., "parameters": {{...}}}}.'
            )
        f = item.get("function", item) if item.get("type", "function") == "function" else None
        if not isinstance(f, dict):
            raise ToolsError(f'{where}: only function tools can be counted ("type": "function").')
        name = f.get("name")
        if not isinstance(name, str) or not name.strip():
            raise ToolsError(f'{where} has no "name": give each function a name.')
        params = f.get("parameters", {"type": "object", "properties": {}})
        if not isinstance(params, dict) or params.get("type", "object") != "object":
            raise ToolsError(f"{where} ({name}): \"parameters\" must be a JSON Schema object "
                             '({"type": "object", "properties": {...}}).')  # fmt: skip
        if not isinstance(params.get("properties", {}), dict):
            raise ToolsError(f'{where} ({name}): "properties" must be an object of parameter schemas.')
        if "description" in f and not isinstance(f["description"], str):
            raise ToolsError(f'{where} ({name}): "description" must be text.')
        if problem := _schema_problem(params):
            raise ToolsError(f"{where} ({name}): {problem}.")
        out.append({"type": "function", "function": f})
    return out


# What the chat formats read from a parameter schema, and the JSON type each must have.
_SCHEMA_KEYS = {"description": str, "title": str, "enum": list, "required": list, "examples": list,
                "properties": dict, "items": dict, "oneOf": list, "anyOf": list, "allOf": list}  # fmt: skip
_JSON_TYPES = {str: "text", list: "a list", dict: "an object"}


def _schema_problem(schema: dict) -> str | None:
    """What in a tool's parameter schema the chat formats cannot read, or None.

    ``_schema_problem({"type": "object", "properties": {"a": 5}}) -> '"properties.a" must be a schema object'``
    """
    todo: list[tuple[object, str]] = [(schema, "parameters")]
    while todo:
        node, path = todo.pop()
        if not isinstance(node, dict):
            return f'"{path}" must be a schema object'
        for key, kind in _SCHEMA_KEYS.items():
            if key in node and not isinstance(node[key], kind):
                return f'"{path}.{key}" must be {_JSON_TYPES[kind]}'
        kinds = node.get("type", "")
        if not isinstance(kinds, (str, list)) or not all(isinstance(k, str) for k in (
                kinds if isinstance(kinds, list) else [kinds])):  # fmt: skip
            return f'"{path}.type" must be a type name or a list of them'
        if not all(isinstance(r, str) for r in node.get("required", [])):
            return f'"{path}.required" must be a list of parameter names'
        todo.extend((sub, f"{path}.properties.{key}") for key, sub in node.get("properties", {}).items())
        if "items" in node:
            todo.append((node["items"], f"{path}.items"))
        for key in ("oneOf", "anyOf", "allOf"):
            todo.extend((sub, f"{path}.{key}[{i}]") for i, sub in enumerate(node.get(key, [])))
    return None


def chat_template_text(parts: Sequence[ChatPart]) -> str:
    """The rendered request with the messages' own text replaced by placeholders, for display.

    ``chat_template_text(CHAT_FORMATS["mistral_v3"].parts("hi")) -> "<s>[INST]⟨your text⟩[/INST]"``
    """
    return "".join(_PLACEHOLDERS.get(p.kind, p.text) for p in parts)


__all__ = [
    "CHAT_FORMATS",
    "LLAMA31_DATE",
    "QWEN25_DEFAULT_SYSTEM",
    "ROLES",
    "ChatCount",
    "ChatFormat",
    "ChatPart",
    "ChatRenderError",
    "Message",
    "RequestCount",
    "ToolsError",
    "chat_formats_for",
    "chat_template_text",
    "count_chat",
    "count_chats",
    "count_parts",
    "count_request",
    "openai_tool_tokens",
    "parse_tools",
    "register_format",
    "request_segments",
    "rule_notes",
]  # fmt: skip
