"""The Datasets page in Chromium: a Batch JSONL and a repository zip uploaded, counted and
downloaded (the per-row CSV read back), and a larger count cancelled while its progress shows."""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile

import pytest
from playwright.sync_api import expect

from tests.datasets.samples import REPO_FILES, batch_lines, jsonl, repo_zip
from tests.e2e.conftest import AppPage, streamlit_server
from tokenizer_core.catalog.entries import DEFAULT_CHOICES
from tokenizer_core.datasets import count_dataset
from tokenizer_core.tokenizers.csvcells import from_spreadsheet_safe

pytestmark = pytest.mark.e2e


def _upload(app, name: str, data: bytes, mime: str = "application/octet-stream") -> None:
    uploader = app.main.get_by_test_id("stFileUploaderDropzoneInput").first
    app.run(lambda: uploader.set_input_files(files=[{"name": name, "mimeType": mime, "buffer": data}]))


def _count(app) -> None:
    app.run(lambda: app.main.get_by_role("button", name="Count the set").click())


def test_a_batch_file_is_counted_and_its_csv_downloaded(app_page, tmp_path):
    app = app_page
    app.goto("datasets")
    data = jsonl(batch_lines(12))
    _upload(app, "batch.jsonl", data, "application/json")
    expect(app.main.get_by_text("detected: OpenAI Batch requests")).to_be_visible()
    _count(app)
    expect(app.main.get_by_role("heading", name=re.compile("12 rows counted"))).to_be_visible(timeout=60_000)
    assert not app.exceptions()

    # the models in the file (preselected) and the picker's defaults (what ifs)
    expected = count_dataset(data, ["gpt-4o-mini", *DEFAULT_CHOICES], name="batch.jsonl", engine="local")
    with app.page.expect_download() as dl:
        app.main.get_by_role("button", name="Per-row counts (CSV)").click()
    saved = tmp_path / "rows.csv"
    dl.value.save_as(saved)
    rows = list(csv.DictReader(io.StringIO(saved.read_text(encoding="utf-8"))))
    assert len(rows) == 12 * len(expected.models)
    for m in expected.models:
        mine = [r for r in rows if r["model"] == m.id]
        assert sum(int(r["tokens"]) for r in mine) == m.total
        assert {from_spreadsheet_safe(r["id"]) for r in mine} == {f"request-{i}" for i in range(1, 13)}
    expect(app.main.get_by_role("button", name="Per-row counts (Parquet)")).to_be_visible()
    expect(app.main.get_by_role("button", name="Summary (CSV)")).to_be_visible()


def test_a_repository_zip_shows_its_tree_and_what_was_skipped(app_page):
    app = app_page
    app.goto("datasets")
    _upload(app, "proj.zip", repo_zip(), "application/zip")
    expect(app.main.get_by_text("detected: Repository archive")).to_be_visible()
    _count(app)
    plan = count_dataset(repo_zip(), ["gpt-4o"], name="proj.zip", engine="local")
    expect(app.main.get_by_role("heading", name=re.compile(f"{plan.rows} files counted"))).to_be_visible(
        timeout=60_000
    )
    expect(app.main.get_by_text(re.compile("files skipped, and why"))).to_be_visible()
    expect(app.main.get_by_text("Top files")).to_be_visible()
    assert app.main.get_by_test_id("stVegaLiteChart").count() >= 2  # the histogram and the tree
    assert not app.exceptions()


def test_a_dropped_folder_is_counted_as_the_same_repository(app_page, tmp_path):
    """A folder's files (with their paths) are packed as a zip: the same files as the zip of it."""
    app = app_page
    app.goto("datasets")
    for name, text in REPO_FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    app.run(lambda: app.main.get_by_text("A folder", exact=True).click())
    uploader = app.main.get_by_test_id("stFileUploaderDropzoneInput").first
    app.run(lambda: uploader.set_input_files(str(tmp_path / "proj")))
    expect(app.main.get_by_text(re.compile("proj.zip · 13 files of the folder"))).to_be_visible()
    _count(app)
    files = count_dataset(repo_zip(binary={}), ["gpt-4o"], name="proj.zip", engine="local")
    heading = app.main.get_by_role("heading", name=re.compile(f"^{files.rows} files counted"))
    expect(heading).to_be_visible(timeout=60_000)
    assert not app.exceptions()


