"""Llama 4, Gemma 3 (and Gemini by Google's rule) and the classic Mistral models in a real
Chromium: counts by model name, Gemma's HTML-tag tokens drawn as text, the chat request table."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.conftest import builtin
from tests.e2e.conftest import COUNT, COUNT_VALUE
from tokenizer_core.workspace import pack_text
from tokenizer_core.workspace.chat import CHAT_FORMATS, Message, count_request

pytestmark = pytest.mark.e2e

TEXT = "Hi <b>bold</b> <img src=x onerror=alert(1)> <start_of_turn> 你好"
MODELS = "gemini-2.5-flash,llama-4-scout,mixtral-8x7b,mistral-large-2411"


def _metric(app, label: str) -> str:
    metric = app.page.locator(COUNT).filter(has_text=label).first
    return metric.locator(COUNT_VALUE).inner_text().strip()


def test_counter_with_the_new_families(app_page):
    app_page.goto("", f"tok={MODELS}&z={pack_text(TEXT)}")
    assert not app_page.exceptions()
    for tid in ("gemma3", "llama4", "mistral_sp_v1", "mistral_sp_v7"):
        assert _metric(app_page, builtin(tid).info.name) == f"{builtin(tid).count(TEXT):,}"
    expect(app_page.main).to_contain_text("text only, counted as Google's SDK counts locally")
    views = app_page.page.locator(".tw-tokens")
    expect(views.first).to_contain_text("<b>")  # Gemma's one-token HTML tag, drawn as text
    assert app_page.page.locator(".tw-tokens img, .tw-tokens b").count() == 0
    # the same models in chat mode: one row per format, with the core's totals
    query = f"tok={MODELS}&chat=1&z={pack_text(TEXT)}&zs={pack_text('Be brief.')}"
    app_page.goto("", query)
    grid = app_page.main.get_by_test_id("stDataFrame").filter(has_text="Mistral instruct v7")
    expect(grid).to_be_visible()
    chat = [Message("system", "Be brief."), Message("user", TEXT)]
    for tid in ("llama4", "mistral_sp_v7"):
        total = count_request(chat, builtin(tid), CHAT_FORMATS[tid]).total
        expect(grid).to_contain_text(str(total))
    assert app_page.dialogs == []
