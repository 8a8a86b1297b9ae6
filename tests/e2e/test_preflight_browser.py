"""A job judged before it is sent, in Chromium: a vision Batch file (its images counted by OpenAI's
rule), an embeddings file and a file OpenAI would reject, each uploaded and counted; the verdict
is the first thing after the heading, and user text in a problem is shown as text."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.app_pages.test_datasets import vision_lines
from tests.datasets.samples import batch_lines, jsonl
from tokenizer_core.datasets import count_dataset

pytestmark = pytest.mark.e2e


def _upload(app, name: str, data: bytes) -> None:
    uploader = app.main.get_by_test_id("stFileUploaderDropzoneInput").first
    app.run(
        lambda: uploader.set_input_files(
            files=[{"name": name, "mimeType": "application/json", "buffer": data}]
        )
    )


def _count(app, rows: int) -> None:
    app.run(lambda: app.main.get_by_role("button", name="Count the set").click())
    heading = app.main.get_by_role("heading", name=re.compile(f"{rows} rows counted"))
    expect(heading).to_be_visible(timeout=60_000)
    app.settle()


def test_a_vision_file_is_accepted_with_its_image_tokens(app_page):
    app = app_page
    app.goto("datasets")
    data = jsonl(vision_lines())
    _upload(app, "vision.jsonl", data)
    expect(app.main.get_by_text("The models in the file: GPT-4o")).to_be_visible()
    _count(app, 4)
    expect(app.main.get_by_text("OpenAI would accept this file", exact=True)).to_be_visible()
    expected = count_dataset(data, ["gpt-4o"], name="vision.jsonl", engine="local").model("gpt-4o")
    assert expected.image_tokens == 4 * 765  # OpenAI's worked example: 1024 x 1024, high detail
    expect(app.main.get_by_text("4 images counted by each model's maker's rule", exact=False)).to_be_visible()
    assert not app.exceptions()


def test_an_embeddings_file_is_counted(app_page):
    app = app_page
    app.goto("datasets")
    lines = [{"custom_id": f"e{i}", "method": "POST", "url": "/v1/embeddings",
              "body": {"model": "text-embedding-3-small", "input": ["a first text", "a second"]}} for i in range(5)]  # fmt: skip
    _upload(app, "embed.jsonl", jsonl(lines))
    expect(app.main.get_by_text("The models in the file: text-embedding-3-small")).to_be_visible()
    _count(app, 5)
    expect(app.main.get_by_text("OpenAI would accept this file", exact=True)).to_be_visible()
    assert not app.exceptions()


def test_a_rejected_file_lists_its_problems_as_text(app_page):
    app = app_page
    app.goto("datasets")
    lines = batch_lines(5)
    lines[1]["custom_id"] = "<img src=x onerror=alert(1)>"
    lines[3]["custom_id"] = "<img src=x onerror=alert(1)>"
    _upload(app, "bad.jsonl", jsonl(lines))
    _count(app, 5)
    expect(app.main.get_by_text("OpenAI would reject it: 1 problem", exact=True)).to_be_visible()
    expect(
        app.main.get_by_text(re.compile(r"line 4 \(<img src=x onerror=alert\(1\)>\): its id repeats"))
    ).to_be_visible()
    assert app.page.locator("main img[src=x]").count() == 0
    assert not app.exceptions()


def test_a_training_file_sent_as_a_json_array_is_counted_and_refused(app_page, tmp_path):
    # OpenAI's fine-tuning guide: the training file is JSONL. The array is still counted, with a
    # sentence saying why OpenAI would refuse it.
    import json

    from tests.datasets.samples import finetune_lines

    app = app_page
    app.goto("datasets")
    _upload(app, "train.json", json.dumps(finetune_lines(12)).encode())
    _count(app, 12)
    expect(app.main.get_by_text("OpenAI would reject it: 1 problem", exact=True)).to_be_visible()
    expect(
        app.main.get_by_text(re.compile(r"The file is a JSON array; OpenAI takes JSON lines"))
    ).to_be_visible()
    app.page.set_viewport_size({"width": 1400, "height": 1400})
    app.page.screenshot(path=str(tmp_path / "json-array-training.png"), full_page=True)
    assert not app.exceptions()
