"""A job judged before it is sent: the provider's rules on real-format files, the verdict first,
then each problem, and the per-row `problem` column. The rules come from the providers' documents
(docs/preflight-rules.md); token figures from tiktoken directly."""

from __future__ import annotations

import csv
import io
import json

import pytest

from tests.datasets.samples import batch_lines, finetune_lines, jsonl
from tests.references import stock_tiktoken
from tokenizer_core.datasets import count_dataset, detect
from tokenizer_core.datasets.checks import Problem, catalog_model


@pytest.fixture(scope="module")
def cl100k(tmp_path_factory):
    return stock_tiktoken(tmp_path_factory.mktemp("tiktoken"))["cl100k_base"]


def _batch(n: int = 12, **body: object) -> list[dict]:
    lines = batch_lines(n)
    for ln in lines:
        ln["body"].update(body)
    return lines


def _count(lines: list[dict], models: list[str], **options: object):
    return count_dataset(jsonl(lines), models, name="batch.jsonl", engine="local", **options)


def test_a_clean_batch_file_is_accepted_and_names_its_model():
    r = _count(_batch(), ["gpt-4o-mini", "gpt-4o"])
    assert r.verdict is not None and r.verdict.accepted
    assert r.verdict.headline == "OpenAI would accept this file"
    assert r.file_models == (("gpt-4o-mini", 12),)
    assert r.model("gpt-4o-mini").in_file and not r.model("gpt-4o").in_file
    assert set(r.per_row().column("problem").to_pylist()) == {""}


def test_a_file_with_each_kind_of_problem_is_rejected_with_every_row_flagged():
    lines = _batch(8)
    lines[3]["custom_id"] = lines[1]["custom_id"]  # a repeated id: the repeat is flagged, not the first
    lines[4]["body"]["model"] = "gpt-4.1"  # a second model
    lines[5]["method"] = "GET"
    lines[6]["body"]["max_tokens"] = 100_000  # over gpt-4o-mini's output limit of 16,384
    data = jsonl(lines, extra=["{not json"])
    r = count_dataset(data, ["gpt-4o-mini"], name="batch.jsonl", engine="local")
    v = r.verdict
    assert not v.accepted and v.headline.startswith("OpenAI would reject it: ")
    texts = [p.sentence() for p in v.problems]
    assert any(t.startswith("line 4 (request-2): its id repeats line 2's") for t in texts)
    assert not any(t.startswith("line 2 ") for t in texts)
    assert any("line 5 (request-5): its model is gpt-4.1, while the file's other requests use gpt-4o-mini" in t
               for t in texts)  # fmt: skip
    assert any(t.startswith("line 6 (request-6): its \"method\" is 'GET'") for t in texts)
    assert any(t.startswith("line 9: not valid JSON") for t in texts)
    assert any("more than one model" in t for t in texts)
    assert "line 7 (request-7): its max_tokens of 100,000 is over the model's output limit of 16,384" in texts
    # rejects before fails, each counted
    assert [p.severity for p in v.problems] == sorted((p.severity for p in v.problems), key=["reject", "fail",
                                                       "warn"].index)  # fmt: skip
    assert v.rejects == 5 and v.fails == 1  # two file-level, the repeat, the second model, GET, the bad line
    problems = dict(zip(r.ids, r.problems("gpt-4o-mini")))
    assert problems["request-1"] == "" and problems["request-8"] == ""
    assert "repeats" in problems["request-2"] or "repeats" in r.problems("gpt-4o-mini")[3]
    assert "output limit" in problems["request-7"]
    rows = list(csv.DictReader(io.StringIO(r.to_csv().decode())))
    assert rows[4]["problem"].startswith("its model is gpt-4.1") and rows[0]["problem"] == ""


def test_input_plus_max_tokens_is_checked_against_the_window():
    lines = _batch(2)
    big = (
        "word " * 126_000
    )  # about 126,000 tokens: under gpt-4o's 128,000 window alone, over it with 5,000 more
    lines[0]["body"]["messages"][1]["content"] = big
    lines[0]["body"]["max_tokens"] = 5_000
    for ln in lines:
        ln["body"]["model"] = "gpt-4o"
    r = _count(lines, ["gpt-4o"], shape="batch")  # (a first line this long is detected too: test_detect)
    g = r.model("gpt-4o")
    assert g.total < 128_000 and r.per_model["gpt-4o"][0] + 5_000 > 128_000
    assert r.verdict.fails == 1 and r.verdict.rejects == 0
    assert r.verdict.headline == "OpenAI would accept this file, but 1 request would fail"
    assert "max_tokens of 5,000 are over the 128,000-token window" in r.problems("gpt-4o")[0]
    assert g.over == 1


