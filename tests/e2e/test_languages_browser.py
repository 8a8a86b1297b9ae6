"""The language cost page in a real Chromium: base language, uploads, escaping, RTL."""

from __future__ import annotations

import csv
import re

import pytest
from playwright.sync_api import expect

from tests.conftest import builtin
from tokenizer_core.languages import load_parallel_sample

pytestmark = pytest.mark.e2e


def _heatmap(app):
    return app.main.get_by_test_id("stVegaLiteChart").first


def _cells(app) -> list[str]:
    """Heatmap cells as drawn: Vega's aria-label of each rect ("tokenizer: ...; language: ...")."""
    rects = _heatmap(app).locator("svg .mark-rect path")
    expect(rects.first).to_be_attached()
    labels = rects.evaluate_all("els => els.map(e => e.getAttribute('aria-label') || '')")
    return [label for label in labels if "language: " in label]


def _labels(app) -> list[str]:
    """The numbers written in the heatmap cells, in drawing order."""
    texts = _heatmap(app).locator("svg g.mark-text.role-mark text")
    return texts.evaluate_all("els => els.map(e => e.textContent)")


def _cell(cells: list[str], language: str, tokenizer: str) -> dict[str, str]:
    """One cell's fields, e.g. {"language": "Hindi", "tokens": "326", "tokens in English": "73"}."""
    for label in cells:
        fields = dict(part.split(": ", 1) for part in label.split("; "))
        if fields.get("language") == language and fields.get("tokenizer") == tokenizer:
            return fields
    raise AssertionError(f"no cell for {language} / {tokenizer} in {cells[:3]}")


def _premium_of(cells: list[str], language: str, tokenizer: str, base: str) -> float:
    """Premium as drawn, exactly: the cell's tokens over the base tokens shown with it."""
    fields = _cell(cells, language, tokenizer)
    return int(fields["tokens"].replace(",", "")) / int(fields[f"tokens in {base}"].replace(",", ""))


def _choose(app, label: str, option: str) -> None:
    box = app.main.get_by_test_id("stSelectbox").filter(has_text=label).first
    box.click()
    app.page.keyboard.type(option)  # filter: the option list is virtualised
    app.run(lambda: app.page.get_by_role("option", name=option, exact=True).click())


def test_changing_the_base_language_redraws_the_heatmap(app_page):
    app_page.goto("languages")
    assert not app_page.exceptions()
    before = _cells(app_page)
    labels_before = _labels(app_page)
    assert len(before) == 26 * 5
    assert _premium_of(before, "English", "cl100k_base", "English") == 1
    sample = {l.code: l for l in load_parallel_sample()}
    tok = builtin("cl100k_base")
    expected_hi = tok.count(sample["hi"].text) / tok.count(sample["en"].text)
    assert _premium_of(before, "Hindi", "cl100k_base", "English") == expected_hi

    _choose(app_page, "Base language", "Hindi")
    expect(_heatmap(app_page).locator("svg").first).to_contain_text("tokens in Hindi")
    after = _cells(app_page)
    assert _premium_of(after, "Hindi", "cl100k_base", "Hindi") == 1
    assert _premium_of(after, "English", "cl100k_base", "Hindi") == pytest.approx(1 / expected_hi)
    assert _cell(after, "Hindi", "cl100k_base")["premium"] == "1.0"
    labels_after = _labels(app_page)
    assert len(labels_after) == len(labels_before) == 26 * 5
    assert labels_after != labels_before
    assert labels_before.count("1.00") == 5 and labels_after.count("1.00") >= 5  # Urdu ~ Hindi
    assert not app_page.exceptions()


def test_uploaded_translation_is_escaped_and_rtl_reads_right_to_left(app_page, tmp_path):
    app_page.goto("languages")
    attack = '<img src=x onerror=alert(1)> <script>alert("x")</script>'
    csv_file = tmp_path / "mine.csv"
    with csv_file.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows([["language", "text"], ["Evil", f"hello {attack}"]])
    app_page.main.get_by_text("Texts: edit any language").click()  # opening an expander: no rerun
    uploader = app_page.main.get_by_test_id("stFileUploaderDropzoneInput").first
    app_page.run(lambda: uploader.set_input_files(str(csv_file)))
    expect(app_page.main.get_by_text(re.compile(r"mine\.csv: added 1 \(Evil\)"))).to_be_visible()

    _choose(app_page, "Right", "Evil")
    views = app_page.page.locator(".tw-tokens")
    expect(views).to_have_count(2)
    assert views.nth(1).inner_text().replace("\n", "") == f"hello {attack}"
    assert app_page.page.locator(".tw-view img, .tw-view script").count() == 0
    app_page.page.wait_for_timeout(300)
    assert app_page.dialogs == []

    _choose(app_page, "Right", "Arabic")
    arabic = app_page.page.locator(".tw-tokens").nth(1)
    expect(arabic).to_have_attribute("dir", "rtl")
    expect(arabic).to_have_attribute("lang", "ar")
    assert arabic.evaluate("e => getComputedStyle(e).direction") == "rtl"
    assert app_page.page.locator(".tw-tokens").nth(0).evaluate("e => getComputedStyle(e).direction") == "ltr"

    # a file that is not UTF-8 gets a message and changes nothing
    bad = tmp_path / "latin1.csv"
    bad.write_bytes("language,text\nFrench,café\n".encode("latin-1"))
    app_page.run(lambda: uploader.set_input_files(str(bad)))
    expect(app_page.main.get_by_text(re.compile("latin1.csv is not UTF-8 text"))).to_be_visible()
    assert not app_page.exceptions()
