"""gpt-oss: o200k_harmony and the harmony chat format, checked against OpenAI's own code.

References (tests only, never the app): tiktoken's `o200k_harmony` definition in the installed
tiktoken_ext/openai_public.py, and PyPI `openai-harmony` (requirements-dev.txt), which renders
and tokenizes harmony conversations. openai-harmony normally downloads o200k_base; here it reads
the vocabulary rebuilt from our hash-checked ranks from TIKTOKEN_ENCODINGS_BASE, and checks the
official sha256 itself before using it.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import builtin
from tests.helpers.chat import count_chat, count_chats
from tokenizer_core.tokenizers import registry
from tokenizer_core.tokenizers.vocab import tiktoken_blob
from tokenizer_core.workspace.chat import count_parts
from tokenizer_core.workspace.harmony import (
    HarmonyMessage,
    HarmonySystem,
    HarmonyTool,
    harmony_parts,
    schema_to_typescript,
)

oh = pytest.importorskip("openai_harmony")


@pytest.fixture(scope="module")
def tok():
    return builtin("o200k_harmony")


@pytest.fixture(scope="module")
def ref(tok, tmp_path_factory):
    """openai-harmony's HARMONY_GPT_OSS encoding, reading our verified vocabulary offline."""
    folder = tmp_path_factory.mktemp("encodings")
    (folder / "o200k_base.tiktoken").write_bytes(tiktoken_blob(tok.encoding._mergeable_ranks))
    old = os.environ.get("TIKTOKEN_ENCODINGS_BASE")
    os.environ["TIKTOKEN_ENCODINGS_BASE"] = str(folder)
    try:
        return oh.load_harmony_encoding(oh.HarmonyEncodingName.HARMONY_GPT_OSS)
    finally:
        if old is None:
            os.environ.pop("TIKTOKEN_ENCODINGS_BASE", None)
        else:
            os.environ["TIKTOKEN_ENCODINGS_BASE"] = old


def test_special_tokens_and_pattern_are_tiktokens_own(tok, monkeypatch):
    from tiktoken_ext import openai_public

    # tiktoken's constructor would download o200k_base: hand it our (hash-checked) ranks instead
    monkeypatch.setattr(openai_public, "load_tiktoken_bpe", lambda *a, **k: tok.encoding._mergeable_ranks)
    definition = openai_public.o200k_harmony()
    assert tok.special_tokens == definition["special_tokens"]
    assert tok.encoding._pat_str == definition["pat_str"]
    assert tok.n_vocab == 201_088 == tok.info.vocab_size
    assert registry.model_index()["gpt-oss-120b"] == "o200k_harmony"


def test_named_special_token_ids(tok, ref):
    for name, tid in {"<|start|>": 200006, "<|channel|>": 200005, "<|message|>": 200008,
                      "<|end|>": 200007, "<|return|>": 200002, "<|call|>": 200012,
                      "<|constrain|>": 200003}.items():  # fmt: skip
        assert tok.special_tokens[name] == tid
        assert ref.encode(name, allowed_special="all") == [tid]


FIXED = {
    # ids written out from openai-harmony's encode()
    "hello world": [24912, 2375],
    "Hello, World! 1234567": [13225, 11, 5922, 0, 220, 7633, 19354, 22],
    "gpt-oss: नमस्ते 😀 <|end|>": [70, 555, 12, 2907, 25, 100793, 14681, 628, 88038, 464, 91, 419, 91, 29],
}


@pytest.mark.parametrize("text", list(FIXED))
def test_fixed_ids(tok, ref, text):
    assert tok.encode(text) == FIXED[text] == ref.encode(text, disallowed_special=())


@settings(max_examples=60)
@given(st.text(max_size=80))
def test_random_text_ids_match_openai_harmony(tok, ref, text):
    text = text.encode("utf-8", "replace").decode("utf-8")
    assert tok.encode(text) == ref.encode(text, disallowed_special=())


# ----------------------------------------------------------------- conversations


WEATHER = HarmonyTool(
    "get_weather",
    "Gets the current weather for a city.\nUse it before answering about weather.",
    {
        "type": "object",
        "properties": {
            "location": {"type": "string", "description": "City and country, e.g. Paris, France"},
            "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "default": "celsius"},
            "days": {"type": "integer", "description": "Forecast days", "default": 1},
            "hourly": {"type": ["boolean", "null"]},
        },
        "required": ["location"],
    },
)
SEARCH = HarmonyTool(
    "search_docs",
    "Searches the manual.",
    {
        "type": "object",
        "description": "Search query",
        "properties": {
            "query": {"type": "string", "title": "Query", "examples": ["reset password", "billing"]},
            "tags": {"type": "array", "items": {"type": "string"}},
            "filters": {
                "type": "object",
                "properties": {"since": {"type": "string", "nullable": True}, "limit": {"type": "number"}},
                "required": ["limit"],
            },
            "mode": {
                "description": "How to match",
                "oneOf": [
                    {"type": "string", "enum": ["exact", "fuzzy"], "description": "A named mode"},
                    {"type": "number", "description": "A similarity threshold", "default": 0.8},
                ],
            },
            "anything": {},
            "list_any": {"type": "array"},
        },
        "required": ["query"],
    },
)
PING = HarmonyTool("ping", "Checks the service.")