def test_the_enqueued_token_limit_is_the_users_number():
    r = _count(_batch(), ["gpt-4o-mini"], enqueued_limit=100)
    assert not r.verdict.accepted
    assert any("over your enqueued-token limit of 100" in p.text for p in r.verdict.problems)
    r = _count(_batch(), ["gpt-4o-mini"])
    assert r.verdict.accepted and any("enqueued-token limit" in u for u in r.verdict.unchecked)


def test_without_the_files_model_the_limits_are_said_unchecked():
    r = _count(_batch(), ["gpt-4o"])
    assert r.verdict.accepted
    assert any("GPT-4o mini, the file's model" in u for u in r.verdict.unchecked)


def test_an_embeddings_batch_counts_each_input_with_the_embedding_models_tokenizer(cl100k):
    inputs = [["The food was delicious.", "The waiter was friendly."], ["One more"], "A single text"]
    lines = [{"custom_id": f"e{i}", "method": "POST", "url": "/v1/embeddings",
              "body": {"model": "text-embedding-3-small", "input": x}} for i, x in enumerate(inputs)]  # fmt: skip
    r = _count(lines, ["text-embedding-3-small"])
    assert r.verdict.accepted and r.file_models == (("text-embedding-3-small", 3),)
    expected = [sum(len(cl100k.encode(t)) for t in (x if isinstance(x, list) else [x])) for x in inputs]
    assert r.per_model["text-embedding-3-small"].tolist() == expected  # each input on its own, no join
    m = r.model("text-embedding-3-small")
    assert m.output_tokens == 0 and m.output_ceiling == 0
    std = m.cost("standard")
    assert std.total_usd == std.input_usd and std.ceiling_usd == std.input_usd


def test_embeddings_limits_per_input_and_per_request():
    long_input = "token " * 9_000
    lines = [
        {"custom_id": "big", "method": "POST", "url": "/v1/embeddings",
         "body": {"model": "text-embedding-3-small", "input": [long_input, "short"]}},
        {"custom_id": "many", "method": "POST", "url": "/v1/embeddings",
         "body": {"model": "text-embedding-3-small", "input": ["x"] * 2_049}},
    ]  # fmt: skip
    r = _count(lines, ["text-embedding-3-small"])
    problems = r.problems("text-embedding-3-small")
    assert "embeddings input takes at most 8,192" in problems[0]
    assert "2,049 inputs; an embeddings request takes at most 2,048" in problems[1]
    assert not r.verdict.accepted


def test_completions_and_responses_requests_are_counted(cl100k):
    lines = [
        {"custom_id": "c1", "method": "POST", "url": "/v1/completions",
         "body": {"model": "gpt-3.5-turbo", "prompt": "Say this is a test", "max_tokens": 7}},
    ]  # fmt: skip
    r = _count(lines, ["gpt-3.5-turbo"])
    assert r.per_model["gpt-3.5-turbo"].tolist() == [len(cl100k.encode("Say this is a test"))]
    responses = [
        {"custom_id": "r1", "method": "POST", "url": "/v1/responses",
         "body": {"model": "gpt-4o", "instructions": "Be brief.", "input": "Hello there", "max_output_tokens": 30}},
        {"custom_id": "r2", "method": "POST", "url": "/v1/responses",
         "body": {"model": "gpt-4o", "input": [{"role": "user", "content": [
             {"type": "input_text", "text": "What is in this image?"}]}]}},
    ]  # fmt: skip
    r = _count(responses, ["gpt-4o"])
    assert r.error_count == 0 and r.verdict.accepted
    assert r.model("gpt-4o").output_ceiling == 30 + 16_384  # r2 sets none: the model's output limit


def test_parts_not_counted_are_said():
    lines = _batch(2)
    lines[0]["body"]["messages"][1]["content"] = [
        {"type": "text", "text": "Transcribe this."},
        {"type": "input_audio", "input_audio": {"data": "AAAA", "format": "wav"}},
    ]
    lines[1]["body"]["response_format"] = {"type": "json_schema", "json_schema": {"name": "x", "schema": {}}}
    r = _count(lines, ["gpt-4o-mini"])
    texts = {n.text: n.rows for n in r.notes}
    assert any(t.startswith("An audio part is not counted") for t in texts)
    assert any(t.startswith("The response format's JSON schema is not counted") for t in texts)


