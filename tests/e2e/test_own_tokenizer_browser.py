"""A `.tiktoken` upload in a real Chromium: a known vocabulary gets its own pattern, and says so."""

from __future__ import annotations

import base64
import re

from playwright.sync_api import expect

from tests.e2e.conftest import COUNT, COUNT_LABEL, COUNT_VALUE
from tests.e2e.settings_driver import choose
from tokenizer_core import load_builtin, tokenizer_from_tiktoken_bytes
from tokenizer_core.tokenizers import registry


def _open_panel(app_page):
    app_page.goto()
    sidebar = app_page.page.get_by_test_id("stSidebar")
    sidebar.get_by_text("Your own tokenizers").click()  # expanding does not rerun
    return sidebar


def _upload(app_page, sidebar, path) -> None:
    uploader = sidebar.get_by_test_id("stFileUploaderDropzoneInput")
    app_page.run(lambda: uploader.set_input_files(str(path)))


def _pattern_box(sidebar):
    return sidebar.get_by_role("combobox", name="Pre-tokenization pattern")


def test_gpt2s_own_file_gets_gpt2s_pattern_and_counts_as_gpt2(app_page):
    sidebar = _open_panel(app_page)
    _upload(app_page, sidebar, registry.DATA_DIR / "r50k_base.tiktoken")
    expect(sidebar.get_by_test_id("stAlertContentInfo")).to_contain_text(
        "This file is the r50k_base (gpt2) vocabulary, so its own pattern is selected below"
    )
    expect(_pattern_box(sidebar)).to_have_value("r50k_base / p50k_base (GPT-2, GPT-3, Codex)")
    app_page.run(lambda: sidebar.get_by_role("button", name="Add tokenizer").click())
    expect(sidebar.get_by_text(re.compile(r"Added r50k_base\.tiktoken .*pattern r50k_base"))).to_be_visible()
    combo = app_page.main.get_by_role("combobox", name="Models and tokenizers")
    combo.click()
    app_page.page.keyboard.type("yours")
    app_page.run(
        lambda: app_page.main.get_by_role("option", name=re.compile("r50k_base.tiktoken.*yours")).click()
    )
    app_page.page.keyboard.press("Escape")
    text = app_page.main.locator("textarea.tw-live-box").input_value()
    metric = app_page.main.locator(COUNT).filter(has_text="r50k_base.tiktoken").first
    expect(metric.locator(COUNT_VALUE)).to_have_text(f"{load_builtin('r50k_base').count(text):,}")
    assert not app_page.exceptions()


def test_another_pattern_for_a_known_file_is_warned_and_an_unknown_file_told(app_page, tmp_path):
    sidebar = _open_panel(app_page)
    _upload(app_page, sidebar, registry.DATA_DIR / "r50k_base.tiktoken")
    # waits for the option to be listed (it is re-drawn as the list opens) before clicking it
    choose(app_page, "custom_tok_pattern", "o200k_base (GPT-4o, GPT-4.1, o-series, GPT-5)")
    expect(_pattern_box(sidebar)).to_have_value("o200k_base (GPT-4o, GPT-4.1, o-series, GPT-5)")
    expect(sidebar.get_by_test_id("stAlertContentWarning")).to_contain_text("counts will differ from its own")
    tiny = tmp_path / "tiny.tiktoken"
    tiny.write_bytes(b"".join(base64.b64encode(bytes([i])) + b" %d\n" % i for i in range(256)))
    tokenizer_from_tiktoken_bytes(tiny.read_bytes(), name="x", pattern_id="o200k")  # a valid vocabulary
    _upload(app_page, sidebar, tiny)
    expect(sidebar.get_by_test_id("stAlertContentWarning")).to_contain_text(
        "This vocabulary is none of the built-in ones. The pattern decides the counts"
    )
    expect(sidebar.get_by_test_id("stAlertContentInfo")).to_have_count(0)
    assert not app_page.exceptions()


HOSTILE_NAME = '<img src=x onerror="window.__twPwned=1"> **bold** $x^2$ :smile: [x](https://evil.example)'


def test_a_hostile_name_is_shown_as_typed_on_the_count_card(app_page):
    sidebar = _open_panel(app_page)
    _upload(app_page, sidebar, registry.DATA_DIR / "r50k_base.tiktoken")
    name = sidebar.get_by_label("Name", exact=True)
    name.fill(HOSTILE_NAME)
    app_page.run(lambda: name.press("Enter"))
    app_page.run(lambda: sidebar.get_by_role("button", name="Add tokenizer").click())
    combo = app_page.main.get_by_role("combobox", name="Models and tokenizers")
    combo.click()
    app_page.page.keyboard.type("yours")
    app_page.run(lambda: app_page.main.get_by_role("option", name=re.compile(r"img src=x.*yours")).click())
    app_page.page.keyboard.press("Escape")
    card = app_page.main.locator(COUNT).filter(has_text="onerror").first
    expect(card).to_be_visible()
    assert card.locator(COUNT_LABEL).first.inner_text().replace("\u2060", "").strip() == HOSTILE_NAME
    text = app_page.main.locator("textarea.tw-live-box").input_value()
    expect(card.locator(COUNT_VALUE)).to_have_text(f"{load_builtin('r50k_base').count(text):,}")
    main = app_page.main
    assert main.locator("img[src=x], a[href*='evil'], .katex").count() == 0
    assert main.locator(".st-key-workspace_counts :is(strong, em, a[href*=evil])").count() == 0
    assert app_page.page.evaluate("() => window.__twPwned") is None
    assert not app_page.exceptions()


def test_a_python_file_is_told_what_a_vocabulary_file_is(app_page, tmp_path):
    # issue #31: the browser said "application/octet-stream files are not allowed"
    sidebar = _open_panel(app_page)
    script = tmp_path / "x.py"
    script.write_text("print('hello')\n")
    _upload(app_page, sidebar, script)
    expect(sidebar.get_by_test_id("stAlertContentError")).to_contain_text(
        "A .tiktoken vocabulary is a .tiktoken or .txt file; x.py is not one."
    )
    expect(sidebar.get_by_text("files are not allowed")).to_have_count(0)
    assert not app_page.exceptions()
