"""A model by name in a notebook: the tokenizer and chat format it implies, in every top-level call
that takes a tokenizer."""

from __future__ import annotations

import pytest
from tiktoken.model import encoding_name_for_model

import tokenizer_core as tc
from tests.references import stock_tiktoken
from tokenizer_core.catalog.lookup import chat_format_of

TEXT = "Tokens cost money. Chunks must fit.\n\nA second paragraph with a few more words."


@pytest.mark.parametrize("model", ["gpt-4o", "gpt-4", "gpt-4o-mini"])
def test_an_openai_model_gets_the_encoding_tiktoken_names_for_it(model):
    assert tc.tokenizer_for(model).id == encoding_name_for_model(model)


def test_a_tokenizer_id_and_an_older_model_id_are_names_too():
    assert tc.tokenizer_for("cl100k_base").encode("hello world") == [15339, 1917]  # tiktoken's README
    assert tc.tokenizer_for("llama-3.1") is tc.tokenizer_for("llama-3.1-8b")  # loaded once, kept
    assert chat_format_of("llama-3.1") == "llama31"


def test_a_model_without_a_public_tokenizer_and_an_unknown_name_say_why():
    with pytest.raises(tc.TokenizerUnavailable, match="publishes no tokenizer"):
        tc.tokenizer_for("claude-sonnet-4-5")
    with pytest.raises(tc.TokenizerUnavailable, match="no model or tokenizer of that name.*gpt-4o"):
        tc.tokenizer_for("gpt-40")


@pytest.fixture(scope="module")
def stock(tmp_path_factory):
    return stock_tiktoken(tmp_path_factory.mktemp("tiktoken"))


def test_count_request_by_model_name_is_the_models_tokenizer_in_its_chat_format(stock):
    chat = [tc.Message("system", "You are terse."), tc.Message("user", "hello world")]
    by_name = tc.count_request(chat, "llama-3.1-8b")
    assert by_name.format.id == "llama31"
    spelled = tc.count_request(chat, tc.load_builtin("llama3"), "llama31")
    assert (by_name.total, by_name.message_tokens) == (spelled.total, spelled.message_tokens)
    # OpenAI's documented rule: 3 per message + 3 priming, each message's text in o200k
    enc = stock["o200k_base"]
    expected = sum(3 + len(enc.encode(m.role)) + len(enc.encode(m.content)) for m in chat) + 3
    assert tc.count_request(chat, "gpt-4o").total == expected
    # the format may still be given; a tokenizer alone implies none
    assert tc.count_request(chat, "llama-3.1-8b", "llama31").total == by_name.total
    with pytest.raises(ValueError, match="implies no chat format"):
        tc.count_request(chat, tc.load_builtin("llama3"))
    with pytest.raises(ValueError, match="implies no chat format"):
        tc.count_request(chat, "o200k_base")


def test_every_top_level_call_that_takes_a_tokenizer_takes_a_name(stock):
    tok = tc.load_builtin("o200k_base")
    rows = tc.count_table(TEXT, ["gpt-4o", "cl100k_base"])
    assert [(r.tokenizer, r.tokens) for r in rows] == [
        ("o200k_base", len(stock["o200k_base"].encode(TEXT))),
        ("cl100k_base", len(stock["cl100k_base"].encode(TEXT))),
    ]
    assert tc.chunk_text(TEXT, "gpt-4o", size=8).chunks == tc.chunk_text(TEXT, tok, size=8).chunks
    assert tc.count_texts(["hello world", ""], "gpt-4o") == [2, 0]
    english = tc.Language("en", "English", "Latin", "The password was reset.")
    assert tc.language_table([english], ["gpt-4o"]) == tc.language_table([english], [tok])
    code = "def parse_http_response(raw_bytes):\n    return raw_bytes\n"
    assert tc.analyse_identifiers(code, ["gpt-4o"]) == tc.analyse_identifiers(code, [tok])