@pytest.mark.parametrize("shape,line", [
    ("gemini-batch", {"key": "k1", "request": {"contents": [{"role": "user", "parts": [{"text": "Hello"}]}],
                                                "generationConfig": {"maxOutputTokens": 40}}}),
    ("mistral-batch", {"custom_id": "0", "body": {"max_tokens": 40, "messages": [
        {"role": "user", "content": "Hello"}]}}),
    ("anthropic-batch", {"custom_id": "a1", "params": {"model": "claude-sonnet-4-5", "max_tokens": 40,
                                                        "messages": [{"role": "user", "content": "Hello"}]}}),
])  # fmt: skip
def test_other_providers_batch_files_are_recognised_and_checked(shape, line):
    data = jsonl([line, {**line}])
    assert detect("x.jsonl", data).shape == shape
    model = {"gemini-batch": "gemini-2.5-flash", "mistral-batch": "mistral-large-2411",
             "anthropic-batch": "claude-sonnet-4-5"}[shape]  # fmt: skip
    r = count_dataset(data, [model], name="x.jsonl", engine="local")
    v = r.verdict
    assert (
        v.provider
        == {"gemini-batch": "Google", "mistral-batch": "Mistral", "anthropic-batch": "Anthropic"}[shape]
    )
    assert any("its id repeats line 1's" in p.text for p in v.problems)
    # OpenAI, Anthropic and Mistral document that ids are unique; Google does not: a warning there
    assert v.accepted == (shape == "gemini-batch") and v.warnings == (shape == "gemini-batch")
    if shape == "anthropic-batch":
        assert r.not_counted and not r.models
        assert any("Anthropic publishes no tokenizer" in u for u in v.unchecked)
    else:
        m = r.model(model)
        assert m.rows == 2 and m.total > 0 and m.output_ceiling == 80


GEMINI = {"request": {"contents": [{"role": "user", "parts": [{"text": "Hello"}]}]}}
MISTRAL = {"body": {"max_tokens": 40, "messages": [{"role": "user", "content": "Hello"}]}}


@pytest.mark.parametrize("shape,line,field,model", [
    ("gemini-batch", GEMINI, "key", "gemini-2.5-flash"),
    ("mistral-batch", MISTRAL, "custom_id", "mistral-large-2411"),
])  # fmt: skip
def test_a_request_without_an_id_is_counted_and_warned_not_refused(shape, line, field, model):
    """Google's guide names no rule that a line has a key, and Mistral's schema marks custom_id
    optional: a line without one is counted, and the verdict accepts the file with a warning (each
    guide gives every line one, to find its answer). A file whose lines all lack it is still
    recognised."""
    named = [{field: "a", **line}, line, {field: "c", **line}]
    r = count_dataset(jsonl(named), [model], name="x.jsonl", engine="local")
    assert r.shape == shape and r.model(model).rows == 3
    v = r.verdict
    assert v.accepted and (v.rejects, v.warnings) == (0, 1)
    assert [(p.line, p.severity) for p in v.problems] == [(2, "warn")]
    assert v.problems[0].text.startswith(f'it has no "{field}"')
    alone = count_dataset(jsonl([line] * 3), [model], name="x.jsonl", engine="local")
    assert alone.shape == shape and alone.model(model).rows == 3
    assert alone.verdict.accepted and alone.verdict.warnings == 3


def test_a_gemini_key_that_is_not_a_text_is_its_id_and_not_refused():
    """Google's guide shows text keys but names no rule for them: a number is the row's id."""
    r = count_dataset(jsonl([{"key": 5, **GEMINI}, {"key": "b", **GEMINI}]), ["gemini-2.5-flash"],
                      name="x.jsonl", engine="local")  # fmt: skip
    assert r.shape == "gemini-batch" and r.verdict.accepted and r.verdict.problems == ()
    assert r.model("gemini-2.5-flash").rows == 2


def test_an_openai_batch_request_without_a_custom_id_is_still_refused():
    """OpenAI's Batch guide requires a custom_id on every request (unlike Google's and Mistral's)."""
    line = {"method": "POST", "url": "/v1/chat/completions",
            "body": {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "Hi"}]}}  # fmt: skip
    r = count_dataset(
        jsonl([{"custom_id": "a", **line}, line]), ["gpt-4o-mini"], name="x.jsonl", engine="local"
    )
    assert r.shape == "batch"
    assert not r.verdict.accepted
    assert [(p.line, p.severity) for p in r.verdict.problems] == [(2, "reject")]


