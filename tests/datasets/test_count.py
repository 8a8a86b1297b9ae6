"""Counting whole sets: each row as the workspace counts a request (the same call), text rows as
tiktoken counts them, OpenAI's fine-tuning rule, costs at the standard and batch rates, errors
with their lines, exports, progress and cancel."""

from __future__ import annotations

import csv
import io
import json
import threading
from decimal import Decimal

import numpy as np
import pyarrow.parquet as pq
import pytest

from tests.conftest import builtin
from tests.datasets.samples import (
    PROSE,
    batch_lines,
    csv_bytes,
    finetune_lines,
    jsonl,
    parquet_bytes,
    repo_zip,
)
from tests.references import stock_tiktoken
from tokenizer_core.catalog.entries import MODELS
from tokenizer_core.datasets import DatasetCancelled, DatasetError, count_dataset, pasted
from tokenizer_core.datasets import count as count_module
from tokenizer_core.datasets.result import default_epochs
from tokenizer_core.tokenizers.csvcells import from_spreadsheet_safe
from tokenizer_core.workspace import chat
from tokenizer_core.workspace.chat import Message


@pytest.fixture(scope="module")
def stock(tmp_path_factory) -> dict:
    """Stock tiktoken encodings (offline), the independent reference for text counts."""
    return stock_tiktoken(tmp_path_factory.mktemp("tiktoken"))


CHAT_MODELS = ["gpt-4o", "llama-3.1-8b", "qwen3-32b", "gemini-2.5-flash", "open-mistral-nemo-2407"]


def _messages(row: dict) -> list[Message]:
    return [Message(m["role"], m["content"]) for m in row["messages"]]


@pytest.mark.parametrize("model_id", CHAT_MODELS)
def test_batch_rows_equal_the_workspaces_request_counts(model_id):
    lines = batch_lines()
    r = count_dataset(jsonl(lines), [model_id], name="batch.jsonl", engine="local")
    m = MODELS[model_id]
    tok = builtin(m.tokenizer_id)
    want = [
        chat.count_request(_messages(ln["body"]), tok, m.chat_format, tools=ln["body"].get("tools", ())).total
        for ln in lines
    ]
    assert r.per_model[model_id].tolist() == want
    assert r.ids == tuple(ln["custom_id"] for ln in lines)
    s = r.model(model_id)
    assert (s.rows, s.total, s.min, s.max) == (len(want), sum(want), min(want), max(want))
    assert s.median == float(np.median(want)) and s.p90 == float(np.percentile(want, 90))


def test_chat_rows_go_through_the_workspaces_count_request(monkeypatch):
    calls = []
    real = chat.count_request

    def spy(*args, **kwargs):
        calls.append(args[2])
        return real(*args, **kwargs)

    monkeypatch.setattr(count_module, "count_request", spy)
    count_dataset(jsonl(batch_lines(3)), ["llama-3.1-8b"], name="b.jsonl", engine="local")
    assert calls == ["llama31"] * 3


def test_openai_rows_match_the_cookbooks_rule_counted_with_tiktoken(stock):
    enc = stock["o200k_base"]
    lines = [ln for ln in batch_lines() if "tools" not in ln["body"]]
    r = count_dataset(jsonl(lines), ["gpt-4o"], name="b.jsonl", engine="local")
    # OpenAI Cookbook, "How to count tokens with tiktoken": 3 per message + role + content, 3 for the reply
    want = [sum(3 + len(enc.encode_ordinary(m["role"])) + len(enc.encode_ordinary(m["content"])) for m in ln["body"]["messages"]) + 3
            for ln in lines]  # fmt: skip
    assert r.per_model["gpt-4o"].tolist() == want


@pytest.mark.parametrize("encoding", ["o200k_base", "cl100k_base"])
def test_text_rows_equal_tiktoken(encoding, stock):
    enc = stock[encoding]
    texts = PROSE * 40 + ["x" * 3000, "def f(x):\n    return x\n" * 50]
    data = jsonl([{"id": f"t{i}", "text": t} for i, t in enumerate(texts)])
    r = count_dataset(data, [encoding], name="t.jsonl", engine="local", chunk_bytes=2_000)
    assert r.per_model[encoding].tolist() == [len(enc.encode_ordinary(t)) for t in texts]
    assert r.ids[:2] == ("t0", "t1")


