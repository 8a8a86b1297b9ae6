"""The chunk previewer in a real Chromium: size changes, escaping, hover text, a 1 MB document."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from playwright.sync_api import expect

from tests.conftest import builtin
from tests.e2e.conftest import frozen, pool_workers
from tokenizer_core import chunk_text
from tokenizer_core.chunking import load_chunk_sample

pytestmark = pytest.mark.e2e


def _metric(app, label: str) -> str:
    metric = app.page.get_by_test_id("stMetric").filter(has_text=label).first
    return metric.get_by_test_id("stMetricValue").inner_text().strip()


def _set_number(app, label: str, value: int) -> None:
    box = app.main.get_by_test_id("stNumberInput").filter(has_text=label).locator("input").first
    box.fill(str(value))
    app.run(lambda: box.press("Enter"))


def _type_text(app, text: str) -> None:
    area = app.main.get_by_test_id("stTextArea").locator("textarea").first
    area.fill(text)
    app.run(lambda: area.press("Control+Enter"))


def test_changing_the_chunk_size_changes_the_number_of_chunks(app_page):
    app_page.goto("chunks")
    assert not app_page.exceptions()
    text = load_chunk_sample("markdown")
    tok = builtin("cl100k_base")
    for size in (48, 400, 128):
        _set_number(app_page, "Chunk size", size)
        expected = len(chunk_text(text, tok, strategy="markdown", size=size).chunks)
        assert _metric(app_page, "Chunks") == f"{expected:,}"
    assert not app_page.exceptions()


def test_hover_text_names_the_chunk_tokens_and_offsets(app_page):
    app_page.goto("chunks")
    text = load_chunk_sample("markdown")
    first = chunk_text(text, builtin("cl100k_base"), strategy="markdown", size=128).chunks[0]
    span = app_page.page.locator(".tw-chunks span[title^='chunk 0 |']").nth(1)
    expect(span).to_be_visible()
    assert span.get_attribute("title").startswith(
        f"chunk 0 | {first.tokens:,} tokens | chars 0–{first.end:,}"
    )


def test_html_in_the_document_is_shown_as_text_and_never_runs(app_page):
    app_page.goto("chunks")
    payload = '<img src=x onerror=alert(1)> <script>alert("x")</script>'
    _type_text(app_page, f"before {payload} after")
    view = app_page.page.locator(".tw-chunks").first
    expect(view).to_be_visible()
    shown = view.inner_text().replace("\n", "")
    assert "<img src=x onerror=alert(1)>" in shown and '<script>alert("x")</script>' in shown
    assert app_page.page.locator(".tw-chunks img, .tw-chunks script").count() == 0
    app_page.page.wait_for_timeout(300)
    assert app_page.dialogs == []


def test_a_one_megabyte_document_renders_a_window_of_chunks(app_page):
    app_page.goto("chunks")
    select = app_page.main.get_by_test_id("stSelectbox").filter(has_text="Sample").first
    select.click()
    option = app_page.page.get_by_role("option", name="Long document (about 1 MB of Markdown)")
    app_page.run(lambda: option.click())
    app_page.run(lambda: app_page.main.get_by_role("button", name="Load sample").click(), timeout_s=120)
    expect(app_page.page.get_by_text("Showing chunks 0–", exact=False)).to_be_visible(timeout=60_000)
    spans = app_page.page.locator(".tw-chunks span").count()
    assert 0 < spans < 20_000  # a bounded view, not the whole megabyte
    assert int(_metric(app_page, "Chunks").replace(",", "")) > 1_000
    assert not app_page.exceptions()


# True once the bar beside the chunking job's Cancel button shows a stage of chunk_text's own
_CHUNKING_UNDER_WAY = """() => {
  const cancel = document.querySelector(".st-key-chunks_job_cancel");
  const bar = cancel?.closest("[data-testid='stHorizontalBlock']")?.querySelector("[data-testid='stProgress']");
  return /structure|pieces|chunks/.test(bar?.innerText ?? "");
}"""


def test_a_large_document_shows_progress_and_cancel_keeps_it(app_page, server_url, tmp_path):
    """A document over the in-process limit is chunked in a worker process: a progress bar and a
    Cancel button while it runs; after Cancel the text is still there and "Chunking again" works.

    The test holds the pool's workers (SIGSTOP) from the moment the bar shows a stage of the
    chunking until the cancel has ended the job, so the chunking cannot finish between the button
    showing and the click; a worker that does not answer a cancel is killed by the pool after
    five seconds (JobPool's kill_after), so the message comes within seconds, however busy.
    """
    from bench.corpus import english_prose

    app_page.goto("chunks")
    doc = tmp_path / "big.md"
    # Over both in-process limits (ui/jobs.py: counts up to 1,000,000 characters, chunks up to
    # 200,000): the count and then the chunking run in a worker. Chunking it takes seconds, many
    # times what the test takes from seeing the chunking under way to holding the worker.
    text = english_prose(2_100_000)[:2_000_000]
    doc.write_text(text, encoding="utf-8")
    # What the page must show in the end, worked out here meanwhile (the test mostly waits)
    expected = ThreadPoolExecutor(1).submit(
        lambda: len(chunk_text(text, builtin("deepseek_v4"), strategy="markdown", size=128).chunks)
    )
    app_page.main.get_by_test_id("stSelectbox").filter(has_text="Tokenizer").first.click()
    app_page.run(lambda: app_page.page.get_by_role("option", name="DeepSeek V4").first.click())
    uploader = app_page.main.get_by_test_id("stFileUploaderDropzoneInput").first
    uploader.set_input_files(str(doc))  # no wait: the run goes on while the worker chunks
    # The chunking job's own progress bar and Cancel button (its key: chunks_job). Before it, the
    # document's count (over the count's in-process limit too) runs as a job of its own with a
    # bar and a Cancel button (chunks_count) that a slow machine shows long enough to be taken for
    # this one; and while the file uploads, the uploader has a Cancel button of its own.
    cancel = app_page.main.locator(".st-key-chunks_job_cancel").get_by_role("button", name="Cancel")
    expect(cancel).to_be_visible(timeout=120_000)
    # The worker has begun chunking (the bar shows a stage it reported), so it has read the whole
    # document from its pipe: a worker frozen halfway through that read would hold the pool's
    # reader thread, which is also the one that kills a worker that ignores a cancel. Looked for
    # every 50 ms (the bar is drawn again every 0.25 s), far less than the chunking takes.
    app_page.page.wait_for_function(_CHUNKING_UNDER_WAY, polling=50, timeout=120_000)
    workers = pool_workers(server_url)
    assert workers, "the app server has no pool workers"
    with frozen(workers):
        cancel.click()
        expect(app_page.main.get_by_text("Chunking cancelled.", exact=False)).to_be_visible(timeout=60_000)
    app_page.settle()
    assert (
        app_page.main.get_by_test_id("stTextArea")
        .locator("textarea")
        .first.input_value()
        .startswith(text[:200])
    )
    app_page.run(lambda: app_page.main.get_by_role("button", name="Chunking again").click(), timeout_s=180)
    assert _metric(app_page, "Chunks") == f"{expected.result(timeout=300):,}"
    assert not app_page.exceptions()


def test_the_strategy_tip_for_an_uploaded_file_survives_a_visit_to_another_page(app_page, tmp_path):
    """The tip reads the file's name kept for the session, as the identifiers page does: after a
    visit to another page Streamlit's uploader is empty, and the tip for a .py file was gone."""
    app_page.goto("chunks")
    file = tmp_path / "orders.py"
    file.write_text(
        "def total(items):\n    return sum(item.price for item in items)\n" * 20, encoding="utf-8"
    )
    uploader = app_page.main.get_by_test_id("stFileUploaderDropzoneInput").first
    app_page.run(lambda: uploader.set_input_files(str(file)))
    tip = app_page.main.get_by_text(re.compile(r"Tip: the .*Code.* strategy suits this document", re.I))
    expect(tip).to_be_visible()
    for page in ("Code identifiers", "Chunk previewer"):
        link = app_page.page.get_by_test_id("stSidebarNavLink").filter(has_text=page)
        app_page.run(lambda link=link: link.click())
    expect(app_page.main.locator("h1")).to_have_text("Chunk previewer")
    expect(tip).to_be_visible()
    assert not app_page.exceptions()
