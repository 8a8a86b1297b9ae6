"""A deep link as a fresh server's first request gets the whole app: its navigation and shared
sidebar. (Each page opening by its own URL: test_every_page_browser.py.)"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import AppPage, streamlit_server

pytestmark = pytest.mark.e2e

TITLES = [
    "Prompt workspace",
    "Datasets",
    "BPE playground",
    "Inside a tokenizer",
    "Language costs",
    "Code identifiers",
    "Chunk previewer",
]


def test_a_deep_link_as_the_first_request_gets_the_whole_app(browser):
    """Regression: with a folder named `pages/`, a fresh server's first request to /bpe ran the
    page in Streamlit's legacy mode (file-name navigation, no shared sidebar) for everyone."""
    with streamlit_server() as url:
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        try:
            app = AppPage(context.new_page(), url)
            app.goto("bpe")
            assert app.exceptions() == []
            nav = app.page.get_by_test_id("stSidebarNav")
            for title in TITLES:
                expect(nav.get_by_text(title, exact=True)).to_be_visible()
            expect(app.page.get_by_test_id("stSidebar").get_by_text("Your own tokenizers")).to_be_visible()
            expect(app.main.get_by_role("heading", name="BPE playground")).to_be_visible()
        finally:
            context.close()
