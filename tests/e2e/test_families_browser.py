"""gpt-oss (o200k_harmony) and DeepSeek V4 in a real Chromium: counter with chat formats, languages."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.conftest import builtin
from tests.e2e.conftest import COUNT, COUNT_VALUE
from tests.helpers.chat import count_chat
from tokenizer_core.workspace import pack_text

pytestmark = pytest.mark.e2e

TEXT = "Hi <think>plan</think> <img src=x onerror=alert(1)> 你好"


def _metric(app, label: str) -> str:
    metric = app.page.locator(COUNT).filter(has_text=label).first
    return metric.locator(COUNT_VALUE).inner_text().strip()


def test_counter_with_the_new_families_and_their_chat_formats(app_page):
    app_page.goto("", f"tok=o200k_harmony,deepseek_v4&z={pack_text(TEXT)}")
    assert not app_page.exceptions()
    assert _metric(app_page, "o200k_harmony (gpt-oss)") == f"{builtin('o200k_harmony').count(TEXT):,}"
    assert _metric(app_page, "DeepSeek V4") == f"{builtin('deepseek_v4').count(TEXT):,}"
    # DeepSeek matches <think> as its control token in any text; it is drawn as text, escaped
    views = app_page.page.locator(".tw-tokens")
    expect(views.nth(1)).to_contain_text("<think>")
    assert app_page.page.locator(".tw-tokens img").count() == 0
    # an older chat link opens as a chat: harmony and both DeepSeek modes, with the real totals
    query = f"tok=o200k_harmony,deepseek_v4&chat=1&z={pack_text(TEXT)}&zs={pack_text('Be brief.')}"
    app_page.goto("", query)
    grid = app_page.main.get_by_test_id("stDataFrame").filter(has_text="DeepSeek V4 (thinking)")
    expect(grid).to_be_visible()
    total = count_chat(builtin("o200k_harmony"), TEXT, "Be brief.", format_id="harmony").total
    expect(grid).to_contain_text(str(total))
    assert app_page.dialogs == []


def test_languages_page_shows_deepseek_premium(app_page):
    app_page.goto("languages")
    box = app_page.main.get_by_test_id("stMultiSelect").filter(has_text="Tokenizers").first
    box.locator("input").click()
    app_page.page.keyboard.type("DeepSeek V4")
    app_page.run(lambda: app_page.page.keyboard.press("Enter"))
    assert not app_page.exceptions()
    assert _metric(app_page, "DeepSeek V4").endswith("×")
