"""Real request shapes a Batch or training file holds that a review found miscounted or wrongly
refused: Responses API tool-call items, embeddings given as token ids, `n` completions, both
output caps set, a max_tokens past the model's limit, a JSON array where JSON lines are required,
and Anthropic's custom_id rule. Known answers come from the providers' documents
(docs/preflight-rules.md) and from stock tiktoken."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from tests.datasets.samples import finetune_lines, jsonl
from tests.references import stock_tiktoken
from tokenizer_core.datasets import count_dataset


@pytest.fixture(scope="module")
def encodings(tmp_path_factory):
    return stock_tiktoken(tmp_path_factory.mktemp("tiktoken"))


def _req(body: dict, i: int = 1, url: str = "/v1/chat/completions") -> dict:
    return {"custom_id": f"r{i}", "method": "POST", "url": url, "body": body}


def _count(lines: list[dict], models: list[str], name: str = "batch.jsonl", **options: object):
    return count_dataset(jsonl(lines), models, name=name, engine="local", **options)


def _tool_turn(output: str) -> dict:
    return _req({"model": "gpt-4o", "input": [
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Weather in Paris?"}]},
        {"type": "function_call", "call_id": "c1", "name": "get_weather", "arguments": '{"city": "Paris"}'},
        {"type": "function_call_output", "call_id": "c1", "output": output},
        {"type": "reasoning", "id": "rs_1", "summary": []},
    ]}, url="/v1/responses")  # fmt: skip


def test_responses_tool_call_items_are_counted_not_refused(encodings):
    # The Responses API's input items: a function call and its output carry no "role" (API
    # reference, "Input items"); they were refused as "message 2 has no role".
    short, long = "sunny", "sunny, 24 degrees, light wind from the south-west and no rain expected"
    a, b = _count([_tool_turn(short)], ["gpt-4o"]), _count([_tool_turn(long)], ["gpt-4o"])
    for r in (a, b):
        assert r.rows == 1 and not r.errors and r.verdict.accepted and not r.verdict.problems
    o200k = encodings["o200k_base"]
    # the output is a message of its own: the two counts differ by exactly its text's tokens
    assert b.model("gpt-4o").total - a.model("gpt-4o").total == len(o200k.encode(long)) - len(
        o200k.encode(short)
    )
    assert any("reasoning item is not counted" in n.text for n in a.notes)


def test_embeddings_given_as_token_ids_count_as_their_length(encodings):
    # "Create embeddings": input is a string, an array of strings, an array of token ids or an
    # array of arrays of token ids. Token ids are tokens already: their number is the count.
    texts = ["The food was delicious", "and the waiter was friendly."]
    lines = [
        _req({"model": "text-embedding-3-small", "input": [1, 2, 3, 4]}, 1, "/v1/embeddings"),
        _req({"model": "text-embedding-3-small", "input": [[5, 6, 7], [8, 9]]}, 2, "/v1/embeddings"),
        _req({"model": "text-embedding-3-small", "input": texts}, 3, "/v1/embeddings"),
    ]
    r = _count(lines, ["text-embedding-3-small"])
    assert r.rows == 3 and not r.errors and r.verdict.accepted
    cl100k = encodings["cl100k_base"]
    assert r.per_model["text-embedding-3-small"].tolist() == [4, 5, sum(len(cl100k.encode(t)) for t in texts)]


def test_an_embeddings_input_of_token_ids_over_8192_fails():
    r = _count([_req({"model": "text-embedding-3-small", "input": [[1] * 8_193, [2]]}, 1, "/v1/embeddings")],
               ["text-embedding-3-small"])  # fmt: skip
    assert r.verdict.fails == 1 and "8,193 tokens" in r.problems("text-embedding-3-small")[0]


def test_n_completions_are_each_billed_in_the_ceiling_and_the_expectation():
    # API reference, `n`: "you will be charged based on the number of generated tokens across all
    # of the choices"; the input is sent once.
    body = {"model": "gpt-4o", "messages": [{"role": "user", "content": "Name a colour."}], "max_tokens": 100}
    one = _count([_req(body)], ["gpt-4o"], output_tokens=40).model("gpt-4o")
    three = _count([_req({**body, "n": 3})], ["gpt-4o"], output_tokens=40).model("gpt-4o")
    assert (one.output_ceiling, three.output_ceiling) == (100, 300)
    assert (one.output_tokens, three.output_tokens) == (40, 120)
    assert three.total == one.total


def test_a_max_tokens_over_the_output_limit_fails_and_the_ceiling_stops_at_the_limit():
    # gpt-4o's model page: 16,384 max output tokens. The request fails, so it cannot bill more.
    body = {
        "model": "gpt-4o-2024-08-06",
        "messages": [{"role": "user", "content": "hi"}],
        "max_tokens": 10**12,
    }
    r = _count([_req(body)], ["gpt-4o"])
    m = r.model("gpt-4o")
    assert r.verdict.fails == 1 and "output limit of 16,384" in r.problems("gpt-4o")[0]
    assert m.output_ceiling == 16_384
    cost = m.cost("standard")
    # OpenAI's pricing page: gpt-4o output $10.00 per 1M tokens
    assert cost is not None and cost.ceiling_output_usd == Decimal(16_384) * 10 / 1_000_000


def test_max_tokens_and_max_completion_tokens_both_set_fails():
    # OpenAI answers 400 "Setting 'max_tokens' and 'max_completion_tokens' at the same time is not
    # supported." (invalid_parameter_combination)
    msgs = [{"role": "user", "content": "hi"}]
    lines = [
        _req({"model": "gpt-4o", "messages": msgs, "max_tokens": 100, "max_completion_tokens": 50}, 1),
        _req({"model": "gpt-4o", "messages": msgs, "max_tokens": None, "max_completion_tokens": 50}, 2),
    ]
    r = _count(lines, ["gpt-4o"])
    assert r.verdict.accepted and r.verdict.fails == 1
    problems = r.problems("gpt-4o")
    assert "both max_tokens and max_completion_tokens" in problems[0] and problems[1] == ""
    assert [p.line for p in r.verdict.problems] == [1]


def test_a_training_file_has_no_output_ceiling():
    r = _count(finetune_lines(12), ["gpt-4o-mini"], name="train.jsonl")
    m = r.model("gpt-4o-mini")
    assert (m.output_ceiling, m.output_tokens, m.costs) == (0, 0, ())


@pytest.mark.parametrize("lines,name", [(finetune_lines(12), "train.json"),
                                        ([_req({"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]},
                                               i) for i in range(3)], "batch.json")],
                         ids=["fine-tuning", "batch"])  # fmt: skip
def test_a_json_array_is_counted_but_openai_takes_json_lines(lines, name):
    # The fine-tuning and Batch guides: the file must be JSONL. The array is still counted.
    r = count_dataset(json.dumps(lines).encode(), ["gpt-4o"], name=name, engine="local")
    assert r.rows == len(lines) and r.model("gpt-4o").total > 0
    assert not r.verdict.accepted and r.verdict.rejects == 1
    assert "JSON array" in r.verdict.problems[0].text and "JSON lines" in r.verdict.problems[0].text
    same = count_dataset(jsonl(lines), ["gpt-4o"], name=name + "l", engine="local")
    assert same.verdict.accepted


def test_anthropic_custom_ids_follow_its_pattern():
    # "Create a Message Batch": custom_id matches ^[a-zA-Z0-9_-]{1,64}$
    def line(cid: str) -> dict:
        return {"custom_id": cid, "params": {"model": "claude-sonnet-4-5", "max_tokens": 64,
                                             "messages": [{"role": "user", "content": "hi"}]}}  # fmt: skip

    r = _count(
        [line("ok_1-A"), line("has space"), line("x" * 65), line("x" * 64)], ["gpt-4o"], name="a.jsonl"
    )
    assert r.shape == "anthropic-batch" and r.verdict.rejects == 2
    assert [p.line for p in r.verdict.problems] == [2, 3]


def test_the_ceiling_stops_at_what_the_window_leaves_after_the_input(encodings):
    # Input and output share the context window ("Create chat completion", max_completion_tokens:
    # bounded by the context length): a row with no max_tokens whose input nearly fills gpt-4o's
    # window cannot produce the model's whole 16,384 output tokens.
    long = "lorem ipsum dolor " * 40_000
    body = {"model": "gpt-4o", "messages": [{"role": "user", "content": long}]}
    r = _count(
        [_req(body, 1), _req({**body, "messages": [{"role": "user", "content": "hi"}]}, 2)], ["gpt-4o"]
    )
    m = r.model("gpt-4o")
    tokens = r.per_model["gpt-4o"].tolist()
    assert 128_000 - 16_384 < len(encodings["o200k_base"].encode(long)) < tokens[0] < 128_000
    assert m.window == 128_000
    assert m.output_ceiling == (128_000 - tokens[0]) + 16_384


def test_the_csv_over_limit_column_agrees_with_the_summary():
    # A row whose input fits the window but whose input + max_tokens does not is "over the limit"
    # in the summary; the per-row download said "no" for it. A request failing for its own
    # settings (both output caps) is a problem, not over a limit.
    msgs = [{"role": "user", "content": "lorem ipsum dolor " * 40_000}]
    short = [{"role": "user", "content": "hi"}]
    lines = [
        _req({"model": "gpt-4o", "messages": msgs, "max_tokens": 10_000}, 1),
        _req({"model": "gpt-4o", "messages": short, "max_tokens": 5, "max_completion_tokens": 5}, 2),
        _req({"model": "gpt-4o", "messages": short, "max_tokens": 5}, 3),
    ]
    r = _count(lines, ["gpt-4o"])
    m = r.model("gpt-4o")
    assert m.over == 1 and [ref.line for ref in m.over_rows] == [1]
    table = r.per_row()
    assert table.column("over_limit").to_pylist() == [True, False, False]
    assert [row.split(",")[4] for row in r.to_csv().decode().splitlines()[1:]] == ["yes", "no", "no"]
    assert [bool(p) for p in table.column("problem").to_pylist()] == [True, True, False]


def test_an_empty_embeddings_input_fails():
    # "Create embeddings": the input "cannot be an empty string"
    lines = [_req({"model": "text-embedding-3-small", "input": ["a text", ""]}, 1, "/v1/embeddings"),
             _req({"model": "text-embedding-3-small", "input": "a text"}, 2, "/v1/embeddings")]  # fmt: skip
    r = _count(lines, ["text-embedding-3-small"])
    assert r.verdict.accepted and r.verdict.fails == 1
    assert "empty text" in r.problems("text-embedding-3-small")[0]


def test_best_of_completions_are_each_billed():
    # "Create completion", best_of: generates best_of completions server-side and returns the best n
    body = {"model": "gpt-4o", "prompt": "Say hi", "max_tokens": 10, "best_of": 4, "n": 2}
    r = _count([_req(body, 1, "/v1/completions")], ["gpt-4o"])
    assert r.rows == 1 and r.model("gpt-4o").output_ceiling == 40


def test_a_completions_prompt_may_be_texts_or_token_ids_each_completed_on_its_own(encodings):
    # "Create completion": prompt is a string, an array of strings, an array of tokens, or an
    # array of token arrays; each prompt gets its own completions (n of them), each billed
    enc = encodings["o200k_base"]
    texts = ["Say hi", "Tell me about Paris in one line."]
    lines = [
        _req({"model": "gpt-4o", "prompt": texts, "max_tokens": 10, "n": 2}, 1, "/v1/completions"),
        _req({"model": "gpt-4o", "prompt": [1, 2, 3, 4], "max_tokens": 10}, 2, "/v1/completions"),
        _req({"model": "gpt-4o", "prompt": [[5, 6], [7, 8, 9]], "max_tokens": 10}, 3, "/v1/completions"),
    ]
    r = _count(lines, ["gpt-4o"])
    assert r.rows == 3 and r.verdict.accepted
    assert r.per_model["gpt-4o"].tolist() == [sum(len(enc.encode(t)) for t in texts), 4, 5]
    assert r.model("gpt-4o").output_ceiling == 10 * 2 * 2 + 10 + 10 * 2
    assert any("token ids is counted as its number of ids" in n.text for n in r.notes)


def test_a_custom_id_that_is_a_number_is_named_as_such():
    # The Batch reference: custom_id is a string. A number is not "no custom_id".
    line = _req({"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]})
    line["custom_id"] = 7
    r = _count([line], ["gpt-4o"])
    assert not r.verdict.accepted
    assert r.verdict.problems[0].sentence().startswith('line 1 (7): its "custom_id" is 7, not a text')


@pytest.mark.parametrize(
    "name", ["ft:gpt-4o-mini-2024-07-18:acme::9abcDEF", "ft:gpt-4o-mini:acme:custom-suffix:7p4lURel"]
)
def test_a_fine_tuned_model_names_its_base_and_says_its_price_is_not_the_base_price(name):
    # The fine-tuning guide names a fine-tuned model ft:<base>:<org>:<suffix>:<id>; the pricing page
    # prices its use apart from (above) the base model's. The base's cost must not pass as the file's.
    from tokenizer_core.datasets.checks import fine_tuned_base

    assert fine_tuned_base(name) == "gpt-4o-mini" and fine_tuned_base("gpt-4o-mini") is None
    r = _count([_req({"model": name, "messages": [{"role": "user", "content": "hi"}], "max_tokens": 5})],
               ["gpt-4o-mini"])  # fmt: skip
    assert not r.model("gpt-4o-mini").in_file
    (said,) = [u for u in r.verdict.unchecked if name in u]
    assert "fine-tuned model" in said and "below this file's" in said


def test_a_built_in_tool_is_said_not_counted_not_guessed():
    # The Responses API's built-in tools ({"type": "web_search_preview"}) are not function
    # definitions: OpenAI documents no token rule for them and bills their calls apart.
    body = {"model": "gpt-4o", "input": "What happened today?"}
    plain = _count([_req(body, url="/v1/responses")], ["gpt-4o"])
    searched = _count(
        [_req({**body, "tools": [{"type": "web_search_preview"}]}, url="/v1/responses")], ["gpt-4o"]
    )
    assert searched.model("gpt-4o").total == plain.model("gpt-4o").total
    assert any("built-in tool of type 'web_search_preview' is not counted" in n.text for n in searched.notes)


def test_anthropic_dated_model_ids_are_the_catalog_models():
    # Anthropic's models overview names snapshots with an 8-digit date: claude-sonnet-4-5-20250929
    from tokenizer_core.datasets.checks import catalog_model

    assert catalog_model("claude-sonnet-4-5-20250929") == "claude-sonnet-4-5"
    assert (
        catalog_model("gpt-4o-2024-08-06") == "gpt-4o"
        and catalog_model("gpt-3.5-turbo-0125") == "gpt-3.5-turbo"
    )


def test_gemini_candidates_are_each_billed():
    # Google's GenerationConfig: candidateCount answers, each generated (and billed) as output
    def line(key: str, **config: int) -> dict:
        return {"key": key, "request": {"contents": [{"role": "user", "parts": [{"text": "Name a colour."}]}],
                                        "generationConfig": {"maxOutputTokens": 50, **config}}}  # fmt: skip

    r = _count([line("a"), line("b", candidateCount=3)], ["gemini-2.5-flash"], name="gemini.jsonl")
    assert r.shape == "gemini-batch" and r.model("gemini-2.5-flash").output_ceiling == 50 + 150


def test_max_tokens_fails_on_o_series_and_gpt5_models():
    # The chat API reference, max_tokens: "not compatible with o-series models"; GPT-5 models answer
    # 400 "Unsupported parameter: 'max_tokens' is not supported with this model."
    msgs = [{"role": "user", "content": "hi"}]
    lines = [
        _req({"model": "o4-mini-2025-04-16", "messages": msgs, "max_tokens": 100}, 1),
        _req({"model": "o4-mini-2025-04-16", "messages": msgs, "max_completion_tokens": 100}, 2),
    ]
    r = _count(lines, ["o4-mini"])
    assert r.verdict.fails == 1 and "does not take max_tokens" in r.problems("o4-mini")[0]
    assert r.per_row().column("over_limit").to_pylist() == [False, False]
    gpt4o = _count([_req({"model": "gpt-4o", "messages": msgs, "max_tokens": 100})], ["gpt-4o"])
    assert gpt4o.verdict.fails == 0