def test_tables_count_the_chosen_columns(stock):
    enc = stock["o200k_base"]
    r = count_dataset(csv_bytes(), ["o200k_base"], name="eval.csv", engine="local")
    texts = [f"{p}\n\nAn answer,\nover two lines ({i})." for i, p in enumerate(PROSE)]
    assert r.per_model["o200k_base"].tolist() == [len(enc.encode_ordinary(t)) for t in texts]
    assert r.ids == tuple(f"q{i}" for i in range(len(PROSE)))
    p = count_dataset(parquet_bytes(), ["o200k_base"], name="eval.parquet", engine="local")
    assert p.per_model["o200k_base"].tolist() == [len(enc.encode_ordinary(t)) for t in PROSE]
    only_q = count_dataset(csv_bytes(), ["o200k_base"], name="eval.csv", columns=["question"], engine="local")
    assert only_q.per_model["o200k_base"].tolist() == [len(enc.encode_ordinary(t)) for t in PROSE]
    with pytest.raises(DatasetError, match="has no column 'nope'"):
        count_dataset(parquet_bytes(), ["o200k_base"], name="e.parquet", columns=["nope"], engine="local")


def test_bad_lines_are_errors_with_their_line_numbers():
    lines = [json.dumps(x) for x in batch_lines(4)]
    lines.insert(2, "{not json")
    lines.insert(4, json.dumps({"custom_id": "x", "body": {"messages": "hi"}}))
    data = ("\n".join(lines) + "\n\n").encode()
    r = count_dataset(data, ["gpt-4o"], name="b.jsonl", engine="local")
    assert r.rows == 4 and r.error_count == 2
    assert [e.line for e in r.errors] == [3, 5]
    assert r.errors[1].text() == 'line 5: it has no "messages" list'
    assert r.lines.tolist() == [1, 2, 4, 6]


def test_a_csv_row_with_the_wrong_number_of_cells_is_an_error_with_its_line():
    data = b"id,text\n1,hello\n2,a,b\n3,world\n"
    r = count_dataset(data, ["o200k_base"], name="t.csv", engine="local")
    assert r.rows == 2 and r.error_count == 1 and r.errors[0].line == 3


def test_fine_tuning_epochs_weights_and_billed_tokens(stock):
    enc = stock["o200k_base"]
    lines = finetune_lines(10)
    r = count_dataset(jsonl(lines), ["gpt-4o"], name="train.jsonl", engine="local")
    ft = r.model("gpt-4o").fine_tuning
    assert ft is not None
    assert ft.examples == 10 and ft.epochs == 10  # 10 x 3 < 100: 100 // 10 epochs (OpenAI's rule)
    totals = r.per_model["gpt-4o"].tolist()
    assert ft.billed_tokens_per_epoch == sum(min(16_385, n) for n in totals)
    assert ft.billed_tokens == ft.billed_tokens_per_epoch * 10
    weight0 = [m for ln in lines for m in ln["messages"] if m.get("weight") == 0]
    assert ft.weight0_messages == len(weight0) == 5
    assert ft.weight0_tokens == sum(len(enc.encode_ordinary(m["content"])) for m in weight0)
    trained = [
        m for ln in lines for m in ln["messages"] if m["role"] == "assistant" and m.get("weight", 1) == 1
    ]
    assert ft.trained_tokens == sum(len(enc.encode_ordinary(m["content"])) for m in trained)
    priced = count_dataset(
        jsonl(lines), ["gpt-4o"], name="t.jsonl", engine="local", training_price=Decimal(25)
    )
    assert priced.model("gpt-4o").fine_tuning.training_usd == Decimal(25) * ft.billed_tokens / 1_000_000