def _ref_conversation(messages, *, system, instructions, tools):
    sc = oh.SystemContent.new()
    sc = sc.with_model_identity(system.model_identity).with_knowledge_cutoff(system.knowledge_cutoff)
    sc = sc.with_reasoning_effort(oh.ReasoningEffort(system.reasoning_effort.capitalize()))
    if system.current_date:
        sc = sc.with_conversation_start_date(system.current_date)
    out = [oh.Message.from_role_and_content(oh.Role.SYSTEM, sc)]
    if instructions or tools:
        dev = oh.DeveloperContent.new()
        if instructions:
            dev = dev.with_instructions(instructions)
        if tools:
            dev = dev.with_function_tools(
                [oh.ToolDescription.new(t.name, t.description, parameters=t.parameters) for t in tools]
            )
        out.append(oh.Message.from_role_and_content(oh.Role.DEVELOPER, dev))
    for m in messages:
        if m.role == "tool":
            msg = oh.Message.from_author_and_content(oh.Author.new(oh.Role.TOOL, m.name), m.content)
        else:
            msg = oh.Message.from_role_and_content(oh.Role(m.role), m.content)
        if m.channel:
            msg = msg.with_channel(m.channel)
        if m.recipient:
            msg = msg.with_recipient(m.recipient)
        if m.content_type:
            msg = msg.with_content_type(m.content_type)
        out.append(msg)
    return oh.Conversation.from_messages(out)


def _tool_turns():
    return [
        HarmonyMessage("user", "What's the weather in Paris? Then search the manual for 'umbrella'."),
        HarmonyMessage("assistant", "The user wants weather; call get_weather.", channel="analysis"),
        HarmonyMessage("assistant", '{"location": "Paris, France"}', channel="commentary",
                       recipient="functions.get_weather", content_type="<|constrain|>json"),
        HarmonyMessage("tool", '{"temperature": 21, "sky": "sunny"}', channel="commentary",
                       recipient="assistant", name="functions.get_weather"),
    ]  # fmt: skip


CONVERSATIONS = {
    "user only": {"messages": [HarmonyMessage("user", "Hello world")]},
    "instructions": {
        "messages": [HarmonyMessage("user", "Summarise: tokens are not words.")],
        "instructions": "You are a terse assistant.\nAnswer in one sentence.",
    },
    "multi-turn, reasoning dropped": {
        "messages": [
            HarmonyMessage("user", "2+2?"),
            HarmonyMessage("assistant", "Simple arithmetic.", channel="analysis"),
            HarmonyMessage("assistant", "4", channel="final"),
            HarmonyMessage("user", "And times 3?  नमस्ते 😀"),
        ],
        "system": HarmonySystem(reasoning_effort="high", current_date="2025-08-05"),
    },
    "tool call and result": {
        "messages": _tool_turns(),
        "instructions": "Use tools when useful.",
        "tools": (WEATHER, SEARCH, PING),
    },
    "tool call, final answer (reasoning dropped)": {
        "messages": [
            *_tool_turns(),
            HarmonyMessage("assistant", "It is 21 °C and sunny.", channel="final"),
            HarmonyMessage("user", "Thanks!"),
        ],
        "tools": (WEATHER,),
        "system": HarmonySystem(reasoning_effort="low"),
    },
    "tools without instructions": {"messages": [HarmonyMessage("user", "ping it")], "tools": (PING,)},
    "special-looking user text": {"messages": [HarmonyMessage("user", "<|end|><|start|>system is text")]},
}


@pytest.mark.parametrize("case", list(CONVERSATIONS))
def test_conversation_counts_equal_openai_harmony(tok, ref, case):
    kw = {"system": HarmonySystem(), "instructions": "", "tools": (), **CONVERSATIONS[case]}
    parts = harmony_parts(
        kw["messages"], system=kw["system"], instructions=kw["instructions"], tools=kw["tools"]
    )
    expected = ref.render_conversation_for_completion(_ref_conversation(**kw), oh.Role.ASSISTANT)
    assert "".join(p.text for p in parts) == ref.decode_utf8(expected)
    assert count_parts(tok, parts) == len(expected)


def test_tool_schema_as_typescript():
    assert schema_to_typescript({"type": "string", "enum": ["c", "f"]}) == '"c" | "f"'
    assert schema_to_typescript({"type": "array", "items": {"type": "integer"}}) == "number[]"
    assert schema_to_typescript({"type": ["string", "null"]}) == "string | null"


def test_counter_format_equals_openai_harmony(tok, ref):
    for user, system in [("Hello world", ""), ("Wie spät ist es?", "Answer in German.\n\nBe brief.")]:
        conv = _ref_conversation([HarmonyMessage("user", user)], system=HarmonySystem(), instructions=system,
                                 tools=())  # fmt: skip
        expected = len(ref.render_conversation_for_completion(conv, oh.Role.ASSISTANT))
        count = count_chat(tok, user, system, format_id="harmony")
        assert count.total == expected
        assert count.content_tokens == tok.count(user) + (tok.count(system) if system else 0)
    assert [c.format.id for c in count_chats(tok, "hi")] == ["harmony"]


@settings(max_examples=40)
@given(user=st.text(max_size=60), system=st.text(max_size=40))
def test_random_requests_equal_openai_harmony(tok, ref, user, system):
    user = user.encode("utf-8", "replace").decode("utf-8")
    system = system.encode("utf-8", "replace").decode("utf-8")
    conv = _ref_conversation(
        [HarmonyMessage("user", user)], system=HarmonySystem(), instructions=system, tools=()
    )
    expected = len(ref.render_conversation_for_completion(conv, oh.Role.ASSISTANT))
    assert count_chat(tok, user, system, format_id="harmony").total == expected


def test_bad_messages_say_what_is_wrong():
    with pytest.raises(ValueError, match="tool's name"):
        harmony_parts([HarmonyMessage("tool", "{}")])
    with pytest.raises(ValueError, match="role must be"):
        harmony_parts([HarmonyMessage("system", "x")])
