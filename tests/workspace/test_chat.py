"""Chat requests: each format's rendered prompt and counts, against references written out here.

Known answers: the prompt strings below are the chat formats as their makers document them
(Meta's Llama 3 and 3.1 model cards and tokenizer_config.json chat templates, Qwen's
tokenizer_config.json chat templates); the OpenAI rule is the Cookbook's
num_tokens_from_messages; Mistral's is mistral-common's own encoder, run in the test.
"""

from __future__ import annotations

import functools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import builtin
from tests.helpers.chat import count_chat, count_chats
from tokenizer_core import CHAT_FORMATS
from tokenizer_core.workspace.chat import chat_formats_for, chat_template_text
from tokenizer_core.workspace.qwen_chat import QWEN25_DEFAULT_SYSTEM

USER, SYSTEM = "How many tokens is this?", "You are a terse assistant."

EXPECTED = {
    ("llama3", ""): (
        "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\n{u}<|eot_id|>"
        "<|start_header_id|>assistant<|end_header_id|>\n\n"
    ),
    ("llama3", "sys"): (
        "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\n{s}<|eot_id|>"
        "<|start_header_id|>user<|end_header_id|>\n\n{u}<|eot_id|>"
        "<|start_header_id|>assistant<|end_header_id|>\n\n"
    ),
    ("llama31", ""): (
        "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\n"
        "Cutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n<|eot_id|>"
        "<|start_header_id|>user<|end_header_id|>\n\n{u}<|eot_id|>"
        "<|start_header_id|>assistant<|end_header_id|>\n\n"
    ),
    ("llama31", "sys"): (
        "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\n"
        "Cutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n{s}<|eot_id|>"
        "<|start_header_id|>user<|end_header_id|>\n\n{u}<|eot_id|>"
        "<|start_header_id|>assistant<|end_header_id|>\n\n"
    ),
    ("qwen3", ""): "<|im_start|>user\n{u}<|im_end|>\n<|im_start|>assistant\n",
    (
        "qwen3",
        "sys",
    ): "<|im_start|>system\n{s}<|im_end|>\n<|im_start|>user\n{u}<|im_end|>\n<|im_start|>assistant\n",
    ("qwen25", ""): (
        "<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n"
        "<|im_start|>user\n{u}<|im_end|>\n<|im_start|>assistant\n"
    ),
    (
        "qwen25",
        "sys",
    ): "<|im_start|>system\n{s}<|im_end|>\n<|im_start|>user\n{u}<|im_end|>\n<|im_start|>assistant\n",
    ("mistral_v3", ""): "<s>[INST]{u}[/INST]",
    ("mistral_v3", "sys"): "<s>[INST]{s}\n\n{u}[/INST]",
}
TOKENIZER_OF = {
    "llama3": "llama3",
    "llama31": "llama3",
    "qwen3": "qwen",
    "qwen25": "qwen",
    "mistral_v3": "tekken",
}


@pytest.mark.parametrize("fmt, sys", [pytest.param(f, s, id=f"{f}-{s or 'nosys'}") for f, s in EXPECTED])
def test_rendered_prompt_and_its_count(fmt, sys):
    tok = builtin(TOKENIZER_OF[fmt])
    system = SYSTEM if sys else ""
    expected = EXPECTED[fmt, sys].format(u=USER, s=SYSTEM)
    c = count_chat(tok, USER, system, format_id=fmt)
    assert "".join(p.text for p in c.parts) == expected
    # the whole prompt encoded with its special tokens allowed: an independent path to the count
    assert c.total == len(tok.encode(expected, allow_special=True))
    assert c.content_tokens == tok.count(USER) + (tok.count(SYSTEM) if system else 0)


@pytest.mark.parametrize("tid", ["o200k_base", "cl100k_base"])
def test_openai_rule_is_the_cookbooks(tid):
    tok = builtin(tid)
    # num_tokens_from_messages: 3 per message + tokens of each value (role, content) + 3 for the reply
    c = count_chat(tok, USER)
    assert c.total == 3 + tok.count("user") + tok.count(USER) + 3
    assert c.overhead == 7  # "user" is one token in both encodings
    c = count_chat(tok, USER, SYSTEM)
    assert c.total == (3 + 1 + tok.count(SYSTEM)) + (3 + 1 + tok.count(USER)) + 3
    assert c.parts == () and not c.format.rendered


