"""Whole chat requests (any number of messages, and tools) rendered in each family's format.

The reference for Llama 3.1 and Qwen 2.5 is each family's published chat template (the Jinja text
in tests/data/chat_templates.json, credited there), rendered here with jinja2 the way Hugging Face
transformers renders chat templates: trim_blocks, lstrip_blocks, loop controls, and a `tojson` that
keeps key order and non-ASCII text. The app's renderer never produces the reference.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jinja2.ext import loopcontrols
from jinja2.sandbox import ImmutableSandboxedEnvironment

from tests.conftest import builtin
from tokenizer_core.workspace.chat import (
    CHAT_FORMATS,
    ChatRenderError,
    Message,
    count_request,
    request_segments,
)
from tokenizer_core.workspace.openai_rule import openai_tool_tokens
from tokenizer_core.workspace.tools import ToolsError, parse_tools

TEMPLATES = json.loads(
    (Path(__file__).parents[1] / "data" / "chat_templates.json").read_text(encoding="utf-8")
)

WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Get the weather forecast for a city, in °C.",
        "parameters": {
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "City name, e.g. Zürich"},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "description": "Unit."},
            },
            "required": ["city"],
        },
    },
}
CHAT = [
    Message("system", "You are a travel assistant.  Be brief.\n"),
    Message("user", "What's the weather in Paris tomorrow? 🌦"),
    Message("assistant", "I will look it up."),
]


def _render_published(name: str, messages, tools, **extra) -> str:
    def raise_exception(msg):
        raise ValueError(msg)

    def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
        return json.dumps(
            x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys
        )

    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[loopcontrols])
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    template = env.from_string(TEMPLATES[name])
    return template.render(
        messages=[{"role": m.role, "content": m.content} for m in messages],
        tools=list(tools) or None,
        add_generation_prompt=True,
        **extra,
    )


CASES = [
    ("llama31", "llama3", {"bos_token": "<|begin_of_text|>"}),
    ("qwen25", "qwen", {}),
]


@pytest.mark.parametrize(("fmt", "tok", "extra"), CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("with_tools", [True, False], ids=["tool", "no-tool"])
def test_three_message_chat_matches_the_published_template(fmt, tok, extra, with_tools):
    tools = [WEATHER] if with_tools else []
    expected = _render_published(fmt, CHAT, tools, **extra)
    parts = CHAT_FORMATS[fmt].render(CHAT, tools)
    assert "".join(p.text for p in parts) == expected
    tokenizer = builtin(tok)
    count = count_request(CHAT, tokenizer, CHAT_FORMATS[fmt], tools=tools)
    assert count.total == len(tokenizer.encode(expected, allow_special=True))
    assert count.tools_counted is with_tools and (count.tools_tokens > 30) is with_tools
    # every message's own text is counted, and the rest is what the template adds
    assert count.message_tokens[1] == tokenizer.count(CHAT[1].content.strip())
    assert count.template_tokens == count.total - sum(count.message_tokens) - count.tools_tokens > 0


@pytest.mark.parametrize(("fmt", "tok", "extra"), CASES, ids=[c[0] for c in CASES])
def test_no_system_message_and_two_user_turns(fmt, tok, extra):
    chat = [
        Message("user", "Hi"),
        Message("assistant", "Hello! How can I help?"),
        Message("user", "Rain in Oslo?"),
    ]
    expected = _render_published(fmt, chat, [WEATHER], **extra)
    parts = CHAT_FORMATS[fmt].render(chat, [WEATHER])
    assert "".join(p.text for p in parts) == expected


def test_tool_definitions_are_marked_apart_from_the_template():
    parts = CHAT_FORMATS["qwen25"].render(CHAT, [WEATHER])
    assert [json.loads(p.text) for p in parts if p.kind == "tools"] == [WEATHER]
    segs = request_segments(builtin("qwen"), parts)
    text = "".join(p.text for p in parts)
    assert "".join(s.text for s in segs) == text
    assert (
        sum(len(s.ids) for s in segs)
        == count_request(CHAT, builtin("qwen"), CHAT_FORMATS["qwen25"], tools=[WEATHER]).total
    )
    start = text.index("Paris")
    assert not next(s for s in segs if s.start <= start < s.end).special  # message text
    assert next(s for s in segs if s.text == "<|im_start|>").special  # the template's


def test_llama31_with_tools_needs_a_user_message():
    with pytest.raises(ChatRenderError, match="add a user message"):
        CHAT_FORMATS["llama31"].render([Message("system", "x")], [WEATHER])


def test_mistral_tools_and_turns_match_mistral_common():
    from mistral_common.protocol.instruct.messages import AssistantMessage, SystemMessage, UserMessage
    from mistral_common.protocol.instruct.request import ChatCompletionRequest
    from mistral_common.protocol.instruct.tool_calls import Function, Tool
    from mistral_common.tokens.tokenizers.mistral import MistralTokenizer

    chat = [*CHAT, Message("user", "And on Sunday?")]
    ref = MistralTokenizer.v3(is_tekken=True, is_mm=True).encode_chat_completion(
        ChatCompletionRequest(
            messages=[SystemMessage(content=chat[0].content), UserMessage(content=chat[1].content),
                      AssistantMessage(content=chat[2].content), UserMessage(content=chat[3].content)],
            tools=[Tool(function=Function(**WEATHER["function"]))],
        )
    )  # fmt: skip
    count = count_request(chat, builtin("tekken"), CHAT_FORMATS["mistral_v3"], tools=[WEATHER])
    assert count.total == len(ref.tokens)


def test_openai_rule_for_messages_and_tools():
    tok = builtin("o200k_base")
    count = count_request(CHAT, tok, CHAT_FORMATS["openai"], tools=[WEATHER])
    # Cookbook: 3 per message + role + content, 3 for the reply; tools by num_tokens_for_tools
    messages = sum(3 + tok.count(m.role) + tok.count(m.content) for m in CHAT) + 3
    f = WEATHER["function"]
    tools = 7 + tok.count("get_weather:Get the weather forecast for a city, in °C") + 3
    tools += 3 + tok.count("city:string:City name, e.g. Zürich")
    tools += 3 - 3 + 3 + tok.count("celsius") + 3 + tok.count("fahrenheit") + tok.count("unit:string:Unit")
    tools += 12
    assert openai_tool_tokens(tok, [WEATHER]) == tools
    assert count.total == messages + tools and count.tools_counted and f["name"] == "get_weather"


def test_developer_role_is_a_system_message_for_open_models():
    chat = [Message("developer", "Answer in French."), Message("user", "Hi")]
    as_system = [Message("system", "Answer in French."), Message("user", "Hi")]
    for fid in ("llama31", "qwen25", "qwen3", "mistral_v3"):
        render = CHAT_FORMATS[fid].render
        assert "".join(p.text for p in render(chat)) == "".join(p.text for p in render(as_system))


def test_formats_without_published_tool_rules_do_not_count_tools():
    count = count_request(CHAT, builtin("llama3"), CHAT_FORMATS["llama3"], tools=[WEATHER])
    assert not count.tools_counted and count.tools_tokens == 0


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('[{"name": "a",}]', "line 1, column"),
        ("[1]", "Tool 1 is not an object"),
        ('{"description": "x"}', 'no "name"'),
        ('{"name": "a", "parameters": {"type": "string"}}', "JSON Schema object"),
        ('{"type": "retrieval"}', "only function tools"),
    ],
)
def test_bad_tools_get_a_clear_message(text, fragment):
    with pytest.raises(ToolsError, match=fragment):
        parse_tools(text)


def test_tools_accept_bare_functions_and_the_openai_form():
    assert parse_tools("") == []
    bare = parse_tools(json.dumps(WEATHER["function"]))
    assert bare == [WEATHER] == parse_tools(json.dumps([WEATHER]))


def test_gpt_oss_request_is_the_harmony_renderers_with_tools():
    from tokenizer_core.workspace.harmony import HarmonyMessage, HarmonyTool, harmony_parts

    parts = CHAT_FORMATS["harmony"].render(CHAT, [WEATHER])
    f = WEATHER["function"]
    ref = harmony_parts(
        [HarmonyMessage("user", CHAT[1].content), HarmonyMessage("assistant", CHAT[2].content, channel="final")],
        instructions=CHAT[0].content, tools=[HarmonyTool(f["name"], f["description"], f["parameters"])],
    )  # fmt: skip
    assert "".join(p.text for p in parts) == "".join(p.text for p in ref)
    count = count_request(CHAT, builtin("o200k_harmony"), CHAT_FORMATS["harmony"], tools=[WEATHER])
    assert count.tools_counted and count.tools_tokens > 20
    assert count.message_tokens[1] == builtin("o200k_harmony").count(CHAT[1].content)


def test_deepseek_v4_is_rendered_for_one_system_and_one_user_message_only():
    two = [Message("system", "Be brief."), Message("user", "Hi")]
    assert count_request(two, builtin("deepseek_v4"), CHAT_FORMATS["deepseek_v4"]).total > 0
    with pytest.raises(ChatRenderError, match="one system and one user message"):
        CHAT_FORMATS["deepseek_v4"].render(CHAT)


@pytest.mark.parametrize(
    "text, says",
    [
        ('[{"name": "lookup', "line 1, column 11: a text in double quotes is never closed."),
        ('[{"name": "a"}\n {"name": "b"}]', "line 2, column 2: a comma is missing between two items"),
        ("[{name: 1}]", "line 1, column 3: a name in an object is not in double quotes"),
    ],
)
def test_broken_tools_json_is_said_in_words_with_its_line_and_column(text, says):
    with pytest.raises(ToolsError) as caught:
        parse_tools(text)
    message = str(caught.value)
    assert says in message and "starting at" not in message and "delimiter" not in message
