"""OpenAI's harmony chat format (gpt-oss), rendered as parts for counting with o200k_harmony.

Harmony wraps every message as ``<|start|>{header}<|message|>{content}<|end|>``: the header is
the author (a role, or a tool's name), an optional `` to={recipient}``, an optional
``<|channel|>{channel}`` and an optional content type (``<|constrain|>json``). A request
starts with a system message (model identity, knowledge cutoff, reasoning effort, valid
channels), then a developer message (``# Instructions`` and the function tools, written as a
TypeScript namespace) and the conversation, and ends with ``<|start|>assistant`` where the
reply begins. An assistant message that calls a tool ends with ``<|call|>``.

Each header piece and each content is tokenized on its own (as OpenAI's renderer does), so
parts here are marked ``alone``. The tests check every count against OpenAI's
``openai-harmony`` package.

``len(harmony_parts([HarmonyMessage("user", "Hello world")]))`` -> 14 parts; counted with
o200k_harmony that request is 59 tokens.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .formats import ChatFormat, ChatPart, Message, _open_roles

HARMONY_IDENTITY = "You are ChatGPT, a large language model trained by OpenAI."
HARMONY_CUTOFF = "2024-06"
HARMONY_CHANNELS = ("analysis", "commentary", "final")
REASONING_EFFORTS = ("low", "medium", "high")


@dataclass(frozen=True, slots=True)
class HarmonySystem:
    """The system message's settings (defaults: those of openai-harmony's SystemContent.new())."""

    model_identity: str | None = HARMONY_IDENTITY
    knowledge_cutoff: str | None = HARMONY_CUTOFF
    current_date: str | None = None  # e.g. "2025-06-28"
    reasoning_effort: str | None = "medium"  # low | medium | high
    channels: tuple[str, ...] = HARMONY_CHANNELS
    channel_required: bool = True


@dataclass(frozen=True, slots=True)
class HarmonyTool:
    """A function the model may call: name, description and a JSON schema of its parameters."""

    name: str
    description: str
    parameters: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class HarmonyMessage:
    """One message of the conversation after the system and developer messages.

    role: "user", "assistant" or "tool". A tool's reply has role "tool" and `name` set to the
    function it answers for (e.g. "functions.get_weather"). Assistant messages carry a
    `channel` ("analysis" for reasoning, "commentary" for tool calls, "final" for the answer);
    a tool call has `recipient` "functions.<name>" and usually `content_type` "<|constrain|>json".
    """

    role: str
    content: str
    channel: str | None = None
    recipient: str | None = None
    content_type: str | None = None
    name: str | None = None


def _special(text: str) -> ChatPart:
    return ChatPart(text, "special")


def _piece(text: str, kind: str = "format") -> ChatPart:
    return ChatPart(text, kind, alone=True)


def _system_text(system: HarmonySystem, *, has_functions: bool) -> str:
    top = []
    if system.model_identity is not None:
        top.append(system.model_identity)
    if system.knowledge_cutoff is not None:
        top.append(f"Knowledge cutoff: {system.knowledge_cutoff}")
    if system.current_date is not None:
        top.append(f"Current date: {system.current_date}")
    sections = ["\n".join(top)] if top else []
    if system.reasoning_effort is not None:
        if system.reasoning_effort not in REASONING_EFFORTS:
            raise ValueError(
                f"reasoning effort must be one of {REASONING_EFFORTS}, not {system.reasoning_effort!r}"
            )
        sections.append(f"Reasoning: {system.reasoning_effort}")
    if system.channels:
        line = f"# Valid channels: {', '.join(system.channels)}."
        if system.channel_required:
            line += " Channel must be included for every message."
        if has_functions:
            line += "\nCalls to these tools must go to the commentary channel: 'functions'."
        sections.append(line)
    return "\n\n".join(sections)


def _default_comment(value: Any, schema: Mapping[str, Any]) -> str:
    # a string default is quoted unless the schema is an enum (whose values are already literals)
    if isinstance(value, str):
        return f'default: "{value}"' if not _is_enum(schema) else f"default: {value}"
    return f"default: {json.dumps(value, separators=(',', ':'), ensure_ascii=False)}"


def _is_enum(schema: Mapping[str, Any]) -> bool:
    values = schema.get("enum")
    return isinstance(values, list) and bool(values)


def _nullable(type_text: str, schema: Mapping[str, Any]) -> str:
    if schema.get("nullable") is True and "null" not in type_text:
        return f"{type_text} | null"
    return type_text


def _trailing(comments: list[str]) -> str:
    return f" // {' '.join(comments)}" if comments else ""


def schema_to_typescript(schema: Mapping[str, Any], indent: str = "") -> str:
    """A JSON schema written as the TypeScript type harmony shows the model.

    ``schema_to_typescript({"type": "string", "enum": ["c", "f"]}) -> '"c" | "f"'``
    """
    variants = schema.get("oneOf")
    if isinstance(variants, list):
        out = ""
        for variant in variants:
            out += f"\n{indent} | " + _nullable(schema_to_typescript(variant, indent + "   "), variant)
            comments = [variant["description"]] if isinstance(variant.get("description"), str) else []
            if "default" in variant:
                comments.append(_default_comment(variant["default"], variant))
            out += _trailing(comments)
        return out
    kind = schema.get("type")
    if isinstance(kind, list):
        names = ["number" if k == "integer" else k for k in kind if isinstance(k, str)]
        if names:
            return " | ".join(names)
        kind = None
    if kind == "object":
        return _object_to_typescript(schema, indent)
    if kind == "string":
        values = [f'"{v}"' for v in schema.get("enum") or [] if isinstance(v, str)]
        return " | ".join(values) if values else "string"
    if kind in ("number", "integer"):
        return "number"
    if kind == "boolean":
        return "boolean"
    if kind == "array":
        items = schema.get("items")
        return f"{schema_to_typescript(items, indent)}[]" if items is not None else "Array<any>"
    return "any"


def _object_to_typescript(schema: Mapping[str, Any], indent: str) -> str:
    out = f"{indent}// {schema['description']}\n" if isinstance(schema.get("description"), str) else ""
    out += "{\n"
    required = {r for r in schema.get("required") or [] if isinstance(r, str)}
    properties = schema.get("properties")
    for key, prop in properties.items() if isinstance(properties, Mapping) else []:
        optional = "" if key in required else "?"
        desc = prop.get("description") if isinstance(prop.get("description"), str) else None
        variants = prop.get("oneOf")
        if isinstance(prop.get("title"), str):
            out += f"{indent}// {prop['title']}\n{indent}//\n"
        if desc is not None and not isinstance(variants, list):
            out += f"{indent}// {desc}\n"
        examples = prop.get("examples")
        if isinstance(examples, list) and examples:
            out += f"{indent}// Examples:\n"
            out += "".join(f'{indent}// - "{e}"\n' for e in examples if isinstance(e, str))
        if isinstance(variants, list):
            out += _property_variants(key, optional, prop, variants, desc, indent)
            continue
        out += f"{indent}{key}{optional}: "
        out += _nullable(schema_to_typescript(prop, indent + "    "), prop) + ","
        if "default" in prop:
            out += " // " + _default_comment(prop["default"], prop)
        out += "\n"
    return out + f"{indent}}}"


def _property_variants(
    key: str, optional: str, prop: Mapping[str, Any], variants: list, desc: str | None, indent: str
) -> str:
    """A property whose schema is a oneOf: one ``| type`` line per variant."""
    first_desc = variants[0].get("description") if variants and isinstance(variants[0], Mapping) else None
    desc_above = desc is not None and desc != first_desc
    out = f"{indent}// {desc}\n" if desc_above else ""
    if "default" in prop:
        out += f"{indent}// {_default_comment(prop['default'], prop)}\n"
    out += f"{indent}{key}{optional}:\n"
    for i, variant in enumerate(variants):
        out += f"{indent} | " + _nullable(schema_to_typescript(variant, indent + "   "), variant)
        comments = []
        vdesc = variant.get("description")
        if not (i == 0 and desc_above) and isinstance(vdesc, str) and vdesc != desc:
            comments.append(vdesc)
        if "default" in variant:
            comments.append(_default_comment(variant["default"], variant))
        out += _trailing(comments) + "\n"
    return out + f"{indent},\n"


def tools_text(tools: Sequence[HarmonyTool], namespace: str = "functions") -> str:
    """The ``# Tools`` section of the developer message for function tools."""
    lines = [f"## {namespace}\n", f"namespace {namespace} {{\n"]
    for tool in tools:
        lines += [f"// {line}" for line in tool.description.splitlines()]
        params = schema_to_typescript(tool.parameters) if tool.parameters is not None else None
        lines.append(
            f"type {tool.name} = (_: {params}) => any;\n" if params else f"type {tool.name} = () => any;\n"
        )
    lines.append(f"}} // namespace {namespace}")
    return "# Tools\n\n" + "\n".join(lines)