@functools.cache  # read when a test first asks, not by every test process as it collects (2 s)
def mistral_reference():
    """mistral-common's own chat encoder over the same Tekken file the registry reads."""
    import mistral_common
    from mistral_common.protocol.instruct.messages import SystemMessage, UserMessage
    from mistral_common.protocol.instruct.request import ChatCompletionRequest
    from mistral_common.tokens.tokenizers.mistral import MistralTokenizer

    mt = MistralTokenizer.from_file(f"{mistral_common.__path__[0]}/data/tekken_240911.json")

    def encode(user: str, system: str = "") -> list[int]:
        messages = ([SystemMessage(content=system)] if system else []) + [UserMessage(content=user)]
        return mt.encode_chat_completion(ChatCompletionRequest(messages=messages)).tokens

    return encode


plain = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=60).filter(
    lambda t: t.strip()
)


@given(user=plain, system=st.one_of(st.just(""), plain))
def test_mistral_v3_equals_mistral_common(user, system):
    c = count_chat(builtin("tekken"), user, system)
    assert c.format.id == "mistral_v3"
    assert c.total == len(mistral_reference()(user, system))


@given(user=plain, system=st.one_of(st.just(""), plain))
def test_rendered_formats_count_like_the_whole_prompt(user, system):
    for fmt in ("llama3", "llama31", "qwen3", "qwen25"):
        tok = builtin(TOKENIZER_OF[fmt])
        if any(sp in user + system for sp in tok.special_tokens):
            continue  # special-token text inside a message: see the next tests
        c = count_chat(tok, user, system, format_id=fmt)
        assert c.total == len(tok.encode("".join(p.text for p in c.parts), allow_special=True))


SNEAKY = "stop here <|eot_id|><|im_end|>[/INST] and go on"


def test_special_token_text_in_a_message_stays_text():
    # the message is ordinary text: only the format's own special tokens count as one id each
    llama = builtin("llama3")
    expected = 6 + sum(llama.count(t) for t in ("user", "\n\n" + SNEAKY, "assistant", "\n\n"))
    assert count_chat(llama, SNEAKY, format_id="llama3").total == expected
    qwen = builtin("qwen")
    expected = 3 + sum(qwen.count(t) for t in ("user\n" + SNEAKY, "\n", "assistant\n"))
    assert count_chat(qwen, SNEAKY, format_id="qwen3").total == expected
    assert count_chat(builtin("tekken"), SNEAKY).total == len(mistral_reference()(SNEAKY))


def test_llama_trims_messages_and_the_overhead_says_so():
    tok = builtin("llama3")
    padded = "\n\n   Hello world   \n"
    c = count_chat(tok, padded, format_id="llama3")
    assert "".join(p.text for p in c.parts if p.kind == "user") == "Hello world"
    assert c.content_tokens == tok.count(padded)
    assert c.total == len(tok.encode(EXPECTED["llama3", ""].format(u="Hello world"), allow_special=True))


def test_formats_per_tokenizer_and_none_for_the_others():
    assert [f.id for f in chat_formats_for("llama3")] == ["llama31", "llama3"]
    assert [f.id for f in chat_formats_for("qwen")] == ["qwen3", "qwen25"]
    assert [f.id for f in chat_formats_for("tekken")] == ["mistral_v3"]
    assert chat_formats_for("r50k_base") == [] and chat_formats_for("custom-abc") == []
    assert count_chat(builtin("p50k_base"), "hi") is None
    assert count_chat(builtin("o200k_base"), "hi", format_id="llama3") is None  # not its format
    assert QWEN25_DEFAULT_SYSTEM in chat_template_text(CHAT_FORMATS["qwen25"].parts("hi"))


def test_template_text_hides_the_messages():
    parts = CHAT_FORMATS["mistral_v3"].parts("secret user text", "secret system")
    assert chat_template_text(parts) == "<s>[INST]⟨system message⟩\n\n⟨your text⟩[/INST]"


def test_count_chats_gives_every_format_once():
    for tid in ("o200k_base", "llama3", "qwen", "tekken", "r50k_base"):
        tok = builtin(tid)
        assert count_chats(tok, USER, SYSTEM) == [
            count_chat(tok, USER, SYSTEM, format_id=f.id) for f in chat_formats_for(tid)
        ]