def test_fine_tuning_format_checks_follow_openais_notebook():
    good = finetune_lines(10)
    bad = [
        {"messages": [{"role": "user", "content": "Hi"}]},  # no assistant message
        {"messages": [{"role": "narrator", "content": "Hi"}, {"role": "assistant", "content": "x"}]},
        {
            "messages": [
                {"role": "user", "content": "Hi", "mood": "ok"},
                {"role": "assistant", "content": "x"},
            ]
        },
        {"messages": [{"role": "user"}, {"role": "assistant", "content": "x"}]},
        {"messages": [{"role": "user", "content": "Hi", "weight": 0}, {"role": "assistant", "content": "x"}]},
        {"prompt": "old format", "completion": "x"},
        ["not", "an", "object"],
    ]
    r = count_dataset(jsonl(good + bad), ["gpt-4o-mini", "llama-3.1-8b"], name="train.jsonl", engine="local",
                      shape="finetune")  # fmt: skip
    v = r.verdict
    assert v.rejects == 7 and not v.accepted
    texts = " | ".join(p.text for p in v.problems)
    for words in ("no assistant message", 'the role "narrator"', "keys a message does not have: mood",
                  '(user) has no "content"', 'has a "weight": only assistant messages', "keys a fine-tuning "
                  "example does not have: completion, prompt", "not a JSON object"):  # fmt: skip
        assert words in texts
    mini = r.model("gpt-4o-mini")
    assert mini.fine_tuning is not None and mini.costs == ()  # training only, no inference price
    assert mini.fine_tuning.training_price is not None and mini.fine_tuning.example_limit == 65_536
    assert r.model("llama-3.1-8b").fine_tuning is None  # OpenAI does not fine-tune it


def test_fewer_than_ten_examples_are_refused_and_epochs_follow_the_page():
    r = count_dataset(jsonl(finetune_lines(9)), ["gpt-4o-mini"], name="t.jsonl", engine="local")
    assert any("fine-tuning needs at least 10" in p.text for p in r.verdict.problems)
    r = count_dataset(jsonl(finetune_lines(20)), ["gpt-4o-mini"], name="t.jsonl", engine="local")
    ft = r.model("gpt-4o-mini").fine_tuning
    assert ft.epochs == 5  # OpenAI's default for 20 examples: 100 // 20
    five = r.with_epochs(3)
    rec = list(csv.DictReader(io.StringIO(five.summary_csv().decode())))[0]
    assert rec["epochs"] == "3" and int(rec["billed training tokens"]) == ft.billed_tokens_per_epoch * 3


def test_a_dated_snapshot_is_the_catalogs_model():
    assert catalog_model("gpt-4o-2024-08-06") == "gpt-4o"
    assert catalog_model("gpt-4o-mini") == "gpt-4o-mini" and catalog_model("my-own-model") is None
    assert Problem(0, "", "The file is too big.", "reject").sentence() == "The file is too big."


def test_a_model_the_app_does_not_know_is_said():
    lines = _batch(3, model="acme-llm-7")  # a fine-tuned ft: model: tests/datasets/test_request_shapes.py
    r = _count(lines, ["gpt-4o-mini"])
    assert any("a model this app does not know" in u for u in r.verdict.unchecked)
    assert json.dumps(r.file_models)


