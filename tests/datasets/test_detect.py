"""Every shape detected from real-format samples, with a sample row and its fields."""

from __future__ import annotations

import json

import pytest

from tests.datasets.samples import (
    batch_lines,
    csv_bytes,
    finetune_lines,
    jsonl,
    parquet_bytes,
    repo_zip,
    tar_gz,
)
from tokenizer_core.datasets import SHAPES, DatasetError, detect, pasted


def test_an_openai_batch_file():
    d = detect("batchinput.jsonl", jsonl(batch_lines()))
    assert (d.shape, d.label) == ("batch", "OpenAI Batch requests")
    assert d.sample[0]["custom_id"] == "request-1" and d.id_field == "custom_id"
    assert d.problems == ()


def test_a_fine_tuning_file_with_tools_and_weights():
    d = detect("train.jsonl", jsonl(finetune_lines()))
    assert d.shape == "finetune" and "tools" in d.fields and "messages" in d.fields
    assert d.problems == ()


def test_fine_tuning_problems_are_the_cookbooks_checks():
    rows = [*finetune_lines(3), {"messages": [{"role": "user", "content": "no answer"}]}, {"messages": []}]
    d = detect("train.jsonl", jsonl(rows))
    assert d.shape == "finetune"
    assert "line 4: it has no assistant message: a fine-tuning example needs one to train on" in d.problems
    assert 'line 5: it has no "messages" list' in d.problems


def test_json_lines_with_a_text_field_and_an_id():
    lines = [{"uid": i, "meta": {"lang": "en"}, "document": t} for i, t in enumerate(["one", "two two"])]
    d = detect("docs.jsonl", jsonl(lines))
    assert d.shape == "jsonl" and d.text_fields == ("document",) and d.id_field == "uid"
    assert d.fields == ("uid", "meta", "document")


def test_the_longest_text_field_when_no_usual_name_is_there():
    d = detect("x.jsonl", jsonl([{"k": "a", "body_text": "a long text here"}]))
    assert d.text_fields == ("body_text",)


def test_csv_tsv_and_parquet():
    d = detect("eval.csv", csv_bytes())
    assert d.shape == "csv" and d.fields == ("id", "question", "answer")
    assert d.text_fields == ("question", "answer") and d.id_field == "id"
    assert d.sample[0]["answer"] == "An answer,\nover two lines (0)."
    tsv = b"id\ttext\n1\thello\n2\tworld\n"
    assert detect("eval.tsv", tsv).text_fields == ("text",)
    p = detect("eval.parquet", parquet_bytes())
    assert p.shape == "parquet" and p.fields == ("id", "prompt", "score") and p.text_fields == ("prompt",)
    assert detect("no-suffix", parquet_bytes()).shape == "parquet"  # by its magic bytes


def test_a_repository_zip_and_tar_gz():
    d = detect("proj.zip", repo_zip())
    assert d.shape == "repository" and "src/app.py" in d.fields
    assert ("poetry.lock", "a lock file") in d.skipped
    assert detect("proj.tar.gz", tar_gz({"p/a.py": b"x"})).fields == ("a.py",)


def test_a_pasted_list():
    d = detect("pasted.txt", pasted("first prompt\nsecond prompt\n"))
    assert d.shape == "list" and d.sample[1] == {"text": "second prompt"}


def test_the_shape_can_be_chosen():
    data = jsonl([{"text": "hi", "messages": [{"role": "user", "content": "x"}]}])
    assert detect("a.jsonl", data).shape == "finetune"
    assert detect("a.jsonl", data, shape="jsonl").text_fields == ("text",)
    with pytest.raises(DatasetError, match="Unknown shape"):
        detect("a.jsonl", data, shape="xml")
    assert set(SHAPES) == {"batch", "gemini-batch", "mistral-batch", "anthropic-batch", "finetune", "jsonl", "csv",
                           "tsv", "parquet", "repository", "list"}  # fmt: skip


def test_bad_input_is_a_sentence():
    with pytest.raises(DatasetError, match="could not be read as a table"):
        detect("x.parquet", b"PAR1 broken")
    with pytest.raises(DatasetError, match="looks like an archive"):
        detect("x.jsonl", repo_zip())
    d = detect(
        "x.jsonl",
        b'{"custom_id": "a", "url": "/v1/chat/completions", "body": {}}\n{broken\n'
        + json.dumps({"custom_id": "b"}).encode(),
    )
    assert d.shape == "batch" and any("not valid JSON" in p for p in d.problems)
