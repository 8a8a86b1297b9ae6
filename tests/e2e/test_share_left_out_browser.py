"""A share link that could not carry the text says so to the person who opens it, at the top of
the page, in a real Chromium (before, only the sender's collapsed share section said so)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import AppPage
from tokenizer_core.workspace.share import MAX_SHARED_TEXT_BYTES

pytestmark = pytest.mark.e2e


def test_the_receiver_of_a_link_without_the_text_is_told_at_the_top(app_page, browser):
    app_page.goto()
    area = app_page.main.locator("textarea.tw-live-box")
    area.fill("Where is my order? " * (MAX_SHARED_TEXT_BYTES // 19 + 5))  # over the link's 4,000 bytes
    app_page.run(lambda: area.press("Control+Enter"))
    url = app_page.page.url
    assert "cut=z" in url and "z=" not in url.replace("cut=z", "")

    other = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        fresh = AppPage(other.new_page(), app_page.base_url)
        fresh.run(lambda: fresh.page.goto(url))
        note = fresh.main.get_by_text("This link leaves out the text")
        expect(note).to_be_visible()  # without opening anything
        box = fresh.main.locator("textarea.tw-live-box")
        expect(box).to_be_visible()
        assert note.bounding_box()["y"] < box.bounding_box()["y"]  # above the prompt, under the title
        assert fresh.exceptions() == []
    finally:
        other.close()