def _png_data_url(width: int, height: int) -> str:
    import base64

    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(buf, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()


def test_a_vision_batch_adds_each_images_tokens_by_openais_rule():
    """OpenAI's vision guide: a 1024 x 1024 image at high detail costs gpt-4o 765 tokens; 4096 x 8192
    at low detail costs 85. The text-only twin of the same rows gives the rest."""
    lines = _batch(3, model="gpt-4o")
    twin = json.loads(json.dumps(lines))
    pictures = [(1024, 1024, "high", 765), (4096, 8192, "low", 85), (None, None, "high", None)]
    for ln, (w, h, detail, _) in zip(lines, pictures):
        url = _png_data_url(w, h) if w else "https://example.com/cat.png"
        user = ln["body"]["messages"][1]
        user["content"] = [{"type": "text", "text": user["content"]},
                           {"type": "image_url", "image_url": {"url": url, "detail": detail}}]  # fmt: skip
    with_images = _count(lines, ["gpt-4o"])
    text_only = _count(twin, ["gpt-4o"])
    added = (with_images.per_model["gpt-4o"] - text_only.per_model["gpt-4o"]).tolist()
    assert added[:2] == [765, 85]
    assert added[2] > 765  # an image by URL: its size is not known offline, so the most it can cost
    m = with_images.model("gpt-4o")
    assert m.images == 3 and m.image_tokens == sum(added)
    assert any("not known" in n.text.lower() or "url" in n.text.lower() for n in with_images.notes)
    # or at a size the user gives: 1024 x 1024 at high detail is 765 (the guide's worked example)
    given = _count(lines, ["gpt-4o"], url_image_size=(1024, 1024))
    assert (given.per_model["gpt-4o"] - text_only.per_model["gpt-4o"]).tolist() == [765, 85, 765]
    assert any("at the size you gave (1,024 x 1,024 px)" in n.text for n in given.notes)


def test_an_image_sent_to_a_model_that_takes_no_images_fails_its_request():
    """GPT-4's model page lists text as its only input: a request with an image part fails there,
    whether the file names GPT-4 or GPT-4 is only a what-if beside gpt-4o, which takes the image."""
    lines = _batch(3, model="gpt-4")
    lines[1]["body"]["messages"][1]["content"] = [
        {"type": "text", "text": "Describe."},
        {"type": "image_url", "image_url": {"url": _png_data_url(64, 64), "detail": "low"}},
    ]
    r = _count(lines, ["gpt-4"])
    assert r.verdict.headline == "OpenAI would accept this file, but 1 request would fail"
    assert r.problems("gpt-4") == ["", "it holds an image, and its model takes no images", ""]
    assert r.model("gpt-4").over == 0  # not over a limit: refused for what it holds
    for ln in lines:
        ln["body"]["model"] = "gpt-4o"
    r = _count(lines, ["gpt-4o", "gpt-4"])
    assert r.verdict.accepted and r.verdict.fails == 0  # the file's model takes images
    assert r.problems("gpt-4o") == ["", "", ""]
    assert r.problems("gpt-4")[1] == "it holds an image, and its model takes no images"


def test_a_vision_batch_is_detected_past_a_long_first_line():
    lines = _batch(2, model="gpt-4o")
    lines[0]["body"]["messages"][1]["content"] = [
        {"type": "text", "text": "Describe."},
        {"type": "image_url", "image_url": {"url": _png_data_url(1024, 1024), "detail": "high"}},
    ]
    # pad the first line past 256 KB with a long text part, as a row with a large photo would be
    lines[0]["body"]["messages"][1]["content"].append({"type": "text", "text": "x " * 150_000})
    data = jsonl(lines)
    assert len(data.split(b"\n")[0]) > 256 * 1024
    d = detect("batch.jsonl", data)
    assert d.shape == "batch" and d.models == ("gpt-4o",)
    r = count_dataset(data, ["gpt-4o"], name="batch.jsonl", engine="local")
    assert r.ids == ("request-1", "request-2") and r.model("gpt-4o").images == 1


def test_a_gemini_batch_counts_inline_images_by_googles_tile_rule():
    """Google's token page: an image with both sides at most 384 px is 258 tokens; 1600 x 900 is
    3 x 2 tiles of 768 px, 1,548 tokens (Gemini 2.x)."""
    import base64

    def part(w: int, h: int) -> dict:
        data = _png_data_url(w, h).split(",", 1)[1]
        assert base64.b64decode(data)[:4] == b"\x89PNG"
        return {"inline_data": {"mime_type": "image/png", "data": data}}

    rows = [{"key": f"k{i}", "request": {"contents": [{"role": "user", "parts": [{"text": "What is this?"}, p]}]}}
            for i, p in enumerate([part(300, 200), part(1600, 900)])]  # fmt: skip
    twin = [{"key": r["key"], "request": {"contents": [{"role": "user", "parts": [{"text": "What is this?"}]}]}}
            for r in rows]  # fmt: skip
    a = count_dataset(jsonl(rows), ["gemini-2.5-flash"], name="g.jsonl", engine="local")
    b = count_dataset(jsonl(twin), ["gemini-2.5-flash"], name="g.jsonl", engine="local")
    assert (a.per_model["gemini-2.5-flash"] - b.per_model["gemini-2.5-flash"]).tolist() == [258, 1_548]
