"""The token counter in a real Chromium: typing, escaping, upload, share link. The typing and
escaping tests share one page (`home`, conftest.py)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.conftest import builtin
from tests.e2e.conftest import COUNT, COUNT_VALUE, type_text

pytestmark = pytest.mark.e2e


def _metric(app, label: str) -> str:
    metric = app.page.locator(COUNT).filter(has_text=label).first
    return metric.locator(COUNT_VALUE).inner_text().strip()


def test_typing_updates_the_counts(home):
    assert not home.exceptions()
    text = "hello world, counting tokens in a real browser"
    type_text(home, text)
    for tid in ("o200k_base", "cl100k_base"):
        expected = builtin(tid).count(text)
        assert _metric(home, tid) == f"{expected:,}"
    type_text(home, text + " and then some more words to count")
    assert (
        _metric(home, "o200k_base")
        == f"{builtin('o200k_base').count(text + ' and then some more words to count'):,}"
    )
    assert not home.exceptions()


@pytest.mark.parametrize(
    "payload",
    [
        "<img src=x onerror=alert(1)>",
        "<script>alert('xss')</script>",
        '"><svg onload=alert(2)>',
    ],
)
def test_html_in_the_input_is_shown_as_text_and_never_runs(home, payload):
    type_text(home, f"before {payload} after")
    views = home.page.locator(".tw-tokens")
    expect(views.first).to_be_visible()
    # the payload is visible as text in the coloured view ...
    joined = views.first.inner_text().replace("\n", "")
    assert payload.replace(" ", "") in joined.replace(" ", "")
    # ... and nothing was injected or executed
    assert home.page.locator(".tw-tokens img, .tw-tokens script, .tw-tokens svg").count() == 0
    home.page.wait_for_timeout(300)
    assert home.dialogs == []


def test_file_upload_counts_the_file_and_rejects_binary(app_page, tmp_path):
    app_page.goto()
    good = tmp_path / "notes.md"
    good.write_text("# Notes\n\nUploaded text with emoji 🚀 and नमस्ते.\n", encoding="utf-8")
    uploader = app_page.main.get_by_test_id("stFileUploaderDropzoneInput").first
    app_page.run(lambda: uploader.set_input_files(str(good)))
    area = app_page.main.locator("textarea.tw-live-box")
    expect(area).to_have_value(good.read_text(encoding="utf-8"))
    expected = builtin("o200k_base").count(good.read_text(encoding="utf-8"))
    assert _metric(app_page, "o200k_base") == f"{expected:,}"

    bad = tmp_path / "photo.txt"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    app_page.run(lambda: uploader.set_input_files(str(bad)))
    expect(app_page.page.get_by_text(re.compile("looks like a binary file"))).to_be_visible()
    expect(area).to_have_value(good.read_text(encoding="utf-8"))  # nothing lost
    assert not app_page.exceptions()


def test_share_link_round_trip(app_page, browser):
    app_page.goto()
    text = "Shared text 🚀 <b>bold?</b>\nsecond line"
    type_text(app_page, text)
    app_page.run(lambda: app_page.main.get_by_text("Token IDs", exact=True).click())
    url = app_page.page.url
    assert "z=" in url and "view=ids" in url

    other = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        from tests.e2e.conftest import AppPage

        fresh = AppPage(other.new_page(), app_page.base_url)
        fresh.run(lambda: fresh.page.goto(url))
        area = fresh.main.locator("textarea.tw-live-box")
        expect(area).to_have_value(text)
        ids_view = fresh.page.locator(".tw-tokens").first.inner_text()
        first_id = builtin("o200k_base").encode(text)[0]
        assert str(first_id) in ids_view
        assert fresh.exceptions() == []
    finally:
        other.close()


def test_own_tokenizer_upload_appears_in_the_lists(app_page):
    from tokenizer_core import tokenizer_from_tiktoken_bytes
    from tokenizer_core.tokenizers import registry

    app_page.goto()
    sidebar = app_page.page.get_by_test_id("stSidebar")
    sidebar.get_by_text("Your own tokenizers").click()  # expanding does not rerun
    vocab_file = registry.DATA_DIR / "r50k_base.tiktoken"
    uploader = sidebar.get_by_test_id("stFileUploaderDropzoneInput")
    app_page.run(lambda: uploader.set_input_files(str(vocab_file)))
    name = sidebar.get_by_test_id("stTextInput").locator("input")
    name.fill("<b>my</b> gpt2")
    app_page.run(lambda: name.press("Enter"))
    app_page.run(lambda: sidebar.get_by_role("button", name="Add tokenizer").click())
    expect(sidebar.get_by_text(re.compile(r"Added .*my.* gpt2"))).to_be_visible()
    # choose it in the main tokenizer list and read its count
    combo = app_page.main.get_by_role("combobox", name="Models and tokenizers")
    combo.click()
    app_page.page.keyboard.type("my gpt2")  # the list is long (models and tokenizers): search it
    expect(app_page.main.get_by_role("option").first).to_contain_text("(yours)")
    app_page.run(lambda: app_page.page.keyboard.press("Enter"))
    label = "<b>my</b> gpt2"
    text = app_page.main.locator("textarea.tw-live-box").input_value()
    # the file is GPT-2's own, so GPT-2's pattern is preselected: the same file and pattern
    # built directly give the count
    expected = tokenizer_from_tiktoken_bytes(vocab_file.read_bytes(), name="x", pattern_id="r50k").count(text)
    assert _metric(app_page, label) == f"{expected:,}"
    assert app_page.page.locator("b", has_text="my").count() == 0  # the name is never markup
    assert not app_page.exceptions()


def test_chat_request_table_and_its_tokens(app_page):
    app_page.goto()
    app_page.run(lambda: app_page.main.get_by_text("Chat request", exact=True).click())
    table = app_page.main.get_by_test_id("stDataFrame").filter(has_text="Request tokens")
    expect(table).to_be_visible()
    boxes = app_page.main.locator("textarea.tw-live-box")
    expect(boxes).to_have_count(2)  # the default chat: a system and a user message
    boxes.first.fill("<img src=x onerror=alert(1)> Be brief.")
    app_page.run(lambda: boxes.first.press("Control+Enter"))
    view = app_page.page.locator(".tw-tokens").last
    expect(view).to_contain_text("Be brief")
    expect(view).to_contain_text("<|start_header_id|>")
    assert app_page.page.locator("img[src='x']").count() == 0 and app_page.dialogs == []
    assert "mode=chat" in app_page.page.url and "zm=" in app_page.page.url
    assert not app_page.exceptions()
