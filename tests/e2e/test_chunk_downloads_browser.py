"""Chunk downloads clicked in quick succession all arrive, each with its own content (a JSONL click
followed 0.6-0.9 s later by a CSV click lost the second file in 3 of 6 tries, and the server
logged "MediaFileStorageError: Deferred file ... not found"; the e2e fixture fails on that line)."""

from __future__ import annotations

import csv
import io
import json
import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.conftest import builtin
from tokenizer_core import chunk_text
from tokenizer_core.chunking import chunks_to_csv, chunks_to_jsonl, load_chunk_sample
from tokenizer_core.tokenizers.csvcells import from_spreadsheet_safe

pytestmark = pytest.mark.e2e

TRIES = 6


def test_downloads_clicked_fast_all_arrive_with_the_right_content(app_page):
    app = app_page
    app.goto("chunks")
    assert not app.exceptions()
    text = load_chunk_sample("markdown")
    result = chunk_text(text, builtin("cl100k_base"), strategy="markdown", size=128)
    want = {
        "jsonl": chunks_to_jsonl(result.chunks, tokenizer_id=result.tokenizer_id, strategy=result.strategy),
        "csv": chunks_to_csv(result.chunks),
    }
    # the files themselves say the same thing: every chunk is text[start:end] of the document
    # (a text cell a spreadsheet would read as a formula, such as "- Start ...", has a quote in front)
    rows = [
        {**row, "text": from_spreadsheet_safe(row["text"])}
        for row in csv.DictReader(io.StringIO(want["csv"]))
    ]
    assert any(row["text"].startswith("-") for row in rows)
    assert [json.loads(line)["text"] for line in want["jsonl"].splitlines()] == [r["text"] for r in rows]
    assert all(text[int(r["start"]) : int(r["end"])] == r["text"] for r in rows)

    arrived: list = []
    app.page.on("download", lambda d: arrived.append(d))
    jsonl = app.main.get_by_role("button", name="Download JSONL")
    csv_button = app.main.get_by_role("button", name="Download CSV")
    stuck: list[str] = []  # a button that stays disabled (its download never finished)

    def click(button, name: str) -> None:
        try:
            button.click(timeout=5_000)
        except PlaywrightTimeout:
            stuck.append(name)

    for i in range(TRIES):
        click(jsonl, "JSONL")
        app.page.wait_for_timeout(600 + 60 * i)  # 0.6 to 0.9 s, as the user did
        click(csv_button, "CSV")
        app.page.wait_for_timeout(300)
    assert not stuck, f"buttons that could not be clicked again: {stuck}"
    deadline = time.monotonic() + 30
    while len(arrived) < 2 * TRIES and time.monotonic() < deadline:
        app.page.wait_for_timeout(100)
    names = [d.suggested_filename for d in arrived]
    assert len(arrived) == 2 * TRIES, f"{len(arrived)} of {2 * TRIES} files arrived: {names}"
    for d in arrived:
        kind = d.suggested_filename.rsplit(".", 1)[-1]
        assert d.failure() is None, d.failure()
        with open(d.path(), encoding="utf-8", newline="") as f:
            assert f.read() == want[kind], d.suggested_filename
    assert sorted(names) == sorted([f"chunks_markdown_cl100k_base_128.{k}" for k in ("jsonl", "csv")] * TRIES)
    assert not app.exceptions()