def test_a_larger_count_shows_progress_and_can_be_cancelled(app_page):
    """Over 8 MB: counted in the counting worker processes, long enough to cancel."""
    app = app_page
    app.goto("datasets")
    data = jsonl(batch_lines(30_000))
    assert len(data) > 8_000_000
    _upload(app, "big.jsonl", data, "application/json")
    app.main.get_by_role("button", name="Count the set").click()
    cancel = app.main.get_by_role("button", name="Cancel")
    expect(cancel).to_be_visible(timeout=30_000)
    expect(app.main.get_by_test_id("stProgress")).to_be_visible()
    cancel.click()
    expect(app.main.get_by_text("Cancelled. Count the set again to start over.")).to_be_visible(
        timeout=60_000
    )
    expect(app.main.get_by_role("button", name="Count the set")).to_be_enabled()
    assert not app.exceptions()


def test_a_batch_file_over_60_mb_is_taken(app_page, tmp_path):
    """The server's upload limit was 60 MB and refused such a file with "AxiosError: Request
    failed with status code 413"; OpenAI takes Batch files of up to 200 MB."""
    app = app_page
    app.goto("datasets")
    path = tmp_path / "big-batch.jsonl"
    rows = batch_lines(12)
    with open(path, "wb") as f:
        for i in range(210_000):
            row = {**rows[i % 12], "custom_id": f"request-{i + 1}"}
            f.write(json.dumps(row).encode() + b"\n")
    assert path.stat().st_size > 64 * 1024 * 1024  # over 60 MB as Streamlit measures (MiB) too
    uploader = app.main.get_by_test_id("stFileUploaderDropzoneInput").first
    app.run(lambda: uploader.set_input_files(str(path)), timeout_s=180)
    expect(app.main.get_by_text("detected: OpenAI Batch requests")).to_be_visible(timeout=60_000)
    assert "AxiosError" not in app.page.content() and not app.exceptions()


def test_a_file_over_a_limit_gets_a_sentence_never_axios_error(browser, monkeypatch):
    """A server whose own limit (1 MB here) is below a file box's (datasets 200, tokenizer files
    60): each box is cut to the server's, so the browser refuses the file with Streamlit's
    sentence before sending it, instead of the server's bare 413."""
    monkeypatch.setenv("STREAMLIT_SERVER_MAX_UPLOAD_SIZE", "1")
    data = jsonl(batch_lines(12)) * 400
    assert len(data) > 2 * 1024 * 1024
    with streamlit_server() as url:
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        try:
            app = AppPage(context.new_page(), url)
            app.goto("datasets")
            dataset_box = app.main.get_by_test_id("stFileUploaderDropzoneInput").first
            dataset_box.set_input_files(files=[{"name": "batch.jsonl", "mimeType": "application/json",
                                                "buffer": data}])  # fmt: skip
            expect(app.main.get_by_text("File must be 1.0MB or smaller.")).to_be_visible()
            # the sidebar's tokenizer file box (its own limit is 60 MB)
            app.page.get_by_text("Your own tokenizers").first.click()
            tokenizer_box = app.page.get_by_test_id("stSidebar").get_by_test_id("stFileUploaderDropzoneInput")
            tokenizer_box.set_input_files(files=[{"name": "big.tiktoken", "mimeType": "text/plain",
                                                  "buffer": b"aGVsbG8= 0\n" * 300_000}])  # fmt: skip
            expect(
                app.page.get_by_test_id("stSidebar").get_by_text("File must be 1.0MB or smaller.")
            ).to_be_visible()
            app.page.wait_for_timeout(500)
            assert "AxiosError" not in app.page.content() and "413" not in app.page.inner_text("body")
            assert not app.exceptions()
        finally:
            context.close()


def test_file_names_show_plainly_and_hidden_characters_written_out(app_page):
    """No Markdown escapes shown in a name ("setup\\.py"), and a right-to-left override in a
    name is written out, where a browser would show "invoice\u202etxt.py" as "invoiceyp.txt"."""
    app = app_page
    app.goto("datasets")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("repo/setup.py", "print(1)\n")
        z.writestr("repo/invoice\u202etxt.py", "print(2)\n")
    _upload(app, "repo.zip", buf.getvalue(), "application/zip")
    app.main.get_by_text("A sample of the set").click()  # an expander: no rerun
    first = app.main.get_by_text(re.compile("^First files:"))
    expect(first).to_be_visible()
    shown = first.inner_text()
    assert "setup.py" in shown and "invoice\\u202etxt.py" in shown
    assert "\\." not in shown and "\u202e" not in shown
