"""What a new user meets on each page, checked where only a browser can see it (issue 15)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import AppPage, streamlit_server
from tokenizer_core import EMBEDDING_MODELS

pytestmark = pytest.mark.e2e


def _pick(app: AppPage, label: str, option: str) -> None:
    """Choose `option` in the main area's selectbox labelled `label`."""
    app.main.get_by_test_id("stSelectbox").filter(has_text=label).first.click()
    app.run(lambda: app.page.get_by_role("option", name=option).first.click())


def test_picking_an_embedding_model_logs_no_streamlit_warning(browser):
    """Streamlit logs a "default value but also set via the Session State API" warning once per
    server process, so this test has a server of its own: leaving `streamlit_server` fails on
    any traceback or stacked warning in its log."""
    model = next(m for m in EMBEDDING_MODELS if m.limit == 512)
    with streamlit_server() as url:
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        try:
            app = AppPage(context.new_page(), url)
            app.goto("chunks")
            _pick(app, "Embedding model", f"{model.name} ({model.limit:,})")
            size = app.main.get_by_test_id("stNumberInput").filter(has_text="Chunk size").locator("input")
            expect(size).to_have_value("512")
            assert app.exceptions() == []
        finally:
            context.close()
