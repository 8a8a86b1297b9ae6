"""The model picker in a real Chromium: a labelled combobox; Enter adds the best match only; exact
and prefix matches first; Claude, unknown names and models already chosen are explained in place."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.conftest import builtin
from tests.e2e.conftest import COUNT

pytestmark = pytest.mark.e2e


def _combo(app, name: str = "Models and tokenizers"):
    return app.main.get_by_role("combobox", name=name)


def _chips(app) -> list[str]:
    return [t.replace("×", "").strip() for t in app.main.locator(".tw-pick-chip").all_inner_texts()]


def _options(app) -> list[str]:
    return [t.split("\n")[0] for t in app.main.get_by_role("option").all_inner_texts()]


def _search(app, text: str) -> None:
    combo = _combo(app)
    combo.click()
    combo.fill("")
    app.page.keyboard.type(text)


def test_enter_adds_the_best_match_only(app_page):
    app_page.goto("", "tok=r50k_base")
    assert _chips(app_page) == ["r50k_base (gpt2)"]
    _search(app_page, "gpt-5")
    expect(_combo(app_page)).to_have_attribute("aria-expanded", "true")
    options = _options(app_page)
    assert options[0] == "GPT-5"  # the exact name first
    assert all(o.startswith("GPT-5") for o in options[:8]) and "GPT-2" not in options
    app_page.run(lambda: app_page.page.keyboard.press("Enter"))
    assert _chips(app_page) == ["r50k_base (gpt2)", "GPT-5"]  # one model added, not every match
    expect(app_page.page.locator(COUNT).filter(has_text="o200k_base")).to_be_visible()
    expect(_combo(app_page)).to_have_value("")
    assert not app_page.exceptions()


def test_prefix_matches_come_first_and_the_arrow_keys_choose(app_page):
    app_page.goto("", "tok=r50k_base")
    _search(app_page, "4o")
    assert _options(app_page)[:2] == ["GPT-4o", "GPT-4o mini"]
    assert not any("DeepSeek" in o for o in _options(app_page)[:2])
    combo = _combo(app_page)
    app_page.page.keyboard.press("ArrowDown")
    active = combo.get_attribute("aria-activedescendant")
    expect(app_page.main.locator(f"[id='{active}']")).to_contain_text("GPT-4o mini")
    app_page.run(lambda: app_page.page.keyboard.press("Enter"))
    assert _chips(app_page) == ["r50k_base (gpt2)", "GPT-4o mini"]
    _search(app_page, "llama 3.1 70b")
    assert _options(app_page)[0] == "Llama 3.1 70B"


def test_claude_and_a_model_already_chosen_are_explained_in_place(app_page):
    app_page.goto("", "tok=llama-3.1-8b")
    _search(app_page, "claude")
    note = app_page.main.locator(".tw-pick-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text("Claude: no public tokenizer; Anthropic's API counts tokens")
    assert _options(app_page)[0].startswith("Claude ")  # its prices can be costed with an entered count
    _search(app_page, "llama 3.1 8b")
    expect(app_page.main.get_by_role("option").first).to_contain_text("Llama 3.1 8B (chosen)")
    expect(app_page.main.get_by_role("option").first).to_have_attribute("aria-disabled", "true")
    app_page.page.keyboard.press("Enter")  # nothing to add: it says so, and adds nothing
    expect(app_page.main.locator(".tw-pick-status")).to_have_text("Llama 3.1 8B is already chosen.")
    assert _chips(app_page) == ["Llama 3.1 8B"]
    _search(app_page, "zzzz-no-such-model")
    expect(
        app_page.main.get_by_text('No model or tokenizer matches "zzzz-no-such-model".').first
    ).to_be_visible()
    app_page.page.keyboard.press("Enter")
    assert _chips(app_page) == ["Llama 3.1 8B"]
    assert not app_page.exceptions()


def test_a_claude_model_costs_the_count_the_user_enters(app_page):
    app_page.goto("", "tok=gpt-4o")
    _search(app_page, "claude sonnet 4.5")
    app_page.run(lambda: app_page.page.keyboard.press("Enter"))
    assert _chips(app_page) == ["GPT-4o", "Claude Sonnet 4.5"]
    assert app_page.page.locator(COUNT).filter(has_text="Claude").count() == 0  # no count of ours
    box = app_page.main.get_by_role("spinbutton", name="Claude Sonnet 4.5: input tokens (entered by you)")
    box.fill("250000")
    app_page.run(lambda: box.press("Enter"))
    table = app_page.main.get_by_test_id("stDataFrame").filter(has_text="Per request $")
    expect(table).to_contain_text("you (Anthropic's count)")
    expect(table).to_contain_text("over 200,000 input tokens")


def test_chips_remove_by_their_labelled_buttons_and_the_chat_counts_use_the_picked_names(app_page):
    app_page.goto("", "tok=gpt-4o,gpt-4")
    app_page.run(lambda: app_page.main.get_by_role("button", name="Remove GPT-4", exact=True).click())
    assert _chips(app_page) == ["GPT-4o"]
    app_page.run(lambda: app_page.main.get_by_text("Chat request", exact=True).click())
    # every message's count names the picked model
    label = app_page.main.get_by_text(re.compile(r"^GPT-4o: \d+ tokens$"))
    expect(label.first).to_be_visible()
    assert label.count() == len(app_page.main.get_by_role("combobox", name=re.compile("^Message ")).all())
    expect(app_page.main.get_by_text(re.compile(r"^o200k_base: \d+ tokens$"))).to_have_count(0)


def test_a_model_only_the_price_source_has_is_counted_with_the_users_tokenizer(app_page):
    app_page.goto("", "tok=gpt-4o")
    _search(app_page, "gpt-6 astra")
    assert _options(app_page)[0] == "GPT-6 Astra"
    app_page.run(lambda: app_page.page.keyboard.press("Enter"))
    box = app_page.main.get_by_test_id("stSelectbox").filter(has_text="Count GPT-6 Astra with (your choice)")
    box.click()
    app_page.run(lambda: app_page.page.get_by_role("option", name="o200k_base", exact=True).click())
    table = app_page.main.get_by_test_id("stDataFrame").filter(has_text="Per request $")
    expect(table).to_contain_text("o200k_base (your choice)")
    text = app_page.main.locator("textarea.tw-live-box").input_value()
    expect(table).to_contain_text(f"{builtin('o200k_base').count(text):,}")
    assert not app_page.exceptions()


def test_enter_adds_the_model_the_query_names_and_numbers_match_whole(app_page):
    """Issue 31 (11): "llama 4" + Enter added the Llama 4 encoding and offered Llama 3.1 405B
    (its "405B" matched the "4")."""
    app_page.goto("", "tok=r50k_base")
    _search(app_page, "llama 4")
    expect(_combo(app_page)).to_have_attribute("aria-expanded", "true")
    options = _options(app_page)
    assert options[:2] == ["Llama 4 Scout", "Llama 4 Maverick"]
    assert "Llama 4" in options  # the encoding is still offered, after the models
    assert not any("405B" in o for o in options)
    app_page.run(lambda: app_page.page.keyboard.press("Enter"))
    assert _chips(app_page) == ["r50k_base (gpt2)", "Llama 4 Scout"]
    # a typed number still finds the names it starts: GPT-4o and GPT-4.1 for "gpt 4"
    _search(app_page, "gpt 4")
    options = _options(app_page)
    assert "GPT-4o" in options and all(o.startswith("GPT-4") for o in options[:5])
    # a model only the price source has is listed under its maker
    _search(app_page, "DeepSeek V4.1 Flash 1017")
    item = app_page.main.get_by_role("option").filter(has_text="DeepSeek V4.1 Flash 1017").first
    expect(item).to_contain_text("DeepSeek · you choose the tokenizer")
    assert not app_page.exceptions()
