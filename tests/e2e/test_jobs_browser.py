"""A long BPE training in a real Chromium: progress bar and Cancel, drawn and working."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect

from bench.corpus import english_prose

pytestmark = pytest.mark.e2e


def test_long_training_shows_progress_and_cancel_stops_it(app_page):
    app = app_page
    app.goto("bpe")
    corpus = english_prose(420_000)[:400_000].encode("utf-8")  # far over the in-process limit
    uploader = app.main.get_by_test_id("stFileUploader").first
    app.run(lambda: uploader.locator("input[type=file]").set_input_files(
        files=[{"name": "corpus.txt", "mimeType": "text/plain", "buffer": corpus}]))  # fmt: skip
    merges = app.main.get_by_role("spinbutton", name="Number of merges")
    app.run(lambda: (merges.fill("10000"), merges.press("Enter")))
    app.main.get_by_role("button", name="Train", exact=True).click()
    cancel = app.main.get_by_role("button", name="Cancel")
    expect(cancel).to_be_visible(timeout=60_000)
    expect(app.main.get_by_test_id("stProgress")).to_be_visible()
    if os.environ.get("TW_SHOTS"):
        app.page.screenshot(path=os.path.join(os.environ["TW_SHOTS"], "bpe-training.png"))
    app.run(lambda: cancel.click())
    expect(app.main.get_by_text("Training cancelled.")).to_be_visible()
    expect(app.main.get_by_role("button", name="Cancel")).to_have_count(0)
    assert not app.exceptions()