@pytest.mark.parametrize(
    ("examples", "epochs"),
    [(1, 25), (3, 25), (10, 10), (33, 3), (34, 3), (100, 3), (8_333, 3), (8_334, 2), (12_500, 2), (12_501, 1),
     (100_000, 1)],
)  # fmt: skip
def test_openais_default_epochs(examples, epochs):
    # the Cookbook's rule: 3, unless examples x 3 is under 100 (then 100 // examples, at most 25)
    # or over 25,000 (then 25,000 // examples, at least 1)
    assert default_epochs(examples) == epochs


def test_costs_at_the_standard_and_the_batch_rate():
    lines = batch_lines()
    r = count_dataset(jsonl(lines), ["gpt-4o", "llama-3.1-8b", "o200k_base"], name="b.jsonl", engine="local",
                      tokens_per_minute=1_000, output_tokens=55)  # fmt: skip
    g = r.model("gpt-4o")
    std, bat = g.cost("standard"), g.cost("batch")
    # gpt-4o: $2.50 / $10 per million tokens, the Batch API at half (genai-prices 0.2.3)
    assert std.input_usd == Decimal("2.5") * g.total / 1_000_000
    # the ceiling: every row's own max_tokens; the expectation: 55 a row, never over a row's max_tokens
    assert g.output_ceiling == sum(ln["body"]["max_tokens"] for ln in lines)
    assert g.output_tokens == sum(min(55, ln["body"]["max_tokens"]) for ln in lines) < g.output_ceiling
    assert std.output_usd == Decimal(10) * g.output_tokens / 1_000_000
    assert std.ceiling_output_usd == Decimal(10) * g.output_ceiling / 1_000_000
    assert std.ceiling_usd == std.input_usd + std.ceiling_output_usd > std.total_usd
    assert std.as_of and std.provider == "openai"
    assert bat.input_usd * 2 == std.input_usd and bat.output_usd * 2 == std.output_usd
    assert g.minutes == (g.total + g.output_tokens) / 1_000
    assert r.model("llama-3.1-8b").cost("batch").total_usd is None
    assert r.model("o200k_base").cost("standard").note == "no price for an encoding: pick a model"


def test_rows_over_a_budget_are_listed_with_their_ids():
    r = count_dataset(jsonl(batch_lines()), ["gpt-4o"], name="b.jsonl", engine="local", budget=60)
    s = r.model("gpt-4o")
    t = r.per_model["gpt-4o"]
    assert s.limit == 60 and s.over == int((t > 60).sum()) > 0
    assert [x.id for x in s.over_rows] == [r.ids[i] for i in np.flatnonzero(t > 60)]
    assert s.largest[0].tokens == s.max


def test_exports_csv_and_parquet():
    lines = batch_lines(3)
    lines[0]["custom_id"] = "=HYPERLINK(1)"
    r = count_dataset(jsonl(lines), ["gpt-4o", "llama-3.1-8b"], name="b.jsonl", engine="local", budget=60)
    rows = list(csv.DictReader(io.StringIO(r.to_csv().decode())))
    assert len(rows) == 6 and rows[0]["id"] == "'=HYPERLINK(1)"
    assert from_spreadsheet_safe(rows[0]["id"]) == "=HYPERLINK(1)"
    assert [int(x["tokens"]) for x in rows[:3]] == r.per_model["gpt-4o"].tolist()
    table = pq.read_table(io.BytesIO(r.to_parquet()))
    assert table.column_names == ["id", "line", "model", "tokens", "over_limit", "problem"]
    assert table.column("id").to_pylist()[0] == "=HYPERLINK(1)"
    assert table.column("over_limit").to_pylist() == [x["over_limit"] == "yes" for x in rows]
    assert b"cost batch (USD)" in r.summary_csv()


def test_models_without_a_tokenizer_are_named_not_counted():
    r = count_dataset(pasted("hi"), ["claude-opus-4-5", "o200k_base"], engine="local")
    assert r.not_counted == (("Claude Opus 4.5", "no public tokenizer: its maker's API counts it"),)
    with pytest.raises(DatasetError, match="Choose at least one model"):
        count_dataset(pasted("hi"), [], engine="local")


