"""A user's names are shown as typed, never as Markdown, in a real Chromium.

A trained tokenizer and a language get names full of Markdown, a link and bare URLs; every
place they appear (metric labels, their hover help, captions, chips, tables) must show the
text literally: no link to evil.example anywhere, no bold, no stray backslash.
"""

from __future__ import annotations

import csv

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import COUNT, COUNT_LABEL

pytestmark = pytest.mark.e2e

HOSTILE = "ALICE-SECRET-BPE **bold** [x](https://evil.example)"
LANGUAGE = "Evilish **bold** see www.evil.example or https://evil.example/x :smile:"
WJ = "\u2060"


def _nav(app, title: str) -> None:
    link = app.page.get_by_test_id("stSidebarNavLink").filter(has_text=title)
    app.run(lambda: link.click())


def _pick(app, label: str, typed: str) -> None:
    box = app.main.get_by_test_id("stMultiSelect").filter(has_text=label).first
    box.locator("input").click()
    app.page.keyboard.type(typed)
    app.run(lambda: app.page.keyboard.press("Enter"))
    app.page.keyboard.press("Escape")


def _choose(app, label: str, option: str) -> None:
    box = app.main.get_by_test_id("stSelectbox").filter(has_text=label).first
    box.click()
    app.page.keyboard.type(option[:12])
    app.run(lambda: app.page.get_by_role("option").filter(has_text=option[:12]).first.click())


def _no_markup_from_names(app) -> None:
    page = app.page
    assert page.locator("a[href*='evil']").count() == 0
    bold = page.locator("strong, b, em").evaluate_all("els => els.map(e => e.textContent.trim())")
    assert "bold" not in bold  # the name's **bold** was not rendered as bold
    body = page.locator("body").inner_text().replace(WJ, "")
    assert "\\*" not in body and "\\[" not in body and "\\." not in body  # no stray backslashes
    assert not app.exceptions()


def _tooltips(app) -> list[str]:
    """The text of every help tooltip in the main area (each is drawn on hover only)."""
    texts = []
    icons = app.main.get_by_test_id("stTooltipIcon")
    for i in range(icons.count()):
        icons.nth(i).hover()
        tip = app.page.get_by_test_id("stTooltipContent").last
        tip.wait_for(state="visible", timeout=5_000)
        assert tip.locator("a").count() == 0
        texts.append(tip.inner_text().replace(WJ, ""))
        app.page.mouse.move(0, 0)
    return texts


def test_hostile_names_are_literal_on_the_identifiers_and_languages_pages(app_page, tmp_path):
    app = app_page
    app.goto("bpe")  # the first visit trains the default preset
    name_box = app.main.get_by_label("Name", exact=True)
    name_box.fill(HOSTILE)
    app.run(lambda: name_box.press("Enter"))
    app.run(lambda: app.main.get_by_role("button", name="Use this tokenizer on every page").click())
    expect(app.main.get_by_test_id("stAlertContentSuccess")).to_contain_text("ALICE")
    _no_markup_from_names(app)

    _nav(app, "Code identifiers")
    _pick(app, "Tokenizers", "ALICE")
    metric = app.main.locator(COUNT).filter(has_text="ALICE").first
    expect(metric).to_be_visible()
    label = metric.locator(COUNT_LABEL).first.inner_text().replace(WJ, "")
    assert label.strip() == f"{HOSTILE} tokens"
    _no_markup_from_names(app)

    _nav(app, "Language costs")
    csv_file = tmp_path / "mine.csv"
    with csv_file.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows([["language", "text"], [LANGUAGE, "word " * 400]])
    app.main.get_by_text("Texts: edit any language").click()
    uploader = app.main.get_by_test_id("stFileUploaderDropzoneInput").first
    app.run(lambda: uploader.set_input_files(str(csv_file)))
    _pick(app, "Tokenizers", "ALICE")
    _choose(app, "Base language", LANGUAGE)
    metric = app.main.locator(COUNT).filter(has_text="ALICE").first
    expect(metric).to_be_visible()
    assert metric.locator(COUNT_LABEL).first.inner_text().replace(WJ, "").strip() == HOSTILE
    assert any(LANGUAGE in t for t in _tooltips(app))  # the base language's name, in the help
    _no_markup_from_names(app)