def _message(
    author: str, content: Sequence[ChatPart], *, recipient: str | None = None, channel: str | None = None,
    content_type: str | None = None, end: str = "<|end|>",
) -> list[ChatPart]:  # fmt: skip
    out = [_special("<|start|>"), _piece(author)]
    if recipient and recipient != "all":
        out.append(_piece(f" to={recipient}"))
    if channel is not None:
        out += [_special("<|channel|>"), _piece(channel)]
    if content_type is not None:
        if content_type.startswith("<|constrain|>"):
            rest = content_type.removeprefix("<|constrain|>")
            out += [_piece(" "), _special("<|constrain|>")] + ([_piece(rest)] if rest else [])
        else:
            out.append(_piece(f" {content_type}"))
    return [*out, _special("<|message|>"), *content, _special(end)]


def harmony_parts(
    messages: Sequence[HarmonyMessage],
    *,
    system: HarmonySystem = HarmonySystem(),
    instructions: str = "",
    tools: Sequence[HarmonyTool] = (),
    next_role: str = "assistant",
    drop_analysis: bool = True,
) -> list[ChatPart]:
    """A harmony request as parts: system, developer (when there are instructions or tools),
    the messages, then ``<|start|>{next_role}``.

    drop_analysis: when the last assistant message is a final answer, reasoning ("analysis")
    messages before the first final answer are left out, as models are served.
    """
    parts = _message("system", [ChatPart(_system_text(system, has_functions=bool(tools)), "format")])
    if instructions or tools:
        dev: list[ChatPart] = []
        if instructions:
            dev += [ChatPart("# Instructions\n\n", "format"), ChatPart(instructions, "system")]
        if tools:
            dev.append(ChatPart(("\n\n" if instructions else "") + tools_text(tools), "format"))
        parts += _message("developer", dev)
    last_assistant = next((m for m in reversed(messages) if m.role == "assistant"), None)
    first_final = next((i for i, m in enumerate(messages) if m.channel == "final"), None)
    drop = drop_analysis and last_assistant is not None and last_assistant.channel == "final"
    for i, msg in enumerate(messages):
        if drop and first_final is not None and i < first_final and msg.channel == "analysis":
            continue
        if msg.role == "tool":
            if not msg.name:
                raise ValueError("a tool message needs the tool's name (e.g. 'functions.get_weather')")
            author = msg.name
        elif msg.role in ("user", "assistant"):
            author = msg.role
        else:
            raise ValueError(f"role must be user, assistant or tool, not {msg.role!r}")
        end = "<|call|>" if msg.role == "assistant" and msg.recipient else "<|end|>"
        parts += _message(
            author, [_piece(msg.content, msg.role)], recipient=msg.recipient, channel=msg.channel,
            content_type=msg.content_type, end=end,
        )  # fmt: skip
    return [*parts, _special("<|start|>"), _piece(next_role)]


def render_harmony(messages: list[Message], tools: list[dict]) -> list[ChatPart]:
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


HARMONY = ChatFormat(
    "harmony", "Harmony (gpt-oss)", ("o200k_harmony",), "gpt-oss-20b, gpt-oss-120b",
    "OpenAI's harmony format: default system message (reasoning: medium), your system "
    "message as developer instructions (checked against openai-harmony in the tests)",
    renderer=render_harmony, tools="in the developer message, as a TypeScript-like 'namespace functions'",
)  # fmt: skip


__all__ = [
    "HARMONY", "HARMONY_CHANNELS", "HARMONY_CUTOFF", "HARMONY_IDENTITY", "HarmonyMessage", "HarmonySystem",
    "HarmonyTool", "harmony_parts", "render_harmony", "schema_to_typescript", "tools_text",
]  # fmt: skip