def test_progress_and_cancel():
    data = jsonl([{"text": t} for t in PROSE * 200])
    seen = []
    count_dataset(
        data, ["o200k_base"], name="t.jsonl", engine="local", chunk_bytes=5_000, progress=seen.append
    )
    assert len(seen) > 3 and seen[-1].fraction == 1.0 and seen[-1].rows == 1000
    assert [p.rows for p in seen] == sorted(p.rows for p in seen)
    stop = threading.Event()

    def cancel_at_second(p):
        if p.rows > 100:
            stop.set()

    with pytest.raises(DatasetCancelled):
        count_dataset(data, ["o200k_base"], name="t.jsonl", engine="local", chunk_bytes=5_000,
                      progress=cancel_at_second, cancel=stop)  # fmt: skip


def test_a_repository_by_folder_with_what_to_drop_to_fit(stock):
    enc = stock["o200k_base"]
    from tests.datasets.samples import REPO_FILES

    r = count_dataset(repo_zip(), ["o200k_base"], name="proj.zip", engine="local", budget=1_000)
    s = r.model("o200k_base")
    counted = {k.removeprefix("proj/"): v for k, v in REPO_FILES.items()
               if k.removeprefix("proj/") in r.ids}  # fmt: skip
    want = {p: len(enc.encode_ordinary(t)) for p, t in counted.items()}
    assert dict(zip(r.ids, r.per_model["o200k_base"].tolist())) == want
    repo = s.repository
    assert repo is not None
    folders = {f.path: f.tokens for f in repo.folders}
    assert folders[""] == sum(want.values())
    assert folders["src"] == want["src/app.py"] + want["src/util.py"] + want["src/sub/kept.txt"]
    assert repo.top_files[0].id == "docs/guide.md"
    assert repo.fits is False and repo.drop == ("docs/",) and repo.tokens_after_drop <= 1_000
    reasons = dict((s.path, s.reason) for s in r.skipped)
    assert reasons["poetry.lock"] == "a lock file" and reasons["data.txt"].startswith("a binary file")


def test_a_line_over_the_limit_is_an_error_and_is_never_held_whole(monkeypatch):
    from tokenizer_core.datasets import limits, sources

    monkeypatch.setattr(sources, "MAX_LINE_BYTES", 1_000)  # cut while reading (a line longer than a block)
    monkeypatch.setattr(limits, "MAX_LINE_BYTES", 1_000)  # and when a block holds it whole
    data = jsonl([{"text": "short"}, {"text": "long " * 2_000}, {"text": "after"}])
    r = count_dataset(data, ["o200k_base"], name="t.jsonl", engine="local", chunk_bytes=64)
    assert r.ids == ("line 1", "line 3") and r.errors[0].line == 2
    assert r.errors[0].problem.startswith("the line is over")


def test_remembered_counts_are_the_tokenizers_own():
    from tokenizer_core.datasets.count import RememberedCounts

    tok = builtin("llama3")
    mem = RememberedCounts(tok)
    texts = ["system", "You answer in one sentence.", "x" * 5_000, "system", ""]
    assert [mem.count(t) for t in texts] == [tok.count(t) for t in texts]
    assert mem.count_many(texts) == tok.count_many(texts)
    assert mem.special_tokens == tok.special_tokens and mem.info is tok.info


def test_remembered_counts_hold_a_bounded_number_of_characters(monkeypatch):
    """A set whose every row is different must not leave every row's text in the worker."""
    from tokenizer_core.datasets import count as count_module

    monkeypatch.setattr(count_module, "MEMO_TOTAL_CHARS", 1_000)
    tok = builtin("o200k_base")
    mem = count_module.RememberedCounts(tok)
    texts = [f"row {i}: " + "word " * 40 for i in range(100)]  # 100 texts of ~210 characters
    assert [mem.count(t) for t in texts] == [tok.count(t) for t in texts]
    assert sum(len(text) for text, _ in mem._memo) <= 1_000
